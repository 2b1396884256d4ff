package heart

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Category groups the emotion labels as seed 000 does for emoji_allowed
// (000_c7e9a00696ccb7ec.txt "emoji_allowed SHALL 根据情感类别设置").
type Category string

// The four categories of seed 000.
const (
	CategoryPositive Category = "positive"
	CategorySeeking  Category = "seeking"
	CategoryNegative Category = "negative"
	CategoryNeutral  Category = "neutral"
)

// Category returns the seed 000 category of e; unknown labels are neutral,
// like their strategy.
func (e Emotion) Category() Category {
	switch e {
	case Happy, Excited, Grateful, Curious:
		return CategoryPositive
	case HelpSeeking, InfoSeeking, ValidationSeeking:
		return CategorySeeking
	case Sad, Anxious, Angry, Lonely, Frustrated:
		return CategoryNegative
	default:
		return CategoryNeutral
	}
}

// Known reports whether e is one of the 13 labels of DESIGN §3 step 2, so
// callers can reject a stored or configured label they do not understand.
func (e Emotion) Known() bool {
	return e == Neutral || e.Category() != CategoryNeutral
}

// Emotions returns every label in tie-break order (see Detect): negative
// first, then seeking, then positive, neutral last.
func Emotions() []Emotion {
	return []Emotion{
		Sad, Anxious, Angry, Lonely, Frustrated,
		HelpSeeking, InfoSeeking, ValidationSeeking,
		Happy, Excited, Grateful, Curious,
		Neutral,
	}
}

// emotionRank is e's position in Emotions(); lower wins a tie. A switch,
// not a lookup in Emotions(), because Detect calls it per keyword hit.
func emotionRank(e Emotion) int {
	switch e {
	case Sad:
		return 0
	case Anxious:
		return 1
	case Angry:
		return 2
	case Lonely:
		return 3
	case Frustrated:
		return 4
	case HelpSeeking:
		return 5
	case InfoSeeking:
		return 6
	case ValidationSeeking:
		return 7
	case Happy:
		return 8
	case Excited:
		return 9
	case Grateful:
		return 10
	case Curious:
		return 11
	default:
		return 12
	}
}

// Confidence by number of distinct keywords of the winning label.
const (
	// ConfidenceOne is 000_c7e9a00696ccb7ec.txt "匹配 1 个关键词：confidence = 0.3".
	ConfidenceOne = 0.3
	// ConfidenceTwo is 000_c7e9a00696ccb7ec.txt "匹配 2 个关键词：confidence = 0.5".
	ConfidenceTwo = 0.5
	// ConfidenceMany is 000_c7e9a00696ccb7ec.txt "匹配 3 个及以上关键词：confidence = 0.7".
	ConfidenceMany = 0.7
)

// confidenceFor maps a keyword count to the seed 000 confidence; zero
// keywords (nothing detected) is confidence 0.
func confidenceFor(n int) float64 {
	switch {
	case n <= 0:
		return 0
	case n == 1:
		return ConfidenceOne
	case n == 2:
		return ConfidenceTwo
	default:
		return ConfidenceMany
	}
}

// enNegationWindow is how many words before an English keyword are searched
// for a negator ("I'm not very happy", "I don't feel happy"). Our choice:
// seed 000 is silent on negation; three words covers an adverb and a verb.
const enNegationWindow = 3

// maxOccurrences bounds the keyword hits one Detect call records, so a
// pathological message ("哭" ten thousand times) costs bounded memory. Our
// choice: far above any real message.
const maxOccurrences = 1024

// keyword is one folded lexicon entry.
type keyword struct {
	text  string
	label Emotion
	ascii bool
}

// Lexicon is the keyword table of seed 000's heuristic detector: the
// built-in Chinese, English and Japanese keywords plus a persona's own. It is
// immutable after NewLexicon and safe for concurrent use.
type Lexicon struct {
	kws     []keyword
	byFirst map[rune][]int32 // first rune of the folded keyword → indices into kws
}

