package heart

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// seed001 names the seed file the tests in this file follow.
const seed001 = "001_fed6ff3e404e5019.txt"

func moodNear(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSeed001IntentModifiers: every intent's modifier (§1, §5).
func TestSeed001IntentModifiers(t *testing.T) {
	luna := Character{Dependency: DependencyLuna}
	tests := []struct {
		name   string
		intent Intent
		mood   float64
		pride  float64
		want   float64
	}{
		{"001 §1.1 GREETING 0", Greeting, 0, 0, 0},
		{"001 §1.1 SMALL_TALK 0", SmallTalk, 0, 0, 0},
		{"001 §1.1 CLOSING 0", Closing, 0, 0, 0},
		{"001 §1.2 COMPLIMENT +5", Compliment, 0, 0, 5},
		{"001 §1.2 FLIRT +10", Flirt, 0, 0, 10},
		{"001 §1.2 LOVE_CONFESSION +15", LoveConfession, 0, 0, 15},
		{"001 §5.1 COMFORT at mood<0 +20", Comfort, -0.5, 0, 20},
		{"001 §5.1 COMFORT at mood>=0 +5", Comfort, 0, 0, 5},
		{"001 §1.3 CRITICISM -10", Criticism, 0, 0, -10},
		{"001 §1.3 INSULT -30", Insult, 0, 0, -30},
		{"001 §1.3 IGNORE -5", Ignore, 0, 0, -5},
		{"001 §5.2 APOLOGY pride 0 at mood<0 +20", Apology, -10, 0, 20},
		{"001 §5.2 APOLOGY pride 10 at mood<0 +15", Apology, -10, 10, 15},
		{"001 §5.2 APOLOGY pride 40 at mood<0 max(5) +5", Apology, -10, 40, 5},
		{"001 §5.2 APOLOGY at mood>=0 +2", Apology, 0, 10, 2},
		{"APOLOGY negative pride capped at the seed's +20", Apology, -10, -20, 20},
		{"001 §5.3 GIFT_SEND +50", GiftSend, 0, 0, 50},
		{"001 §1.4 REQUEST_NSFW 0", RequestNSFW, 0, 0, 0},
		{"001 §1.4 INVITATION 0", Invitation, 0, 0, 0},
		{"unknown intent 0", Intent("HUG"), 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := luna
			c.Pride = tc.pride
			if got := IntentModifier(tc.intent, tc.mood, c); !moodNear(got, tc.want) {
				t.Fatalf("%s: IntentModifier(%s, mood %v, pride %v) = %v, want %v", seed001, tc.intent, tc.mood, tc.pride, got, tc.want)
			}
		})
	}
}

