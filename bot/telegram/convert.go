package telegram

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"hearth/bot"
)

// self is what the transport knows about its own bot account, for deciding
// whether a group message is addressed to it.
type self struct {
	ID       int64
	Username string // without "@"
}

// event is what one update means to hearth: a message, a reaction, or
// nothing (Message and Reaction both nil). CallbackID is set when the message
// came from an inline button and the callback query must be answered.
type event struct {
	Message    *bot.Message
	Reaction   *bot.Reaction
	CallbackID string
}

// convert turns a decoded update into an event. now stamps callback queries,
// which carry no date of their own.
func (s self) convert(u wireUpdate, now time.Time) event {
	switch {
	case u.Message != nil:
		return event{Message: s.message(u.Message)}
	case u.EditedMessage != nil:
		// An edit keeps its message id, so the handler's dedupe on
		// (platform, chat, message id) drops it when the original was seen;
		// an edit of a message hearth never saw is taken as that message.
		return event{Message: s.message(u.EditedMessage)}
	case u.CallbackQuery != nil:
		return s.callback(u.CallbackQuery, now)
	case u.MessageReaction != nil:
		return event{Reaction: reaction(u.MessageReaction)}
	}
	return event{}
}

// message converts a user's message. Messages without a sender (channel
// posts) and messages from bots are dropped: a companion talks to people,
// and answering other bots can loop forever.
func (s self) message(m *wireMessage) *bot.Message {
	if m.From == nil || m.From.IsBot {
		return nil
	}
	text, entities := m.Text, m.Entities
	if text == "" {
		text, entities = m.Caption, m.CaptionEntities
	}
	out := &bot.Message{
		Platform:  bot.PlatformTelegram,
		ChatID:    strconv.FormatInt(m.Chat.ID, 10),
		ChatKind:  chatKind(m.Chat.Type),
		MessageID: strconv.FormatInt(m.MessageID, 10),
		UserID:    strconv.FormatInt(m.From.ID, 10),
		UserName:  displayName(*m.From),
		Modality:  modality(m),
		At:        time.Unix(m.Date, 0).UTC(),
		Media:     mediaOf(m),
	}
	out.Addressed = out.ChatKind == bot.ChatPrivate ||
		s.mentioned(text, entities) ||
		(m.ReplyToMessage != nil && m.ReplyToMessage.From != nil && m.ReplyToMessage.From.ID == s.ID) ||
		bareCommand(text)
	if text == "" && m.Sticker != nil {
		// A sticker's emoji is the closest thing it has to words.
		text = m.Sticker.Emoji
	}
	out.Text = s.normaliseCommand(text)
	return out
}

// callback converts an inline button press into a message whose text is the
// button's data (a command line such as "/memories"). Pressing our button is
// always addressed to us.
func (s self) callback(c *wireCallback, now time.Time) event {
	if c.From.IsBot || c.ID == "" {
		return event{}
	}
	chatID, kind := c.From.ID, bot.ChatPrivate
	if c.Message != nil {
		chatID, kind = c.Message.Chat.ID, chatKind(c.Message.Chat.Type)
	}
	return event{
		Message: &bot.Message{
			Platform:  bot.PlatformTelegram,
			ChatID:    strconv.FormatInt(chatID, 10),
			ChatKind:  kind,
			MessageID: "cb:" + c.ID,
			UserID:    strconv.FormatInt(c.From.ID, 10),
			UserName:  displayName(c.From),
			Text:      s.normaliseCommand(c.Data),
			Modality:  bot.ModalityText,
			At:        now.UTC(),
			Addressed: true,
		},
		CallbackID: c.ID,
	}
}

// reaction converts a reaction change. Only added reactions count (seed 003
// "like" feedback); removals and anonymous reactions are dropped.
func reaction(r *wireReaction) *bot.Reaction {
	if r.User == nil || r.User.IsBot || len(r.NewReaction) == 0 {
		return nil
	}
	emoji := ""
	for _, t := range r.NewReaction {
		if t.Type == "emoji" && t.Emoji != "" {
			emoji = t.Emoji
			break
		}
	}
	if emoji == "" {
		// A custom emoji or paid reaction: the handler decides whether it
		// is a like (heart.ReactionIsLike).
		switch first := r.NewReaction[0]; {
		case first.CustomEmojiID != "":
			emoji = "custom:" + first.CustomEmojiID
		case first.Type != "":
			emoji = first.Type
		default:
			return nil
		}
	}
	return &bot.Reaction{
		Platform:  bot.PlatformTelegram,
		ChatID:    strconv.FormatInt(r.Chat.ID, 10),
		MessageID: strconv.FormatInt(r.MessageID, 10),
		UserID:    strconv.FormatInt(r.User.ID, 10),
		Emoji:     emoji,
		At:        time.Unix(r.Date, 0).UTC(),
	}
}

