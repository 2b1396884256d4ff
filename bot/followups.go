package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hearth/heart"
	"hearth/store"
)

// followUps are the follow-ups a turn stores (issue 11 item 5): the reply
// trailer's, or when it names none (the offline brain, a model that left
// the key out) those heart.ExtractFollowUps reads in the user's words,
// each dated within heart.FollowUpHorizonDays in the persona's zone. Only
// private chats make follow-ups (hearth's choice: in a group people talk
// about many things to others), and never a crisis turn.
func (h *Handler) followUps(m *moment, fromTrailer []heart.FollowUp) []store.FollowUp {
	if m.in.ChatKind != string(ChatPrivate) || m.urgent() {
		return nil
	}
	now := m.now.In(h.loc)
	found := fromTrailer
	if len(found) == 0 {
		found = heart.ExtractFollowUps(m.text, now)
	}
	var out []store.FollowUp
	for _, f := range found {
		if heart.FollowUpInRange(f.Due, now) {
			out = append(out, store.FollowUp{UserID: m.u.ID, About: f.About, Due: f.Due})
		}
	}
	return out
}

// FollowUp is one follow-up whose day has passed, offered to the life
// loop's check-in (Hints.FollowUps, CheckIn.FollowUps).
type FollowUp struct {
	ID    int64
	About string
	Due   string // YYYY-MM-DD in the persona's zone
}

// The hours in which the companion speaks first, local time (the
// persona's zone): from CheckInFromHour up to CheckInUntilHour. Seed 003
// §6.1 counts from 22:00 as late night (深夜 22:00-5:00); before eight is
// hearth's choice, since a message then can wake someone. The persona's
// quiet_hours gate before any call; these are her own manners for a
// persona that sets none (a probe heard "Hope you're doing well" at 01:00
// from a student who had gone to bed). The offline brain keeps them and
// the life-loop prompt tells a model so.
const (
	CheckInFromHour  = 8
	CheckInUntilHour = 22
)

// AsleepHour reports whether now, already in the persona's zone, is
// outside the hours she speaks first in; an unknown time is not.
func AsleepHour(now time.Time) bool {
	if now.IsZero() {
		return false
	}
	return now.Hour() < CheckInFromHour || now.Hour() >= CheckInUntilHour
}

// CheckIn is what the life loop's check-in may refer to (Handler.About).
type CheckIn struct {
	// Memories are the user's memories visible at their affinity (seed
	// 003 §8.1); Recent their latest messages, oldest first.
	Memories []string
	Recent   []ChatMessage
	// FollowUps are the dated things they mentioned whose day has passed,
	// not yet asked about nor told about, earliest first.
	FollowUps []FollowUp
	// Ahead are their open follow-ups due tomorrow (the persona's day),
	// earliest first: a check-in the day before may wish them well.
	Ahead []FollowUp
	// Heavy is, for a user silent for heart.ReturnAbsence or more, the
	// heaviest thing they shared before going quiet, in their words
	// (heart.HeavyTopic); HeavyAt when they said it.
	Heavy   string
	HeavyAt time.Time
}

// followUpsDue are u's open follow-ups whose day has passed by at most
// heart.FollowUpStaleDays at now. One the user has already talked about
// since its day ("the exam went fine!") is resolved instead: nobody asks
// how something went after being told.
func (h *Handler) followUpsDue(ctx context.Context, u store.User, now time.Time) []FollowUp {
	local := now.In(h.loc)
	today := local.Format(time.DateOnly)
	open, err := h.cfg.Store.OpenFollowUps(ctx, u.ID, local.AddDate(0, 0, -heart.FollowUpStaleDays).Format(time.DateOnly), today, 0)
	if err != nil {
		h.log.Warn("follow-ups for a check-in", "user", u.ID, "err", err)
		return nil
	}
	var due []FollowUp
	var told []int64
	for _, f := range open {
		if !heart.FollowUpAskable(f.Due, local) {
			continue
		}
		if h.toldSince(ctx, u.ID, f) {
			told = append(told, f.ID)
			continue
		}
		due = append(due, FollowUp{ID: f.ID, About: f.About, Due: f.Due})
	}
	if err := h.cfg.Store.ResolveFollowUps(ctx, told); err != nil {
		h.log.Warn("resolve follow-ups", "user", u.ID, "err", err)
	}
	return due
}

