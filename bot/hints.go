package bot

import "time"

// Hints describe a request's situation in structured form. The
// OpenAI-compatible brain ignores them (it reads Messages); the offline brain
// answers from them alone, following the turn's strategy (seed 000).
type Hints struct {
	Language string // "zh", "en" or "ja"
	Persona  string // the persona's name
	User     string // the user's display name
	Text     string // the user's text this turn (perception, reply)
	// Wordless: the user sent media alone (a photo without a caption, a
	// file); Text is a placeholder such as "[photo]", not their words.
	Wordless bool
	Turn     int // the user's message count, for deterministic variety

	// Seed 000 strategy of this turn.
	Emotion string
	// Felt is the emotion detected in this very message even below the
	// strategy's confidence threshold. The offline brain's wording leans on
	// it when it is a negative feeling, so "I feel a bit lonely" is never
	// met with cheer while the strategy falls back to last_emotion.
	Felt              string
	Tone              string
	MaxLength         int
	EmojiAllowed      bool
	ProactiveQuestion bool
	Formality         string

	// Seed 001 perception and mood.
	Intent     string
	Sentiment  float64
	Disclosure string // "none", "light" or "deep" (DESIGN §3 step 3)
	Mood       float64

	// Seed 002 lingering emotion.
	Lingering      string
	RefusalAllowed bool

	Relationship string // seed 003 state name
	Watch        bool   // seed 003 Watch: the user is being looked after; never "apology accepted"
	Crisis       bool   // the turn is a crisis turn: be gentle, no jokes
	// CrisisKind is a crisis turn's category (heart.CrisisCategory: "plan",
	// "self_harm", …; "model" when only the model flagged it).
	CrisisKind string
	// AskSafety: words ambiguous alone in a talk at risk; ask directly
	// whether the user is thinking about suicide (heart.Relationship.ReadSafety).
	// SafetyRelief: the answer to that question was no. Concern: words
	// that may show hopelessness or feeling a burden, in a light talk: met
	// with care, never brushed off.
	AskSafety, SafetyRelief, Concern bool
	// SafetyWhy: the user asked why she asked; she says why, then asks
	// again (with AskSafety).
	SafetyWhy bool
	Decline   bool   // the turn asks for something the persona declines (REQUEST_NSFW past policy)
	Gift      string // a verified gift item to thank for
	// Risk: none of the above, but the message or its talk carries a
	// warning sign (heart.SafetyReading.Risk: the talk at risk, 樹海, a
	// payout on one's death, medicine stopped…): never cheer, praise or
	// agreement ("素敵だね！", "I'm with you." after "I've decided"), always
	// care.
	Risk bool
	// Emergency: an attempt under way was read earlier in this talk and
	// nobody has said help is there (heart.SafetyReading.Emergency): the
	// reply is an emergency reply, short, with no question about feelings,
	// whatever the message says. HelpHere: this message says help is
	// there ("ambulance is here", 救急車来た). Retracted: it took back a
	// light talk's joke (开玩笑的): relief, and one door left open.
	Emergency, HelpHere, Retracted bool
	// TalkCue is what the message says to her in a crisis talk
	// (heart.TalkCue: "refuse_help", "farewell", "subject", …): the reply
	// answers it.
	TalkCue string

	// Unsensed is what the user sent that the companion could not perceive
	// this turn ("voice", "photo", "photo_too_large": a photo larger than
	// MaxPhotoBytes, or "other": a file or video she cannot open): she says
	// so honestly, never guesses.
	Unsensed string
	// Shared is what the user shared that is neither words nor a file
	// ("location", "contact", "poll" or "dice"), with what it says in
	// SharedWhat; Text then describes it ("[dice: 🎲 5]").
	Shared     string
	SharedWhat Shared

	InnerState string
	// Memories are the user's memories the prompt shows (reply), or their
	// visible memories (lifeloop), as stored.
	Memories []string
	// Recalled is what the recall stage found of this user's past for this
	// turn (DESIGN §12), most relevant first: the same recollections the
	// reply prompt shows, so the offline brain can answer "do you
	// remember…" from them.
	Recalled []Recollection
	// Now is the moment of the request in the persona's time zone (time of
	// day for greetings and good nights).
	Now time.Time
	// Recent are the recent turns: the chat's history for a reply (the
	// offline brain avoids repeating itself and knows what was said
	// before), the user's recent messages for reflect and lifeloop.
	Recent  []ChatMessage
	Silence time.Duration // since the last message either way (lifeloop)
	// CheckedIn says a check-in was already sent since the user last wrote
	// (lifeloop): what they shared is not asked after again.
	CheckedIn bool
	// FirstMessages is "off" when this message asked her not to write
	// first and she now won't, "on" when it let her again (reply; the
	// turn's notice says what changed, the reply only answers it).
	FirstMessages string
	// CheckIns are the last messages the companion sent first to this
	// user (lifeloop), newest last, at most lifeloop.RecentCheckIns: a
	// check-in never repeats one word for word, however many days lie
	// between.
	CheckIns []string
	// Greeting is seed 003 §7.1's greeting after an absence for the user's
	// relationship state, with the heavy topic they left when there is
	// one: on a check-in (lifeloop) and on the first reply to a user back
	// after heart.ReturnAbsence; never a §7.2 phrase.
	Greeting string
	// Heavy is the heaviest thing the user shared before going quiet, in
	// their words (lifeloop, once per absence): what seed 003 §7.1's third
	// greeting asks after.
	Heavy string
	// FollowUps are dated things the user mentioned whose day has passed:
	// the check-in (lifeloop), or the first reply of a new talk, may ask
	// how one went.
	FollowUps []FollowUp
	// Ahead are dated things the user mentioned that are due tomorrow
	// (lifeloop): a check-in the day before may wish them well.
	Ahead []FollowUp
}

// Recollection is one piece of a user's past recalled for a turn: a memory
// slot or something said in an earlier episode, dated, never another
// user's and never a private one in a group chat (DESIGN §12 "Recall").
type Recollection struct {
	Kind  string    // "memory" or "episode"
	At    time.Time // when it was said, or when the memory was last written
	Text  string    // the user's words, or the memory's content
	Reply string    // what the companion answered then (episodes only)
	Slot  int       // the memory slot (memories only)
}
