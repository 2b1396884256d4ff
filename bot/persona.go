package bot

import (
	"strings"
	"time"

	"hearth/heart"
)

// Persona is an instance's character and settings, parsed by cmd/hearth
// from YAML or a Character Card and stored in the instance file. Packages
// receive it as a plain value.
type Persona struct {
	Name           string
	Language       string // "zh", "en" or "ja"
	Text           string // who the persona is, for the system prompt
	InnerStateSeed string // placeholders {name} and {user} (seed 004)
	FirstMessage   string // optional greeting for /start (Character Card first_mes)
	// AlternateGreetings rotate with FirstMessage for /start (Character
	// Card alternate_greetings).
	AlternateGreetings []string
	Examples           string // optional example dialogue (Character Card mes_example)
	// PostHistory is inserted after the history, just before the user's
	// message (Character Card post_history_instructions, SillyTavern
	// semantics).
	PostHistory string
	// Lore is background knowledge inserted when recent messages name it
	// (Character Card character_book, or the persona's lore key).
	Lore heart.LoreBook

	Dependency float64 // seed 001 §3.3 sensitivity
	Pride      float64 // seed 001 §5.2 apology pride penalty

	Perception string // "llm" or "heuristic"

	// Lexicon extends the built-in emotion keywords: label → keywords.
	Lexicon map[string][]string

	CrisisResources string // sent at once when a user enters Watch

	// Content policy: explicit content is never produced unless AllowExplicit.
	AllowExplicit bool
	// DailyPowerRequests is the per-user daily allowance of REQUEST_NSFW and
	// INVITATION requests (DESIGN §3 step 4 "consume Power").
	DailyPowerRequests int

	Budget   Budget
	Timezone *time.Location
	LifeLoop LifeLoop
	Voice    VoiceSettings
}

// VoiceSettings are the persona's voice keys (DESIGN §9 voice.name,
// voice.replies).
type VoiceSettings struct {
	Name    string // the speech voice; "" means DefaultVoice
	Replies string // VoiceMirror (default when ""), VoiceAlways or VoiceNever
}

// Budget bounds the instance's LLM cost (DESIGN §8).
type Budget struct {
	DailyTokens int     // 0: unlimited
	UserShare   float64 // optional per-user share of DailyTokens, 0..1; 0: none
}

// LifeLoop holds the persona's life-loop settings (DESIGN §9 persona keys).
type LifeLoop struct {
	Schedule   string        // cron spec, "@every 30m", or "off"
	QuietStart time.Duration // offset from midnight; QuietStart == QuietEnd: none
	QuietEnd   time.Duration
	MinSilence time.Duration
	MinState   string // stranger, acquaintance, friend, close
	DailyCap   int
}

// UserMacro is the Character Card macro for the user's name. Persona text,
// examples and greetings keep it as written; WithUser fills it with the
// display name of the user they are used for.
const UserMacro = "{{user}}"

// WithUser fills UserMacro in text with the user's display name.
func WithUser(text, user string) string {
	return strings.ReplaceAll(text, UserMacro, user)
}

// withUserAll is WithUser over texts.
func withUserAll(texts []string, user string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = WithUser(t, user)
	}
	return out
}
