package heart

import (
	"math"
	"time"
)

// Label is a lingering-emotion label of seed 002 (002_a665288a7195e6e2.txt):
// the persona's own feeling, not the user's (that is Emotion).
type Label string

// The labels of seed 002 ("joy/sadness/anger/fear") plus neutral.
const (
	LabelNeutral Label = "neutral"
	LabelJoy     Label = "joy"
	LabelSadness Label = "sadness"
	LabelAnger   Label = "anger"
	LabelFear    Label = "fear"
)

// Known reports whether l is one of the five labels.
func (l Label) Known() bool {
	switch l {
	case LabelNeutral, LabelJoy, LabelSadness, LabelAnger, LabelFear:
		return true
	}
	return false
}

// Constants of seed 002 "持続" as fixed by DESIGN §4.
const (
	// TauMin is 002 "τ_min = 120s（雑談が消える最短スケール）".
	TauMin = 120 * time.Second
	// TauMax is 002 "τ_max = 6h（大事件の余韻の最大スケール）".
	TauMax = 6 * time.Hour
	// TauExponent is 002 "k = 2.0（高salienceだけ急に伸びる）".
	TauExponent = 2.0
	// NeutralBelow is 002 "十分小さい場合は neutral に戻す（既定: 0.15）".
	NeutralBelow = 0.15
	// RefusalAllowedAt is 002 "refusal_allowed = (anger >= 0.75)".
	RefusalAllowedAt = 0.75
	// RefusalBiasFrom is 002 "怒りが 0.55 を超え始めたら立ち上げ"; DESIGN §4
	// ramps it linearly to 1 over the 0.45 that remain.
	RefusalBiasFrom = 0.55
	// RefusalBiasSpan is DESIGN §4 "clamp((anger-0.55)/0.45, 0, 1)".
	RefusalBiasSpan = 0.45
)

// negligibleDecay is the Δt/τ beyond which an episode's term is dropped
// instead of summed: exp(-36) ≈ 2.3e-16 of its weight, below float64's
// resolution of a sum near 1, so seed 002's sum over every episode is
// exact to rounding. Our choice.
const negligibleDecay = 36

// LingeringWindow bounds which episodes can still count: one older than
// negligibleDecay × TauMax (9 days) is dropped even at salience 1. Readers
// of the store use it as the horizon of seed 002's sum.
const LingeringWindow = negligibleDecay * TauMax

// EpisodeValues are the reflection values of one episode (seed 002
// "impact_i" inputs), as stored with the bot's answer.
type EpisodeValues struct {
	At         time.Time
	Label      Label
	Intensity  float64 // 0..1
	Salience   float64 // 0..1
	Confidence float64 // 0..1
}

// Lingering is the persona's current lingering emotion toward one user and
// the behaviour knobs derived from it (seed 002 "現在の感情" and "行動方針
// ノブ"). The JSON form is the `lingering` object of `hearth state`.
type Lingering struct {
	Label          Label   `json:"label"`
	Intensity      float64 `json:"intensity"`
	Joy            float64 `json:"joy"`
	Sadness        float64 `json:"sadness"`
	Anger          float64 `json:"anger"`
	Fear           float64 `json:"fear"`
	RefusalAllowed bool    `json:"refusal_allowed"`
	RefusalBias    float64 `json:"refusal_bias"`
	Cooperation    float64 `json:"cooperation"`
}

// Tau is the lingering time of an episode of salience s (002 "τ(s) = τ_min +
// (τ_max - τ_min) × s^k"); s is clamped to [0, 1], NaN counts as 0.
func Tau(salience float64) time.Duration {
	s := clampUnit(salience, 0)
	return TauMin + time.Duration(float64(TauMax-TauMin)*tauPow(s))
}

// tauSeconds is Tau in float seconds, without the Duration rounding, for
// the per-episode sum.
func tauSeconds(salience float64) float64 {
	return tauMinSeconds + tauSpanSeconds*tauPow(clampUnit(salience, 0))
}

// Float forms of the durations above, so the per-episode sum does no
// integer division.
const (
	nanoToSeconds  = 1.0 / float64(time.Second)
	tauMinSeconds  = float64(TauMin) / float64(time.Second)
	tauSpanSeconds = float64(TauMax-TauMin) / float64(time.Second)
)

// tauPow is s^TauExponent; the seed's k = 2 is a multiplication.
func tauPow(s float64) float64 {
	if TauExponent == 2 {
		return s * s
	}
	return math.Pow(s, TauExponent)
}

