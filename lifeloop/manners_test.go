package lifeloop

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/heart"
	"hearth/store"
)

// TestCheckInKnowsWhatItSaidLastTime: after a check-in left unanswered,
// the next one is asked with the words of the last ones (Hints.CheckIns,
// and the newest in the prompt), so neither brain sends the same line
// again days later.
func TestCheckInKnowsWhatItSaidLastTime(t *testing.T) {
	u := testUser("1")
	r := newRig(t, speakYes, u)
	r.tick(t, base)
	if r.sender.count() != 1 {
		t.Fatalf("first check-in: %d sent", r.sender.count())
	}
	first := r.sender.sent[0].out.Text
	if h := r.brain.last().Hints; len(h.CheckIns) != 0 {
		t.Fatalf("a first check-in was told of earlier ones: %q", h.CheckIns)
	}
	// Past the backoff after one unanswered message.
	r.tick(t, base.Add(BackoffWait(4*time.Hour, 1)+time.Hour))
	req := r.brain.last()
	if r.brain.count() != 2 || len(req.Hints.CheckIns) != 1 || req.Hints.CheckIns[0] != first {
		t.Fatalf("second call: %d calls, CheckIns %q; want [%q]", r.brain.count(), req.Hints.CheckIns, first)
	}
	if sit := req.Messages[len(req.Messages)-1].Content; !strings.Contains(sit, "“"+first+"”") {
		t.Errorf("the prompt does not show the last check-in:\n%s", sit)
	}
}

// TestPromptSaysItIsNightForThem: a model asked at night (a persona with
// no quiet hours) is told a message could wake them; in the day it is not.
func TestPromptSaysItIsNightForThem(t *testing.T) {
	u := testUser("1")
	for _, lang := range []string{"en", "zh", "ja"} {
		w := vocabulary(lang)
		for hour, night := range map[int]bool{1: true, 6: true, 22: true, 8: false, 14: false, 21: false} {
			s := Situation{User: u, Assessment: Assessment{State: StateFriend},
				Now: time.Date(2026, 3, 4, hour, 30, 0, 0, time.UTC), Silence: 30 * time.Hour}
			msgs := BuildPrompt(bot.Persona{Name: "Luna", Language: lang}, s)
			if got := strings.Contains(msgs[1].Content, w.late); got != night {
				t.Errorf("%s at %02d:30: night line %v, want %v", lang, hour, got, night)
			}
		}
	}
}

// TestCheckInRemembersItsWordsAcrossAReply: a user who answered a
// check-in and went quiet again is not sent the same words next time:
// the brain still hears of the check-ins before their reply.
func TestCheckInRemembersItsWordsAcrossAReply(t *testing.T) {
	u := testUser("1")
	r := newRig(t, speakYes, u)
	r.tick(t, base)
	first := r.sender.sent[0].out.Text
	r.store.setLastUserAt(u.ID, base.Add(time.Hour)) // they answered
	r.tick(t, base.Add(26*time.Hour))
	if r.brain.count() != 2 {
		t.Fatalf("%d calls, want 2", r.brain.count())
	}
	if got := r.brain.last().Hints.CheckIns; len(got) != 1 || got[0] != first {
		t.Errorf("after their reply, CheckIns %q; want [%q]", got, first)
	}
}

// TestModelHearsWhatTheyToldLately: a model asked whether to write first
// is shown what the user told lately, with when, and what it remembers,
// and is told to be gentle after a loss; its own lines are not shown as
// theirs.
func TestModelHearsWhatTheyToldLately(t *testing.T) {
	u := testUser("1")
	told := base.Add(-48 * time.Hour)
	r := newRigWith(t, speakYes, func(c *Config) {
		c.Persona.Language = "en"
		c.About = func(ctx context.Context, u store.User, now time.Time) bot.CheckIn {
			return bot.CheckIn{Memories: []string{"Pets: Biscuit (dog)"}, Recent: []bot.ChatMessage{
				{Role: "user", Content: "my friend and neighbour Frank died yesterday", At: told},
				{Role: "assistant", Content: "I'm so sorry.", At: told},
			}}
		}
	}, u)
	r.tick(t, base)
	req := r.brain.last()
	sys, sit := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
	for _, want := range []string{"my friend and neighbour Frank died yesterday", heart.RecallWhen(told, base.In(r.loop.loc), "en"), "Biscuit"} {
		if !strings.Contains(sit, want) {
			t.Errorf("the situation lacks %q:\n%s", want, sit)
		}
	}
	if strings.Contains(sit, "I'm so sorry.") {
		t.Errorf("her own line is shown as theirs:\n%s", sit)
	}
	if !strings.Contains(sys, vocabulary("en").care) {
		t.Errorf("the system prompt does not ask for gentleness after a loss:\n%s", sys)
	}
}

// TestModelHearsWhatIsTomorrow: a thing they told of that is due tomorrow
// reaches the brain (Hints.Ahead) and the prompt, so the check-in the day
// before an exam can wish them well.
func TestModelHearsWhatIsTomorrow(t *testing.T) {
	u := testUser("1")
	r := newRigWith(t, speakYes, func(c *Config) {
		c.Persona.Language = "en"
		c.About = func(ctx context.Context, u store.User, now time.Time) bot.CheckIn {
			return bot.CheckIn{Ahead: []bot.FollowUp{{ID: 7, About: "exam", Due: "2026-03-05"}}}
		}
	}, u)
	r.tick(t, base)
	req := r.brain.last()
	if len(req.Hints.Ahead) != 1 || req.Hints.Ahead[0].About != "exam" {
		t.Errorf("hints ahead %+v, want the exam", req.Hints.Ahead)
	}
	if sit := req.Messages[len(req.Messages)-1].Content; !strings.Contains(sit, fmt.Sprintf(vocabulary("en").ahead, "exam", "2026-03-05")) {
		t.Errorf("the prompt does not say the exam is tomorrow:\n%s", sit)
	}
}

// TestNoFirstMessageAfterLetsTalkTomorrow: a close friend told today that
// the day's talk is over is not written to first that day, and no model
// is asked; the tick reads it through Config.Resting.
func TestNoFirstMessageAfterLetsTalkTomorrow(t *testing.T) {
	u := testUser("1")
	resting := true
	r := newRigWith(t, speakYes, func(c *Config) {
		c.Resting = func(ctx context.Context, u store.User, now time.Time) bool { return resting }
	}, u)
	if rep := r.tick(t, base); len(rep.Decisions) != 1 || rep.Decisions[0].Reason != ReasonResting || r.brain.count() != 0 {
		t.Fatalf("resting: %+v, %d calls", rep.Decisions, r.brain.count())
	}
	resting = false // their next day
	if r.tick(t, base.Add(time.Hour)); r.sender.count() != 1 {
		t.Fatalf("the next day: %d sent, want 1", r.sender.count())
	}
}
