package heart

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The sections that are not categories.
const (
	crisisMaskSection  = "ordinary"
	crisisSameSection  = "same"
	crisisClassSection = "class"
	crisisGuardSection = "guard"
	// crisisFoldSection holds spellings of Chinese and Japanese read as one
	// ("fold: ほう = 方"), read before every other line (crisisFolds).
	crisisFoldSection = "fold"
	crisisSetPrefix   = "set "
	// crisisTalkSection holds the rules over a message and its talk
	// (ReadTalk), and its "signs:" line.
	crisisTalkSection = "talk"
	crisisSignKind    = "sign"
	// crisisMaxSigns is how many "sign:" lines the [talk] section may
	// have: the bits of a message's signs.
	crisisMaxSigns = 64
	// crisisFrameSet names the set that makes quoted text a quotation.
	crisisFrameSet = "quotation"
	// crisisOwnSet names the set that makes a framed quotation the
	// writer's own again: a lyric on repeat that "says it exactly"
	// (round 11: 「生きていたくない」って歌詞ずっと聞いてる、わかりすぎてつらい).
	crisisOwnSet = "own_quote"
	// The sets SafetyAnswer reads.
	crisisAffirmSet = "affirm"
	crisisDenySet   = "deny"
	crisisByeSet    = "bye"
	crisisWhySet    = "deflect"
	// The sets CrisisTalkTurn reads.
	crisisNumbersSet = "help_numbers"
	crisisHelpMeSet  = "help_me"
	// crisisRawKind is a set's English line read before the ordinary
	// idioms are masked, so a set that rules a reading out sees what an
	// idiom hides (round 13: "bungee jump" is masked as a sport, and the
	// sport must still keep "on the bridge rn" ordinary).
	crisisRawKind = "raw"
	// crisisDowngradeKind is the concern tier's line that reads a set's
	// words as an idiom (crisisDowngrade).
	crisisDowngradeKind = "downgrade"
	// crisisMaxExpansion bounds the strings one Chinese or Japanese part
	// expands to, so a careless line cannot blow up the lexicon (hearth's
	// choice: above what any part of data/crisis.txt expands to).
	crisisMaxExpansion = 4096
)

// crisisParser carries what a lexicon line needs from earlier lines.
type crisisParser struct {
	l       *crisisLexicon
	classes map[string][]string
	setIdx  map[string]int
	rules   [][2]string // section and text of each "all:" line
	talk    [][2]string // kind and text of each [talk] line
	// downgrades holds the text of each "downgrade:" line.
	downgrades []string
}

// parseCrisisLexicon compiles the lexicon text (syntax in data/crisis.txt).
func parseCrisisLexicon(data string) (*crisisLexicon, error) {
	p := crisisParser{
		l: &crisisLexicon{
			frame: -1, own: -1, affirm: -1, deny: -1, bye: -1, why: -1, numbers: -1, helpMe: -1,
			vocab: map[string]bool{},
			guard: crisisGuard{glue: map[string]bool{}, negation: map[string]bool{}, other: map[string]bool{}, stop: map[string]bool{}, before: map[rune][]cjkCue{}},
		},
		classes: map[string][]string{},
		setIdx:  map[string]int{},
	}
	folds, first, err := crisisFolds(data)
	if err != nil {
		return nil, err
	}
	p.l.fold, p.l.foldFirst = folds, first
	section := ""
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = line[1 : len(line)-1]
			if err := p.open(section); err != nil {
				return nil, fmt.Errorf("line %d: %w", n+1, err)
			}
			continue
		}
		kind, pat, ok := strings.Cut(line, ":")
		pat = strings.TrimSpace(pat)
		if !ok || pat == "" {
			return nil, fmt.Errorf("line %d: want KIND: PATTERN", n+1)
		}
		if err := p.add(section, strings.TrimSpace(kind), pat); err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
	}
	for _, r := range p.rules {
		if err := p.addRule(r[0], r[1]); err != nil {
			return nil, fmt.Errorf("rule %q: %w", r[1], err)
		}
	}
	for _, r := range p.talk {
		if err := p.addTalk(r[0], r[1]); err != nil {
			return nil, fmt.Errorf("talk %s: %q: %w", r[0], r[1], err)
		}
	}
	for _, d := range p.downgrades {
		if err := p.addDowngrade(d); err != nil {
			return nil, fmt.Errorf("downgrade %q: %w", d, err)
		}
	}
	if len(p.l.en.pats) == 0 || len(p.l.cjk.pats) == 0 {
		return nil, fmt.Errorf("no patterns")
	}
	p.l.setWords = (len(p.l.sets) + 63) / 64
	for _, s := range p.l.same {
		p.l.addVocab(s.canonical...)
		p.l.addVocab(s.variant...)
	}
	return p.l, nil
}

