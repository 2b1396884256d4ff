package bot

import (
	"time"

	"hearth/heart"
	"hearth/store"
)

// firstMessages reads what the user's words in a private chat say about
// her writing first (heart.ReadFirstMessages) into m.wish, and returns the
// seed 003 §2.3 boundary signal when they switch her first messages off,
// as /quiet does: "please don't message me first" is the same wish said
// without the command.
func (h *Handler) firstMessages(m *moment) []heart.RelationshipSignal {
	if m.in.ChatKind != string(ChatPrivate) {
		return nil // in a group the words are said to others as often as to her
	}
	m.wish = heart.ReadFirstMessages(m.text)
	if m.wish == heart.FirstMessagesOff && m.u.Proactive {
		return []heart.RelationshipSignal{heart.FeedbackSignal(heart.SignalBoundary)}
	}
	return nil
}

// firstMessagesHint is Hints.FirstMessages: what wish changes for u, ""
// when nothing (she already does as asked).
func firstMessagesHint(u store.User, wish heart.FirstMessages) string {
	switch {
	case wish == heart.FirstMessagesOff && (u.Proactive || !u.QuietUntil.IsZero()):
		return "off"
	case wish == heart.FirstMessagesOn && !u.Proactive:
		return "on"
	}
	return ""
}

// applyFirstMessages switches u's proactive messages as wish asks and
// returns the words that tell them so, "" when nothing changed. A timed
// /quiet ends too: what they said now is the newer wish.
func applyFirstMessages(u *store.User, wish heart.FirstMessages, lang string) string {
	switch firstMessagesHint(*u, wish) {
	case "off":
		u.Proactive, u.QuietUntil = false, time.Time{}
		return text0(lang, msgFirstOff)
	case "on":
		u.Proactive, u.QuietUntil = true, time.Time{}
		return text0(lang, msgFirstOn)
	}
	return ""
}
