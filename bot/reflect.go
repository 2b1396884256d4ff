package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"hearth/heart"
	"hearth/store"
)

// ReflectTurns is how many recent turns a reflection reads (hearth's
// choice: the ten since the last reflection plus ten for context).
const ReflectTurns = 20

// reflector runs seed 004's reflection: at most one in flight per user,
// never on the reply path, waited for at shutdown.
type reflector struct {
	ctx      context.Context
	h        *Handler
	mu       sync.Mutex
	inflight map[string]bool
	wg       sync.WaitGroup
}

func newReflector(ctx context.Context, h *Handler) *reflector {
	return &reflector{ctx: ctx, h: h, inflight: make(map[string]bool)}
}

// trigger starts a reflection for userID unless one is already running.
func (r *reflector) trigger(userID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inflight[userID] {
		return
	}
	r.inflight[userID] = true
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer func() {
			r.mu.Lock()
			delete(r.inflight, userID)
			r.mu.Unlock()
		}()
		err := r.h.Reflect(r.ctx, userID)
		r.h.obs.Reflection(err)
		if err != nil {
			// Not fatal: the next multiple of ten tries again.
			r.h.logBrainErr("reflection failed; will retry at the next multiple", err, "user", userID)
		}
	}()
}

func (r *reflector) wait() { r.wg.Wait() }

// running is how many reflections are in flight.
func (r *reflector) running() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.inflight)
}

// reflectAnswer is the [[hearth:reflect]] JSON object (DESIGN §9), plus
// the values of episodes whose reply carried no trailer (seed 002: the
// worker fills them later), each in the trailer's own format with an id.
type reflectAnswer struct {
	InnerState string            `json:"inner_state"`
	Episodes   []json.RawMessage `json:"episodes"`
}

// MaxFillEpisodes bounds how many value-less episodes one reflection asks
// the model to fill, to keep the call small.
const MaxFillEpisodes = 5

// Reflect rewrites userID's inner_state from the recent turns: feelings and
// changes of understanding, not a summary (seed 004 自动反思). Episodes that
// were stored without trailer values are left as they are.
func (h *Handler) Reflect(ctx context.Context, userID string) error {
	u, ok, err := h.cfg.Store.User(ctx, userID)
	if err != nil || !ok {
		return fmt.Errorf("reflect %s: load user: %v", userID, err)
	}
	eps, err := h.cfg.Store.UserEpisodes(ctx, userID, time.Time{}, ReflectTurns)
	if err != nil {
		return fmt.Errorf("reflect %s: %w", userID, err)
	}
	p := h.cfg.Persona
	var recent []ChatMessage
	var convo, unvalued strings.Builder
	fill := map[int64]store.Episode{}
	for _, e := range eps {
		recent = append(recent, ChatMessage{Role: "user", Content: e.UserText}, ChatMessage{Role: "assistant", Content: e.ReplyText})
		fmt.Fprintf(&convo, "%s: %s\n%s: %s\n", u.Name, heart.NeutraliseMarkers(e.UserText), p.Name, e.ReplyText)
		if !e.HasValues && len(fill) < MaxFillEpisodes {
			fill[e.ID] = e
			fmt.Fprintf(&unvalued, "id %d — %s: %s / %s: %s\n", e.ID, u.Name, heart.NeutraliseMarkers(e.UserText), p.Name, e.ReplyText)
		}
	}
	system := KindReflect.Marker() + "\n" + reflectPrompt(p.Name, u.Name, p.Language)
	if len(fill) > 0 {
		system += "\nSome of your replies were saved without how the moment felt. Add \"episodes\": " +
			`[{"id": N, "emotion_label": "joy"|"sadness"|"anger"|"fear"|"neutral", "emotion_intensity": 0..1, "salience": 0..1, "confidence": 0..1}]` +
			" for these:\n" + unvalued.String()
	}
	req := Request{
		Kind: KindReflect, JSON: true,
		Messages: []ChatMessage{
			{Role: "system", Content: system},
			{Role: "user", Content: "inner_state:\n" + u.InnerState + "\n\nrecent conversation:\n" + convo.String()},
		},
		Hints: Hints{
			Language: p.Language, Persona: p.Name, User: u.Name, Mood: u.Mood,
			InnerState: u.InnerState, Recent: recent, Turn: u.Messages,
			Relationship: string(decodeRelationship(u).State),
		},
		CacheKey: CacheKey(p.Name, KindReflect, userID),
	}
	brain, _ := h.brainFor(ctx, userID, h.cfg.Now())
	resp, err := brain.Complete(ctx, req)
	h.obs.LLM(KindReflect, resp.Usage, resp.Offline, err)
	if err != nil {
		return fmt.Errorf("reflect %s: %w", userID, err)
	}
	var ans reflectAnswer
	obj, _ := heart.FirstJSONObject(resp.Text)
	if err := json.Unmarshal([]byte(obj), &ans); err != nil || strings.TrimSpace(ans.InnerState) == "" {
		return fmt.Errorf("reflect %s: answer has no inner_state", userID)
	}
	// Write under the user's lock so a concurrent turn never overwrites it
	// with its older copy.
	unlock := h.users.lock(userID)
	defer unlock()
	u, _, err = h.cfg.Store.User(ctx, userID)
	if err != nil {
		return fmt.Errorf("reflect %s: %w", userID, err)
	}
	if forgot, err := h.forgotSince(ctx, userID, eps); err != nil || forgot {
		// This reflection read what was forgotten since and must not
		// write it back into inner_state (seed 003 §8.1 绝对删除).
		h.log.Info("reflection dropped: the user asked to forget meanwhile", "user", userID, "err", err)
		return err
	}
	u.InnerState = strings.TrimSpace(ans.InnerState)
	u.Reflections++
	h.fillEpisodes(ctx, fill, ans.Episodes)
	t := store.Turn{User: u, Usage: storeUsage(userID, h.cfg.Now(), []spent{{KindReflect, usageOf(resp, false)}})}
	if _, err := h.cfg.Store.CommitTurn(ctx, t); err != nil {
		return fmt.Errorf("reflect %s: save: %w", userID, err)
	}
	return nil
}

