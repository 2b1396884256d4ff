package lifeloop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/bot"
	"hearth/heart"
	"hearth/store"
)

// Tick is one pass of the life loop over every user with a private chat, at
// now. For each user it reads the proactive log, runs Gate, and only when the
// gate passes makes one LLM call; a "speak" answer is put in the outbound
// ledger (pending) first, then sent, then marked sent.
//
// Users are processed sequentially, in the store's order: one LLM call at a
// time keeps cost and load predictable, gated users cost no call, and a tick
// that runs long simply makes the scheduler skip the ticks it overlaps.
//
// Logging: every silent, sent and error decision is written to the proactive
// log. A gated decision is written only when its reason differs from the
// user's last logged decision (within the window Tick reads), so a user who
// stays in, say, quiet hours adds one row, not one per tick.
//
// Idempotence: ticks never overlap (they are serialised, and cron's
// SkipIfStillRunning drops firings that come while one runs), and the
// stored log makes a repeated tick harmless: after a message min_silence
// gates, after a silence recently_asked does, so a second pass asks no one
// twice. Every tick runs, so schedules with seconds keep their rhythm.
//
// Tick returns an error only when the user list cannot be read or ctx ends;
// per-user failures are decisions with outcome "error" and the pass goes on.
func (l *Loop) Tick(ctx context.Context, now time.Time) (TickReport, error) {
	select {
	case l.tickSem <- struct{}{}:
	case <-ctx.Done():
		return TickReport{}, fmt.Errorf("tick: %w", ctx.Err())
	}
	defer func() { <-l.tickSem }()
	users, err := l.cfg.Store.UsersWithPrivateChat(ctx)
	if err != nil {
		return TickReport{}, fmt.Errorf("tick: list users: %w", err)
	}
	rep := TickReport{Decisions: make([]Decision, 0, len(users))}
	for i := range users {
		if err := ctx.Err(); err != nil {
			return rep, fmt.Errorf("tick: %w", err)
		}
		d, asked, err := l.decide(ctx, now, &users[i])
		if asked {
			rep.LLMCalls++
		}
		if d.Outcome != "" {
			rep.Decisions = append(rep.Decisions, d)
			if l.cfg.Observe != nil {
				l.cfg.Observe(d)
			}
		}
		if err != nil {
			return rep, fmt.Errorf("tick: %w", err)
		}
	}
	return rep, nil
}

// history is what one user's proactive log says, as the gate needs it.
type history struct {
	last          *store.Proactive // latest entry of any outcome
	lastSent      *store.Proactive // latest sent message
	streak        int              // sent after the user last wrote
	sentToday     int              // sent in the local day of now
	lastAsked     time.Time        // latest silent/error after the user last wrote
	unreachableAt time.Time        // latest "unreachable" entry
}

// readHistory loads and summarises u's proactive log. It reads from the
// earlier of the user's last message and the local day's start (so streaks
// and the daily count are complete), but never more than LogLookback back.
func (l *Loop) readHistory(ctx context.Context, now time.Time, u *store.User) (history, error) {
	local := now.In(l.loc)
	dayStart := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, l.loc)
	dayEnd := dayStart.AddDate(0, 0, 1)
	since := dayStart
	if u.LastUserAt.Before(since) {
		since = u.LastUserAt
	}
	if floor := now.Add(-LogLookback); since.Before(floor) {
		since = floor
	}
	entries, err := l.cfg.Store.ProactiveLog(ctx, u.ID, since)
	if err != nil {
		return history{}, fmt.Errorf("read proactive log of %s: %w", u.ID, err)
	}
	var h history
	for i := range entries {
		e := &entries[i]
		if h.last == nil || !e.At.Before(h.last.At) {
			h.last = e
		}
		if e.Reason == ReasonUnreachable && e.At.After(h.unreachableAt) {
			h.unreachableAt = e.At
		}
		switch e.Outcome {
		case OutcomeSent:
			if h.lastSent == nil || !e.At.Before(h.lastSent.At) {
				h.lastSent = e
			}
			if e.At.After(u.LastUserAt) {
				h.streak++
			}
			if !e.At.Before(dayStart) && e.At.Before(dayEnd) {
				h.sentToday++
			}
		case OutcomeSilent, OutcomeError:
			if e.At.After(u.LastUserAt) && e.At.After(h.lastAsked) {
				h.lastAsked = e.At
			}
		}
	}
	return h, nil
}

