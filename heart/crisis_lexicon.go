package heart

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// crisisData is the crisis floor's lexicon (data/crisis.txt documents its
// sources and syntax). It is compiled once, on first use, into an
// immutable crisisLexicon shared by every caller.
//
//go:embed data/crisis.txt
var crisisData string

// crisisLex is the compiled lexicon. A malformed file is a build defect,
// caught by TestCrisisLexiconParses, so compiling panics rather than
// returning an error every caller would have to handle.
var crisisLex = sync.OnceValue(func() *crisisLexicon {
	l, err := parseCrisisLexicon(crisisData)
	if err != nil {
		panic(fmt.Sprintf("heart: data/crisis.txt: %v", err))
	}
	return l
})

// crisisLexicon is data/crisis.txt compiled.
type crisisLexicon struct {
	same    []crisisSame
	maskEN  crisisPatternSet
	maskCJK cjkPatternSet
	en      crisisPatternSet
	cjk     cjkPatternSet
}

// cjkPatternSet holds Chinese and Japanese patterns indexed by their first
// rune, so a text is only searched for patterns whose first rune it has.
type cjkPatternSet struct {
	pats    []cjkPattern
	byFirst map[rune][]int
}

func (s *cjkPatternSet) add(p cjkPattern) {
	if s.byFirst == nil {
		s.byFirst = map[rune][]int{}
	}
	r, _ := utf8.DecodeRuneInString(p.parts[0])
	s.byFirst[r] = append(s.byFirst[r], len(s.pats))
	s.pats = append(s.pats, p)
}

// in calls f once with every pattern whose first rune occurs in text.
func (s *cjkPatternSet) in(text string, f func(p cjkPattern)) {
	var seen map[rune]bool
	for _, r := range text {
		ns := s.byFirst[r]
		if len(ns) == 0 || seen[r] {
			continue
		}
		if seen == nil {
			seen = map[rune]bool{}
		}
		seen[r] = true
		for _, n := range ns {
			f(s.pats[n])
		}
	}
}

// crisisPatternSet holds English patterns indexed by the first letter of
// their first word (a fuzzy word keeps its first letter too), so a word
// is only tried against patterns that can start with it.
type crisisPatternSet struct {
	pats    []crisisPattern
	byFirst map[byte][]int
	always  []int // patterns whose first position is optional or a number
}

// add indexes p.
func (s *crisisPatternSet) add(p crisisPattern) {
	n := len(s.pats)
	s.pats = append(s.pats, p)
	first := p.elems[0]
	if first.optional || first.num {
		s.always = append(s.always, n)
		return
	}
	if s.byFirst == nil {
		s.byFirst = map[byte][]int{}
	}
	seen := map[byte]bool{}
	for _, a := range first.alts {
		if c := a.word[0]; !seen[c] {
			seen[c] = true
			s.byFirst[c] = append(s.byFirst[c], n)
		}
	}
}

// at calls f with every pattern that may match from word w.
func (s *crisisPatternSet) at(w string, f func(p crisisPattern)) {
	if w != "" {
		for _, n := range s.byFirst[w[0]] {
			f(s.pats[n])
		}
	}
	for _, n := range s.always {
		f(s.pats[n])
	}
}

// crisisSame reads the words variant as the words canonical.
type crisisSame struct{ canonical, variant []string }

// crisisPattern is one English pattern: a sequence of word positions.
type crisisPattern struct {
	cat   CrisisCategory
	elems []crisisElem
}

// crisisElem is one position of an English pattern.
type crisisElem struct {
	alts     []crisisAlt
	optional bool // "word?"
	gap      bool // "*": up to CrisisGapWords words
	num      bool // "<num>": a number
}

// crisisAlt is one alternative word of a position; fuzzy ones also match a
// misspelling (crisisFuzzyEqual).
type crisisAlt struct {
	word  string
	fuzzy bool
}

// cjkPattern is one Chinese or Japanese pattern: substrings of the compact
// text, in order, with gaps of up to CrisisGapRunes runes between them.
type cjkPattern struct {
	cat   CrisisCategory
	parts []string
}

