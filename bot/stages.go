package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"hearth/heart"
	"hearth/store"
)

// brainFor picks the brain of this turn: the configured one, or the offline
// one once the persona's daily token budget (or the user's share of it) is
// spent (DESIGN §8 "Cost is bounded").
func (h *Handler) brainFor(ctx context.Context, userID string, now time.Time) (Brain, bool) {
	b := h.cfg.Persona.Budget
	if b.DailyTokens <= 0 || h.cfg.Brain == h.cfg.Offline {
		return h.cfg.Brain, h.cfg.Brain == h.cfg.Offline
	}
	day := StartOfDay(now, h.loc)
	used, err := h.cfg.Store.TokensSince(ctx, day, "")
	if err != nil {
		h.log.Warn("read token usage; assuming budget left", "err", err)
		return h.cfg.Brain, false
	}
	exhausted := used >= b.DailyTokens
	if !exhausted && b.UserShare > 0 {
		mine, err := h.cfg.Store.TokensSince(ctx, day, userID)
		if err == nil && float64(mine) >= b.UserShare*float64(b.DailyTokens) {
			exhausted = true
		}
	}
	h.budgetState(exhausted, used, b.DailyTokens)
	if exhausted {
		return h.cfg.Offline, true
	}
	return h.cfg.Brain, false
}

// budgetState logs a change of budget state once, not every turn.
func (h *Handler) budgetState(exhausted bool, used, limit int) {
	h.mu.Lock()
	changed := exhausted != h.budgetOut
	h.budgetOut = exhausted
	h.mu.Unlock()
	h.obs.BudgetExhausted(exhausted)
	if !changed {
		return
	}
	if exhausted {
		h.log.Warn("daily token budget spent; answering with the offline brain until tomorrow", "used", used, "budget", limit)
	} else {
		h.log.Info("daily token budget available again", "used", used, "budget", limit)
	}
}

