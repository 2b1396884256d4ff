package heart

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// sumsTolerance is how far the incremental sums may drift from seed 002's
// full recomputation (issue 15: within 1e-9).
const sumsTolerance = 1e-9

// randomHistory is n episodes at random times within span before end, with
// seed 002 values; decimals > 0 rounds salience to that many decimals (as a
// model writes it), 0 leaves it continuous.
func randomHistory(r *rand.Rand, n int, end time.Time, span time.Duration, decimals int) []EpisodeValues {
	labels := []Label{LabelJoy, LabelSadness, LabelAnger, LabelFear, LabelNeutral, Label("love")}
	eps := make([]EpisodeValues, n)
	for i := range eps {
		sal := r.Float64()
		if decimals > 0 {
			p := math.Pow(10, float64(decimals))
			sal = math.Round(sal*p) / p
		}
		eps[i] = EpisodeValues{
			At:    end.Add(-time.Duration(r.Int64N(int64(span)))),
			Label: labels[r.IntN(len(labels))], Intensity: r.Float64(), Salience: sal, Confidence: r.Float64(),
		}
	}
	return eps
}

func assertSameLingering(t *testing.T, what string, got, want Lingering) {
	t.Helper()
	for _, c := range []struct {
		name string
		g, w float64
	}{{"joy", got.Joy, want.Joy}, {"sadness", got.Sadness, want.Sadness}, {"anger", got.Anger, want.Anger}, {"fear", got.Fear, want.Fear}} {
		if math.Abs(c.g-c.w) > sumsTolerance {
			t.Fatalf("%s: %s %.15f incremental vs %.15f full (Δ %.3g)", what, c.name, c.g, c.w, c.g-c.w)
		}
	}
	if math.Abs(got.Intensity-want.Intensity) > sumsTolerance || (got.Label != want.Label && math.Abs(got.Intensity-NeutralBelow) > sumsTolerance) {
		t.Fatalf("%s: %s %v incremental vs %s %v full", what, got.Label, got.Intensity, want.Label, want.Intensity)
	}
}

// TestSeed002IncrementalMatchesFull feeds random histories into
// LingeringSums one episode at a time, in time order as turns do, and
// compares it with ComputeLingering over everything so far, at the moment
// of each episode and later.
func TestSeed002IncrementalMatchesFull(t *testing.T) {
	end := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	shapes := []struct {
		name     string
		n        int
		span     time.Duration
		decimals int
	}{
		{"a busy hour, one-decimal salience", 2000, time.Hour, 1},
		{"a month, two-decimal salience", 3000, 30 * 24 * time.Hour, 2},
		{"a day, continuous salience", 300, 24 * time.Hour, 0},
		{"two weeks across the window edge", 1500, 14 * 24 * time.Hour, 2},
	}
	for seed, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed+1), 15))
			eps := randomHistory(r, sh.n, end, sh.span, sh.decimals)
			slices.SortStableFunc(eps, func(a, b EpisodeValues) int { return a.At.Compare(b.At) })
			var s LingeringSums
			checks := 0
			for i, e := range eps {
				if !s.Add(e) {
					t.Fatalf("episode %d refused with %d groups", i, s.Groups())
				}
				if i%97 == 0 || i == len(eps)-1 {
					for _, later := range []time.Duration{0, time.Minute, 3 * time.Hour, 2 * 24 * time.Hour} {
						now := e.At.Add(later)
						assertSameLingering(t, now.Format(time.RFC3339), s.At(now), ComputeLingering(eps[:i+1], now))
						checks++
					}
				}
			}
			if checks == 0 || s.Groups() > LingeringMaxGroups {
				t.Fatalf("%d checks, %d groups", checks, s.Groups())
			}
		})
	}
}

// Out of order (a reflection filling an older episode's values later) gives
// the same sums as in order.
func TestSeed002IncrementalAnyOrder(t *testing.T) {
	end := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(7, 15))
	eps := randomHistory(r, 1000, end, 3*24*time.Hour, 2)
	s, ok := SumLingering(eps) // random order
	if !ok {
		t.Fatal("refused")
	}
	for _, later := range []time.Duration{0, time.Hour, 30 * time.Hour} {
		assertSameLingering(t, later.String(), s.At(end.Add(later)), ComputeLingering(eps, end.Add(later)))
	}
}

// Old groups are pruned once negligible, so memory follows the recent
// past, not the whole history; and the group bound holds.
func TestLingeringSumsBounded(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var s LingeringSums
	for i := range 100 {
		s.Add(EpisodeValues{At: start.Add(time.Duration(i) * time.Minute), Label: LabelJoy, Intensity: 1, Salience: float64(i) / 100, Confidence: 1})
	}
	s.Add(EpisodeValues{At: start.Add(2 * LingeringWindow), Label: LabelFear, Intensity: 1, Salience: 0.5, Confidence: 1})
	if s.Groups() != 1 {
		t.Errorf("%d groups after the old ones decayed, want 1", s.Groups())
	}
	var c LingeringSums
	for i := range LingeringMaxGroups {
		if !c.Add(EpisodeValues{At: start, Label: LabelJoy, Intensity: 1, Salience: float64(i+1) / (LingeringMaxGroups + 1), Confidence: 1}) {
			t.Fatalf("group %d refused", i)
		}
	}
	before := c.At(start)
	if c.Add(EpisodeValues{At: start, Label: LabelAnger, Intensity: 1, Salience: 0.5, Confidence: 1}) {
		t.Fatal("a group past LingeringMaxGroups was accepted")
	}
	if c.At(start) != before {
		t.Fatal("a refused episode changed the sums")
	}
}

// TestTalkTallyMatchesTalkTime: fed message times in order, the tally
// gives TalkTime's figure at every step, across midnights and long gaps.
func TestTalkTallyMatchesTalkTime(t *testing.T) {
	loc := time.FixedZone("UTC+9", 9*3600)
	r := rand.New(rand.NewPCG(3, 15))
	at := time.Date(2026, 3, 1, 20, 0, 0, 0, loc)
	var (
		times []time.Time
		tally TalkTally
	)
	for i := range 600 {
		gaps := []time.Duration{time.Minute, 7 * time.Minute, SessionGap, SessionGap + time.Second, 3 * time.Hour}
		at = at.Add(gaps[r.IntN(len(gaps))] + time.Duration(r.IntN(60))*time.Second)
		times = append(times, at)
		tally = tally.Add(at, loc)
		for _, now := range []time.Time{at, at.Add(5 * time.Minute), at.Add(20 * time.Hour)} {
			if got, want := tally.Today(now, loc), TalkTime(times, now, loc); got != want {
				t.Fatalf("message %d, now %s: tally %v, TalkTime %v", i, now, got, want)
			}
		}
	}
}

// BenchmarkLingeringSums is a turn's lingering cost with the sums kept: one
// evaluation and one episode added, whatever the history.
func BenchmarkLingeringSums(b *testing.B) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(1, 1))
	s, _ := SumLingering(randomHistory(r, 100_000, now, 24*time.Hour, 1))
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Millisecond)
		_ = s.At(now)
		s.Add(EpisodeValues{At: now, Label: LabelJoy, Intensity: 0.4, Salience: 0.3, Confidence: 0.8})
	}
	b.ReportMetric(float64(s.Groups()), "groups")
}