// followUpsAhead are u's open follow-ups due tomorrow in the persona's
// zone, earliest first (CheckIn.Ahead).
func (h *Handler) followUpsAhead(ctx context.Context, u store.User, now time.Time) []FollowUp {
	tomorrow := now.In(h.loc).AddDate(0, 0, 1).Format(time.DateOnly)
	open, err := h.cfg.Store.OpenFollowUps(ctx, u.ID, tomorrow, tomorrow, 0)
	if err != nil {
		h.log.Warn("follow-ups ahead for a check-in", "user", u.ID, "err", err)
		return nil
	}
	ahead := make([]FollowUp, 0, len(open))
	for _, f := range open {
		ahead = append(ahead, FollowUp{ID: f.ID, About: f.About, Due: f.Due})
	}
	return ahead
}

// toldSince reports whether the user told of what f is about (in its words
// or words of the same thing, heart.FollowUpToldOf) in a message from its
// day on, after the one that made it.
func (h *Handler) toldSince(ctx context.Context, userID string, f store.FollowUp) bool {
	day, err := time.ParseInLocation(time.DateOnly, f.Due, h.loc)
	if err != nil {
		return false
	}
	eps, err := h.cfg.Store.UserEpisodes(ctx, userID, day, AboutTurns)
	if err != nil {
		return false
	}
	for _, e := range eps {
		if e.At.After(f.CreatedAt) && heart.FollowUpToldOf(f.About, e.UserText) {
			return true
		}
	}
	return false
}

// FollowUpTalkGap is how long the user must have been quiet for their
// message to open a new talk in which a reply may ask after a follow-up
// (hearth's choice: a few hours; within a talk the subject is theirs).
const FollowUpTalkGap = 3 * time.Hour

// askAfter picks the open follow-up a reply asks about: a user back for a
// new talk in a private chat after its day, with nothing hard to say, is
// asked how it went, once ("I'm back" the day after "my interview is
// tomorrow": "How did your interview go?"). One this very message tells
// about is resolved instead.
//
// A user back after heart.ReturnAbsence is greeted and asked, as a friend
// back from a trip would be ("Welcome back! How did the driving test
// go?"): the greeting keeps its opening (heart.ReturnHello) and the
// follow-up is its question. A greeting that asks after a heavy topic
// they shared keeps it, unless the follow-up is that same thing (then its
// question is the sharper one); the follow-up waits for another talk.
func (h *Handler) askAfter(ctx context.Context, m *moment) {
	if m.in.ChatKind != string(ChatPrivate) || m.first || m.urgent() || m.ask || m.concern ||
		m.det.Emotion.Category() == heart.CategoryNegative || m.now.Sub(m.u.LastUserAt) < FollowUpTalkGap {
		return
	}
	var told []int64
	for _, f := range h.followUpsDue(ctx, m.u, m.now) {
		switch {
		case heart.FollowUpToldOf(f.About, m.text):
			told = append(told, f.ID)
		case m.heavy.Text != "" && !heart.FollowUpToldOf(f.About, m.heavy.Text):
			// the greeting asks after the heavy topic: one question
		case len(m.followUps) == 0: // one question at a time, the earliest
			m.followUps = []FollowUp{f}
		}
	}
	if err := h.cfg.Store.ResolveFollowUps(ctx, told); err != nil {
		h.log.Warn("resolve follow-ups", "user", m.u.ID, "err", err)
	}
	if len(m.followUps) == 0 {
		return
	}
	f := m.followUps[0]
	if m.greeting != "" {
		m.greeting, m.heavy = heart.ReturnHello(m.rel.State, h.cfg.Persona.Language), heart.RecallCandidate{}
		m.returnNote = h.welcomeNote(m) + fmt.Sprintf(" While they were away the day of something they mentioned passed: %q, due %s. "+
			"After the greeting, ask how it went: that is the reply's one question.", f.About, f.Due)
		return
	}
	note := fmt.Sprintf("Earlier they mentioned %q, due %s, and that day has passed. If it suits what they say, ask how it went.", f.About, f.Due)
	m.returnNote = strings.TrimSpace(m.returnNote + "\n" + note)
}

// followUpIDs are the ids of fs.
func followUpIDs(fs []FollowUp) []int64 {
	ids := make([]int64, 0, len(fs))
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	return ids
}
