package heart

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// seed002 names the seed file the tests in this file follow.
const seed002 = "002_a665288a7195e6e2.txt"

// TestSeed002Tau covers "残留時間 τ（salience依存）".
func TestSeed002Tau(t *testing.T) {
	tests := []struct {
		name string
		s    float64
		want time.Duration
	}{
		{"002 τ(0) = τ_min 120s", 0, 120 * time.Second},
		{"002 τ(1) = τ_max 6h", 1, 6 * time.Hour},
		{"002 τ(0.5) = 120s + (6h-120s)·0.25", 0.5, 120*time.Second + (6*time.Hour-120*time.Second)/4},
		{"salience above 1 clamps", 3, 6 * time.Hour},
		{"negative salience clamps", -1, 120 * time.Second},
		{"NaN salience is 0", math.NaN(), 120 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Tau(tc.s); got != tc.want {
				t.Fatalf("%s: Tau(%v) = %v, want %v", seed002, tc.s, got, tc.want)
			}
		})
	}
	if Tau(0.5) != 120*time.Second+5370*time.Second { // (21600-120)/4 = 5370
		t.Fatalf("Tau(0.5) = %v", Tau(0.5))
	}
}

// TestSeed002ComputeLingering covers impact, compression, labels and the
// neutral threshold.
func TestSeed002ComputeLingering(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ep := func(ago time.Duration, l Label, i, s, c float64) EpisodeValues {
		return EpisodeValues{At: now.Add(-ago), Label: l, Intensity: i, Salience: s, Confidence: c}
	}
	tests := []struct {
		name      string
		eps       []EpisodeValues
		label     Label
		intensity float64
	}{
		{"002 no episodes is neutral", nil, LabelNeutral, 0},
		{"002 compression 1-exp(-x) of one fresh episode", []EpisodeValues{ep(0, LabelJoy, 1, 1, 1)}, LabelJoy, 1 - math.Exp(-1)},
		{"002 compression of a sum above 1", []EpisodeValues{ep(0, LabelAnger, 1, 1, 1), ep(0, LabelAnger, 1, 1, 1)}, LabelAnger, 1 - math.Exp(-2)},
		{"002 impact = intensity×salience×confidence", []EpisodeValues{ep(0, LabelSadness, 0.8, 0.5, 0.5)}, LabelSadness, 1 - math.Exp(-0.2)},
		{"002 decay exp(-Δt/τ) at Δt = τ", []EpisodeValues{ep(Tau(1), LabelFear, 1, 1, 1)}, LabelFear, 1 - math.Exp(-math.Exp(-1))},
		{"002 neutral below 0.15", []EpisodeValues{ep(0, LabelJoy, 0.5, 0.5, 0.5)}, LabelNeutral, 0}, // 1-e^-0.125 = 0.1175
		{"002 just above 0.15 keeps the label", []EpisodeValues{ep(0, LabelJoy, 1, 0.5, 0.34)}, LabelJoy, 1 - math.Exp(-0.17)},
		{"002 small talk fades in minutes (τ_min)", []EpisodeValues{ep(10*time.Minute, LabelJoy, 1, 0, 1)}, LabelNeutral, 0},
		{"002 big event lingers for hours (τ_max)", []EpisodeValues{ep(2*time.Hour, LabelSadness, 1, 1, 1)}, LabelSadness, 1 - math.Exp(-math.Exp(-2.0/6))},
		{"002 largest component wins", []EpisodeValues{ep(0, LabelJoy, 0.5, 1, 1), ep(0, LabelAnger, 0.6, 1, 1)}, LabelAnger, 1 - math.Exp(-0.6)},
		{"neutral episodes add nothing", []EpisodeValues{ep(0, LabelNeutral, 1, 1, 1)}, LabelNeutral, 0},
		{"unknown labels add nothing", []EpisodeValues{ep(0, Label("love"), 1, 1, 1)}, LabelNeutral, 0},
		{"future episode counts as now", []EpisodeValues{ep(-time.Hour, LabelJoy, 1, 1, 1)}, LabelJoy, 1 - math.Exp(-1)},
		{"episode beyond the window is skipped", []EpisodeValues{ep(LingeringWindow+time.Second, LabelAnger, 1, 1, 1)}, LabelNeutral, 0},
		{"values clamped to 0..1", []EpisodeValues{ep(0, LabelJoy, 5, 5, 5)}, LabelJoy, 1 - math.Exp(-1)},
		{"NaN values count 0", []EpisodeValues{ep(0, LabelJoy, math.NaN(), 1, 1)}, LabelNeutral, 0},
		{"tie goes to anger", []EpisodeValues{ep(0, LabelJoy, 1, 1, 1), ep(0, LabelAnger, 1, 1, 1)}, LabelAnger, 1 - math.Exp(-1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ComputeLingering(tc.eps, now)
			if got.Label != tc.label || math.Abs(got.Intensity-tc.intensity) > 1e-12 {
				t.Fatalf("%s: got %s %.6f, want %s %.6f (%+v)", seed002, got.Label, got.Intensity, tc.label, tc.intensity, got)
			}
		})
	}
}

