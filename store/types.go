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
	ID        int64     `json:"id"`
	Platform  string    `json:"platform"`
	ChatID    string    `json:"chat_id"`
	ChatKind  string    `json:"chat_kind"`
	MessageID string    `json:"message_id"`
	UserID    string    `json:"user_id"` // hearth user id "platform:id"
	UserName  string    `json:"user_name"`
	Text      string    `json:"text"`
	Modality  string    `json:"modality"`
	Addressed bool      `json:"addressed"`
	At        time.Time `json:"at"`
	Status    string    `json:"status"`
	// Media describes the message's voice note or photo (JSON owned by the
	// bot package) so it can be fetched again after a restart; "" for none.
	Media string `json:"media,omitempty"`
}

// Outbound is one entry of the outbound ledger: something the bot decided to
// say. It is written pending in the transaction that decides it and marked
// sent once the platform accepted it, so a restart resends exactly what was
// not yet delivered.
type Outbound struct {
	ID         int64  `json:"id"`
	Platform   string `json:"platform"`
	ChatID     string `json:"chat_id"`
	ChatKind   string `json:"chat_kind"`
	UserID     string `json:"user_id"`
	Kind       string `json:"kind"`       // "reply", "proactive", "gift", "command", "crisis", "alert"
	InboundID  int64  `json:"inbound_id"` // 0 when not a reply to a stored message
	Text       string `json:"text"`
	Attachment []byte `json:"attachment"` // optional JSON-encoded attachment description (transport-neutral)
	// Voice is a spoken reply's audio, kept only while the entry is pending
	// (MarkOutbound drops it); never exported.
	Voice       []byte    `json:"-"`
	Status      string    `json:"status"`
	PlatformIDs []string  `json:"platform_ids"`
	CreatedAt   time.Time `json:"created_at"`
	SentAt      time.Time `json:"sent_at"`
}

// EmotionRecord is one entry of a user's emotion_history (seed 000).
type EmotionRecord struct {
	Emotion    string  `json:"emotion"`
	Confidence float64 `json:"confidence"`
	Turn       int     `json:"turn"`
}

// User is the per-user (per-relationship) state row.
type User struct {
	ID             string          `json:"id"` // "platform:id"
	Platform       string          `json:"platform"`
	Name           string          `json:"name"`
	PrivateChatID  string          `json:"private_chat_id"` // "" until the user wrote in a private chat
	CreatedAt      time.Time       `json:"created_at"`
	LastUserAt     time.Time       `json:"last_user_at"` // last message from the user
	LastBotAt      time.Time       `json:"last_bot_at"`  // last message to the user
	Messages       int             `json:"messages"`     // messages that ran a turn (commands excluded)
	Reflections    int             `json:"reflections"`
	Mood           float64         `json:"mood"`
	LastIntents    []string        `json:"last_intents"`
	LastEmotion    string          `json:"last_emotion"`
	EmotionHistory []EmotionRecord `json:"emotion_history"`
	InnerState     string          `json:"inner_state"`
	Scratch        string          `json:"scratch"`
	// Relationship is the affinity state (score, state, counters, watch…) as
	// JSON owned by heart; the store keeps it opaque.
	Relationship json.RawMessage `json:"relationship"`
	Proactive    bool            `json:"proactive"`   // proactive messages enabled
	QuietUntil   time.Time       `json:"quiet_until"` // zero: no timed quiet
	Unreachable  bool            `json:"unreachable"` // the platform said the user blocked the bot
	// Emergency contact (seed 003 §3), only used with Consent.
	EmergencyContact string `json:"emergency_contact"`
	EmergencyConsent bool   `json:"emergency_consent"`
	// WatchReviewedAt is when an operator last cleared the user's Watch
	// (ReviewWatch; zero: never). Only ReviewWatch writes it: UpdateUser,
	// CommitTurn and EnsureUser leave it alone, so a writer holding a copy
	// read before the review cannot undo it.
	WatchReviewedAt time.Time `json:"watch_reviewed_at,omitzero"`
}

// Episode is one bot answer with the reflection values of that moment
// (seed 002). HasValues is false when the trailer was missing or invalid.
type Episode struct {
	ID         int64     `json:"id"`
	UserID     string    `json:"user_id"`
	Platform   string    `json:"platform"`
	ChatID     string    `json:"chat_id"`
	InboundID  int64     `json:"inbound_id"`
	UserText   string    `json:"user_text"`
	ReplyText  string    `json:"reply_text"`
	At         time.Time `json:"at"`
	HasValues  bool      `json:"has_values"`
	Label      string    `json:"label"`
	Intensity  float64   `json:"intensity"`
	Salience   float64   `json:"salience"`
	Confidence float64   `json:"confidence"`
	TopicTags  []string  `json:"topic_tags"`
	Intent     string    `json:"intent"`
	Sentiment  float64   `json:"sentiment"`
	Crisis     string    `json:"crisis"`   // the crisis floor's category of the user's text, "" for none
	Modality   string    `json:"modality"` // how the user spoke this turn: text, voice, photo...
	// ChatKind is where it was said, "private" or "group" ("" when unknown,
	// which recall treats as private). CommitTurn fills it from the reply's
	// chat or the inbound message when empty.
	ChatKind string `json:"chat_kind"`
	// Disclosure is the perception's disclosure of the turn ("none",
	// "light", "deep"; "" for episodes older than the recall migration):
	// deep ones weigh more in recall.
	Disclosure string `json:"disclosure"`
}

