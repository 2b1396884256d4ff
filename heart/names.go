package heart

import (
	"strings"
	"unicode"
)

// NamesCompanion reports whether text calls the companion by name. Spoken
// words carry no @mention, so this is how a group voice note is addressed
// to her (DESIGN §12): "Luna, are you there?" names Luna, "lunatic" does
// not; a Chinese or Japanese name (露娜, ルナ) matches wherever it is
// written, as those scripts put no spaces between words. Case and width
// are folded, as for the lexicon and lore keys.
func NamesCompanion(text, name string) bool {
	name = Fold(strings.TrimSpace(name))
	if name == "" {
		return false
	}
	t := Fold(text)
	if strings.ContainsFunc(name, unicode.IsSpace) || strings.ContainsFunc(name, isCJK) {
		return strings.Contains(t, name)
	}
	return containsWord(t, name, loreWordRune)
}
