package media_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/bottest"
	"hearth/bot/media"
	"hearth/bot/media/mediatest"
)

// Health, for /healthz: a key refused or a server gone, twice in a row,
// fails it in words that say which (never the key); one blip does not; a
// call that goes through clears it; a 404 fails it while the endpoint
// rests. A failure about the input (a 400) is the server working.
func TestHealthReportsFailingAudioEndpoints(t *testing.T) {
	ctx := context.Background()
	srv := mediatest.NewServer(t)
	clock := newClock()
	s := newSenses(t, srv, func(c *media.Config) { c.Now = clock.Now })
	transcribe := func() { s.Transcribe(ctx, voiceRef(2), &fetcher{data: mediatest.OggOpus(2 * time.Second)}, "en") }
	healthy := func(when string) {
		t.Helper()
		if err := s.Health(ctx); err != nil {
			t.Fatalf("Health %s = %v, want ok", when, err)
		}
	}

	healthy("before any call")
	srv.Fail("transcriptions", http.StatusUnauthorized, `{"error":{"message":"Incorrect API key provided: sk-audio-secret"}}`)
	transcribe()
	healthy("after one refusal")
	srv.Fail("transcriptions", http.StatusUnauthorized, "")
	transcribe()
	err := s.Health(ctx)
	if err == nil || !strings.Contains(err.Error(), "/audio/transcriptions: the server rejects the API key (HTTP 401) since") ||
		strings.Contains(err.Error(), testKey) {
		t.Fatalf("Health with the key refused twice = %v", err)
	}
	clock.Add(media.ProbeFirst) // fail-fast lets the trial call through
	transcribe()
	healthy("after a transcription went through")

	srv.Fail("speech", http.StatusBadRequest, `{"error":{"message":"input too long"}}`)
	srv.Fail("speech", http.StatusBadRequest, `{"error":{"message":"input too long"}}`)
	s.Speak(ctx, "hello there", "alloy")
	s.Speak(ctx, "hello there", "alloy")
	healthy("after the server refused an input")

	srv.Fail("speech", http.StatusNotFound, "")
	s.Speak(ctx, "hello there", "alloy")
	if err := s.Health(ctx); err == nil || !strings.Contains(err.Error(), `/audio/speech: no such endpoint or model "tts-1" (HTTP 404)`) {
		t.Fatalf("Health after a 404 = %v", err)
	}
	clock.Add(time.Hour)
	healthy("once the endpoint is asked again")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	down := newSenses(t, srv, func(c *media.Config) { c.BaseURL, c.Now = gone, clock.Now })
	for range 2 {
		down.Speak(ctx, "hello there", "alloy")
	}
	if err := down.Health(ctx); err == nil || !strings.Contains(err.Error(), "/audio/speech: unreachable since") {
		t.Fatalf("Health with the server gone = %v", err)
	}
}

