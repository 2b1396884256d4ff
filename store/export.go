package store

import (
	"context"
	"time"
)

// UserExport is every row about one user (/export, hearth export): what a
// user may ask to see under any data-protection law. Slices are never nil,
// so the JSON has [] rather than null.
type UserExport struct {
	User      User         `json:"user"`
	Inbound   []Inbound    `json:"inbound"`
	Outbound  []Outbound   `json:"outbound"`
	Episodes  []Episode    `json:"episodes"`
	Memories  []Memory     `json:"memories"`
	Signals   []Signal     `json:"signals"`
	Proactive []Proactive  `json:"proactive"`
	Daily     []DailyPoint `json:"daily"`
	Gifts     []Gift       `json:"gifts"`
	Likes     []Like       `json:"likes"`
	FollowUps []FollowUp   `json:"follow_ups"`
}

// Export gathers every row about userID from one read snapshot. An unknown
// user is ErrNotFound.
func (db *DB) Export(ctx context.Context, userID string) (UserExport, error) {
	var x UserExport
	err := db.read(ctx, "export "+userID, func(tx querier) error {
		u, ok, err := getUser(ctx, tx, userID)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		x.User = u
		if x.Inbound, err = queryInbound(ctx, tx, "WHERE user_id = ?", userID); err != nil {
			return err
		}
		if x.Outbound, err = queryOutbound(ctx, tx, "WHERE user_id = ?", userID); err != nil {
			return err
		}
		if x.Episodes, err = queryEpisodes(ctx, tx, "SELECT "+episodeCols+" FROM episodes WHERE user_id = ? ORDER BY id", userID); err != nil {
			return err
		}
		if x.Memories, err = memories(ctx, tx, userID); err != nil {
			return err
		}
		if x.Signals, err = signals(ctx, tx, userID, time.Time{}); err != nil {
			return err
		}
		if x.Proactive, err = proactiveLog(ctx, tx, userID, time.Time{}); err != nil {
			return err
		}
		if x.Daily, err = dailyPoints(ctx, tx, userID, ""); err != nil {
			return err
		}
		if x.Gifts, err = gifts(ctx, tx, userID); err != nil {
			return err
		}
		if x.Likes, err = likes(ctx, tx, userID); err != nil {
			return err
		}
		x.FollowUps, err = followUps(ctx, tx, userID)
		return err
	})
	if err != nil {
		return UserExport{}, err
	}
	x.Inbound = nonNil(x.Inbound)
	x.Outbound = nonNil(x.Outbound)
	x.Episodes = nonNil(x.Episodes)
	x.Memories = nonNil(x.Memories)
	x.Signals = nonNil(x.Signals)
	x.Proactive = nonNil(x.Proactive)
	x.Daily = nonNil(x.Daily)
	x.Gifts = nonNil(x.Gifts)
	x.Likes = nonNil(x.Likes)
	x.FollowUps = nonNil(x.FollowUps)
	return x, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func gifts(ctx context.Context, q querier, userID string) ([]Gift, error) {
	return queryAll(ctx, q, "gifts of "+userID, scanGift,
		"SELECT "+giftCols+" FROM gifts WHERE user_id = ? ORDER BY at, transaction_id", userID)
}
