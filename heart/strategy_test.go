package heart

import (
	"strings"
	"testing"
)

// TestSeed000StrategyTable covers the strategy scenarios of seed 000 by name.
func TestSeed000StrategyTable(t *testing.T) {
	tests := []struct {
		name    string
		emotion Emotion
		want    Strategy // Modulation and Formality checked separately
	}{
		{"000 Map neutral emotion to professional strategy", Neutral,
			Strategy{Tone: "professional", MaxLength: 300, UseMemory: true, ProactiveQuestion: false, EmojiAllowed: false}},
		{"000 Map happy emotion to warm strategy with emoji", Happy,
			Strategy{Tone: "warm", MaxLength: 250, UseMemory: true, ProactiveQuestion: true, EmojiAllowed: true}},
		{"000 Map sad emotion to empathetic strategy without emoji", Sad,
			Strategy{Tone: "empathetic", MaxLength: 400, UseMemory: true, ProactiveQuestion: false, EmojiAllowed: false}},
		{"000 Fallback for unknown emotion", Emotion("unknown"),
			Strategy{Tone: "professional", MaxLength: 300, UseMemory: true, ProactiveQuestion: false, EmojiAllowed: false}},
		{"000 Fallback for empty emotion", Emotion(""),
			Strategy{Tone: "professional", MaxLength: 300, UseMemory: true, ProactiveQuestion: false, EmojiAllowed: false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := StrategyFor(tc.emotion)
			got.Modulation, got.Formality = "", ""
			if got != tc.want {
				t.Fatalf("%s: StrategyFor(%q) = %+v, want %+v", seed000, tc.emotion, got, tc.want)
			}
		})
	}
	if StrategyFor(Emotion("unknown")) != StrategyFor(Neutral) {
		t.Errorf("unknown strategy differs from neutral's")
	}
}

// TestSeed000EmojiByCategory: emoji_allowed follows the seed's category rule
// for every label; every non-neutral label has a modulation, neutral none.
func TestSeed000EmojiByCategory(t *testing.T) {
	for _, e := range Emotions() {
		s := StrategyFor(e)
		wantEmoji := e.Category() == CategoryPositive || e.Category() == CategorySeeking
		if s.EmojiAllowed != wantEmoji {
			t.Errorf("%s: %s emoji_allowed %v, want %v", seed000, e, s.EmojiAllowed, wantEmoji)
		}
		if (s.Modulation == "") != (e == Neutral) {
			t.Errorf("%s: modulation %q", e, s.Modulation)
		}
		if s.Tone == "" || s.MaxLength <= 0 || (s.Formality != FormalityCasual && s.Formality != FormalityFormal) {
			t.Errorf("%s: incomplete row %+v", e, s)
		}
		if StrategyFor(e) != s {
			t.Errorf("%s: not deterministic", e)
		}
	}
	if got := StrategyFor(Anxious).Modulation; got != "User is anxious. Be calm, reassuring, and clear." {
		t.Errorf("%s: anxious modulation %q", seed000, got)
	}
}

// TestSeed000ChooseEmotion covers "High-confidence heuristic emotion drives
// current turn strategy" and "Low-confidence heuristic falls back to
// last_emotion", end to end from text.
func TestSeed000ChooseEmotion(t *testing.T) {
	l := mustLexicon(t, nil)
	tests := []struct {
		name string
		text string
		last Emotion
		want Emotion
		tone string
	}{
		{"000 High-confidence heuristic emotion drives current turn strategy", "我好难过，好伤心，一直在哭", Curious, Sad, "empathetic"},
		{"000 Low-confidence heuristic falls back to last_emotion", "有点难过", Curious, Curious, "engaging"},
		{"confidence exactly at threshold 0.5 drives", "so happy and glad", Sad, Happy, "warm"},
		{"no last_emotion: a single keyword is all there is", "有点难过", "", Sad, "empathetic"},
		{"neutral last_emotion: 我好孤独 shapes the strategy", "我好孤独", Neutral, Lonely, "companionable"},
		{"neutral last_emotion: I feel lonely tonight", "I feel lonely tonight", Neutral, Lonely, "companionable"},
		{"unknown last_emotion: the single keyword", "有点难过", "bogus", Sad, "empathetic"},
		{"nothing detected and nothing known is neutral", "ok", "", Neutral, "professional"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ChooseEmotion(l.Detect(tc.text), tc.last)
			if got != tc.want || StrategyFor(got).Tone != tc.tone {
				t.Fatalf("%s: ChooseEmotion = %s (tone %s), want %s (%s)", seed000, got, StrategyFor(got).Tone, tc.want, tc.tone)
			}
		})
	}
	if ChooseEmotion(Detection{Emotion: "bogus", Confidence: 0.7}, Happy) != Happy {
		t.Error("an unknown detected label won")
	}
	if ChooseEmotion(Detection{Emotion: "bogus", Confidence: 0.3}, Neutral) != Neutral {
		t.Error("an unknown weak label won")
	}
}

// TestNextLastEmotion: what a turn leaves in last_emotion. A single
// keyword reaches it when it is a worry or when nothing was known, so the
// next keyword-less turn is still met gently (seed 000 falls back to
// last_emotion below 0.5).
func TestNextLastEmotion(t *testing.T) {
	weak := func(e Emotion) Detection { return Detection{Emotion: e, Confidence: ConfidenceOne} }
	rows := []struct {
		name   string
		d      Detection
		chosen Emotion
		quiet  int
		want   Emotion
	}{
		{"confident detection", Detection{Emotion: Sad, Confidence: 0.7}, Sad, 0, Sad},
		{"a weak worry replaces a happy mood", weak(Lonely), Happy, 0, Lonely},
		{"a weak joy does not replace sadness", weak(Happy), Sad, 0, Sad},
		{"a weak joy after nothing is kept", weak(Happy), Neutral, 0, Happy},
		{"no keyword keeps the mood", Detection{}, Curious, 1, Curious},
		{"three quiet turns end it", Detection{}, Curious, 3, Neutral},
	}
	for _, r := range rows {
		if got := NextLastEmotion(r.d, r.chosen, r.quiet, 3); got != r.want {
			t.Errorf("%s: NextLastEmotion = %s, want %s", r.name, got, r.want)
		}
	}
}

// TestSeed000Modulation covers "Modulation instruction appears in LLM
// prompt" and "No modulation for neutral emotion".
func TestSeed000Modulation(t *testing.T) {
	t.Run("000 Modulation instruction appears in LLM prompt", func(t *testing.T) {
		p := BuildReplyPrompt(PromptInput{PersonaName: "Luna", Language: "en", Strategy: StrategyFor(Anxious)})
		if !strings.Contains(p.State, "## Modulation\nUser is anxious. Be calm, reassuring, and clear.") {
			t.Fatalf("%s: modulation missing:\n%s", seed000, p.State)
		}
		// It supplements the strategy parameters, it does not replace them.
		if !strings.Contains(p.State, "tone=calm") {
			t.Fatalf("strategy parameters missing:\n%s", p.State)
		}
	})
	t.Run("000 No modulation for neutral emotion", func(t *testing.T) {
		p := BuildReplyPrompt(PromptInput{PersonaName: "Luna", Language: "en", Strategy: StrategyFor(Neutral)})
		if strings.Contains(p.System+p.State, "## Modulation") {
			t.Fatalf("%s: neutral prompt has a modulation section:\n%s", seed000, p.State)
		}
	})
}