// crisisMaskSection and crisisSameSection are the two sections that are
// not categories.
const (
	crisisMaskSection = "ordinary"
	crisisSameSection = "same"
)

// parseCrisisLexicon compiles the lexicon text (syntax in data/crisis.txt).
func parseCrisisLexicon(data string) (*crisisLexicon, error) {
	l := &crisisLexicon{}
	section := ""
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = line[1 : len(line)-1]
			if section != crisisMaskSection && section != crisisSameSection && CrisisCategory(section).severity() == 0 {
				return nil, fmt.Errorf("line %d: unknown section %q", n+1, section)
			}
			continue
		}
		kind, pat, ok := strings.Cut(line, ":")
		pat = strings.TrimSpace(pat)
		if !ok || pat == "" {
			return nil, fmt.Errorf("line %d: want KIND: PATTERN", n+1)
		}
		if err := l.add(section, strings.TrimSpace(kind), pat); err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
	}
	if len(l.en.pats) == 0 || len(l.cjk.pats) == 0 {
		return nil, fmt.Errorf("no patterns")
	}
	return l, nil
}

// add files one line of a section.
func (l *crisisLexicon) add(section, kind, pat string) error {
	switch {
	case section == "":
		return fmt.Errorf("pattern before any section")
	case section == crisisSameSection:
		if kind != "same" {
			return fmt.Errorf("want same: in [same]")
		}
		a, b, ok := strings.Cut(pat, "=")
		ca, cb := strings.Fields(a), strings.Fields(b)
		if !ok || len(ca) == 0 || len(cb) == 0 {
			return fmt.Errorf("want same: CANONICAL = VARIANT")
		}
		l.same = append(l.same, crisisSame{canonical: ca, variant: cb})
		return nil
	case kind == "en":
		p, err := parseCrisisPattern(pat)
		if err != nil {
			return err
		}
		p.cat = CrisisCategory(section)
		if section == crisisMaskSection {
			l.maskEN.add(p)
		} else {
			l.en.add(p)
		}
		return nil
	case kind == "zh" || kind == "ja":
		p := cjkPattern{cat: CrisisCategory(section)}
		for _, part := range strings.Split(pat, "*") {
			part = relCompact(part)
			if part == "" {
				return fmt.Errorf("empty part in %q", pat)
			}
			p.parts = append(p.parts, part)
		}
		if section == crisisMaskSection {
			if len(p.parts) > 1 {
				return fmt.Errorf("an ordinary idiom has no gaps: %q", pat)
			}
			l.maskCJK.add(p)
		} else {
			l.cjk.add(p)
		}
		return nil
	}
	return fmt.Errorf("unknown kind %q", kind)
}

// parseCrisisPattern reads one English pattern.
func parseCrisisPattern(pat string) (crisisPattern, error) {
	var p crisisPattern
	for _, tok := range strings.Fields(pat) {
		var e crisisElem
		switch {
		case tok == "*":
			if len(p.elems) == 0 {
				return p, fmt.Errorf("%q starts with a gap", pat)
			}
			e.gap = true
		case tok == "<num>":
			e.num = true
		default:
			if strings.HasSuffix(tok, "?") {
				e.optional, tok = true, strings.TrimSuffix(tok, "?")
			}
			for _, a := range strings.Split(tok, "|") {
				alt := crisisAlt{word: a}
				if strings.HasPrefix(a, "~") {
					alt = crisisAlt{word: a[1:], fuzzy: true}
				}
				if alt.word == "" || !relASCII(alt.word) || strings.ToLower(alt.word) != alt.word {
					return p, fmt.Errorf("bad word %q in %q", a, pat)
				}
				e.alts = append(e.alts, alt)
			}
		}
		p.elems = append(p.elems, e)
	}
	if len(p.elems) == 0 {
		return p, fmt.Errorf("empty pattern")
	}
	return p, nil
}

