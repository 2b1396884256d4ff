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
