// Package telegram is hearth's Telegram transport. It is the only package
// that imports github.com/go-telegram-bot-api/telegram-bot-api/v5, so the rest
// of hearth sees only bot.Message, bot.Reaction and bot.Outgoing.
//
// Receiving is an owned long-poll loop around getUpdates (not the library's
// GetUpdatesChan, which cannot be stopped by a context and advances its offset
// before the update is stored). The offset lives in a CursorStore and moves
// past an update only after bot.Inbound accepted it, so a crash or a failing
// store never loses a message: it is delivered again and the handler dedupes.
//
// Updates are decoded from the raw JSON by this package (decode.go) because the
// library predates Bot API 7.0 message reactions.
//
// Every request goes through a per-call tgbotapi.BotAPI whose HTTP client
// attaches the caller's context, so cancelling Run's context aborts an
// in-flight long poll at once, and Send honours its caller's deadline.
package telegram
