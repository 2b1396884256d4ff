package heart

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// crisisWordsOf is the word list the English patterns read: the word form
// of text, each word normalised (crisisNormWord), "same" spellings read as
// their canonical words and ordinary idioms masked. When a word may have
// been typed without spaces ("iwanttodie"), joined is a second reading with
// such words split (crisisSplitJoined); both readings count, so a split
// ("anyone" → "any one") can add a match but never lose one. A downgrade d,
// if given, masks its words too. The "raw:" patterns read what an idiom
// masks into m first (maskWords).
func (l *crisisLexicon) crisisWordsOf(text string, d *crisisDowngrade, m *crisisMatch) (ws, joined []string) {
	ws = strings.Fields(relWords(text))
	split := false
	for i, w := range ws {
		ws[i] = crisisNormWord(w)
		if parts := l.crisisSplitJoined(ws[i]); parts != nil {
			if !split {
				joined = append(make([]string, 0, len(ws)+len(parts)), ws[:i]...)
				split = true
			}
			joined = append(joined, parts...)
		} else if split {
			joined = append(joined, ws[i])
		}
	}
	ws = l.prepareWords(ws, d, m)
	if split {
		joined = l.prepareWords(joined, d, m)
	}
	return ws, joined
}

// prepareWords reads "same" spellings as their canonical words and masks
// ordinary idioms, the "raw:" patterns reading what they mask into m (when
// given), then what the downgrade d (if any) reads as one.
func (l *crisisLexicon) prepareWords(ws []string, d *crisisDowngrade, m *crisisMatch) []string {
	ws = l.readSame(ws)
	l.maskWords(ws, &l.maskEN, m)
	if d != nil {
		l.maskWords(ws, &d.en, nil)
	}
	return ws
}

// maskWords masks every match of the patterns of masks in ws. Before a
// match is masked, the "raw:" patterns read into raw (when given) from
// each of its words: a set that rules a reading out sees the sport the
// idiom hides ("bungee jump" is masked, and "standing on the bridge rn to
// bungee jump" is still a jump). Read only where a mask matched, they cost
// an ordinary message nothing.
func (l *crisisLexicon) maskWords(ws []string, masks *crisisPatternSet, raw *crisisMatch) {
	for i := 0; i < len(ws); i++ {
		end := i
		masks.at(ws[i], func(m *crisisPattern) {
			if e, ok := l.match(m, ws, i, 0); ok {
				end = max(end, e)
			}
		})
		if raw != nil && len(l.raw.pats) > 0 {
			for k := i; k < end; k++ {
				l.readAt(&l.raw, ws, k, raw)
			}
		}
		for k := i; k < end; k++ {
			ws[k] = crisisMask
		}
	}
}

// crisisSplitJoined reads a word typed without spaces ("iwanttodie",
// "killmyself") as the lexicon's words it is made of, or returns nil. Only
// letters-only words of CrisisJoinedMinLen letters or more that the lexicon
// does not know are tried, and only a reading made entirely of known words
// (none shorter than two letters but "i" and "a") counts, the one with the
// fewest words; an ordinary word ("tomorrow") has no such reading.
func (l *crisisLexicon) crisisSplitJoined(w string) []string {
	if len(w) < CrisisJoinedMinLen || len(w) > editMaxLen || l.vocab[w] {
		return nil
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return nil
		}
	}
	// best[i] is the fewest words reading w[:i], 0 when w[:i] has no reading;
	// from[i] is where the last of them starts.
	var best, from [editMaxLen + 1]int
	best[0] = 1 // one more than the words, so 0 means unreachable
	for i := 0; i < len(w); i++ {
		if best[i] == 0 {
			continue
		}
		for j := i + 1; j <= len(w) && j-i <= l.vocabMax; j++ {
			piece := w[i:j]
			if len(piece) == 1 && piece != "i" && piece != "a" || !l.vocab[piece] {
				continue
			}
			if best[j] == 0 || best[i]+1 < best[j] {
				best[j], from[j] = best[i]+1, i
			}
		}
	}
	if best[len(w)] < 3 { // unreachable, or one word
		return nil
	}
	out := make([]string, best[len(w)]-1)
	for j, k := len(w), len(out)-1; j > 0; j, k = from[j], k-1 {
		out[k] = w[from[j]:j]
	}
	return out
}

// crisisMask replaces masked words and text: no pattern matches it and no
// gap crosses it.
const crisisMask = "#"

// crisisBoundary stands for punctuation in the compact form the Chinese
// and Japanese patterns read: a guard looks no further than the clause it
// is in.
const crisisBoundary = '|'

// readSame reads every "same" variant in ws as its canonical words, the
// first rule in the file winning where two could apply.
func (l *crisisLexicon) readSame(ws []string) []string {
	var out []string
	for i := 0; i < len(ws); {
		var rule *crisisSame
		for _, n := range l.sameBy[ws[i]] {
			if hasWordsAt(ws, i, l.same[n].variant) {
				rule = &l.same[n]
				break
			}
		}
		if rule == nil {
			if out != nil {
				out = append(out, ws[i])
			}
			i++
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(ws)+4), ws[:i]...)
		}
		out = append(out, rule.canonical...)
		i += len(rule.variant)
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
	w = plainLatin(w)
	if n := ordinalNumber(w); n != "" {
		return n // "7th floor" is a floor, no leetspeak ("tth")
	}
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
	if !hasRun(w, 3) {
		return w
	}
	return collapseRuns(w, 3)
}

