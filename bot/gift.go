package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/heart"
	"hearth/store"
)

// ErrUnknownUser is returned for a gift to someone hearth never talked to.
var ErrUnknownUser = errors.New("unknown user")

// GiftResult is the answer of a verified gift (DESIGN §9 POST /api/gift/send).
type GiftResult struct {
	User          string  `json:"user"`
	Item          string  `json:"item"`
	TransactionID string  `json:"transaction_id"`
	MoodBefore    float64 `json:"mood_before"`
	MoodAfter     float64 `json:"mood_after"`
	Thanked       bool    `json:"thanked"` // a thank-you went to the user's private chat
	// Replay is set when transactionID was seen before: the result is the
	// first one and nothing changed now. Not part of the answer's JSON,
	// which repeats the first result exactly (DESIGN §9); it is for logs.
	Replay bool `json:"-"`
}

// Gift applies a verified gift: the only way GIFT_SEND exists (seed 001
// §5.4). It is one step of the mood model (decay, then +50 × dependency,
// exempt from anti-grind), appended to last_intents, not counted as a
// message, and idempotent on transactionID: a repeat returns the first
// result and changes nothing. The bot then thanks the user in their private
// chat through the normal reply path.
func (h *Handler) Gift(ctx context.Context, userID, item, transactionID string) (GiftResult, error) {
	if g, ok, err := h.cfg.Store.Gift(ctx, transactionID); err != nil {
		return GiftResult{}, fmt.Errorf("gift %s: %w", transactionID, err)
	} else if ok {
		return decodeReplay(g)
	}
	unlock := h.users.lock(userID)
	defer unlock()
	u, ok, err := h.cfg.Store.User(ctx, userID)
	if err != nil {
		return GiftResult{}, fmt.Errorf("gift for %s: %w", userID, err)
	}
	if !ok {
		return GiftResult{}, fmt.Errorf("gift for %s: %w", userID, ErrUnknownUser)
	}
	now := h.cfg.Now()
	step := heart.GiftStep(u.Mood, toIntents(u.LastIntents), h.char)
	res := GiftResult{User: userID, Item: item, TransactionID: transactionID, MoodBefore: u.Mood, MoodAfter: step.Mood}
	var out *store.Outbound
	if u.PrivateChatID != "" {
		text := h.thanks(ctx, u, item, step.Mood, now)
		out = h.outbound(u.ID, ChatRef{Platform: u.Platform, ChatID: u.PrivateChatID, Kind: ChatPrivate}, "gift", 0, text, now)
		res.Thanked = true
	}
	u.Mood, u.LastIntents = step.Mood, fromIntents(step.Intents)
	raw, err := json.Marshal(res)
	if err != nil {
		return GiftResult{}, fmt.Errorf("gift %s: %w", transactionID, err)
	}
	g := store.Gift{TransactionID: transactionID, UserID: userID, Item: item, At: now.UTC(), MoodBefore: res.MoodBefore, MoodAfter: res.MoodAfter, Result: raw}
	stored, inserted, err := h.cfg.Store.CommitGift(ctx, g, u, out)
	if err != nil {
		return GiftResult{}, fmt.Errorf("gift %s: %w", transactionID, err)
	}
	if !inserted {
		return decodeReplay(stored)
	}
	if out != nil { // CommitGift set its ledger id
		if err := h.deliver(ctx, *out, committed); err != nil {
			h.log.Warn("gift thanks not delivered yet; will retry", "outbound", out.ID, "err", err)
		}
	}
	return res, nil
}

// decodeReplay is the stored first result of a repeated transaction.
func decodeReplay(g store.Gift) (GiftResult, error) {
	var r GiftResult
	if err := json.Unmarshal(g.Result, &r); err != nil {
		return r, fmt.Errorf("gift %s: stored result: %w", g.TransactionID, err)
	}
	r.Replay = true
	return r, nil
}

// thanks writes the thank-you as a reply (seed 001 §5.4 step 5 "L2 生成感谢语"):
// the user's history and the persona's voice, with the verified gift as the
// event. The gift marker is never shown as user text.
func (h *Handler) thanks(ctx context.Context, u store.User, item string, mood float64, now time.Time) string {
	p := h.cfg.Persona
	brain, offline := h.brainFor(ctx, u.ID, now)
	rel := RelationshipOf(u, now, h.loc)
	strategy := heart.StrategyFor(heart.Grateful)
	sys := h.systemOf(u.Name, false, rel.State)
	prompt := heart.BuildReplyPrompt(heart.PromptInput{
		PersonaName: p.Name, Language: p.Language, UserName: u.Name,
		RelationshipState: string(rel.State), System: &sys.System, Now: now.In(h.loc), InnerState: u.InnerState,
		Mood: mood, Strategy: strategy, PostHistory: WithUser(p.PostHistory, u.Name),
		BudgetTokens: PromptBudgetTokens,
	})
	event := "(" + u.Name + " just sent you a gift: " + strings.TrimSpace(item) + ". It is verified. Thank them warmly and in character.)"
	req := Request{
		Kind:     KindReply,
		Messages: replyMessages(sys, prompt, event),
		Hints: Hints{
			Language: p.Language, Persona: p.Name, User: u.Name, Text: event, Turn: u.Messages,
			Emotion: string(heart.Grateful), Tone: strategy.Tone, MaxLength: strategy.MaxLength,
			EmojiAllowed: strategy.EmojiAllowed, Intent: string(heart.GiftSend), Mood: mood,
			Relationship: string(rel.State), Gift: item,
		},
	}
	text, _, _ := h.reply(ctx, brain, offline, req)
	return text
}
