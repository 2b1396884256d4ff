package discord

import (
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"hearth/bot"
)

// interactionPrefix marks message ids made from interactions, so they never
// collide with Discord message ids in the store's dedupe key.
const interactionPrefix = "ix:"

// messageFromEvent converts a gateway message into a bot.Message. self is
// the bot's user id ("" before READY). It reports false for messages hearth
// must ignore: those by bots (itself included), system messages, and
// messages with nothing to answer.
func messageFromEvent(m *discordgo.Message, self string, now time.Time) (bot.Message, bool) {
	if m == nil || m.Author == nil || m.Author.Bot || m.Author.ID == "" || m.ChannelID == "" || m.ID == "" {
		return bot.Message{}, false
	}
	if self != "" && m.Author.ID == self {
		return bot.Message{}, false
	}
	if m.Type != discordgo.MessageTypeDefault && m.Type != discordgo.MessageTypeReply {
		return bot.Message{}, false
	}
	modality, media := modalityOf(m), mediaOf(m)
	text := stripMention(m.Content, self)
	if media != nil && (media.Kind != bot.ModalityOther || text == "") {
		// Words with a file she cannot open stay a text message (seed 003
		// weighs the words); a file alone is one, answered, not dropped.
		modality = media.Kind
	}
	if text == "" && modality == bot.ModalityText {
		return bot.Message{}, false
	}
	at := m.Timestamp
	if at.IsZero() {
		at = now
	}
	private := m.GuildID == ""
	return bot.Message{
		Platform:  bot.PlatformDiscord,
		ChatID:    m.ChannelID,
		ChatKind:  chatKind(private),
		MessageID: m.ID,
		UserID:    m.Author.ID,
		UserName:  displayName(m.Author),
		Text:      text,
		Modality:  modality,
		At:        at,
		Addressed: private || mentions(m, self) || repliesTo(m, self),
		Media:     media,
	}, true
}

// chatKind maps "has no guild" to the bot's chat kinds.
func chatKind(private bool) bot.ChatKind {
	if private {
		return bot.ChatPrivate
	}
	return bot.ChatGroup
}

// displayName prefers the user's global display name over the unique
// username, as Discord's own client does.
func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// modalityOf weighs what the user sent (seed 003 §1.1 effort): a voice
// message or audio file is voice, an image is a photo, a sticker a sticker.
func modalityOf(m *discordgo.Message) bot.Modality {
	if m.Flags&discordgo.MessageFlagsIsVoiceMessage != 0 {
		return bot.ModalityVoice
	}
	for _, a := range m.Attachments {
		if a == nil {
			continue
		}
		ct := strings.ToLower(a.ContentType)
		switch {
		case strings.HasPrefix(ct, "audio/"):
			return bot.ModalityVoice
		case strings.HasPrefix(ct, "image/"):
			return bot.ModalityPhoto
		}
	}
	if len(m.StickerItems) > 0 {
		return bot.ModalitySticker
	}
	return bot.ModalityText
}

// stripMention removes the bot's own mentions, <@id> and <@!id>, with one
// following space, and trims the result.
func stripMention(content, self string) string {
	if self == "" {
		return strings.TrimSpace(content)
	}
	tags := []string{"<@" + self + ">", "<@!" + self + ">"}
	// Repeat until stable: removing one tag can join the text around it
	// into another ("<@<@1>1>").
	for changed := true; changed; {
		changed = false
		for _, tag := range tags {
			if strings.Contains(content, tag) {
				content = strings.ReplaceAll(content, tag+" ", "")
				content = strings.ReplaceAll(content, tag, "")
				changed = true
			}
		}
	}
	return strings.TrimSpace(content)
}

// mentions reports whether m mentions the bot, by the mention list or by a
// mention tag in the text (the list is absent in some payloads).
func mentions(m *discordgo.Message, self string) bool {
	if self == "" {
		return false
	}
	for _, u := range m.Mentions {
		if u != nil && u.ID == self {
			return true
		}
	}
	return strings.Contains(m.Content, "<@"+self+">") || strings.Contains(m.Content, "<@!"+self+">")
}

// repliesTo reports whether m is a reply to one of the bot's messages.
func repliesTo(m *discordgo.Message, self string) bool {
	r := m.ReferencedMessage
	return self != "" && m.MessageReference != nil && r != nil && r.Author != nil && r.Author.ID == self
}

// reactionFromEvent converts a reaction to any message; the Inbound decides
// whether the message was the bot's. It reports false for the bot's own
// reactions and incomplete events.
func reactionFromEvent(r *discordgo.MessageReaction, self string, now time.Time) (bot.Reaction, bool) {
	if r == nil || r.UserID == "" || r.ChannelID == "" || r.MessageID == "" || r.UserID == self {
		return bot.Reaction{}, false
	}
	emoji := r.Emoji.Name
	if r.Emoji.ID != "" {
		emoji = r.Emoji.Name + ":" + r.Emoji.ID // a custom emoji
	}
	return bot.Reaction{
		Platform:  bot.PlatformDiscord,
		ChatID:    r.ChannelID,
		MessageID: r.MessageID,
		UserID:    r.UserID,
		Emoji:     emoji,
		At:        now,
	}, true
}

// messageFromInteraction converts a slash command or a button click into a
// command line ("/remember I like tea", or a button's data) addressed to
// the bot. It reports false for other interaction kinds and bots.
func messageFromInteraction(i *discordgo.Interaction, now time.Time) (bot.Message, bool) {
	if i == nil || i.ID == "" || i.ChannelID == "" || i.Token == "" {
		return bot.Message{}, false
	}
	u := i.User
	if i.Member != nil && i.Member.User != nil {
		u = i.Member.User
	}
	if u == nil || u.ID == "" || u.Bot {
		return bot.Message{}, false
	}
	var text string
	switch data := i.Data.(type) {
	case discordgo.ApplicationCommandInteractionData:
		if i.Type != discordgo.InteractionApplicationCommand || data.Name == "" {
			return bot.Message{}, false
		}
		text = "/" + data.Name
		for _, o := range data.Options {
			if o != nil && o.Value != nil {
				text += " " + strings.TrimSpace(fmt.Sprint(o.Value))
			}
		}
	case discordgo.MessageComponentInteractionData:
		text = data.CustomID
	default:
		return bot.Message{}, false
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return bot.Message{}, false
	}
	private := i.GuildID == ""
	return bot.Message{
		Platform:  bot.PlatformDiscord,
		ChatID:    i.ChannelID,
		ChatKind:  chatKind(private),
		MessageID: interactionPrefix + i.ID,
		UserID:    u.ID,
		UserName:  displayName(u),
		Text:      text,
		Modality:  bot.ModalityText,
		At:        now,
		Addressed: true,
	}, true
}
