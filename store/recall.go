package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// RecallScope says whose words a search may return (DESIGN §12: never
// another user's, never a private memory in a group).
type RecallScope string

const (
	// RecallPrivate is a search from a private chat: the user's episodes
	// from every chat (private and group) and their memories.
	RecallPrivate RecallScope = "private"
	// RecallGroup is a search from a group chat: only the user's own words
	// said in that same group; never anything said in private, never a
	// memory, never the bot's replies as a match.
	RecallGroup RecallScope = "group"
)

// Recall document kinds (RecallHit.Kind).
const (
	RecallEpisode = "episode"
	RecallMemory  = "memory"
)

// RecallCandidates is how many candidates a search returns when the query
// sets no Limit. hearth's choice: ranking (heart.RankRecall) keeps a
// handful; fifty leaves it room to weigh recency and importance without
// reading much.
const RecallCandidates = 50

// Column weights of BM25 (the said and reply columns of recall_fts).
// hearth's choice: the user's own words count fully; the bot's words count
// half, so an episode is found by what the bot said but ranks below one
// where the user said it.
const (
	recallSaidWeight  = 1.0
	recallReplyWeight = 0.5
)

// RecallQuery is one search. UserID and Scope are required; a group search
// also names its chat. The user id is part of every query, so no search can
// return another user's rows.
type RecallQuery struct {
	UserID string
	// Text is what to search for, as the user typed it: any characters
	// are safe (the query builder makes them data, never FTS5 syntax).
	Text     string
	Scope    RecallScope
	Platform string // the group chat, for RecallGroup
	ChatID   string
	// Limit bounds the candidates; 0 means RecallCandidates.
	Limit int
}

// RecallHit is one candidate: an episode or a memory slot of the user, with
// its BM25 relevance and what ranking needs. The user's words and the bot's
// are kept apart: UserText is what the user said (a memory's content),
// ReplyText what the bot answered.
type RecallHit struct {
	Kind      string // RecallEpisode or RecallMemory
	EpisodeID int64  // an episode's id
	Slot      int    // a memory's slot
	// Score is BM25 relevance (FTS5's bm25() negated): higher is better,
	// comparable only within one search.
	Score      float64
	At         time.Time // the episode's time; the memory's last update
	Platform   string    // where an episode was said
	ChatID     string
	ChatKind   string // "private", "group", "" (unknown: treated as private)
	UserText   string
	ReplyText  string
	HasValues  bool    // the episode has trailer values
	Salience   float64 // the trailer's salience (seed 002), 0..1
	Disclosure string  // the perception's disclosure: "none", "light", "deep", ""
	Retention  string  // a memory's retention class (seed 003 §8.1)
}

// recallSQL is the search: the best-ranked documents of the user in scope
// (the CROSS JOIN keeps the full-text match as the outer loop, so a user
// with many documents never makes SQLite walk them all), then, for those
// few only, the texts and values from episodes and memories.
const recallSQL = `WITH hits AS (
	SELECT d.id AS id, -bm25(recall_fts, ?4, ?5) AS score
	FROM recall_fts CROSS JOIN recall_docs d ON d.id = recall_fts.rowid
	WHERE recall_fts MATCH ?1 AND d.user_id = ?2 %s
	ORDER BY score DESC LIMIT ?3)
SELECT h.score, coalesce(d.episode_id, 0), coalesce(d.slot, 0), d.at, d.platform, d.chat_id, d.chat_kind,
	coalesce(e.user_text, m.content, ''), coalesce(e.reply_text, ''), coalesce(e.has_values, 0),
	coalesce(e.salience, 0), coalesce(e.disclosure, ''), coalesce(m.retention, '')
FROM hits h JOIN recall_docs d ON d.id = h.id
LEFT JOIN episodes e ON e.id = d.episode_id
LEFT JOIN memories m ON d.slot IS NOT NULL AND m.user_id = d.user_id AND m.slot = d.slot
ORDER BY h.score DESC, d.id DESC`

// recallGroupFilter limits a group search to episodes said in that group.
const recallGroupFilter = `AND d.episode_id IS NOT NULL AND d.chat_kind = 'group' AND d.platform = ?6 AND d.chat_id = ?7`

// Recall searches one user's episodes and memories for q.Text within
// q.Scope, best BM25 match first. Text with nothing to search (only stop
// words, punctuation) returns no hits and runs no query.
func (db *DB) Recall(ctx context.Context, q RecallQuery) ([]RecallHit, error) {
	if q.UserID == "" {
		return nil, errors.New("recall: no user")
	}
	var (
		filter string
		args   []any
	)
	switch q.Scope {
	case RecallPrivate:
	case RecallGroup:
		if q.Platform == "" || q.ChatID == "" {
			return nil, errors.New("recall: group scope without its chat")
		}
		filter = recallGroupFilter
	default:
		return nil, fmt.Errorf("recall: unknown scope %q", q.Scope)
	}
	match := recallMatch(q.Text, q.Scope == RecallGroup)
	if match == "" {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = RecallCandidates
	}
	args = append(args, match, q.UserID, limit, recallSaidWeight, recallReplyWeight)
	if q.Scope == RecallGroup {
		args = append(args, q.Platform, q.ChatID)
	}
	rows, err := db.reader.QueryContext(ctx, fmt.Sprintf(recallSQL, filter), args...)
	if err != nil {
		return nil, fmt.Errorf("recall for %s: %w", q.UserID, err)
	}
	defer rows.Close()
	var hits []RecallHit
	for rows.Next() {
		var (
			h  RecallHit
			at int64
		)
		if err := rows.Scan(&h.Score, &h.EpisodeID, &h.Slot, &at, &h.Platform, &h.ChatID, &h.ChatKind,
			&h.UserText, &h.ReplyText, &h.HasValues, &h.Salience, &h.Disclosure, &h.Retention); err != nil {
			return nil, fmt.Errorf("recall for %s: %w", q.UserID, err)
		}
		h.At = fromNano(at)
		h.Kind = RecallEpisode
		if h.EpisodeID == 0 {
			h.Kind = RecallMemory
		}
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("recall for %s: %w", q.UserID, err)
	}
	return hits, nil
}
