package admin

import (
	"errors"
	"math"
	"net/http"
	"strings"

	"hearth/bot"
	"hearth/heart"
)

// giftRequest is the body of POST /api/gift/send (DESIGN §9).
type giftRequest struct {
	User          string `json:"user"`
	Item          string `json:"item"`
	TransactionID string `json:"transaction_id"`
}

// giftSend applies a verified gift through Core, which is idempotent on
// transaction_id: a repeat answers 200 with the first result (DESIGN §9).
// Unknown fields are tolerated so a payment provider's extras do no harm.
func (s *Server) giftSend(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, http.MethodPost)
		return
	}
	var req giftRequest
	if !decodeBody(w, r, &req, false) {
		return
	}
	for _, f := range []struct{ name, v string }{
		{"user", req.User}, {"item", req.Item}, {"transaction_id", req.TransactionID},
	} {
		if strings.TrimSpace(f.v) == "" {
			writeError(w, http.StatusBadRequest, "missing "+f.name)
			return
		}
	}
	res, err := s.cfg.Core.Gift(r.Context(), req.User, req.Item, req.TransactionID)
	switch {
	case errors.Is(err, bot.ErrUnknownUser):
		writeError(w, http.StatusNotFound, "unknown user")
	case err != nil:
		s.log.Error("admin: gift", "user", req.User, "transaction_id", req.TransactionID, "err", err)
		writeError(w, http.StatusInternalServerError, "gift not applied")
	case res.Replay:
		s.log.Info("admin: gift replayed: transaction_id seen before, nothing changed", "user", req.User,
			"transaction_id", req.TransactionID)
		writeJSON(w, http.StatusOK, res)
	default:
		s.log.Info("admin: gift", "user", req.User, "transaction_id", req.TransactionID,
			"mood_before", res.MoodBefore, "mood_after", res.MoodAfter)
		writeJSON(w, http.StatusOK, res)
	}
}

// kairoView is the answer of /api/otome_kairo: the lingering emotion as
// the engine sees it now (override applied) and the override, if any.
type kairoView struct {
	User      string          `json:"user"`
	Lingering heart.Lingering `json:"lingering"`
	Override  *heart.Override `json:"override"`
}

// otomeKairo is seed 002's debug view and override of the lingering
// emotion (002_a665288a7195e6e2.txt デバッグ用：ランタイム状態). The override
// lives in memory only: Core holds it and this server keeps a copy to show.
func (s *Server) otomeKairo(w http.ResponseWriter, r *http.Request) {
	user := r.URL.Query().Get("user")
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete:
	default:
		methodNotAllowed(w, http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete)
		return
	}
	if strings.TrimSpace(user) == "" {
		writeError(w, http.StatusBadRequest, "missing user")
		return
	}
	// Look the user up first so an override is never set for a stranger.
	if _, ok := s.lingering(w, r, user); !ok {
		return
	}
	switch r.Method {
	case http.MethodPut:
		var body kairoPut
		if !decodeBody(w, r, &body, true) {
			return
		}
		ov, msg := body.override()
		if msg != "" {
			writeError(w, http.StatusBadRequest, msg)
			return
		}
		s.setOverride(user, ov)
	case http.MethodDelete:
		s.setOverride(user, nil)
	}
	l, ok := s.lingering(w, r, user)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, kairoView{User: user, Lingering: l, Override: s.override(user)})
}

// lingering asks Core for user's lingering emotion and answers the error
// itself: 404 for an unknown user, 500 otherwise.
func (s *Server) lingering(w http.ResponseWriter, r *http.Request, user string) (heart.Lingering, bool) {
	l, err := s.cfg.Core.LingeringAt(r.Context(), user, s.cfg.Now())
	switch {
	case errors.Is(err, bot.ErrUnknownUser):
		writeError(w, http.StatusNotFound, "unknown user")
		return l, false
	case err != nil:
		s.log.Error("admin: lingering", "user", user, "err", err)
		writeError(w, http.StatusInternalServerError, "lingering not available")
		return l, false
	}
	return l, true
}

// kairoPut is the body of PUT /api/otome_kairo (README "Admin API"):
// {"active": true, "joy": 0, "sadness": 0, "anger": 0.9, "fear": 0} sets the
// override (a missing value is 0); {"active": false} clears it, as DELETE
// does. "active" is required, so a body meant for something else never
// clears an override by accident; unknown keys are refused by decodeBody.
type kairoPut struct {
	Active  *bool   `json:"active"`
	Joy     float64 `json:"joy"`
	Sadness float64 `json:"sadness"`
	Anger   float64 `json:"anger"`
	Fear    float64 `json:"fear"`
}

// override is the override b asks for (nil: clear it), or what is wrong
// with b: every value must be a number in [0, 1], the range of seed 002's
// emotion intensities, and a clearing body carries none.
func (b kairoPut) override() (*heart.Override, string) {
	if b.Active == nil {
		return nil, `missing "active": true sets the override, false clears it`
	}
	values := []struct {
		name string
		v    float64
	}{{"joy", b.Joy}, {"sadness", b.Sadness}, {"anger", b.Anger}, {"fear", b.Fear}}
	for _, f := range values {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 || f.v > 1 {
			return nil, f.name + " must be a number in [0, 1]"
		}
		if !*b.Active && f.v != 0 {
			return nil, `"active": false clears the override and takes no ` + f.name
		}
	}
	if !*b.Active {
		return nil, ""
	}
	return &heart.Override{Active: true, Joy: b.Joy, Sadness: b.Sadness, Anger: b.Anger, Fear: b.Fear}, ""
}

func (s *Server) setOverride(user string, ov *heart.Override) {
	s.ovMu.Lock()
	defer s.ovMu.Unlock()
	s.cfg.Core.SetOverride(user, ov)
	if ov == nil {
		delete(s.ov, user)
		return
	}
	s.ov[user] = *ov
}

func (s *Server) override(user string) *heart.Override {
	s.ovMu.Lock()
	defer s.ovMu.Unlock()
	ov, ok := s.ov[user]
	if !ok {
		return nil
	}
	return &ov
}
