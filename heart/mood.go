package heart

import "math"

// Mood physics of seed 001 §3-5 (001_fed6ff3e404e5019.txt) as reconciled by
// DESIGN §3 step 4.
const (
	// MoodMin and MoodMax bound mood (001 §3.2 "clamp(new_emotion, -100, 100)").
	MoodMin = -100.0
	MoodMax = 100.0
	// MoodDecay is 001 §3.1 "decay_factor = 0.9": each turn mood returns toward 0.
	MoodDecay = 0.9
	// SentimentScale is 001 §3.2 "base_force = sentiment * 10.0".
	SentimentScale = 10.0
	// LossAversion is 001 §3.2 "if base_force < 0: base_force *= 2.0".
	LossAversion = 2.0
	// AntiGrindRun is 001 §4 "最近 3 句都是同一个正向 intent".
	AntiGrindRun = 3
	// AntiGrindFactor is 001 §4 "final_delta *= 0.1".
	AntiGrindFactor = 0.1
	// LastIntentsLimit is DESIGN §3 step 9 "last_intents (keep 10)".
	LastIntentsLimit = 10
)

// Intent modifiers (stimulus added to the sentiment force) of 001 §1 and §5.
const (
	ModCompliment     = 5.0   // 001 §1.2 COMPLIMENT +5
	ModFlirt          = 10.0  // 001 §1.2 FLIRT +10
	ModLoveConfession = 15.0  // 001 §1.2 LOVE_CONFESSION +15
	ModComfortLow     = 20.0  // 001 §5.1 COMFORT when mood < 0: +20
	ModComfortHigh    = 5.0   // 001 §5.1 COMFORT when mood >= 0: +5
	ModCriticism      = -10.0 // 001 §1.3 CRITICISM -10
	ModInsult         = -30.0 // 001 §1.3 INSULT -30
	ModIgnore         = -5.0  // 001 §1.3 IGNORE -5
	ModApologyBase    = 20.0  // 001 §5.2 "intent_mod = max(5, 20 - pride * 0.5)"
	ModApologyPride   = 0.5   // 001 §5.2 pride penalty per point of pride
	ModApologyMin     = 5.0   // 001 §5.2 max(5, …)
	ModApologyHigh    = 2.0   // 001 §5.2 APOLOGY when mood >= 0: +2
	ModGift           = 50.0  // 001 §5.3 GIFT_SEND fixed +50
)

// Character is the persona's mood sensitivity (persona keys `dependency`
// and `pride`, DESIGN §9).
type Character struct {
	// Dependency scales every delta (001 §3.3: Nana 1.5, Luna 1.0, Vesper 0.5).
	Dependency float64
	// Pride weakens apologies (001 §5.2).
	Pride float64
}

// Seed 001 §3.3 reference characters.
const (
	DependencyNana   = 1.5 // 001 §3.3 高敏感型 (Nana)
	DependencyLuna   = 1.0 // 001 §3.3 标准型 (Luna)
	DependencyVesper = 0.5 // 001 §3.3 高冷型 (Vesper)
)

// DefaultCharacter is the persona default: seed 001's standard type Luna and
// no pride (so an apology at negative mood is worth the seed's full +20).
func DefaultCharacter() Character { return Character{Dependency: DependencyLuna} }

// IntentModifier is intent i's stimulus modifier given the mood before this
// turn (001 §1, §5). APOLOGY is max(5, 20 - pride*0.5) at negative mood,
// capped at 20 — the seed's "+15 ~ +20" — so a negative pride cannot inflate
// it. REQUEST_NSFW, INVITATION, unknown intents and the low-impact ones are 0.
func IntentModifier(i Intent, moodBefore float64, c Character) float64 {
	switch i {
	case Compliment:
		return ModCompliment
	case Flirt:
		return ModFlirt
	case LoveConfession:
		return ModLoveConfession
	case Comfort:
		if moodBefore < 0 {
			return ModComfortLow
		}
		return ModComfortHigh
	case Criticism:
		return ModCriticism
	case Insult:
		return ModInsult
	case Ignore:
		return ModIgnore
	case Apology:
		if moodBefore < 0 {
			pride := finiteOr(c.Pride, 0)
			return math.Min(ModApologyBase, math.Max(ModApologyMin, ModApologyBase-pride*ModApologyPride))
		}
		return ModApologyHigh
	case GiftSend:
		return ModGift
	default:
		return 0
	}
}

