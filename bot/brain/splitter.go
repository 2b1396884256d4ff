package brain

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"hearth/heart"
)

// Delimiter separates a reply's user-visible text from its JSON trailer
// (DESIGN §3 step 8); heart owns the trailer format.
const Delimiter = heart.TrailerDelimiter

// Splitter cuts a streamed reply at the first Delimiter. Text before it is
// passed to emit as it arrives; everything after it is kept as the trailer
// and never emitted, even when the delimiter arrives split across chunks.
//
// It holds back only what could still turn out to be the start of the
// delimiter, trailing whitespace (which would be trimmed if the delimiter
// follows) and an incomplete UTF-8 rune. The concatenation of everything
// emitted therefore equals the visible text Close returns, and does not
// depend on how the stream was chunked.
//
// A Splitter is single-use and not safe for concurrent use.
type Splitter struct {
	emit    func(visible string)
	pending string          // text not yet emitted (before the delimiter)
	emitted strings.Builder // everything passed to emit
	trailer strings.Builder // raw text after the delimiter
	found   bool            // the delimiter has been seen
	closed  bool
}

// NewSplitter returns a Splitter that passes visible text to emit. emit may be
// nil when only the final result is wanted.
func NewSplitter(emit func(visible string)) *Splitter {
	return &Splitter{emit: emit}
}

// Write feeds the next chunk of the model's output.
func (s *Splitter) Write(chunk string) {
	if s.closed || chunk == "" {
		return
	}
	if s.found {
		s.trailer.WriteString(chunk)
		return
	}
	buf := s.pending + chunk // no copy when nothing is held back
	if i := strings.Index(buf, Delimiter); i >= 0 {
		s.found = true
		s.trailer.WriteString(buf[i+len(Delimiter):])
		s.pending = ""
		s.send(strings.TrimRightFunc(buf[:i], unicode.IsSpace))
		return
	}
	cut := safeCut(buf)
	s.pending = buf[cut:]
	s.send(buf[:cut])
}

// Close ends the stream. It emits any held-back text that turned out to be
// ordinary text, and returns the visible text (trailing whitespace trimmed)
// and the trailer: the first balanced JSON object after the delimiter, or
// the whitespace-trimmed raw trailer when there is none, or "" when the
// stream had no delimiter.
func (s *Splitter) Close() (visible string, trailer string) {
	if !s.closed {
		s.closed = true
		if !s.found {
			s.send(strings.TrimRightFunc(s.pending, unicode.IsSpace))
			s.pending = ""
		}
	}
	return s.emitted.String(), extractTrailer(s.trailer.String())
}

// Emitted is the visible text emitted so far. After a stream broke off it is
// exactly what the user has already seen.
func (s *Splitter) Emitted() string { return s.emitted.String() }

// Found reports whether the delimiter has been seen, i.e. the visible text is
// complete.
func (s *Splitter) Found() bool { return s.found }

func (s *Splitter) send(text string) {
	if text == "" {
		return
	}
	s.emitted.WriteString(text)
	if s.emit != nil {
		s.emit(text)
	}
}

// safeCut returns how many leading bytes of buf can be emitted now: it holds
// back the longest suffix that is a prefix of Delimiter, then an incomplete
// trailing rune, then trailing whitespace.
func safeCut(buf string) int {
	cut := len(buf) - delimiterPrefixLen(buf)
	// Never split a rune: back off to the start of an incomplete last rune.
	for i := cut - 1; i >= 0 && i >= cut-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRuneInString(buf[i:cut]) {
				cut = i
			}
			break
		}
	}
	return len(strings.TrimRightFunc(buf[:cut], unicode.IsSpace))
}

// delimiterPrefixLen is the length of the longest suffix of buf that is a
// proper prefix of Delimiter.
func delimiterPrefixLen(buf string) int {
	n := min(len(buf), len(Delimiter)-1)
	for ; n > 0; n-- {
		if strings.HasSuffix(buf, Delimiter[:n]) {
			return n
		}
	}
	return 0
}

// extractTrailer trims raw and returns its first balanced JSON object, so a
// model that wrote garbage (a code fence, a remark) after the object still
// yields parseable JSON. Without a balanced object it returns the trimmed raw
// text and lets the caller's JSON parser reject it.
func extractTrailer(raw string) string {
	raw = strings.TrimSpace(raw)
	if obj, ok := heart.FirstJSONObject(raw); ok {
		return obj
	}
	return raw
}
