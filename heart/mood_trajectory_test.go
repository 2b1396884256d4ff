package heart

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// update rewrites the golden files under testdata/ instead of comparing.
var update = flag.Bool("update", false, "rewrite heart/testdata golden files")

// trajectoryStep is one event of a scripted conversation: a perceived user
// turn, or a verified gift when gift is set.
type trajectoryStep struct {
	intent    Intent
	sentiment float64
	gift      bool
}

// trajectoryScript is 20 turns mixing a FLIRT streak (anti-grind from the
// third), an INSULT, apologies at negative mood, COMFORT at negative and
// positive mood, a verified gift, an NSFW request and a criticism.
func trajectoryScript() []trajectoryStep {
	return []trajectoryStep{
		{intent: Greeting, sentiment: 0.3},
		{intent: SmallTalk, sentiment: 0.1},
		{intent: Flirt, sentiment: 0.6},
		{intent: Flirt, sentiment: 0.6},
		{intent: Flirt, sentiment: 0.6}, // third FLIRT: anti-grind
		{intent: Flirt, sentiment: 0.7}, // still grinding
		{intent: Compliment, sentiment: 0.5},
		{intent: Insult, sentiment: -0.9},
		{intent: Ignore, sentiment: -0.2},
		{intent: Apology, sentiment: 0.2}, // mood < 0: pride-limited
		{intent: SmallTalk, sentiment: -0.1},
		{intent: Comfort, sentiment: 0.4}, // mood < 0: +20
		{intent: SmallTalk, sentiment: 0},
		{gift: true},
		{intent: Criticism, sentiment: -0.6},
		{intent: Comfort, sentiment: 0.5},     // mood ≥ 0: +5
		{intent: RequestNSFW, sentiment: 0.8}, // moves no mood
		{intent: LoveConfession, sentiment: 0.9},
		{intent: LoveConfession, sentiment: 0.9},
		{intent: Closing, sentiment: 0.2},
	}
}

// runTrajectory renders the script for one character as golden text.
func runTrajectory(c Character) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s mood trajectory, dependency %.1f pride %.0f\n", seed001, c.Dependency, c.Pride)
	fmt.Fprintf(&b, "# turn intent sentiment mood_before -> mood_after delta stimulus anti_grind\n")
	var mood float64
	var last []Intent
	for i, s := range trajectoryScript() {
		var st MoodStep
		name, sent := string(s.intent), s.sentiment
		if s.gift {
			st = GiftStep(mood, last, c)
			name, sent = "GIFT_SEND(verified)", 0
		} else {
			st = StepMood(mood, last, Perception{Intent: s.intent, Sentiment: s.sentiment}, c)
		}
		fmt.Fprintf(&b, "%2d %-20s %+.2f %8.4f -> %8.4f %+9.4f %+6.1f %v\n", i+1, name, sent, mood, st.Mood, st.Delta, st.Stimulus, st.AntiGrind)
		mood, last = st.Mood, st.Intents
	}
	fmt.Fprintf(&b, "last_intents %v\n", last)
	return b.Bytes()
}

// TestSeed001Trajectories compares 20-turn trajectories of the three seed
// 001 §3.3 characters with golden files (go test -run Trajectories -update
// rewrites them).
func TestSeed001Trajectories(t *testing.T) {
	for _, tc := range []struct {
		file string
		c    Character
	}{
		{"trajectory_nana.golden", Character{Dependency: DependencyNana, Pride: 0}},
		{"trajectory_luna.golden", Character{Dependency: DependencyLuna, Pride: 10}},
		{"trajectory_vesper.golden", Character{Dependency: DependencyVesper, Pride: 40}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got := runTrajectory(tc.c)
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s differs from golden:\n--- got\n%s\n--- want\n%s", path, got, want)
			}
		})
	}
}