// open starts a section.
func (p *crisisParser) open(section string) error {
	if name, ok := strings.CutPrefix(section, crisisSetPrefix); ok {
		if !crisisName(name) {
			return fmt.Errorf("bad set name %q", name)
		}
		if _, dup := p.setIdx[name]; dup {
			return fmt.Errorf("set %q defined twice", name)
		}
		p.setIdx[name] = len(p.l.sets)
		switch name {
		case crisisFrameSet:
			p.l.frame = len(p.l.sets)
		case crisisOwnSet:
			p.l.own = len(p.l.sets)
		case crisisAffirmSet:
			p.l.affirm = len(p.l.sets)
		case crisisDenySet:
			p.l.deny = len(p.l.sets)
		case crisisByeSet:
			p.l.bye = len(p.l.sets)
		case crisisWhySet:
			p.l.why = len(p.l.sets)
		case crisisNumbersSet:
			p.l.numbers = len(p.l.sets)
		case crisisHelpMeSet:
			p.l.helpMe = len(p.l.sets)
		}
		p.l.sets = append(p.l.sets, name)
		return nil
	}
	switch section {
	case crisisMaskSection, crisisSameSection, crisisClassSection, crisisGuardSection, crisisTalkSection, crisisFoldSection:
		return nil
	}
	if c := CrisisCategory(section); c != CrisisConcern && c.severity() < CrisisWishDead.severity() {
		return fmt.Errorf("unknown section %q", section)
	}
	return nil
}

// crisisName reports whether s is a valid class or set name.
func crisisName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// add files one line of a section.
func (p *crisisParser) add(section, kind, pat string) error {
	set := -1
	if name, ok := strings.CutPrefix(section, crisisSetPrefix); ok {
		set = p.setIdx[name]
	}
	switch {
	case section == "":
		return fmt.Errorf("pattern before any section")
	case section == crisisFoldSection:
		return nil // read first, by crisisFolds
	case section == crisisSameSection:
		return p.addSame(kind, pat)
	case section == crisisClassSection:
		return p.addClass(kind, pat)
	case section == crisisGuardSection:
		return p.addGuard(kind, pat)
	case section == crisisTalkSection:
		// Talk lines name sets defined anywhere: they are read last.
		p.talk = append(p.talk, [2]string{kind, pat})
		return nil
	case kind == "all":
		if set >= 0 {
			return fmt.Errorf("a rule inside a set")
		}
		// Rules may name sets defined further down: they are read last.
		p.rules = append(p.rules, [2]string{section, pat})
		return nil
	case kind == crisisDowngradeKind:
		if section != string(CrisisConcern) {
			return fmt.Errorf("a downgrade outside [%s]", CrisisConcern)
		}
		p.downgrades = append(p.downgrades, pat)
		return nil
	case kind == crisisRawKind:
		if set < 0 {
			return fmt.Errorf("a %s: line outside a set", crisisRawKind)
		}
		e, err := p.parseEN(pat)
		if err != nil {
			return err
		}
		p.l.raw.add(crisisPattern{set: set, elems: e, self: crisisNamesMe(e)})
		return nil
	case kind == "en":
		e, err := p.parseEN(pat)
		if err != nil {
			return err
		}
		if section == crisisMaskSection {
			p.l.maskEN.add(crisisPattern{set: -1, elems: e})
		} else {
			p.l.en.add(crisisPattern{cat: CrisisCategory(section), set: set, elems: e, self: crisisNamesMe(e)})
		}
		return nil
	case kind == "zh" || kind == "ja":
		parts, err := p.parseCJK(pat)
		if err != nil {
			return err
		}
		if section == crisisMaskSection {
			if len(parts) > 1 {
				return fmt.Errorf("an ordinary idiom has no gaps: %q", pat)
			}
			p.l.maskCJK.add(cjkPattern{set: -1, parts: parts})
		} else {
			p.l.cjk.add(cjkPattern{cat: CrisisCategory(section), set: set, parts: parts})
		}
		return nil
	}
	return fmt.Errorf("unknown kind %q", kind)
}