// Memory is one memory slot of a user (seed 004 slots, seed 003 §8 retention).
type Memory struct {
	UserID    string    `json:"user_id"`
	Slot      int       `json:"slot"`
	Content   string    `json:"content"`
	Retention string    `json:"retention"` // "permanent", "conditional", "ephemeral"
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Signal is one relationship signal (seed 003 §2) kept for rolling windows.
type Signal struct {
	UserID   string    `json:"user_id"`
	At       time.Time `json:"at"`
	Tag      string    `json:"tag"`
	Points   float64   `json:"points"`
	Weight   float64   `json:"weight"`
	Modality string    `json:"modality"`
}

// Usage is token usage of one LLM call.
type Usage struct {
	At         time.Time `json:"at"`
	Kind       string    `json:"kind"`
	UserID     string    `json:"user_id"`
	Prompt     int       `json:"prompt"`
	Cached     int       `json:"cached"` // of Prompt, read from the server's prefix cache
	Completion int       `json:"completion"`
	Offline    bool      `json:"offline"`
	// Units is what a media call consumed, by Kind: seconds transcribed,
	// characters spoken or images shown; Prompt holds its token equivalent.
	Units int `json:"units,omitempty"`
}

// Proactive is one life-loop decision (gated, silent, sent) with its reason.
type Proactive struct {
	UserID  string    `json:"user_id"`
	At      time.Time `json:"at"`
	Outcome string    `json:"outcome"` // "gated", "silent", "sent", "error"
	Reason  string    `json:"reason"`
	Text    string    `json:"text"`
}

// DailyPoint is the mood and affinity of one user on one day (the /me chart).
type DailyPoint struct {
	UserID   string  `json:"user_id"`
	Day      string  `json:"day"` // YYYY-MM-DD in the persona's time zone
	Mood     float64 `json:"mood"`
	Affinity float64 `json:"affinity"`
}

// Gift is one verified gift transaction (seed 001 §5.4).
type Gift struct {
	TransactionID string          `json:"transaction_id"`
	UserID        string          `json:"user_id"`
	Item          string          `json:"item"`
	At            time.Time       `json:"at"`
	MoodBefore    float64         `json:"mood_before"`
	MoodAfter     float64         `json:"mood_after"`
	Result        json.RawMessage `json:"result"` // the API's first answer, replayed for repeats
}

// Turn is everything one turn writes, committed in one transaction
// (DESIGN §3 step 9): the user's new state, the episode, the inbound status,
// the reply in the outbound ledger, memory writes, signals and usage.
type Turn struct {
	InboundID int64 `json:"inbound_id"`
	User      User  `json:"user"`
	// NewUser creates User instead of updating it: a user's first turn
	// writes them in the same transaction as everything else it stores.
	NewUser  bool        `json:"new_user,omitempty"`
	Episode  Episode     `json:"episode"`
	Reply    *Outbound   `json:"reply"` // nil when there is nothing to send
	Extra    []Outbound  `json:"extra"`
	Memories []Memory    `json:"memories"`
	Signals  []Signal    `json:"signals"`
	Usage    []Usage     `json:"usage"`
	Daily    *DailyPoint `json:"daily"`
	// FollowUps are dated things the user mentioned (issue 11 item 5),
	// stored from the episode; UserID defaults to User.ID.
	FollowUps []FollowUp `json:"follow_ups,omitempty"`
	// AskedFollowUps are open follow-ups this reply asks about (a user back
	// for a new talk after their day): marked asked with the turn.
	AskedFollowUps []int64 `json:"asked_follow_ups,omitempty"`
	// Recalled is what the recall stage put in the reply prompt, recorded
	// on the episode for /why.
	Recalled []RecallRef `json:"recalled,omitempty"`
	// Like, when set, records one like; a like of the same message by the
	// same user already stored fails the whole turn with ErrAlreadyLiked.
	Like *Like `json:"like,omitempty"`
}

// Like is one user's like of one bot message (seed 003 §2.3 点赞).
type Like struct {
	UserID     string    `json:"user_id"`
	OutboundID int64     `json:"outbound_id"`
	At         time.Time `json:"at"`
	Emoji      string    `json:"emoji"`
}
