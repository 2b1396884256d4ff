package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/store"
)

// TestWatchClearDuringATurnStays: the operator clears Watch (`hearth watch
// clear`, its own process and handle on the file) while one of the user's
// turns waits for the model. That turn read the user in Watch before the
// clear and commits after it; the clear must survive it, and must not
// undo what the turn wrote either.
func TestWatchClearDuringATurnStays(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.send(t, msg("60", "I want to kill myself"))
	e.h.Drain()
	if !bot.RelationshipOf(e.user(t, "telegram:60"), time.Now(), nil).Watch {
		t.Fatal("a crisis message did not put the user in Watch")
	}
	before := e.user(t, "telegram:60").Messages

	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	e.brain.mu.Lock()
	e.brain.gate = func(req bot.Request) {
		if strings.Contains(req.Hints.Text, "still here") {
			once.Do(func() { close(reached) })
			<-release
		}
	}
	e.brain.mu.Unlock()
	e.send(t, msg("60", "thank you for staying, I'm still here"))
	<-reached

	op, err := store.Open(ctx, e.path, store.Options{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	cleared, err := bot.ClearWatch(ctx, op, "telegram:60", time.Now())
	op.Close()
	if err != nil || !cleared {
		t.Fatalf("ClearWatch = %v, %v", cleared, err)
	}
	close(release)
	e.h.Drain()

	u := e.user(t, "telegram:60")
	if bot.RelationshipOf(u, time.Now(), nil).Watch {
		t.Fatal("the turn in flight undid the operator's clear: the user is in Watch again")
	}
	if u.Messages != before+1 {
		t.Fatalf("messages = %d, want %d: the turn's own writes must stand", u.Messages, before+1)
	}
	doc, err := bot.BuildState(ctx, e.db, bot.StateOptions{Persona: testPersona(), UserID: "telegram:60", Now: time.Now()})
	if err != nil || doc.Users[0].Affinity.Watch {
		t.Fatalf("hearth state shows Watch after the clear: %+v %v", doc.Users, err)
	}
}