// decide runs the whole pipeline for one user. asked reports an LLM call;
// err is non-nil only when ctx ended.
func (l *Loop) decide(ctx context.Context, now time.Time, u *store.User) (d Decision, asked bool, err error) {
	d.UserID = u.ID
	platform := userPlatform(u)
	h, err := l.readHistory(ctx, now, u)
	if err != nil {
		if ctx.Err() != nil {
			return Decision{}, false, ctx.Err()
		}
		l.log.Error("read proactive log", "user", u.ID, "err", err)
		d.Outcome, d.Reason = OutcomeError, ReasonStore
		return d, false, nil
	}
	sender := l.cfg.Senders[platform]
	if sender == nil {
		return l.gated(ctx, now, d, h, ReasonNoTransport), false, nil
	}
	a := l.cfg.Assess(*u, now)
	in := GateInput{
		Now:               now,
		Loc:               l.loc,
		User:              *u,
		Assessment:        a,
		Settings:          l.settings,
		LastMessageAt:     latest(u.LastUserAt, u.LastBotAt),
		LastProactive:     h.lastSent,
		UnansweredStreak:  h.streak,
		SentToday:         h.sentToday,
		LastAskedAt:       h.lastAsked,
		ProactiveAnswered: h.lastSent != nil && u.LastUserAt.After(h.lastSent.At),
		Resting:           l.cfg.Resting != nil && l.cfg.Resting(ctx, *u, now),
	}
	if h.lastSent != nil {
		in.LastMessageAt = latest(in.LastMessageAt, h.lastSent.At)
	}
	// An "unreachable" entry newer than the user's last message gates even
	// when the caller did not wire MarkUnreachable.
	if !h.unreachableAt.IsZero() && !u.LastUserAt.After(h.unreachableAt) {
		in.User.Unreachable = true
	}
	if ok, reason := Gate(in); !ok {
		return l.gated(ctx, now, d, h, reason), false, nil
	}
	sent, err := l.recentCheckIns(ctx, now, u.ID)
	if err != nil {
		if ctx.Err() != nil {
			return Decision{}, false, ctx.Err()
		}
		l.log.Error("read proactive log", "user", u.ID, "err", err)
		d.Outcome, d.Reason = OutcomeError, ReasonStore
		return d, false, nil
	}
	return l.ask(ctx, now, u, a, now.Sub(in.LastMessageAt), h.streak == 0, sent, sender, d)
}

// recentCheckIns are the last RecentCheckIns messages sent first to the
// user within CheckInMemory, newest last: read only for a user the gate let
// through, so a tick over thousands of gated users reads no more than
// their recent log.
func (l *Loop) recentCheckIns(ctx context.Context, now time.Time, userID string) ([]string, error) {
	entries, err := l.cfg.Store.ProactiveLog(ctx, userID, now.Add(-CheckInMemory))
	if err != nil {
		return nil, fmt.Errorf("read recent check-ins of %s: %w", userID, err)
	}
	var sent []string
	for _, e := range entries {
		if e.Outcome == OutcomeSent {
			sent = append(sent, e.Text)
		}
	}
	return sent[max(len(sent)-RecentCheckIns, 0):], nil
}

// gated records a gated decision, writing it to the log only when the
// reason changed since the user's last logged decision.
func (l *Loop) gated(ctx context.Context, now time.Time, d Decision, h history, reason string) Decision {
	d.Outcome, d.Reason = OutcomeGated, reason
	if h.last == nil || h.last.Outcome != OutcomeGated || h.last.Reason != reason {
		l.record(ctx, now, d)
	}
	return d
}

