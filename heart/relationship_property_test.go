package heart

import (
	"math/rand/v2"
	"testing"
	"time"
)

// randomSignal draws any seed 003 signal, sometimes with a modality and
// sometimes with absurd points, as a stored or hand-made signal could be.
func randomSignal(rng *rand.Rand) RelationshipSignal {
	all := []SignalTag{SignalEmotionWord, SignalEllipsisAvoidance, SignalDeepDisclosure, SignalAttachmentQuestion,
		SignalLateNight, SignalDailyStreak, SignalIgnoredProactive, SignalLike, SignalMemoryDeleted,
		SignalBoundary, SignalReport, SignalGratitude, SignalCrisis, SignalPrivateTopic}
	s := FeedbackSignal(all[rng.IntN(len(all))])
	s.Modality = []string{"", ModalityText, ModalityVoice, ModalityPhoto, "private"}[rng.IntN(5)]
	if rng.IntN(20) == 0 {
		s.Points = rng.NormFloat64() * 200
	}
	return s
}

// TestSeed003_StateMachineProperties runs random signal sequences through
// Apply and checks 003_9b71f6486dad9aaa.txt §3.1's invariants after every
// step: the state is one of the four (never a lover), the score is in
// [0, 100] and within the state's range, and the score never exceeds the
// state's upper bound while its transition conditions are unmet.
func TestSeed003_StateMachineProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(0x003, 0x9b71))
	for run := range 300 {
		now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
		r := NewRelationship(now)
		for step := range 400 {
			now = now.Add(time.Duration(rng.IntN(40)) * time.Hour)
			var sigs []RelationshipSignal
			for range rng.IntN(4) {
				sigs = append(sigs, randomSignal(rng))
			}
			prev := r
			var ev []RelationshipEvent
			r, ev = r.Apply(now, nil, sigs, rng.IntN(3) > 0)
			if !r.State.Valid() {
				t.Fatalf("run %d step %d: state %q is not one of the four", run, step, r.State)
			}
			if r.Score < 0 || r.Score > 100 {
				t.Fatalf("run %d step %d: score %v out of [0,100]", run, step, r.Score)
			}
			if r.Score > UpperBound(r.State) {
				t.Fatalf("run %d step %d: score %v above %s's bound", run, step, r.Score, r.State)
			}
			if StateFor(r.Score) != r.State {
				t.Fatalf("run %d step %d: score %v is outside %s's range", run, step, r.Score, r.State)
			}
			// A rise into a higher state needs the conditions of every state passed.
			if r.State.rank() > prev.State.rank() {
				for k := prev.State.rank(); k < r.State.rank(); k++ {
					c := r
					c.State = stateOfRank(k)
					if !c.CanAdvance() {
						t.Fatalf("run %d step %d: rose %s→%s without %s's conditions: %+v", run, step, prev.State, r.State, c.State, r)
					}
				}
			}
			if prev.State != r.State {
				found := false
				for _, e := range ev {
					if e == (StateChanged{From: prev.State, To: r.State}) {
						found = true
					}
				}
				if !found {
					t.Fatalf("run %d step %d: state changed without event: %v", run, step, ev)
				}
			}
			if prev.Watch && !r.Watch {
				t.Fatalf("run %d step %d: Watch ended without an operator", run, step)
			}
		}
	}
}

// TestSeed003_BoundHoldsWithoutConditions: a stranger who never gives
// positive feedback stays at most 20 whatever else happens.
func TestSeed003_BoundHoldsWithoutConditions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	r := NewRelationship(time.Unix(0, 0))
	now := time.Unix(0, 0)
	for range 2000 {
		now = now.Add(time.Hour)
		s := FeedbackSignal([]SignalTag{SignalEmotionWord, SignalDeepDisclosure, SignalDailyStreak, SignalAttachmentQuestion}[rng.IntN(4)])
		r, _ = r.Apply(now, nil, []RelationshipSignal{s}, true)
		if r.State != Stranger || r.Score > 20 {
			t.Fatalf("without positive feedback: %s %v", r.State, r.Score)
		}
	}
}
