package discord

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"hearth/bot"
)

// Component limits (Discord API docs, "Message Components": at most 5
// action rows of 5 buttons; a custom_id of at most 100 characters; a
// label of at most 80).
const (
	maxRows       = 5
	maxRowButtons = 5
	customIDLimit = 100
	labelLimit    = 80
)

// Send delivers out to the channel chat.ChatID: a spoken reply first, as a
// voice message (which carries no text); then the text split at
// MessageLimit characters, then any photo and document attached to the
// last part, with the buttons under it. If the channel has an
// acknowledged, unanswered slash command or button click, the whole
// delivery answers it through its followup webhook (falling back to the
// channel if the webhook is gone). discordgo waits out 429 responses
// itself, for retry_after, without watching ctx. A user who cannot be
// messaged (Discord error 50007) yields an error wrapping
// bot.ErrUnreachable. Sent lists the ids of the messages Discord accepted,
// also when a later part fails.
func (t *Transport) Send(ctx context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
	if chat.ChatID == "" {
		return bot.Sent{}, errors.New("discord: send: empty chat id")
	}
	var parts []string
	for _, p := range Split(out.Text, MessageLimit) {
		if strings.TrimSpace(p) != "" { // Discord rejects blank messages
			parts = append(parts, p)
		}
	}
	files := attachments(out)
	comps := t.components(out.Buttons)
	if len(parts) == 0 && (out.Photo != nil || out.Document != nil || len(comps) > 0) {
		parts = []string{""}
	}
	var sent bot.Sent
	if out.Voice != nil {
		msg, err := t.sendVoice(ctx, chat.ChatID, out.Voice)
		if err != nil {
			return sent, err
		}
		sent.MessageIDs = append(sent.MessageIDs, msg.ID)
	}
	if len(parts) == 0 {
		return sent, nil
	}
	ix, haveIx := t.takeInteraction(chat.ChatID)
	for i, p := range parts {
		var f []*discordgo.File
		var c []discordgo.MessageComponent
		if i == len(parts)-1 {
			f, c = files(), comps
		}
		var (
			msg *discordgo.Message
			err error
		)
		if haveIx {
			params := &discordgo.WebhookParams{Content: p, Files: f, Components: c, AllowedMentions: noPings()}
			if ix.ephemeral {
				params.Flags = discordgo.MessageFlagsEphemeral
			}
			msg, err = t.s.FollowupMessageCreate(ix.ix, true, params, discordgo.WithContext(ctx))
			err = redact(err)
			if err != nil && i == 0 && ctx.Err() == nil {
				// The token may have expired or the interaction vanished;
				// the words still belong in the channel.
				t.log.Warn("discord: interaction followup, sending to the channel instead", "chat", chat.ChatID, "err", err)
				haveIx = false
				f = nil
				if i == len(parts)-1 {
					f = files()
				}
			}
		}
		if !haveIx {
			msg, err = t.s.ChannelMessageSendComplex(chat.ChatID, &discordgo.MessageSend{
				Content: p, Files: f, Components: c,
				AllowedMentions: noPings(),
			}, discordgo.WithContext(ctx))
		}
		if err != nil {
			return sent, classify(fmt.Sprintf("discord: send part %d/%d to %s", i+1, len(parts), chat.ChatID), err)
		}
		if msg != nil && msg.ID != "" {
			sent.MessageIDs = append(sent.MessageIDs, msg.ID)
		}
	}
	return sent, nil
}

// noPings allows no mentions: the bot's words never ping a user, a role
// or @everyone, whatever the model wrote.
func noPings() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// Typing shows the typing indicator in the channel once (Discord shows it
// for about 10 seconds or until the bot's next message).
func (t *Transport) Typing(ctx context.Context, chat bot.ChatRef) error {
	if err := t.s.ChannelTyping(chat.ChatID, discordgo.WithContext(ctx)); err != nil {
		return classify("discord: typing in "+chat.ChatID, err)
	}
	return nil
}

// takeInteraction removes and returns the channel's unanswered interaction,
// if its token is still valid.
func (t *Transport) takeInteraction(chatID string) (pendingInteraction, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for id, p := range t.pending { // forget expired tokens of any channel
		if now.Sub(p.at) > interactionTTL {
			delete(t.pending, id)
		}
	}
	p, ok := t.pending[chatID]
	delete(t.pending, chatID)
	return p, ok
}

// attachments returns a function building fresh readers for out's files, so
// each request gets unread ones.
func attachments(out bot.Outgoing) func() []*discordgo.File {
	var src []*bot.File
	for _, f := range []*bot.File{out.Photo, out.Document} {
		if f != nil {
			src = append(src, f)
		}
	}
	return func() []*discordgo.File {
		var files []*discordgo.File
		for _, f := range src {
			files = append(files, &discordgo.File{Name: f.Name, ContentType: f.MIME, Reader: bytes.NewReader(f.Data)})
		}
		return files
	}
}

// components turns button rows into action rows, dropping what Discord
// cannot show (too many rows or buttons, data longer than a custom_id).
func (t *Transport) components(rows [][]bot.Button) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for _, row := range rows {
		var btns []discordgo.MessageComponent
		for _, b := range row {
			if b.Data == "" || utf8.RuneCountInString(b.Data) > customIDLimit {
				t.log.Warn("discord: button dropped: data empty or over the custom_id limit", "label", b.Label, "limit", customIDLimit)
				continue
			}
			if len(btns) == maxRowButtons {
				t.log.Warn("discord: button dropped: row full", "label", b.Label, "limit", maxRowButtons)
				continue
			}
			label := b.Label
			if label == "" {
				label = b.Data
			}
			btns = append(btns, discordgo.Button{Label: truncate(label, labelLimit), Style: discordgo.PrimaryButton, CustomID: b.Data})
		}
		if len(btns) == 0 {
			continue
		}
		if len(out) == maxRows {
			t.log.Warn("discord: button row dropped", "limit", maxRows)
			break
		}
		out = append(out, discordgo.ActionsRow{Components: btns})
	}
	return out
}

// truncate keeps the first n runes of s.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// classify wraps err with op, adding bot.ErrUnreachable when Discord says
// the user cannot be messaged.
func classify(op string, err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeCannotSendMessagesToThisUser {
		return fmt.Errorf("%s: %w: %w", op, bot.ErrUnreachable, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// redact removes the URL from transport errors of webhook and interaction
// requests: it carries the interaction token, which must not reach logs.
func redact(err error) error {
	var ue *url.Error
	if err == nil || !errors.As(err, &ue) {
		return err
	}
	return &url.Error{Op: ue.Op, URL: "(redacted webhook url)", Err: ue.Err}
}
