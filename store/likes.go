package store

import (
	"context"
	"errors"
	"fmt"
)

// ErrAlreadyLiked is CommitTurn's answer to a Turn whose Like is already
// stored: the user liked that message before, so nothing of the turn is
// written.
var ErrAlreadyLiked = errors.New("message already liked by this user")

func insertLike(ctx context.Context, tx querier, l Like) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO likes (user_id, outbound_id, at, emoji) VALUES (?,?,?,?)
		ON CONFLICT (user_id, outbound_id) DO NOTHING`, l.UserID, l.OutboundID, toNano(l.At), l.Emoji)
	if err != nil {
		return fmt.Errorf("insert like: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("insert like: %w", err)
	} else if n == 0 {
		return ErrAlreadyLiked
	}
	return nil
}

func likes(ctx context.Context, q querier, userID string) ([]Like, error) {
	rows, err := q.QueryContext(ctx, `SELECT user_id, outbound_id, at, emoji FROM likes WHERE user_id = ? ORDER BY at, outbound_id`, userID)
	if err != nil {
		return nil, fmt.Errorf("likes of %s: %w", userID, err)
	}
	defer rows.Close()
	var out []Like
	for rows.Next() {
		var l Like
		var at int64
		if err := rows.Scan(&l.UserID, &l.OutboundID, &at, &l.Emoji); err != nil {
			return nil, fmt.Errorf("likes of %s: %w", userID, err)
		}
		l.At = fromNano(at)
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("likes of %s: %w", userID, err)
	}
	return out, nil
}
