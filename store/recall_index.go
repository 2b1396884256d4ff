package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"
)

// The recall index keeps recall_docs and recall_fts (migration 0002) in
// step with episodes and memories. Go adds documents in the transaction
// that writes the row (insertEpisode, putMemory); the migration's triggers
// remove them whenever a row is deleted or its text or owner edited, so a
// forgotten text is never searchable, whoever deleted it.

// indexEpisode adds episode e (already inserted: e.ID and e.ChatKind as
// stored) to the recall index. An episode without text has nothing to find.
func indexEpisode(ctx context.Context, q querier, e Episode) error {
	if e.UserText == "" && e.ReplyText == "" {
		return nil
	}
	var doc int64
	err := q.QueryRowContext(ctx, `INSERT INTO recall_docs (user_id, episode_id, platform, chat_id, chat_kind, at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
		e.UserID, e.ID, e.Platform, e.ChatID, e.ChatKind, toNano(e.At)).Scan(&doc)
	if err != nil {
		return fmt.Errorf("index episode %d: %w", e.ID, err)
	}
	if _, err := q.ExecContext(ctx, "INSERT INTO recall_fts (rowid, said, reply) VALUES (?, ?, ?)",
		doc, indexText(e.UserText), indexText(e.ReplyText)); err != nil {
		return fmt.Errorf("index episode %d: %w", e.ID, err)
	}
	return nil
}

// indexMemory (re)indexes one memory slot with m's content, replacing what
// the slot's document held.
func indexMemory(ctx context.Context, q querier, m Memory) error {
	if _, err := q.ExecContext(ctx, "DELETE FROM recall_docs WHERE user_id = ? AND slot = ?", m.UserID, m.Slot); err != nil {
		return fmt.Errorf("index memory %s/%d: %w", m.UserID, m.Slot, err)
	}
	if m.Content == "" {
		return nil
	}
	at := m.UpdatedAt
	if at.IsZero() {
		at = m.CreatedAt
	}
	var doc int64
	err := q.QueryRowContext(ctx, "INSERT INTO recall_docs (user_id, slot, at) VALUES (?, ?, ?) RETURNING id",
		m.UserID, m.Slot, toNano(at)).Scan(&doc)
	if err != nil {
		return fmt.Errorf("index memory %s/%d: %w", m.UserID, m.Slot, err)
	}
	if _, err := q.ExecContext(ctx, "INSERT INTO recall_fts (rowid, said, reply) VALUES (?, ?, '')", doc, indexText(m.Content)); err != nil {
		return fmt.Errorf("index memory %s/%d: %w", m.UserID, m.Slot, err)
	}
	return nil
}

// unindexUser removes every recall document of a user (/forget all): their
// episodes stay for history and lingering emotion, but nothing of the past
// is recalled again. Only episodes written later are indexed.
func unindexUser(ctx context.Context, q querier, userID string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM recall_docs WHERE episode_id IN
		(SELECT id FROM episodes WHERE user_id = ?)`, userID); err != nil {
		return fmt.Errorf("unindex %s: %w", userID, err)
	}
	// Also documents whose owner differs from their episode's (none should)
	// and memory documents, through the partial index on (user_id, slot).
	if _, err := q.ExecContext(ctx, "DELETE FROM recall_docs WHERE user_id = ? AND slot IS NOT NULL", userID); err != nil {
		return fmt.Errorf("unindex %s: %w", userID, err)
	}
	return nil
}

// optimizeRecall merges the index into one segment. A delete leaves the
// deleted tokens in older segments (as entries, delete markers and the
// page-boundary term prefixes in recall_fts_idx) until a merge rewrites
// them; 'optimize' rewrites all of it, and PRAGMA secure_delete zeroes the
// freed pages. Forget paths run it before Scrub empties the WAL. It costs
// time in proportion to the whole index (see BenchmarkRecallForget), which
// forgetting, a rare user request, can afford.
func optimizeRecall(ctx context.Context, q querier) error {
	if _, err := q.ExecContext(ctx, "INSERT INTO recall_fts (recall_fts) VALUES ('optimize')"); err != nil {
		return fmt.Errorf("optimize recall index: %w", err)
	}
	return nil
}

// backfillBatch is how many episodes the migration indexes per read.
// hearth's choice: large enough that reads cost little next to the FTS
// inserts, small enough to bound memory.
const backfillBatch = 1000

// backfillProgressEvery is how often the migration logs its progress.
const backfillProgressEvery = 5 * time.Second

// backfillRecall is migration 0002's Go step: it indexes every existing
// episode with text and every memory, inside the migration's transaction,
// logging progress for large files.
func backfillRecall(ctx context.Context, tx *sql.Tx, log *slog.Logger) error {
	var total int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM episodes WHERE user_text != '' OR reply_text != ''").Scan(&total); err != nil {
		return fmt.Errorf("count episodes: %w", err)
	}
	start := time.Now()
	if total == 0 {
		log = slog.New(slog.DiscardHandler) // a new or empty file: nothing worth saying
	}
	log.Info("recall index: building", "episodes", total)
	lastLog, done, after := start, 0, int64(0)
	for {
		eps, err := episodesAfter(ctx, tx, after)
		if err != nil {
			return err
		}
		if len(eps) == 0 {
			break
		}
		for _, e := range eps {
			if err := indexEpisode(ctx, tx, e); err != nil {
				return err
			}
		}
		done += len(eps)
		after = eps[len(eps)-1].ID
		if time.Since(lastLog) >= backfillProgressEvery {
			lastLog = time.Now()
			log.Info("recall index: progress", "episodes", done, "of", total)
		}
	}
	mems, err := queryMemories(ctx, tx, "")
	if err != nil {
		return fmt.Errorf("read memories: %w", err)
	}
	for _, m := range mems {
		if err := indexMemory(ctx, tx, m); err != nil {
			return err
		}
	}
	log.Info("recall index: built", "episodes", done, "memories", len(mems), "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// episodesAfter reads the next backfillBatch episodes with text after id,
// with what indexing needs.
func episodesAfter(ctx context.Context, tx *sql.Tx, id int64) ([]Episode, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, user_id, platform, chat_id, chat_kind, user_text, reply_text, at FROM episodes
		WHERE id > ? AND (user_text != '' OR reply_text != '') ORDER BY id LIMIT ?`, id, backfillBatch)
	if err != nil {
		return nil, fmt.Errorf("read episodes: %w", err)
	}
	defer rows.Close()
	var eps []Episode
	for rows.Next() {
		var (
			e  Episode
			at int64
		)
		if err := rows.Scan(&e.ID, &e.UserID, &e.Platform, &e.ChatID, &e.ChatKind, &e.UserText, &e.ReplyText, &at); err != nil {
			return nil, fmt.Errorf("read episodes: %w", err)
		}
		e.At = fromNano(at)
		eps = append(eps, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read episodes: %w", err)
	}
	return eps, nil
}
