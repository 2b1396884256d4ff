package bot_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"hearth/heart"
)

// TestAfterLetsTalkTomorrowSheDoesNotWriteFirst: a close friend who talked
// for two hours heard "Let's continue tomorrow" (seed 003 §3.1's daily
// limit for close); for the rest of that day the life loop is told they
// are resting (Handler.RestingToday), and the next day it is not.
func TestAfterLetsTalkTomorrowSheDoesNotWriteFirst(t *testing.T) {
	start := time.Date(2026, 4, 3, 9, 0, 0, 0, time.UTC)
	e, clock := newClockEnv(t, start)
	ctx := context.Background()
	e.at(t, clock, start, "71", "hi")
	u := e.user(t, "telegram:71")
	r := e.relationship(t, "telegram:71")
	r.Score, r.State = 90, heart.Close
	raw, _ := json.Marshal(r)
	u.Relationship = raw
	if err := e.db.UpdateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if e.h.RestingToday(ctx, e.user(t, "telegram:71"), start.Add(time.Minute)) {
		t.Fatal("resting before any limit was reached")
	}
	for m := 10; m <= 120; m += 10 {
		e.at(t, clock, start.Add(time.Duration(m)*time.Minute), "71", "still here "+itoa(m))
	}
	if got := e.out.last("71").Text; got != heart.LimitReachedMessage(heart.LimitClose, "en") {
		t.Fatalf("at two hours: %q, want the close limit's words", got)
	}
	if !e.h.RestingToday(ctx, e.user(t, "telegram:71"), start.Add(6*time.Hour)) {
		t.Error("told to rest and talk tomorrow, yet not resting that afternoon")
	}
	if e.h.RestingToday(ctx, e.user(t, "telegram:71"), start.Add(24*time.Hour)) {
		t.Error("still resting the next day")
	}
}
