package store

import (
	"context"
	"fmt"
	"time"
)

// AddSignals stores relationship signals (seed 003 §2) for the rolling
// windows of loneliness and dependency.
func (db *DB) AddSignals(ctx context.Context, s ...Signal) error {
	return db.write(ctx, "add signals", func(tx querier) error { return addSignals(ctx, tx, s) })
}

func addSignals(ctx context.Context, q querier, s []Signal) error {
	for _, x := range s {
		if _, err := q.ExecContext(ctx, `INSERT INTO signals (user_id, at, tag, points, weight, modality)
			VALUES (?, ?, ?, ?, ?, ?)`, x.UserID, toNano(x.At), x.Tag, x.Points, x.Weight, x.Modality); err != nil {
			return fmt.Errorf("insert signal: %w", err)
		}
	}
	return nil
}

// Signals lists a user's signals with At >= since, oldest first. userID ""
// lists every user's.
func (db *DB) Signals(ctx context.Context, userID string, since time.Time) ([]Signal, error) {
	return signals(ctx, db.reader, userID, since)
}

func signals(ctx context.Context, q querier, userID string, since time.Time) ([]Signal, error) {
	rows, err := q.QueryContext(ctx, `SELECT user_id, at, tag, points, weight, modality FROM signals
		WHERE (?1 = '' OR user_id = ?1) AND at >= ?2 ORDER BY at, id`, userID, toNano(since))
	if err != nil {
		return nil, fmt.Errorf("signals of %s: %w", userID, err)
	}
	defer rows.Close()
	var out []Signal
	for rows.Next() {
		var (
			s  Signal
			at int64
		)
		if err := rows.Scan(&s.UserID, &at, &s.Tag, &s.Points, &s.Weight, &s.Modality); err != nil {
			return nil, fmt.Errorf("signals of %s: %w", userID, err)
		}
		s.At = fromNano(at)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("signals of %s: %w", userID, err)
	}
	return out, nil
}

// AddUsage records the tokens of LLM calls for the daily budget (DESIGN §8).
func (db *DB) AddUsage(ctx context.Context, u ...Usage) error {
	return db.write(ctx, "add usage", func(tx querier) error { return addUsage(ctx, tx, u) })
}

func addUsage(ctx context.Context, q querier, u []Usage) error {
	for _, x := range u {
		if _, err := q.ExecContext(ctx, `INSERT INTO token_usage (at, kind, user_id, prompt, cached, completion, offline, units)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, toNano(x.At), x.Kind, x.UserID, x.Prompt, x.Cached, x.Completion, x.Offline, x.Units); err != nil {
			return fmt.Errorf("insert usage: %w", err)
		}
	}
	return nil
}

// TokensSince sums prompt and completion tokens of online calls with
// At >= since; userID "" sums all users. Offline-brain usage costs nothing
// and is not counted.
func (db *DB) TokensSince(ctx context.Context, since time.Time, userID string) (int, error) {
	t, err := db.TokenTotalsSince(ctx, since, userID)
	return t.Prompt + t.Completion, err
}

// TokenTotals are the token counts of online calls over a period.
type TokenTotals struct {
	Prompt     int // every prompt token, cached ones included
	Cached     int // prompt tokens the server read from its prefix cache
	Completion int
}

// TokenTotalsSince sums the online calls with At >= since; userID "" sums
// all users (what `hearth state` shows as today's tokens).
func (db *DB) TokenTotalsSince(ctx context.Context, since time.Time, userID string) (TokenTotals, error) {
	return tokenTotalsSince(ctx, db.reader, since, userID)
}

func tokenTotalsSince(ctx context.Context, q querier, since time.Time, userID string) (TokenTotals, error) {
	var t TokenTotals
	err := q.QueryRowContext(ctx, `SELECT coalesce(sum(prompt), 0), coalesce(sum(cached), 0), coalesce(sum(completion), 0)
		FROM token_usage WHERE offline = 0 AND at >= ?1 AND (?2 = '' OR user_id = ?2)`, toNano(since), userID).Scan(&t.Prompt, &t.Cached, &t.Completion)
	if err != nil {
		return TokenTotals{}, fmt.Errorf("token totals since %s: %w", since.UTC().Format(time.RFC3339), err)
	}
	return t, nil
}

// UnitsSince sums the units of media calls (seconds transcribed, characters
// spoken, images shown) with At >= since, by kind: what `hearth state`
// shows next to the tokens they are counted as.
func (db *DB) UnitsSince(ctx context.Context, since time.Time) (map[string]int, error) {
	return unitsSince(ctx, db.reader, since)
}

func unitsSince(ctx context.Context, q querier, since time.Time) (map[string]int, error) {
	rows, err := q.QueryContext(ctx, `SELECT kind, sum(units) FROM token_usage
		WHERE offline = 0 AND units > 0 AND at >= ? GROUP BY kind`, toNano(since))
	if err != nil {
		return nil, fmt.Errorf("units since %s: %w", since.UTC().Format(time.RFC3339), err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var kind string
		var n int
		if err := rows.Scan(&kind, &n); err != nil {
			return nil, fmt.Errorf("units since: %w", err)
		}
		out[kind] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("units since: %w", err)
	}
	return out, nil
}

// LogProactive records one life-loop decision and its reason, so /why and
// operators can see why the bot spoke or stayed silent.
func (db *DB) LogProactive(ctx context.Context, p Proactive) error {
	return db.write(ctx, "log proactive", func(tx querier) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO proactive_log (user_id, at, outcome, reason, text)
			VALUES (?, ?, ?, ?, ?)`, p.UserID, toNano(p.At), p.Outcome, p.Reason, p.Text)
		return err
	})
}

