package discord

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"hearth/bot"
	"hearth/bot/discord/discordtest"
)

// TestMain fails the package if any goroutine (discordgo's heartbeat and
// reader included) outlives the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitTimeout bounds every poll; generous for a loaded 2-core machine.
const waitTimeout = 30 * time.Second

// eventually polls cond until it holds or waitTimeout passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recorder is a real bot.Inbound that keeps what it was given.
type recorder struct {
	mu        sync.Mutex
	msgs      []bot.Message
	reactions []bot.Reaction
	fail      map[string]bool // message ids to refuse, as a full disk would
	// gate, when set, holds every HandleMessage until it is closed, as a
	// stuck store would.
	gate chan struct{}
}

func (r *recorder) HandleMessage(ctx context.Context, m bot.Message) error {
	if r.gate != nil {
		select {
		case <-r.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail[m.MessageID] {
		return errors.New("store is full")
	}
	r.msgs = append(r.msgs, m)
	return nil
}

func (r *recorder) HandleReaction(_ context.Context, x bot.Reaction) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reactions = append(r.reactions, x)
	return nil
}

func (r *recorder) messages() []bot.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]bot.Message(nil), r.msgs...)
}

// waitMessage waits for the message with the given id and returns it.
func (r *recorder) waitMessage(t testing.TB, id string) bot.Message {
	t.Helper()
	var got bot.Message
	eventually(t, "message "+id, func() bool {
		for _, m := range r.messages() {
			if m.MessageID == id {
				got = m
				return true
			}
		}
		return false
	})
	return got
}

// testLogger writes the transport's logs to the test log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

// running is a Transport whose Run is in progress against a fake.
type running struct {
	tr     *Transport
	rec    *recorder
	cancel context.CancelFunc
	done   chan error
}

// start runs a Transport against f until the test ends, and waits until
// the gateway session is ready.
func start(t *testing.T, f *discordtest.Server, edit func(*Config)) *running {
	t.Helper()
	return startWith(t, f, &recorder{}, edit)
}

// startWith is start with a given Inbound, e.g. one that refuses messages
// from the first delivery on.
func startWith(t *testing.T, f *discordtest.Server, rec *recorder, edit func(*Config)) *running {
	t.Helper()
	cfg := Config{Token: fakeToken, APIBase: f.Base(), Logger: testLogger(t), OpenTimeout: 5 * time.Second}
	if edit != nil {
		edit(&cfg)
	}
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	trust(f, tr)
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{tr: tr, rec: rec, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- tr.Run(ctx, r.rec) }()
	t.Cleanup(func() { r.stop(t) })
	eventually(t, "gateway ready", func() bool {
		self, _ := tr.ids()
		return self == fakeBotID && f.Live()
	})
	return r
}

// stop cancels Run and checks it returns nil in time.
func (r *running) stop(t testing.TB) {
	t.Helper()
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok && err != nil {
			t.Errorf("Run returned %v after cancel, want nil", err)
		}
		if ok {
			close(r.done)
		}
	case <-time.After(waitTimeout):
		t.Errorf("Run did not return within %v of cancel", waitTimeout)
	}
}