// TestSeed002RefusalKnobs covers "行動方針ノブ" with DESIGN §4's numbers.
func TestSeed002RefusalKnobs(t *testing.T) {
	tests := []struct {
		name    string
		anger   float64
		allowed bool
		bias    float64
	}{
		{"002 anger 0.75 allows refusal", 0.75, true, (0.75 - 0.55) / 0.45},
		{"002 anger just below 0.75 does not", 0.7499, false, (0.7499 - 0.55) / 0.45},
		{"002 anger 0.55 is where bias starts", 0.55, false, 0},
		{"002 anger below 0.55 has no bias", 0.3, false, 0},
		{"002 anger 1 is full refusal bias", 1, true, 1},
		{"002 anger 0 cooperates fully", 0, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLingering(0, 0, tc.anger, 0)
			if l.RefusalAllowed != tc.allowed || math.Abs(l.RefusalBias-tc.bias) > 1e-12 || math.Abs(l.Cooperation-(1-tc.bias)) > 1e-12 {
				t.Fatalf("%s: anger %v → %+v, want allowed %v bias %v", seed002, tc.anger, l, tc.allowed, tc.bias)
			}
		})
	}
	// From episodes: enough anger to cross 0.75 (x = ln 4 → 1-e^-x = 0.75).
	now := time.Unix(1e9, 0)
	eps := []EpisodeValues{
		{At: now, Label: LabelAnger, Intensity: 1, Salience: 1, Confidence: 1},
		{At: now, Label: LabelAnger, Intensity: 1, Salience: 1, Confidence: 0.4},
	}
	l := ComputeLingering(eps, now)
	if !l.RefusalAllowed || l.Label != LabelAnger || l.Cooperation >= 0.6 {
		t.Fatalf("%s: anger from episodes: %+v", seed002, l)
	}
	// Six hours of calm later, refusal is gone.
	if l := ComputeLingering(eps, now.Add(6*time.Hour)); l.RefusalAllowed {
		t.Fatalf("anger did not fade: %+v", l)
	}
}

// manyEpisodes is a long history for these tests and the turn benchmarks:
// more episodes than a very chatty user leaves in a day.
const manyEpisodes = 500

// TestLingeringWindowBound: what the window cuts off is below float64's
// resolution, and every episode inside it counts (seed 002 sums them all).
func TestLingeringWindowBound(t *testing.T) {
	if w := math.Exp(-LingeringWindow.Seconds() / TauMax.Seconds()); w > 1e-15 || math.Abs(w-pruneBelow) > 1e-30 {
		t.Fatalf("an episode at the window edge still weighs %v (pruneBelow %v)", w, pruneBelow)
	}
	now := time.Unix(2e9, 0)
	var eps []EpisodeValues
	for i := 0; i < 2*manyEpisodes; i++ { // 1,000 recent joyful episodes
		eps = append(eps, EpisodeValues{At: now.Add(-time.Duration(i) * time.Second), Label: LabelJoy, Intensity: 1, Salience: 1, Confidence: 1})
	}
	// One more, older than all of them: anger, which counts too.
	eps = append([]EpisodeValues{{At: now.Add(-time.Hour), Label: LabelAnger, Intensity: 1, Salience: 1, Confidence: 1}}, eps...)
	l := ComputeLingering(eps, now)
	if want := 1 - math.Exp(-math.Exp(-1.0/6)); math.Abs(l.Anger-want) > 1e-12 || l.Label != LabelJoy {
		t.Fatalf("the oldest episode did not count: %+v, want anger %v", l, want)
	}
	if eps[0].Label != LabelAnger {
		t.Fatal("ComputeLingering reordered its input")
	}
}

