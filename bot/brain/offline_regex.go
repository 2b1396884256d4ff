package brain

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// The offline brain reads every message of the recent conversation for
// facts, with a few dozen patterns, on every reply; most patterns cannot
// match most messages. A pattern is therefore tried only when the text
// holds one of the literals any match must contain (a 岁 for a Chinese
// age, "cat", "dog"… for "my cat Miso"), found once when it is compiled.

// pattern is a compiled regular expression and the literals any match
// contains one of (none: no such literal is known; always try it).
type pattern struct {
	*regexp.Regexp
	needs []string
}

// newPattern compiles p and works out what a match needs.
func newPattern(p string) (pattern, error) {
	re, err := regexp.Compile(p)
	if err != nil {
		return pattern{}, err
	}
	parsed, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return pattern{}, err
	}
	return pattern{re, required(parsed.Simplify())}, nil
}

// may reports whether the pattern may match text: it holds a needed
// literal, or none is known.
func (p pattern) may(text string) bool {
	if len(p.needs) == 0 {
		return true
	}
	for _, n := range p.needs {
		if folded, ok := strings.CutPrefix(n, foldMark); ok {
			if containsFoldASCII(text, folded) {
				return true
			}
		} else if strings.Contains(text, n) {
			return true
		}
	}
	return false
}

// foldMark starts a needed literal of a case-insensitive pattern ((?i)),
// kept in lower case: may looks for it in any case. A (?i) pattern ran on
// every message, a long one most of all (a 1 KB message took 24 ms).
const foldMark = "\x00"

// unicodeFolds are the non-ASCII runes Go's (?i) matches to ASCII letters
// (K, the Kelvin sign, to k; ſ, the long s, to s): a text with one may
// match a folded literal that no ASCII comparison finds.
const unicodeFolds = "\u212a\u017f"

// containsFoldASCII reports whether text contains lower (ASCII, lower
// case) in any ASCII case, or holds a rune that (?i) folds to ASCII.
func containsFoldASCII(text, lower string) bool {
	for i := 0; i+len(lower) <= len(text); i++ {
		j := 0
		for j < len(lower) && asciiLower(text[i+j]) == lower[j] {
			j++
		}
		if j == len(lower) {
			return true
		}
	}
	return strings.ContainsAny(lower, "ks") && strings.ContainsAny(text, unicodeFolds)
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// required returns literals one of which every match of re contains, nil
// if it cannot tell. A case-folded literal is one when it is ASCII: it is
// kept in lower case behind foldMark.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			lit := strings.ToLower(string(re.Rune))
			for i := 0; i < len(lit); i++ {
				if lit[i] >= utf8.RuneSelf {
					return nil
				}
			}
			return []string{foldMark + lit}
		}
		return []string{string(re.Rune)}
	case syntax.OpCharClass:
		// A few runes ([才歳] from 歳|才): each is a literal.
		var runes []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(runes) == maxClassRunes {
					return nil
				}
				runes = append(runes, string(r))
			}
		}
		return runes
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		// Any required part will do; the one with the longest shortest
		// literal rules out the most texts.
		var best []string
		for _, sub := range re.Sub {
			if r := required(sub); r != nil && (best == nil || shortest(r) > shortest(best)) {
				best = r
			}
		}
		return best
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			r := required(sub)
			if r == nil {
				return nil
			}
			all = append(all, r...)
		}
		return all
	}
	return nil
}

// maxClassRunes bounds a character class read as literals (our choice: a
// class of a few runes narrows; a range like \p{Han} does not).
const maxClassRunes = 16

// shortest is the length of the shortest literal of rs.
func shortest(rs []string) int {
	n := -1
	for _, r := range rs {
		r = strings.TrimPrefix(r, foldMark)
		if n < 0 || len(r) < n {
			n = len(r)
		}
	}
	return n
}
