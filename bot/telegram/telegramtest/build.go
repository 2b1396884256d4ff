package telegramtest

// Builders for update payloads in the Bot API wire format, for Push.

// baseDate is the Unix time TextMessage dates start from (chosen by us: a
// fixed instant in November 2023 keeps test output stable).
const baseDate = 1700000000

// User is a Bot API User object for a person.
func User(id int64, first string) map[string]any {
	return map[string]any{"id": id, "is_bot": false, "first_name": first}
}

// BotUser is the fake bot's own User object, for replies to the bot.
func BotUser() map[string]any {
	return map[string]any{"id": BotID, "is_bot": true, "first_name": "Luna", "username": BotName}
}

// PrivateChat is a Chat object for a direct conversation.
func PrivateChat(id int64) map[string]any { return map[string]any{"id": id, "type": "private"} }

// GroupChat is a Chat object for a supergroup.
func GroupChat(id int64) map[string]any {
	return map[string]any{"id": id, "type": "supergroup", "title": "Friends"}
}

// TextMessage is a Message object; its date is derived from id so order is
// stable.
func TextMessage(id int64, chat, from map[string]any, text string) map[string]any {
	return map[string]any{"message_id": id, "from": from, "chat": chat, "date": baseDate + id, "text": text}
}

// Reaction is a message_reaction update body: user put emoji on message id
// in chat.
func Reaction(chat map[string]any, messageID int64, user map[string]any, emoji string, date int64) map[string]any {
	return map[string]any{
		"chat": chat, "message_id": messageID, "user": user, "date": date,
		"new_reaction": []map[string]any{{"type": "emoji", "emoji": emoji}}, "old_reaction": []any{},
	}
}
