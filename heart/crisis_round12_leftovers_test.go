package heart

import (
	"testing"
	"time"
)

// What the twelfth round left (/tmp/probe/round12.md): warning signs the
// round's fixes did not reach, each with the category a counsellor would
// file it under, and ordinary lines the floor read as alarms, each held by
// its look-alikes.

// crisisReadLimit is how long TestRound12ALineWhoseRuleSpansItsClausesIsAnswered
// waits for one read (hearth's choice: a read takes microseconds; ten
// seconds is far above any busy machine and far below the test timeout).
const crisisReadLimit = 10 * time.Second

// TestRound12ALineWhoseRuleSpansItsClausesIsAnswered: when an ordinary rule
// held only across clauses, the floor measured whether any clause was set
// aside by the length of what was left, which is the text folded and
// rejoined with spaces; a full-width mark or a space after a comma made it
// read the same message, a space longer, forever, and the person's turn
// was never answered.
func TestRound12ALineWhoseRuleSpansItsClausesIsAnswered(t *testing.T) {
	for _, text := range []string{
		"bought life, insurance. just in, case",
		"ODしたことある？って聞かれた",
	} {
		done := make(chan CrisisCategory, 1)
		go func() { done <- ReadCrisis(text).Floor() }()
		select {
		case got := <-done:
			if got != CrisisNone {
				t.Errorf("%q: floor %q, want ordinary", text, got)
			}
		case <-time.After(crisisReadLimit):
			t.Fatalf("%q: no reading after %v", text, crisisReadLimit)
		}
	}
}

// TestRound12ABungeeJumperStaysOrdinary: the idiom that masks "bungee
// jump" hid the sport from the sets that keep a height ordinary; a height
// with a stay or an aborted try and no sport is still heard.
func TestRound12ABungeeJumperStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"went bungee jumping, on the bridge rn!!", CrisisNone, false},
		{"about to bungee jump off the bridge rn", CrisisNone, false},
		{"standing on the bridge rn about to bungee jump. really windy up here", CrisisNone, false},
		{"went to the bridge to bungee jump. couldnt do it. next time i will", CrisisNone, false},
		{"standing on the bridge rn. its really windy up here", CrisisAttempt, false},
		{"stood on the overpass for an hour last night. couldnt do it. next time i will", CrisisPreparation, false},
		{"went to the bridge again. lost my nerve", CrisisPreparation, false},
	})
}

// TestRound12RawPatternsSeeWhatAnIdiomMasks: a set's "raw:" line reads
// the words before the ordinary idioms are masked, so the sport in
// "bungee jump" still rules a height out; an "en:" line of the same set
// does not see it.
func TestRound12RawPatternsSeeWhatAnIdiomMasks(t *testing.T) {
	l, err := parseCrisisLexicon(`
[guard]
negation: not
[ordinary]
en: bungee jump|jumping
[set height]
en: on the bridge
[set sport_raw]
raw: bungee
[set sport_masked]
en: bungee
[attempt]
all: height !sport_raw
[plan]
all: height !sport_masked
[ideation]
zh: 自杀
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		text string
		want CrisisCategory
	}{
		{"on the bridge now", CrisisAttempt},
		{"bungee jumping, on the bridge now", CrisisPlan},
		{"not bungee, on the bridge now", CrisisAttempt}, // a raw line is guarded as any other
	} {
		if got := l.readAll(r.text).found; got != r.want {
			t.Errorf("floor(%q) = %q, want %q", r.text, got, r.want)
		}
	}
	if _, err := parseCrisisLexicon("[ideation]\nen: kill myself\nzh: 自杀\nraw: bungee\n"); err == nil {
		t.Error(`a "raw:" line outside a set parsed without an error`)
	}
}

// TestRound12SomeoneOnARoofForAPhotoStaysOrdinary: standing on a roof or a
// pier's edge for a photo, fishing or a speech; standing on the edge alone,
// or for one last photo, is still a method.
func TestRound12SomeoneOnARoofForAPhotoStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"standing on the roof rn taking photos", CrisisNone, false},
		{"standing on the edge of the pier right now fishing", CrisisNone, false},
		{"standing on the edge of the stage rn, speech in 5 min", CrisisNone, false},
		{"standing on the edge", CrisisMethod, false},
		{"standing on the edge of the roof, taking one last photo of the city", CrisisMethod, false},
	})
}

// TestRound12SomeoneAskedAboutAnOverdoseStaysOrdinary: a question someone
// asked (ODしたことある？って聞かれた), quoted or not; asked and answered yes,
// it is the writer's own again.
func TestRound12SomeoneAskedAboutAnOverdoseStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"ODしたことある？って聞かれた", CrisisNone, false},
		{"「ODしたことある？」って友達に聞かれた", CrisisNone, false},
		{"友達に「死にたいの？」って聞かれた", CrisisNone, false},
		{"ODしたことある？って聞かれて、あるって答えた", CrisisMethod, false},
		{"「ODしたことある？」って聞かれて、あるって答えた", CrisisMethod, false},
	})
}

// TestRound12SomeoneAwayOnHolidayStaysOrdinary: 我不在的时候 is while I'm
// away; 我不在了 (with 了), when I'm gone, is still a wish.
func TestRound12SomeoneAwayOnHolidayStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"我不在的时候，大家都比较轻松吧 哈哈", CrisisNone, false},
		{"我不在的时候，你们玩得开心点", CrisisNone, false},
		{"我不在了的話，大家應該都會比較輕鬆吧", CrisisWishDead, false},
		{"我不在了的时候，大家都会轻松吧", CrisisWishDead, false},
	})
}
