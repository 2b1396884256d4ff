package media

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"hearth/bot"
)

// Speech formats: Opus in Ogg is what Telegram and Discord show as a voice
// bubble; some compatible servers cannot make it, and MP3 is what sendVoice
// accepts too.
const (
	formatOpus = "opus"
	formatMP3  = "mp3"
	mimeOgg    = "audio/ogg"
	mimeMP3    = "audio/mpeg"
)

// Speak says text in voice through /audio/speech as OGG/Opus. When the
// server refuses the request (a 4xx other than 401, 404 and 429) it asks
// once for MP3 instead; if that works, it asks for MP3 from then on. Markup, links and emoji are
// not spoken (Speakable); a text longer than bot.MaxSpeechRunes is refused
// with ErrMediaTooLong. It returns the characters spoken.
func (s *Senses) Speak(ctx context.Context, text, voice string) (bot.Voice, int, error) {
	if err := s.ready(&s.tts); err != nil {
		return bot.Voice{}, 0, fmt.Errorf("speak: %w", err)
	}
	words := Speakable(text)
	n := utf8.RuneCountInString(words)
	switch {
	case n == 0:
		return bot.Voice{}, 0, errors.New("speak: nothing speakable")
	case n > bot.MaxSpeechRunes:
		return bot.Voice{}, 0, fmt.Errorf("speak: %d characters: %w", n, bot.ErrMediaTooLong)
	}
	ctx, cancel := context.WithTimeout(ctx, SpeakTimeout)
	defer cancel()
	s.mu.Lock()
	format := formatOpus
	if s.opusRefuse {
		format = formatMP3
	}
	s.mu.Unlock()
	data, err := s.speech(ctx, words, voice, format)
	var se *statusError
	if format == formatOpus && errors.As(err, &se) && se.status/100 == 4 && se.status != http.StatusNotFound &&
		se.status != http.StatusTooManyRequests && se.status != http.StatusUnauthorized {
		format = formatMP3
		if data, err = s.speech(ctx, words, voice, format); err == nil {
			s.log.Warn("speech server refused Opus; asking for MP3 from now on", "refusal", se)
			s.mu.Lock()
			s.opusRefuse = true
			s.mu.Unlock()
		}
	}
	if err != nil {
		return bot.Voice{}, 0, fmt.Errorf("speak: %w", err)
	}
	v := bot.Voice{MIME: mimeMP3, Data: data}
	if d, wave, ok := oggVoice(data); ok {
		v.MIME, v.Duration, v.Waveform = mimeOgg, d, wave
	}
	return v, n, nil
}

// speech runs one /audio/speech request and reads the audio.
func (s *Senses) speech(ctx context.Context, words, voice, format string) ([]byte, error) {
	body, err := json.Marshal(map[string]string{"model": s.tts.model, "input": words, "voice": voice, "response_format": format})
	if err != nil {
		return nil, err
	}
	resp, err := s.call(ctx, &s.tts, func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base.Endpoint(s.tts.path), bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
		return req, err
	})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxSpeechBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("read audio: %w", err)
	case len(data) > maxSpeechBytes:
		return nil, fmt.Errorf("audio over %d bytes: %w", maxSpeechBytes, bot.ErrMediaTooLarge)
	case len(data) == 0:
		return nil, errors.New("empty audio")
	}
	return data, nil
}

// Markup a model may write that must not be read aloud.
var (
	mdLink   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)      // [words](url): the words
	bareURL  = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+`) // links are never spoken
	codeSpan = regexp.MustCompile("(?s)```.*?```")                // code blocks are not speech
	mdMarks  = regexp.MustCompile(`(?m)^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+)|[*_~` + "`" + `]+`)
)

// Speakable is text as it should be spoken: no code blocks, links (their
// words stay), markdown marks, emoji or other pictographs, and white space
// collapsed. The reply's trailer never gets here (the splitter removed it).
func Speakable(text string) string {
	text = codeSpan.ReplaceAllString(text, " ")
	text = mdLink.ReplaceAllString(text, "$1")
	text = bareURL.ReplaceAllString(text, " ")
	text = mdMarks.ReplaceAllString(text, "")
	text = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) || r == '\u200d' || r == '\ufe0f' {
			return -1 // emoji, their modifiers and joiners
		}
		return r
	}, text)
	return strings.Join(strings.Fields(text), " ")
}
