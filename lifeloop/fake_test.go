package lifeloop

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"hearth/bot"
	"hearth/store"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// memStore is an in-memory Store with the semantics the SQLite store
// documents: ProactiveLog returns At >= since, oldest first (ties in
// insertion order); outbound ids start at 1.
type memStore struct {
	mu        sync.Mutex
	users     []store.User
	proactive map[string][]store.Proactive
	outbound  []store.Outbound
	usage     []store.Usage
	asked     []int64 // follow-ups marked asked
	listCalls int
	failLog   error         // when set, ProactiveLog fails
	block     chan struct{} // when set, UsersWithPrivateChat waits for it (or ctx)
}

func newMemStore(users ...store.User) *memStore {
	return &memStore{users: users, proactive: map[string][]store.Proactive{}}
}

func (s *memStore) UsersWithPrivateChat(ctx context.Context) ([]store.User, error) {
	s.mu.Lock()
	s.listCalls++
	block := s.block
	s.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.User
	for _, u := range s.users {
		if u.PrivateChatID != "" {
			out = append(out, u)
		}
	}
	return out, nil
}

func (s *memStore) ProactiveLog(ctx context.Context, userID string, since time.Time) ([]store.Proactive, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failLog != nil {
		return nil, s.failLog
	}
	all := s.proactive[userID]
	i := sort.Search(len(all), func(i int) bool { return !all[i].At.Before(since) })
	return slices.Clone(all[i:]), nil
}

func (s *memStore) LogProactive(ctx context.Context, p store.Proactive) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := append(s.proactive[p.UserID], p)
	sort.SliceStable(l, func(i, j int) bool { return l[i].At.Before(l[j].At) })
	s.proactive[p.UserID] = l
	return nil
}

func (s *memStore) EnqueueOutbound(ctx context.Context, o store.Outbound) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o.Status != store.OutboundPending {
		return 0, errors.New("enqueue: status must be pending")
	}
	o.ID = int64(len(s.outbound) + 1)
	s.outbound = append(s.outbound, o)
	return o.ID, nil
}

func (s *memStore) MarkOutbound(ctx context.Context, id int64, status string, platformIDs []string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || int(id) > len(s.outbound) {
		return errors.New("mark outbound: no such id")
	}
	o := &s.outbound[id-1]
	o.Status, o.PlatformIDs, o.SentAt = status, platformIDs, at
	return nil
}

func (s *memStore) AddUsage(ctx context.Context, u ...store.Usage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.usage = append(s.usage, u...)
	return nil
}

func (s *memStore) MarkFollowUpsAsked(ctx context.Context, ids []int64, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, ids...)
	return nil
}

// log returns a copy of a user's proactive log.
func (s *memStore) log(userID string) []store.Proactive {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.proactive[userID])
}

// lists counts UsersWithPrivateChat calls: one per Tick that ran.
func (s *memStore) lists() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listCalls
}

// outbox returns a copy of the outbound ledger.
func (s *memStore) outbox() []store.Outbound {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.outbound)
}

// setLastUserAt simulates the user writing at t.
func (s *memStore) setLastUserAt(id string, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.users {
		if s.users[i].ID == id {
			s.users[i].LastUserAt = t
		}
	}
}

// fakeBrain answers every call with answer (or err) and counts calls. When
// block is non-nil, each call first waits for it (or for ctx).
type fakeBrain struct {
	mu     sync.Mutex
	answer string
	err    error
	calls  []bot.Request
	block  chan struct{}
	done   int // calls that returned
}

func (b *fakeBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	b.mu.Lock()
	b.calls = append(b.calls, req)
	block, answer, err := b.block, b.answer, b.err
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.done++
		b.mu.Unlock()
	}()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return bot.Response{}, ctx.Err()
		}
	}
	if err != nil {
		return bot.Response{}, err
	}
	return bot.Response{Text: answer, Usage: bot.Usage{PromptTokens: 100, CompletionTokens: 20}}, nil
}

func (b *fakeBrain) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.calls)
}

func (b *fakeBrain) returned() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done
}

func (b *fakeBrain) last() bot.Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls[len(b.calls)-1]
}

// fakeSender records what it sends and answers with err when set.
type fakeSender struct {
	mu   sync.Mutex
	sent []sentMsg
	err  error
}

type sentMsg struct {
	chat bot.ChatRef
	out  bot.Outgoing
}

func (s *fakeSender) Send(ctx context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return bot.Sent{}, s.err
	}
	s.sent = append(s.sent, sentMsg{chat, out})
	return bot.Sent{MessageIDs: []string{"m" + string(rune('0'+len(s.sent)))}}, nil
}

func (s *fakeSender) Typing(ctx context.Context, chat bot.ChatRef) error { return nil }

func (s *fakeSender) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sent)
}

// forbiddenZH is a faithful stand-in for heart.ContainsForbidden over the
// seed 003 §7.2 zh phrases.
func forbiddenZH(text string) bool {
	for _, p := range []string{"我等了你好久", "你怎么才来", "我以为你不要我了", "甚是想念"} {
		if strings.Contains(text, p) {
			return true
		}
	}
	return false
}

// friendAssess says every user is a friend, no Watch, no dependency.
func friendAssess(u store.User, now time.Time) Assessment {
	return Assessment{State: StateFriend, Greeting: "嘿，好久不见！最近过得怎么样？"}
}

// base is a Wednesday noon in Shanghai (04:00 UTC).
var base = time.Date(2026, 3, 4, 4, 0, 0, 0, time.UTC)

// testUser is a telegram user who last wrote a day before base.
func testUser(id string) store.User {
	return store.User{
		ID: "telegram:" + id, Platform: "telegram", Name: "Ann" + id, PrivateChatID: id,
		Proactive: true, LastUserAt: base.Add(-24 * time.Hour), LastBotAt: base.Add(-24 * time.Hour),
		InnerState: "我希望她不要太累。",
	}
}

type rig struct {
	store  *memStore
	brain  *fakeBrain
	sender *fakeSender
	loop   *Loop
}

// newRig builds a Loop over users with a zh persona in Asia/Shanghai,
// quiet hours 23:00-08:00, min silence 4h, cap 2.
func newRig(t testing.TB, answer string, users ...store.User) *rig {
	t.Helper()
	return newRigWith(t, answer, nil, users...)
}

// newRigWith is newRig with a hook to adjust the Config before New.
func newRigWith(t testing.TB, answer string, adjust func(*Config), users ...store.User) *rig {
	t.Helper()
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{store: newMemStore(users...), brain: &fakeBrain{answer: answer}, sender: &fakeSender{}}
	cfg := Config{
		Persona: bot.Persona{Name: "Luna", Language: "zh", Text: "你是 Luna。", Timezone: sh,
			LifeLoop: bot.LifeLoop{Schedule: "@every 30m", QuietStart: 23 * time.Hour, QuietEnd: 8 * time.Hour,
				MinSilence: 4 * time.Hour, MinState: StateAcquaintance, DailyCap: 2}},
		Store:     r.store,
		Brain:     r.brain,
		Senders:   map[string]bot.Sender{"telegram": r.sender},
		Assess:    friendAssess,
		Forbidden: forbiddenZH,
	}
	if adjust != nil {
		adjust(&cfg)
	}
	r.loop, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *rig) tick(t testing.TB, now time.Time) TickReport {
	t.Helper()
	rep, err := r.loop.Tick(context.Background(), now)
	if err != nil {
		t.Fatalf("Tick(%v): %v", now, err)
	}
	return rep
}
