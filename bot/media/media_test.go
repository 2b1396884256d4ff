package media_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/bottest"
	"hearth/bot/media"
	"hearth/bot/media/mediatest"
)

// fetcher serves fixed bytes (or a generated stream) as a platform would.
type fetcher struct {
	mu    sync.Mutex
	data  []byte
	open  func() io.Reader // overrides data
	err   error
	opens int
}

func (f *fetcher) FetchMedia(context.Context, bot.MediaRef) (io.ReadCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opens++
	if f.err != nil {
		return nil, f.err
	}
	if f.open != nil {
		return io.NopCloser(f.open()), nil
	}
	return io.NopCloser(bytes.NewReader(f.data)), nil
}

func (f *fetcher) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.opens
}

func newClock() *bottest.Clock { return bottest.NewClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)) }
func voiceRef(secs float64) bot.MediaRef {
	return bot.MediaRef{Kind: bot.ModalityVoice, ID: "F1", Seconds: secs}
}

// logCounter counts log lines at WARN and above.
type logCounter struct {
	mu    sync.Mutex
	lines []string
}

func (l *logCounter) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		l.mu.Lock()
		l.lines = append(l.lines, r.Message)
		l.mu.Unlock()
	}
	return nil
}
func (l *logCounter) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCounter) WithGroup(string) slog.Handler      { return l }
func (l *logCounter) count(sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n
}

const testKey = "sk-audio-secret"

