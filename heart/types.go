package heart

// Emotion is a user emotion label of seed 000 (000_c7e9a00696ccb7ec.txt).
type Emotion string

// The emotion labels of DESIGN §3 step 2, by category.
const (
	Neutral Emotion = "neutral"

	Happy    Emotion = "happy"
	Excited  Emotion = "excited"
	Grateful Emotion = "grateful"
	Curious  Emotion = "curious"

	HelpSeeking       Emotion = "help_seeking"
	InfoSeeking       Emotion = "info_seeking"
	ValidationSeeking Emotion = "validation_seeking"

	Sad        Emotion = "sad"
	Anxious    Emotion = "anxious"
	Angry      Emotion = "angry"
	Lonely     Emotion = "lonely"
	Frustrated Emotion = "frustrated"
)

// Intent is the L1 intent enum of seed 001 §1 (001_fed6ff3e404e5019.txt).
type Intent string

// The 14 intents of seed 001 §1.
const (
	Greeting  Intent = "GREETING"
	SmallTalk Intent = "SMALL_TALK"
	Closing   Intent = "CLOSING"

	Compliment     Intent = "COMPLIMENT"
	Flirt          Intent = "FLIRT"
	LoveConfession Intent = "LOVE_CONFESSION"
	Comfort        Intent = "COMFORT"

	Criticism Intent = "CRITICISM"
	Insult    Intent = "INSULT"
	Ignore    Intent = "IGNORE"

	Apology     Intent = "APOLOGY"
	GiftSend    Intent = "GIFT_SEND"
	RequestNSFW Intent = "REQUEST_NSFW"
	Invitation  Intent = "INVITATION"
)

// Disclosure is how much of themselves the user revealed this turn
// (DESIGN §3 step 3; seed 003 §2.1 "deep self-disclosure").
type Disclosure string

// Disclosure levels.
const (
	DisclosureNone  Disclosure = "none"
	DisclosureLight Disclosure = "light"
	DisclosureDeep  Disclosure = "deep"
)

// Perception is the validated L1 result of one user message (DESIGN §3 step 3).
type Perception struct {
	Intent     Intent     `json:"intent_category"`
	Sentiment  float64    `json:"sentiment"` // -1..1
	Disclosure Disclosure `json:"disclosure"`
	Crisis     bool       `json:"crisis"`
}
