package heart

import (
	"cmp"
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Follow-ups (issue 11 item 5): dated things the user mentions ("exam on
// Friday", "下周五是我生日", "来月試験") that the life loop may ask about
// after the date, once. Seed 003 §8.1 keeps 重要日期 (生日, 考试日期) among
// what is never forgotten; a companion that asks "how did the exam go?"
// the day after shows it (§3.1 friend: 主动引用记忆). The reply trailer names
// them (ParseTrailer); for the offline brain, or a trailer that names
// none, ExtractFollowUps reads them from the user's words.

// FollowUp is one dated thing: what it is, in a few words, and the day
// (YYYY-MM-DD in the persona's time zone) after which it may be asked about.
type FollowUp struct {
	About string `json:"about"`
	Due   string `json:"due"`
	// Rough is how the user dated it when the words name a span, not a
	// day: the rule's kind and argument ("sunday0" for "this weekend",
	// "monthend1" for "next month", data/followups.txt); "" for a day
	// ("Friday", "March 3"). Due is then the span's last day, the day
	// after which asking is safe, never a date to repeat to the user.
	// Not stored: only ExtractFollowUps knows it.
	Rough string `json:"-"`
}

// Bounds of follow-ups; hearth's choices.
const (
	// FollowUpHorizonDays is how far ahead a follow-up may lie. Beyond a
	// season a date is rarely still on the user's mind when it comes, and a
	// month-day already past this year ("my exam was on March 3") would
	// otherwise read as next year's.
	FollowUpHorizonDays = 92
	// FollowUpStaleDays is how long after its date a follow-up may still
	// be asked about: "how did the exam go?" a fortnight later is still
	// caring; a month later it is odd.
	FollowUpStaleDays = 14
	// FollowUpMaxAboutRunes bounds what a follow-up is about: a few words.
	FollowUpMaxAboutRunes = 80
	// FollowUpMaxPerTurn bounds the follow-ups one message or one trailer
	// adds.
	FollowUpMaxPerTurn = 3
)

// ExtractFollowUps finds the follow-ups in text, against now (its location
// is the persona's time zone): each sentence with a date expression in
// English, Chinese or Japanese and an event word (data/followups.txt),
// and without a word of the past, gives one follow-up, dated within
// [today, today + FollowUpHorizonDays]. Pure and deterministic; at most
// FollowUpMaxPerTurn, each (about, due) once.
func ExtractFollowUps(text string, now time.Time) []FollowUp {
	t := followUpTables()
	today := dateOf(now)
	var out []FollowUp
	cased := splitSentences(text) // for a name's capital (Fold lowers)
	for i, s := range splitSentences(strings.ToLower(Fold(text))) {
		if len(out) == FollowUpMaxPerTurn {
			break
		}
		if !t.mayHaveEvent(s) || t.matchesAny(t.past, s) {
			continue
		}
		about, at := t.firstEventAt(s)
		if about == "" {
			continue
		}
		if i < len(cased) {
			about = t.owned(s, cased[i], about, at)
		}
		due, rough, ok := t.firstDate(s, today)
		if !ok || !inHorizon(due, today) {
			continue
		}
		f := FollowUp{About: about, Due: due.Format(time.DateOnly), Rough: rough}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// FollowUpToldOf reports whether text tells of what a follow-up is about:
// its own words, or words that tell of the same thing (data/followups.txt
// table told: "back from the doctor" tells of the appointment, 从医院回来了
// of the 体检), matched like the event words after Fold, in any language.
func FollowUpToldOf(about, text string) bool {
	about, text = strings.ToLower(Fold(about)), strings.ToLower(Fold(text))
	if about == "" {
		return false
	}
	if strings.Contains(text, about) {
		return true
	}
	t := followUpTables()
	event := about
	if _, ok := t.told[event]; !ok {
		// "Lily's first day at kindergarten" is told of as kindergarten is.
		if ev := t.firstEvent(about); ev != "" {
			event = ev
		}
		if event != about && strings.Contains(text, event) {
			return true
		}
	}
	for _, re := range t.told[event] {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// FollowUpInRange reports whether due (YYYY-MM-DD) is a day from today to
// FollowUpHorizonDays ahead, today taken in now's location: what a stored
// follow-up may be (a trailer's date in the past or years ahead is not).
func FollowUpInRange(due string, now time.Time) bool {
	d, err := time.ParseInLocation(time.DateOnly, due, now.Location())
	return err == nil && inHorizon(d, dateOf(now))
}

// FollowUpAskable reports whether a follow-up due on due (YYYY-MM-DD) may
// be asked about at now: its day has passed in now's location, by at most
// FollowUpStaleDays.
func FollowUpAskable(due string, now time.Time) bool {
	d, err := time.ParseInLocation(time.DateOnly, due, now.Location())
	if err != nil {
		return false
	}
	today := dateOf(now)
	return d.Before(today) && !d.AddDate(0, 0, FollowUpStaleDays).Before(today)
}

// FollowUpAbout cleans what a follow-up is about: trimmed, one line, at
// most FollowUpMaxAboutRunes runes; "" when nothing is left.
func FollowUpAbout(s string) string {
	return truncateRunes(strings.Join(strings.Fields(s), " "), FollowUpMaxAboutRunes)
}

// dateOf is t's calendar day, at midnight in t's location.
func dateOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

func inHorizon(due, today time.Time) bool {
	return !due.Before(today) && !due.After(today.AddDate(0, 0, FollowUpHorizonDays))
}

// splitSentences cuts text at sentence ends in the three languages.
func splitSentences(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		switch r {
		case '.', '!', '?', ';', '\n', '。', '！', '？', '；':
			return true
		}
		return false
	})
}

//go:embed data/followups.txt
var followUpData string

// followUpTables is followUpData compiled once. A malformed file is a
// build defect (TestFollowUpTablesParse), so it panics.
var followUpTables = sync.OnceValue(func() *followUpLexicon {
	l, err := parseFollowUps(followUpData)
	if err != nil {
		panic(fmt.Sprintf("heart: data/followups.txt: %v", err))
	}
	return l
})

// followUpLexicon is the compiled tables: per language the event and past
// words, the number, unit, weekday and month words, and the date rules.
type followUpLexicon struct {
	words       map[string]map[string]map[string]string // table → lang → word → value
	event, past []*regexp.Regexp
	told        map[string][]*regexp.Regexp             // event → words that tell of it, one expression per language
	toldWords   map[string]map[string]map[string]string // lang → event → the told table's words (a word may tell of several events)
	eventWords  []string                                // every language's, for mayHaveEvent
	rules       []dateRule
	owners      map[string]followUpOwners // lang → kin expressions (followup_owner.go)
}

// dateRule is one compiled rule of the file.
type dateRule struct {
	lang  string
	kind  string
	arg   int
	re    *regexp.Regexp
	slots []string // the placeholders, in the order of their groups
}

// placeholder matches {name} in a rule template.
var placeholder = regexp.MustCompile(`\{(number|unit|weekday|month|day|mnum)\}`)

// cjkNumeral matches a Chinese/Japanese numeral up to 99.
const cjkNumeral = `[〇零一二两三四五六七八九十]{1,3}`

// parseFollowUps compiles data/followups.txt: its word tables, then the
// event and past words into one expression per language, then each date
// rule's template over the tables.
func parseFollowUps(data string) (*followUpLexicon, error) {
	l := &followUpLexicon{words: map[string]map[string]map[string]string{}}
	rules, err := l.readLines(data)
	if err != nil {
		return nil, err
	}
	for _, table := range []struct {
		name string
		dst  *[]*regexp.Regexp
	}{{"event", &l.event}, {"past", &l.past}} {
		for _, lang := range sortedKeys(l.words[table.name]) {
			re, err := regexp.Compile(bounded(lang, alternation(l.words[table.name][lang])))
			if err != nil {
				return nil, fmt.Errorf("%s words of %s: %w", table.name, lang, err)
			}
			re.Longest()
			*table.dst = append(*table.dst, re)
		}
	}
	// told: the words that tell of each event, one expression per language.
	l.told = map[string][]*regexp.Regexp{}
	for _, lang := range sortedKeys(l.toldWords) {
		for _, ev := range sortedKeys(l.toldWords[lang]) {
			re, err := regexp.Compile(bounded(lang, alternation(l.toldWords[lang][ev])))
			if err != nil {
				return nil, fmt.Errorf("told words of %s %s: %w", lang, ev, err)
			}
			l.told[ev] = append(l.told[ev], re)
		}
	}
	for _, lang := range sortedKeys(l.words["event"]) {
		l.eventWords = append(l.eventWords, sortedKeys(l.words["event"][lang])...)
	}
	if err := l.compileOwners(); err != nil {
		return nil, err
	}
	for _, r := range rules {
		rule, err := l.compileRule(r)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", r.n, err)
		}
		l.rules = append(l.rules, rule)
	}
	if len(l.rules) == 0 || len(l.event) == 0 {
		return nil, fmt.Errorf("no rules or no event words")
	}
	return l, nil
}

// ruleLine is a rule line of the file, kept until every word table is read
// (a rule may come before the words it uses).
type ruleLine struct {
	n                    int // the line number, for errors
	lang, kind, template string
}

// readLines fills l's word tables from data and returns its rule lines.
func (l *followUpLexicon) readLines(data string) ([]ruleLine, error) {
	var rules []ruleLine
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 5)
		switch {
		case f[0] == "words" && len(f) == 5:
			table, lang, value := f[1], f[2], f[3]
			if table == "told" {
				if err := l.addTold(lang, value, f[4]); err != nil {
					return nil, fmt.Errorf("line %d: %w", n+1, err)
				}
				continue
			}
			if l.words[table] == nil {
				l.words[table] = map[string]map[string]string{}
			}
			if l.words[table][lang] == nil {
				l.words[table][lang] = map[string]string{}
			}
			for _, w := range strings.Split(f[4], "|") {
				if w = strings.TrimSpace(w); w == "" {
					return nil, fmt.Errorf("line %d: empty word", n+1)
				}
				l.words[table][lang][w] = value
			}
		case f[0] == "rule" && len(f) >= 4:
			rules = append(rules, ruleLine{n + 1, f[1], f[2], strings.Join(f[3:], " ")})
		default:
			return nil, fmt.Errorf("line %d: want `words TABLE LANG VALUE ALTS` or `rule LANG KIND TEMPLATE`", n+1)
		}
	}
	return rules, nil
}

// addTold records words (ALT|ALT…) that tell of event in lang.
func (l *followUpLexicon) addTold(lang, event, words string) error {
	if l.toldWords == nil {
		l.toldWords = map[string]map[string]map[string]string{}
	}
	if l.toldWords[lang] == nil {
		l.toldWords[lang] = map[string]map[string]string{}
	}
	if l.toldWords[lang][event] == nil {
		l.toldWords[lang][event] = map[string]string{}
	}
	for _, w := range strings.Split(words, "|") {
		if w = strings.TrimSpace(w); w == "" {
			return fmt.Errorf("empty word")
		}
		l.toldWords[lang][event][w] = event
	}
	return nil
}

// compileRule turns a rule's template into its expression: each
// {placeholder} becomes a group matching digits, a numeral or the words of
// its table in the rule's language.
func (l *followUpLexicon) compileRule(r ruleLine) (dateRule, error) {
	kind, arg, err := ruleKind(r.kind)
	if err != nil {
		return dateRule{}, err
	}
	var slots []string
	var missing error
	expr := placeholder.ReplaceAllStringFunc(r.template, func(p string) string {
		name := p[1 : len(p)-1]
		slots = append(slots, name)
		switch {
		case name == "day" || name == "mnum" || name == "number" && r.lang != "en":
			if r.lang == "en" {
				return `(\d{1,2})`
			}
			return `(\d{1,2}|` + cjkNumeral + `)`
		case name == "number":
			return `(\d{1,2}|` + alternation(l.words["number"]["en"]) + `)`
		}
		words := l.words[name][r.lang]
		if len(words) == 0 {
			missing = fmt.Errorf("no %s words for %s", name, r.lang)
		}
		return "(" + alternation(words) + ")"
	})
	if missing != nil {
		return dateRule{}, missing
	}
	re, err := regexp.Compile(bounded(r.lang, expr))
	if err != nil {
		return dateRule{}, err
	}
	re.Longest()
	if re.NumSubexp() != len(slots) {
		return dateRule{}, fmt.Errorf("use (?:...) for groups of your own")
	}
	return dateRule{lang: r.lang, kind: kind, arg: arg, re: re, slots: slots}, nil
}

// ruleKind splits "offset=2" into its kind and number, checking the kind.
func ruleKind(s string) (string, int, error) {
	kind, n, hasArg := strings.Cut(s, "=")
	arg := 0
	switch kind {
	case "offset", "sunday", "monthend":
		v, err := strconv.Atoi(n)
		if !hasArg || err != nil {
			return "", 0, fmt.Errorf("rule %s needs =N", kind)
		}
		arg = v
	case "weekday":
		switch n {
		case "":
		case "this":
			arg = 1
		case "next":
			arg = 2
		default:
			return "", 0, fmt.Errorf("weekday=%s: want this or next", n)
		}
	case "in", "date", "dom":
	default:
		return "", 0, fmt.Errorf("unknown rule kind %q", kind)
	}
	return kind, arg, nil
}

// alternation is a regexp matching any of words' keys, longest first.
func alternation(words map[string]string) string {
	keys := sortedKeys(words)
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for i, k := range keys {
		keys[i] = regexp.QuoteMeta(k)
	}
	return strings.Join(keys, "|")
}

// bounded makes English expressions match whole words only; Chinese and
// Japanese have no spaces between words.
func bounded(lang, expr string) string {
	if lang == "en" {
		return `\b(?:` + expr + `)\b`
	}
	return `(?:` + expr + `)`
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// mayHaveEvent reports whether s contains an event word at all, as a
// substring: a cheap test that rules out most sentences before the event
// and past expressions, which take microseconds even on a short text.
func (l *followUpLexicon) mayHaveEvent(s string) bool {
	return slices.ContainsFunc(l.eventWords, func(w string) bool { return strings.Contains(s, w) })
}

func (l *followUpLexicon) matchesAny(res []*regexp.Regexp, s string) bool {
	return slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(s) })
}