// addSame reads "same: CANONICAL = VARIANT".
func (p *crisisParser) addSame(kind, pat string) error {
	if kind != "same" {
		return fmt.Errorf("want same: in [same]")
	}
	a, b, ok := strings.Cut(pat, "=")
	ca, cb := strings.Fields(a), strings.Fields(b)
	if !ok || len(ca) == 0 || len(cb) == 0 {
		return fmt.Errorf("want same: CANONICAL = VARIANT")
	}
	if p.l.sameBy == nil {
		p.l.sameBy = map[string][]int{}
	}
	p.l.sameBy[cb[0]] = append(p.l.sameBy[cb[0]], len(p.l.same))
	p.l.same = append(p.l.same, crisisSame{canonical: ca, variant: cb})
	return nil
}

// addClass reads "NAME: a|b|c".
func (p *crisisParser) addClass(name, pat string) error {
	if !crisisName(name) {
		return fmt.Errorf("bad class name %q", name)
	}
	if _, dup := p.classes[name]; dup {
		return fmt.Errorf("class %q defined twice", name)
	}
	alts := strings.Split(pat, "|")
	for _, a := range alts {
		if strings.TrimSpace(a) == "" || strings.ContainsAny(a, "@[]*") {
			return fmt.Errorf("bad alternative %q in class %q", a, name)
		}
	}
	p.classes[name] = alts
	return nil
}

// addGuard reads one [guard] line.
func (p *crisisParser) addGuard(kind, pat string) error {
	g := &p.l.guard
	words := map[string]map[string]bool{"glue": g.glue, "negation": g.negation, "other": g.other, "stop": g.stop}
	if m, ok := words[kind]; ok {
		for _, w := range strings.Fields(pat) {
			if !relASCII(w) || strings.ToLower(w) != w {
				return fmt.Errorf("bad word %q", w)
			}
			m[w] = true
			p.l.addVocab(w)
		}
		return nil
	}
	switch kind {
	case "before":
		// "CUE[*] [> PREFIX...] [! UNLESS...]"
		pat, unless, _ := strings.Cut(pat, "!")
		cue, prefixes, _ := strings.Cut(pat, ">")
		cue = strings.TrimSpace(cue)
		gap := strings.HasSuffix(cue, "*")
		cues, err := p.expandCJK(strings.TrimSuffix(cue, "*"))
		if err != nil {
			return err
		}
		for _, c := range cues {
			if c = p.l.compactCJK(c); c == "" {
				return fmt.Errorf("empty cue in %q", pat)
			}
			last, _ := utf8.DecodeLastRuneInString(c)
			g.before[last] = append(g.before[last], cjkCue{cue: c, gap: gap, prefixes: strings.Fields(prefixes), unless: strings.Fields(unless)})
		}
		return nil
	case "cjkglue":
		for _, w := range strings.Fields(pat) {
			g.glueCJK = append(g.glueCJK, p.l.compactCJK(w))
		}
		return nil
	case "after":
		parts, err := p.parseCJK(pat)
		if err != nil {
			return err
		}
		g.after = append(g.after, cjkPattern{set: -1, parts: parts})
		return nil
	}
	return fmt.Errorf("unknown guard %q", kind)
}

// addRule reads "all: SET SET !SET".
func (p *crisisParser) addRule(section, pat string) error {
	r := crisisRule{cat: CrisisCategory(section)}
	if section == crisisMaskSection {
		r.cat = CrisisNone
	}
	var err error
	if r.need, r.not, _, err = p.setsOf(pat); err != nil {
		return err
	}
	if len(r.need) == 0 {
		return fmt.Errorf("a rule needs at least one set: %q", pat)
	}
	p.l.rules = append(p.l.rules, r)
	return nil
}

