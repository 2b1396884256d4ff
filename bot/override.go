package bot

import (
	"sync"

	"hearth/heart"
)

// overrides holds seed 002's debug overrides of the lingering emotion: in
// memory only, never written to the database, gone on restart
// (002_a665288a7195e6e2.txt デバッグ用：ランタイム状態).
type overrides struct {
	mu sync.RWMutex
	m  map[string]heart.Override
}

func newOverrides() *overrides { return &overrides{m: make(map[string]heart.Override)} }

func (o *overrides) apply(userID string, l heart.Lingering) heart.Lingering {
	o.mu.RLock()
	ov, ok := o.m[userID]
	o.mu.RUnlock()
	if !ok {
		return l
	}
	return ov.Apply(l)
}

// SetOverride sets (or, with nil, clears) the debug override of userID.
func (h *Handler) SetOverride(userID string, ov *heart.Override) {
	h.override.mu.Lock()
	defer h.override.mu.Unlock()
	if ov == nil {
		delete(h.override.m, userID)
		return
	}
	h.override.m[userID] = *ov
}