// NewLexicon builds the built-in lexicon extended by extra (persona
// `lexicon:` label → keywords). An unknown label is an error naming it, so a
// typo in a persona file is reported at load time rather than ignored.
// Blank keywords are skipped and duplicates are kept once.
func NewLexicon(extra map[string][]string) (*Lexicon, error) {
	all := map[Emotion][]string{}
	for _, src := range []map[Emotion][]string{builtinZh(), builtinEn(), builtinJa()} {
		for e, ws := range src {
			all[e] = append(all[e], ws...)
		}
	}
	labels := make([]string, 0, len(extra))
	for k := range extra {
		labels = append(labels, k)
	}
	slices.Sort(labels)
	for _, k := range labels {
		e := Emotion(strings.ToLower(strings.TrimSpace(k)))
		if !e.Known() {
			return nil, fmt.Errorf("lexicon: unknown emotion label %q", k)
		}
		all[e] = append(all[e], extra[k]...)
	}
	l := &Lexicon{byFirst: map[rune][]int32{}}
	seen := map[keyword]bool{}
	for _, e := range Emotions() {
		for _, w := range all[e] {
			f := Fold(strings.TrimSpace(w))
			if f == "" {
				continue
			}
			k := keyword{text: f, label: e, ascii: isASCII(f)}
			if seen[k] {
				continue
			}
			seen[k] = true
			r, _ := utf8.DecodeRuneInString(f)
			l.byFirst[r] = append(l.byFirst[r], int32(len(l.kws)))
			l.kws = append(l.kws, k)
		}
	}
	return l, nil
}

// Detection is the result of seed 000's heuristic detection of one message.
type Detection struct {
	// Emotion is the winning label; Neutral when nothing matched.
	Emotion Emotion
	// Confidence is 0.3 / 0.5 / 0.7 for 1 / 2 / ≥3 distinct keywords of the
	// winning label, 0 when nothing matched.
	Confidence float64
	// Indicators are all counted keywords of all labels (seed 000 "所有匹配
	// 的关键词 SHALL 记录在 indicators 中"), folded, in order of first
	// appearance, each once.
	Indicators []string
	// Negated are keywords that appeared but were negated ("not happy",
	// "不担心", "怖くない") and so counted for nothing; kept for /why.
	Negated []string
}

// occurrence is one keyword hit in folded text.
type occurrence struct {
	start, end int
	kw         int32
}