// ask makes the LLM call for a user the gate let through and acts on it.
// fresh says no check-in was sent since the user last wrote: only then
// does a long silence's heavy topic come up, so it is asked after once.
// sent are the last messages sent first to u, newest last, none to be
// sent again as is.
func (l *Loop) ask(ctx context.Context, now time.Time, u *store.User, a Assessment, silence time.Duration, fresh bool, sent []string, sender bot.Sender, d Decision) (Decision, bool, error) {
	s, c := l.situation(ctx, now, u, a, silence, fresh, sent)
	req := l.request(now, u, s, c, fresh)
	cctx, cancel := context.WithTimeout(ctx, bot.KindLifeLoop.Deadline())
	resp, err := l.cfg.Brain.Complete(cctx, req)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return Decision{}, true, ctx.Err()
		}
		l.log.Warn("lifeloop call", "user", u.ID, "err", err)
		d.Outcome, d.Reason = OutcomeError, ReasonBrain
		l.record(ctx, now, d)
		return d, true, nil
	}
	usage := store.Usage{At: now, Kind: UsageKind, UserID: u.ID, Prompt: resp.Usage.PromptTokens,
		Cached: resp.Usage.CachedTokens, Completion: resp.Usage.CompletionTokens, Offline: resp.Offline}
	if err := l.cfg.Store.AddUsage(ctx, usage); err != nil {
		l.log.Error("record lifeloop usage", "user", u.ID, "err", err)
	}
	speak, msg, err := ParseSpeak(resp.Text)
	switch {
	case err != nil:
		l.log.Warn("lifeloop answer", "user", u.ID, "err", err)
		d.Outcome, d.Reason = OutcomeError, ReasonBadAnswer
	case !speak:
		d.Outcome, d.Reason = OutcomeSilent, ReasonDeclined
	case msg == "":
		d.Outcome, d.Reason = OutcomeSilent, ReasonEmpty
	case l.cfg.Forbidden(msg):
		l.log.Info("lifeloop message withheld: seed 003 §7.2 phrase", "user", u.ID, "text", msg)
		d.Outcome, d.Reason = OutcomeSilent, ReasonForbidden
	default:
		return l.send(ctx, now, u, trimMessage(msg), s.FollowUp, sender, d)
	}
	l.record(ctx, now, d)
	return d, true, nil
}

// situation gathers what a check-in to u may speak of: the earliest
// follow-up due, a dated thing tomorrow, what they said lately and their
// memories, and, on a fresh check-in after a long silence, the heavy topic
// they left, named in the greeting.
func (l *Loop) situation(ctx context.Context, now time.Time, u *store.User, a Assessment, silence time.Duration, fresh bool, sent []string) (Situation, bot.CheckIn) {
	s := Situation{User: *u, Assessment: a, Now: now.In(l.loc), Silence: silence, CheckIns: sent}
	var c bot.CheckIn
	if l.cfg.About != nil {
		c = l.cfg.About(ctx, *u, now)
	}
	if len(c.FollowUps) > 0 {
		s.FollowUp = &c.FollowUps[0] // one question at a time, the earliest
	}
	s.Recent, s.Memories = c.Recent, c.Memories
	if len(c.Ahead) > 0 {
		s.Ahead = &c.Ahead[0]
	}
	if c.Heavy != "" && fresh && silence >= heart.ReturnAbsence {
		s.Heavy, s.HeavyAt = c.Heavy, c.HeavyAt
		lang := l.cfg.Persona.Language
		s.Assessment.Greeting = heart.ReturnGreeting(heart.RelationshipState(a.State), heart.TopicPhrase(c.Heavy, lang), lang)
	}
	return s, c
}

// request is the life-loop call for s: the persona's prompt (or the
// configured one) and the hints the offline brain writes from.
func (l *Loop) request(now time.Time, u *store.User, s Situation, c bot.CheckIn, fresh bool) bot.Request {
	var msgs []bot.ChatMessage
	if l.cfg.Prompt != nil {
		msgs = ensureMarker(l.cfg.Prompt(*u, s.Assessment, now), l.cfg.Persona.Language)
	} else {
		msgs = BuildPrompt(l.cfg.Persona, s)
	}
	req := bot.Request{
		Kind:     bot.KindLifeLoop,
		JSON:     true,
		Messages: msgs,
		Hints: bot.Hints{
			Language:     l.cfg.Persona.Language,
			Persona:      l.cfg.Persona.Name,
			User:         userName(*u),
			Relationship: s.Assessment.State,
			Silence:      s.Silence,
			CheckedIn:    !fresh,
			CheckIns:     s.CheckIns,
			InnerState:   u.InnerState,
			Mood:         u.Mood,
			Emotion:      u.LastEmotion,
			Greeting:     s.Assessment.Greeting,
			Heavy:        s.Heavy,
			Memories:     c.Memories,
			Recent:       c.Recent,
			Now:          now.In(l.loc),
		},
		CacheKey: bot.CacheKey(l.cfg.Persona.Name, bot.KindLifeLoop, u.ID),
	}
	if s.FollowUp != nil {
		req.Hints.FollowUps = []bot.FollowUp{*s.FollowUp}
	}
	if s.Ahead != nil {
		req.Hints.Ahead = []bot.FollowUp{*s.Ahead}
	}
	return req
}

