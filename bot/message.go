package bot

import (
	"time"
)

// Platform names as they appear in user ids ("telegram:42") and in the store.
const (
	PlatformTelegram = "telegram"
	PlatformDiscord  = "discord"
	PlatformConsole  = "console"
)

// ChatKind tells private conversations from groups: private memories and
// proactive messages exist only in private chats (DESIGN §3 step 7, §7).
type ChatKind string

// Chat kinds.
const (
	ChatPrivate ChatKind = "private"
	ChatGroup   ChatKind = "group"
)

// Modality is what kind of message the user sent. Seed 003 §1.1 weighs
// signals by the effort they cost the user: text < voice < photo.
type Modality string

// Modalities a transport may report.
const (
	ModalityText    Modality = "text"
	ModalityVoice   Modality = "voice"
	ModalityPhoto   Modality = "photo"
	ModalitySticker Modality = "sticker"
	ModalityOther   Modality = "other"
)

// ChatRef addresses a chat on one platform. ChatID is the platform's own id
// as a string (Telegram chat id, Discord channel id, console user name).
type ChatRef struct {
	Platform string   `json:"platform"`
	ChatID   string   `json:"chat_id"`
	Kind     ChatKind `json:"kind"`
}

// Message is one inbound user message, transport-neutral.
type Message struct {
	Platform  string
	ChatID    string
	ChatKind  ChatKind
	MessageID string // the platform's message id; (Platform, ChatID, MessageID) is unique
	UserID    string // the platform's user id, without the platform prefix
	UserName  string // a display name for prompts and /me
	Text      string
	Modality  Modality
	At        time.Time
	// Addressed is true when the bot must answer: always in private chats; in
	// groups only when the bot was @mentioned or replied to. Transports set it.
	Addressed bool
	// Media is the message's voice note or photo, nil for none; Text is then
	// its caption. A voice note's transcript becomes the text of its turn.
	Media *MediaRef
}

// User is the hearth user id: "<platform>:<user id>".
func (m Message) User() string { return UserKey(m.Platform, m.UserID) }

// Chat is the chat the message arrived in.
func (m Message) Chat() ChatRef {
	return ChatRef{Platform: m.Platform, ChatID: m.ChatID, Kind: m.ChatKind}
}

// UserKey builds a hearth user id from a platform and its user id.
func UserKey(platform, userID string) string { return platform + ":" + userID }

// Reaction is a user's reaction to one of the bot's messages: the seed 003
// §2.3 "like" feedback signal.
type Reaction struct {
	Platform  string
	ChatID    string
	MessageID string // the platform id of the bot's message that was reacted to
	UserID    string
	Emoji     string
	At        time.Time
}

// User is the hearth user id of the person who reacted.
func (r Reaction) User() string { return UserKey(r.Platform, r.UserID) }

// File is an attachment: /export's JSON document or /me's PNG chart.
type File struct {
	Name string
	MIME string
	Data []byte
}

// Button is an inline button; Data is sent back as a command line
// (for example "/memories") when the user presses it.
type Button struct {
	Label string
	Data  string
}

// Outgoing is one thing the bot says. Text is plain text; transports split it
// at their platform limit. Document and Photo are optional attachments.
type Outgoing struct {
	Text     string
	Document *File
	Photo    *File
	Buttons  [][]Button
	// Voice is a spoken reply, sent as a voice note with Text as its caption
	// where it fits, else followed by Text.
	Voice *Voice
}

// Sent identifies what a platform accepted, so reactions can be matched to
// bot messages and the outbound ledger can record delivery.
type Sent struct {
	MessageIDs []string
}
