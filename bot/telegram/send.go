package telegram

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"hearth/bot"
)

// maxCallbackData is the Bot API limit on an inline button's callback_data
// (InlineKeyboardButton: "1-64 bytes").
const maxCallbackData = 64

// Send delivers out to chat: a spoken reply first, as a voice note with the
// text as its caption when it fits in one; the text as plain text (no parse
// mode, so nothing the model writes is read as markup) split by Split at
// MaxMessageUTF16, then the document, then the photo. Buttons go on the last
// text message, or on the first attachment when there is no text. Parts that
// are only white space are not sent (Telegram rejects empty messages).
//
// A 429 is waited out and retried, 5xx and network errors are retried a few
// times, and a 403 returns an error wrapping bot.ErrUnreachable after calling
// Config.OnUnreachable. On error, Sent holds what was delivered before it.
func (t *Transport) Send(ctx context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
	var sent bot.Sent
	chatID, err := strconv.ParseInt(chat.ChatID, 10, 64)
	if err != nil {
		return sent, fmt.Errorf("telegram send: chat id %q: %w", chat.ChatID, err)
	}
	markup, err := keyboard(out.Buttons)
	if err != nil {
		return sent, fmt.Errorf("telegram send: %w", err)
	}
	var parts []string
	for _, p := range Split(out.Text, MaxMessageUTF16) {
		if strings.TrimSpace(p) != "" {
			parts = append(parts, p)
		}
	}
	if out.Voice != nil {
		caption := ""
		if len(parts) == 1 && utf16Len(parts[0]) <= maxCaptionUTF16 && markup == nil {
			caption, parts = parts[0], nil
		}
		if err := t.sendVoice(ctx, chat, chatID, out.Voice, caption, &sent); err != nil {
			return sent, err
		}
	}
	for i, p := range parts {
		cfg := tgbotapi.NewMessage(chatID, p)
		if i == len(parts)-1 && markup != nil {
			cfg.ReplyMarkup = *markup
			markup = nil
		}
		if err := t.sendOne(ctx, chat, "telegram sendMessage", cfg, &sent); err != nil {
			return sent, err
		}
	}
	if f := out.Document; f != nil {
		cfg := tgbotapi.NewDocument(chatID, tgbotapi.FileBytes{Name: f.Name, Bytes: f.Data})
		if markup != nil {
			cfg.ReplyMarkup, markup = *markup, nil
		}
		if err := t.sendOne(ctx, chat, "telegram sendDocument", cfg, &sent); err != nil {
			return sent, err
		}
	}
	if f := out.Photo; f != nil {
		cfg := tgbotapi.NewPhoto(chatID, tgbotapi.FileBytes{Name: f.Name, Bytes: f.Data})
		if markup != nil {
			cfg.ReplyMarkup = *markup
		}
		if err := t.sendOne(ctx, chat, "telegram sendPhoto", cfg, &sent); err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// sendOne sends one message with retries and records its id in sent.
func (t *Transport) sendOne(ctx context.Context, chat bot.ChatRef, op string, c tgbotapi.Chattable, sent *bot.Sent) error {
	err := t.call(ctx, op, deliverPolicy(), func(api *tgbotapi.BotAPI) error {
		m, err := api.Send(c)
		if err == nil {
			sent.MessageIDs = append(sent.MessageIDs, strconv.Itoa(m.MessageID))
		}
		return err
	})
	return t.unreachable(ctx, chat, err)
}

// Typing shows "typing…" once (Telegram shows it for about five seconds or
// until the next message). It is not retried: the caller repeats it.
func (t *Transport) Typing(ctx context.Context, chat bot.ChatRef) error {
	chatID, err := strconv.ParseInt(chat.ChatID, 10, 64)
	if err != nil {
		return fmt.Errorf("telegram typing: chat id %q: %w", chat.ChatID, err)
	}
	err = t.call(ctx, "telegram sendChatAction", oncePolicy(), func(api *tgbotapi.BotAPI) error {
		_, err := api.Request(tgbotapi.NewChatAction(chatID, tgbotapi.ChatTyping))
		return err
	})
	return t.unreachable(ctx, chat, err)
}

// unreachable calls Config.OnUnreachable when err says the chat is gone, and
// returns err unchanged.
func (t *Transport) unreachable(ctx context.Context, chat bot.ChatRef, err error) error {
	if err != nil && errors.Is(err, bot.ErrUnreachable) {
		t.log.Info("telegram chat unreachable", "chat", chat.ChatID)
		if t.onUnreachable != nil {
			t.onUnreachable(ctx, chat.ChatID)
		}
	}
	return err
}

// keyboard builds an inline keyboard, or nil for no buttons. Button data
// longer than Telegram accepts is an error, not a silent truncation that
// would change the command a button sends.
func keyboard(rows [][]bot.Button) (*tgbotapi.InlineKeyboardMarkup, error) {
	var out [][]tgbotapi.InlineKeyboardButton
	for _, row := range rows {
		var r []tgbotapi.InlineKeyboardButton
		for _, b := range row {
			if b.Data == "" || len(b.Data) > maxCallbackData {
				return nil, fmt.Errorf("button %q: data must be 1-%d bytes, got %d", b.Label, maxCallbackData, len(b.Data))
			}
			r = append(r, tgbotapi.NewInlineKeyboardButtonData(b.Label, b.Data))
		}
		if len(r) > 0 {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	m := tgbotapi.NewInlineKeyboardMarkup(out...)
	return &m, nil
}
