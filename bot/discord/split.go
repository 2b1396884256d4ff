package discord

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Split cuts text into parts of at most limit characters each, so a long
// reply can be delivered as several Discord messages. Discord counts a
// message's length in Unicode code points, so limit counts runes, not bytes
// or UTF-16 units.
//
// Split is lossless: strings.Join(Split(text, limit), "") == text. It
// prefers, in this order, to cut after a paragraph break, a line break, the
// end of a sentence, a space, and only then between two runes; it never
// cuts inside a grapheme cluster it can recognise (combining marks, emoji
// joined by ZWJ, skin-tone and variation modifiers, flag pairs, CRLF)
// unless one cluster alone is longer than limit. A boundary of the first
// four kinds is taken only in the back half of a part, so parts do not
// become needlessly short. Split returns nil for "", and treats a limit
// below 1 as 1.
func Split(text string, limit int) []string {
	if text == "" {
		return nil
	}
	if limit < 1 {
		limit = 1
	}
	var parts []string
	for {
		end := byteOffset(text, limit)
		if end == len(text) {
			return append(parts, text)
		}
		cut := cutPoint(text, end)
		parts = append(parts, text[:cut])
		text = text[cut:]
	}
}

// maxMarkLen is the longest boundary mark in bytes ("… " is 4).
const maxMarkLen = 4

// cutPoint returns the byte offset at which to end the next part of text,
// given end, the offset just after the first limit runes. The result is
// in (0, end].
func cutPoint(text string, end int) int {
	window := text[:end]
	half := len(window) / 2
	// Boundaries are only taken in the back half, so only the back half
	// (plus the longest mark's length, for marks straddling the middle)
	// needs searching.
	from := max(0, half-maxMarkLen)
	back := window[from:]

	// try accepts a candidate cut if it lies in the back half and does not
	// split a grapheme cluster.
	try := func(cut int) bool {
		return cut > half && cut <= end && safeBoundary(text, cut)
	}

	if i := strings.LastIndex(back, "\n\n"); i >= 0 && try(from+i+2) {
		return from + i + 2
	}
	if i := strings.LastIndexByte(back, '\n'); i >= 0 && try(from+i+1) {
		return from + i + 1
	}
	best := -1
	// Sentence ends: Latin marks with their following space; CJK marks end
	// a sentence on their own.
	for _, mark := range [...]string{". ", "! ", "? ", "… ", "。", "！", "？", "…"} {
		if i := strings.LastIndex(back, mark); i >= 0 && from+i+len(mark) > best && try(from+i+len(mark)) {
			best = from + i + len(mark)
		}
	}
	if best > 0 {
		return best
	}
	if i := lastSpace(back); i >= 0 {
		_, size := utf8.DecodeRuneInString(back[i:])
		if try(from + i + size) {
			return from + i + size
		}
	}
	// Rune boundary: step back out of a grapheme cluster when possible.
	for cut := end; cut > 0; {
		if safeBoundary(text, cut) {
			return cut
		}
		_, size := utf8.DecodeLastRuneInString(text[:cut])
		cut -= size
	}
	return end // one cluster longer than limit: cut it, there is no choice
}

// byteOffset is the byte offset just after the first n runes of s.
func byteOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// lastSpace is the byte index of the last Unicode space in s, or -1.
func lastSpace(s string) int {
	return strings.LastIndexFunc(s, unicode.IsSpace)
}

// Code points that glue to their neighbours (Unicode UAX #29, simplified).
const (
	zwj           = '\u200d'     // ZERO WIDTH JOINER: joins emoji sequences
	vsFirst       = '\ufe00'     // VARIATION SELECTOR-1
	vsLast        = '\ufe0f'     // VARIATION SELECTOR-16 (emoji presentation)
	vsSuppFirst   = '\U000e0100' // VARIATION SELECTOR-17
	vsSuppLast    = '\U000e01ef' // VARIATION SELECTOR-256
	skinFirst     = '\U0001f3fb' // EMOJI MODIFIER FITZPATRICK TYPE-1-2
	skinLast      = '\U0001f3ff' // EMOJI MODIFIER FITZPATRICK TYPE-6
	tagFirst      = '\U000e0020' // TAG SPACE (subdivision flags)
	tagLast       = '\U000e007f' // CANCEL TAG
	regionalFirst = '\U0001f1e6' // REGIONAL INDICATOR SYMBOL LETTER A
	regionalLast  = '\U0001f1ff' // REGIONAL INDICATOR SYMBOL LETTER Z
)

// safeBoundary reports whether cutting text at byte offset cut keeps every
// grapheme cluster whole, as far as this simplified segmentation can tell.
// Offsets 0 and len(text) are always safe.
func safeBoundary(text string, cut int) bool {
	if cut <= 0 || cut >= len(text) {
		return true
	}
	before, _ := utf8.DecodeLastRuneInString(text[:cut])
	after, _ := utf8.DecodeRuneInString(text[cut:])
	switch {
	case before == '\r' && after == '\n':
		return false
	case before == zwj || after == zwj:
		return false
	case extends(after):
		return false
	case isRegional(before) && isRegional(after):
		// Flags are pairs: a boundary is safe after an even count.
		return regionalRun(text[:cut])%2 == 0
	}
	return true
}

// extends reports whether r attaches to the rune before it.
func extends(r rune) bool {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc):
		return true
	case r >= vsFirst && r <= vsLast, r >= vsSuppFirst && r <= vsSuppLast:
		return true
	case r >= skinFirst && r <= skinLast, r >= tagFirst && r <= tagLast:
		return true
	}
	return false
}

func isRegional(r rune) bool { return r >= regionalFirst && r <= regionalLast }

// regionalRun counts the regional indicators at the end of s.
func regionalRun(s string) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !isRegional(r) {
			break
		}
		n++
		s = s[:len(s)-size]
	}
	return n
}
