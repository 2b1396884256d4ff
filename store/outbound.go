package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

const outboundCols = `id, platform, chat_id, chat_kind, user_id, kind, coalesce(inbound_id, 0), text, attachment,
	status, platform_ids, created_at, sent_at, voice`

func scanOutbound(s scanner) (Outbound, error) {
	var (
		o             Outbound
		ids           string
		created, sent int64
	)
	err := s.Scan(&o.ID, &o.Platform, &o.ChatID, &o.ChatKind, &o.UserID, &o.Kind, &o.InboundID, &o.Text,
		&o.Attachment, &o.Status, &ids, &created, &sent, &o.Voice)
	if err != nil {
		return Outbound{}, err
	}
	o.CreatedAt, o.SentAt = fromNano(created), fromNano(sent)
	if err := fromJSON(ids, &o.PlatformIDs); err != nil {
		return Outbound{}, fmt.Errorf("outbound %d platform_ids: %w", o.ID, err)
	}
	return o, nil
}

func queryOutbound(ctx context.Context, q querier, where string, args ...any) ([]Outbound, error) {
	return queryAll(ctx, q, "list outbound", scanOutbound, "SELECT "+outboundCols+" FROM outbound "+where+" ORDER BY id", args...)
}

func insertOutbound(ctx context.Context, q querier, o Outbound) (int64, error) {
	if o.Status == "" {
		o.Status = OutboundPending
	}
	ids, err := toJSON(o.PlatformIDs)
	if err != nil {
		return 0, fmt.Errorf("insert outbound: %w", err)
	}
	var att any
	if o.Attachment != nil {
		att = o.Attachment
	}
	var voice any
	if o.Voice != nil {
		voice = o.Voice
	}
	// No RETURNING: see insertEpisode.
	res, err := q.ExecContext(ctx, `INSERT INTO outbound
		(platform, chat_id, chat_kind, user_id, kind, inbound_id, text, attachment, status, platform_ids, created_at, sent_at, voice)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		o.Platform, o.ChatID, o.ChatKind, o.UserID, o.Kind, nullID(o.InboundID), o.Text, att, o.Status, ids,
		toNano(o.CreatedAt), toNano(o.SentAt), voice)
	if err != nil {
		return 0, fmt.Errorf("insert outbound: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("insert outbound: %w", err)
	}
	if err := indexPlatformIDs(ctx, q, id, o.Platform, o.ChatID, o.PlatformIDs); err != nil {
		return 0, err
	}
	return id, nil
}

// indexPlatformIDs lets reactions find ledger entry id, sent to chatID on
// platform, by the platform's message ids. Plain single-row statements on
// purpose: an upsert or INSERT ... SELECT here would make FTS5 flush the
// pending terms of the turns sharing the group (see shelf), one segment per
// delivery mark. An id already indexed (a resend) moves to this entry.
func indexPlatformIDs(ctx context.Context, q querier, id int64, platform, chatID string, ids []string) error {
	for _, pid := range ids {
		res, err := q.ExecContext(ctx, `INSERT OR IGNORE INTO outbound_msgs (platform, chat_id, platform_msg_id, outbound_id)
			VALUES (?, ?, ?, ?)`, platform, chatID, pid, id)
		if err == nil {
			var n int64
			if n, err = res.RowsAffected(); err == nil && n == 0 {
				_, err = q.ExecContext(ctx, `UPDATE outbound_msgs SET outbound_id = ?
					WHERE platform = ? AND chat_id = ? AND platform_msg_id = ?`, id, platform, chatID, pid)
			}
		}
		if err != nil {
			return fmt.Errorf("index outbound %d: %w", id, err)
		}
	}
	return nil
}

// EnqueueOutbound writes one message to the ledger (status pending unless
// o.Status says otherwise) for the sender to deliver.
func (db *DB) EnqueueOutbound(ctx context.Context, o Outbound) (int64, error) {
	var id int64
	err := db.write(ctx, "enqueue outbound", func(tx querier) error {
		var err error
		id, err = insertOutbound(ctx, tx, o)
		return err
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// PendingOutbound lists undelivered messages, oldest first: on restart these
// are sent exactly once more (DESIGN §10 faults).
func (db *DB) PendingOutbound(ctx context.Context) ([]Outbound, error) {
	return queryOutbound(ctx, db.reader, "WHERE status = ?", OutboundPending)
}

// MarkOutbound records the delivery outcome: status, the platform's message
// ids (so reactions find the message) and when. A spoken reply's audio is
// dropped once the entry is no longer pending: it was only kept to be sent.
// Unknown ids are ErrNotFound.
func (db *DB) MarkOutbound(ctx context.Context, id int64, status string, platformIDs []string, at time.Time) error {
	fn, err := markOutbound(ctx, Outbound{ID: id}, status, platformIDs, at)
	if err != nil {
		return err
	}
	return db.write(ctx, "mark outbound", fn)
}

// MarkOutboundAsync is MarkOutbound for the deliverer of entry o (its ID,
// and the Platform and ChatID it was sent to), who need not wait for the
// commit: the mark joins the queue and this returns at once (writeAsync);
// then is called with the result once it is final, on the committing
// goroutine (keep it quick).
func (db *DB) MarkOutboundAsync(ctx context.Context, o Outbound, status string, platformIDs []string, at time.Time, then func(error)) {
	fn, err := markOutbound(ctx, o, status, platformIDs, at)
	if err != nil {
		then(err)
		return
	}
	db.writeAsync(ctx, "mark outbound", fn, then)
}

// markOutbound is the write of a mark of entry o.ID; the platform ids are
// indexed under o's Platform and ChatID, read from the entry when o does
// not name them.
func markOutbound(ctx context.Context, o Outbound, status string, platformIDs []string, at time.Time) (func(tx querier) error, error) {
	id := o.ID
	ids, err := toJSON(platformIDs)
	if err != nil {
		return nil, fmt.Errorf("mark outbound %d: %w", id, err)
	}
	return func(tx querier) error {
		// No RETURNING: marks share a group with turns (see insertEpisode).
		res, err := tx.ExecContext(ctx, `UPDATE outbound SET status = ?1, platform_ids = ?2, sent_at = ?3,
			voice = CASE WHEN ?1 = 'pending' THEN voice END WHERE id = ?4`, status, ids, toNano(at), id)
		if err != nil {
			return fmt.Errorf("outbound %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("outbound %d: %w", id, err)
		} else if n == 0 {
			return fmt.Errorf("outbound %d: %w", id, ErrNotFound)
		}
		if len(platformIDs) == 0 {
			return nil
		}
		platform, chatID := o.Platform, o.ChatID
		if platform == "" || chatID == "" {
			if err := tx.QueryRowContext(ctx, "SELECT platform, chat_id FROM outbound WHERE id = ?", id).Scan(&platform, &chatID); err != nil {
				return fmt.Errorf("outbound %d: %w", id, err)
			}
		}
		return indexPlatformIDs(ctx, tx, id, platform, chatID, platformIDs)
	}, nil
}

// OutboundByPlatformID finds the ledger entry of a message the platform
// knows by platformMsgID: a reaction on a bot message (DESIGN §8) is the
// seed 003 "like" signal of that message's user.
func (db *DB) OutboundByPlatformID(ctx context.Context, platform, chatID, platformMsgID string) (Outbound, bool, error) {
	o, err := scanOutbound(db.reader.QueryRowContext(ctx, "SELECT "+outboundCols+` FROM outbound WHERE id =
		(SELECT outbound_id FROM outbound_msgs WHERE platform = ? AND chat_id = ? AND platform_msg_id = ?)`,
		platform, chatID, platformMsgID))
	if errors.Is(err, sql.ErrNoRows) {
		return Outbound{}, false, nil
	}
	if err != nil {
		return Outbound{}, false, fmt.Errorf("outbound by platform id %s/%s/%s: %w", platform, chatID, platformMsgID, err)
	}
	return o, true, nil
}

// OutboundStatus is the current status of ledger entry id (a deliverer
// re-checks it after claiming an entry from an older list). A read
// transaction sees every commit made before it starts, so the read pool
// serves it without waiting behind the writer.
func (db *DB) OutboundStatus(ctx context.Context, id int64) (string, error) {
	var status string
	err := db.reader.QueryRowContext(ctx, "SELECT status FROM outbound WHERE id = ?", id).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("outbound status %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("outbound status %d: %w", id, err)
	}
	return status, nil
}
