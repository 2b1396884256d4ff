package media_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"hearth/bot"
	"hearth/bot/media"
	"hearth/bot/media/mediatest"
)

// downloadSize is issue 14's benchmark file: "a 20 MB download does not
// raise RSS by more than its size".
const downloadSize = 20 << 20

// httpFetcher downloads from a platform-like HTTP server, as transports do.
type httpFetcher struct{ url string }

func (f httpFetcher) FetchMedia(ctx context.Context, _ bot.MediaRef) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// peakRSS reads the process's peak resident set (VmHWM) in bytes.
func peakRSS(b *testing.B) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skip("no /proc: ", err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	b.Skip("no VmHWM")
	return 0
}

// BenchmarkTwentyMegabyteVoiceNoteRSS downloads a 20 MB voice note from a
// platform server on 127.0.0.1 and uploads it to the fake audio server (both
// in this process, so their buffers count too), and reports how far the
// peak resident set rose above where it started. It fails above the file's
// size. The peak is reset first (/proc/self/clear_refs, Linux).
func BenchmarkTwentyMegabyteVoiceNoteRSS(b *testing.B) {
	platform := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(downloadSize))
		_, _ = io.Copy(w, io.LimitReader(zeros{}, downloadSize))
	}))
	b.Cleanup(platform.Close)
	audio := mediatest.NewServer(b)
	s, err := media.New(media.Config{BaseURL: audio.URL(), STTModel: "whisper-1", TempDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	f := httpFetcher{url: platform.URL + "/voice.ogg"}
	var worst int64
	for b.Loop() {
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			b.Skip("cannot reset the peak RSS: ", err)
		}
		before := peakRSS(b)
		if _, err := s.Transcribe(context.Background(), bot.MediaRef{Kind: bot.ModalityVoice, ID: "v", Seconds: 60}, f, "en"); err != nil {
			b.Fatal(err)
		}
		worst = max(worst, peakRSS(b)-before)
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-rss-rise-MiB")
	b.SetBytes(downloadSize)
	if worst > downloadSize {
		b.Fatalf("peak RSS rose %d bytes for a %d-byte download", worst, downloadSize)
	}
}
