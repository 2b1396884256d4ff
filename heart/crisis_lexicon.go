package heart

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
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
	same []crisisSame
	// fold reads the [fold] section's variant spellings of Chinese and
	// Japanese as their canonical ones (nil: none).
	fold      *strings.Replacer
	foldFirst map[rune]bool
	sameBy    map[string][]int // indices into same by the variant's first word
	guard     crisisGuard
	// vocab holds every English word the lexicon knows, for reading words
	// typed without spaces ("iwanttodie"); vocabMax is the longest.
	vocab    map[string]bool
	vocabMax int
	maskEN   crisisPatternSet
	maskCJK  cjkPatternSet
	// en and cjk hold the patterns of the categories and of the named sets.
	en  crisisPatternSet
	cjk cjkPatternSet
	// raw holds the named sets' "raw:" patterns, read from the words an
	// ordinary idiom masks, before it masks them (maskWords).
	raw crisisPatternSet
	// sets names the [set NAME] sections, by index; rules combine them.
	// setWords is the length of a setBits that holds them all.
	sets     []string
	setWords int
	rules    []crisisRule
	// downgrades are the concern tier's "downgrade:" lines, in file order.
	downgrades []crisisDowngrade
	// frame is the set whose presence outside quotation marks makes the
	// quoted text a quotation (a lyric, a line of a film), or -1.
	frame int
	// own is the set whose presence outside quotation marks says the
	// quotation speaks for the writer ("literally me", わかりすぎて), so it
	// is read even when framed, or -1.
	own int
	// affirm and deny are the sets SafetyAnswer reads, bye the one Leaving
	// reads, why the one AsksWhy reads, or -1.
	affirm, deny, bye, why int
	// numbers and helpMe are the sets CrisisTalkTurn reads: a request for
	// the crisis lines, a plea for help; or -1.
	numbers, helpMe int
	// talk holds the [talk] section's rules over a message and the earlier
	// messages of its talk (ReadTalk), signs its warning signs of their own.
	talk  []crisisTalkRule
	signs []crisisSign
}

// crisisRule is one "all:" line: when every set of need and none of not
// matched the message, the message is of category cat; a rule of the
// ordinary section (cat CrisisNone) makes the whole message ordinary.
type crisisRule struct {
	cat       CrisisCategory
	need, not setMask
}

// crisisDowngrade is one "downgrade:" line of the concern tier: when
// every set of need and none of not matched a message, what the first set
// of need matched (its patterns, here as en and cjk) is read as an ordinary
// idiom, masked, and the message read again. The rest of the message counts
// as it would have; the masked words ("kms this printer", 这个会开得我想死)
// count only as the concern tier, in a talk already at risk.
type crisisDowngrade struct {
	need, not setMask
	en        crisisPatternSet
	cjk       cjkPatternSet
}

// setBits is the named sets a message matched, by index, one bit a set.
// Its length is the lexicon's setWords, fixed when the lexicon is compiled
// from the number of its sets, so the lexicon grows without a constant to
// raise. (A fixed array had to be raised by hand every time the sets
// outgrew it, and a larger one would cost every rule a longer test.)
// Reading a message allocates one, a few dozen bytes beside a read that
// costs tens of microseconds; the rules' tests, which a read repeats a few
// hundred times, touch only the words their sets are in (setMask). A nil
// or short setBits reads as holding nothing beyond its end (a reading of
// an empty or ordinary message).
type setBits []uint64

// newSets returns an empty setBits for l's sets.
func (l *crisisLexicon) newSets() setBits { return make(setBits, l.setWords) }

func (b setBits) add(i int) { b[i/64] |= 1 << (i % 64) }

func (b setBits) has(i int) bool {
	return i >= 0 && i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0
}

// all reports whether b holds every set of c.
func (b setBits) all(c setMask) bool {
	for _, w := range c {
		if w.i >= len(b) || b[w.i]&w.bits != w.bits {
			return false
		}
	}
	return true
}

