package heart

import "math"

// Decay is seed 003 §4's lazy decay of an affinity score over days without
// interaction, exact across tiers: −2/day while the score is in 0-50,
// −0.8/day in (50, 80], −0.5/day in (80, 100], each times the §4.2
// protections (×0.5 with deep-disclosure history, ×0.7 with gratitude
// history; both together multiply to ×0.35). When the score reaches a tier's
// lower edge mid-interval, the rest of the interval runs at the lower tier's
// rate, so Decay(Decay(s, a), b) == Decay(s, a+b) up to rounding: decaying
// lazily in any number of steps gives the same score. The seed calls the
// friend tier "指数" but its §4.3 example is linear; hearth follows the
// example. The floor is 0; negative or NaN days decay nothing.
func Decay(score float64, days float64, deepHistory, gratitudeHistory bool) float64 {
	score = clampScore(score)
	if !(days > 0) {
		return score
	}
	if math.IsInf(days, 1) {
		return ScoreMin
	}
	mult := 1.0
	if deepHistory {
		mult *= DecayDeepProtection
	}
	if gratitudeHistory {
		mult *= DecayGratitudeProtection
	}
	for days > 0 && score > ScoreMin {
		rate, floor := decayTier(score)
		rate *= mult
		need := (score - floor) / rate // days until the tier's lower edge
		if days <= need {
			return math.Max(score-rate*days, ScoreMin)
		}
		score = floor
		days -= need
	}
	return score
}

// decayTier is the §4.1 rate of the tier a score is in and that tier's lower
// edge. A score exactly on an edge (50, 80) belongs to the lower tier.
func decayTier(score float64) (rate, floor float64) {
	switch {
	case score > FriendTop:
		return DecayCloseRate, FriendTop
	case score > AcquaintanceTop:
		return DecayFriendRate, AcquaintanceTop
	}
	return DecayLowRate, ScoreMin
}
