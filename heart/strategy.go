package heart

// Strategy is seed 000's deterministic response strategy for one turn
// (000_c7e9a00696ccb7ec.txt "Deterministic Response Strategy Mapping"): no
// LLM takes part in choosing it, and the same emotion always yields the same
// strategy.
type Strategy struct {
	Tone              string `json:"tone"`
	MaxLength         int    `json:"max_length"` // target reply length in characters
	UseMemory         bool   `json:"use_memory"`
	ProactiveQuestion bool   `json:"proactive_question"`
	Formality         string `json:"formality"` // "casual" or "formal"
	EmojiAllowed      bool   `json:"emoji_allowed"`
	// Modulation is the modulation_instruction injected into the system
	// prompt as its own section; empty for neutral (seed 000 "No modulation
	// for neutral emotion").
	Modulation string `json:"modulation_instruction,omitempty"`
}

// Formality values of seed 000.
const (
	FormalityCasual = "casual"
	FormalityFormal = "formal"
)

// StrategyConfidenceThreshold is the confidence at which the current turn's
// detection drives the strategy (000_c7e9a00696ccb7ec.txt "置信度 0.7（≥
// 阈值 0.5）").
const StrategyConfidenceThreshold = 0.5

// ModulationAnxious is seed 000's example instruction, verbatim
// (000_c7e9a00696ccb7ec.txt "Modulation instruction appears in LLM prompt").
const ModulationAnxious = "User is anxious. Be calm, reassuring, and clear."

// StrategyFor returns the strategy table row of e. Neutral, happy and sad
// are seed 000's scenarios verbatim; emoji_allowed follows seed 000's
// category rule for every label; the other rows are ours, chosen so that
// negative labels get longer, gentler, memory-using replies without probing
// questions. An unknown label gets neutral's row (seed 000 "Fallback for
// unknown emotion").
func StrategyFor(e Emotion) Strategy {
	s := strategyRow(e)
	s.EmojiAllowed = e.Category() == CategoryPositive || e.Category() == CategorySeeking
	return s
}

// strategyRow is the table without the category-derived emoji flag.
func strategyRow(e Emotion) Strategy {
	switch e {
	// 000_c7e9a00696ccb7ec.txt "Map happy emotion to warm strategy with emoji".
	case Happy:
		return Strategy{Tone: "warm", MaxLength: 250, UseMemory: true, ProactiveQuestion: true, Formality: FormalityCasual,
			Modulation: "User is happy. Share the joy warmly and keep the good mood going."}
	case Excited:
		return Strategy{Tone: "enthusiastic", MaxLength: 250, UseMemory: true, ProactiveQuestion: true, Formality: FormalityCasual,
			Modulation: "User is excited. Match their energy and ask about what excites them."}
	case Grateful:
		return Strategy{Tone: "warm", MaxLength: 200, UseMemory: true, ProactiveQuestion: false, Formality: FormalityCasual,
			Modulation: "User is grateful. Accept the thanks graciously, without downplaying it."}
	case Curious:
		return Strategy{Tone: "engaging", MaxLength: 350, UseMemory: true, ProactiveQuestion: true, Formality: FormalityCasual,
			Modulation: "User is curious. Feed the curiosity with something interesting and invite their thoughts."}
	case HelpSeeking:
		return Strategy{Tone: "supportive", MaxLength: 400, UseMemory: true, ProactiveQuestion: true, Formality: FormalityCasual,
			Modulation: "User needs help. Be practical and concrete; ask one clarifying question if needed."}
	case InfoSeeking:
		return Strategy{Tone: "informative", MaxLength: 350, UseMemory: false, ProactiveQuestion: false, Formality: FormalityFormal,
			Modulation: "User wants information. Answer clearly and directly first, then add context."}
	case ValidationSeeking:
		return Strategy{Tone: "affirming", MaxLength: 300, UseMemory: true, ProactiveQuestion: false, Formality: FormalityCasual,
			Modulation: "User seeks reassurance. Be honest and kind; acknowledge what they did well."}
	// 000_c7e9a00696ccb7ec.txt "Map sad emotion to empathetic strategy without emoji".
	case Sad:
		return Strategy{Tone: "empathetic", MaxLength: 400, UseMemory: true, ProactiveQuestion: false, Formality: FormalityCasual,
			Modulation: "User is sad. Acknowledge the feeling first, be gentle, and do not rush to fix it."}
	case Anxious:
		return Strategy{Tone: "calm", MaxLength: 350, UseMemory: true, ProactiveQuestion: false, Formality: FormalityCasual,
			Modulation: ModulationAnxious}
	case Angry:
		return Strategy{Tone: "patient", MaxLength: 300, UseMemory: false, ProactiveQuestion: false, Formality: FormalityCasual,
			Modulation: "User is angry. Stay calm, do not argue or lecture; acknowledge what upset them."}
	case Lonely:
		return Strategy{Tone: "companionable", MaxLength: 400, UseMemory: true, ProactiveQuestion: true, Formality: FormalityCasual,
			Modulation: "User feels lonely. Be present and warm; show you remember them and invite them to talk."}
	case Frustrated:
		return Strategy{Tone: "patient", MaxLength: 300, UseMemory: true, ProactiveQuestion: false, Formality: FormalityCasual,
			Modulation: "User is frustrated. Validate the frustration briefly, then keep it simple and constructive."}
	default:
		// 000_c7e9a00696ccb7ec.txt "Map neutral emotion to professional strategy"
		// and "Fallback for unknown emotion". Formality is ours.
		return Strategy{Tone: "professional", MaxLength: 300, UseMemory: true, ProactiveQuestion: false, Formality: FormalityFormal}
	}
}

// ChooseEmotion picks the emotion whose strategy this turn uses (seed 000
// "Current-Turn Emotion Strategy"): the current detection when its
// confidence reaches StrategyConfidenceThreshold, else the user's
// last_emotion ("Low-confidence heuristic falls back to last_emotion").
// When last_emotion says nothing (neutral, empty or unknown), a
// low-confidence detection is the only feeling there is, and it is used:
// "我好孤独" or "I feel lonely tonight" (one keyword, confidence 0.3) after
// small talk gets the lonely strategy rather than neutral's. An unknown
// detected or stored label never wins.
func ChooseEmotion(d Detection, last Emotion) Emotion {
	if d.Confidence >= StrategyConfidenceThreshold && d.Emotion.Known() {
		return d.Emotion
	}
	if last.Known() && last != Neutral {
		return last
	}
	if d.Confidence > 0 && d.Emotion.Known() {
		return d.Emotion
	}
	return Neutral
}

// NextLastEmotion is the last_emotion carried into the next turn after a
// turn that detected d and used chosen. A confident detection replaces it;
// a low-confidence one replaces it when it is a negative feeling (a worry
// is never drowned out by an older happy mood) or when nothing was known;
// otherwise the emotion the strategy used is kept, until quietTurns turns
// in a row matched no keyword, when it returns to neutral (a sad user is
// met gently for a while, not forever).
func NextLastEmotion(d Detection, chosen Emotion, quietTurns, hold int) Emotion {
	switch {
	case d.Confidence >= StrategyConfidenceThreshold && d.Emotion.Known():
		return d.Emotion
	case d.Confidence > 0 && d.Emotion.Known() && (d.Emotion.Category() == CategoryNegative || chosen == Neutral):
		return d.Emotion
	case quietTurns >= hold:
		return Neutral
	}
	return chosen
}
