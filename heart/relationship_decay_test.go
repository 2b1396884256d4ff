package heart

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSeed003_Decay checks §4.1's tier rates, §4.2's protections and the
// §4.3 worked example, each row computed by hand in its name.
func TestSeed003_Decay(t *testing.T) {
	rows := []struct {
		name       string
		score      float64
		days       float64
		deep, grat bool
		want       float64
	}{
		{"§4.3 friend 70, 14 days, breakup shared: 70-0.4×14 = 64.4", 70, 14, true, false, 64.4},
		{"§4.1 0-50 tier: 40-2×5 = 30", 40, 5, false, false, 30},
		{"§4.1 friend tier: 70-0.8×10 = 62", 70, 10, false, false, 62},
		{"§4.1 close tier: 95-0.5×10 = 90", 95, 10, false, false, 90},
		{"§4.2 gratitude ×0.7: 40-1.4×5 = 33", 40, 5, false, true, 33},
		{"§4.2 both stack ×0.35: 70-0.28×10 = 67.2", 70, 10, true, true, 67.2},
		{"cross tiers: 85 over 30 days: 10 days at 0.5 to 80, then 20 days at 0.8 = 64", 85, 30, false, false, 64},
		{"cross two tiers: 85 over 60 days: 10d→80, 37.5d→50, 12.5d×2 = 25", 85, 60, false, false, 25},
		{"cross with protection ×0.5: 85 over 30 days: 20d at 0.25→80, 10d at 0.4 = 76", 85, 30, true, false, 76},
		{"the edge 80 is friend tier: 80-0.8×5 = 76", 80, 5, false, false, 76},
		{"the edge 50 is low tier: 50-2×5 = 40", 50, 5, false, false, 40},
		{"floor at 0: 10 over 30 days", 10, 30, false, false, 0},
		{"from 100 over 1000 days", 100, 1000, false, false, 0},
		{"zero days", 70, 0, false, false, 70},
		{"negative days decay nothing", 70, -3, false, false, 70},
		{"NaN days decay nothing", 70, math.NaN(), false, false, 70},
		{"infinite days", 70, math.Inf(1), false, false, 0},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			if got := Decay(r.score, r.days, r.deep, r.grat); !relNear(got, r.want) {
				t.Fatalf("%s: Decay(%v, %v, %v, %v) = %.12f, want %v", seed003, r.score, r.days, r.deep, r.grat, got, r.want)
			}
		})
	}
}

// TestSeed003_DecayAdditive is the property that makes lazy decay exact:
// decaying a days then b days equals decaying a+b days, and decay never
// raises a score or leaves [0, 100].
func TestSeed003_DecayAdditive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for i := range 20000 {
		s := rng.Float64() * 100
		a, b := rng.Float64()*60, rng.Float64()*60
		deep, grat := rng.IntN(2) == 0, rng.IntN(2) == 0
		one := Decay(s, a+b, deep, grat)
		two := Decay(Decay(s, a, deep, grat), b, deep, grat)
		if math.Abs(one-two) > 1e-9 {
			t.Fatalf("case %d: Decay(%v,%v+%v) = %v but stepwise %v", i, s, a, b, one, two)
		}
		if one > s || one < 0 {
			t.Fatalf("case %d: Decay(%v, %v) = %v", i, s, a+b, one)
		}
	}
}

// BenchmarkDecay measures the lazy decay that runs on every turn.
func BenchmarkDecay(b *testing.B) {
	for b.Loop() {
		Decay(95, 120, true, true)
	}
}
