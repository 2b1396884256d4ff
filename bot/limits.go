package bot

import (
	"context"
	"time"

	"hearth/heart"
	"hearth/store"
)

// Seed 003's daily limits (heart.UsageLimitFor: Watch, dependency levels 2
// and 3, the close state) are kept here. Talk time is heart.TalkTime over
// the day's episodes, kept in the user's tally (heart.TalkTally). The message that reaches the limit is answered in
// full, with the limit's kind words (heart.LimitReachedMessage) and a
// signalBreak marker; every later message that day is stored and answered
// with a short boundary in the companion's voice (plus the crisis resources
// in Watch), without a model call. A crisis message is always answered in
// full, whatever the limit; and in a crisis talk, or later on a day that
// held one (heart.Relationship.LimitPaused), no limit is reached or held,
// so nobody in crisis, or just through one, is told to rest now and talk
// tomorrow. A limit's notice due on a crisis turn waits for the next
// ordinary turn (heldNotice).

// signalBreak marks the day the limit was reached, so the limit's words are
// said once and the boundary holds until tomorrow. It carries no points.
const signalBreak = "break_suggested"

// pastLimit answers m with the day's boundary when the user's limit was
// already reached today in a private chat: the message is stored as an
// episode with the boundary as its reply, and no model is asked. ok is
// false for everything else, crises first.
func (h *Handler) pastLimit(ctx context.Context, m *moment) (store.Turn, bool) {
	if m.urgent() || m.ask || m.concern || m.in.ChatKind != string(ChatPrivate) || m.rel.LimitPaused(m.now, h.loc) {
		return store.Turn{}, false
	}
	lim := heart.UsageLimitFor(m.rel)
	if lim.Limit == 0 || !h.limitSaidToday(ctx, m.u.ID, m.now) {
		return store.Turn{}, false
	}
	lang := h.cfg.Persona.Language
	text := heart.PastLimitMessage(lang)
	if m.rel.Watch {
		// The resources in full once a day; after that, a pointer to them,
		// so "hellooo?" is not met with the whole block again (a probe
		// after a false alarm found it punitive). A tally lost to a restart
		// sends them in full again: the safe side.
		said := false
		h.tallies.with(m.u.ID, func(t *tally) { said, t.resources = t.resources, true })
		if said {
			text += "\n\n" + txtResourcesAgain.in(lang)
		} else {
			text += "\n\n" + h.crisisResources()
		}
	}
	u := m.u
	u.LastUserAt, u.LastBotAt = m.in.At, m.now.UTC()
	u.Unreachable = false
	chat := ChatRef{Platform: m.in.Platform, ChatID: m.in.ChatID, Kind: ChatKind(m.in.ChatKind)}
	t := store.Turn{
		InboundID: m.in.ID, User: u,
		Episode: store.Episode{
			UserID: u.ID, Platform: m.in.Platform, ChatID: m.in.ChatID, InboundID: m.in.ID,
			UserText: m.text, ReplyText: text, At: m.now.UTC(),
		},
		Reply: h.outbound(u.ID, chat, "wellbeing", m.in.ID, text, m.now),
	}
	h.log.Info("daily limit reached; boundary reply", "user", u.ID, "reason", lim.Reason)
	return t, true
}

// limitReached reports whether this turn reaches the user's daily limit
// (its talk time, this message included, is at the limit) and the limit's
// words were not said today.
func (h *Handler) limitReached(ctx context.Context, userID string, rel heart.Relationship, now time.Time) (heart.UsageLimit, bool) {
	lim := heart.UsageLimitFor(rel)
	if lim.Limit == 0 {
		return lim, false
	}
	if err := h.loadTally(ctx, userID, now); err != nil {
		h.log.Warn("read today's talk; limit not checked", "user", userID, "err", err)
		return lim, false
	}
	var talk time.Duration // heart.TalkTime of today's episodes and now
	h.tallies.with(userID, func(t *tally) { talk = t.talk.Add(now, h.loc).Today(now, h.loc) })
	if !lim.Reached(talk) || h.limitSaidToday(ctx, userID, now) {
		return lim, false
	}
	return lim, true
}

// RestingToday reports whether u was told today, in the persona's day,
// that the day's talk is over (a daily limit's words went out): the life
// loop does not write first after "let's talk again tomorrow"
// (lifeloop.Config.Resting). A day that held a crisis talk holds no limit.
func (h *Handler) RestingToday(ctx context.Context, u store.User, now time.Time) bool {
	if heart.UsageLimitFor(decodeRelationship(u)).Limit == 0 {
		return false // no limit applies, so none was reached: no store read
	}
	return h.limitSaidToday(ctx, u.ID, now)
}