// ProactiveLog lists a user's life-loop decisions with At >= since, oldest
// first (the daily cap and "previous proactive answered" gates). userID ""
// lists every user's.
func (db *DB) ProactiveLog(ctx context.Context, userID string, since time.Time) ([]Proactive, error) {
	return proactiveLog(ctx, db.reader, userID, since)
}

func proactiveLog(ctx context.Context, q querier, userID string, since time.Time) ([]Proactive, error) {
	rows, err := q.QueryContext(ctx, `SELECT user_id, at, outcome, reason, text FROM proactive_log
		WHERE (?1 = '' OR user_id = ?1) AND at >= ?2 ORDER BY at, id`, userID, toNano(since))
	if err != nil {
		return nil, fmt.Errorf("proactive log of %s: %w", userID, err)
	}
	defer rows.Close()
	var out []Proactive
	for rows.Next() {
		var (
			p  Proactive
			at int64
		)
		if err := rows.Scan(&p.UserID, &at, &p.Outcome, &p.Reason, &p.Text); err != nil {
			return nil, fmt.Errorf("proactive log of %s: %w", userID, err)
		}
		p.At = fromNano(at)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("proactive log of %s: %w", userID, err)
	}
	return out, nil
}

// PutDailyPoint stores a user's mood and affinity for one day, replacing an
// earlier point of the same day (the /me chart, seed 003 §9).
func (db *DB) PutDailyPoint(ctx context.Context, p DailyPoint) error {
	return db.write(ctx, "put daily point", func(tx querier) error { return putDailyPoint(ctx, tx, p) })
}

func putDailyPoint(ctx context.Context, q querier, p DailyPoint) error {
	_, err := q.ExecContext(ctx, `INSERT INTO daily_points (user_id, day, mood, affinity) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, day) DO UPDATE SET mood = excluded.mood, affinity = excluded.affinity`,
		p.UserID, p.Day, p.Mood, p.Affinity)
	if err != nil {
		return fmt.Errorf("put daily point %s/%s: %w", p.UserID, p.Day, err)
	}
	return nil
}

// DailyPoints lists a user's points with Day >= sinceDay (YYYY-MM-DD),
// ordered by day.
func (db *DB) DailyPoints(ctx context.Context, userID, sinceDay string) ([]DailyPoint, error) {
	return dailyPoints(ctx, db.reader, userID, sinceDay)
}

func dailyPoints(ctx context.Context, q querier, userID, sinceDay string) ([]DailyPoint, error) {
	rows, err := q.QueryContext(ctx, `SELECT user_id, day, mood, affinity FROM daily_points
		WHERE user_id = ? AND day >= ? ORDER BY day`, userID, sinceDay)
	if err != nil {
		return nil, fmt.Errorf("daily points of %s: %w", userID, err)
	}
	defer rows.Close()
	var out []DailyPoint
	for rows.Next() {
		var p DailyPoint
		if err := rows.Scan(&p.UserID, &p.Day, &p.Mood, &p.Affinity); err != nil {
			return nil, fmt.Errorf("daily points of %s: %w", userID, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("daily points of %s: %w", userID, err)
	}
	return out, nil
}
