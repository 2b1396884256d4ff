package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Retention classes of seed 003 §8. An empty Retention is stored as
// RetentionPermanent.
const (
	RetentionPermanent   = "permanent"
	RetentionConditional = "conditional"
	RetentionEphemeral   = "ephemeral"
)

// Memories lists a user's memory slots ordered by slot.
func (db *DB) Memories(ctx context.Context, userID string) ([]Memory, error) {
	return memories(ctx, db.reader, userID)
}

func memories(ctx context.Context, q querier, userID string) ([]Memory, error) {
	ms, err := queryMemories(ctx, q, "WHERE user_id = ? ORDER BY slot", userID)
	if err != nil {
		return nil, fmt.Errorf("memories of %s: %w", userID, err)
	}
	return ms, nil
}

func queryMemories(ctx context.Context, q querier, where string, args ...any) ([]Memory, error) {
	rows, err := q.QueryContext(ctx, `SELECT user_id, slot, content, retention, created_at, updated_at
		FROM memories `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Memory
	for rows.Next() {
		var (
			m                Memory
			created, updated int64
		)
		if err := rows.Scan(&m.UserID, &m.Slot, &m.Content, &m.Retention, &created, &updated); err != nil {
			return nil, err
		}
		m.CreatedAt, m.UpdatedAt = fromNano(created), fromNano(updated)
		out = append(out, m)
	}
	return out, rows.Err()
}

// PutMemory writes a slot, replacing what it held (the slot keeps its first
// CreatedAt), and indexes it for recall. Slots outside 0-99 (DESIGN §5) and
// unknown retention classes are rejected by the table's CHECKs.
func (db *DB) PutMemory(ctx context.Context, m Memory) error {
	return db.write(ctx, "put memory", func(tx querier) error { return putMemory(ctx, tx, m) })
}

func putMemory(ctx context.Context, q querier, m Memory) error {
	if m.Retention == "" {
		m.Retention = RetentionPermanent
	}
	if m.UpdatedAt.IsZero() {
		m.UpdatedAt = m.CreatedAt
	}
	_, err := q.ExecContext(ctx, `INSERT INTO memories (user_id, slot, content, retention, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, slot) DO UPDATE SET
		content = excluded.content, retention = excluded.retention, updated_at = excluded.updated_at`,
		m.UserID, m.Slot, m.Content, m.Retention, toNano(m.CreatedAt), toNano(m.UpdatedAt))
	if err != nil {
		return fmt.Errorf("put memory %s/%d: %w", m.UserID, m.Slot, err)
	}
	return indexMemory(ctx, q, m)
}

// DeleteMemory deletes one slot for real (/forget N, the daily cleanup): the
// row, its recall document and the document's vector are removed, the
// recall index is rebuilt so no segment keeps its words, and purge leaves
// no copy in the file or its WAL. ok is false when the slot was empty.
func (db *DB) DeleteMemory(ctx context.Context, userID string, slot int) (bool, error) {
	var n int64
	err := db.write(ctx, "delete memory", func(tx querier) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM memories WHERE user_id = ? AND slot = ?", userID, slot)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		return rebuildRecall(ctx, tx)
	})
	if err != nil {
		return false, err
	}
	if n > 0 {
		db.vectors.clear()
		if err := db.purge(ctx); err != nil {
			return true, err
		}
	}
	return n > 0, nil
}

// ExpireMemory deletes one slot as housekeeping (seed 003 §8.1 自动清理,
// the daily cleanup of ephemeral memories): the row and its recall
// document go in one transaction, without DeleteMemory's rebuild and
// purge, which a user's request to forget (绝对删除) pays for. ok is false
// when the slot was empty.
func (db *DB) ExpireMemory(ctx context.Context, userID string, slot int) (bool, error) {
	var n int64
	err := db.write(ctx, "expire memory", func(tx querier) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM memories WHERE user_id = ? AND slot = ?", userID, slot)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if n > 0 {
		db.vectors.clear()
	}
	return n > 0, err
}

