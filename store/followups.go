package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// FollowUp is a dated thing a user mentioned (issue 11 item 5): what it
// is about, the day it happens (YYYY-MM-DD in the persona's time zone), the
// episode that mentioned it, and whether the life loop asked about it or
// the user told how it went first.
type FollowUp struct {
	ID        int64     `json:"id"`
	UserID    string    `json:"user_id"`
	About     string    `json:"about"`
	Due       string    `json:"due"`
	EpisodeID int64     `json:"episode_id"`
	CreatedAt time.Time `json:"created_at"`
	AskedAt   time.Time `json:"asked_at"` // zero: not asked
	Resolved  bool      `json:"resolved"`
}

// RecallRef names one thing the recall stage put in a reply prompt: an
// episode by id or a memory by slot (ID holds the slot).
type RecallRef struct {
	Kind string `json:"kind"` // RecallEpisode or RecallMemory
	ID   int64  `json:"id"`
}

const followUpCols = `id, user_id, about, due, coalesce(episode_id, 0), created_at, asked_at, resolved`

func scanFollowUp(s scanner) (FollowUp, error) {
	var (
		f              FollowUp
		created, asked int64
	)
	if err := s.Scan(&f.ID, &f.UserID, &f.About, &f.Due, &f.EpisodeID, &created, &asked, &f.Resolved); err != nil {
		return FollowUp{}, err
	}
	f.CreatedAt, f.AskedAt = fromNano(created), fromNano(asked)
	return f, nil
}

func queryFollowUps(ctx context.Context, q querier, where string, args ...any) ([]FollowUp, error) {
	return queryAll(ctx, q, "list follow-ups", scanFollowUp, "SELECT "+followUpCols+" FROM follow_ups "+where, args...)
}