// addTalk reads a [talk] line: "sign: SET !SET" or "CATEGORY: NAME NAME
// !SET", where a NAME is a set, a category (a message of the talk read at
// least that severe, at most one a rule) or "dark" (the talk was already
// at risk).
func (p *crisisParser) addTalk(kind, pat string) error {
	l := p.l
	if kind == crisisSignKind {
		_, not, need, err := p.setsOf(pat)
		switch {
		case err != nil:
			return err
		case len(need) != 1:
			return fmt.Errorf("a sign needs one set, not %d", len(need))
		}
		sg := crisisSign{set: need[0], not: not}
		if len(l.signs) == crisisMaxSigns {
			return fmt.Errorf("more than %d signs", crisisMaxSigns)
		}
		l.signs = append(l.signs, sg)
		return nil
	}
	r := crisisTalkRule{cat: CrisisCategory(kind)}
	if r.cat.severity() == 0 || r.cat == CrisisModel {
		return fmt.Errorf("unknown category %q", kind)
	}
	for _, name := range strings.Fields(pat) {
		neg := strings.HasPrefix(name, "!")
		name = strings.TrimPrefix(name, "!")
		if i, ok := p.setIdx[name]; ok {
			if neg {
				r.not = r.not.with(i)
			} else {
				r.need = r.need.with(i)
			}
			continue
		}
		switch c := CrisisCategory(name); {
		case neg:
			return fmt.Errorf("only a set can be ruled out: %q", name)
		case name == crisisTalkDark:
			r.dark = true
		case c.severity() > 0 && c != CrisisModel:
			if r.atLeast != CrisisNone {
				return fmt.Errorf("two categories in one rule")
			}
			r.atLeast = c
		default:
			return fmt.Errorf("unknown set or category %q", name)
		}
	}
	if len(r.need) == 0 {
		return fmt.Errorf("a talk rule needs at least one set")
	}
	l.talk = append(l.talk, r)
	return nil
}

// setsOf reads "SET SET !SET": the sets a line needs, the sets it rules
// out, and the needed ones in the order written.
func (p *crisisParser) setsOf(pat string) (need, not setMask, order []int, err error) {
	for _, name := range strings.Fields(pat) {
		neg := strings.HasPrefix(name, "!")
		i, ok := p.setIdx[strings.TrimPrefix(name, "!")]
		switch {
		case !ok:
			return need, not, nil, fmt.Errorf("unknown set %q", name)
		case neg:
			not = not.with(i)
		default:
			need = need.with(i)
			order = append(order, i)
		}
	}
	return need, not, order, nil
}

// addDowngrade reads "downgrade: SET SET !SET": a rule's sets, the first
// of them the one whose patterns become the masks.
func (p *crisisParser) addDowngrade(pat string) error {
	need, not, order, err := p.setsOf(pat)
	if err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("a downgrade needs at least one set: %q", pat)
	}
	d, first := crisisDowngrade{need: need, not: not}, order[0]
	for _, e := range p.l.en.pats {
		if e.set == first {
			d.en.add(crisisPattern{set: -1, elems: e.elems})
		}
	}
	for _, c := range p.l.cjk.pats {
		if c.set == first {
			d.cjk.add(cjkPattern{set: -1, parts: c.parts})
		}
	}
	p.l.downgrades = append(p.l.downgrades, d)
	return nil
}

// parseEN reads one English pattern.
func (p *crisisParser) parseEN(pat string) ([]crisisElem, error) {
	var elems []crisisElem
	for _, tok := range strings.Fields(pat) {
		var e crisisElem
		switch {
		case tok == "*":
			if len(elems) == 0 {
				return nil, fmt.Errorf("%q starts with a gap", pat)
			}
			e.gap = true
		case tok == "<num>":
			e.num = true
		case tok == "<many>":
			e.num, e.many = true, true
		case tok == "$":
			if len(elems) == 0 {
				return nil, fmt.Errorf("%q starts with its end", pat)
			}
			e.end = true
		default:
			if strings.HasSuffix(tok, "?") {
				e.optional, tok = true, strings.TrimSuffix(tok, "?")
			}
			if strings.HasPrefix(tok, "!") {
				e.except, tok = true, tok[1:]
			}
			alts, err := p.expandWords(tok)
			if err != nil {
				return nil, fmt.Errorf("%w in %q", err, pat)
			}
			for _, a := range alts {
				alt := crisisAlt{word: a}
				if strings.HasPrefix(a, "~") {
					alt = crisisAlt{word: a[1:], fuzzy: true}
				}
				if alt.word == "" || !relASCII(alt.word) || strings.ToLower(alt.word) != alt.word || strings.ContainsAny(alt.word, " ~") {
					return nil, fmt.Errorf("bad word %q in %q", a, pat)
				}
				e.alts = append(e.alts, alt)
				p.l.addVocab(alt.word)
			}
		}
		elems = append(elems, e)
	}
	if len(elems) == 0 {
		return nil, fmt.Errorf("empty pattern")
	}
	return elems, nil
}

// crisisNamesMe reports whether a pattern has a position that is only the
// word "me".
func crisisNamesMe(elems []crisisElem) bool {
	for _, e := range elems {
		if len(e.alts) == 1 && e.alts[0].word == "me" && !e.optional && !e.except {
			return true
		}
	}
	return false
}