// TestSeed001StepMood covers §3.2, §3.3, §4 and §5 as single steps.
func TestSeed001StepMood(t *testing.T) {
	nana := Character{Dependency: DependencyNana}
	luna := Character{Dependency: DependencyLuna}
	vesper := Character{Dependency: DependencyVesper}
	per := func(i Intent, s float64) Perception { return Perception{Intent: i, Sentiment: s} }
	tests := []struct {
		name      string
		mood      float64
		last      []Intent
		p         Perception
		c         Character
		wantMood  float64
		wantDelta float64
		wantStim  float64
		grind     bool
	}{
		// §3.3: sentiment 0.5 compliment: base 5 + 5 = 10 stimulus.
		{"001 §3.3 Nana dependency 1.5", 0, nil, per(Compliment, 0.5), nana, 15, 15, 10, false},
		{"001 §3.3 Luna dependency 1.0", 0, nil, per(Compliment, 0.5), luna, 10, 10, 10, false},
		{"001 §3.3 Vesper dependency 0.5", 0, nil, per(Compliment, 0.5), vesper, 5, 5, 10, false},
		{"001 §3.1 decay 0.9 toward 0", 50, nil, per(SmallTalk, 0), luna, 45, 0, 0, false},
		{"001 §3.2 loss aversion: negative sentiment counts double", 0, nil, per(SmallTalk, -0.5), luna, -10, -10, -10, false},
		{"001 §3.2 positive sentiment single", 0, nil, per(SmallTalk, 0.5), luna, 5, 5, 5, false},
		{"001 §3.2 loss aversion plus criticism", 10, nil, per(Criticism, -0.5), luna, 9 - 20, -20, -20, false},
		{"001 §1.3 insult at full hostility", 0, nil, per(Insult, -1), luna, -50, -50, -50, false},
		{"001 §5.1 COMFORT at mood<0 uses mood before turn", -10, nil, per(Comfort, 0), luna, -9 + 20, 20, 20, false},
		{"001 §5.1 COMFORT at mood>=0", 10, nil, per(Comfort, 0), luna, 9 + 5, 5, 5, false},
		{"001 §5.2 APOLOGY pride 10 at mood<0", -20, nil, per(Apology, 0), Character{1, 10}, -18 + 15, 15, 15, false},
		{"001 §5.2 APOLOGY pride 40 at mood<0", -20, nil, per(Apology, 0), Character{1, 40}, -18 + 5, 5, 5, false},
		{"001 §5.2 APOLOGY at mood>=0", 20, nil, per(Apology, 0), Character{1, 10}, 18 + 2, 2, 2, false},
		{"001 §4 anti-grind on the 3rd FLIRT", 0, []Intent{Flirt, Flirt}, per(Flirt, 0), luna, 1, 1, 10, true},
		{"001 §4 2nd FLIRT not yet ground", 0, []Intent{Flirt}, per(Flirt, 0), luna, 10, 10, 10, false},
		{"001 §4 FLIRT run broken by small talk", 0, []Intent{Flirt, SmallTalk, Flirt}, per(Flirt, 0), luna, 10, 10, 10, false},
		{"001 §4 anti-grind COMPLIMENT", 0, []Intent{Compliment, Compliment}, per(Compliment, 0), luna, 0.5, 0.5, 5, true},
		{"001 §4 anti-grind LOVE_CONFESSION", 0, []Intent{LoveConfession, LoveConfession}, per(LoveConfession, 0), luna, 1.5, 1.5, 15, true},
		{"001 §4 no anti-grind for COMFORT", -10, []Intent{Comfort, Comfort}, per(Comfort, 0), luna, -9 + 20, 20, 20, false},
		{"001 §4 anti-grind scales sentiment too", 0, []Intent{Flirt, Flirt}, per(Flirt, 1), luna, 2, 2, 20, true},
		{"001 §3.2 clamp at +100", 100, nil, per(LoveConfession, 1), nana, 100, 37.5, 25, false},
		{"001 §3.2 clamp at -100", -100, nil, per(Insult, -1), nana, -100, -75, -50, false},
		{"DESIGN §3.4 REQUEST_NSFW moves no mood, decay applies", 20, nil, per(RequestNSFW, 1), luna, 18, 0, 0, false},
		{"DESIGN §3.4 INVITATION moves no mood, even hostile", 20, nil, per(Invitation, -1), luna, 18, 0, 0, false},
		{"001 §5.4 GIFT_SEND from perception counts as FLIRT", 0, nil, per(GiftSend, 0), luna, 10, 10, 10, false},
		{"001 §2 unknown intent counts as SMALL_TALK", 0, nil, per("HUG", 0), luna, 0, 0, 0, false},
		{"sentiment beyond 1 is clamped", 0, nil, per(SmallTalk, 7), luna, 10, 10, 10, false},
		{"NaN sentiment counts 0", 0, nil, per(SmallTalk, math.NaN()), luna, 0, 0, 0, false},
		{"NaN mood counts 0", math.NaN(), nil, per(Flirt, 0), luna, 10, 10, 10, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := StepMood(tc.mood, tc.last, tc.p, tc.c)
			if !moodNear(got.Mood, tc.wantMood) || !moodNear(got.Delta, tc.wantDelta) || !moodNear(got.Stimulus, tc.wantStim) || got.AntiGrind != tc.grind {
				t.Fatalf("%s: StepMood(%v, %v, %+v, %+v) = %+v, want mood %v delta %v stimulus %v grind %v",
					seed001, tc.mood, tc.last, tc.p, tc.c, got, tc.wantMood, tc.wantDelta, tc.wantStim, tc.grind)
			}
			wantLast := ParseIntent(string(tc.p.Intent))
			if got.Intents[len(got.Intents)-1] != wantLast {
				t.Fatalf("last intent %s, want %s", got.Intents[len(got.Intents)-1], wantLast)
			}
		})
	}
}

