package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hearth/heart"
	"hearth/store"
)

// DailyScan bounds how many of a user's episodes the daily checks read
// (30 days of a very chatty user; the seed's windows are 30 days).
const DailyScan = 5000

// wholeDay is the most anyone can talk in a day: if even that would not
// call for a break, the relationship has no daily limit.
const wholeDay = 24 * time.Hour

// signalBreak marks the day's seed 003 §6.2 break suggestion, so it is sent
// once a day, not once a turn. It carries no points.
const signalBreak = "break_suggested"

// Daily runs seed 003's daily jobs for every user (DESIGN §7 "Daily jobs"):
// behaviour signals (§2.2), the loneliness index (§5), the over-dependency
// check (§6), memory cleanup (§8.1) and the /me chart's daily point. It acts
// on what they decide: crisis resources and operator alerts on Watch, the
// §6.2 message when the dependency level rises.
func (h *Handler) Daily(ctx context.Context, now time.Time) error {
	users, err := h.cfg.Store.Users(ctx)
	if err != nil {
		return fmt.Errorf("daily: %w", err)
	}
	var errs []error
	for _, u := range users {
		if err := h.dailyUser(ctx, u.ID, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (h *Handler) dailyUser(ctx context.Context, userID string, now time.Time) error {
	unlock := h.users.lock(userID)
	defer unlock()
	u, ok, err := h.cfg.Store.User(ctx, userID)
	if err != nil || !ok {
		return fmt.Errorf("daily %s: %v", userID, err)
	}
	since := now.Add(-heart.LonelinessWindow)
	eps, err := h.cfg.Store.UserEpisodes(ctx, u.ID, since, DailyScan)
	if err != nil {
		return fmt.Errorf("daily %s: %w", u.ID, err)
	}
	log, err := h.cfg.Store.ProactiveLog(ctx, u.ID, since)
	if err != nil {
		return fmt.Errorf("daily %s: %w", u.ID, err)
	}
	hist, cues := activity(eps, log, h.loc)

	rel := decodeRelationship(u.Relationship, u.CreatedAt)
	behaviour := heart.BehaviourSignals(hist, now, h.loc)
	rel, events := rel.Apply(now, h.loc, behaviour, false)
	var ev []heart.RelationshipEvent
	rel, ev = rel.SetLoneliness(now, heart.Loneliness(heart.LonelinessTally(cues)))
	events = append(events, ev...)
	rel, ev = rel.EvaluateDependency(heart.DependencyInputsFrom(hist, now, h.loc), now, h.loc)
	events = append(events, ev...)
	u.Relationship = encodeRelationship(rel)

	t := store.Turn{
		User: u, Signals: storeSignals(u.ID, now, behaviour),
		Daily: &store.DailyPoint{UserID: u.ID, Day: now.In(h.loc).Format(time.DateOnly), Mood: u.Mood, Affinity: rel.Score},
	}
	lang := h.cfg.Persona.Language
	private := ChatRef{Platform: u.Platform, ChatID: u.PrivateChatID, Kind: ChatPrivate}
	for _, e := range events {
		h.alertOperators(u, e, now, &t)
		switch e := e.(type) {
		case heart.EnterWatch:
			if u.PrivateChatID != "" {
				t.Extra = append(t.Extra, *h.outbound(u.ID, private, "crisis", 0, h.crisisResources(), now))
			}
		case heart.DependencyChanged:
			if e.To > e.From && u.PrivateChatID != "" {
				if text := heart.DependencyMessage(e.To, lang); text != "" {
					t.Extra = append(t.Extra, *h.outbound(u.ID, private, "wellbeing", 0, text, now))
				}
			}
		}
	}
	ids, err := h.cfg.Store.CommitTurn(ctx, t)
	if err != nil {
		return fmt.Errorf("daily %s: %w", u.ID, err)
	}
	if err := h.cleanMemories(ctx, u, rel.Score, now); err != nil {
		return err
	}
	h.deliverCommitted(ctx, t, ids)
	return nil
}

// cleanMemories deletes ephemeral memories of users who drifted away
// (seed 003 §8.1 自动清理: affinity < 20 and 90 days without interaction).
func (h *Handler) cleanMemories(ctx context.Context, u store.User, score float64, now time.Time) error {
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		return fmt.Errorf("daily %s: %w", u.ID, err)
	}
	last := u.LastUserAt
	if last.IsZero() {
		last = u.CreatedAt
	}
	for _, m := range mems {
		if heart.MemoryExpired(heart.Retention(m.Retention), score, now.Sub(last)) {
			if _, err := h.cfg.Store.DeleteMemory(ctx, u.ID, m.Slot); err != nil {
				return fmt.Errorf("daily %s: clean memory %d: %w", u.ID, m.Slot, err)
			}
		}
	}
	return nil
}

// activity turns stored episodes and proactive decisions into what seed
// 003's behaviour, loneliness and dependency checks read.
func activity(eps []store.Episode, log []store.Proactive, loc *time.Location) (heart.ActivityHistory, []heart.LonelinessCue) {
	var hist heart.ActivityHistory
	cues := make([]heart.LonelinessCue, 0, len(eps))
	for _, e := range eps {
		if e.UserText == "" {
			continue
		}
		hist.UserMessageTimes = append(hist.UserMessageTimes, e.At)
		cue := heart.LonelinessCues(e.UserText, e.At, loc, e.Sentiment < 0)
		cues = append(cues, cue)
		if cue.RealSocial {
			hist.RealSocialTimes = append(hist.RealSocialTimes, e.At)
		}
		if heart.OnlyYouPhrase(e.UserText) {
			hist.SaidOnlyYou = true
		}
	}
	for _, p := range log {
		if p.Outcome == "sent" {
			hist.ProactiveSent = append(hist.ProactiveSent, p.At)
		}
	}
	return hist, cues
}

// breakDue reports whether this turn should carry seed 003 §6.2's break
// suggestion: the 2-hour limit is reached and it was not sent today. The
// user's tally keeps today's talk time and whether it was sent.
func (h *Handler) breakDue(ctx context.Context, u store.User, rel heart.Relationship, now time.Time) bool {
	// Most relationships have no daily limit at all: skip the reads when
	// even a whole day of talk would not call for a break.
	if !heart.BreakDue(rel, wholeDay) || h.loadTally(ctx, u.ID, now) != nil {
		return false
	}
	var (
		talk time.Duration
		brk  breakState
	)
	h.tallies.with(u.ID, func(t *tally) { talk, brk = t.talk.Add(now, h.loc).Today(now, h.loc), t.brk })
	if !heart.BreakDue(rel, talk) {
		return false
	}
	if brk == breakUnknown {
		day := StartOfDay(now, h.loc)
		sigs, err := h.cfg.Store.Signals(ctx, u.ID, day)
		if err != nil {
			return false
		}
		brk = breakNotSent
		for _, s := range sigs {
			if s.Tag == signalBreak {
				brk = breakSent
			}
		}
		h.tallies.with(u.ID, func(t *tally) {
			if t.day.Equal(day) {
				t.brk = brk
			}
		})
	}
	return brk == breakNotSent
}
