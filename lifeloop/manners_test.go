package lifeloop

import (
	"strings"
	"testing"
	"time"

	"hearth/bot"
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