// Detect runs seed 000's heuristic detection on text.
//
// Matching: text and keywords are folded (see Fold); English keywords match
// whole words, Chinese and Japanese by substring. A hit lying inside a longer
// hit counts only as the longer one ("不开心" is sad, not happy; "楽しみ" is
// excited, not happy).
//
// Negation: an English keyword preceded within enNegationWindow words of the
// same clause by a negator ("not", "never", any "…n't"), a Chinese keyword
// preceded by 不/没/别…, and a Japanese keyword followed by くない/ない/
// じゃない… is negated: it counts for no label and is reported in Negated.
// Phrases that turn a feeling around ("not happy", "不开心", "嬉しくない")
// are sad keywords of their own, so such messages read as sad.
//
// Scoring: the label with the most distinct counted keywords wins; ties go
// to the earlier label of Emotions() — negative beats seeking beats positive
// beats neutral, because missing distress costs more than missing joy.
func (l *Lexicon) Detect(text string) Detection {
	t := Fold(text)
	occ := l.scan(t)
	if len(occ) == 0 {
		return Detection{Emotion: Neutral}
	}
	slices.SortFunc(occ, func(a, b occurrence) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	counted := make([]uint8, len(l.kws)) // 0 unseen, 1 counted, 2 negated
	var counts [16]int
	var d Detection
	// Sorted by start, longest first: a hit is inside a longer one when an
	// earlier-starting hit reaches at least as far, or the first (longest)
	// hit of its own start group reaches further.
	maxPrev, curStart, curFirstEnd := -1, -1, -1
	for _, o := range occ {
		if o.start != curStart {
			maxPrev = max(maxPrev, curFirstEnd)
			curStart, curFirstEnd = o.start, o.end
		}
		if maxPrev >= o.end || curFirstEnd > o.end {
			continue
		}
		k := l.kws[o.kw]
		if counted[o.kw] == 1 {
			continue
		}
		if l.negated(t, o, k) {
			if counted[o.kw] == 0 {
				counted[o.kw] = 2
				d.Negated = appendOnce(d.Negated, k.text)
			}
			continue
		}
		counted[o.kw] = 1
		counts[emotionRank(k.label)]++
		d.Indicators = appendOnce(d.Indicators, k.text)
	}
	best := -1
	for i := range counts {
		if counts[i] > 0 && (best < 0 || counts[i] > counts[best]) {
			best = i
		}
	}
	if best < 0 {
		d.Emotion = Neutral
		return d
	}
	d.Emotion = Emotions()[best]
	d.Confidence = confidenceFor(counts[best])
	return d
}

// appendOnce appends s unless already present; lists are short.
func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// scan finds every keyword hit in folded text t.
func (l *Lexicon) scan(t string) []occurrence {
	var occ []occurrence
	prev := rune(-1)
	for i, r := range t {
		cands := l.byFirst[r]
		for _, ki := range cands {
			k := l.kws[ki]
			if !strings.HasPrefix(t[i:], k.text) {
				continue
			}
			end := i + len(k.text)
			if k.ascii {
				if prev >= 0 && isWordRune(prev) {
					continue
				}
				if next, _ := utf8.DecodeRuneInString(t[end:]); end < len(t) && isWordRune(next) {
					continue
				}
			}
			if len(occ) < maxOccurrences {
				occ = append(occ, occurrence{start: i, end: end, kw: ki})
			}
		}
		prev = r
	}
	return occ
}

// negated reports whether the hit o of keyword k in folded text t is negated
// (see Detect).
func (l *Lexicon) negated(t string, o occurrence, k keyword) bool {
	return negatedSpan(t, o.start, o.end, k.ascii)
}

// zhNegationException reports whether before ends in a word such as 特别
// whose last character only looks like a negator.
func zhNegationException(before string) bool {
	for _, w := range zhNegationExceptions() {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return false
}

// enNegatedBefore reports whether one of the last enNegationWindow words of
// before, within its last clause, is an English negator.
func enNegatedBefore(before string) bool {
	end := len(before)
	for w := 0; w < enNegationWindow; w++ {
		// Skip separators back to the end of the previous word; a clause
		// boundary ends the search.
		for end > 0 {
			r, size := utf8.DecodeLastRuneInString(before[:end])
			if isWordRune(r) {
				break
			}
			if strings.ContainsRune(".,;:!?。，；：！？\n", r) {
				return false
			}
			end -= size
		}
		if end == 0 {
			return false
		}
		start := end
		for start > 0 {
			r, size := utf8.DecodeLastRuneInString(before[:start])
			if !isWordRune(r) {
				break
			}
			start -= size
		}
		word := before[start:end]
		if strings.HasSuffix(word, "n't") || slices.Contains(enNegators(), word) {
			return true
		}
		if word == "but" {
			return false
		}
		end = start
	}
	return false
}

// EmotionHistoryLimit is how many records emotion_history keeps
// (000_c7e9a00696ccb7ec.txt "系统 SHALL 保留最近 10 轮的情感记录").
const EmotionHistoryLimit = 10

// EmotionRecord is one entry of a user's emotion_history (seed 000).
type EmotionRecord struct {
	Emotion    Emotion `json:"emotion"`
	Confidence float64 `json:"confidence"`
	Turn       int     `json:"turn"`
}

// AppendHistory returns h with r appended, keeping the newest
// EmotionHistoryLimit records. It never modifies h's backing array, so a
// caller's stored slice stays valid.
func AppendHistory(h []EmotionRecord, r EmotionRecord) []EmotionRecord {
	if len(h) >= EmotionHistoryLimit {
		h = h[len(h)-EmotionHistoryLimit+1:]
	}
	out := make([]EmotionRecord, 0, len(h)+1)
	out = append(out, h...)
	return append(out, r)
}
