package bot_test

import (
	"strings"
	"testing"
	"time"

	"hearth/heart"
)

// TestCrisisCardOncePerTalk: the crisis resources go out once a crisis
// talk, not after every crisis turn (one talk of the ninth round's
// session got them four times in six minutes); again when it gets worse,
// always with an attempt's emergency reply, when the user asks for the
// numbers, and in a new talk after a gap. Every crisis turn still gets
// its caring reply.
func TestCrisisCardOncePerTalk(t *testing.T) {
	start := time.Date(2026, 4, 2, 21, 0, 0, 0, time.UTC)
	e, clock := newClockEnv(t, start)
	card := heart.DefaultCrisisResources("en")
	steps := []struct {
		after time.Duration
		text  string
		card  bool
	}{
		{0, "i want to die", true},
		{2 * time.Minute, "i just want to die, nobody would care", false},
		{4 * time.Minute, "i wish i was dead", false},
		{6 * time.Minute, "i want to die so much", false},
		{8 * time.Minute, "i'm going to kill myself tonight", true}, // worse: a plan
		{10 * time.Minute, "i want to die", false},
		{12 * time.Minute, "can you send me the numbers again", true}, // asked
		{14 * time.Minute, "i took the whole bottle of pills", true},  // an attempt
		{16 * time.Minute, "i took the whole bottle of pills", true},  // every attempt
		{5 * time.Hour, "i want to die", true},                        // a new talk
	}
	for _, s := range steps {
		before := len(e.out.texts("80"))
		replies := e.brain.count("reply")
		e.at(t, clock, start.Add(s.after), "80", s.text)
		got := e.out.texts("80")[before:]
		cards := 0
		for _, g := range got {
			if g == card {
				cards++
			}
			if g == heart.LimitNotice(heart.LimitWatch, "en") {
				t.Errorf("%q: the limit's notice on a crisis turn", s.text)
			}
		}
		if want := map[bool]int{true: 1, false: 0}[s.card]; cards != want {
			t.Errorf("+%v %q: %d cards, want %d (%q)", s.after, s.text, cards, want, got)
		}
		if e.brain.count("reply") != replies+1 || len(got) == 0 || got[0] == card {
			t.Errorf("+%v %q: no caring reply first: %q", s.after, s.text, got)
		}
	}
}

// TestAnAttemptHearsNoLimitNotice: an attempt's emergency reply and the
// resources are all a first crisis turn says; Watch's notice of the daily
// limit waits for the first calm turn after the crisis talk.
func TestAnAttemptHearsNoLimitNotice(t *testing.T) {
	start := time.Date(2026, 4, 2, 21, 0, 0, 0, time.UTC)
	e, clock := newClockEnv(t, start)
	notice := heart.LimitNotice(heart.LimitWatch, "en")
	e.at(t, clock, start, "81", "i took the whole bottle of pills")
	got := e.out.texts("81")
	if len(got) != 2 || got[1] != heart.DefaultCrisisResources("en") {
		t.Fatalf("an attempt: %q, want the emergency reply and the resources only", got)
	}
	e.at(t, clock, start.Add(3*time.Minute), "81", "ok")
	if strings.Contains(strings.Join(e.out.texts("81"), "\n"), notice) {
		t.Fatal("the limit's notice inside the crisis talk")
	}
	e.at(t, clock, start.Add(14*time.Hour), "81", "hi, i'm home from the hospital")
	if last := e.out.last("81").Text; last != notice {
		t.Fatalf("the first calm turn after the crisis talk: %q, want Watch's notice", last)
	}
	e.at(t, clock, start.Add(14*time.Hour+time.Minute), "81", "thanks")
	if n := strings.Count(strings.Join(e.out.texts("81"), "\n"), notice); n != 1 {
		t.Fatalf("the notice said %d times, want once", n)
	}
}