// The audio server goes down and comes back while nobody sends a voice
// note: Run's probe finds it back, so /healthz's "audio" turns ok on its
// own (before, it stayed failing until the next voice note went through).
// Down and back are logged once each, without the key; the probe carries
// the key as a call does; Run stops with its context.
func TestHealthRecoversWhenTheServerComesBack(t *testing.T) {
	ctx := context.Background()
	srv := mediatest.NewServer(t)
	var logs bottest.Buffer
	s := newSenses(t, srv, func(c *media.Config) {
		c.ProbeFirst = 5 * time.Millisecond
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { s.Run(runCtx) })
	defer func() { stop(); wg.Wait() }()
	transcribe := func() error {
		_, err := s.Transcribe(ctx, voiceRef(2), &fetcher{data: mediatest.OggOpus(2 * time.Second)}, "en")
		return err
	}

	srv.Down(true)
	for range 2 {
		if err := transcribe(); err == nil {
			t.Fatal("a transcription went through a server that is down")
		}
	}
	if err := s.Health(ctx); err == nil || !strings.Contains(err.Error(), "/audio/transcriptions: unreachable since") {
		t.Fatalf("Health with the server down = %v", err)
	}
	srv.Down(false)
	bottest.WaitFor(t, "the audio check to recover without a voice note", func() bool { return s.Health(ctx) == nil })
	probes := srv.Calls("models")
	if len(probes) == 0 || probes[0].Auth != "Bearer "+testKey || len(srv.Calls("transcriptions")) != 0 {
		t.Fatalf("probes %+v, transcriptions %d: want probes with the key, no transcription", probes, len(srv.Calls("transcriptions")))
	}
	out := logs.String()
	if strings.Count(out, "audio server unreachable") != 1 || strings.Count(out, "audio server reachable again") != 1 ||
		!strings.Contains(out, "found_by=probe") || strings.Contains(out, testKey) {
		t.Fatalf("want one line down and one back (found by the probe), no key:\n%s", out)
	}

	// The probe showed the server there, not that transcription works: the
	// next failure reports it at once, since then.
	srv.Down(true)
	before := time.Now().UTC().Truncate(time.Second)
	if err := transcribe(); err == nil {
		t.Fatal("a transcription went through a server that is down")
	}
	err := s.Health(ctx)
	if err == nil || !strings.Contains(err.Error(), "unreachable since") {
		t.Fatalf("Health after one failure past a probe = %v", err)
	}
	sinceText := err.Error()[strings.Index(err.Error(), "since ")+len("since "):]
	if since, perr := time.Parse(time.RFC3339, sinceText); perr != nil || since.Before(before) {
		t.Fatalf("Health = %v: want the new outage's time, not the old one's", err)
	}
	srv.Down(false)
	bottest.WaitFor(t, "the second recovery", func() bool { return s.Health(ctx) == nil })
}

// What a failed transcription says, so the turn can tell the person
// plainly: the server unusable right now (down, failing after its retry,
// the key refused) is ErrSenseOff, "I can't listen right now", not "say
// it again"; a format it cannot decode is ErrMediaFormat; any other
// refusal of this recording is neither.
func TestFailuresSayWhatWentWrong(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		faults []int
		body   string
		want   error
	}{
		{"5xx after its retry", []int{503, 503}, "", bot.ErrSenseOff},
		{"rate limited after its retry", []int{429, 429}, "", bot.ErrSenseOff},
		{"key refused", []int{401}, "", bot.ErrSenseOff},
		{"OpenAI: invalid file format", []int{400}, `{"error":{"message":"Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']"}}`, bot.ErrMediaFormat},
		{"unsupported media type", []int{415}, "", bot.ErrMediaFormat},
		{"another refusal", []int{400}, `{"error":{"message":"audio too short"}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mediatest.NewServer(t)
			for _, status := range tc.faults {
				srv.Fail("transcriptions", status, tc.body)
			}
			_, err := newSenses(t, srv).Transcribe(ctx, voiceRef(2), &fetcher{data: mediatest.OggOpus(2 * time.Second)}, "en")
			if err == nil {
				t.Fatal("no error")
			}
			for _, sentinel := range []error{bot.ErrSenseOff, bot.ErrMediaFormat} {
				if errors.Is(err, sentinel) != (sentinel == tc.want) {
					t.Errorf("err = %v: errors.Is(%v) = %v", err, sentinel, errors.Is(err, sentinel))
				}
			}
		})
	}
	srv := mediatest.NewServer(t)
	srv.Down(true)
	_, err := newSenses(t, srv).Transcribe(ctx, voiceRef(2), &fetcher{data: mediatest.OggOpus(2 * time.Second)}, "en")
	if !errors.Is(err, bot.ErrSenseOff) || strings.Contains(err.Error(), testKey) {
		t.Errorf("server down: %v, want ErrSenseOff", err)
	}
}

// Fail-fast: once the audio server is known down, a voice note is not
// downloaded or uploaded at all: Transcribe answers at once with
// ErrSenseDown (and ErrSenseOff, so the person hears "I can't listen right
// now"), and the probe, not the next voice note, brings hearing back. The
// log says down once and back once however many notes came meanwhile.
func TestVoiceNotesFailFastWhileTheServerIsDown(t *testing.T) {
	ctx := context.Background()
	srv := mediatest.NewServer(t)
	var logs bottest.Buffer
	s := newSenses(t, srv, func(c *media.Config) {
		c.ProbeFirst = 5 * time.Millisecond
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { s.Run(runCtx) })
	defer func() { stop(); wg.Wait() }()
	f := &fetcher{data: mediatest.OggOpus(2 * time.Second)}
	transcribe := func() error {
		_, err := s.Transcribe(ctx, voiceRef(2), f, "en")
		return err
	}

	srv.Down(true)
	for range 2 {
		if err := transcribe(); err == nil || errors.Is(err, bot.ErrSenseDown) {
			t.Fatalf("a call to a server not yet known down = %v, want a real failure", err)
		}
	}
	for range 5 {
		err := transcribe()
		if !errors.Is(err, bot.ErrSenseDown) || !errors.Is(err, bot.ErrSenseOff) {
			t.Fatalf("a voice note while the server is known down = %v, want ErrSenseDown and ErrSenseOff", err)
		}
	}
	if f.count() != 2 {
		t.Errorf("%d downloads: want only the 2 notes that were tried, none while it is known down", f.count())
	}
	srv.Down(false)
	bottest.WaitFor(t, "the probe to bring hearing back", func() bool { return s.Health(ctx) == nil })
	if err := transcribe(); err != nil {
		t.Fatalf("a voice note once the server is back = %v", err)
	}
	if n := len(srv.Calls("transcriptions")); n != 1 {
		t.Errorf("%d transcriptions reached the server, want the one after it came back", n)
	}
	out := logs.String()
	if strings.Count(out, "audio server unreachable") != 1 || strings.Count(out, "audio server reachable again") != 1 {
		t.Errorf("want one line down and one back:\n%s", out)
	}
	if strings.Contains(out, testKey) {
		t.Errorf("the log has the key:\n%s", out)
	}
}

// A server whose GET /models answers while transcription itself fails
// (a 503 from a whisper backend behind a working proxy) stays reported
// down: the probe's answer does not speak for it, so /healthz does not
// flap between ok and failing with every voice note. A real call that goes
// through (its trial, one per interval) brings it back.
func TestHealthFollowsTranscriptionsNotTheModelList(t *testing.T) {
	ctx := context.Background()
	srv := mediatest.NewServer(t)
	clock := newClock()
	var logs bottest.Buffer
	s := newSenses(t, srv, func(c *media.Config) {
		c.Now, c.ProbeFirst = clock.Now, time.Millisecond
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { s.Run(runCtx) })
	defer func() { stop(); wg.Wait() }()
	f := &fetcher{data: mediatest.OggOpus(2 * time.Second)}
	transcribe := func() error {
		_, err := s.Transcribe(ctx, voiceRef(2), f, "en")
		return err
	}
	failing := func(when string) {
		t.Helper()
		err := s.Health(ctx)
		if err == nil || !strings.Contains(err.Error(), "/audio/transcriptions: unreachable since") || !strings.Contains(err.Error(), "HTTP 503") {
			t.Fatalf("Health %s = %v, want failing with the 503", when, err)
		}
	}

	// The server goes away: the probe is woken, and finds it back.
	srv.Down(true)
	for range 2 {
		transcribe()
	}
	srv.Down(false)
	bottest.WaitFor(t, "the probe to find the server", func() bool { return s.Health(ctx) == nil })
	probes := len(srv.Calls("models"))

	// Back, but transcription fails (a call and its retry): one failure
	// past a probe reports it at once.
	for range 2 {
		srv.Fail("transcriptions", http.StatusServiceUnavailable, "")
	}
	transcribe()
	failing("after a 503")
	// Were the probe asked, /models would answer; a voice note is what
	// shows whether the endpoint works. Before the fix the probe turned
	// Health ok here and the next note turned it red again.
	if err := transcribe(); !errors.Is(err, bot.ErrSenseDown) {
		t.Fatalf("a voice note before the trial is due = %v, want ErrSenseDown", err)
	}
	failing("after a note answered at once")
	if n := len(srv.Calls("models")); n != probes {
		t.Errorf("%d more probes of /models: its answer says nothing about transcription", n-probes)
	}
	clock.Add(time.Millisecond) // the trial is due
	if err := transcribe(); err != nil {
		t.Fatalf("the trial voice note = %v, want it heard", err)
	}
	if err := s.Health(ctx); err != nil {
		t.Fatalf("Health after a transcription went through = %v", err)
	}
	out := logs.String()
	if strings.Count(out, "audio server unreachable") != 2 || strings.Count(out, "audio server reachable again") != 2 ||
		!strings.Contains(out, `found_by="a call went through"`) {
		t.Errorf("want down and back twice, the second found by a call:\n%s", out)
	}
}