// MoodStep is the outcome of one step of the mood model, for persisting and
// for /why.
type MoodStep struct {
	Mood      float64  // the new mood, in [MoodMin, MoodMax]
	Delta     float64  // what was added after decay (after dependency and anti-grind)
	Stimulus  float64  // total stimulus before dependency: base force + intent modifier
	AntiGrind bool     // the anti-grind rule cut this turn's delta to 10%
	Intents   []Intent // last_intents after this turn, at most LastIntentsLimit
}

// StepMood runs one user turn of the mood model, exactly DESIGN §3 step 4:
//
//	base = sentiment*10; if base<0 {base*=2}; total = base + intent_mod
//	delta = total * dependency; mood = clamp(mood*0.9 + delta, -100, 100)
//
// The intent modifier uses the mood before this turn. p.Intent is taken
// through ParseIntent, so an unknown intent counts as SMALL_TALK and
// GIFT_SEND (which a perception can never produce; only GiftStep can) counts
// as FLIRT. REQUEST_NSFW and INVITATION move no mood: their total stimulus is
// 0, sentiment included, but decay still applies because a turn passed.
// Anti-grind: when the last AntiGrindRun entries of lastIntents plus this
// turn are all the same intent in {FLIRT, COMPLIMENT, LOVE_CONFESSION}, the
// delta is cut to 10%. A NaN mood or sentiment counts as 0.
func StepMood(mood float64, lastIntents []Intent, p Perception, c Character) MoodStep {
	intent := ParseIntent(string(p.Intent))
	mood = clampMood(finiteOr(mood, 0))
	var total float64
	if intent != RequestNSFW && intent != Invitation {
		base := clampUnit(p.Sentiment, -1) * SentimentScale
		if base < 0 {
			base *= LossAversion
		}
		total = base + IntentModifier(intent, mood, c)
	}
	delta := total * finiteOr(c.Dependency, 0)
	intents := appendIntent(lastIntents, intent)
	grind := grinding(intents)
	if grind {
		delta *= AntiGrindFactor
	}
	return MoodStep{
		Mood:      clampMood(mood*MoodDecay + delta),
		Delta:     delta,
		Stimulus:  total,
		AntiGrind: grind,
		Intents:   intents,
	}
}

// GiftStep is one verified gift (DESIGN §9 "a verified gift is one step of
// the mood model"): decay, then +50 × dependency, exempt from anti-grind,
// appended to last_intents as GIFT_SEND. Only the admin gift endpoint may
// call it; no text ever reaches it.
func GiftStep(mood float64, lastIntents []Intent, c Character) MoodStep {
	mood = clampMood(finiteOr(mood, 0))
	delta := ModGift * finiteOr(c.Dependency, 0)
	return MoodStep{
		Mood:     clampMood(mood*MoodDecay + delta),
		Delta:    delta,
		Stimulus: ModGift,
		Intents:  appendIntent(lastIntents, GiftSend),
	}
}

// grinding reports whether the anti-grind rule of 001 §4 applies to the
// last entry of intents (which includes the current turn).
func grinding(intents []Intent) bool {
	if len(intents) < AntiGrindRun {
		return false
	}
	cur := intents[len(intents)-1]
	if cur != Flirt && cur != Compliment && cur != LoveConfession {
		return false
	}
	for _, i := range intents[len(intents)-AntiGrindRun:] {
		if i != cur {
			return false
		}
	}
	return true
}

// appendIntent returns a new slice: h plus i, keeping the newest
// LastIntentsLimit. It never writes into h's backing array.
func appendIntent(h []Intent, i Intent) []Intent {
	if len(h) >= LastIntentsLimit {
		h = h[len(h)-LastIntentsLimit+1:]
	}
	out := make([]Intent, 0, len(h)+1)
	out = append(out, h...)
	return append(out, i)
}

// clampMood bounds x to [MoodMin, MoodMax].
func clampMood(x float64) float64 { return math.Max(MoodMin, math.Min(MoodMax, x)) }

// clampUnit bounds x to [lo, 1]; lo is 0 or -1. NaN becomes 0, infinities
// the nearer bound.
func clampUnit(x, lo float64) float64 {
	switch {
	case x != x: // NaN
		return 0
	case x < lo:
		return lo
	case x > 1:
		return 1
	}
	return x
}

// finiteOr returns x, or def when x is NaN or infinite.
func finiteOr(x, def float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return def
	}
	return x
}