// any reports whether b holds some set of c.
func (b setBits) any(c setMask) bool {
	for _, w := range c {
		if w.i < len(b) && b[w.i]&w.bits != 0 {
			return true
		}
	}
	return false
}

// or returns a new setBits with the sets of b and of c; b and c are left
// as they were, as readings are values.
func (b setBits) or(c setBits) setBits {
	out := make(setBits, max(len(b), len(c)))
	copy(out, b)
	for i, w := range c {
		out[i] |= w
	}
	return out
}

// setMask is the named sets of a rule, sparse: only the words of setBits
// that hold one of them, in order. A rule names a handful of sets, so it is
// tested in a word or two whatever the size of the lexicon.
type setMask []setWord

// setWord is one word of a setMask: bits of the word at index i.
type setWord struct {
	i    int
	bits uint64
}

// with returns m with set i added.
func (m setMask) with(i int) setMask {
	w, bit := i/64, uint64(1)<<(i%64)
	for k := range m {
		switch {
		case m[k].i == w:
			m[k].bits |= bit
			return m
		case m[k].i > w:
			return slices.Insert(m, k, setWord{i: w, bits: bit})
		}
	}
	return append(m, setWord{i: w, bits: bit})
}

// crisisGuard is the [guard] section: what turns a match into its opposite
// or makes it about someone else.
type crisisGuard struct {
	// English: words skipped looking back from a match, words that negate
	// it or name another person, and further words a gap may not skip.
	glue, negation, other, stop map[string]bool
	// Chinese and Japanese: cues right before a match, the glue a cue
	// marked "*" may skip, and patterns right after a match, in its clause.
	before  map[rune][]cjkCue // by the cue's last rune
	glueCJK []string
	after   []cjkPattern
}

// cjkCue is one "before:" guard: the cue ends right before the match (or,
// when gap is set, up to CrisisGuardRunes runes of glue before it), unless
// the text there ends with one of unless ("特别" is no "别"); it guards
// only matches that start with one of prefixes, if any are given.
type cjkCue struct {
	cue              string
	gap              bool
	prefixes, unless []string
}

// cjkPatternSet holds Chinese and Japanese patterns indexed by the first
// rune of each alternative of their first part, so reading a text is one
// pass over its runes trying only the alternatives that start there.
type cjkPatternSet struct {
	pats    []cjkPattern
	byFirst map[rune][]cjkStart
}

// cjkStart is one alternative of a pattern's first part.
type cjkStart struct {
	pat int
	alt string
}

func (s *cjkPatternSet) add(p cjkPattern) {
	if s.byFirst == nil {
		s.byFirst = map[rune][]cjkStart{}
	}
	n := len(s.pats)
	s.pats = append(s.pats, p)
	for _, a := range p.parts[0] {
		r, _ := utf8.DecodeRuneInString(a)
		s.byFirst[r] = append(s.byFirst[r], cjkStart{pat: n, alt: a})
	}
}

// each calls f with every pattern whose first part occurs in text, with
// where that occurrence starts and ends.
func (s *cjkPatternSet) each(text string, f func(p *cjkPattern, start, end int)) {
	for off, r := range text {
		for _, st := range s.byFirst[r] {
			if strings.HasPrefix(text[off:], st.alt) {
				f(&s.pats[st.pat], off, off+len(st.alt))
			}
		}
	}
}

// crisisPatternSet holds English patterns indexed by their first word, so
// a word is only tried against patterns that can start with it: by the
// word itself, or by its first letter when the first position is fuzzy (a
// misspelling keeps its first letter).
type crisisPatternSet struct {
	pats     []crisisPattern
	byWord   map[string][]int
	byLetter map[byte][]int
	always   []int // patterns whose first position is optional, a number or "any but"
}

