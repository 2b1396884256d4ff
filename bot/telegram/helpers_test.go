package telegram

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"hearth/bot"
	"hearth/bot/telegram/telegramtest"
)

// TestMain fails the package if any goroutine outlives its test: Run's loop
// and every request must stop with their context. Idle keep-alive
// connections of the shared HTTP transport are not ours to stop.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
	)
}

// Identity of the fake bot account.
const (
	testToken    = "123456:TEST-token-secret"
	testBotID    = telegramtest.BotID
	testBotName  = telegramtest.BotName
	testDeadline = 5 * time.Second // how long a test waits for a condition
)

// memCursors is an in-memory CursorStore.
type memCursors struct {
	mu sync.Mutex
	m  map[string]string
}

func newMemCursors() *memCursors { return &memCursors{m: map[string]string{}} }

func (c *memCursors) Cursor(_ context.Context, name string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[name], nil
}

func (c *memCursors) SetCursor(_ context.Context, name, value string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[name] = value
	return nil
}

func (c *memCursors) get(name string) string {
	v, _ := c.Cursor(context.Background(), name)
	return v
}

// recInbound records what the transport delivered. failNext makes that many
// HandleMessage calls fail first; offsetSeen records the persisted offset at
// each call, to prove it had not moved before acceptance.
type recInbound struct {
	cursors *memCursors

	mu         sync.Mutex
	msgs       []bot.Message
	reactions  []bot.Reaction
	attempts   int
	failNext   int
	offsetSeen []string
}

func (in *recInbound) HandleMessage(_ context.Context, m bot.Message) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.attempts++
	if in.cursors != nil {
		in.offsetSeen = append(in.offsetSeen, in.cursors.get(offsetCursor))
	}
	if in.failNext > 0 {
		in.failNext--
		return fmt.Errorf("store busy")
	}
	in.msgs = append(in.msgs, m)
	return nil
}

func (in *recInbound) HandleReaction(_ context.Context, r bot.Reaction) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.reactions = append(in.reactions, r)
	return nil
}

func (in *recInbound) messages() []bot.Message {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.msgs)
}

func (in *recInbound) reactionList() []bot.Reaction {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.reactions)
}

// waitFor polls cond until it holds or testDeadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testDeadline)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// newTransport connects a Transport to the fake with a 1 s long poll.
func newTransport(t *testing.T, f *telegramtest.Server, cursors CursorStore, edit func(*Config)) *Transport {
	t.Helper()
	cfg := Config{
		Token:       testToken,
		Endpoint:    f.Endpoint(),
		Cursors:     cursors,
		Logger:      slog.New(slog.NewTextHandler(t.Output(), nil)),
		PollTimeout: time.Second,
	}
	if edit != nil {
		edit(&cfg)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testDeadline)
	defer cancel()
	tr, err := New(ctx, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tr
}

// run starts tr.Run and returns a stop function that cancels it and returns
// Run's result; cleanup stops it too.
func run(t *testing.T, tr *Transport, in bot.Inbound) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tr.Run(ctx, in) }()
	var once sync.Once
	var result error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case result = <-done:
			case <-time.After(testDeadline):
				result = fmt.Errorf("Run did not return after cancel")
			}
		})
		return result
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return stop
}