// TestSeed001Gift covers §5.3: +50 × dependency after decay, exempt from
// anti-grind, appended as GIFT_SEND.
func TestSeed001Gift(t *testing.T) {
	t.Run("001 §5.3 GIFT_SEND +50", func(t *testing.T) {
		got := GiftStep(10, nil, Character{Dependency: DependencyLuna})
		if !moodNear(got.Mood, 59) || !moodNear(got.Delta, 50) || got.Intents[0] != GiftSend {
			t.Fatalf("%s: %+v", seed001, got)
		}
	})
	t.Run("001 §5.3 GIFT_SEND exempt from anti-grind", func(t *testing.T) {
		c := Character{Dependency: DependencyVesper}
		var mood float64
		var last []Intent
		for i := 0; i < 4; i++ {
			s := GiftStep(mood, last, c)
			if s.AntiGrind || !moodNear(s.Delta, 25) {
				t.Fatalf("%s: gift %d: %+v", seed001, i+1, s)
			}
			mood, last = s.Mood, s.Intents
		}
		if !slices.Equal(last, []Intent{GiftSend, GiftSend, GiftSend, GiftSend}) {
			t.Fatalf("intents %v", last)
		}
	})
	t.Run("001 §5.3 gift clamps at +100", func(t *testing.T) {
		if got := GiftStep(90, nil, Character{Dependency: DependencyNana}); got.Mood != MoodMax {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("gifts do not reset a FLIRT streak's grind", func(t *testing.T) {
		// FLIRT, GIFT, FLIRT, FLIRT: the last three are not all FLIRT.
		last := []Intent{Flirt, GiftSend, Flirt}
		if s := StepMood(0, last, Perception{Intent: Flirt}, DefaultCharacter()); s.AntiGrind {
			t.Fatalf("ground across a gift: %+v", s)
		}
	})
}

// TestLastIntentsLimit: last_intents keeps 10 and never aliases the input.
func TestLastIntentsLimit(t *testing.T) {
	var last []Intent
	for i := 0; i < 15; i++ {
		last = StepMood(0, last, Perception{Intent: Greeting}, DefaultCharacter()).Intents
	}
	if len(last) != LastIntentsLimit {
		t.Fatalf("len %d", len(last))
	}
	in := make([]Intent, 10, 20)
	for i := range in {
		in[i] = Greeting
	}
	a := StepMood(0, in, Perception{Intent: Flirt}, DefaultCharacter()).Intents
	b := StepMood(0, in, Perception{Intent: Insult}, DefaultCharacter()).Intents
	if a[9] != Flirt || b[9] != Insult || len(a) != 10 || in[9] != Greeting {
		t.Fatalf("aliasing: a %v b %v in %v", a, b, in)
	}
}

// TestStepMoodInvariants drives 20,000 random steps (fixed seed) and checks
// what must always hold: mood within ±100, last_intents at most 10 and
// ending with this turn, anti-grind exactly when the seed 001 §4 condition
// holds, and the step equal to decay plus delta before clamping.
func TestStepMoodInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	intents := Intents()
	mood := 0.0
	var last []Intent
	for i := 0; i < 20000; i++ {
		c := Character{Dependency: []float64{DependencyNana, DependencyLuna, DependencyVesper}[rng.IntN(3)], Pride: rng.Float64() * 50}
		var st MoodStep
		if rng.IntN(20) == 0 {
			st = GiftStep(mood, last, c)
		} else {
			p := Perception{Intent: intents[rng.IntN(len(intents))], Sentiment: rng.Float64()*2.4 - 1.2}
			st = StepMood(mood, last, p, c)
			cur := st.Intents[len(st.Intents)-1]
			if cur == GiftSend {
				t.Fatalf("step %d: a perceived GIFT_SEND counted as a gift", i)
			}
			wantGrind := len(st.Intents) >= 3 && (cur == Flirt || cur == Compliment || cur == LoveConfession) &&
				st.Intents[len(st.Intents)-2] == cur && st.Intents[len(st.Intents)-3] == cur
			if st.AntiGrind != wantGrind {
				t.Fatalf("step %d: anti-grind %v for %v", i, st.AntiGrind, st.Intents)
			}
		}
		if st.Mood < MoodMin || st.Mood > MoodMax || math.IsNaN(st.Mood) {
			t.Fatalf("step %d: mood %v", i, st.Mood)
		}
		if want := clampMood(mood*MoodDecay + st.Delta); !moodNear(st.Mood, want) {
			t.Fatalf("step %d: mood %v, want clamp(%v*0.9 + %v) = %v", i, st.Mood, mood, st.Delta, want)
		}
		if len(st.Intents) > LastIntentsLimit {
			t.Fatalf("step %d: %d intents", i, len(st.Intents))
		}
		mood, last = st.Mood, st.Intents
	}
}
