package heart

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// updateRelationship rewrites testdata/relationship_trajectory.golden.
var updateRelationship = flag.Bool("update-relationship", false, "rewrite heart/testdata/relationship_trajectory.golden")

// TestSeed003_Trajectory replays 120 days of one user through the whole
// relationship model (text signals, feedback, behaviour signals, lazy decay,
// loneliness and dependency checks) and compares a line per day with the
// golden file. The script: a stranger chats daily and warms up, shares a
// breakup on day 9 and more on days 16-18, is away from day 40 to day 100
// (decay across tiers with protection), then comes back.
func TestSeed003_Trajectory(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	start := time.Date(2026, 1, 5, 20, 0, 0, 0, loc)
	r := NewRelationship(start)
	var h ActivityHistory
	var cues []LonelinessCue
	var b strings.Builder
	type turn struct {
		text string
		p    Perception
	}
	script := func(day int) []turn {
		switch {
		case day >= 40 && day < 100:
			return nil
		case day == 9:
			return []turn{{"我昨天失恋了", Perception{Sentiment: -0.6, Disclosure: DisclosureDeep}}, {"谢谢你听我说", Perception{Sentiment: 0.3}}}
		case day >= 16 && day <= 18:
			return []turn{{"其实我和家里关系一直不好", Perception{Sentiment: -0.4, Disclosure: DisclosureDeep}}}
		case day == 25:
			return []turn{{"...算了，不说了", Perception{Sentiment: -0.3}}}
		case day == 100:
			return []turn{{"好久不见，我回来了", Perception{Sentiment: 0.2}}}
		case day%4 == 0:
			return []turn{{"我今天超开心！🎉", Perception{Sentiment: 0.9}}, {"和朋友去吃了火锅", Perception{Sentiment: 0.5}}}
		}
		return []turn{{"今天过得还行", Perception{Sentiment: 0.1}}, {"你呢？", Perception{}}}
	}
	for day := 1; day <= 120; day++ {
		date := start.AddDate(0, 0, day-1)
		var evs []string
		for i, tn := range script(day) {
			at := date.Add(time.Duration(i) * 10 * time.Minute)
			h.UserMessageTimes = append(h.UserMessageTimes, at)
			cue := LonelinessCues(tn.text, at, loc, tn.p.Sentiment < 0, false)
			cues = append(cues, cue)
			if cue.RealSocial {
				h.RealSocialTimes = append(h.RealSocialTimes, at)
			}
			h.SaidOnlyYou = h.SaidOnlyYou || OnlyYouPhrase(tn.text)
			var ev []RelationshipEvent
			r, ev = r.Apply(at, loc, r.Admit(at, loc, TextSignals(tn.text, tn.p, Detection{}, CrisisFloor(tn.text))), true)
			evs = append(evs, relEventStrings(ev)...)
		}
		if day == 2 || day == 12 {
			var ev []RelationshipEvent
			r, ev = r.Apply(date.Add(time.Hour), loc, []RelationshipSignal{FeedbackSignal(SignalLike)}, false)
			evs = append(evs, relEventStrings(ev)...)
		}
		// The daily job at 04:00 the next morning.
		job := time.Date(date.Year(), date.Month(), date.Day()+1, 4, 0, 0, 0, loc)
		var ev []RelationshipEvent
		r, ev = r.Apply(job, loc, BehaviourSignals(h, job, loc), false)
		evs = append(evs, relEventStrings(ev)...)
		r, ev = r.SetLoneliness(job, Loneliness(LonelinessTally(relWindowCues(cues, job, loc))))
		evs = append(evs, relEventStrings(ev)...)
		r, ev = r.EvaluateDependency(DependencyInputsFrom(h, job, loc), job, loc)
		evs = append(evs, relEventStrings(ev)...)
		fmt.Fprintf(&b, "day %3d score %8.4f %-12s turns %3d days %2d deep %d lonely %6.2f dep %d %s\n",
			day, r.Score, r.State, r.Turns, r.ConsecutiveDays, r.DeepDisclosures, r.Loneliness, r.DependencyLevel, strings.Join(evs, " "))
		if r.Score < 0 || r.Score > 100 || StateFor(r.Score) != r.State {
			t.Fatalf("day %d: invariant broken: %+v", day, r)
		}
	}
	got := b.String()
	path := filepath.Join("testdata", "relationship_trajectory.golden")
	if *updateRelationship {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update-relationship to create): %v", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s trajectory differs at line %d:\n got  %s\n want %s", seed003, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("trajectory length %d, golden %d", len(gl), len(wl))
	}
}

// windowCues keeps the cues of the LonelinessWindow before now.
func relWindowCues(cues []LonelinessCue, now time.Time, loc *time.Location) []LonelinessCue {
	first := relLocalDay(now.Add(-LonelinessWindow), loc)
	var out []LonelinessCue
	for _, c := range cues {
		if c.Day >= first {
			out = append(out, c)
		}
	}
	return out
}

// eventStrings renders events for the golden file.
func relEventStrings(ev []RelationshipEvent) []string {
	var out []string
	for _, e := range ev {
		out = append(out, fmt.Sprintf("%T%+v", e, e))
	}
	return out
}
