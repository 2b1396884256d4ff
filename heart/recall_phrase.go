package heart

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// How recalled things read (DESIGN §12 "Recall": dated recollections,
// apart from the current conversation) and what a returning user is
// greeted with (seed 003 §7.1). Pure: the caller passes now and the
// persona's language.

// Sizes of a recollection; hearth's choices. A recollection is a reminder,
// not a transcript: the user's words up to a few sentences, the
// companion's answer as a hint of what was said back.
const (
	RecollectionTextRunes  = 200
	RecollectionReplyRunes = 80
)

// Returns after an absence (seed 003 §7 用户回归场景). The seed gives no
// number; hearth's choices.
const (
	// ReturnAbsence is how long a user must have been silent to be
	// "returning": a week, past the everyday rhythm of a companion chat.
	ReturnAbsence = 7 * 24 * time.Hour
	// ReturnTopicWindow is how far before they went quiet the heavy topic
	// is looked for: their last month of talk.
	ReturnTopicWindow = 30 * 24 * time.Hour
	// ReturnTopicSalience is the least trailer salience of a heavy topic
	// that was no deep disclosure (seed 002: big events are high).
	ReturnTopicSalience = 0.7
	// topicQuoteRunes bounds the quoted topic in a greeting: a few words.
	topicQuoteRunes = 48
	// topicMinWeight is the least weight of a quoted topic, a letter 1
	// and a Chinese or Japanese character 2: "唉" or "well" alone says
	// nothing, "我失恋了" does.
	topicMinWeight = 8
)

// Returning reports whether a user whose last message was at last comes
// back at now after ReturnAbsence or more. A user who never wrote is new,
// not returning.
func Returning(last, now time.Time) bool {
	return !last.IsZero() && now.Sub(last) >= ReturnAbsence
}

// HeavyTopic is the most salient thing among cands (episodes the user said
// in their last ReturnTopicWindow before going quiet), the one a returning
// user is asked about (seed 003 §7.1 "如果用户曾分享过深层话题（如失恋）"):
// a deep disclosure or an episode of salience ≥ ReturnTopicSalience, the
// most important by RecallImportance, then the newest. Words of a crisis
// are never quoted back. ok is false when nothing was heavy.
func HeavyTopic(cands []RecallCandidate) (RecallCandidate, bool) {
	var heavy []RecallCandidate
	for _, c := range cands {
		salient := c.HasValues && c.Salience >= ReturnTopicSalience
		if (c.Disclosure == DisclosureDeep || salient) && strings.TrimSpace(c.Text) != "" && !CrisisText(c.Text) {
			heavy = append(heavy, c)
		}
	}
	if len(heavy) == 0 {
		return RecallCandidate{}, false
	}
	return slices.MaxFunc(heavy, func(a, b RecallCandidate) int {
		if c := cmp.Compare(RecallImportance(a), RecallImportance(b)); c != 0 {
			return c
		}
		return a.At.Compare(b.At)
	}), true
}

// TopicPhrase names what the user said, for ReturnGreeting in lang: their
// first clause of a few words, quoted ("“we broke up last night”",
// "“我失恋了”那件事", "「別れた」"). "" when text has no words.
func TopicPhrase(text, lang string) string {
	text = strings.TrimSpace(text)
	weight, end := 0, len(text)
	for i, r := range text {
		if strings.ContainsRune(".!?;\n。！？；,，、…", r) && weight >= topicMinWeight {
			end = i
			break
		}
		switch {
		case isCJK(r):
			weight += 2
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			weight++
		}
	}
	if weight == 0 {
		return ""
	}
	quote := ClipRunes(strings.TrimRightFunc(text[:end], func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) }), topicQuoteRunes)
	return relPick(lang, "“"+quote+"”那件事", "“"+quote+"”", "「"+quote+"」")
}

// RecallPlace is where a recollection was said, as its line tells it.
type RecallPlace int

const (
	// SaidPrivately: in a private chat, or a memory.
	SaidPrivately RecallPlace = iota
	// SaidInAGroup: in a group chat, recalled in a private one.
	SaidInAGroup
	// SaidHere: in the very group the recollection is recalled in.
	SaidHere
)