// chatKind maps Telegram chat types to hearth's two kinds.
func chatKind(t string) bot.ChatKind {
	if t == "private" {
		return bot.ChatPrivate
	}
	return bot.ChatGroup
}

// displayName prefers the first name, as people call each other.
func displayName(u wireUser) string {
	if u.FirstName != "" {
		return u.FirstName
	}
	if u.Username != "" {
		return u.Username
	}
	return strconv.FormatInt(u.ID, 10)
}

// modality classifies a message by what the user sent (seed 003 §1.1 weighs
// effort: text < voice < photo). A picture or a recording sent as a file
// (a document) is still a photo or a voice note to the person who sent it.
func modality(m *wireMessage) bot.Modality {
	switch {
	case len(m.Photo) > 0, m.Document != nil && documentKind(m.Document) == bot.ModalityPhoto:
		return bot.ModalityPhoto
	case m.Voice != nil, m.Audio != nil, m.VideoNote != nil, m.Document != nil && documentKind(m.Document) == bot.ModalityVoice:
		return bot.ModalityVoice
	case m.Sticker != nil:
		return bot.ModalitySticker
	case m.Text != "":
		return bot.ModalityText
	}
	if ref := sharedOf(m); ref != nil {
		return ref.Kind
	}
	return bot.ModalityOther
}

// mentioned reports whether text mentions the bot: a text_mention entity of
// the bot's user, or "@username" (case-insensitive, as Telegram usernames
// are) not followed by another username character. The substring rule covers
// "mention" entities and "/cmd@bot" commands too.
func (s self) mentioned(text string, entities []wireEntity) bool {
	for _, e := range entities {
		if e.Type == "text_mention" && e.User != nil && e.User.ID == s.ID {
			return true
		}
		if e.Type == "mention" && s.Username != "" &&
			strings.EqualFold(entityText(text, e), "@"+s.Username) {
			return true
		}
	}
	return s.Username != "" && indexMention(text, s.Username) >= 0
}

// entityText returns the part of text an entity covers, or "" when its
// UTF-16 offsets do not fit the text.
func entityText(text string, e wireEntity) string {
	u := utf16.Encode([]rune(text))
	if e.Offset < 0 || e.Length < 0 || e.Offset > len(u) || e.Length > len(u)-e.Offset {
		return ""
	}
	return string(utf16.Decode(u[e.Offset : e.Offset+e.Length]))
}

// indexMention returns the byte index of "@username" in text as a whole
// mention, or -1.
func indexMention(text, username string) int {
	lower, want := strings.ToLower(text), "@"+strings.ToLower(username)
	for from := 0; from < len(lower); {
		i := strings.Index(lower[from:], want)
		if i < 0 {
			return -1
		}
		end := from + i + len(want)
		if end == len(lower) || !usernameByte(lower[end]) {
			return from + i
		}
		from = end
	}
	return -1
}

// usernameByte reports whether b may continue a Telegram username.
func usernameByte(b byte) bool {
	return b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// bareCommand reports whether text is a command without a bot suffix
// ("/help"). Telegram's own convention is that such commands are meant for
// the group's bots (privacy mode delivers them for that reason), so hearth
// answers them in groups too.
func bareCommand(text string) bool {
	if !strings.HasPrefix(text, "/") || len(text) < 2 {
		return false
	}
	cmd, _, _ := strings.Cut(text, " ")
	cmd, _, _ = strings.Cut(cmd, "\n")
	return !strings.Contains(cmd, "@")
}

// normaliseCommand turns "/cmd@ThisBot args" into "/cmd args" so the handler
// sees one command syntax on every transport. Commands for other bots are
// left alone (and are not addressed to us).
func (s self) normaliseCommand(text string) string {
	if !strings.HasPrefix(text, "/") || s.Username == "" {
		return text
	}
	end := strings.IndexAny(text, " \n\t")
	if end < 0 {
		end = len(text)
	}
	cmd, at, ok := strings.Cut(text[:end], "@")
	if !ok || !strings.EqualFold(at, s.Username) {
		return text
	}
	return cmd + text[end:]
}
