package bot

import (
	"context"
	"errors"
	"fmt"

	"hearth/heart"
	"hearth/store"
)

// HandleReaction turns a reaction on one of the bot's messages into seed 003
// §2.3's "like" feedback signal: only an approving reaction
// (heart.ReactionIsLike: 👍, ❤, 🔥, not 👎 or 🤔), and only once per message
// and user, so reacting, unreacting and reacting again earns nothing more.
// Reactions on other messages are ignored.
func (h *Handler) HandleReaction(ctx context.Context, r Reaction) error {
	if !heart.ReactionIsLike(r.Emoji) {
		h.log.Debug("reaction is no like", "user", r.User(), "emoji", r.Emoji)
		return nil
	}
	o, ok, err := h.cfg.Store.OutboundByPlatformID(ctx, r.Platform, r.ChatID, r.MessageID)
	if err != nil {
		return fmt.Errorf("reaction on %s/%s: %w", r.ChatID, r.MessageID, err)
	}
	if !ok {
		return nil // not a message of ours
	}
	userID := r.User()
	unlock := h.users.lock(userID)
	defer unlock()
	u, ok, err := h.cfg.Store.User(ctx, userID)
	if err != nil {
		return fmt.Errorf("reaction by %s: %w", userID, err)
	}
	if !ok {
		return nil // someone we never talked to
	}
	now := h.cfg.Now()
	if r.At.IsZero() {
		r.At = now
	}
	sig := heart.FeedbackSignal(heart.SignalLike)
	rel := decodeRelationship(u)
	rel, _ = rel.Apply(now, h.loc, []heart.RelationshipSignal{sig}, false)
	u.Relationship = encodeRelationship(rel)
	t := store.Turn{
		User: u, Signals: storeSignals(u.ID, r.At, []heart.RelationshipSignal{sig}),
		Like: &store.Like{UserID: u.ID, OutboundID: o.ID, At: r.At.UTC(), Emoji: r.Emoji},
	}
	if _, err := h.cfg.Store.CommitTurn(ctx, t); errors.Is(err, store.ErrAlreadyLiked) {
		h.log.Debug("message already liked; nothing more", "user", userID, "outbound", o.ID)
		return nil
	} else if err != nil {
		return fmt.Errorf("reaction by %s: %w", userID, err)
	}
	h.log.Debug("reaction recorded as like", "user", userID, "outbound", o.ID)
	return nil
}
