package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// The recall index keeps recall_shelves, recall_docs and recall_fts (the
// recall migration) in step with episodes and memories. Go adds documents
// in the transaction that writes the row (insertEpisode, putMemory); the
// migration's triggers remove them whenever a row is deleted or its text or
// owner edited, so a forgotten text is never searchable, whoever deleted it.

// Shelf and document ids: a document's id is its shelf's id shifted left
// by shelfShift plus its number on the shelf; its rows in recall_fts are
// id<<1 (the user's words, or a memory) and id<<1|1 (the bot's words).
// hearth's choice of 32 bits: 4 billion documents a shelf, and 2^30
// shelves before a recall_fts rowid leaves int64.
const (
	shelfShift = 32
	sideSaid   = 0
	sideReply  = 1
)

// shelfRange is the range of recall_docs ids on a shelf.
func shelfRange(shelf int64) (lo, hi int64) {
	return shelf << shelfShift, (shelf+1)<<shelfShift - 1
}

// groupShelfChat names a group chat's shelf: "platform:chat_id".
func groupShelfChat(platform, chatID string) string { return platform + ":" + chatID }

// shelf returns the id of the shelf (userID, chat), creating it. fresh
// says the shelf is most likely new (its user's first turn): then the
// insert is tried first, and the read only when it was there after all.
//
// The index's statements here are single-row reads and plain inserts on
// purpose: in a transaction that writes recall_fts, a statement with
// RETURNING or INSERT ... SELECT makes FTS5 flush its pending terms to
// disk as a new segment, which in a bulk transaction (the migration) means
// one segment per row.
func shelf(ctx context.Context, q querier, userID, chat string, fresh bool) (int64, error) {
	if fresh {
		res, err := q.ExecContext(ctx, "INSERT OR IGNORE INTO recall_shelves (user_id, chat) VALUES (?, ?)", userID, chat)
		if err != nil {
			return 0, fmt.Errorf("recall shelf of %s: %w", userID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, fmt.Errorf("recall shelf of %s: %w", userID, err)
		} else if n == 1 {
			return res.LastInsertId()
		}
	}
	var id int64
	err := q.QueryRowContext(ctx, "SELECT id FROM recall_shelves WHERE user_id = ? AND chat = ?", userID, chat).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		var res sql.Result
		if res, err = q.ExecContext(ctx, "INSERT INTO recall_shelves (user_id, chat) VALUES (?, ?)", userID, chat); err == nil {
			id, err = res.LastInsertId()
		}
	}
	if err != nil {
		return 0, fmt.Errorf("recall shelf of %s: %w", userID, err)
	}
	return id, nil
}

