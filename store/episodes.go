package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

const episodeCols = `id, user_id, platform, chat_id, coalesce(inbound_id, 0), user_text, reply_text, at,
	has_values, label, intensity, salience, confidence, topic_tags, intent, sentiment, crisis, modality, chat_kind, disclosure`

func scanEpisode(s scanner) (Episode, error) {
	var (
		e    Episode
		at   int64
		tags string
	)
	err := s.Scan(&e.ID, &e.UserID, &e.Platform, &e.ChatID, &e.InboundID, &e.UserText, &e.ReplyText, &at,
		&e.HasValues, &e.Label, &e.Intensity, &e.Salience, &e.Confidence, &tags, &e.Intent, &e.Sentiment, &e.Crisis, &e.Modality, &e.ChatKind, &e.Disclosure)
	if err != nil {
		return Episode{}, err
	}
	e.At = fromNano(at)
	if err := fromJSON(tags, &e.TopicTags); err != nil {
		return Episode{}, fmt.Errorf("episode %d topic_tags: %w", e.ID, err)
	}
	return e, nil
}

func queryEpisodes(ctx context.Context, q querier, query string, args ...any) ([]Episode, error) {
	return queryAll(ctx, q, "list episodes", scanEpisode, query, args...)
}

// insertEpisode stores e and returns it with its id and chat kind as
// stored (an empty ChatKind is taken from the inbound message). The
// caller indexes it for recall (indexEpisode) in the same transaction.
// No RETURNING, here or in any write that may share a group commit with a
// turn: in a transaction that writes the recall index, a statement with
// RETURNING makes FTS5 flush its pending terms as a new segment, one per
// turn of a group instead of one per group.
func insertEpisode(ctx context.Context, q querier, e Episode) (Episode, error) {
	tags, err := toJSON(e.TopicTags)
	if err != nil {
		return e, fmt.Errorf("insert episode: %w", err)
	}
	if e.ChatKind == "" && e.InboundID != 0 {
		err := q.QueryRowContext(ctx, "SELECT chat_kind FROM inbound WHERE id = ?", e.InboundID).Scan(&e.ChatKind)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return e, fmt.Errorf("insert episode: %w", err)
		}
	}
	res, err := q.ExecContext(ctx, `INSERT INTO episodes
		(user_id, platform, chat_id, inbound_id, user_text, reply_text, at,
		 has_values, label, intensity, salience, confidence, topic_tags, intent, sentiment, crisis, modality, chat_kind, disclosure)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		e.UserID, e.Platform, e.ChatID, nullID(e.InboundID), e.UserText, e.ReplyText, toNano(e.At),
		e.HasValues, e.Label, e.Intensity, e.Salience, e.Confidence, tags, e.Intent, e.Sentiment, e.Crisis, e.Modality, e.ChatKind, e.Disclosure)
	if err != nil {
		return e, fmt.Errorf("insert episode: %w", err)
	}
	if e.ID, err = res.LastInsertId(); err != nil {
		return e, fmt.Errorf("insert episode: %w", err)
	}
	return e, nil
}

// ChatHistory returns the last limit episodes of one chat, oldest first,
// for the prompt's recent history (DESIGN §3 step 7). limit <= 0 means all.
func (db *DB) ChatHistory(ctx context.Context, platform, chatID string, limit int) ([]Episode, error) {
	eps, err := queryEpisodes(ctx, db.reader, "SELECT "+episodeCols+` FROM episodes
		WHERE platform = ? AND chat_id = ? ORDER BY id DESC LIMIT ?`, platform, chatID, limitArg(limit))
	if err != nil {
		return nil, fmt.Errorf("chat history %s/%s: %w", platform, chatID, err)
	}
	slices.Reverse(eps)
	return eps, nil
}

// UserEpisodes returns the newest limit episodes of one user with
// At >= since, oldest first: the input of lingering emotion (seed 002) and
// of reflection (seed 004). limit <= 0 means all.
func (db *DB) UserEpisodes(ctx context.Context, userID string, since time.Time, limit int) ([]Episode, error) {
	eps, err := queryEpisodes(ctx, db.reader, "SELECT "+episodeCols+` FROM episodes
		WHERE user_id = ? AND at >= ? ORDER BY at DESC, id DESC LIMIT ?`, userID, toNano(since), limitArg(limit))
	if err != nil {
		return nil, fmt.Errorf("episodes of %s: %w", userID, err)
	}
	slices.Reverse(eps)
	return eps, nil
}

// UpdateEpisodeValues fills the reflection values of an episode later (a
// reply without a valid trailer, seed 002), found by e.ID.
func (db *DB) UpdateEpisodeValues(ctx context.Context, e Episode) error {
	tags, err := toJSON(e.TopicTags)
	if err != nil {
		return fmt.Errorf("update episode %d: %w", e.ID, err)
	}
	return db.write(ctx, "update episode values", func(tx querier) error {
		res, err := tx.ExecContext(ctx, `UPDATE episodes SET has_values = ?, label = ?, intensity = ?, salience = ?,
			confidence = ?, topic_tags = ?, intent = ?, sentiment = ? WHERE id = ?`,
			e.HasValues, e.Label, e.Intensity, e.Salience, e.Confidence, tags, e.Intent, e.Sentiment, e.ID)
		if err != nil {
			return fmt.Errorf("episode %d: %w", e.ID, err)
		}
		return checkOne(res, fmt.Sprintf("episode %d", e.ID))
	})
}

// CommitTurn writes everything one turn decided in ONE transaction (DESIGN
// §3 step 9): the user's state, the episode (when it has any text), the
// inbound status (answered), the reply and Extra in the outbound ledger as
// pending, memory upserts, signals, usage and the daily point. Any error
// rolls all of it back, so a crash or a bad value never half-applies a turn.
// Defaults filled here: an episode's UserID/Platform/ChatID from the reply
// or user, its InboundID from t.InboundID, the reply's InboundID from
// t.InboundID and an outbound's CreatedAt from the episode time. It returns
// the ledger ids of t.Reply (when set) and then of t.Extra, in that order,
// so the caller delivers exactly what it committed.
func (db *DB) CommitTurn(ctx context.Context, t Turn) (ids []int64, err error) {
	err = db.write(ctx, "commit turn", func(tx querier) error {
		var err error
		ids, err = commitTurn(ctx, tx, t)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

func commitTurn(ctx context.Context, tx querier, t Turn) (ids []int64, err error) {
	if t.User.ID != "" {
		write := updateUser
		if t.NewUser {
			write = insertUser
		}
		if err := write(ctx, tx, t.User); err != nil {
			return nil, err
		}
	}
	episode, err := insertTurnEpisode(ctx, tx, t) // as stored, indexed for recall below
	if err != nil {
		return nil, err
	}
	if t.InboundID != 0 {
		if err := setInboundStatus(ctx, tx, t.InboundID, StatusAnswered); err != nil {
			return nil, err
		}
	}
	if ids, err = queueTurnOutbound(ctx, tx, t); err != nil {
		return nil, err
	}
	for _, m := range t.Memories {
		if err := putMemory(ctx, tx, m); err != nil {
			return nil, err
		}
	}
	if episode.ID != 0 {
		if err := setRecalled(ctx, tx, episode.ID, t.Recalled); err != nil {
			return nil, err
		}
	}
	if err := addTurnFollowUps(ctx, tx, t, episode.ID); err != nil {
		return nil, err
	}
	for _, id := range t.AskedFollowUps {
		if _, err := tx.ExecContext(ctx, markFollowUpAsked, toNano(t.Episode.At), id); err != nil {
			return nil, fmt.Errorf("follow-up %d asked: %w", id, err)
		}
	}
	// The episode is indexed last: the memory upserts use a statement
	// journal, which would flush the index's pending terms as a segment of
	// their own.
	if episode.ID != 0 {
		if err := indexEpisode(ctx, tx, episode, t.NewUser); err != nil {
			return nil, err
		}
	}
	if err := addSignals(ctx, tx, t.Signals); err != nil {
		return nil, err
	}
	if t.Like != nil {
		if err := insertLike(ctx, tx, *t.Like); err != nil {
			return nil, err
		}
	}
	if err := addUsage(ctx, tx, t.Usage); err != nil {
		return nil, err
	}
	if t.Daily != nil {
		if err := putDailyPoint(ctx, tx, *t.Daily); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// insertTurnEpisode stores the turn's episode when it has any text, its
// user, chat and inbound message taken from the turn where it names none.
// It returns the episode as stored; a zero Episode when there was none.
func insertTurnEpisode(ctx context.Context, tx querier, t Turn) (Episode, error) {
	e := t.Episode
	if e.UserText == "" && e.ReplyText == "" {
		return Episode{}, nil
	}
	if e.UserID == "" {
		e.UserID = t.User.ID
	}
	if t.Reply != nil {
		e.Platform = cmpOr(e.Platform, t.Reply.Platform)
		e.ChatID = cmpOr(e.ChatID, t.Reply.ChatID)
		e.ChatKind = cmpOr(e.ChatKind, t.Reply.ChatKind)
	}
	if e.InboundID == 0 {
		e.InboundID = t.InboundID
	}
	return insertEpisode(ctx, tx, e)
}

// queueTurnOutbound puts the turn's reply and extra messages in the
// outbound ledger as pending, created at the episode's time unless they
// say otherwise, and returns their ids in that order.
func queueTurnOutbound(ctx context.Context, tx querier, t Turn) ([]int64, error) {
	pending := func(o Outbound) Outbound {
		o.Status = OutboundPending
		if o.CreatedAt.IsZero() {
			o.CreatedAt = t.Episode.At
		}
		return o
	}
	var ids []int64
	if t.Reply != nil {
		o := pending(*t.Reply)
		if o.InboundID == 0 {
			o.InboundID = t.InboundID
		}
		id, err := insertOutbound(ctx, tx, o)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	for _, o := range t.Extra {
		id, err := insertOutbound(ctx, tx, pending(o))
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// addTurnFollowUps stores the turn's follow-ups, for the turn's user where
// they name none, from episodeID (0: none).
func addTurnFollowUps(ctx context.Context, tx querier, t Turn, episodeID int64) error {
	if len(t.FollowUps) == 0 {
		return nil
	}
	fs := make([]FollowUp, len(t.FollowUps))
	for i, f := range t.FollowUps {
		fs[i] = f
		if fs[i].UserID == "" {
			fs[i].UserID = t.User.ID
		}
	}
	return addFollowUps(ctx, tx, fs, episodeID, t.Episode.At)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// UserEpisodeValues is UserEpisodes reading only time, reflection values
// and intent (no text): what the lingering emotion and the day's allowance
// and break checks are rebuilt from. Returned oldest first.
func (db *DB) UserEpisodeValues(ctx context.Context, userID string, since time.Time, limit int) ([]Episode, error) {
	return userEpisodeValues(ctx, db.reader, userID, since, limit)
}

func userEpisodeValues(ctx context.Context, q querier, userID string, since time.Time, limit int) ([]Episode, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, at, has_values, label, intensity, salience, confidence, intent FROM episodes
		WHERE user_id = ? AND at >= ? ORDER BY at DESC, id DESC LIMIT ?`, userID, toNano(since), limitArg(limit))
	if err != nil {
		return nil, fmt.Errorf("episode values of %s: %w", userID, err)
	}
	defer rows.Close()
	var out []Episode
	for rows.Next() {
		e := Episode{UserID: userID}
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.HasValues, &e.Label, &e.Intensity, &e.Salience, &e.Confidence, &e.Intent); err != nil {
			return nil, fmt.Errorf("episode values of %s: %w", userID, err)
		}
		e.At = fromNano(at)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("episode values of %s: %w", userID, err)
	}
	slices.Reverse(out)
	return out, nil
}