func newSenses(t *testing.T, srv *mediatest.Server, mut ...func(*media.Config)) *media.Senses {
	t.Helper()
	cfg := media.Config{BaseURL: srv.URL(), APIKey: testKey, STTModel: "whisper-1", TTSModel: "tts-1", TempDir: t.TempDir(),
		RetryWait: time.Millisecond}
	for _, m := range mut {
		m(&cfg)
	}
	s, err := media.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Issue 14 item 1: the bytes go out unchanged, with the persona's language
// as a hint and a known length; the transcript and its seconds come back.
func TestTranscribeSendsTheVoiceNoteUnchanged(t *testing.T) {
	srv := mediatest.NewServer(t)
	srv.Transcript = " I had a long day at work. "
	s := newSenses(t, srv)
	ogg := mediatest.OggOpus(7 * time.Second)
	tr, err := s.Transcribe(context.Background(), voiceRef(0), &fetcher{data: ogg}, "ja")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Text != "I had a long day at work." || tr.Seconds != 7 {
		t.Fatalf("transcript = %+v, want the text and 7 s read from the Ogg pages", tr)
	}
	calls := srv.Calls("transcriptions")
	if len(calls) != 1 {
		t.Fatalf("%d calls", len(calls))
	}
	c := calls[0]
	if c.FileSHA256 != sha256.Sum256(ogg) || c.FileSize != int64(len(ogg)) {
		t.Fatal("uploaded bytes differ from the voice note")
	}
	if c.Model != "whisper-1" || c.Language != "ja" || c.Filename != "voice.ogg" || c.FileType != "audio/ogg" {
		t.Fatalf("call = %+v", c)
	}
	if c.ContentLength <= int64(len(ogg)) || c.Auth != "Bearer "+testKey {
		t.Fatalf("upload length %d (want known, over the file's), auth %q", c.ContentLength, c.Auth)
	}
}

// Too large or too long is refused before downloading when the platform
// said so, and before uploading when only the bytes tell.
func TestTranscribeLimits(t *testing.T) {
	ctx := context.Background()
	srv := mediatest.NewServer(t)
	s := newSenses(t, srv)
	f := &fetcher{data: mediatest.OggOpus(time.Second)}
	big := bot.MediaRef{Kind: bot.ModalityVoice, ID: "F", Size: bot.MaxVoiceBytes + 1}
	if _, err := s.Transcribe(ctx, big, f, "en"); !errors.Is(err, bot.ErrMediaTooLarge) {
		t.Fatalf("reported size over the limit: %v", err)
	}
	if _, err := s.Transcribe(ctx, voiceRef(bot.MaxVoiceDuration.Seconds()+1), f, "en"); !errors.Is(err, bot.ErrMediaTooLong) {
		t.Fatalf("reported length over the limit: %v", err)
	}
	if f.count() != 0 {
		t.Fatalf("%d downloads for media the platform already said was too big", f.count())
	}
	huge := &fetcher{open: func() io.Reader { return io.LimitReader(zeros{}, bot.MaxVoiceBytes+100) }}
	if _, err := s.Transcribe(ctx, voiceRef(0), huge, "en"); !errors.Is(err, bot.ErrMediaTooLarge) {
		t.Fatalf("stream over the limit: %v", err)
	}
	long := &fetcher{data: mediatest.OggOpus(bot.MaxVoiceDuration + time.Minute)}
	if _, err := s.Transcribe(ctx, voiceRef(0), long, "en"); !errors.Is(err, bot.ErrMediaTooLong) {
		t.Fatalf("Ogg longer than the limit: %v", err)
	}
	if n := len(srv.Calls("")); n != 0 {
		t.Fatalf("%d uploads of refused media", n)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Issue 14 item 4: a 404 is logged once and the endpoint left alone for an
// hour; then it is asked again.
func TestEndpoint404IsUnavailableForAnHour(t *testing.T) {
	ctx := context.Background()
	srv := mediatest.NewServer(t)
	clk, logs := newClock(), &logCounter{}
	s := newSenses(t, srv, func(c *media.Config) { c.Now = clk.Now; c.Logger = slog.New(logs) })
	f := &fetcher{data: mediatest.OggOpus(time.Second)}
	srv.Fail("transcriptions", http.StatusNotFound, "")
	for range 3 {
		if _, err := s.Transcribe(ctx, voiceRef(1), f, "en"); !errors.Is(err, bot.ErrSenseOff) {
			t.Fatalf("after a 404: %v, want ErrSenseOff", err)
		}
	}
	if n := len(srv.Calls("transcriptions")); n != 1 {
		t.Fatalf("%d calls within the hour, want 1", n)
	}
	if n := logs.count("404"); n != 1 {
		t.Fatalf("404 logged %d times, want once", n)
	}
	clk.Add(time.Hour + time.Second)
	if _, err := s.Transcribe(ctx, voiceRef(1), f, "en"); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}

// A 5xx is retried once; twice is an error, with the key never in it.
func TestTranscribeRetriesOnceAndRedactsTheKey(t *testing.T) {
	ctx := context.Background()
	srv := mediatest.NewServer(t)
	s := newSenses(t, srv)
	f := &fetcher{data: mediatest.OggOpus(time.Second)}
	srv.Fail("transcriptions", http.StatusServiceUnavailable, "")
	if _, err := s.Transcribe(ctx, voiceRef(1), f, "en"); err != nil {
		t.Fatalf("one 503: %v", err)
	}
	srv.Fail("transcriptions", http.StatusBadGateway, "")
	srv.Fail("transcriptions", http.StatusInternalServerError, `{"error":"bad key `+testKey+`"}`)
	_, err := s.Transcribe(ctx, voiceRef(1), f, "en")
	if err == nil || strings.Contains(err.Error(), testKey) {
		t.Fatalf("two 5xx: %v (must fail, without the key)", err)
	}
	if n := len(srv.Calls("transcriptions")); n != 4 {
		t.Fatalf("%d calls, want 4", n)
	}
}

func TestSensesSwitchedOff(t *testing.T) {
	srv := mediatest.NewServer(t)
	s := newSenses(t, srv, func(c *media.Config) { c.STTModel, c.TTSModel = "off", "" })
	if _, err := s.Transcribe(context.Background(), voiceRef(1), &fetcher{}, "en"); !errors.Is(err, bot.ErrSenseOff) {
		t.Fatalf("hearing off: %v", err)
	}
	if _, _, err := s.Speak(context.Background(), "hi", "alloy"); !errors.Is(err, bot.ErrSenseOff) {
		t.Fatalf("speech off: %v", err)
	}
	if len(srv.Calls("")) != 0 {
		t.Fatal("a switched-off sense called the server")
	}
}

// Issue 14 item 2: speech is OGG/Opus with its length and a waveform; only
// the words are spoken.
func TestSpeakOpusWithoutMarkup(t *testing.T) {
	srv := mediatest.NewServer(t)
	srv.SpeechLength = 3 * time.Second
	s := newSenses(t, srv)
	v, n, err := s.Speak(context.Background(), "**Good night** 🌙, see [this](https://x.example/t) `ok`", "nova")
	if err != nil {
		t.Fatal(err)
	}
	c := srv.Calls("speech")[0]
	if c.Input != "Good night , see this ok" || c.Voice != "nova" || c.Format != "opus" || c.Model != "tts-1" {
		t.Fatalf("speech call = %+v", c)
	}
	if n != len([]rune(c.Input)) {
		t.Fatalf("characters = %d, want %d", n, len([]rune(c.Input)))
	}
	if v.MIME != "audio/ogg" || v.Duration < 2900*time.Millisecond || v.Duration > 3100*time.Millisecond {
		t.Fatalf("voice = %s %v", v.MIME, v.Duration)
	}
	if len(v.Waveform) == 0 || len(v.Waveform) > 256 || bytes.Count(v.Waveform, []byte{v.Waveform[0]}) == len(v.Waveform) {
		t.Fatalf("waveform = %v, want up to 256 varied samples", v.Waveform)
	}
}

// A server that cannot make Opus gets asked for MP3, then directly.
func TestSpeakFallsBackToMP3(t *testing.T) {
	srv := mediatest.NewServer(t)
	srv.RefuseOpus = true
	s := newSenses(t, srv)
	for range 2 {
		v, _, err := s.Speak(context.Background(), "hello", "alloy")
		if err != nil || v.MIME != "audio/mpeg" || len(v.Data) == 0 {
			t.Fatalf("voice = %s %d bytes, %v", v.MIME, len(v.Data), err)
		}
	}
	var formats []string
	for _, c := range srv.Calls("speech") {
		formats = append(formats, c.Format)
	}
	if strings.Join(formats, ",") != "opus,mp3,mp3" {
		t.Fatalf("formats asked = %v", formats)
	}
}

func TestSpeakTooLongAndEmpty(t *testing.T) {
	srv := mediatest.NewServer(t)
	s := newSenses(t, srv)
	if _, _, err := s.Speak(context.Background(), strings.Repeat("a", bot.MaxSpeechRunes+1), "alloy"); !errors.Is(err, bot.ErrMediaTooLong) {
		t.Fatalf("too long: %v", err)
	}
	if _, _, err := s.Speak(context.Background(), "🌙 ✨", "alloy"); err == nil {
		t.Fatal("emoji only: spoke nothing without an error")
	}
	if len(srv.Calls("")) != 0 {
		t.Fatal("called the server for nothing speakable")
	}
}

func TestSpeakable(t *testing.T) {
	for in, want := range map[string]string{
		"# Title\n- one\n- two":                "Title one two",
		"visit www.example.com now":            "visit now",
		"```go\nx := 1\n```\nDone.":            "Done.",
		"晚安 🌙，明天见！":                            "晚安 ，明天见！",
		"> quoted _words_ and ~~struck~~ text": "quoted words and struck text",
		"it's 3 * 4":                           "it's 3 4",
	} {
		if got := media.Speakable(in); got != want {
			t.Errorf("Speakable(%q) = %q, want %q", in, got, want)
		}
	}
}

// Issue 14 item 3: a photo becomes a data: URL of its full bytes.
func TestPictureIsADataURL(t *testing.T) {
	ctx := context.Background()
	s := newSenses(t, mediatest.NewServer(t))
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 300)...)
	url, err := s.Picture(ctx, bot.MediaRef{Kind: bot.ModalityPhoto, ID: "P"}, &fetcher{data: png})
	if err != nil || url != "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png) {
		t.Fatalf("url = %.40q…, %v", url, err)
	}
	if _, err := s.Picture(ctx, bot.MediaRef{ID: "P", Size: bot.MaxPhotoBytes + 1}, &fetcher{data: png}); !errors.Is(err, bot.ErrMediaTooLarge) {
		t.Fatalf("too large by size: %v", err)
	}
	big := &fetcher{open: func() io.Reader {
		return io.MultiReader(bytes.NewReader(png), io.LimitReader(zeros{}, bot.MaxPhotoBytes))
	}}
	if _, err := s.Picture(ctx, bot.MediaRef{ID: "P"}, big); !errors.Is(err, bot.ErrMediaTooLarge) {
		t.Fatalf("too large by bytes: %v", err)
	}
	if _, err := s.Picture(ctx, bot.MediaRef{ID: "P"}, &fetcher{data: []byte("<html>not a photo</html>")}); err == nil {
		t.Fatal("HTML accepted as a photo")
	}
}