// PhraseRecollection is one dated line of the prompt's recollections,
// in lang, attributed to speaker (the user's name): "About three weeks
// ago, Ann said: “…” (you answered: “…”)", "三周前左右，Ann说：“…”",
// "3週間ほど前、Annは「…」と言っていた"; a memory reads "A memory you keep
// (last month): …". now and r.At are compared in now's location.
func PhraseRecollection(r Recollection, now time.Time, lang, speaker string, place RecallPlace) string {
	when := RecallWhen(r.At, now, lang)
	text := strings.TrimSpace(r.Text)
	if r.Key.Kind == RecallMemory {
		return relPick(lang, "你记着的（"+when+"）："+text, "A memory you keep ("+when+"): "+text, "覚えていること（"+when+"）："+text)
	}
	said := [3]string{"说", "said", "は「%s」と言っていた"}
	switch place {
	case SaidInAGroup:
		said = [3]string{"在一个群聊里说", "said in a group chat", "はグループで「%s」と言っていた"}
	case SaidHere:
		said = [3]string{"在这个群里说", "said in this group", "はこのグループで「%s」と言っていた"}
	}
	line := relPick(lang,
		when+"，"+speaker+said[0]+"：“"+text+"”",
		capitalFirst(when)+", "+speaker+" "+said[1]+": “"+text+"”",
		when+"、"+speaker+strings.Replace(said[2], "%s", text, 1))
	if reply := strings.TrimSpace(r.Reply); reply != "" {
		line += relPick(lang, "（你回答：“"+reply+"”）", " (you answered: “"+reply+"”)", "（あなたの返事：「"+reply+"」）")
	}
	return line
}

// RecallWhen says when at was, seen from now, as people say it: "earlier
// today", "yesterday", "three days ago", "about a week ago", "about three
// weeks ago", "last month", "in March", "in March last year", "in 2024"
// (and the same in Chinese and Japanese). The future counts as today.
func RecallWhen(at, now time.Time, lang string) string {
	at = at.In(now.Location())
	days := int(dateOf(now).Sub(dateOf(at)).Hours()/24 + 0.5)
	months := (now.Year()-at.Year())*12 + int(now.Month()) - int(at.Month())
	w := whenWords[langIndexOf(lang)]
	switch {
	case days <= 0:
		return w.today
	case days == 1:
		return w.yesterday
	case days < 7:
		return strings.Replace(w.days, "%n", w.num(days), 1)
	case days < 11:
		return w.week
	case days < 28 || months == 0:
		return strings.Replace(w.weeks, "%n", w.num(min((days+3)/7, 4)), 1)
	case months == 1:
		return w.lastMonth
	case now.Year() == at.Year():
		return strings.Replace(w.month, "%m", w.months[at.Month()-1], 1)
	case now.Year()-at.Year() == 1:
		return strings.Replace(w.monthLastYear, "%m", w.months[at.Month()-1], 1)
	}
	return strings.Replace(w.year, "%y", strconv.Itoa(at.Year()), 1)
}

// when is one language's words for RecallWhen.
type when struct {
	today, yesterday, days, week, weeks, lastMonth, month, monthLastYear, year string
	numbers                                                                    []string // 0..6 in words; "" for digits
	months                                                                     [12]string
}

func (w when) num(n int) string {
	if n < len(w.numbers) && w.numbers[n] != "" {
		return w.numbers[n]
	}
	return strconv.Itoa(n)
}

// whenWords are RecallWhen's words in en, zh, ja (langIndexOf's order).
var whenWords = [3]when{
	{
		today: "earlier today", yesterday: "yesterday", days: "%n days ago", week: "about a week ago",
		weeks: "about %n weeks ago", lastMonth: "last month", month: "in %m", monthLastYear: "in %m last year", year: "in %y",
		numbers: []string{"", "one", "two", "three", "four", "five", "six"},
		months:  [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	},
	{
		today: "今天早些时候", yesterday: "昨天", days: "%n天前", week: "大约一周前",
		weeks: "大约%n周前", lastMonth: "上个月", month: "今年%m", monthLastYear: "去年%m", year: "%y年",
		numbers: []string{"", "一", "两", "三", "四", "五", "六"},
		months:  [12]string{"一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"},
	},
	{
		today: "今日", yesterday: "昨日", days: "%n日前", week: "1週間ほど前",
		weeks: "%n週間ほど前", lastMonth: "先月", month: "%m", monthLastYear: "去年の%m", year: "%y年",
		months: [12]string{"1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"},
	},
}

// langIndexOf orders en, zh, ja as whenWords does.
func langIndexOf(lang string) int {
	switch relLang(lang) {
	case "zh":
		return 1
	case "ja":
		return 2
	}
	return 0
}

// capitalFirst upper-cases the first letter ("about a week ago" opens a
// sentence).
func capitalFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// ClipRunes cuts s to at most n runes, marking a cut with "…", at a word:
// after the last space or comma in the second half of what fits ("Bisc…"
// names nothing), or where it ends in a run of Chinese or Japanese, which
// has no spaces.
func ClipRunes(s string, n int) string {
	s = strings.TrimSpace(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := r[:max(n-1, 0)]
	for i := len(cut) - 1; i > len(cut)/2; i-- {
		if unicode.IsSpace(cut[i]) || strings.ContainsRune("、，,", cut[i]) {
			return strings.TrimRight(string(cut[:i]), " ,;:、，") + "…"
		}
	}
	return strings.TrimSpace(string(cut)) + "…"
}