// firstEvent is the leftmost (then longest) event word in s, or "".
func (l *followUpLexicon) firstEvent(s string) string {
	ev, _ := l.firstEventAt(s)
	return ev
}

// firstEventAt is firstEvent and where it starts in s.
func (l *followUpLexicon) firstEventAt(s string) (string, int) {
	best := []int(nil)
	for _, re := range l.event {
		if m := re.FindStringIndex(s); m != nil && (best == nil || m[0] < best[0] || m[0] == best[0] && m[1] > best[1]) {
			best = m
		}
	}
	if best == nil {
		return "", -1
	}
	return s[best[0]:best[1]], best[0]
}

// firstDate reads the leftmost (then longest) date expression of s as a
// day, against today.
func (l *followUpLexicon) firstDate(s string, today time.Time) (time.Time, string, bool) {
	var (
		best []int
		rule *dateRule
	)
	for i := range l.rules {
		m := l.rules[i].re.FindStringSubmatchIndex(s)
		if m != nil && (best == nil || m[0] < best[0] || m[0] == best[0] && m[1] > best[1]) {
			best, rule = m, &l.rules[i]
		}
	}
	if rule == nil {
		return time.Time{}, "", false
	}
	vals := map[string]string{}
	for i, name := range rule.slots {
		if lo := best[2+2*i]; lo >= 0 {
			vals[name] = s[lo:best[3+2*i]]
		}
	}
	due, ok := l.resolve(rule, vals, today)
	rough := ""
	if rule.kind == "sunday" || rule.kind == "monthend" {
		rough = rule.kind + strconv.Itoa(rule.arg)
	}
	return due, rough, ok
}