// send puts text in the outbound ledger, sends it and marks the entry. Once
// the platform was asked, bookkeeping ignores ctx cancellation so the ledger
// never keeps a pending entry for a message already attempted (a restart
// would resend it).
func (l *Loop) send(ctx context.Context, now time.Time, u *store.User, text string, followUp *bot.FollowUp, sender bot.Sender, d Decision) (Decision, bool, error) {
	platform := userPlatform(u)
	out := store.Outbound{
		Platform:  platform,
		ChatID:    u.PrivateChatID,
		ChatKind:  string(bot.ChatPrivate),
		UserID:    u.ID,
		Kind:      OutboundKind,
		Text:      text,
		Status:    store.OutboundPending,
		CreatedAt: now,
	}
	id, err := l.cfg.Store.EnqueueOutbound(ctx, out)
	if err != nil {
		if ctx.Err() != nil {
			return Decision{}, true, ctx.Err()
		}
		l.log.Error("enqueue proactive message", "user", u.ID, "err", err)
		d.Outcome, d.Reason = OutcomeError, ReasonStore
		l.record(ctx, now, d)
		return d, true, nil
	}
	bctx := context.WithoutCancel(ctx)
	chat := bot.ChatRef{Platform: platform, ChatID: u.PrivateChatID, Kind: bot.ChatPrivate}
	sent, err := sender.Send(ctx, chat, bot.Outgoing{Text: text})
	if err != nil {
		if merr := l.cfg.Store.MarkOutbound(bctx, id, store.OutboundFailed, nil, now); merr != nil {
			l.log.Error("mark proactive message failed", "user", u.ID, "outbound", id, "err", merr)
		}
		d.Outcome, d.Reason = OutcomeError, ReasonSend
		if errors.Is(err, bot.ErrUnreachable) {
			d.Reason = ReasonUnreachable
			if l.cfg.MarkUnreachable != nil {
				if merr := l.cfg.MarkUnreachable(bctx, u.ID); merr != nil {
					l.log.Error("mark user unreachable", "user", u.ID, "err", merr)
				}
			}
		}
		l.log.Warn("send proactive message", "user", u.ID, "reason", d.Reason, "err", err)
		l.record(bctx, now, d)
		return d, true, ctx.Err()
	}
	if err := l.cfg.Store.MarkOutbound(bctx, id, store.OutboundSent, sent.MessageIDs, now); err != nil {
		l.log.Error("mark proactive message sent", "user", u.ID, "outbound", id, "err", err)
	}
	d.Outcome, d.Text = OutcomeSent, text
	if followUp != nil {
		d.Reason = ReasonFollowUp
		if err := l.cfg.Store.MarkFollowUpsAsked(bctx, []int64{followUp.ID}, now); err != nil {
			l.log.Error("mark follow-up asked", "user", u.ID, "err", err)
		}
	}
	l.record(bctx, now, d)
	l.log.Info("proactive message sent", "user", u.ID)
	return d, true, nil
}

// record writes d to the proactive log; a failure is logged, not returned,
// because the decision itself already happened.
func (l *Loop) record(ctx context.Context, now time.Time, d Decision) {
	p := store.Proactive{UserID: d.UserID, At: now, Outcome: d.Outcome, Reason: d.Reason, Text: d.Text}
	if err := l.cfg.Store.LogProactive(ctx, p); err != nil {
		l.log.Error("log proactive decision", "user", d.UserID, "outcome", d.Outcome, "err", err)
	}
}

// userPlatform is u's platform, falling back to the prefix of its id.
func userPlatform(u *store.User) string {
	if u.Platform != "" {
		return u.Platform
	}
	p, _, _ := strings.Cut(u.ID, ":")
	return p
}

// latest returns the later of two times.
func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
