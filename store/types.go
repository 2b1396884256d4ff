package store

import (
	"encoding/json"
	"time"
)

// Inbound statuses: a message is stored as received before any LLM call and
// becomes answered in the transaction that commits its turn.
const (
	StatusReceived = "received"
	StatusAnswered = "answered"
	StatusSkipped  = "skipped" // stored for history but needs no answer (group chatter)
)

// Outbound statuses of the ledger.
const (
	OutboundPending = "pending"
	OutboundSent    = "sent"
	OutboundFailed  = "failed" // gave up (e.g. user unreachable); never retried
)

// Inbound is one stored user message.
type Inbound struct {
	ID        int64
	Platform  string
	ChatID    string
	ChatKind  string
	MessageID string
	UserID    string // hearth user id "platform:id"
	UserName  string
	Text      string
	Modality  string
	Addressed bool
	At        time.Time
	Status    string
}

// Outbound is one entry of the outbound ledger: something the bot decided to
// say. It is written pending in the transaction that decides it and marked
// sent once the platform accepted it, so a restart resends exactly what was
// not yet delivered.
type Outbound struct {
	ID          int64
	Platform    string
	ChatID      string
	ChatKind    string
	UserID      string
	Kind        string // "reply", "proactive", "gift", "command", "crisis", "alert"
	InboundID   int64  // 0 when not a reply to a stored message
	Text        string
	Attachment  []byte // optional JSON-encoded attachment description (transport-neutral)
	Status      string
	PlatformIDs []string
	CreatedAt   time.Time
	SentAt      time.Time
}

// EmotionRecord is one entry of a user's emotion_history (seed 000).
type EmotionRecord struct {
	Emotion    string  `json:"emotion"`
	Confidence float64 `json:"confidence"`
	Turn       int     `json:"turn"`
}

// User is the per-user (per-relationship) state row.
type User struct {
	ID             string // "platform:id"
	Platform       string
	Name           string
	PrivateChatID  string // "" until the user wrote in a private chat
	CreatedAt      time.Time
	LastUserAt     time.Time // last message from the user
	LastBotAt      time.Time // last message to the user
	Messages       int       // messages that ran a turn (commands excluded)
	Reflections    int
	Mood           float64
	LastIntents    []string
	LastEmotion    string
	EmotionHistory []EmotionRecord
	InnerState     string
	Scratch        string
	// Relationship is the affinity state (score, state, counters, watch…) as
	// JSON owned by heart; the store keeps it opaque.
	Relationship json.RawMessage
	Proactive    bool      // proactive messages enabled
	QuietUntil   time.Time // zero: no timed quiet
	Unreachable  bool      // the platform said the user blocked the bot
	// Emergency contact (seed 003 §3), only used with Consent.
	EmergencyContact string
	EmergencyConsent bool
}

// Episode is one bot answer with the reflection values of that moment
// (seed 002). HasValues is false when the trailer was missing or invalid.
type Episode struct {
	ID         int64
	UserID     string
	Platform   string
	ChatID     string
	InboundID  int64
	UserText   string
	ReplyText  string
	At         time.Time
	HasValues  bool
	Label      string
	Intensity  float64
	Salience   float64
	Confidence float64
	TopicTags  []string
	Intent     string
	Sentiment  float64
}

// Memory is one memory slot of a user (seed 004 slots, seed 003 §8 retention).
type Memory struct {
	UserID    string
	Slot      int
	Content   string
	Retention string // "permanent", "conditional", "ephemeral"
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Signal is one relationship signal (seed 003 §2) kept for rolling windows.
type Signal struct {
	UserID   string
	At       time.Time
	Tag      string
	Points   float64
	Weight   float64
	Modality string
}

// Usage is token usage of one LLM call.
type Usage struct {
	At         time.Time
	Kind       string
	UserID     string
	Prompt     int
	Completion int
	Offline    bool
}

// Proactive is one life-loop decision (gated, silent, sent) with its reason.
type Proactive struct {
	UserID  string
	At      time.Time
	Outcome string // "gated", "silent", "sent", "error"
	Reason  string
	Text    string
}

// DailyPoint is the mood and affinity of one user on one day (the /me chart).
type DailyPoint struct {
	UserID   string
	Day      string // YYYY-MM-DD in the persona's time zone
	Mood     float64
	Affinity float64
}

// Gift is one verified gift transaction (seed 001 §5.4).
type Gift struct {
	TransactionID string
	UserID        string
	Item          string
	At            time.Time
	MoodBefore    float64
	MoodAfter     float64
	Result        json.RawMessage // the API's first answer, replayed for repeats
}

// Turn is everything one turn writes, committed in one transaction
// (DESIGN §3 step 9): the user's new state, the episode, the inbound status,
// the reply in the outbound ledger, memory writes, signals and usage.
type Turn struct {
	InboundID int64
	User      User
	Episode   Episode
	Reply     *Outbound // nil when there is nothing to send
	Extra     []Outbound
	Memories  []Memory
	Signals   []Signal
	Usage     []Usage
	Daily     *DailyPoint
}