// TestOverride covers the seed 002 debug override.
func TestOverride(t *testing.T) {
	computed := NewLingering(0.5, 0, 0, 0)
	if got := (Override{}).Apply(computed); got != computed {
		t.Fatalf("inactive override changed state: %+v", got)
	}
	got := Override{Active: true, Anger: 0.9}.Apply(computed)
	if got.Label != LabelAnger || !got.RefusalAllowed || got.Joy != 0 || math.Abs(got.RefusalBias-(0.35/0.45)) > 1e-12 {
		t.Fatalf("%s: override: %+v", seed002, got)
	}
	if got := (Override{Active: true, Fear: 7}).Apply(computed); got.Fear != 1 || got.Label != LabelFear {
		t.Fatalf("override not clamped: %+v", got)
	}
}

// TestLingeringJSON: the JSON keys of `hearth state` (DESIGN §9).
func TestLingeringJSON(t *testing.T) {
	b, err := json.Marshal(NewLingering(0.42, 0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"label":"joy"`, `"intensity":0.42`, `"refusal_allowed":false`, `"refusal_bias":0`, `"cooperation":1`, `"joy":0.42`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("JSON %s lacks %s", b, k)
		}
	}
}

// TestSeed002LingeringTrajectory compares an evening of episodes with a
// golden file: a big quarrel (high salience anger) outlasts the light chat
// that follows it, refusal is allowed only while anger ≥ 0.75, and a happy
// reconciliation takes over (go test -run LingeringTrajectory -update
// rewrites it).
func TestSeed002LingeringTrajectory(t *testing.T) {
	start := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	type ev struct {
		at time.Duration
		v  EpisodeValues
	}
	script := []ev{
		{0, EpisodeValues{Label: LabelJoy, Intensity: 0.5, Salience: 0.2, Confidence: 0.8}},
		{10 * time.Minute, EpisodeValues{Label: LabelAnger, Intensity: 0.9, Salience: 0.9, Confidence: 0.9}},
		{12 * time.Minute, EpisodeValues{Label: LabelAnger, Intensity: 0.8, Salience: 0.8, Confidence: 0.9}},
		{14 * time.Minute, EpisodeValues{Label: LabelAnger, Intensity: 1, Salience: 0.7, Confidence: 1}},
		{20 * time.Minute, EpisodeValues{Label: LabelNeutral, Intensity: 0.2, Salience: 0.1, Confidence: 0.7}},
		{30 * time.Minute, EpisodeValues{Label: LabelJoy, Intensity: 0.4, Salience: 0.1, Confidence: 0.8}},
		{90 * time.Minute, EpisodeValues{Label: LabelSadness, Intensity: 0.6, Salience: 0.5, Confidence: 0.8}},
		{3 * time.Hour, EpisodeValues{Label: LabelJoy, Intensity: 0.9, Salience: 0.9, Confidence: 0.9}},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s lingering trajectory (τ_min 120s, τ_max 6h, k 2, neutral < 0.15)\n", seed002)
	fmt.Fprintf(&b, "# t label intensity joy sadness anger fear refusal_allowed refusal_bias cooperation\n")
	var eps []EpisodeValues
	next := 0
	var refused, forgave bool
	for m := 0; m <= 12*60; m += 15 {
		now := start.Add(time.Duration(m) * time.Minute)
		for next < len(script) && script[next].at <= now.Sub(start) {
			e := script[next].v
			e.At = start.Add(script[next].at)
			eps = append(eps, e)
			next++
		}
		l := ComputeLingering(eps, now)
		if l.RefusalAllowed != (l.Anger >= RefusalAllowedAt) {
			t.Fatalf("%s: refusal_allowed %v at anger %v", seed002, l.RefusalAllowed, l.Anger)
		}
		refused = refused || l.RefusalAllowed
		forgave = forgave || (refused && !l.RefusalAllowed)
		fmt.Fprintf(&b, "%5s %-7s %.4f %.4f %.4f %.4f %.4f %-5v %.4f %.4f\n",
			now.Sub(start), l.Label, l.Intensity, l.Joy, l.Sadness, l.Anger, l.Fear, l.RefusalAllowed, l.RefusalBias, l.Cooperation)
	}
	if !refused || !forgave {
		t.Fatalf("the quarrel should allow refusal and then fade: refused %v forgave %v", refused, forgave)
	}
	got := []byte(b.String())
	path := filepath.Join("testdata", "lingering_quarrel.golden")
	if *update {
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
}
