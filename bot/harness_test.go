package bot_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/store"
)

// recorder is a Sender that records what the bot said, per chat.
type recorder struct {
	mu     sync.Mutex
	sent   []sentMsg
	typing int
	fail   error // returned by Send when set
}

type sentMsg struct {
	chat bot.ChatRef
	out  bot.Outgoing
}

func (r *recorder) Send(_ context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return bot.Sent{}, r.fail
	}
	r.sent = append(r.sent, sentMsg{chat, out})
	return bot.Sent{MessageIDs: []string{"m" + itoa(len(r.sent))}}, nil
}

func (r *recorder) Typing(context.Context, bot.ChatRef) error {
	r.mu.Lock()
	r.typing++
	r.mu.Unlock()
	return nil
}

func (r *recorder) typingCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.typing
}

func (r *recorder) texts(chatID string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.sent {
		if chatID == "" || s.chat.ChatID == chatID {
			out = append(out, s.out.Text)
		}
	}
	return out
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}

// fakeBrain wraps the offline brain with hooks: a gate per reply, errors,
// and counters by kind.
type fakeBrain struct {
	off     *brain.Offline
	mu      sync.Mutex
	calls   map[bot.Kind]int
	gate    func(req bot.Request) // called before answering a reply
	reflect chan struct{}         // when non-nil, reflect calls wait on it
	fail    map[bot.Kind]error
	// failWhen, when set, may fail a request by its content.
	failWhen func(bot.Request) error
	reqs     []bot.Request
}

func newFakeBrain() *fakeBrain {
	return &fakeBrain{off: brain.NewOffline(), calls: map[bot.Kind]int{}, fail: map[bot.Kind]error{}}
}

func (f *fakeBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	f.mu.Lock()
	f.calls[req.Kind]++
	f.reqs = append(f.reqs, req)
	gate, wait, err, when := f.gate, f.reflect, f.fail[req.Kind], f.failWhen
	f.mu.Unlock()
	if err == nil && when != nil {
		err = when(req)
	}
	if err != nil {
		return bot.Response{}, err
	}
	if req.Kind == bot.KindReply && gate != nil {
		gate(req)
	}
	if req.Kind == bot.KindReflect && wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
			return bot.Response{}, ctx.Err()
		}
	}
	resp, err := f.off.Complete(ctx, req)
	resp.Offline = false
	resp.Usage = bot.Usage{PromptTokens: 10, CompletionTokens: 5}
	return resp, err
}

func (f *fakeBrain) count(k bot.Kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[k]
}

var errBoom = errors.New("boom")

type env struct {
	h     *bot.Handler
	db    *store.DB
	out   *recorder
	brain *fakeBrain
	path  string
}

func testPersona() bot.Persona {
	return bot.Persona{
		Name: "Luna", Language: "en", Text: "You are Luna, a kind companion.",
		InnerStateSeed: "I am {name}. {user} just arrived.", Dependency: 1, Pride: 10,
		Perception: "llm", DailyPowerRequests: 3, Timezone: time.UTC,
	}
}

func newEnv(t *testing.T, mutate ...func(*bot.Config)) *env {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hearth.db")
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{db: db, out: &recorder{}, brain: newFakeBrain(), path: path}
	cfg := bot.Config{
		Persona: testPersona(), Store: db, Brain: e.brain, Offline: brain.NewOffline(),
		Senders: map[string]bot.Sender{bot.PlatformTelegram: e.out, bot.PlatformConsole: e.out},
	}
	for _, m := range mutate {
		m(&cfg)
	}
	h, err := bot.NewHandler(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Drain)
	e.h = h
	return e
}

var msgSeq struct {
	sync.Mutex
	n int
}

// msg builds a private Telegram message from user in their private chat.
func msg(user, text string) bot.Message {
	msgSeq.Lock()
	msgSeq.n++
	n := msgSeq.n
	msgSeq.Unlock()
	return bot.Message{
		Platform: bot.PlatformTelegram, ChatID: user, ChatKind: bot.ChatPrivate,
		MessageID: itoa(n), UserID: user, UserName: "User" + user, Text: text,
		Modality: bot.ModalityText, Addressed: true,
	}
}

func (e *env) send(t *testing.T, m bot.Message) {
	t.Helper()
	if err := e.h.HandleMessage(context.Background(), m); err != nil {
		t.Fatal(err)
	}
}

func (e *env) user(t *testing.T, id string) store.User {
	t.Helper()
	u, ok, err := e.db.User(context.Background(), id)
	if err != nil || !ok {
		t.Fatalf("user %s: ok=%v err=%v", id, ok, err)
	}
	return u
}

// waitFor polls cond until it holds or 20 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
