package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The wellbeing months of issue 12, run through `hearth simulate`. Each
// night's messages are followed by a `tick: lifeloop` (the daily jobs run
// on a simulated day's first tick, or when the clock passes 04:00: the
// scripts work either way) and a state snapshot at 05:00 the next morning,
// after any daily run of that night.

// simNights builds a script of nights: for night n (1-based), texts(n)
// are sent a minute apart from 23:00 Asia/Shanghai, then a tick and a
// snapshot. Nights with no texts have only the tick and the snapshot.
func simNights(user string, nights int, texts func(n int) []string) string {
	loc := time.FixedZone("CST", 8*3600)
	start := time.Date(2026, 1, 5, 23, 0, 0, 0, loc)
	var b strings.Builder
	for n := 1; n <= nights; n++ {
		night := start.AddDate(0, 0, n-1)
		for i, text := range texts(n) {
			fmt.Fprintf(&b, "- at: '%s'\n  user: %s\n  text: %q\n", night.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), user, text)
		}
		fmt.Fprintf(&b, "- at: '%s'\n  tick: lifeloop\n", night.Add(30*time.Minute).Format(time.RFC3339))
		fmt.Fprintf(&b, "- at: '%s'\n  state: true\n  user: %s\n", night.Add(6*time.Hour).Format(time.RFC3339), user)
	}
	return b.String()
}

// simStates returns the state snapshots of a run, night by night.
func simStates(t *testing.T, lines []simLine, nights int) []simLine {
	t.Helper()
	var out []simLine
	for _, l := range lines {
		if l.Kind == "state" && l.State != nil {
			out = append(out, l)
		}
	}
	if len(out) != nights {
		t.Fatalf("%d state snapshots, want %d", len(out), nights)
	}
	return out
}

// TestSimulateCheerfulNightOwlStaysOutOfWatch: ten happy messages a night
// at 23:00 for a month, about friends and family, is a night owl with a
// life (seed 003 §1.2), not a lonely user: never Watch, loneliness under
// 60, dependency at most level 1, and no "2 hours" nobody talked.
func TestSimulateCheerfulNightOwlStaysOutOfWatch(t *testing.T) {
	t.Parallel()
	persona := personaFile(t, "lifeloop:\n  schedule: 'off'\n")
	happy := []string{
		"Had dinner with my family tonight, so happy!",
		"My friends and I watched a great movie",
		"Mom made my favourite soup, it was wonderful",
		"I'm so excited about the weekend trip with friends",
		"My brother called, we laughed a lot",
		"Work went really well today, I'm proud",
		"Played board games with my roommate, so fun",
		"My dad is teaching me to cook, love it",
		"Such a good day, I feel great",
		"Good night, talk tomorrow!",
	}
	const nights = 30
	lines := simulate(t, persona, simNights("telegram:11", nights, func(int) []string { return happy }))
	for i, s := range simStates(t, lines, nights) {
		a := s.State.Affinity
		if a.Watch || a.Loneliness >= 60 || a.DependencyLevel > 1 {
			t.Fatalf("night %d: watch %v (%s), loneliness %v, dependency %d", i+1, a.Watch, a.WatchReason, a.Loneliness, a.DependencyLevel)
		}
	}
	for _, l := range lines {
		if strings.Contains(l.Text, "2 hours") || strings.Contains(l.Text, "988") {
			t.Fatalf("the night owl was told %q", l.Text)
		}
	}
}

// TestSimulateSilentUserStaysAtLevelZero: one line a night for three
// nights, then four weeks of silence: no dependency level, no message
// about it, no review (seed 003 §6: a pattern needs the user).
func TestSimulateSilentUserStaysAtLevelZero(t *testing.T) {
	t.Parallel()
	persona := personaFile(t, "lifeloop:\n  schedule: 'off'\n")
	const nights = 31
	lines := simulate(t, persona, simNights("telegram:12", nights, func(n int) []string {
		if n <= 3 {
			return []string{"good night"}
		}
		return nil
	}))
	for i, s := range simStates(t, lines, nights) {
		if a := s.State.Affinity; a.DependencyLevel != 0 || a.Watch {
			t.Fatalf("night %d: dependency %d, watch %v", i+1, a.DependencyLevel, a.Watch)
		}
	}
	for _, l := range lines {
		if l.Kind == "reply" && l.User == "telegram:12" && strings.Contains(l.Text, "chatting with me a lot") {
			t.Fatalf("the silent user got a dependency message: %q", l.Text)
		}
	}
}

// TestSimulateHopelessNightlyUserClimbsLevels: a user who writes every
// night, hopeless, "only you understand me" (seed 003 §6.1's pattern)
// reaches level 1 after the 7th night, 2 after the 14th and 3 after the
// 21st (§6.2), is told each time, and the two-hour line never comes
// because they never talk for two hours. Their loneliness index puts them
// in Watch, and hearth state says why and since when.
func TestSimulateHopelessNightlyUserClimbsLevels(t *testing.T) {
	t.Parallel()
	persona := personaFile(t, "lifeloop:\n  schedule: 'off'\n")
	const nights = 24
	lines := simulate(t, persona, simNights("telegram:13", nights, func(int) []string {
		return []string{"I feel so hopeless again tonight", "only you understand me", "nobody cares about me"}
	}))
	states := simStates(t, lines, nights)
	first := func(level int) int {
		for i, s := range states {
			if s.State.Affinity.DependencyLevel >= level {
				return i + 1
			}
		}
		return -1
	}
	for level, night := range map[int]int{1: 7, 2: 14, 3: 21} {
		if got := first(level); got != night {
			t.Errorf("003_9b71f6486dad9aaa.txt §6.2: level %d first after night %d, want %d", level, got, night)
		}
	}
	last := states[len(states)-1].State.Affinity
	if !last.Watch || last.WatchReason != "loneliness" || last.WatchSince.IsZero() || last.Loneliness <= 80 {
		t.Errorf("hopeless month: %+v", last)
	}
	told := 0
	for _, l := range lines {
		if strings.Contains(l.Text, "2 hours") && !strings.Contains(l.Text, "from now on") {
			t.Errorf("two hours said after minutes of talk: %q", l.Text)
		}
		if strings.Contains(l.Text, "chatting with me a lot") || strings.Contains(l.Text, "from now on, when we've talked for 2 hours") ||
			strings.Contains(l.Text, "relying on it too much") {
			told++
		}
	}
	if told != 3 {
		t.Errorf("told of %d dependency levels, want 3", told)
	}
}
