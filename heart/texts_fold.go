package heart

import (
	"strings"
	"unicode"
)

// The phrase matching of seed 003 (crisis lexicon, forbidden phrases,
// attachment questions, forget requests) sees text in two forms, both built
// on Fold (width folding and lower case):
//
//   - the word form, for ASCII phrases: every run of characters that are not
//     letters or digits becomes one space, apostrophes vanish ("don't" →
//     "dont") and the text is padded with spaces, so " want to die " matches
//     on word boundaries and never inside "want to diet";
//   - the compact form, for Chinese and Japanese phrases: spaces,
//     punctuation and symbols removed, so "我 等了你，好久" still contains
//     "我等了你好久".

// relFold is Fold plus typographic quotes folded to ASCII ones.
func relFold(s string) string {
	s = Fold(s)
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2018', '\u2019', '\u02bc', '\uff07':
			return '\''
		case '\u201c', '\u201d':
			return '"'
		}
		return r
	}, s)
}

// relWords returns the word form of s (see above).
func relWords(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(' ')
	space := true
	for _, r := range relFold(s) {
		switch {
		case r == '\'':
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// relCompact returns the compact form of s (see above).
func relCompact(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range relFold(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// relASCII reports whether s is pure ASCII (such phrases match by words).
func relASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// relMatcher holds both forms of one text so a list of phrases can be
// checked without folding the text again for each phrase.
type relMatcher struct {
	words   string
	compact string
}

// newRelMatcher prepares text for phrase matching.
func newRelMatcher(text string) relMatcher {
	return relMatcher{words: relWords(text), compact: relCompact(text)}
}

// cues is a built-in phrase list in matching form: the word form of each
// ASCII phrase (matched on word boundaries) and the compact form of the
// others (matched as substrings of the compact text), computed once so a
// turn does not fold every phrase again.
type cues struct{ words, compact []string }

// compileCues puts phrases in matching form; a phrase with no letters or
// digits would match everything and is left out.
func compileCues(phrases ...string) cues {
	var c cues
	for _, p := range phrases {
		if relASCII(p) {
			if w := relWordPhrase(p); w != "" {
				c.words = append(c.words, w)
			}
		} else if k := relCompactPhrase(p); k != "" {
			c.compact = append(c.compact, k)
		}
	}
	return c
}

// relContainsWords reports whether words (a padded word form) contains the
// word phrase w on word boundaries, without building " "+w+" ".
func relContainsWords(words, w string) bool {
	for off := 0; ; {
		i := strings.Index(words[off:], w)
		if i < 0 {
			return false
		}
		pos := off + i
		if words[pos-1] == ' ' && words[pos+len(w)] == ' ' {
			return true
		}
		off = pos + 1
	}
}

// relWordPhrase is the word form of an ASCII phrase without its padding.
// Built-in phrases are already in that form (lower case, single spaces), so
// the common case returns the phrase itself without allocating.
func relWordPhrase(p string) string {
	canonical := p != "" && p[0] != ' ' && p[len(p)-1] != ' '
	for i := 0; canonical && i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == ' ' && p[i-1] != ' ':
		default:
			canonical = false
		}
	}
	if canonical {
		return p
	}
	return strings.TrimSpace(relWords(p))
}

// relCompactPhrase is the compact form of a phrase; built-in Chinese and
// Japanese phrases have no spaces, punctuation or upper case, so they are
// returned as they are.
func relCompactPhrase(p string) string {
	for _, r := range p {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r)) || unicode.IsUpper(r) || r >= 0xFF01 && r <= 0xFF9F {
			return relCompact(p)
		}
	}
	return p
}

// hasAny reports whether the text contains any of c.
func (m relMatcher) hasAny(c cues) bool {
	for _, w := range c.words {
		if relContainsWords(m.words, w) {
			return true
		}
	}
	for _, k := range c.compact {
		if strings.Contains(m.compact, k) {
			return true
		}
	}
	return false
}

// relLang maps a persona language to one hearth has texts for. Hearth's
// choice: anything that is not Chinese or Japanese gets English, the widest
// understood of the three.
func relLang(lang string) string {
	l := strings.ToLower(strings.TrimSpace(lang))
	switch {
	case strings.HasPrefix(l, "zh"):
		return "zh"
	case strings.HasPrefix(l, "ja"), strings.HasPrefix(l, "jp"):
		return "ja"
	}
	return "en"
}

// relPick returns the text for lang from a zh/en/ja triple.
func relPick(lang, zh, en, ja string) string {
	switch relLang(lang) {
	case "zh":
		return zh
	case "ja":
		return ja
	}
	return en
}
