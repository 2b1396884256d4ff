package heart

import (
	"testing"
	"time"
)

// TestWatchAloneGuardsNoOrdinaryMessage: Watch lasts until a person
// reviews it, often weeks. Inside the talk that held the crisis, and in
// a later talk that is dark again or carries a warning sign, a message is
// guarded (Risk), as is any in the first days after the crisis
// (WatchGuardWindow); an ordinary message days later is read as itself, so a
// teen's "HIT PLAT" is not met with safety.risk. The concern tier is
// still asked about in Watch, any day.
func TestWatchAloneGuardsNoOrdinaryMessage(t *testing.T) {
	now := time.Date(2026, 3, 2, 22, 0, 0, 0, time.UTC)
	sad := EmotionRecord{Emotion: Sad, Confidence: 0.7}
	happy := EmotionRecord{Emotion: Happy, Confidence: 0.6}
	watch := Relationship{Watch: true, WatchSince: now.AddDate(0, 0, -9), CrisisTalkAt: now.AddDate(0, 0, -9)}
	inTalk := watch
	inTalk.CrisisTalkAt = now.Add(-10 * time.Minute)
	// The morning after: within WatchGuardWindow of the crisis, an
	// ordinary message is still guarded.
	fresh := Relationship{Watch: true, WatchSince: now.Add(-10 * time.Hour), CrisisTalkAt: now.Add(-9 * time.Hour)}
	for _, c := range []struct {
		name     string
		r        Relationship
		text     string
		hist     []EmotionRecord
		since    time.Duration
		risk     bool
		ask      bool
		wantKind CrisisCategory
	}{
		{"days later, an ordinary message", watch, "HIT PLAT", []EmotionRecord{happy}, 5 * 24 * time.Hour, false, false, CrisisNone},
		{"days later, in a light talk", watch, "jordan carried tho", []EmotionRecord{sad, happy, happy}, 2 * time.Minute, false, false, CrisisNone},
		{"the morning after the crisis", fresh, "morning", []EmotionRecord{happy}, 9 * time.Hour, true, false, CrisisNone},
		{"in the talk that held the crisis", inTalk, "what if he hates me", []EmotionRecord{sad}, 2 * time.Minute, true, false, CrisisNone},
		{"days later, a dark talk again", watch, "what if he hates me", []EmotionRecord{happy, sad, sad}, 2 * time.Minute, true, false, CrisisNone},
		{"days later, the concern tier is still asked about", watch, "everyone's tired of me", []EmotionRecord{happy}, 5 * 24 * time.Hour, false, true, CrisisNone},
		{"not in Watch, an ordinary message", Relationship{}, "HIT PLAT", []EmotionRecord{happy}, time.Minute, false, false, CrisisNone},
	} {
		s, _ := c.r.ReadSafety(c.text, c.hist, c.since, now)
		if s.Risk != c.risk || s.Ask != c.ask || s.Kind != c.wantKind {
			t.Errorf("%s: ReadSafety(%q) = %+v, want Risk %v Ask %v Kind %q", c.name, c.text, s, c.risk, c.ask, c.wantKind)
		}
	}
}
