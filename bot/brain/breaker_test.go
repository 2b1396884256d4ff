package brain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"hearth/bot"
	"hearth/bot/bottest"
)

// closedPort is the base URL of a port on 127.0.0.1 nobody listens on: a
// model server that is down.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

// countingTransport counts the requests that reach the network, by path.
type countingTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	n    map[string]int
}

func newCounting() *countingTransport {
	return &countingTransport{base: &http.Transport{}, n: map[string]int{}}
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n[r.URL.Path]++
	c.mu.Unlock()
	return c.base.RoundTrip(r)
}

func (c *countingTransport) count(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

func downBrain(t *testing.T, baseURL string, tr http.RoundTripper, logs io.Writer) *OpenAI {
	t.Helper()
	o, err := NewOpenAI(OpenAIConfig{
		BaseURL: baseURL, APIKey: testKey, HTTPClient: &http.Client{Transport: tr},
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatal(err)
	}
	o.backoff = backoff{base: 5 * time.Millisecond, max: 20 * time.Millisecond, rand: func() float64 { return 0 }}
	o.breaker.loop.First, o.breaker.loop.Max = 5*time.Millisecond, 20*time.Millisecond
	return o
}

// A refused connection is not retried: the server is not there, and the
// breaker, not a backoff, decides when to try again.
func TestOpenAIConnectionRefusedNotRetried(t *testing.T) {
	tr := newCounting()
	var logs bottest.Buffer
	b := downBrain(t, closedPort(t), tr, &logs)
	_, err := b.Complete(t.Context(), perceptionReq())
	if err == nil || errors.Is(err, bot.ErrBrainDown) {
		t.Fatalf("err = %v, want the connection error itself", err)
	}
	if !unreachable(err) {
		t.Errorf("%v not classed unreachable", err)
	}
	if n := tr.count("/v1/chat/completions"); n != 1 {
		t.Errorf("%d attempts, want 1 (no retry)", n)
	}
	if strings.Contains(logs.String(), "retrying") {
		t.Errorf("a refused connection was retried: %s", logs.String())
	}
	assertNoKey(t, err, nil)
}

// After BreakerThreshold failed calls the model is not called at all: every
// further call fails at once with ErrBrainDown, /healthz says so, and the
// log says it once.
func TestBreakerOpensAfterThreshold(t *testing.T) {
	tr := newCounting()
	var logs bottest.Buffer
	b := downBrain(t, closedPort(t), tr, &logs)
	for i := range BreakerThreshold {
		if _, err := b.Complete(t.Context(), perceptionReq()); err == nil || errors.Is(err, bot.ErrBrainDown) {
			t.Fatalf("call %d: err = %v, want a connection error", i+1, err)
		}
	}
	if err := b.Health(t.Context()); !errors.Is(err, bot.ErrBrainDown) {
		t.Fatalf("Health = %v, want ErrBrainDown", err)
	}
	for range 20 {
		if _, err := b.Complete(t.Context(), replyReq(nil)); !errors.Is(err, bot.ErrBrainDown) {
			t.Fatalf("err = %v, want ErrBrainDown", err)
		}
	}
	if n := tr.count("/v1/chat/completions"); n != BreakerThreshold {
		t.Errorf("%d calls reached the network, want %d", n, BreakerThreshold)
	}
	if n := strings.Count(logs.String(), "model unreachable"); n != 1 {
		t.Errorf("'model unreachable' logged %d times, want once:\n%s", n, logs.String())
	}
}

// switchable is a model server that answers 503 to everything while down.
type switchable struct {
	down atomic.Bool
	srv  *httptest.Server
}

func newSwitchable(t *testing.T) *switchable {
	s := &switchable{}
	s.down.Store(true)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if s.down.Load() {
			http.Error(w, `{"error":{"message":"loading model"}}`, http.StatusServiceUnavailable)
			return
		}
		switch r.URL.Path {
		case "/v1/models":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[{"id":"m","object":"model","owned_by":"test"}]}`)
		default:
			jsonAnswer(`{"ok":true}`, 10, 2)(w, r)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// While Run probes, the breaker closes once the server answers again, and
// the log says so once.
func TestBreakerProbeRecovers(t *testing.T) {
	s := newSwitchable(t)
	tr := newCounting()
	var logs bottest.Buffer
	b := downBrain(t, s.srv.URL+"/v1", tr, &logs)
	b.maxRetries = 0
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() { b.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()

	for range BreakerThreshold {
		if _, err := b.Complete(t.Context(), perceptionReq()); err == nil {
			t.Fatal("want a 503 error")
		}
	}
	if _, err := b.Complete(t.Context(), perceptionReq()); !errors.Is(err, bot.ErrBrainDown) {
		t.Fatalf("err = %v, want ErrBrainDown", err)
	}
	waitFor(t, func() bool { return tr.count("/v1/models") >= 2 }, "probes while down")
	s.down.Store(false)
	waitFor(t, func() bool { return b.Health(t.Context()) == nil }, "the breaker to close")
	if _, err := b.Complete(t.Context(), perceptionReq()); err != nil {
		t.Fatalf("after recovery: %v", err)
	}
	out := logs.String()
	if strings.Count(out, "model unreachable") != 1 || strings.Count(out, "model reachable again") != 1 {
		t.Errorf("want one 'unreachable' and one 'reachable again' line:\n%s", out)
	}
}

// Without Run (a one-shot tool), one trial call per probe interval goes
// through, so an open breaker never stays open for good.
func TestBreakerTrialWithoutRun(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	b := newBreaker(slog.New(slog.DiscardHandler), nil)
	b.now = func() time.Time { return now }
	for range BreakerThreshold {
		b.record(outage, errors.New("refused"))
	}
	if b.allow() {
		t.Fatal("open breaker allowed a call at once")
	}
	now = now.Add(probeFirst)
	if !b.allow() {
		t.Fatal("no trial call after the probe interval")
	}
	if b.allow() {
		t.Fatal("two trial calls in one interval")
	}
	b.record(reachable, nil)
	if down, _ := b.state(); down || !b.allow() {
		t.Fatal("a successful trial did not close the breaker")
	}
	// Closed after a trial, one more outage reopens it.
	b.record(outage, errors.New("refused"))
	if down, _ := b.state(); !down {
		t.Fatal("one outage after recovery did not reopen the breaker")
	}
}

// keyServer is a model server that refuses the API key (OpenAI's 401
// answer, which echoes part of the key) until accept is set, and serves
// /models without a key, as llama.cpp does.
type keyServer struct {
	accept atomic.Bool
	srv    *httptest.Server
}

func newKeyServer(t *testing.T) *keyServer {
	s := &keyServer{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch {
		case r.URL.Path == "/v1/models":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[{"id":"m","object":"model","owned_by":"test"}]}`)
		case !s.accept.Load():
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
				strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		default:
			jsonAnswer(`{"ok":true}`, 10, 2)(w, r)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// A server that refuses the API key is as good as down: after
// BreakerThreshold refusals Health fails (so /healthz and hearth_brain_up
// say so), the log says once, without the key, that the key is rejected,
// and probes (which /models would pass without a key) do not close the
// breaker; a trial call that goes through once the key works does.
func TestBreakerOpensOnRejectedKey(t *testing.T) {
	s := newKeyServer(t)
	tr := newCounting()
	var logs bottest.Buffer
	b := downBrain(t, s.srv.URL+"/v1", tr, &logs)
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() { b.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()

	if err := b.Health(t.Context()); err != nil {
		t.Fatalf("Health before any call = %v", err)
	}
	for i := range BreakerThreshold {
		_, err := b.Complete(t.Context(), perceptionReq())
		if status := statusOf(err); status != http.StatusUnauthorized {
			t.Fatalf("call %d: err = %v, want the 401", i+1, err)
		}
		assertNoKey(t, err, nil)
	}
	err := b.Health(t.Context())
	if !errors.Is(err, bot.ErrBrainDown) || !strings.Contains(err.Error(), "rejects the API key") || strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("Health = %v, want ErrBrainDown saying the key is rejected", err)
	}
	// Trial calls keep finding the key refused: still down, logged once.
	waitFor(t, func() bool {
		b.Complete(t.Context(), perceptionReq())
		return tr.count("/v1/chat/completions") >= BreakerThreshold+2
	}, "trial calls while the key is refused")
	if err := b.Health(t.Context()); err == nil {
		t.Fatal("Health ok while the key is refused")
	}
	if n := tr.count("/v1/models"); n != 0 {
		t.Errorf("%d probes of /models, want none: they pass without a key", n)
	}
	s.accept.Store(true)
	waitFor(t, func() bool {
		_, err := b.Complete(t.Context(), perceptionReq())
		return err == nil
	}, "a trial call with the key accepted")
	if err := b.Health(t.Context()); err != nil {
		t.Fatalf("Health after the key works = %v", err)
	}
	out := logs.String()
	if n := strings.Count(out, "model rejects the API key"); n != 1 {
		t.Errorf("'model rejects the API key' logged %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "model accepts the API key again") {
		t.Errorf("no line saying the key works again:\n%s", out)
	}
	if strings.Contains(out, testKey) || strings.Contains(out, "model unreachable") {
		t.Errorf("log has the key or calls the model unreachable:\n%s", out)
	}
}

func TestClassify(t *testing.T) {
	live := context.Background()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	dialErr := &net.OpError{Op: "dial", Net: "tcp", Err: &net.AddrError{Err: "x"}}
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want verdict
	}{
		{"ok", live, nil, reachable},
		{"refused", live, fmt.Errorf("post: %w", syscall.ECONNREFUSED), outage},
		{"dial", live, dialErr, outage},
		{"dns", live, &net.DNSError{Err: "no such host", Name: "model.invalid", IsNotFound: true}, outage},
		{"503", live, &openai.APIError{HTTPStatusCode: 503}, outage},
		{"400", live, &openai.APIError{HTTPStatusCode: 400}, reachable},
		{"401", live, &openai.RequestError{HTTPStatusCode: 401}, refused},
		{"403", live, &openai.APIError{HTTPStatusCode: 403}, refused},
		{"403 for a photo", live, fmt.Errorf("%w: %w", bot.ErrImagesRejected, &openai.APIError{HTTPStatusCode: 403}), unknown},
		{"404", live, &openai.APIError{HTTPStatusCode: 404}, reachable},
		{"deadline", live, fmt.Errorf("complete: %w", context.DeadlineExceeded), outage},
		{"stream cut", live, ErrStreamCut, outage},
		{"bad json", live, errors.New("answer is not a JSON object"), reachable},
		{"caller gone", gone, fmt.Errorf("x: %w", context.Canceled), unknown},
	}
	for _, tt := range tests {
		if got := classify(tt.ctx, tt.err); got != tt.want {
			t.Errorf("%s: classify = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// waitFor polls cond until it holds or a generous deadline passes.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