// plainLatin reads Latin letters with tone marks or accents as the plain
// letter: pinyin typed with its tones (bù xiǎng huó le) is read as pinyin
// typed without them, which is how the patterns are written.
func plainLatin(w string) string {
	if relASCII(w) || strings.IndexFunc(w, isMarkedLatin) < 0 {
		return w
	}
	return strings.Map(plainLetter, w)
}

func isMarkedLatin(r rune) bool { return plainLetter(r) != r }

// plainLetter is r without its tone mark or accent: the vowels of
// pinyin's four tones and ü (Hanyu Pinyin, GB/T 16159) and the commonest
// accented Latin letters.
func plainLetter(r rune) rune {
	if r < 0xC0 || r > 0x1DC {
		return r
	}
	for _, m := range [...]struct {
		plain  rune
		marked string
	}{
		{'a', "āáǎàâäãå"}, {'e', "ēéěèêë"}, {'i', "īíǐìîï"}, {'o', "ōóǒòôöõ"},
		{'u', "ūúǔùûüǖǘǚǜ"}, {'n', "ńňñ"}, {'c', "ç"},
	} {
		if strings.ContainsRune(m.marked, r) {
			return m.plain
		}
	}
	return r
}

// hasRun reports whether w has n of one byte in a row (a cheap test before
// collapseRuns rebuilds the word).
func hasRun(w string, n int) bool {
	run := 1
	for i := 1; i < len(w); i++ {
		if w[i] == w[i-1] {
			run++
			if run >= n {
				return true
			}
		} else {
			run = 1
		}
	}
	return false
}

// collapseRuns replaces every run of n or more of one rune by one.
func collapseRuns(w string, n int) string {
	var b strings.Builder
	rs := []rune(w)
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && rs[j] == rs[i] {
			j++
		}
		k := j - i
		if k >= n {
			k = 1
		}
		for ; k > 0; k-- {
			b.WriteRune(rs[i])
		}
		i = j
	}
	return b.String()
}

// match reports whether p's elements from k on match ws from i on, and
// where the match ends. Gaps try the shortest skip first.
func (l *crisisLexicon) match(p *crisisPattern, ws []string, i, k int) (int, bool) {
	if k == len(p.elems) {
		return i, true
	}
	e := &p.elems[k]
	if e.end {
		if i == len(ws) {
			return i, true
		}
		return 0, false
	}
	if e.gap {
		for skip := 0; skip <= CrisisGapWords && i+skip <= len(ws); skip++ {
			if skip > 0 && l.gapStop(ws[i+skip-1]) {
				break
			}
			if end, ok := l.match(p, ws, i+skip, k+1); ok {
				return end, true
			}
		}
		return 0, false
	}
	if i < len(ws) && e.matches(ws[i]) {
		if end, ok := l.match(p, ws, i+1, k+1); ok {
			return end, true
		}
	}
	if e.optional {
		return l.match(p, ws, i, k+1)
	}
	return 0, false
}

// gapStop reports whether a gap may not skip w: a mask, a negation ("i
// hope she doesnt die"), another person ("i want him to die" is anger at
// someone, not a wish to die) or a stop word of the guard section.
func (l *crisisLexicon) gapStop(w string) bool {
	g := &l.guard
	return w == crisisMask || g.stop[w] || g.negation[w] || g.other[w]
}

// matches reports whether one word fills the position.
func (e *crisisElem) matches(w string) bool {
	if w == crisisMask {
		return false
	}
	if e.num {
		n := 0 // the value, as far as "<many>" needs it
		for _, r := range w {
			if !unicode.IsDigit(r) {
				return false
			}
			if r <= '9' {
				n = min(n*10+int(r-'0'), CrisisManyPills)
			}
		}
		return !e.many || n >= CrisisManyPills
	}
	for _, a := range e.alts {
		if w == a.word || a.fuzzy && crisisFuzzyEqual(w, a.word) {
			return !e.except
		}
	}
	return e.except
}

