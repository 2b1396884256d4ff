package heart

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Folding is an NFKC-like normalisation done by hand with the standard
// library (the heart package imports nothing else): full-width ASCII and the
// ideographic space become ASCII, half-width katakana become full-width
// katakana (with a following voiced or semi-voiced sound mark composed into
// the kana), and everything is lower-cased. Keywords and user text go through
// the same fold, so "ＨＡＰＰＹ", "Happy" and "happy" match alike, and so do
// "ｳﾚｼｲ" and "ウレシイ".

// Unicode ranges used by the fold.
const (
	fullWidthFirst = '\uFF01' // FULLWIDTH EXCLAMATION MARK
	fullWidthLast  = '\uFF5E' // FULLWIDTH TILDE
	fullWidthShift = fullWidthFirst - '!'
	ideoSpace      = '\u3000' // IDEOGRAPHIC SPACE
	halfKanaFirst  = '\uFF61' // HALFWIDTH IDEOGRAPHIC FULL STOP
	halfKanaLast   = '\uFF9F' // HALFWIDTH KATAKANA SEMI-VOICED SOUND MARK
	halfVoiced     = '\uFF9E' // HALFWIDTH KATAKANA VOICED SOUND MARK
	halfSemiVoiced = '\uFF9F'
	// rightSingleQuote is the typographic apostrophe phones insert in "can’t".
	rightSingleQuote = '\u2019'
)

// halfKana maps U+FF61..U+FF9F to their full-width forms, indexed from
// U+FF61. It is a string constant (not a table variable) so the package holds
// no mutable state.
const halfKana = "。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン゛゜"

// halfKanaRune returns the full-width form of a half-width katakana rune.
func halfKanaRune(r rune) rune {
	idx := int(r - halfKanaFirst)
	i := 0
	for _, k := range halfKana {
		if i == idx {
			return k
		}
		i++
	}
	return r
}

// voiced composes a kana with a voiced (dakuten) or semi-voiced (handakuten)
// mark, returning ok=false when the pair has no composed form. In the
// katakana block the voiced form of カ..チ, ツ, テ, ト and ハ..ホ is the next
// code point and the semi-voiced form of ハ..ホ the one after.
func voiced(base, mark rune) (rune, bool) {
	hGroup := base >= 'ハ' && base <= 'ホ' && (base-'ハ')%3 == 0
	switch mark {
	case halfVoiced:
		switch {
		case base == 'ウ':
			return 'ヴ', true
		case base >= 'カ' && base <= 'チ' && (base-'カ')%2 == 0,
			base == 'ツ', base == 'テ', base == 'ト', hGroup:
			return base + 1, true
		}
	case halfSemiVoiced:
		if hGroup {
			return base + 2, true
		}
	}
	return 0, false
}

// foldRune folds one rune that is not a half-width katakana.
func foldRune(r rune) rune {
	switch {
	case r >= fullWidthFirst && r <= fullWidthLast:
		r -= fullWidthShift
	case r == ideoSpace:
		r = ' '
	case r == rightSingleQuote:
		r = '\''
	}
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}
	return unicode.ToLower(r)
}

// needsFold reports whether s contains anything the fold would change, so
// the common case (already lower-case ASCII or CJK) costs no allocation.
func needsFold(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			return true
		case r < utf8.RuneSelf:
			continue
		case r >= fullWidthFirst && r <= halfKanaLast, r == ideoSpace, r == rightSingleQuote:
			return true
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			return true
		}
	}
	return false
}

// Fold returns s normalised for matching: NFKC-like width folding of
// full-width ASCII and half-width katakana, then lower case. It is exported
// because persona keyword lists and tests want to see what the detector sees.
func Fold(s string) string {
	if !needsFold(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r >= halfKanaFirst && r <= halfKanaLast {
			k := halfKanaRune(r)
			if i+1 < len(rs) && (rs[i+1] == halfVoiced || rs[i+1] == halfSemiVoiced) {
				if c, ok := voiced(k, rs[i+1]); ok {
					b.WriteRune(c)
					i++
					continue
				}
			}
			b.WriteRune(k)
			continue
		}
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// isWordRune reports whether r continues an English word: English keywords
// match only on word boundaries, so "sad" does not match inside "sadly" unless
// the lexicon lists "sadly" too.
func isWordRune(r rune) bool {
	return r == '_' || r == '\'' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isASCII reports whether s is pure ASCII; such keywords match on word
// boundaries, all others (Chinese, Japanese) by substring.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
