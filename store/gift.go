package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

const giftCols = `transaction_id, user_id, item, at, mood_before, mood_after, result`

func scanGift(s scanner) (Gift, error) {
	var (
		g      Gift
		at     int64
		result sql.NullString
	)
	if err := s.Scan(&g.TransactionID, &g.UserID, &g.Item, &at, &g.MoodBefore, &g.MoodAfter, &result); err != nil {
		return Gift{}, err
	}
	g.At, g.Result = fromNano(at), rawFrom(result)
	return g, nil
}

func getGift(ctx context.Context, q querier, txID string) (Gift, bool, error) {
	g, err := scanGift(q.QueryRowContext(ctx, "SELECT "+giftCols+" FROM gifts WHERE transaction_id = ?", txID))
	if errors.Is(err, sql.ErrNoRows) {
		return Gift{}, false, nil
	}
	if err != nil {
		return Gift{}, false, fmt.Errorf("load gift %s: %w", txID, err)
	}
	return g, true, nil
}

// Gift loads a verified gift by transaction id; ok is false when unknown.
func (db *DB) Gift(ctx context.Context, txID string) (Gift, bool, error) {
	return getGift(ctx, db.reader, txID)
}

// CommitGift applies a verified gift exactly once (DESIGN §9: idempotent on
// transaction_id). In one transaction: when g.TransactionID is already
// stored it returns that gift and inserted=false and changes nothing;
// otherwise it inserts g, writes u (UpdateUser; skipped when u.ID is "") and
// enqueues out (when non-nil) as pending. The check runs inside the write
// transaction, so concurrent repeats cannot both insert.
func (db *DB) CommitGift(ctx context.Context, g Gift, u User, out *Outbound) (stored Gift, inserted bool, err error) {
	var given Outbound
	if out != nil {
		given = *out
	}
	err = db.write(ctx, "commit gift "+g.TransactionID, func(tx querier) error {
		if out != nil {
			*out = given // a group that failed may have run this once already
		}
		prev, ok, err := getGift(ctx, tx, g.TransactionID)
		if err != nil {
			return err
		}
		if ok {
			stored, inserted = prev, false
			return nil
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO gifts ("+giftCols+") VALUES (?, ?, ?, ?, ?, ?, ?)",
			g.TransactionID, g.UserID, g.Item, toNano(g.At), g.MoodBefore, g.MoodAfter, rawOrNull(g.Result)); err != nil {
			return fmt.Errorf("insert gift: %w", err)
		}
		if u.ID != "" {
			if err := updateUser(ctx, tx, u); err != nil {
				return err
			}
		}
		if out != nil {
			o := *out
			o.Status = OutboundPending
			id, err := insertOutbound(ctx, tx, o)
			if err != nil {
				return err
			}
			out.ID, out.Status = id, OutboundPending // the caller delivers it
		}
		stored, inserted = g, true
		return nil
	})
	if err != nil {
		return Gift{}, false, err
	}
	if inserted {
		// Return what a read gives back (UTC times), like the repeat path.
		stored.At = fromNano(toNano(stored.At))
	}
	return stored, inserted, nil
}