// crisisWordsOf is the word list the English patterns read: the word form
// of text, each word normalised (crisisNormWord), "same" spellings read as
// their canonical words and ordinary idioms masked.
func (l *crisisLexicon) crisisWordsOf(text string) []string {
	ws := strings.Fields(relWords(text))
	for i, w := range ws {
		ws[i] = crisisNormWord(w)
	}
	for _, s := range l.same {
		ws = replaceWords(ws, s.variant, s.canonical)
	}
	for i := 0; i < len(ws); i++ {
		end := i
		l.maskEN.at(ws[i], func(m crisisPattern) {
			if e, ok := m.match(ws, i, 0); ok {
				end = max(end, e)
			}
		})
		for k := i; k < end; k++ {
			ws[k] = crisisMask
		}
	}
	return ws
}

// crisisMask replaces masked words and text: no pattern matches it and no
// gap crosses it.
const crisisMask = "#"

// replaceWords replaces every occurrence of the word sequence from by to.
func replaceWords(ws, from, to []string) []string {
	var out []string
	for i := 0; i < len(ws); {
		if hasWordsAt(ws, i, from) {
			if out == nil {
				out = append(make([]string, 0, len(ws)+len(to)), ws[:i]...)
			}
			out = append(out, to...)
			i += len(from)
			continue
		}
		if out != nil {
			out = append(out, ws[i])
		}
		i++
	}
	if out == nil {
		return ws
	}
	return out
}

func hasWordsAt(ws []string, i int, seq []string) bool {
	if i+len(seq) > len(ws) {
		return false
	}
	for k, w := range seq {
		if ws[i+k] != w {
			return false
		}
	}
	return true
}

// crisisNormWord undoes the commonest ways a word is disguised or typed in
// a hurry: runs of three or more of one letter become one ("diiie" →
// "die", "killl" → "kil", which the fuzzy match then reads as "kill"), and
// in a word mixing letters and digits the digits read as letters
// ("k1ll", "su1c1de").
func crisisNormWord(w string) string {
	letters, digits := false, false
	for _, r := range w {
		if unicode.IsDigit(r) {
			digits = true
		} else {
			letters = true
		}
	}
	if letters && digits {
		w = strings.Map(func(r rune) rune {
			switch r {
			case '0':
				return 'o'
			case '1':
				return 'i'
			case '3':
				return 'e'
			case '4':
				return 'a'
			case '5':
				return 's'
			case '7':
				return 't'
			}
			return r
		}, w)
	}
	if !hasRun3(w) {
		return w
	}
	var b strings.Builder
	rs := []rune(w)
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && rs[j] == rs[i] {
			j++
		}
		n := j - i
		if n >= 3 {
			n = 1
		}
		for k := 0; k < n; k++ {
			b.WriteRune(rs[i])
		}
		i = j
	}
	return b.String()
}

// hasRun3 reports whether w has three of one byte in a row (a cheap test
// before crisisNormWord rebuilds the word).
func hasRun3(w string) bool {
	for i := 2; i < len(w); i++ {
		if w[i] == w[i-1] && w[i] == w[i-2] {
			return true
		}
	}
	return false
}

// match reports whether p's elements from k on match ws from i on, and
// where the match ends. Gaps try the shortest skip first.
func (p crisisPattern) match(ws []string, i, k int) (int, bool) {
	if k == len(p.elems) {
		return i, true
	}
	e := p.elems[k]
	if e.gap {
		for skip := 0; skip <= CrisisGapWords && i+skip <= len(ws); skip++ {
			if skip > 0 && crisisGapStop(ws[i+skip-1]) {
				break
			}
			if end, ok := p.match(ws, i+skip, k+1); ok {
				return end, true
			}
		}
		return 0, false
	}
	if i < len(ws) && e.matches(ws[i]) {
		if end, ok := p.match(ws, i+1, k+1); ok {
			return end, true
		}
	}
	if e.optional {
		return p.match(ws, i, k+1)
	}
	return 0, false
}

// crisisGapStop reports whether a gap may not skip w: a mask, a negation
// ("i hope she doesnt die") or another person ("i want him to die" is
// anger at someone, not a wish to die).
func crisisGapStop(w string) bool {
	switch w {
	case crisisMask, "doesnt", "didnt", "isnt", "wasnt", "him", "her", "them":
		return true
	}
	return crisisNegation(w) || crisisOtherPerson(w)
}

