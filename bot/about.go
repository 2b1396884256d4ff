package bot

import (
	"context"
	"time"

	"hearth/heart"
	"hearth/store"
)

// What a check-in may refer to (hearth's choices): the user's messages of
// the last AboutWindow, at most AboutTurns of them.
const (
	AboutWindow = 14 * 24 * time.Hour
	AboutTurns  = 10
)

// About is what the life loop's check-in may refer to (lifeloop.Config.About):
// the user's memories visible at their affinity (seed 003 §8.1), their
// recent messages (oldest first), the follow-ups whose day has passed
// (followUpsDue) and, for a user silent for heart.ReturnAbsence or more,
// the heavy topic they left (seed 003 §7.1). A failed read is logged and
// yields less, never an error: a check-in without context is still a
// check-in.
func (h *Handler) About(ctx context.Context, u store.User, now time.Time) CheckIn {
	var c CheckIn
	rel := RelationshipOf(u, now, h.loc)
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		h.log.Warn("memories for a check-in", "user", u.ID, "err", err)
	}
	c.Memories = shownMemories(mems, rel.Score, true, false)
	eps, err := h.cfg.Store.UserEpisodes(ctx, u.ID, now.Add(-AboutWindow), AboutTurns)
	if err != nil {
		h.log.Warn("recent messages for a check-in", "user", u.ID, "err", err)
	}
	for _, e := range eps {
		if e.UserText != "" {
			c.Recent = append(c.Recent, ChatMessage{Role: "user", Content: e.UserText, At: e.At})
		}
	}
	c.FollowUps = h.followUpsDue(ctx, u, now)
	if heart.Returning(u.LastUserAt, now) {
		if heavy, ok := h.heavyTopic(ctx, u, u.LastUserAt); ok {
			c.Heavy, c.HeavyAt = heavy.Text, heavy.At
		}
	}
	return c
}
