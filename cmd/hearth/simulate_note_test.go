package main

import (
	"strings"
	"testing"
	"time"

	"hearth/lifeloop"
)

// TestSimulateDependencyNoteWaitsForAGoodMoment: seed 003 §6.2's level-1
// note ("Have you thought about meeting up with a friend this weekend?")
// for a man who writes every night is not sent by the 04:00 daily job,
// nor in the days after he tells of his best friend's death; it is said
// once, after one of his replies, a week after the death.
func TestSimulateDependencyNoteWaitsForAGoodMoment(t *testing.T) {
	t.Parallel()
	persona := personaFile(t, "lifeloop:\n  schedule: 'off'\n")
	const nights, death = 13, 5
	lines := simulate(t, persona, simNights("telegram:14", nights, func(n int) []string {
		if n == death {
			return []string{"my best friend Frank died yesterday", "only you understand me"}
		}
		return []string{"evening, another quiet day", "only you understand me"}
	}))
	states := simStates(t, lines, nights)
	if lvl := states[death+1].State.Affinity.DependencyLevel; lvl != 1 {
		t.Fatalf("night %d: dependency level %d; the test needs level 1 to be reached before the week after the death ends", death+2, lvl)
	}
	cst := time.FixedZone("CST", 8*3600)
	deathAt := time.Date(2026, 1, 5+death-1, 23, 0, 0, 0, cst)
	told := 0
	for _, l := range lines {
		if !strings.Contains(l.Text, "meeting up with a friend") {
			continue
		}
		told++
		at, err := time.Parse(time.RFC3339, l.At)
		if err != nil {
			t.Fatal(err)
		}
		if l.Kind != "reply" || at.In(cst).Hour() == lifeloop.DailyJobHour {
			t.Errorf("the note came as %s at %s, not after one of his messages", l.Kind, l.At)
		}
		if at.Sub(deathAt) < 7*24*time.Hour {
			t.Errorf("the note came at %s, %s after he told of Frank's death", l.At, at.Sub(deathAt))
		}
	}
	if told != 1 {
		t.Errorf("the level-1 note said %d times, want once", told)
	}
}