// resolve turns a matched rule into a day.
func (l *followUpLexicon) resolve(r *dateRule, vals map[string]string, today time.Time) (time.Time, bool) {
	monday := (int(today.Weekday()) + 6) % 7 // days since Monday
	word := func(table string) (string, bool) {
		v, ok := l.words[table][r.lang][vals[table]]
		return v, ok
	}
	switch r.kind {
	case "offset":
		return today.AddDate(0, 0, r.arg), true
	case "sunday":
		return today.AddDate(0, 0, 6-monday+7*r.arg), true
	case "monthend":
		return time.Date(today.Year(), today.Month()+time.Month(r.arg)+1, 1, 0, 0, 0, 0, today.Location()).AddDate(0, 0, -1), true
	case "weekday":
		v, ok := word("weekday")
		wd, err := strconv.Atoi(v)
		if !ok || err != nil {
			return time.Time{}, false
		}
		switch r.arg {
		case 0: // the next one after today
			d := (wd - int(today.Weekday()) + 7) % 7
			if d == 0 {
				d = 7
			}
			return today.AddDate(0, 0, d), true
		case 1: // this week's
			return today.AddDate(0, 0, (wd+6)%7-monday), true
		default: // next week's
			return today.AddDate(0, 0, 7-monday+(wd+6)%7), true
		}
	case "in":
		n, ok := l.number(r.lang, vals["number"])
		unit, known := word("unit")
		if !ok || !known || n <= 0 {
			return time.Time{}, false
		}
		switch unit {
		case "m":
			return today.AddDate(0, n, 0), true
		case "7":
			return today.AddDate(0, 0, 7*n), true
		default:
			return today.AddDate(0, 0, n), true
		}
	case "date":
		month, ok := l.number(r.lang, vals["mnum"])
		if v, named := word("month"); named {
			month, ok = atoi(v)
		}
		day, dayOK := l.number(r.lang, vals["day"])
		if !ok || !dayOK {
			return time.Time{}, false
		}
		d, valid := validDate(today.Year(), month, day, today.Location())
		if valid && d.Before(today) {
			d, valid = validDate(today.Year()+1, month, day, today.Location())
		}
		return d, valid
	case "dom":
		day, ok := l.number(r.lang, vals["day"])
		if !ok {
			return time.Time{}, false
		}
		d, valid := validDate(today.Year(), int(today.Month()), day, today.Location())
		if valid && d.Before(today) {
			next := today.AddDate(0, 0, -today.Day()+1).AddDate(0, 1, 0)
			d, valid = validDate(next.Year(), int(next.Month()), day, today.Location())
		}
		return d, valid
	}
	return time.Time{}, false
}