// limitSaidToday reports whether the limit's words went out today; the
// user's tally remembers it once read.
func (h *Handler) limitSaidToday(ctx context.Context, userID string, now time.Time) bool {
	if err := h.loadTally(ctx, userID, now); err != nil {
		h.log.Warn("read today's episodes; limit not held", "user", userID, "err", err)
		return false
	}
	brk := breakUnknown
	h.tallies.with(userID, func(t *tally) { brk = t.brk })
	if brk != breakUnknown {
		return brk == breakSent
	}
	day := StartOfDay(now, h.loc)
	sigs, err := h.cfg.Store.Signals(ctx, userID, day)
	if err != nil {
		h.log.Warn("read today's signals; limit not held", "user", userID, "err", err)
		return false
	}
	brk = breakNotSent
	for _, s := range sigs {
		if s.Tag == signalBreak {
			brk = breakSent
		}
	}
	h.tallies.with(userID, func(t *tally) {
		if t.day.Equal(day) {
			t.brk = brk
		}
	})
	return brk == breakSent
}

// heldNotice is the daily limit's notice to say after this turn's reply,
// or "". A crisis turn (or the direct question) says none: the notice that
// entering Watch or becoming close brings is held (NoticeDue in m.rel),
// because right after an emergency reply "I'll keep our chats to about an
// hour a day" reads as being rationed. It is said at the first calm turn
// after the crisis talk, if the limit still applies. Seed 003 §6.2's
// message for a risen dependency level waits in NoticeDue too
// (dependencyNote).
func (h *Handler) heldNotice(ctx context.Context, m *moment) string {
	if m.crisis || m.ask {
		for _, e := range m.events {
			switch e := e.(type) {
			case heart.EnterWatch:
				m.rel.NoticeDue = heart.LimitWatch
			case heart.StateChanged:
				if e.To == heart.Close && m.rel.NoticeDue == "" {
					m.rel.NoticeDue = heart.LimitClose
				}
			}
		}
		return ""
	}
	due := m.rel.NoticeDue
	if due == "" || !m.calm {
		return ""
	}
	if due == noticeDependency {
		return h.dependencyNote(ctx, m)
	}
	m.rel.NoticeDue = ""
	if due == heart.LimitWatch && !m.rel.Watch || due == heart.LimitClose && m.rel.State != heart.Close {
		return "" // cleared or gone meanwhile: nothing to announce
	}
	return heart.LimitNotice(due, h.cfg.Persona.Language)
}

// wellbeingEvents acts on what the relationship model decided this turn or
// daily check, in the same transaction t: operators are alerted (Watch with
// the emergency contact the user agreed to share, the §1.1 reviews); on
// entering Watch the user hears of the daily limit and a consenting user's
// contact is told (contactNotice); becoming close announces the 2-hour
// limit. A rising dependency level's message is not sent from here: the
// daily job holds it for the user's next calm turn (holdDependencyNote). Messages to
// the user go to their private chat. On a crisis turn (crisis) no limit is
// announced: heldNotice keeps it for a calm turn.
func (h *Handler) wellbeingEvents(ctx context.Context, u store.User, events []heart.RelationshipEvent, now time.Time, t *store.Turn, crisis bool) {
	lang := h.cfg.Persona.Language
	private := ChatRef{Platform: u.Platform, ChatID: u.PrivateChatID, Kind: ChatPrivate}
	tell := func(kind, text string) {
		if u.PrivateChatID != "" && text != "" {
			t.Extra = append(t.Extra, *h.outbound(u.ID, private, kind, t.InboundID, text, now))
		}
	}
	for _, e := range events {
		switch e := e.(type) {
		case heart.EnterWatch:
			if !crisis {
				tell("wellbeing", heart.LimitNotice(heart.LimitWatch, lang))
			}
			told := h.contactNotice(ctx, u, now, t)
			h.alertOperators(u, e, now, t, operatorContactLine(u, told, lang))
		case heart.OperatorReview, heart.WatchRaised:
			h.alertOperators(u, e, now, t, "")
		case heart.StateChanged:
			if e.To == heart.Close && !crisis {
				tell("wellbeing", heart.LimitNotice(heart.LimitClose, lang))
			}
		}
	}
}