// StartOfDay is local midnight of now's day in loc: "today" for budgets,
// allowances and the break check.
func StartOfDay(now time.Time, loc *time.Location) time.Time {
	y, m, d := now.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// perceive runs the L1 call, or the heuristic perceiver when the persona
// says so, the brain is offline, or the call fails in any way.
func (h *Handler) perceive(ctx context.Context, brain Brain, offline bool, text string, det heart.Detection) (heart.Perception, []spent) {
	fallback := heart.HeuristicPerceive(text, det)
	if offline || h.cfg.Persona.Perception == "heuristic" {
		return fallback, nil
	}
	req := Request{
		Kind: KindPerception, JSON: true,
		Messages: []ChatMessage{
			{Role: "system", Content: h.perceiving},
			{Role: "user", Content: heart.NeutraliseMarkers(text)},
		},
		Hints:    Hints{Language: h.cfg.Persona.Language, Text: text, Intent: string(fallback.Intent), Sentiment: fallback.Sentiment},
		CacheKey: CacheKey(h.cfg.Persona.Name, KindPerception, ""),
	}
	resp, err := brain.Complete(ctx, req)
	h.obs.LLM(KindPerception, resp.Usage, resp.Offline, err)
	if err != nil {
		h.logBrainErr("perception call failed; using heuristics", err)
		return fallback, nil
	}
	p, err := heart.ParsePerception([]byte(resp.Text))
	if err != nil {
		h.log.Warn("perception answer unreadable; using heuristics", "err", err)
		return fallback, []spent{{KindPerception, resp.Usage}}
	}
	return p, []spent{{KindPerception, resp.Usage}}
}

// reply asks the brain for the answer. Whatever fails, the user gets an
// answer: the offline brain steps in, and if even that fails, a short
// apology in the persona's language. Forbidden phrases (seed 003 §7.2) are
// removed from whatever is said.
func (h *Handler) reply(ctx context.Context, brain Brain, offline bool, req Request) (text, trailer string, usage []spent) {
	resp, err := brain.Complete(ctx, req)
	h.obs.LLM(KindReply, resp.Usage, resp.Offline || offline, err)
	usage = append(usage, spent{KindReply, usageOf(resp, offline)})
	if err != nil && strings.TrimSpace(resp.Text) == "" && !offline {
		h.logBrainErr("reply call failed; the offline brain answers this turn", err)
		resp, err = h.cfg.Offline.Complete(ctx, unseen(req))
	}
	if err != nil && strings.TrimSpace(resp.Text) == "" {
		h.log.Error("no brain could answer; sending an apology", "err", err)
		return text0(h.cfg.Persona.Language, msgSorry), "", usage
	}
	text = scrubForbidden(strings.TrimSpace(resp.Text))
	if text == "" {
		text = text0(h.cfg.Persona.Language, msgSorry)
	}
	return text, resp.Trailer, usage
}

// logBrainErr logs a failed call at WARN, unless the brain already said
// its model is down (ErrBrainDown): the brain logged that once, and every
// turn until it is back would repeat it.
func (h *Handler) logBrainErr(msg string, err error, attrs ...any) {
	level := slog.LevelWarn
	if errors.Is(err, ErrBrainDown) {
		level = slog.LevelDebug
	}
	h.log.Log(context.Background(), level, msg, append(attrs, "err", err)...)
}

func usageOf(r Response, offline bool) Usage {
	u := r.Usage
	if offline || r.Offline {
		return Usage{} // offline answers cost nothing against the budget
	}
	return u
}

// scrubForbidden drops every sentence that carries a seed 003 §7.2 phrase:
// pressure, blame or guilt are never sent, whoever wrote them.
func scrubForbidden(text string) string {
	if !heart.ContainsForbidden(text) {
		return text
	}
	var kept []string
	for _, s := range splitSentences(text) {
		if !heart.ContainsForbidden(s) {
			kept = append(kept, s)
		}
	}
	return strings.TrimSpace(strings.Join(kept, ""))
}

// splitSentences splits after sentence-ending punctuation, keeping it.
func splitSentences(text string) []string {
	var out []string
	start := 0
	rs := []rune(text)
	for i, r := range rs {
		if strings.ContainsRune("。！？!?.\n…", r) {
			out = append(out, string(rs[start:i+1]))
			start = i + 1
		}
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

// LingeringAt is the lingering emotion of userID at now, debug override
// applied (the admin API's view). An unknown user is ErrUnknownUser.
func (h *Handler) LingeringAt(ctx context.Context, userID string, now time.Time) (heart.Lingering, error) {
	if _, ok, err := h.cfg.Store.User(ctx, userID); err != nil {
		return heart.Lingering{}, fmt.Errorf("lingering of %s: %w", userID, err)
	} else if !ok {
		return heart.Lingering{}, fmt.Errorf("lingering of %s: %w", userID, ErrUnknownUser)
	}
	return h.lingering(ctx, userID, now)
}

func episodeValues(eps []store.Episode) []heart.EpisodeValues {
	out := make([]heart.EpisodeValues, 0, len(eps))
	for _, e := range eps {
		if e.HasValues {
			out = append(out, values(e))
		}
	}
	return out
}

// powerSpent counts today's REQUEST_NSFW and INVITATION turns against the
// persona's daily allowance (the user's tally keeps the count); explicit
// requests are declined outright unless the persona allows explicit
// content (DESIGN §3 step 4).
func (h *Handler) powerSpent(ctx context.Context, userID string, intent heart.Intent, now time.Time) bool {
	if intent == heart.RequestNSFW && !h.cfg.Persona.AllowExplicit {
		return true
	}
	if err := h.loadTally(ctx, userID, now); err != nil {
		return true // when in doubt, decline kindly
	}
	n, known := 0, false
	h.tallies.with(userID, func(t *tally) { n, known = t.power, true })
	return !known || n >= h.cfg.Persona.DailyPowerRequests
}

// DailyEpisodeScan bounds how many episodes a view such as /me reads.
const DailyEpisodeScan = 1000

func toIntents(s []string) []heart.Intent {
	out := make([]heart.Intent, len(s))
	for i, v := range s {
		out[i] = heart.Intent(v)
	}
	return out
}

func fromIntents(s []heart.Intent) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

func appendEmotion(h []store.EmotionRecord, d heart.Detection, turn int) []store.EmotionRecord {
	hh := heart.AppendHistory(heartHistory(h), heart.EmotionRecord{Emotion: d.Emotion, Confidence: d.Confidence, Turn: turn})
	out := make([]store.EmotionRecord, len(hh))
	for i, r := range hh {
		out[i] = store.EmotionRecord{Emotion: string(r.Emotion), Confidence: r.Confidence, Turn: r.Turn}
	}
	return out
}

// heartHistory is a stored emotion_history as heart reads it.
func heartHistory(h []store.EmotionRecord) []heart.EmotionRecord {
	hh := make([]heart.EmotionRecord, len(h))
	for i, r := range h {
		hh[i] = heart.EmotionRecord{Emotion: heart.Emotion(r.Emotion), Confidence: r.Confidence, Turn: r.Turn}
	}
	return hh
}

// nextLastEmotion is the emotion carried into the next turn
// (heart.NextLastEmotion), counting the turns in a row, this one included,
// that matched no keyword.
func nextLastEmotion(hist []store.EmotionRecord, d heart.Detection, chosen heart.Emotion) heart.Emotion {
	quiet := 0
	for i := len(hist) - 1; i >= 0 && hist[i].Confidence == 0; i-- {
		quiet++
	}
	return heart.NextLastEmotion(d, chosen, quiet, LastEmotionHold)
}

// feltEmotion is what a turn records in emotion_history and last_emotion.
// A crisis turn is at least a strong negative feeling whatever its words
// ("kms" matches no emotion keyword): seed 000's sad at its top confidence,
// unless the detector already found a confident negative feeling.
func feltEmotion(d heart.Detection, crisis bool) heart.Detection {
	if !crisis || (d.Emotion.Category() == heart.CategoryNegative && d.Confidence >= heart.StrategyConfidenceThreshold) {
		return d
	}
	return heart.Detection{Emotion: heart.Sad, Confidence: heart.ConfidenceMany, Indicators: d.Indicators}
}

// historyTurns is the chat's history window as prompt turns. In a group
// each user message is attributed to its speaker ("Ann: ..."), so the
// model never credits one member with another's words (DESIGN §12).
func (h *Handler) historyTurns(ctx context.Context, in store.Inbound, eps []store.Episode) []heart.HistoryTurn {
	names := map[string]string{}
	if in.ChatKind == string(ChatGroup) {
		for _, e := range eps {
			if _, ok := names[e.UserID]; ok {
				continue
			}
			names[e.UserID] = e.UserID
			if u, ok, err := h.cfg.Store.User(ctx, e.UserID); err == nil && ok && u.Name != "" {
				names[e.UserID] = u.Name
			}
		}
	}
	out := make([]heart.HistoryTurn, len(eps))
	for i, e := range eps {
		text := e.UserText
		if name, ok := names[e.UserID]; ok {
			text = name + ": " + text
		}
		out[i] = heart.HistoryTurn{User: heart.NeutraliseMarkers(text), Assistant: e.ReplyText, At: e.At}
	}
	return out
}

// memoryLines turns the user's memories into prompt lines. Conditional
// memories fade when affinity is low (seed 003 §8.1); every memory is the
// user's private matter, so none is shown in a group chat.
func memoryLines(mems []store.Memory, score float64) []heart.MemoryLine {
	out := make([]heart.MemoryLine, 0, len(mems))
	for _, m := range mems {
		if !heart.MemoryVisible(heart.Retention(m.Retention), m.Slot, score) {
			continue
		}
		out = append(out, heart.MemoryLine{Slot: m.Slot, Content: m.Content, Private: true})
	}
	return out
}

// shownMemories are the memories the reply prompt shows, as the offline
// brain reads them: visible at this affinity (memoryLines), only when the
// strategy uses memory, and none in a group chat (heart.BuildReplyPrompt's
// rule for private memories).
func shownMemories(mems []store.Memory, score float64, useMemory, group bool) []string {
	if !useMemory || group {
		return nil
	}
	var out []string
	for _, l := range memoryLines(mems, score) {
		if strings.TrimSpace(l.Content) != "" {
			out = append(out, l.Content)
		}
	}
	return out
}

// historyMessages is the history the reply prompt kept, as chat messages.
func historyMessages(turns []heart.HistoryTurn) []ChatMessage {
	out := make([]ChatMessage, 0, 2*len(turns))
	for _, t := range turns {
		out = append(out, ChatMessage{Role: "user", Content: t.User, At: t.At}, ChatMessage{Role: "assistant", Content: t.Assistant, At: t.At})
	}
	return out
}

// personaText is the persona and its example dialogue for the prompt, the
// Character Card {{user}} filled with the user's name.
func personaText(p Persona, user string) string {
	text := p.Text
	if p.Examples != "" {
		text += "\n\nExample dialogue:\n" + p.Examples
	}
	return WithUser(text, user)
}

func storeSignals(userID string, now time.Time, s []heart.RelationshipSignal) []store.Signal {
	out := make([]store.Signal, 0, len(s))
	for _, v := range s {
		out = append(out, store.Signal{UserID: userID, At: now.UTC(), Tag: string(v.Tag), Points: v.Points, Weight: v.Weight, Modality: v.Modality})
	}
	return out
}

// spent is the token usage of one call of a turn.
type spent struct {
	kind Kind
	u    Usage
}

func storeUsage(userID string, now time.Time, us []spent) []store.Usage {
	out := make([]store.Usage, 0, len(us))
	for _, s := range us {
		if s.u.Total() == 0 {
			continue
		}
		out = append(out, store.Usage{At: now.UTC(), Kind: string(s.kind), UserID: userID,
			Prompt: s.u.PromptTokens, Cached: s.u.CachedTokens, Completion: s.u.CompletionTokens})
	}
	return out
}

func encodeRelationship(r heart.Relationship) json.RawMessage {
	raw, err := json.Marshal(r)
	if err != nil {
		panic(fmt.Sprintf("relationship is plain data and always encodes: %v", err))
	}
	return raw
}

// decodeRelationship reads u's stored relationship; an empty or unreadable
// one starts fresh from the user's first contact. An operator's review of
// Watch kept beside it (hearth watch clear) is applied, so a writer that
// read the user before the review and wrote after it cannot undo it.
func decodeRelationship(u store.User) heart.Relationship {
	r := heart.NewRelationship(u.CreatedAt)
	if len(u.Relationship) > 0 {
		var stored heart.Relationship
		if json.Unmarshal(u.Relationship, &stored) == nil {
			r = stored
		}
	}
	return r.Reviewed(u.WatchReviewedAt)
}
