package lifeloop

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/store"
)

// TestTickAsksAboutAFollowUpOnce (issue 11 item 5): a follow-up whose day
// has passed reaches the check-in's prompt and hints; a sent check-in
// says in the proactive log that a follow-up was in it and marks it asked.
// It goes through the same gate: in quiet hours nobody is asked.
func TestTickAsksAboutAFollowUpOnce(t *testing.T) {
	due := []bot.FollowUp{{ID: 7, About: "考试", Due: "2026-03-02"}}
	r := newRigWith(t, speakYes, func(c *Config) {
		c.About = func(_ context.Context, u store.User, _ time.Time) bot.CheckIn {
			return bot.CheckIn{FollowUps: due}
		}
	}, testUser("1"))

	night := time.Date(2026, 3, 3, 16, 0, 0, 0, time.UTC) // 00:00 in Shanghai, before base
	if rep := r.tick(t, night); rep.LLMCalls != 0 || rep.Decisions[0].Reason != ReasonQuietHours {
		t.Fatalf("a follow-up passed the gate in quiet hours: %+v", rep)
	}
	rep := r.tick(t, base)
	if len(rep.Decisions) != 1 || rep.Decisions[0].Outcome != OutcomeSent || rep.Decisions[0].Reason != ReasonFollowUp {
		t.Fatalf("decision %+v, want sent: follow_up", rep.Decisions)
	}
	req := r.brain.last()
	if !strings.Contains(req.Messages[1].Content, "「考试」在 2026-03-02") || len(req.Hints.FollowUps) != 1 || req.Hints.FollowUps[0].ID != 7 {
		t.Fatalf("prompt %q hints %+v", req.Messages[1].Content, req.Hints.FollowUps)
	}
	if !slices.Equal(r.store.asked, []int64{7}) {
		t.Fatalf("asked %v, want [7]", r.store.asked)
	}
	log := r.store.log("telegram:1")
	if last := log[len(log)-1]; last.Outcome != OutcomeSent || last.Reason != ReasonFollowUp {
		t.Fatalf("proactive log %+v", last)
	}
}

// TestTickSilentFollowUpStaysOpen: when the model chooses silence the
// follow-up was not asked, and stays for a later check-in.
func TestTickSilentFollowUpStaysOpen(t *testing.T) {
	r := newRigWith(t, `{"speak": false}`, func(c *Config) {
		c.About = func(context.Context, store.User, time.Time) bot.CheckIn {
			return bot.CheckIn{FollowUps: []bot.FollowUp{{ID: 3, About: "exam", Due: "2026-03-02"}}}
		}
	}, testUser("1"))
	if rep := r.tick(t, base); rep.Decisions[0].Outcome != OutcomeSilent || len(r.store.asked) != 0 {
		t.Fatalf("decision %+v, asked %v", rep.Decisions, r.store.asked)
	}
}

// TestSeed003_ReturnCheckInCarriesTheHeavyTopic: seed 003 §7.1's third
// greeting. After twelve silent days the check-in's prompt carries what the
// user shared before going quiet, in the greeting and as their words, once:
// after one unanswered check-in it is not brought up again. A short
// silence does not bring it up at all.
func TestSeed003_ReturnCheckInCarriesTheHeavyTopic(t *testing.T) {
	u := testUser("1")
	u.LastUserAt, u.LastBotAt = base.Add(-12*24*time.Hour), base.Add(-12*24*time.Hour)
	heavy := bot.CheckIn{Heavy: "我和女朋友分手了", HeavyAt: u.LastUserAt.Add(-time.Hour)}
	r := newRigWith(t, speakYes, func(c *Config) {
		c.About = func(context.Context, store.User, time.Time) bot.CheckIn { return heavy }
	}, u)
	r.tick(t, base)
	req := r.brain.last()
	situation := req.Messages[1].Content
	for _, want := range []string{"你之前提到的“我和女朋友分手了”那件事，现在怎么样了？", "他沉默之前（大约两周前）说过：“我和女朋友分手了”"} {
		if !strings.Contains(situation, want) {
			t.Errorf("situation lacks %q:\n%s", want, situation)
		}
	}
	if req.Hints.Heavy != heavy.Heavy || !strings.Contains(req.Hints.Greeting, "分手") {
		t.Fatalf("hints heavy %q greeting %q", req.Hints.Heavy, req.Hints.Greeting)
	}
	// Two days later (the backoff's first wait), the check-in unanswered:
	// asked once is enough.
	r.tick(t, base.Add(BackoffFirst+2*time.Hour))
	if r.brain.count() != 2 || strings.Contains(r.brain.last().Messages[1].Content, "分手") || r.brain.last().Hints.Heavy != "" {
		t.Fatalf("the heavy topic came up again: calls %d\n%s", r.brain.count(), r.brain.last().Messages[1].Content)
	}

	short := newRigWith(t, speakYes, func(c *Config) {
		c.About = func(context.Context, store.User, time.Time) bot.CheckIn { return heavy }
	}, testUser("2"))
	short.tick(t, base)
	if strings.Contains(short.brain.last().Messages[1].Content, "分手") {
		t.Fatal("a one-day silence brought up the heavy topic")
	}
}
