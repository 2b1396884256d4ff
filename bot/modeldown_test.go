package bot_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/bottest"
	"hearth/bot/brain"
)

// modelDownURL is a base URL on 127.0.0.1 where nothing listens: the model
// server is down.
func modelDownURL(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

// attemptCounter counts the chat completion requests that reach the
// network.
type attemptCounter struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (a *attemptCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/chat/completions") {
		a.n.Add(1)
	}
	return a.base.RoundTrip(r)
}

// downBrain is the real OpenAI-compatible brain pointed at a closed port.
func downBrain(tb testing.TB, logs *bottest.Buffer) (*brain.OpenAI, *attemptCounter) {
	tb.Helper()
	tr := &attemptCounter{base: &http.Transport{}}
	var logger *slog.Logger
	if logs != nil {
		logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	o, err := brain.NewOpenAI(brain.OpenAIConfig{
		BaseURL: modelDownURL(tb), APIKey: "sk-test", HTTPClient: &http.Client{Transport: tr}, Logger: logger,
		// No trial call while the turns below run, however slow the
		// machine: they count every attempt on the model.
		BreakerProbe: time.Hour,
	})
	if err != nil {
		tb.Fatal(err)
	}
	return o, tr
}

// tokenEcho is the benchmarks' offline brain: its replies carry the
// message's token, so the bench sender can match them.
type tokenEcho struct{ bot.Brain }

func (t tokenEcho) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	resp, err := t.Brain.Complete(ctx, req)
	if req.Kind == bot.KindReply {
		resp.Text += tokenSuffix(req.Hints.Text)
	}
	return resp, err
}

// With the model server down, the first turn's two refused calls (no
// retries) open the circuit breaker; every later turn is answered by the
// offline brain without a single attempt on the model, and the log says
// once that the model is down instead of warning every turn.
func TestModelDownTurnsSkipTheModel(t *testing.T) {
	var logs bottest.Buffer
	o, attempts := downBrain(t, &logs)
	e := newEnv(t, func(c *bot.Config) {
		c.Brain = o
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		// The offline brain reads its data at its first call (tens of ms
		// under -race): read it now, so that the turns below spend the
		// breaker's probe interval on the breaker alone.
		if _, err := c.Offline.Complete(context.Background(), bot.Request{Kind: bot.KindPerception, Hints: bot.Hints{Language: "en", Text: "hello"}}); err != nil {
			t.Fatal(err)
		}
	})
	e.send(t, msg("down1", "hello, are you there?"))
	waitFor(t, "the first reply", func() bool { return len(e.out.texts("down1")) == 1 })
	if n := attempts.n.Load(); n != brain.BreakerThreshold {
		t.Fatalf("first turn made %d attempts, want %d (perception and reply, no retries)", n, brain.BreakerThreshold)
	}
	const later = 10
	for i := range later {
		e.send(t, msg([]string{"down1", "down2"}[i%2], "how was your day?"))
	}
	waitFor(t, "every later reply", func() bool { return len(e.out.texts("")) == 1+later })
	if n := attempts.n.Load(); n != brain.BreakerThreshold {
		t.Errorf("%d attempts after the breaker opened, want none", n-brain.BreakerThreshold)
	}
	for _, text := range e.out.texts("") {
		if strings.TrimSpace(text) == "" {
			t.Errorf("an empty reply while the model was down")
		}
	}
	out := logs.String()
	if n := strings.Count(out, "model unreachable"); n != 1 {
		t.Errorf("'model unreachable' logged %d times, want once:\n%s", n, out)
	}
	if n := strings.Count(out, "level=WARN"); n > 3 {
		t.Errorf("%d warnings for %d turns; the breaker's turns should not warn:\n%s", n, 1+later, out)
	}
}

// BenchmarkTurnModelDown is one turn with the model server down (a closed
// port on 127.0.0.1), after the first turn opened the breaker. Goal: < 100
// ms; before the breaker, 5.4 s of retries.
func BenchmarkTurnModelDown(b *testing.B) {
	o, attempts := downBrain(b, nil)
	r := newRig(b, o, 0)
	first := r.turn(b, userID(0))
	var lat []time.Duration
	i := 0
	for b.Loop() {
		lat = append(lat, r.turn(b, userID(i%benchUsers)))
		i++
	}
	b.ReportMetric(millis(first), "first-turn-ms")
	b.ReportMetric(micros(percentile(lat, 0.50)), "p50-µs")
	b.ReportMetric(micros(percentile(lat, 0.99)), "p99-µs")
	b.ReportMetric(float64(attempts.n.Load()), "model-attempts")
}
