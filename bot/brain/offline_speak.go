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
	words   map[string]string
	longest int // bytes of the longest one-word key: a longer word is looked up no more
}

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
		t.words[key] = words
		if len(fs) == 1 {
			t.longest = max(t.longest, len(key))
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

// speakWord is one word of a text: its byte span.
type speakWord struct{ start, end int }

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
	var words []speakWord
	for i := 0; i < len(raw); {
		if !isSpeakByte(raw[i]) {
			i++
			continue
		}
		j := i
		for j < len(raw) && isSpeakByte(raw[j]) {
			j++
		}
		words = append(words, speakWord{i, j})
		i = j
	}
	var b strings.Builder
	last := 0 // raw is written out up to here
	var key [64]byte
	for w := 0; w < len(words); w++ {
		for n := min(speakMaxWords, len(words)-w); n >= 1; n-- {
			start, end := words[w].start, words[w+n-1].end
			if n > 1 && !spacedOnly(raw, words[w:w+n]) || n == 1 && end-start > k.speak.longest || end-start > len(key) {
				continue
			}
			kb := key[:0]
			for i := start; i < end; i++ {
				kb = append(kb, asciiLower(raw[i]))
			}
			words := k.speak.words[string(kb)]
			if words == "" || !k.speakable(raw, start, end) {
				continue
			}
			b.WriteString(raw[last:start])
			out.segs = append(out.segs, speakSeg{at: b.Len(), n: len(words), rawAt: start, rawN: end - start})
			b.WriteString(words)
			last = end
			w += n - 1
			break
		}
	}
	if len(out.segs) == 0 {
		return out
	}
	b.WriteString(raw[last:])
	out.text = b.String()
	return out
}

// spacedOnly reports whether the words ws follow each other with one
// space between each two: "ur so", not "ur. So".
func spacedOnly(raw string, ws []speakWord) bool {
	for i := 1; i < len(ws); i++ {
		if ws[i].start != ws[i-1].end+1 || raw[ws[i-1].end] != ' ' {
			return false
		}
	}
	return true
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
