package bot_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/store"
)

// midRead is the store `hearth state` reads, with a turn committing in the
// middle of the read: before memories are read (the reads one by one), or
// right after the snapshot's first read (one snapshot).
type midRead struct {
	*store.DB
	once  sync.Once
	write func()
}

func (m *midRead) Memories(ctx context.Context, userID string) ([]store.Memory, error) {
	m.once.Do(m.write)
	return m.DB.Memories(ctx, userID)
}

func (m *midRead) View(ctx context.Context, fn func(s *store.Snapshot) error) error {
	return m.DB.View(ctx, func(s *store.Snapshot) error {
		if _, err := s.Users(ctx); err != nil { // the snapshot begins here
			return err
		}
		m.once.Do(m.write)
		return fn(s)
	})
}

// hearth state is one snapshot: a turn that commits while it reads (a
// message counted and a memory kept, in one transaction) is in the
// document whole or not at all. Read one by one, the user came from
// before the turn and the memory from after it.
func TestStateIsOneSnapshot(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.send(t, msg("70", "hello there"))
	e.h.Drain()
	u := e.user(t, "telegram:70")
	st := &midRead{DB: e.db, write: func() {
		next := u
		next.Messages++
		if _, err := e.db.CommitTurn(ctx, store.Turn{User: next, Memories: []store.Memory{{UserID: u.ID, Slot: 1,
			Content: "likes green tea", Retention: store.RetentionPermanent, UpdatedAt: time.Now()}}}); err != nil {
			t.Errorf("commit a turn mid-read: %v", err)
		}
	}}
	doc, err := bot.BuildState(ctx, st, bot.StateOptions{Persona: testPersona(), UserID: u.ID, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	got := doc.Users[0]
	kept := false
	for _, m := range got.Memories {
		kept = kept || m.Content == "likes green tea"
	}
	if kept != (got.Messages == u.Messages+1) {
		t.Fatalf("state shows %d messages and the new memory %v: a turn half in, half out", got.Messages, kept)
	}
}
