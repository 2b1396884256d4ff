package store

import (
	"context"
	"time"
)

// Snapshot reads an instance as it was at one moment: every read through
// it runs in one read transaction, so a turn that commits meanwhile is
// seen whole or not at all (hearth state reads users, episodes, memories
// and token totals; separately, a user's counters could be from before a
// turn and their memories from after it). It is valid only inside the
// function View gives it to.
type Snapshot struct {
	q querier
}

// View runs fn with a Snapshot of the file, on the read pool (a
// ReadOnly DB included).
func (db *DB) View(ctx context.Context, fn func(s *Snapshot) error) error {
	return db.read(ctx, "read snapshot", func(q querier) error { return fn(&Snapshot{q: q}) })
}

// Users lists every user ordered by id (DB.Users).
func (s *Snapshot) Users(ctx context.Context) ([]User, error) { return queryUsers(ctx, s.q, "") }

// User loads one user; ok is false when the id is unknown (DB.User).
func (s *Snapshot) User(ctx context.Context, id string) (User, bool, error) {
	return getUser(ctx, s.q, id)
}

// UserEpisodeValues is DB.UserEpisodeValues in the snapshot.
func (s *Snapshot) UserEpisodeValues(ctx context.Context, userID string, since time.Time, limit int) ([]Episode, error) {
	return userEpisodeValues(ctx, s.q, userID, since, limit)
}

// Memories lists a user's memory slots ordered by slot (DB.Memories).
func (s *Snapshot) Memories(ctx context.Context, userID string) ([]Memory, error) {
	return memories(ctx, s.q, userID)
}

// TokenTotalsSince is DB.TokenTotalsSince in the snapshot.
func (s *Snapshot) TokenTotalsSince(ctx context.Context, since time.Time, userID string) (TokenTotals, error) {
	return tokenTotalsSince(ctx, s.q, since, userID)
}

// UnitsSince is DB.UnitsSince in the snapshot.
func (s *Snapshot) UnitsSince(ctx context.Context, since time.Time) (map[string]int, error) {
	return unitsSince(ctx, s.q, since)
}
