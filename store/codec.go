package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Times are stored as INTEGER unix nanoseconds, which is lossless for
// wall-clock times between 1678 and 2262; 0 stands for the zero time.
func toNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// toJSON encodes a list column. nil encodes as "null" and empty as "[]", so
// a read gives back exactly what was written.
func toJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode json: %w", err)
	}
	return string(b), nil
}

func fromJSON(s string, v any) error {
	if s == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("decode json: %w", err)
	}
	return nil
}

// rawOrNull stores opaque JSON as TEXT, nil as NULL.
func rawOrNull(r json.RawMessage) any {
	if r == nil {
		return nil
	}
	return string(r)
}

func rawFrom(s sql.NullString) json.RawMessage {
	if !s.Valid {
		return nil
	}
	return json.RawMessage(s.String)
}

// nullID stores an optional row reference: 0 becomes NULL.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// scanner is what *sql.Row and *sql.Rows share.
type scanner interface {
	Scan(dest ...any) error
}

// queryAll runs query and reads every row with scan. what names the rows
// in errors ("list episodes: ...").
func queryAll[T any](ctx context.Context, q querier, what string, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// checkOne turns "no row changed" into ErrNotFound.
func checkOne(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}

// limitArg maps "no limit" (<= 0) to SQLite's LIMIT -1.
func limitArg(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}
