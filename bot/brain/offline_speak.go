package brain

import (
	"fmt"
	"maps"
	"strings"
)

// Text-speak ("r u a bot", "whats ur favorite game", "gn luna") is read as
// the words it stands for before anything is matched (words.yaml speak):
// teenagers write this way all the time, and a companion that hears "r u
// ok" as noise is not listening. The expansion is a reading only: what
// the user wrote is what is stored and quoted back (spoken.restore), and
// replies keep their register (nothing here writes a reply).

// speakMaxWords is the longest key of words.yaml speak, in words: a word
// or a word and the one after it ("ur so" → "you're so", "friends name"
// → "friend's name"; our choice, all the table needs).
const speakMaxWords = 2

// speakTable is words.yaml speak, compiled: lower-case key → its words.
type speakTable struct {
	words       map[string]string
	longest     int // bytes of the longest one-word key: a longer word is looked up no more
	longestPair int // bytes of the longest two-word key
}

// speakKeyBytes bounds a key of words.yaml speak (our choice: twice the
// longest English word a table of abbreviations needs, "girlfriends name"
// is 16).
const speakKeyBytes = 32

// compileSpeak checks words.yaml speak: keys are lower-case ASCII words,
// at most speakMaxWords of them.
func compileSpeak(m map[string]string) (speakTable, error) {
	t := speakTable{words: map[string]string{}}
	for key, words := range m {
		fs := strings.Fields(key)
		if len(fs) == 0 || len(fs) > speakMaxWords || strings.Join(fs, " ") != key || key != strings.ToLower(key) || words == "" {
			return t, fmt.Errorf("words.yaml speak: key %q: want one or %d lower-case words and their reading", key, speakMaxWords)
		}
		for i := 0; i < len(key); i++ {
			if c := key[i]; c != ' ' && !isSpeakByte(c) {
				return t, fmt.Errorf("words.yaml speak: key %q: ASCII letters, digits and apostrophes only", key)
			}
		}
		if len(key) > speakKeyBytes {
			return t, fmt.Errorf("words.yaml speak: key %q: longer than %d bytes", key, speakKeyBytes)
		}
		t.words[key] = words
		if len(fs) == 1 {
			t.longest = max(t.longest, len(key))
		} else {
			t.longestPair = max(t.longestPair, len(key))
		}
	}
	return t, nil
}

// isSpeakByte reports whether c belongs to a word of text-speak: an ASCII
// letter, digit or apostrophe. Anything else (a space, punctuation, a
// Chinese or Japanese character) ends one.
func isSpeakByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\''
}

// spoken is a text as read: text with its text-speak expanded, raw as the
// user wrote it, and where the two differ.
type spoken struct {
	text, raw string
	segs      []speakSeg
}

// speakSeg is one expansion: text[at:at+n] reads raw[rawAt:rawAt+rawN].
type speakSeg struct{ at, n, rawAt, rawN int }

// plain reads raw's text-speak as its words (see the file comment). Whole
// words only: "ur" in "your" or "hour" is none. A one-letter key ("r",
// "u") is read only where written lower-case, so "R" as an initial or "U"
// in a list stays itself; nor is a word followed by a dot and a letter
// ("u.s.") or one inside a web address or an @name. A text with nothing to
// expand is returned as it is, at no cost.
func (k *knowledge) plain(raw string) spoken {
	out := spoken{text: raw, raw: raw}
	if len(k.speak.words) == 0 {
		return out
	}
	var b strings.Builder
	last := 0 // raw is written out up to here
	for i := 0; i < len(raw); {
		if !isSpeakByte(raw[i]) {
			i++
			continue
		}
		j := speakWordEnd(raw, i)
		end := j
		words := ""
		if j+1 < len(raw) && raw[j] == ' ' && isSpeakByte(raw[j+1]) {
			// A two-word key wins over its first word ("ur so").
			if j2 := speakWordEnd(raw, j+1); j2-i <= k.speak.longestPair {
				if words = k.speak.lookup(raw, i, j2); words != "" {
					end = j2
				}
			}
		}
		if words == "" && j-i <= k.speak.longest {
			words = k.speak.lookup(raw, i, j)
		}
		if words == "" || !k.speakable(raw, i, end) {
			i = j
			continue
		}
		b.WriteString(raw[last:i])
		out.segs = append(out.segs, speakSeg{at: b.Len(), n: len(words), rawAt: i, rawN: end - i})
		b.WriteString(words)
		last, i = end, end
	}
	if len(out.segs) == 0 {
		return out
	}
	b.WriteString(raw[last:])
	out.text = b.String()
	return out
}

// speakWordEnd is where the word starting at raw[i] ends.
func speakWordEnd(raw string, i int) int {
	for i < len(raw) && isSpeakByte(raw[i]) {
		i++
	}
	return i
}

// lookup is the reading of raw[start:end], a word or two, folded to lower
// case without allocating; "" when the table has none.
func (t speakTable) lookup(raw string, start, end int) string {
	var key [speakKeyBytes]byte
	if end-start > len(key) {
		return ""
	}
	kb := key[:0]
	for i := start; i < end; i++ {
		kb = append(kb, asciiLower(raw[i]))
	}
	return t.words[string(kb)]
}

// speakable reports whether raw[start:end], a key of the table, is
// text-speak where it stands (plain's rules).
func (k *knowledge) speakable(raw string, start, end int) bool {
	if end-start == 1 && (raw[start] < 'a' || raw[start] > 'z') {
		return false // "R" as an initial, "U" in a list
	}
	if end+1 < len(raw) && raw[end] == '.' && isSpeakByte(raw[end+1]) {
		return false // "u.s.", "ur.com"
	}
	if start > 0 && strings.ContainsRune("@#/.:_-", rune(raw[start-1])) {
		return false // "@ur", "#gn", "site.ur", "a-r"
	}
	if end < len(raw) && strings.ContainsRune("@/:_-", rune(raw[end])) {
		return false
	}
	return true
}

// restore is what the user wrote for v, a part of s.text: a fact's value
// or a phrase said back reads "ppl" where they wrote "ppl". A v not found
// in s.text, or the same in both, is returned as it is.
func (s spoken) restore(v string) string {
	if len(s.segs) == 0 || v == "" {
		return v
	}
	i := strings.Index(s.text, v)
	if i < 0 {
		return v
	}
	a, b := s.rawAt(i, false), s.rawAt(i+len(v), true)
	if a >= b {
		return v
	}
	return s.raw[a:b]
}

// rawAt maps an offset of s.text to one of s.raw; an offset inside an
// expansion goes to the start of its raw word, or its end when end is set.
func (s spoken) rawAt(at int, end bool) int {
	shift := 0
	for _, g := range s.segs {
		switch {
		case at <= g.at:
			return at + shift
		case at < g.at+g.n || at == g.at+g.n && end:
			if end {
				return g.rawAt + g.rawN
			}
			return g.rawAt
		}
		shift += g.rawN - g.n
	}
	return at + shift
}

// restoreFacts gives each field of fs the user's own words (restore).
// The facts' field maps may be shared with the read cache, so a changed
// one is copied first.
func (s spoken) restoreFacts(fs []fact) []fact {
	if len(s.segs) == 0 {
		return fs
	}
	for i, f := range fs {
		var fields map[string]string
		for name, v := range f.fields {
			if _, dict := f.kind.Dict[name]; dict {
				continue // a dictionary's word, written in its own name
			}
			if r := s.restore(v); r != v {
				if fields == nil {
					fields = maps.Clone(f.fields)
				}
				fields[name] = r
			}
		}
		if fields != nil {
			fs[i].fields = fields
		}
	}
	return fs
}