// add indexes p.
func (s *crisisPatternSet) add(p crisisPattern) {
	n := len(s.pats)
	s.pats = append(s.pats, p)
	first := p.elems[0]
	if first.optional || first.num || first.except {
		s.always = append(s.always, n)
		return
	}
	if s.byWord == nil {
		s.byWord, s.byLetter = map[string][]int{}, map[byte][]int{}
	}
	fuzzy := false
	for _, a := range first.alts {
		fuzzy = fuzzy || a.fuzzy
	}
	seen := map[string]bool{}
	for _, a := range first.alts {
		key := a.word
		if fuzzy {
			key = a.word[:1]
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		if fuzzy {
			s.byLetter[key[0]] = append(s.byLetter[key[0]], n)
		} else {
			s.byWord[key] = append(s.byWord[key], n)
		}
	}
}

// at calls f with every pattern that may match from word w.
func (s *crisisPatternSet) at(w string, f func(p *crisisPattern)) {
	if w == "" {
		return
	}
	for _, n := range s.byWord[w] {
		f(&s.pats[n])
	}
	for _, n := range s.byLetter[w[0]] {
		f(&s.pats[n])
	}
	for _, n := range s.always {
		f(&s.pats[n])
	}
}

// crisisSame reads the words variant as the words canonical.
type crisisSame struct{ canonical, variant []string }

// crisisPattern is one English pattern: a sequence of word positions. It
// belongs to a category, or to the named set set (then set ≥ 0).
type crisisPattern struct {
	cat   CrisisCategory
	set   int
	elems []crisisElem
	// self is set when the pattern names the writer as its object ("deal
	// with me"): another person or a negation before it ("you wont have to
	// deal with me") belongs to the pattern, so nothing guards it.
	self bool
}

// crisisElem is one position of an English pattern.
type crisisElem struct {
	alts     []crisisAlt
	optional bool // "word?"
	gap      bool // "*": up to CrisisGapWords words
	num      bool // "<num>": a number
	many     bool // "<many>": a number of at least CrisisManyPills
	end      bool // "$": the end of the text, taking no word
	except   bool // "!a|b": one word that is none of alts
}

// crisisAlt is one alternative word of a position; fuzzy ones also match a
// misspelling (crisisFuzzyEqual).
type crisisAlt struct {
	word  string
	fuzzy bool
}

// cjkPattern is one Chinese or Japanese pattern: parts of the compact
// text, in order, with gaps of up to CrisisGapRunes runes between them;
// each part is a list of alternative strings. It belongs to a category or
// to the named set set (then set ≥ 0).
type cjkPattern struct {
	cat   CrisisCategory
	set   int
	parts [][]string
}

// compactCJK is the compact form of a Chinese or Japanese pattern, cue or
// glue: relCompact's, folded as the text is (foldCJK).
func (l *crisisLexicon) compactCJK(s string) string { return l.foldCJK(relCompact(s)) }

// foldCJK reads katakana as hiragana and the [fold] section's variants as
// their canonical spellings. Text and patterns are folded alike, so a
// fold can only make two spellings of one word meet.
func (l *crisisLexicon) foldCJK(s string) string {
	if relASCII(s) {
		return s
	}
	s = foldKana(s)
	if l.fold != nil && strings.IndexFunc(s, l.foldStarts) >= 0 {
		s = l.fold.Replace(s)
	}
	return s
}

// foldStarts reports whether some [fold] variant starts with r, so a text
// with none of them skips the replacer.
func (l *crisisLexicon) foldStarts(r rune) bool { return l.foldFirst[r] }

// foldKana reads katakana as hiragana (マシ as まし, ロープ as ろーぷ): one
// word is written in either script, and the lexicon need list it once. The
// katakana block U+30A1-U+30F6 lies 0x60 above its hiragana (the Unicode
// Standard, Hiragana and Katakana charts); ー and ・ have no hiragana and
// stay.
func foldKana(s string) string {
	i := strings.IndexFunc(s, isKatakana)
	if i < 0 {
		return s
	}
	return s[:i] + strings.Map(func(r rune) rune {
		if isKatakana(r) {
			return r - kanaOffset
		}
		return r
	}, s[i:])
}

// The katakana that have a hiragana, and how far above it they lie.
const (
	katakanaFirst, katakanaLast = '\u30a1', '\u30f6'
	kanaOffset                  = 0x60
)

func isKatakana(r rune) bool { return r >= katakanaFirst && r <= katakanaLast }
