package media_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

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