// crisisFuzzyEqual reports whether w is a likely misspelling of key: the
// same first letter, and within CrisisFuzzyEdits edits (insert, delete,
// substitute, swap two neighbours) for keys of CrisisFuzzyMinLen letters or
// more, CrisisFuzzyEditsLong from CrisisFuzzyLongLen. Shorter keys ("die")
// allow only a swap of two neighbours ("dei") or a doubled letter ("diee"):
// one edit away from them are too many ordinary words ("dye", "due",
// "tie").
func crisisFuzzyEqual(w, key string) bool {
	if w == "" || key == "" || w[0] != key[0] {
		return false
	}
	if len(key) < CrisisFuzzyMinLen {
		if len(w) == len(key) {
			return swappedOnce(w, key)
		}
		return len(w) <= 2*len(key) && hasRun(w, 2) && collapseRuns(w, 2) == key
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

// editMaxLen bounds the words editDistance compares and crisisSplitJoined
// reads, so their tables live on the stack (hearth's choice: longer than
// any key word of data/crisis.txt).
const editMaxLen = 32

// compactOf is the compact form the Chinese and Japanese patterns read:
// letters, digits and marks of the folded text, spaces dropped, every run
// of punctuation one crisisBoundary, and ordinary idioms masked; then what
// the downgrade d (if any) reads as one, gaps and all.
func (l *crisisLexicon) compactOf(text string, d *crisisDowngrade) string {
	var b strings.Builder
	b.Grow(len(text))
	boundary := false
	for _, r := range relFold(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if boundary && b.Len() > 0 {
				b.WriteRune(crisisBoundary)
			}
			boundary = false
			b.WriteRune(r)
		case !unicode.IsSpace(r):
			boundary = true
		}
	}
	c := l.foldCJK(b.String())
	var masks []string
	l.maskCJK.each(c, func(_ *cjkPattern, start, end int) {
		masks = append(masks, c[start:end])
	})
	for _, m := range masks {
		c = strings.ReplaceAll(c, m, crisisMask)
	}
	if d == nil {
		return c
	}
	masks = masks[:0]
	d.cjk.each(c, func(p *cjkPattern, start, end int) {
		if n, ok := p.rest(c[end:], 1, CrisisGapRunes); ok {
			masks = append(masks, c[start:end+n])
		}
	})
	for _, m := range masks {
		c = strings.ReplaceAll(c, m, crisisMask)
	}
	return c
}

// readCJK runs the Chinese and Japanese patterns over a compact text.
func (l *crisisLexicon) readCJK(compact string, m *crisisMatch) {
	l.cjk.each(compact, func(p *cjkPattern, start, end int) {
		if !m.wants(p.cat, p.set) {
			return
		}
		if n, ok := p.rest(compact[end:], 1, CrisisGapRunes); ok && !l.cjkGuarded(compact[start:end+n], compact[:start], compact[end+n:]) {
			m.hit(p.cat, p.set)
		}
	})
}

// rest matches parts[k:] at the start of s, each after a gap of at most
// gap runes (CrisisGapRunes between parts) that crosses no mask, and
// returns how many bytes of s the match took.
func (p *cjkPattern) rest(s string, k, gap int) (int, bool) {
	if k == len(p.parts) {
		return 0, true
	}
	for g, off := 0, 0; g <= gap && off <= len(s); g++ {
		for _, a := range p.parts[k] {
			if strings.HasPrefix(s[off:], a) {
				if n, ok := p.rest(s[off+len(a):], k+1, CrisisGapRunes); ok {
					return off + len(a) + n, true
				}
			}
		}
		r, size := utf8.DecodeRuneInString(s[off:])
		if size == 0 || string(r) == crisisMask {
			return 0, false
		}
		off += size
	}
	return 0, false
}

// cjkGuarded reports whether the Chinese or Japanese match m, with before
// and after it in the compact text, is negated or about someone else by a
// guard cue of its clause: right before it (不想死, 我不会自杀的, 主角最后
// 自杀了) or right after it (自殺なんて考えたことない, 自殺の報道).
func (l *crisisLexicon) cjkGuarded(m, before, after string) bool {
	if i := strings.LastIndexByte(before, crisisBoundary); i >= 0 {
		before = before[i+1:]
	}
	if i := strings.IndexByte(after, crisisBoundary); i >= 0 {
		after = after[:i]
	}
	if l.cueEnds(m, before, CrisisGuardRunes, false) {
		return true
	}
	for i := range l.guard.after {
		if _, ok := l.guard.after[i].rest(after, 0, CrisisGuardRunes); ok {
			return true
		}
	}
	return false
}

// cueEnds reports whether before ends with a before-cue guarding the
// match m; after glue has been taken off (gapped), only cues marked "*"
// count, and at most budget runes of glue may go.
func (l *crisisLexicon) cueEnds(m, before string, budget int, gapped bool) bool {
	last, _ := utf8.DecodeLastRuneInString(before)
	for i := range l.guard.before[last] {
		c := &l.guard.before[last][i]
		if (c.gap || !gapped) && strings.HasSuffix(before, c.cue) && !hasAnySuffix(before, c.unless) &&
			(len(c.prefixes) == 0 || hasAnyPrefix(m, c.prefixes)) {
			return true
		}
	}
	for _, g := range l.guard.glueCJK {
		if n := utf8.RuneCountInString(g); n <= budget && strings.HasSuffix(before, g) &&
			l.cueEnds(m, before[:len(before)-len(g)], budget-n, true) {
			return true
		}
	}
	return false
}

func hasAnySuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// ordinalNumber is the number of an English ordinal ("7th" → "7"), or "".
func ordinalNumber(w string) string {
	i := strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) })
	if i <= 0 {
		return ""
	}
	switch w[i:] {
	case "st", "nd", "rd", "th":
		return w[:i]
	}
	return ""
}
