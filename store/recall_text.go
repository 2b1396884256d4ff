package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// How text becomes searchable (DESIGN §12). FTS5's unicode61 tokenizer
// splits English on spaces and punctuation, and porter stems it; but it
// would keep a whole run of Chinese or Japanese as one token, and trigram
// cannot match a word shorter than three characters (裁员, 小雨, 猫, 京都).
// So before FTS5 sees a text, Go replaces every run of Han and kana with its
// bigrams (each pair of neighbouring characters) followed by its Han
// unigrams. A query asks for the same n-grams. Both sides fold the text with
// NFKC first, so full-width Latin ("ＣＡＴ") and half-width katakana ("ﾈｺ")
// match their usual forms.

// isCJKRune reports whether r belongs to a Han or kana run: the scripts
// written without spaces between words. The prolonged sound mark (ー) and
// the iteration mark (々) belong to the word they are in.
func isCJKRune(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー' || r == '々'
}

// isHanRune reports whether r is an ideograph: one Han character is often a
// word on its own (猫, 雨, 家), one kana almost never is.
func isHanRune(r rune) bool { return unicode.Is(unicode.Han, r) }

// isWordRune reports whether r belongs to a non-CJK word as unicode61 sees
// it: letters, digits and the marks that combine with them.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// cjkGrams appends the n-grams of one Han/kana run to dst: every bigram in
// order (so a longer word is a phrase of consecutive bigrams), then every
// Han unigram.
func cjkGrams(dst []string, run []rune) []string {
	for i := 0; i+1 < len(run); i++ {
		dst = append(dst, string(run[i:i+2]))
	}
	for _, r := range run {
		if isHanRune(r) {
			dst = append(dst, string(r))
		}
	}
	return dst
}

// indexText is what the index stores for one text: the NFKC-folded text,
// with each Han/kana run replaced by its n-grams separated by spaces.
// Everything else is left for unicode61 and porter.
func indexText(s string) string {
	s = norm.NFKC.String(s)
	var (
		b     strings.Builder
		run   []rune
		grams []string
	)
	b.Grow(len(s) * 2)
	flush := func() {
		if len(run) == 0 {
			return
		}
		grams = cjkGrams(grams[:0], run)
		b.WriteByte(' ')
		b.WriteString(strings.Join(grams, " "))
		b.WriteByte(' ')
		run = run[:0]
	}
	for _, r := range s {
		if isCJKRune(r) {
			run = append(run, r)
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	return b.String()
}

// textTerms splits a text into the terms a query asks for, in order of
// appearance, without repeats: lower-cased words of two or more characters
// outside Han/kana runs, then the bigrams of each run, then its Han
// unigrams (the weakest evidence last, so a cap keeps the strongest). skip
// drops stop words.
func textTerms(s string, skip func(string) bool) []string {
	s = strings.ToLower(norm.NFKC.String(s))
	var words, bigrams, unigrams []string
	seen := make(map[string]bool)
	add := func(dst *[]string, t string) {
		if t == "" || seen[t] || skip(t) {
			return
		}
		seen[t] = true
		*dst = append(*dst, t)
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isCJKRune(r):
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !isCJKRune(r) {
					break
				}
				j += n
			}
			run := []rune(s[i:j])
			for k := 0; k+1 < len(run); k++ {
				add(&bigrams, string(run[k:k+2]))
			}
			for _, r := range run {
				if isHanRune(r) {
					add(&unigrams, string(r))
				}
			}
			i = j
		case isWordRune(r):
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !isWordRune(r) || isCJKRune(r) {
					break
				}
				j += n
			}
			if w := s[i:j]; utf8.RuneCountInString(w) >= minWordRunes {
				add(&words, w)
			}
			i = j
		default:
			i += size
		}
	}
	return append(append(words, bigrams...), unigrams...)
}

// minWordRunes is the shortest non-CJK word a query asks for. hearth's
// choice: a single letter ("I", "a", the "s" of "it's") says nothing about
// a topic.
const minWordRunes = 2