// ComputeLingering integrates episodes into the current lingering emotion,
// exactly DESIGN §4: impact = intensity × salience × confidence × exp(-Δt/τ),
// summed per label over every episode, compressed with 1 - exp(-x); the
// largest is the label and its value the intensity, or neutral (intensity
// 0) below NeutralBelow. Ties go to anger, then sadness, fear, joy (the
// knobs care about anger first). Episodes labelled neutral or unknown add
// nothing; values are clamped to [0, 1] (NaN 0); an episode in the future
// counts as now; a term below exp(-negligibleDecay) of its weight is
// dropped. It is the full recomputation LingeringSums keeps incrementally.
func ComputeLingering(eps []EpisodeValues, now time.Time) Lingering {
	var joy, sad, anger, fear float64
	nowNano := now.UnixNano()
	for _, e := range eps {
		var sum *float64
		switch e.Label {
		case LabelJoy:
			sum = &joy
		case LabelSadness:
			sum = &sad
		case LabelAnger:
			sum = &anger
		case LabelFear:
			sum = &fear
		default:
			continue // neutral and unknown labels add nothing
		}
		*sum += impactAt(e, nowNano)
	}
	return NewLingering(compress(joy), compress(sad), compress(anger), compress(fear))
}

// Impact is one episode's present weight (002 影響度):
// intensity × salience × confidence × exp(-Δt/τ(salience)), values clamped
// to [0, 1], a future episode counting as now, and 0 below
// exp(-negligibleDecay). /why ranks the causes of a feeling by it.
func Impact(e EpisodeValues, now time.Time) float64 { return impactAt(e, now.UnixNano()) }

// impactAt is Impact in integer time, cheaper per episode than Time.Sub.
func impactAt(e EpisodeValues, nowNano int64) float64 {
	dt := max(float64(nowNano-e.At.UnixNano())*nanoToSeconds, 0)
	w := clampUnit(e.Intensity, 0) * clampUnit(e.Salience, 0) * clampUnit(e.Confidence, 0)
	if w == 0 {
		return 0
	}
	x := dt / tauSeconds(e.Salience)
	if x > negligibleDecay {
		return 0
	}
	return w * math.Exp(-x)
}

// compress maps a sum in [0, ∞) to [0, 1) (002 "1 - exp(-x) で 0..1 に圧縮").
func compress(x float64) float64 { return 1 - math.Exp(-x) }

// NewLingering builds the lingering state from per-label values in [0, 1]
// (clamped; NaN 0): label and intensity by the rules of ComputeLingering,
// and the refusal knobs from anger (DESIGN §4): refusal_allowed = anger ≥
// 0.75, refusal_bias = clamp((anger − 0.55)/0.45, 0, 1), cooperation =
// 1 − refusal_bias. The debug Override uses it too.
func NewLingering(joy, sadness, anger, fear float64) Lingering {
	l := Lingering{
		Joy:     clampUnit(joy, 0),
		Sadness: clampUnit(sadness, 0),
		Anger:   clampUnit(anger, 0),
		Fear:    clampUnit(fear, 0),
	}
	l.Label, l.Intensity = LabelAnger, l.Anger
	for _, c := range []struct {
		label Label
		v     float64
	}{{LabelSadness, l.Sadness}, {LabelFear, l.Fear}, {LabelJoy, l.Joy}} {
		if c.v > l.Intensity {
			l.Label, l.Intensity = c.label, c.v
		}
	}
	if l.Intensity < NeutralBelow {
		l.Label, l.Intensity = LabelNeutral, 0
	}
	l.RefusalAllowed = l.Anger >= RefusalAllowedAt
	l.RefusalBias = clampUnit((l.Anger-RefusalBiasFrom)/RefusalBiasSpan, 0)
	l.Cooperation = 1 - l.RefusalBias
	return l
}

// Override is the admin's in-memory debug override of the lingering emotion
// (002 "デバッグ用：ランタイム状態"; DESIGN §9 `PUT /api/otome_kairo`). It is
// a plain value the admin surface keeps per user in memory and never
// persists; while Active, Apply replaces the computed state.
type Override struct {
	Active  bool    `json:"active"`
	Joy     float64 `json:"joy"`
	Sadness float64 `json:"sadness"`
	Anger   float64 `json:"anger"`
	Fear    float64 `json:"fear"`
}

// Apply returns l unchanged when the override is inactive, else the
// lingering state the override's values imply (see NewLingering), so the
// knobs stay consistent with the overridden anger.
func (o Override) Apply(l Lingering) Lingering {
	if !o.Active {
		return l
	}
	return NewLingering(o.Joy, o.Sadness, o.Anger, o.Fear)
}
