package heart

import (
	"math"
	"time"
)

// LingeringMaxGroups bounds how many (label, salience) groups one
// LingeringSums keeps. A model writes salience with one or two decimals, so
// four labels make at most 404 groups; past the bound Add refuses and the
// caller recomputes from the store instead (our choice: memory per user
// stays bounded and the numbers stay exact).
const LingeringMaxGroups = 512

// pruneBelow drops a group whose sum has decayed below what
// ComputeLingering drops per term: exp(-negligibleDecay).
const pruneBelow = 2.3195228302435696e-16

// LingeringSums is seed 002's per-label sum of impacts kept between turns,
// so a turn costs the same whatever a user's history (002 "重要度×時間減衰の
// 集約"). Episodes of one label and salience decay with the same τ, so
// their terms add into one group sum; every sum is valued at one reference
// time and rescaled by exp(-Δt/τ) when time moves on, because an
// exponential decays the same from any starting point. Fed every episode,
// in any order, it equals ComputeLingering over them up to terms below
// exp(-negligibleDecay). The zero value is empty and ready.
type LingeringSums struct {
	ref    int64 // unix nanoseconds the group sums are valued at
	groups []lingeringGroup
}

// lingeringGroup is the sum of the terms of one label and salience.
type lingeringGroup struct {
	label    Label
	salience float64 // clamped to [0, 1]
	tau      float64 // τ(salience) in seconds
	sum      float64 // Σ weight × exp(-(ref - t)/τ)
}

// SumLingering folds eps into new sums: the rebuild from a stored history.
// ok is false when eps hold more than LingeringMaxGroups live groups.
func SumLingering(eps []EpisodeValues) (s LingeringSums, ok bool) {
	for _, e := range eps {
		if !s.Add(e) {
			return LingeringSums{}, false
		}
	}
	return s, true
}

// Add folds one episode in. Neutral, unknown and weightless episodes add
// nothing. It reports false (and leaves s as it was) when the episode would
// need a group past LingeringMaxGroups.
func (s *LingeringSums) Add(e EpisodeValues) bool {
	switch e.Label {
	case LabelJoy, LabelSadness, LabelAnger, LabelFear:
	default:
		return true
	}
	w := clampUnit(e.Intensity, 0) * clampUnit(e.Salience, 0) * clampUnit(e.Confidence, 0)
	if w == 0 {
		return true
	}
	at := e.At.UnixNano()
	if len(s.groups) == 0 || at > s.ref {
		s.advance(at)
	}
	sal := clampUnit(e.Salience, 0)
	tau := tauSeconds(sal)
	x := float64(s.ref-at) * nanoToSeconds / tau
	if x > negligibleDecay {
		return true // already below what ComputeLingering would count
	}
	term := w * math.Exp(-x)
	for i := range s.groups {
		if g := &s.groups[i]; g.label == e.Label && g.salience == sal {
			g.sum += term
			return true
		}
	}
	if len(s.groups) >= LingeringMaxGroups {
		return false
	}
	s.groups = append(s.groups, lingeringGroup{label: e.Label, salience: sal, tau: tau, sum: term})
	return true
}

// advance revalues every group at ref (later than the current one unless
// there are no groups), dropping those decayed below pruneBelow.
func (s *LingeringSums) advance(ref int64) {
	if len(s.groups) == 0 {
		s.ref = ref
		return
	}
	dt := float64(ref-s.ref) * nanoToSeconds
	kept := s.groups[:0]
	for _, g := range s.groups {
		g.sum *= math.Exp(-dt / g.tau)
		if g.sum >= pruneBelow {
			kept = append(kept, g)
		}
	}
	clear(s.groups[len(kept):])
	s.groups, s.ref = kept, ref
}

// At is the lingering emotion at now, as ComputeLingering would compute
// it from the same episodes. A now before the newest episode counts as that
// episode's time. At does not change s.
func (s *LingeringSums) At(now time.Time) Lingering {
	var sums [4]float64 // joy, sadness, anger, fear
	dt := max(float64(now.UnixNano()-s.ref)*nanoToSeconds, 0)
	for _, g := range s.groups {
		v := g.sum
		if dt > 0 {
			v *= math.Exp(-dt / g.tau)
		}
		switch g.label {
		case LabelJoy:
			sums[0] += v
		case LabelSadness:
			sums[1] += v
		case LabelAnger:
			sums[2] += v
		case LabelFear:
			sums[3] += v
		}
	}
	return NewLingering(compress(sums[0]), compress(sums[1]), compress(sums[2]), compress(sums[3]))
}

// Groups is how many label and salience groups s holds (its memory).
func (s *LingeringSums) Groups() int { return len(s.groups) }

// TalkTally is TalkTime kept incrementally for the daily limits of seed 003
// §3.1 and §6.2: the talk on the local day of the last message, summed
// from gaps of at most SessionGap. Fed message times in order, Today equals
// TalkTime over the same times. The zero value is empty.
type TalkTally struct {
	Day  string    // local day (YYYY-MM-DD) of Last
	Last time.Time // the latest message time added
	Talk time.Duration
}

// Add counts one more message at at. A time before Last (a clock that went
// back) counts as Last.
func (t TalkTally) Add(at time.Time, loc *time.Location) TalkTally {
	if t.Last.IsZero() {
		return TalkTally{Day: relLocalDay(at, loc), Last: at}
	}
	at = maxTime(at, t.Last)
	day := relLocalDay(at, loc)
	if day != t.Day {
		return TalkTally{Day: day, Last: at}
	}
	if gap := at.Sub(t.Last); gap <= SessionGap {
		t.Talk += gap
	}
	t.Last = at
	return t
}

// Today is the talk on now's local day: 0 when the last message was on
// another day.
func (t TalkTally) Today(now time.Time, loc *time.Location) time.Duration {
	if t.Last.IsZero() || relLocalDay(now, loc) != t.Day {
		return 0
	}
	return t.Talk
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