// matches reports whether one word fills the position.
func (e crisisElem) matches(w string) bool {
	if w == crisisMask {
		return false
	}
	if e.num {
		for _, r := range w {
			if !unicode.IsDigit(r) {
				return false
			}
		}
		return true
	}
	for _, a := range e.alts {
		if w == a.word || a.fuzzy && crisisFuzzyEqual(w, a.word) {
			return true
		}
	}
	return false
}

// crisisFuzzyEqual reports whether w is a likely misspelling of key: the
// same first letter, and within CrisisFuzzyEdits edits (insert, delete,
// substitute, swap two neighbours) for keys of CrisisFuzzyMinLen letters or
// more, CrisisFuzzyEditsLong from CrisisFuzzyLongLen. Shorter keys ("die")
// allow only a swap of two neighbours ("dei"): one edit away from them are
// too many ordinary words ("dye", "due", "tie").
func crisisFuzzyEqual(w, key string) bool {
	if w == "" || key == "" || w[0] != key[0] {
		return false
	}
	if len(key) < CrisisFuzzyMinLen {
		return len(w) == len(key) && swappedOnce(w, key)
	}
	max := CrisisFuzzyEdits
	if len(key) >= CrisisFuzzyLongLen {
		max = CrisisFuzzyEditsLong
	}
	if d := len(w) - len(key); d > max || -d > max {
		return false
	}
	return editDistance(w, key, max) <= max
}

// swappedOnce reports whether w is key with two neighbours swapped.
func swappedOnce(w, key string) bool {
	for i := 0; i+1 < len(key); i++ {
		if w[i] != key[i] {
			return w[i] == key[i+1] && w[i+1] == key[i] && w[i+2:] == key[i+2:]
		}
	}
	return false
}

// editDistance is the optimal-string-alignment distance of two ASCII words
// (Levenshtein plus swaps of neighbours), or max+1 once it exceeds max or a
// word is longer than editMaxLen (no key word is).
func editDistance(a, b string, max int) int {
	if len(b) >= editMaxLen || len(a) >= editMaxLen {
		return max + 1
	}
	var rows [3][editMaxLen]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// editMaxLen bounds the words editDistance compares, so its rows live on
// the stack.
const editMaxLen = 32

// compactOf is the compact form the Chinese and Japanese patterns read,
// with ordinary idioms masked.
func (l *crisisLexicon) compactOf(text string) string {
	c := relCompact(text)
	var masks []string
	l.maskCJK.in(c, func(m cjkPattern) {
		if strings.Contains(c, m.parts[0]) {
			masks = append(masks, m.parts[0])
		}
	})
	for _, m := range masks {
		c = strings.ReplaceAll(c, m, crisisMask)
	}
	return c
}

// find reports whether p occurs in compact outside the guards of
// crisisCJKGuarded.
func (p cjkPattern) find(compact string) bool {
	for off := 0; off < len(compact); {
		i := strings.Index(compact[off:], p.parts[0])
		if i < 0 {
			return false
		}
		start := off + i
		end := start + len(p.parts[0])
		if !crisisCJKGuarded(p.parts[0], compact[:start]) && p.rest(compact[end:], 1) {
			return true
		}
		off = end
	}
	return false
}

// rest matches parts[k:] in s, each after a gap of at most CrisisGapRunes
// runes that crosses no mask.
func (p cjkPattern) rest(s string, k int) bool {
	if k == len(p.parts) {
		return true
	}
	for gap, off := 0, 0; gap <= CrisisGapRunes && off <= len(s); gap++ {
		if strings.HasPrefix(s[off:], p.parts[k]) && p.rest(s[off+len(p.parts[k]):], k+1) {
			return true
		}
		r, size := utf8.DecodeRuneInString(s[off:])
		if size == 0 || string(r) == crisisMask {
			return false
		}
		off += size
	}
	return false
}

// crisisCJKGuarded reports whether an occurrence of a phrase that starts
// with 想 ("want to") is negated (不想死, 没想死, 别想死) or about someone
// else (你想死吗 is a threat, not a confession), by the rune before it.
func crisisCJKGuarded(first, before string) bool {
	if !strings.HasPrefix(first, "想") {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return strings.ContainsRune("不没别你您他她它", r)
}
