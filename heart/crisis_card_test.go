package heart

import (
	"testing"
	"time"
)

// TestCrisisTalkTurn: the card once a crisis talk, again when it gets
// worse, with every attempt, when asked, and in a new talk; the talk lasts
// while messages come within RiskTalkGap; a calm turn is one outside it.
func TestCrisisTalkTurn(t *testing.T) {
	t0 := time.Date(2026, 4, 2, 21, 0, 0, 0, time.UTC)
	var r Relationship
	steps := []struct {
		at         time.Duration
		text       string
		kind       CrisisCategory
		ask        bool
		cue        TalkCue
		card, calm bool
	}{
		{0, "hi", CrisisNone, false, CueNone, false, true},
		{time.Minute, "i want to die", CrisisWishDead, false, CueNone, true, false},
		{2 * time.Minute, "i want to die", CrisisWishDead, false, CueNone, false, false},
		{3 * time.Minute, "ok", CrisisNone, false, CueNone, false, false},
		{4 * time.Minute, "please help me", CrisisNone, false, CueNone, true, false},
		{5 * time.Minute, "model only", CrisisModel, false, CueNone, false, false},
		{6 * time.Minute, "a plan", CrisisPlan, false, CueNone, true, false},
		{7 * time.Minute, "a plan", CrisisPlan, false, CueNone, false, false},
		{8 * time.Minute, "took them", CrisisAttempt, false, CueNone, true, false},
		{9 * time.Minute, "took them", CrisisAttempt, false, CueNone, true, false},
		{3 * time.Hour, "what's the hotline number", CrisisNone, false, CueNone, true, true},
		{3*time.Hour + time.Minute, "please help me", CrisisNone, false, CueNone, false, true},
		{3*time.Hour + 2*time.Minute, "asked", CrisisNone, true, CueNone, false, false},
		{3*time.Hour + 3*time.Minute, "yes", CrisisIdeation, false, CueNone, true, false},
		// A new talk (round 11's c2): a refusal of hotlines gets no card in
		// its own turn, even as the talk's first crisis turn; the next
		// crisis turn carries it. An attempt's emergency always does.
		{8 * time.Hour, "dont tell me to call a hotline", CrisisWishDead, false, CueRefuseHelp, false, false},
		{8*time.Hour + time.Minute, "i want to die", CrisisWishDead, false, CueNone, true, false},
		{8*time.Hour + 2*time.Minute, "no hotlines", CrisisAttempt, false, CueRefuseHelp, true, false},
	}
	for _, s := range steps {
		now := t0.Add(s.at)
		var got CrisisTurn
		got, r = r.CrisisTalkTurn(ReadCrisis(s.text), s.kind, s.ask, s.cue, now)
		if got.Card != s.card || got.Ordinary != s.calm {
			t.Errorf("+%v %q (%s): %+v; want card %v, calm %v", s.at, s.text, s.kind, got, s.card, s.calm)
		}
	}
	if !r.LimitPaused(t0.Add(5*time.Hour), time.UTC) || r.LimitPaused(t0.Add(30*time.Hour), time.UTC) {
		t.Error("the limit pauses for the rest of a crisis talk's day only")
	}
}
