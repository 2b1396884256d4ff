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
	rel := decodeRelationship(u)
	hist, cues := h.activity(eps, log, rel.LonelinessSince(now))

	behaviour := heart.BehaviourSignals(hist, now, h.loc)
	rel, events := rel.Apply(now, h.loc, behaviour, false)
	var ev []heart.RelationshipEvent
	rel, ev = rel.SetLoneliness(now, heart.Loneliness(heart.LonelinessTally(cues)))
	events = append(events, ev...)
	rel, ev = rel.EvaluateDependency(heart.DependencyInputsFrom(hist, now, h.loc), now, h.loc)
	events = append(events, ev...)
	rel = holdDependencyNote(rel, events)
	u.Relationship = encodeRelationship(rel)

	t := store.Turn{
		User: u, Signals: storeSignals(u.ID, now, behaviour),
		Daily: &store.DailyPoint{UserID: u.ID, Day: now.In(h.loc).Format(time.DateOnly), Mood: u.Mood, Affinity: rel.Score},
	}
	for _, e := range events {
		if _, ok := e.(heart.EnterWatch); ok && u.PrivateChatID != "" {
			private := ChatRef{Platform: u.Platform, ChatID: u.PrivateChatID, Kind: ChatPrivate}
			t.Extra = append(t.Extra, *h.outbound(u.ID, private, "crisis", 0, h.crisisResources(), now))
		}
	}
	h.wellbeingEvents(ctx, u, events, now, &t, false)
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
			if _, err := h.cfg.Store.ExpireMemory(ctx, u.ID, m.Slot); err != nil {
				return fmt.Errorf("daily %s: clean memory %d: %w", u.ID, m.Slot, err)
			}
		}
	}
	return nil
}

// activity turns stored episodes and proactive decisions into what seed
// 003's behaviour, loneliness and dependency checks read. A message's
// feeling is seed 000's detection of its text (the same lexicon as the
// strategy, so the check is deterministic); a crisis episode is negative
// and hopeless. Loneliness cues start at lonelySince (the window, or the
// last Watch review).
func (h *Handler) activity(eps []store.Episode, log []store.Proactive, lonelySince time.Time) (heart.ActivityHistory, []heart.LonelinessCue) {
	var hist heart.ActivityHistory
	cues := make([]heart.LonelinessCue, 0, len(eps))
	for _, e := range eps {
		if e.UserText == "" {
			continue
		}
		hist.UserMessageTimes = append(hist.UserMessageTimes, e.At)
		negative := h.lex.Detect(e.UserText).Emotion.Category() == heart.CategoryNegative
		cue := heart.LonelinessCues(e.UserText, e.At, h.loc, negative, e.Crisis != "")
		if !e.At.Before(lonelySince) {
			cues = append(cues, cue)
		}
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
