package heart

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// PhraseSet finds known phrases in a text the way hearth's heuristics need
// it: text and phrases folded alike (see Fold); ASCII phrases match whole
// words (a possessive "'s" ends a word), Chinese and Japanese ones by
// substring; where hits overlap, the
// leftmost-longest one wins, so 女朋友 is found and the 朋友 inside it is not,
// and 付き合ってた claims the 付き合って it contains. Each hit reports
// whether it is negated, by the rules Detect uses. A set is immutable once
// built and safe for concurrent use.
//
// Tables list "traps" — longer phrases that only look like a keyword — as
// phrases of their own that mean nothing, and overlap resolution does the
// rest: no if-statement per trap.
type PhraseSet struct {
	phrases []string // folded; "" for blank input phrases, which never match
	ascii   []bool
	byFirst map[rune][]int32
}

// PhraseHit is one phrase found in a text: its index in the list given to
// NewPhraseSet, its byte span in the folded text, and whether a negator
// turns it around ("not sorry", "不喜欢", "好きじゃない").
type PhraseHit struct {
	Index      int
	Start, End int
	Negated    bool
}

// NewPhraseSet indexes phrases; hits report indices into this slice.
func NewPhraseSet(phrases []string) *PhraseSet {
	s := &PhraseSet{phrases: make([]string, len(phrases)), ascii: make([]bool, len(phrases)), byFirst: map[rune][]int32{}}
	for i, p := range phrases {
		f := Fold(strings.TrimSpace(p))
		s.phrases[i], s.ascii[i] = f, isASCII(f)
		if f == "" {
			continue
		}
		r, _ := utf8.DecodeRuneInString(f)
		s.byFirst[r] = append(s.byFirst[r], int32(i))
	}
	return s
}

// Find folds text and returns its phrases, leftmost-longest and
// non-overlapping, in order of appearance.
func (s *PhraseSet) Find(text string) []PhraseHit {
	t := Fold(text)
	var out []PhraseHit
	end := 0 // no hit may start before the end of the last one taken
	prev := rune(-1)
	for i, r := range t {
		if i < end {
			prev = r
			continue
		}
		best := -1
		bestEnd := -1
		for _, pi := range s.byFirst[r] {
			p := s.phrases[pi]
			if !strings.HasPrefix(t[i:], p) {
				continue
			}
			e := i + len(p)
			if s.ascii[pi] && !wordBounded(t, i, e, prev) {
				continue
			}
			if e > bestEnd {
				best, bestEnd = int(pi), e
			}
		}
		if best >= 0 {
			out = append(out, PhraseHit{Index: best, Start: i, End: bestEnd, Negated: negatedSpan(t, i, bestEnd, s.ascii[best])})
			end = bestEnd
		}
		prev = r
	}
	return out
}

// Has reports whether text contains any phrase of the set, not negated.
func (s *PhraseSet) Has(text string) bool {
	for _, h := range s.Find(text) {
		if !h.Negated {
			return true
		}
	}
	return false
}

// wordBounded reports whether t[start:end] stands as a whole word: prev is
// the rune before start (-1 at the beginning). A Chinese or Japanese
// character beside it ends it: an English word written into a Chinese or
// Japanese sentence ("今天好tired啊", "boss又push我") is a word.
func wordBounded(t string, start, end int, prev rune) bool {
	if start > 0 && prev >= 0 && continuesLatin(prev) {
		return false
	}
	if end < len(t) {
		next, _ := utf8.DecodeRuneInString(t[end:])
		if continuesLatin(next) && !possessive(t[end:]) {
			return false
		}
	}
	return true
}

// continuesLatin reports whether r continues a word written in Latin
// letters: a word rune that is no Chinese or Japanese character.
func continuesLatin(r rune) bool {
	if r < utf8.RuneSelf {
		return isWordRune(r)
	}
	return isWordRune(r) && !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) && r != 'ー'
}

// possessive reports whether rest starts with an English possessive "'s"
// ending a word: "cat" is found in "my cat's name".
func possessive(rest string) bool {
	if !strings.HasPrefix(rest, "'s") {
		return false
	}
	next, _ := utf8.DecodeRuneInString(rest[2:])
	return len(rest) == 2 || !isWordRune(next)
}

// negatedSpan applies Detect's negation rules to the hit t[start:end]: an
// English phrase with a negator among the few words before it in its
// clause, a Chinese phrase right after 不/没/别…, a Japanese phrase followed
// by ない/じゃない….
func negatedSpan(t string, start, end int, ascii bool) bool {
	if ascii {
		return enNegatedBefore(t[:start])
	}
	before, after := t[:start], t[end:]
	for _, n := range zhNegators() {
		if strings.HasSuffix(before, n) && !zhNegationException(before) {
			return true
		}
	}
	for _, n := range jaNegators() {
		if strings.HasPrefix(after, n) {
			return true
		}
	}
	return false
}