// expandWords splits "a|@class|b" into its alternatives.
func (p *crisisParser) expandWords(tok string) ([]string, error) {
	var out []string
	for _, a := range strings.Split(tok, "|") {
		if name, ok := strings.CutPrefix(a, "@"); ok {
			c, ok := p.classes[name]
			if !ok {
				return nil, fmt.Errorf("unknown class %q", name)
			}
			out = append(out, c...)
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// parseCJK reads one Chinese or Japanese pattern: parts split by "*",
// each expanded (expandCJK) into the list of strings it matches.
func (p *crisisParser) parseCJK(pat string) ([][]string, error) {
	var parts [][]string
	for _, src := range strings.Split(pat, "*") {
		alts, err := p.expandCJK(src)
		if err != nil {
			return nil, fmt.Errorf("%w in %q", err, pat)
		}
		seen := map[string]bool{}
		var part []string
		for _, a := range alts {
			a = p.l.compactCJK(a)
			if a == "" {
				return nil, fmt.Errorf("part %q can be empty in %q", src, pat)
			}
			if !seen[a] {
				seen[a] = true
				part = append(part, a)
			}
		}
		parts = append(parts, part)
	}
	return parts, nil
}

// expandCJK expands one part: literal runes, "[a|b]" groups and "@class"
// references, each made optional by a "?" after it.
func (p *crisisParser) expandCJK(src string) ([]string, error) {
	out := []string{""}
	for rest := src; rest != ""; {
		var alts []string
		switch {
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [ in %q", src)
			}
			var err error
			if alts, err = p.expandWords(rest[1:end]); err != nil {
				return nil, err
			}
			rest = rest[end+1:]
		case rest[0] == '@':
			n := 1
			for n < len(rest) && crisisName(rest[1:n+1]) {
				n++
			}
			c, ok := p.classes[rest[1:n]]
			if !ok {
				return nil, fmt.Errorf("unknown class %q", rest[1:n])
			}
			alts, rest = c, rest[n:]
		case strings.ContainsRune("]|?", rune(rest[0])):
			return nil, fmt.Errorf("stray %q in %q", rest[0], src)
		default:
			_, size := utf8.DecodeRuneInString(rest)
			alts, rest = []string{rest[:size]}, rest[size:]
		}
		if strings.HasPrefix(rest, "?") {
			alts, rest = append(alts, ""), rest[1:]
		}
		if len(out)*len(alts) > crisisMaxExpansion {
			return nil, fmt.Errorf("part %q expands to too many strings", src)
		}
		next := make([]string, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+a)
			}
		}
		out = next
	}
	return out, nil
}

// addVocab records English words the lexicon knows.
func (l *crisisLexicon) addVocab(ws ...string) {
	for _, w := range ws {
		l.vocab[w] = true
		l.vocabMax = max(l.vocabMax, len(w))
	}
}

// crisisFolds reads the [fold] section's lines, wherever they stand, before
// any pattern is compiled: "fold: CANONICAL = VARIANT|VARIANT". Every
// variant in the compact text, and in every Chinese and Japanese pattern,
// cue and mask, is read as its canonical spelling (foldCJK), so a pattern
// written once matches every spelling (死んだほうがまし, 死んだ方がマシ).
func crisisFolds(data string) (*strings.Replacer, map[rune]bool, error) {
	var pairs []string
	first := map[rune]bool{}
	section := ""
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = line[1 : len(line)-1]
			continue
		}
		if section != crisisFoldSection || line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, pat, _ := strings.Cut(line, ":")
		canon, variants, ok := strings.Cut(pat, "=")
		canon = foldKana(relCompact(canon))
		if strings.TrimSpace(kind) != crisisFoldSection || !ok || canon == "" {
			return nil, nil, fmt.Errorf("line %d: want fold: CANONICAL = VARIANT|VARIANT", n+1)
		}
		for _, v := range strings.Split(variants, "|") {
			if v = foldKana(relCompact(v)); v == "" || v == canon {
				return nil, nil, fmt.Errorf("line %d: bad variant %q", n+1, v)
			}
			pairs = append(pairs, v, canon)
			r, _ := utf8.DecodeRuneInString(v)
			first[r] = true
		}
	}
	if len(pairs) == 0 {
		return nil, nil, nil
	}
	return strings.NewReplacer(pairs...), first, nil
}