// addFollowUps stores a turn's follow-ups, from episodeID (0: none). The
// same (user, about, due) mentioned again is kept once.
func addFollowUps(ctx context.Context, q querier, fs []FollowUp, episodeID int64, at time.Time) error {
	for _, f := range fs {
		if f.EpisodeID == 0 {
			f.EpisodeID = episodeID
		}
		if f.CreatedAt.IsZero() {
			f.CreatedAt = at
		}
		if !validFollowUp(f) {
			continue // a bad date or a blank about is not worth failing a turn
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO follow_ups (user_id, about, due, episode_id, created_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, about, due) DO NOTHING`,
			f.UserID, f.About, f.Due, nullID(f.EpisodeID), toNano(f.CreatedAt)); err != nil {
			return fmt.Errorf("add follow-up: %w", err)
		}
	}
	return nil
}

// FollowUps returns every follow-up of a user, by due day.
func (db *DB) FollowUps(ctx context.Context, userID string) ([]FollowUp, error) {
	return followUps(ctx, db.reader, userID)
}

func followUps(ctx context.Context, q querier, userID string) ([]FollowUp, error) {
	return queryFollowUps(ctx, q, "WHERE user_id = ? ORDER BY due, id", userID)
}

// OpenFollowUps returns a user's follow-ups neither asked about nor
// resolved whose day is from since to before (YYYY-MM-DD, both
// inclusive), earliest first, at most limit (≤ 0: all).
func (db *DB) OpenFollowUps(ctx context.Context, userID, since, before string, limit int) ([]FollowUp, error) {
	return queryFollowUps(ctx, db.reader, `WHERE user_id = ? AND asked_at = 0 AND resolved = 0 AND due BETWEEN ? AND ?
		ORDER BY due, id LIMIT ?`, userID, since, before, limitArg(limit))
}

// markFollowUpAsked records when a follow-up was asked about (asked_at,
// then id).
const markFollowUpAsked = "UPDATE follow_ups SET asked_at = ? WHERE id = ?"

// MarkFollowUpsAsked records that the life loop asked about these
// follow-ups at at: they are not asked about again.
func (db *DB) MarkFollowUpsAsked(ctx context.Context, ids []int64, at time.Time) error {
	return db.closeFollowUps(ctx, markFollowUpAsked, toNano(at), ids)
}

// ResolveFollowUps records that the user told how these went before they
// were asked: they are not asked about.
func (db *DB) ResolveFollowUps(ctx context.Context, ids []int64) error {
	return db.closeFollowUps(ctx, "UPDATE follow_ups SET resolved = ? WHERE id = ?", 1, ids)
}

func (db *DB) closeFollowUps(ctx context.Context, update string, value any, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	return db.write(ctx, "close follow-ups", func(tx querier) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, update, value, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// setRecalled records what a reply recalled on its episode (/why).
func setRecalled(ctx context.Context, q querier, episodeID int64, refs []RecallRef) error {
	if episodeID == 0 || len(refs) == 0 {
		return nil
	}
	b, err := json.Marshal(refs)
	if err != nil {
		return fmt.Errorf("record recall: %w", err)
	}
	if _, err := q.ExecContext(ctx, "UPDATE episodes SET recalled = ? WHERE id = ?", string(b), episodeID); err != nil {
		return fmt.Errorf("record recall: %w", err)
	}
	return nil
}

// LastRecall returns what the recall stage put in the prompt of the user's
// newest reply (by episode), with that episode's time; nothing when the
// user has no episode or nothing was recalled.
func (db *DB) LastRecall(ctx context.Context, userID string) ([]RecallRef, time.Time, error) {
	var (
		raw string
		at  int64
	)
	err := db.reader.QueryRowContext(ctx, `SELECT recalled, at FROM episodes WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT 1`,
		userID).Scan(&raw, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("last recall of %s: %w", userID, err)
	}
	var refs []RecallRef
	if err := fromJSON(raw, &refs); err != nil {
		return nil, time.Time{}, fmt.Errorf("last recall of %s: %w", userID, err)
	}
	return refs, fromNano(at), nil
}

// EpisodesByID returns the user's episodes among ids, in id order; ids
// of other users' episodes are not returned.
func (db *DB) EpisodesByID(ctx context.Context, userID string, ids []int64) ([]Episode, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	return queryEpisodes(ctx, db.reader, "SELECT "+episodeCols+` FROM episodes
		WHERE user_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id`, userID, string(list))
}

// SalientEpisodes returns the user's episodes with text between since and
// until that are deep disclosures or have a trailer salience of at least
// minSalience, newest first, at most limit: the candidates of a return's
// heavy topic (seed 003 §7.1).
func (db *DB) SalientEpisodes(ctx context.Context, userID string, since, until time.Time, minSalience float64, limit int) ([]Episode, error) {
	return queryEpisodes(ctx, db.reader, "SELECT "+episodeCols+` FROM episodes
		WHERE user_id = ? AND at BETWEEN ? AND ? AND user_text != ''
		AND (disclosure = 'deep' OR (has_values AND salience >= ?)) ORDER BY at DESC, id DESC LIMIT ?`,
		userID, toNano(since), toNano(until), minSalience, limitArg(limit))
}

// forgetFollowUpsPass is ForgetText's pass over follow-ups: one whose
// about mentions the needle goes (one whose episode is blanked goes by
// trigger).
func forgetFollowUpsPass() scrubPass {
	return scrubPass{"SELECT id, about FROM follow_ups WHERE user_id = ?1", "DELETE FROM follow_ups WHERE user_id = ?1 AND id = ?2"}
}

// deleteFollowUps deletes every follow-up of a user (/forget all).
func deleteFollowUps(ctx context.Context, q querier, userID string) error {
	if _, err := q.ExecContext(ctx, "DELETE FROM follow_ups WHERE user_id = ?", userID); err != nil {
		return fmt.Errorf("delete follow-ups of %s: %w", userID, err)
	}
	return nil
}

// validFollowUp reports whether f can be stored.
func validFollowUp(f FollowUp) bool {
	_, err := time.Parse(time.DateOnly, f.Due)
	return err == nil && strings.TrimSpace(f.About) != "" && f.UserID != ""
}