// addDoc puts one document on a shelf: a recall_docs row, numbered after
// the shelf's last one in the same statement, and its text rows, said and
// (when not empty) reply. It returns the document's id.
func addDoc(ctx context.Context, q querier, shelfID int64, userID string, episodeID any, slot any, said, reply string) (int64, error) {
	lo, hi := shelfRange(shelfID)
	res, err := q.ExecContext(ctx, `INSERT INTO recall_docs (id, user_id, episode_id, slot) VALUES
		((SELECT coalesce(max(id), ?1) + 1 FROM recall_docs WHERE id BETWEEN ?1 AND ?2), ?3, ?4, ?5)`,
		lo, hi, userID, episodeID, slot)
	if err != nil {
		return 0, fmt.Errorf("add recall document: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("add recall document: %w", err)
	}
	if id > hi { // the caller's transaction fails, taking the row with it
		return 0, fmt.Errorf("add recall document: shelf %d is full", shelfID)
	}
	for _, side := range []struct {
		n    int64
		text string
	}{{sideSaid, said}, {sideReply, reply}} {
		if side.text == "" {
			continue
		}
		if _, err := q.ExecContext(ctx, "INSERT INTO recall_fts (rowid, text) VALUES (?, ?)", id<<1|side.n, indexText(side.text)); err != nil {
			return 0, fmt.Errorf("add recall document: %w", err)
		}
	}
	return id, nil
}

// indexEpisode adds episode e (already inserted: e.ID and e.ChatKind as
// stored) to the user's shelf and, when said in a group, the user's words
// to that group's shelf. An episode without text has nothing to find.
// newUser (the episode's user was created in this transaction) means their
// shelves most likely do not exist yet.
func indexEpisode(ctx context.Context, q querier, e Episode, newUser bool) error {
	if e.UserText == "" && e.ReplyText == "" {
		return nil
	}
	s, err := shelf(ctx, q, e.UserID, "", newUser)
	if err != nil {
		return err
	}
	doc, err := addDoc(ctx, q, s, e.UserID, e.ID, nil, e.UserText, e.ReplyText)
	if err != nil {
		return fmt.Errorf("index episode %d: %w", e.ID, err)
	}
	if e.UserText == "" {
		return nil // only the user's words are embedded (queueVectors)
	}
	docs := []int64{doc}
	if e.ChatKind == chatKindGroup {
		if s, err = shelf(ctx, q, e.UserID, groupShelfChat(e.Platform, e.ChatID), newUser); err != nil {
			return err
		}
		if doc, err = addDoc(ctx, q, s, e.UserID, e.ID, nil, e.UserText, ""); err != nil {
			return fmt.Errorf("index episode %d: %w", e.ID, err)
		}
		docs = append(docs, doc)
	}
	return queueVectors(ctx, q, docs...)
}

// chatKindGroup is bot.ChatGroup as stored: only episodes known to come
// from a group go on a group shelf.
const chatKindGroup = "group"

// indexMemory (re)indexes one memory slot with m's content on the user's
// shelf, replacing what the slot's document held. Memories never go on a
// group shelf.
func indexMemory(ctx context.Context, q querier, m Memory) error {
	if _, err := q.ExecContext(ctx, "DELETE FROM recall_docs WHERE user_id = ? AND slot = ?", m.UserID, m.Slot); err != nil {
		return fmt.Errorf("index memory %s/%d: %w", m.UserID, m.Slot, err)
	}
	if m.Content == "" {
		return nil
	}
	s, err := shelf(ctx, q, m.UserID, "", false)
	if err != nil {
		return err
	}
	doc, err := addDoc(ctx, q, s, m.UserID, nil, m.Slot, m.Content, "")
	if err != nil {
		return fmt.Errorf("index memory %s/%d: %w", m.UserID, m.Slot, err)
	}
	return queueVectors(ctx, q, doc)
}

// unindexUser removes every recall document of a user, on all their
// shelves (/forget all): their episodes stay for history and lingering
// emotion, but nothing said before is recalled again. Only episodes written
// later are indexed.
func unindexUser(ctx context.Context, q querier, userID string) error {
	_, err := q.ExecContext(ctx, `DELETE FROM recall_docs WHERE id IN (SELECT d.id FROM recall_shelves s
		JOIN recall_docs d ON d.id BETWEEN s.id << ?2 AND ((s.id + 1) << ?2) - 1 WHERE s.user_id = ?1)`, userID, shelfShift)
	if err != nil {
		return fmt.Errorf("unindex %s: %w", userID, err)
	}
	return nil
}

// rebuildRecall rebuilds the full-text index from its stored text. A
// delete leaves a deleted row's tokens in the index's segments as delete
// markers and page-boundary term prefixes until a merge rewrites them, and
// not even 'optimize' drops every marker (a run of deleted terms survives
// it when most rows are deleted); 'rebuild' discards every segment, and
// secure_delete zeroes the freed pages. FTS5's own 'secure-delete' option
// would be cheaper, but it changes the table's format so that a sqlite3
// older than 3.42 (Debian 12, Ubuntu 22.04) can no longer write the file.
// Forget paths run this before purge; it costs time in proportion to the
// whole index (BenchmarkRecallForget), which forgetting, a rare user
// request, can afford.
func rebuildRecall(ctx context.Context, q querier) error {
	if _, err := q.ExecContext(ctx, "INSERT INTO recall_fts (recall_fts) VALUES ('rebuild')"); err != nil {
		return fmt.Errorf("rebuild recall index: %w", err)
	}
	return nil
}

// backfillBatch is how many episodes the migration indexes per read.
// hearth's choice: large enough that reads cost little next to the FTS
// inserts, small enough to bound memory.
const backfillBatch = 1000

// backfillProgressEvery is how often the migration logs its progress
// (hearth's choice: often enough to show a long migration is alive, rarely
// enough not to flood the log).
const backfillProgressEvery = 5 * time.Second

// backfillRecall is the recall migration's Go step: it indexes every
// existing episode with text and every memory, inside the migration's
// transaction, logging progress for large files. It goes user by user,
// episodes in order, so document ids only grow (FTS5 writes ascending
// rowids fastest): first every user's shelf, then the group shelves.
func backfillRecall(ctx context.Context, tx querier, log *slog.Logger) error {
	var total int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM episodes WHERE user_text != '' OR reply_text != ''").Scan(&total); err != nil {
		return fmt.Errorf("count episodes: %w", err)
	}
	if total == 0 {
		log = slog.New(slog.DiscardHandler) // a new or empty file: nothing worth saying
	}
	start := time.Now()
	log.Info("recall index: building", "episodes", total)
	users, err := queryStrings(ctx, tx, "SELECT user_id FROM episodes UNION SELECT user_id FROM memories ORDER BY 1")
	if err != nil {
		return fmt.Errorf("list users: %w", err)
	}
	p := backfill{tx: tx, log: log, total: total, lastLog: start}
	for _, u := range users {
		if err := p.userShelf(ctx, u); err != nil {
			return err
		}
	}
	if err := p.groupShelves(ctx); err != nil {
		return err
	}
	log.Info("recall index: built", "episodes", total, "memories", p.memories, "documents", p.done+p.memories,
		"took", time.Since(start).Round(time.Millisecond))
	return nil
}