// needleRegexp matches needle case-insensitively (Unicode simple folding).
// A needle that begins or ends with a Latin letter or digit matches whole
// words only, plus an English plural or possessive ("cat" finds "cats" and
// "cat's", never "education" or "category"), so forgetting one thing does
// not delete everything that happens to contain its letters. Chinese and
// Japanese, written without spaces, match anywhere.
func needleRegexp(needle string) *regexp.Regexp {
	expr := regexp.QuoteMeta(needle)
	if r, _ := utf8.DecodeRuneInString(needle); isASCIIWord(r) {
		expr = `\b` + expr
	}
	if r, _ := utf8.DecodeLastRuneInString(needle); isASCIIWord(r) {
		expr += `(?:s|es|'s|’s)?\b`
	}
	return regexp.MustCompile("(?i)" + expr)
}

// isASCIIWord is what RE2's \b counts as a word character: ASCII letters,
// digits and underscore.
func isASCIIWord(r rune) bool {
	return r < utf8.RuneSelf && (r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

// ForgetText makes "forget what I said about X" leave no trace of needle in
// the user's rows. Matching is case-insensitive (Unicode simple folding).
//   - memories whose content contains needle are deleted;
//   - inbound messages containing it get text "";
//   - episodes whose user text, reply or topic tags contain it get both
//     texts "" and no tags (the reply to a forgotten message is about it);
//     their emotion values stay, so mood history keeps its shape;
//   - outbound ledger texts and proactive log texts/reasons containing it
//     get "";
//   - follow-ups about it, or from a blanked episode, are deleted;
//   - occurrences inside the user's inner_state and scratch are cut out;
//   - the recall documents of the deleted memories and blanked episodes
//     leave the index (triggers), with their vectors, and the index is
//     rebuilt.
//
// Everything changes in one transaction, then purge removes every old copy
// from the file and the WAL. It returns the number of rows changed (0: nothing
// mentioned needle). An empty needle is an error: it would match everything.
func (db *DB) ForgetText(ctx context.Context, userID, needle string) (int, error) {
	if strings.TrimSpace(needle) == "" {
		return 0, errors.New("forget text: empty needle")
	}
	var n int
	err := db.write(ctx, "forget text", func(tx querier) error {
		var err error
		if n, err = forgetText(ctx, tx, userID, needleRegexp(needle)); err != nil || n == 0 {
			return err
		}
		return rebuildRecall(ctx, tx)
	})
	if err != nil {
		return 0, err
	}
	if n > 0 {
		db.vectors.clear()
		if err := db.purge(ctx); err != nil {
			return n, err
		}
	}
	return n, nil
}

// scrubPass is one table's part of ForgetText: select the user's rows,
// and for each row whose columns match, run update with the row key.
type scrubPass struct {
	selectSQL string // key first, then text columns; one parameter: user id
	updateSQL string // one parameter: key
}

// scrubPasses lists the tables ForgetText visits (a function, not a
// package variable, so nothing shared is mutable).
func scrubPasses() []scrubPass {
	return []scrubPass{
		{"SELECT slot, content FROM memories WHERE user_id = ?1", "DELETE FROM memories WHERE user_id = ?1 AND slot = ?2"},
		{"SELECT id, text FROM inbound WHERE user_id = ?1", "UPDATE inbound SET text = '' WHERE user_id = ?1 AND id = ?2"},
		{"SELECT id, user_text, reply_text, topic_tags FROM episodes WHERE user_id = ?1",
			"UPDATE episodes SET user_text = '', reply_text = '', topic_tags = 'null' WHERE user_id = ?1 AND id = ?2"},
		{"SELECT id, text FROM outbound WHERE user_id = ?1", "UPDATE outbound SET text = '' WHERE user_id = ?1 AND id = ?2"},
		{"SELECT id, text, reason FROM proactive_log WHERE user_id = ?1",
			"UPDATE proactive_log SET text = '', reason = '' WHERE user_id = ?1 AND id = ?2"},
		forgetFollowUpsPass(),
	}
}

func forgetText(ctx context.Context, tx querier, userID string, re *regexp.Regexp) (int, error) {
	n := 0
	for _, p := range scrubPasses() {
		keys, err := matchingKeys(ctx, tx, p.selectSQL, userID, re)
		if err != nil {
			return 0, err
		}
		for _, k := range keys {
			if _, err := tx.ExecContext(ctx, p.updateSQL, userID, k); err != nil {
				return 0, fmt.Errorf("scrub: %w", err)
			}
			n++
		}
	}
	var inner, scratch string
	err := tx.QueryRowContext(ctx, "SELECT inner_state, scratch FROM users WHERE id = ?", userID).Scan(&inner, &scratch)
	if errors.Is(err, sql.ErrNoRows) {
		return n, nil
	}
	if err != nil {
		return 0, fmt.Errorf("scrub user: %w", err)
	}
	if re.MatchString(inner) || re.MatchString(scratch) {
		if _, err := tx.ExecContext(ctx, "UPDATE users SET inner_state = ?, scratch = ? WHERE id = ?",
			re.ReplaceAllString(inner, ""), re.ReplaceAllString(scratch, ""), userID); err != nil {
			return 0, fmt.Errorf("scrub user: %w", err)
		}
		n++
	}
	return n, nil
}

func matchingKeys(ctx context.Context, tx querier, query, userID string, re *regexp.Regexp) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, query, userID)
	if err != nil {
		return nil, fmt.Errorf("scan for needle: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("scan for needle: %w", err)
	}
	var keys []int64
	for rows.Next() {
		var key int64
		texts := make([]string, len(cols)-1)
		dest := []any{&key}
		for i := range texts {
			dest = append(dest, &texts[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("scan for needle: %w", err)
		}
		for _, t := range texts {
			if re.MatchString(t) {
				keys = append(keys, key)
				break
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("scan for needle: %w", err)
	}
	return keys, nil
}

// purge makes what a forget path deleted unrecoverable from the file.
// secure_delete zeroes deleted cells and freed pages, but a b-tree page
// rebuilt by rebalancing keeps old bytes in its unused middle, so a text
// that once moved between pages can outlive its deletion there (the
// recall index, whose segments are rewritten by every merge, showed it).
// VACUUM rewrites every page from the live rows alone; Scrub then empties
// the WAL that held the old images. It costs time in proportion to the
// file (BenchmarkRecallForget), which forgetting, a rare user request, can
// afford.
func (db *DB) purge(ctx context.Context) error {
	if db.writer == nil {
		return fmt.Errorf("purge: %w", ErrReadOnly)
	}
	if _, err := db.writer.ExecContext(ctx, "VACUUM"); err != nil {
		return fmt.Errorf("purge: %w", err)
	}
	return db.Scrub(ctx)
}

// Scrub checkpoints the WAL into the database and truncates it (PRAGMA
// wal_checkpoint(TRUNCATE)), so the pages secure_delete zeroed replace the
// old images and no deleted text survives in the -wal file. The forget
// paths of this package call it; callers may call it after their own
// deletions. A checkpoint that finds a reader on an old snapshot, or the
// background checkpointer mid-pass, is tried again for up to
// scrubPatience; still blocked after that, it is reported as an error.
func (db *DB) Scrub(ctx context.Context) error {
	if db.writer == nil {
		return fmt.Errorf("scrub: %w", ErrReadOnly)
	}
	deadline := time.Now().Add(scrubPatience)
	for {
		var busy, logFrames, done int
		if err := db.writer.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &done); err != nil {
			return fmt.Errorf("scrub: %w", err)
		}
		if busy == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("scrub: checkpoint blocked by a reader (%d of %d frames copied)", done, logFrames)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("scrub: %w", ctx.Err())
		case <-time.After(scrubRetry):
		}
	}
}

// scrubPatience and scrubRetry bound how long Scrub waits for readers and
// the background checkpointer (db.go, every second) to let a truncating
// checkpoint through. hearth's choice: a turn's reads take milliseconds,
// so a few seconds cover any real overlap; a forget is rare and may wait.
const (
	scrubPatience = 5 * time.Second
	scrubRetry    = 25 * time.Millisecond
)