// number reads digits, an English number word or a Chinese/Japanese
// numeral.
func (l *followUpLexicon) number(lang, s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	if n, ok := atoi(s); ok {
		return n, true
	}
	if v, ok := l.words["number"][lang][s]; ok {
		return atoi(v)
	}
	return cjkNumber(s)
}

func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// cjkNumber reads a Chinese/Japanese numeral below 100: 三, 十五, 二十,
// 二十三, 两.
func cjkNumber(s string) (int, bool) {
	digit := func(r rune) (int, bool) {
		i := strings.IndexRune("〇一二三四五六七八九", r)
		if i >= 0 {
			return i / utf8.RuneLen(r), true
		}
		switch r {
		case '零':
			return 0, true
		case '两':
			return 2, true
		}
		return 0, false
	}
	rs := []rune(s)
	tens := slices.Index(rs, '十')
	if tens < 0 {
		if len(rs) != 1 {
			return 0, false
		}
		return digit(rs[0])
	}
	n := 10
	if tens == 1 {
		d, ok := digit(rs[0])
		if !ok {
			return 0, false
		}
		n = 10 * d
	} else if tens != 0 {
		return 0, false
	}
	switch rest := rs[tens+1:]; len(rest) {
	case 0:
		return n, true
	case 1:
		d, ok := digit(rest[0])
		return n + d, ok
	}
	return 0, false
}

// validDate is y-m-d at midnight in loc, if that date exists.
func validDate(y, m, d int, loc *time.Location) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, loc)
	return t, t.Day() == d
}