// backfill is the progress of backfillRecall.
type backfill struct {
	tx             querier
	log            *slog.Logger
	total          int
	done, memories int
	lastLog        time.Time
}

// userShelf indexes one user's episodes and memories on their own shelf.
func (p *backfill) userShelf(ctx context.Context, u string) error {
	s, err := shelf(ctx, p.tx, u, "", false)
	if err != nil {
		return err
	}
	err = p.episodes(ctx, "user_id = ?", []any{u}, func(e Episode) error {
		_, err := addDoc(ctx, p.tx, s, u, e.ID, nil, e.UserText, e.ReplyText)
		return err
	})
	if err != nil {
		return err
	}
	mems, err := memories(ctx, p.tx, u)
	if err != nil {
		return err
	}
	for _, m := range mems {
		// Not indexMemory: no vector table exists yet at this
		// migration, and the first embedding model queues everything.
		if m.Content == "" {
			continue
		}
		if _, err := addDoc(ctx, p.tx, s, u, nil, m.Slot, m.Content, ""); err != nil {
			return fmt.Errorf("index memory %s/%d: %w", u, m.Slot, err)
		}
	}
	p.memories += len(mems)
	return nil
}

// groupShelves indexes what each user said in each group on the shelf of
// that user in that group.
func (p *backfill) groupShelves(ctx context.Context) error {
	groups, err := p.tx.QueryContext(ctx, `SELECT DISTINCT user_id, platform, chat_id FROM episodes
		WHERE chat_kind = 'group' AND user_text != '' ORDER BY 1, 2, 3`)
	if err != nil {
		return fmt.Errorf("list group shelves: %w", err)
	}
	type group struct{ user, platform, chat string }
	var gs []group
	for groups.Next() {
		var g group
		if err := groups.Scan(&g.user, &g.platform, &g.chat); err != nil {
			groups.Close()
			return fmt.Errorf("list group shelves: %w", err)
		}
		gs = append(gs, g)
	}
	groups.Close()
	if err := groups.Err(); err != nil {
		return fmt.Errorf("list group shelves: %w", err)
	}
	for _, g := range gs {
		s, err := shelf(ctx, p.tx, g.user, groupShelfChat(g.platform, g.chat), false)
		if err != nil {
			return err
		}
		err = p.episodes(ctx, "user_id = ? AND platform = ? AND chat_id = ? AND chat_kind = 'group' AND user_text != ''",
			[]any{g.user, g.platform, g.chat}, func(e Episode) error {
				_, err := addDoc(ctx, p.tx, s, g.user, e.ID, nil, e.UserText, "")
				return err
			})
		if err != nil {
			return err
		}
	}
	return nil
}

// episodes calls add for every episode with text matching where, in id
// order, reading backfillBatch at a time, and logs progress.
func (p *backfill) episodes(ctx context.Context, where string, args []any, add func(Episode) error) error {
	after := int64(0)
	for {
		eps, err := queryEpisodes(ctx, p.tx, "SELECT "+episodeCols+" FROM episodes WHERE id > ? AND (user_text != '' OR reply_text != '') AND "+
			where+" ORDER BY id LIMIT ?", append(append([]any{after}, args...), backfillBatch)...)
		if err != nil {
			return err
		}
		if len(eps) == 0 {
			return nil
		}
		for _, e := range eps {
			if err := add(e); err != nil {
				return fmt.Errorf("index episode %d: %w", e.ID, err)
			}
		}
		p.done += len(eps)
		after = eps[len(eps)-1].ID
		if time.Since(p.lastLog) >= backfillProgressEvery {
			p.lastLog = time.Now()
			p.log.Info("recall index: progress", "documents", p.done, "episodes", p.total)
		}
	}
}

// queryStrings reads one text column.
func queryStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
