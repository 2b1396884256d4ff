package lifeloop

import (
	"fmt"
	"testing"
	"time"

	"hearth/store"
)

// BenchmarkTickGated is one Tick over 10,000 users, all gated for a mix of
// reasons (quiet, timed quiet, min_silence, relationship state, quiet hours
// are exercised by the persona's clock), in steady state: each user's log
// already holds a few rows, so a tick reads but rarely writes. Goal: ≤ 100 ms
// per tick and no LLM call.
func BenchmarkTickGated(b *testing.B) {
	const users = 10_000
	us := make([]store.User, users)
	for i := range us {
		u := testUser(fmt.Sprint(i))
		switch i % 4 {
		case 0:
			u.Proactive = false
		case 1:
			u.QuietUntil = base.Add(365 * 24 * time.Hour)
		case 2:
			u.LastUserAt = base.Add(365 * 24 * time.Hour) // keeps min_silence gating as the clock moves
		case 3:
			u.Name = "stranger" // Assess below says stranger
		}
		us[i] = u
	}
	r := newRigWith(b, speakYes, func(c *Config) {
		c.Assess = func(u store.User, now time.Time) Assessment {
			if u.Name == "stranger" {
				return Assessment{State: StateStranger}
			}
			return Assessment{State: StateFriend}
		}
	}, us...)
	// A week of history per user: two sent messages and a gated row.
	for i := range us {
		id := us[i].ID
		for d := 7; d >= 1; d -= 3 {
			_ = r.store.LogProactive(b.Context(), store.Proactive{UserID: id, At: base.Add(-time.Duration(d) * 24 * time.Hour), Outcome: OutcomeSent, Text: "hi"})
		}
	}
	now := base
	r.tick(b, now) // first pass logs each user's gate reason once
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		now = now.Add(time.Minute)
		rep := r.tick(b, now)
		if rep.LLMCalls != 0 || len(rep.Decisions) != users {
			b.Fatalf("report: %d calls, %d decisions", rep.LLMCalls, len(rep.Decisions))
		}
	}
	b.StopTimer()
	if r.brain.count() != 0 {
		b.Fatalf("%d LLM calls for gated users, want 0", r.brain.count())
	}
}
