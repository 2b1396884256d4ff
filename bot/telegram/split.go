package telegram

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxMessageUTF16 is Telegram's limit on one text message, counted in UTF-16
// code units after entity parsing (Bot API sendMessage: "1-4096 characters";
// DESIGN §3 step 9: "Telegram 4096 UTF-16 units").
const MaxMessageUTF16 = 4096

// minFillDivisor keeps split parts from being needlessly short: a paragraph,
// line, sentence or word break is used only if it falls in the second half of
// the window (chosen by us; a break at the very start would produce a tiny
// message followed by a full one).
const minFillDivisor = 2

// Split cuts text into parts of at most limitUTF16 UTF-16 code units each, so
// that strings.Join(parts, "") == text. Separators stay at the end of the part
// they close, so nothing is lost or duplicated.
//
// The cut for each part is the latest of these that fits, in order of
// preference, looking only at the second half of the window:
//
//  1. after a paragraph break ("\n\n"),
//  2. after a line break ("\n"),
//  3. after a sentence end: "。", "！" or "？" (CJK needs no space), or ".",
//     "!" or "?" followed by white space (the white space stays with the part),
//  4. after white space (a word boundary),
//  5. at a rune boundary that does not split a grapheme cluster, as far as a
//     cheap rule can tell: never before a zero width joiner, variation
//     selector, emoji skin tone modifier, combining mark, keycap or tag
//     character, never after a zero width joiner, and never inside a pair of
//     regional indicators (a flag),
//  6. at the last rune boundary that fits (a cluster longer than the window).
//
// Surrogate pairs are never split: cuts are always at rune boundaries and a
// rune above U+FFFF counts as two units. Invalid UTF-8 bytes count as one unit
// each (Telegram replaces them with U+FFFD). Empty text gives no parts. A
// limit below 1 returns text whole; a limit of 1 cannot hold a rune above
// U+FFFF, so such a rune becomes a part of its own.
func Split(text string, limitUTF16 int) []string {
	if text == "" {
		return nil
	}
	if limitUTF16 < 1 || utf16Len(text) <= limitUTF16 {
		return []string{text}
	}
	var parts []string
	for text != "" {
		n := cutPoint(text, limitUTF16)
		parts = append(parts, text[:n])
		text = text[n:]
	}
	return parts
}

// utf16Len counts the UTF-16 code units Telegram sees for s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += runeUnits(r)
	}
	return n
}

// runeUnits is the number of UTF-16 code units of r (2 for a surrogate pair).
func runeUnits(r rune) int {
	if r > 0xFFFF {
		return 2
	}
	return 1
}

// cutPoint returns the byte length of the next part of text, always > 0.
func cutPoint(text string, limit int) int {
	// window: the longest rune-aligned prefix within limit.
	window, units := 0, 0
	for window < len(text) {
		r, size := utf8.DecodeRuneInString(text[window:])
		if units+runeUnits(r) > limit {
			break
		}
		units += runeUnits(r)
		window += size
	}
	if window == len(text) {
		return window
	}
	if window == 0 { // a single rune wider than the limit
		_, size := utf8.DecodeRuneInString(text)
		return size
	}
	head := text[:window]
	floor := window / minFillDivisor
	if i := strings.LastIndex(head, "\n\n"); i >= 0 && i+2 > floor {
		return i + 2
	}
	if i := strings.LastIndexByte(head, '\n'); i >= 0 && i+1 > floor {
		return i + 1
	}
	if i := lastSentenceEnd(head); i > floor {
		return i
	}
	if i := lastSpaceEnd(head); i > floor {
		return i
	}
	for i := window; i > 0; {
		if clusterBoundary(text, i) {
			return i
		}
		_, size := utf8.DecodeLastRuneInString(text[:i])
		i -= size
	}
	return window
}

// lastSentenceEnd returns the byte offset just after the last sentence end in
// s (see Split rule 3), or -1.
func lastSentenceEnd(s string) int {
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		switch r {
		case '。', '！', '？':
			return i
		}
		if unicode.IsSpace(r) && i-size > 0 {
			p, _ := utf8.DecodeLastRuneInString(s[:i-size])
			if p == '.' || p == '!' || p == '?' {
				return i
			}
		}
		i -= size
	}
	return -1
}

// lastSpaceEnd returns the byte offset just after the last white space rune in
// s, or -1.
func lastSpaceEnd(s string) int {
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if unicode.IsSpace(r) {
			return i
		}
		i -= size
	}
	return -1
}

// Grapheme extenders that must stay with the rune before them.
const (
	zeroWidthJoiner  = '\u200D'
	combiningKeycap  = '\u20E3'
	regionalFirst    = '\U0001F1E6'
	regionalLast     = '\U0001F1FF'
	skinToneFirst    = '\U0001F3FB'
	skinToneLast     = '\U0001F3FF'
	tagFirst         = '\U000E0020'
	tagLast          = '\U000E007F'
	varSelectorFirst = '\uFE00'
	varSelectorLast  = '\uFE0F'
	varSelectorSupA  = '\U000E0100'
	varSelectorSupZ  = '\U000E01EF'
)

// clusterBoundary reports whether cutting text at byte i (0 < i < len(text))
// keeps grapheme clusters whole, by the rule of Split step 5.
func clusterBoundary(text string, i int) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	after, _ := utf8.DecodeRuneInString(text[i:])
	if before == zeroWidthJoiner || extends(after) {
		return false
	}
	if isRegional(before) && isRegional(after) {
		// Flags are pairs: cut between them only after an even run.
		n := 0
		for j := i; j > 0; {
			r, size := utf8.DecodeLastRuneInString(text[:j])
			if !isRegional(r) {
				break
			}
			n++
			j -= size
		}
		return n%2 == 0
	}
	if before == '\r' && after == '\n' {
		return false
	}
	return true
}

// extends reports whether r joins the grapheme cluster before it.
func extends(r rune) bool {
	switch {
	case r == zeroWidthJoiner, r == combiningKeycap:
		return true
	case r >= varSelectorFirst && r <= varSelectorLast:
		return true
	case r >= varSelectorSupA && r <= varSelectorSupZ:
		return true
	case r >= skinToneFirst && r <= skinToneLast:
		return true
	case r >= tagFirst && r <= tagLast:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me)
}

// isRegional reports whether r is a regional indicator (half of a flag).
func isRegional(r rune) bool { return r >= regionalFirst && r <= regionalLast }