// A 20 MB voice note streams: downloading and uploading it allocates a
// small fraction of its size (DESIGN §12; the RSS benchmark measures the
// same from outside), and nothing stays on disk.
func TestTwentyMegabyteVoiceNoteStreams(t *testing.T) {
	srv := mediatest.NewServer(t)
	dir := t.TempDir()
	s := newSenses(t, srv, func(c *media.Config) { c.TempDir = dir })
	const size = 20 << 20
	f := &fetcher{open: func() io.Reader { return io.LimitReader(zeros{}, size) }}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := s.Transcribe(context.Background(), voiceRef(60), f, "en"); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/4 {
		t.Fatalf("allocated %d bytes for a %d-byte voice note, want it streamed", alloc, size)
	}
	if c := srv.Calls("transcriptions"); len(c) != 1 || c[0].FileSize != size {
		t.Fatalf("calls = %+v", c)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("temp dir after = %v, %v", entries, err)
	}
}

// A query in HEARTH_AUDIO_BASE_URL ("?api-version=", "?token=") stays a
// query: the endpoint's path goes before it. Its values, and a userinfo
// password, never show in an error, even one echoing them back.
func TestBaseURLQueryStaysAQueryAndSecret(t *testing.T) {
	srv := mediatest.NewServer(t)
	base := strings.Replace(srv.URL(), "http://", "http://bob:PWSECRET999@", 1) + "?token=AUDQSECRET"
	s := newSenses(t, srv, func(c *media.Config) { c.BaseURL = base })
	if _, _, err := s.Speak(context.Background(), "hi", "nova"); err != nil {
		t.Fatalf("speech through a base URL with a query: %v", err)
	}
	if c := srv.Calls("speech"); len(c) != 1 || c[0].Path != "/v1/audio/speech" {
		t.Fatalf("speech calls = %+v, want one to /v1/audio/speech", c)
	}
	srv.Fail("speech", http.StatusUnauthorized, `{"error":"bad token=AUDQSECRET for bob:PWSECRET999@"}`)
	_, _, err := s.Speak(context.Background(), "hi", "nova")
	if err == nil || strings.Contains(err.Error(), "AUDQSECRET") || strings.Contains(err.Error(), "PWSECRET999") {
		t.Fatalf("a refused call: %v (must fail, without the URL's secrets)", err)
	}
}