// forgotSince reports whether a forget blanked any of eps after they were
// read (their texts are empty now).
func (h *Handler) forgotSince(ctx context.Context, userID string, eps []store.Episode) (bool, error) {
	var ids []int64
	for _, e := range eps {
		if e.UserText != "" || e.ReplyText != "" {
			ids = append(ids, e.ID)
		}
	}
	now, err := h.cfg.Store.EpisodesByID(ctx, userID, ids)
	if err != nil {
		return false, fmt.Errorf("reflect %s: %w", userID, err)
	}
	if len(now) != len(ids) {
		return true, nil
	}
	for _, e := range now {
		if e.UserText == "" && e.ReplyText == "" {
			return true, nil
		}
	}
	return false, nil
}

// fillEpisodes stores the values a reflection gave for episodes that had
// none. Only the episodes it was asked about are touched, and each value
// set passes the same validation as a reply's trailer.
func (h *Handler) fillEpisodes(ctx context.Context, asked map[int64]store.Episode, answers []json.RawMessage) {
	for _, raw := range answers {
		var id struct {
			ID int64 `json:"id"`
		}
		if json.Unmarshal(raw, &id) != nil {
			continue
		}
		e, ok := asked[id.ID]
		if !ok {
			continue
		}
		r, err := heart.ParseTrailer(raw)
		if err != nil || !r.HasValues {
			continue
		}
		e.HasValues = true
		e.Label, e.Intensity, e.Salience, e.Confidence = string(r.Label), r.Intensity, r.Salience, r.Confidence
		if err := h.cfg.Store.UpdateEpisodeValues(ctx, e); err != nil {
			h.log.Warn("fill episode values", "episode", e.ID, "err", err)
		} else {
			h.tallies.with(e.UserID, func(t *tally) {
				if t.exact {
					t.exact = t.ling.Add(values(e))
				}
			})
		}
		delete(asked, id.ID)
	}
}
