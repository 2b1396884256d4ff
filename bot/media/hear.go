package media

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"strings"

	"hearth/bot"
)

// Transcribe fetches a voice note and sends its bytes unchanged to
// /audio/transcriptions with lang as a hint (Whisper-compatible servers
// take Telegram's OGG/Opus as it is). A recording longer than
// bot.MaxVoiceDuration or larger than bot.MaxVoiceBytes is refused before it
// is uploaded; the platform's numbers are checked before downloading, the
// container's length after.
func (s *Senses) Transcribe(ctx context.Context, ref bot.MediaRef, fetch bot.MediaFetcher, lang string) (bot.Transcript, error) {
	if err := s.ready(&s.stt); err != nil {
		return bot.Transcript{}, fmt.Errorf("transcribe: %w", err)
	}
	if ref.Size > bot.MaxVoiceBytes {
		return bot.Transcript{}, fmt.Errorf("transcribe: %d bytes: %w", ref.Size, bot.ErrMediaTooLarge)
	}
	if ref.Seconds > bot.MaxVoiceDuration.Seconds() {
		return bot.Transcript{}, fmt.Errorf("transcribe: %.0f s: %w", ref.Seconds, bot.ErrMediaTooLong)
	}
	ctx, cancel := context.WithTimeout(ctx, TranscribeTimeout)
	defer cancel()
	f, size, err := s.spool(ctx, ref, fetch, bot.MaxVoiceBytes)
	if err != nil {
		return bot.Transcript{}, fmt.Errorf("transcribe: %w", err)
	}
	defer f.Close()
	secs := ref.Seconds
	if secs <= 0 {
		if d, ok := oggDuration(f, size); ok {
			secs = d.Seconds()
		} else {
			secs = float64(size) / bytesPerSecond
		}
	}
	if secs > bot.MaxVoiceDuration.Seconds() {
		return bot.Transcript{}, fmt.Errorf("transcribe: %.0f s: %w", secs, bot.ErrMediaTooLong)
	}
	resp, err := s.call(ctx, &s.stt, func() (*http.Request, error) {
		return s.transcriptionRequest(ctx, f, size, ref, lang)
	})
	if err != nil {
		return bot.Transcript{}, fmt.Errorf("transcribe: %w", err)
	}
	defer resp.Body.Close()
	var answer struct {
		Text string `json:"text"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswerBytes)).Decode(&answer); err != nil {
		return bot.Transcript{}, fmt.Errorf("transcribe: answer: %w", err)
	}
	return bot.Transcript{Text: strings.TrimSpace(answer.Text), Seconds: int(math.Ceil(secs))}, nil
}

// transcriptionRequest builds the multipart upload with a known length: the
// form fields and file header, the spooled file, the closing boundary.
func (s *Senses) transcriptionRequest(ctx context.Context, f *os.File, size int64, ref bot.MediaRef, lang string) (*http.Request, error) {
	var head bytes.Buffer
	w := multipart.NewWriter(&head)
	fields := [][2]string{{"model", s.stt.model}, {"response_format", "json"}}
	if lang != "" {
		fields = append(fields, [2]string{"language", lang}) // ISO-639-1, as hearth's languages are
	}
	for _, kv := range fields {
		if err := w.WriteField(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	name, mime := uploadName(ref)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, name))
	h.Set("Content-Type", mime)
	if _, err := w.CreatePart(h); err != nil {
		return nil, err
	}
	tail := "\r\n--" + w.Boundary() + "--\r\n"
	body := io.MultiReader(bytes.NewReader(head.Bytes()), io.NewSectionReader(f, 0, size), strings.NewReader(tail))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base.Endpoint(s.stt.path), body)
	if err != nil {
		return nil, err
	}
	req.ContentLength = int64(head.Len()) + size + int64(len(tail))
	req.Header.Set("Content-Type", w.FormDataContentType())
	return req, nil
}

// uploadName is the file name and type of an upload: servers pick the
// decoder by the name's extension, so one is always there.
func uploadName(ref bot.MediaRef) (name, mime string) {
	name, mime = ref.Name, ref.MIME
	if mime == "" {
		mime = "audio/ogg"
	}
	if name == "" || !strings.Contains(name, ".") {
		ext := map[string]string{"audio/mpeg": ".mp3", "audio/mp4": ".m4a", "video/mp4": ".mp4", "audio/wav": ".wav",
			"audio/x-wav": ".wav", "audio/webm": ".webm", "audio/flac": ".flac"}[strings.ToLower(mime)]
		if ext == "" {
			ext = ".ogg"
		}
		name = "voice" + ext
	}
	return strings.NewReplacer(`"`, "", "\r", "", "\n", "").Replace(name), mime
}
