package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// personaKey is the config row holding the persona source bytes.
const personaKey = "persona"

// Persona returns the stored persona bytes, or nil, nil when none is stored
// (a new instance needs --persona, DESIGN §9).
func (db *DB) Persona(ctx context.Context) ([]byte, error) {
	var raw []byte
	err := db.reader.QueryRowContext(ctx, "SELECT value FROM config WHERE key = ?", personaKey).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load persona: %w", err)
	}
	return raw, nil
}

// SetPersona stores (or replaces) the persona bytes.
func (db *DB) SetPersona(ctx context.Context, raw []byte, now time.Time) error {
	if raw == nil {
		raw = []byte{}
	}
	return db.write(ctx, "store persona", func(tx querier) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO config (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			personaKey, raw, toNano(now))
		return err
	})
}

const inboundCols = `id, platform, chat_id, chat_kind, coalesce(message_id, ''), user_id, user_name, text, modality, addressed, at, status, media`

func scanInbound(s scanner) (Inbound, error) {
	var (
		m  Inbound
		at int64
	)
	err := s.Scan(&m.ID, &m.Platform, &m.ChatID, &m.ChatKind, &m.MessageID, &m.UserID, &m.UserName,
		&m.Text, &m.Modality, &m.Addressed, &at, &m.Status, &m.Media)
	m.At = fromNano(at)
	return m, err
}

func queryInbound(ctx context.Context, q querier, where string, args ...any) ([]Inbound, error) {
	return queryAll(ctx, q, "list inbound", scanInbound, "SELECT "+inboundCols+" FROM inbound "+where+" ORDER BY id", args...)
}

// InsertInbound stores a user message durably before any LLM call (DESIGN §3
// step 1). A message already stored under (Platform, ChatID, MessageID)
// returns its existing id and inserted=false, so a redelivered update runs
// no second turn. An empty MessageID is stored as NULL and never
// deduplicates. An empty Status means StatusReceived. The chat is recorded
// in the chats table as a side effect.
func (db *DB) InsertInbound(ctx context.Context, m Inbound) (id int64, inserted bool, err error) {
	ids, ins, err := db.InsertInbounds(ctx, []Inbound{m})
	if err != nil {
		return 0, false, err
	}
	return ids[0], ins[0], nil
}

// InsertInbounds is InsertInbound for a batch in ONE transaction (a
// Telegram poll's messages): all are stored, or none. ids[i] and
// inserted[i] answer ms[i].
func (db *DB) InsertInbounds(ctx context.Context, ms []Inbound) (ids []int64, inserted []bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("insert inbound: %w", err)
	}
	// Once begun, a batch is stored whole even if its poll is being
	// cancelled: the cursor is not saved then, and the redelivery dedupes.
	// A context without cancellation also spares the driver a watcher
	// goroutine for every statement.
	ctx = context.WithoutCancel(ctx)
	ids, inserted = make([]int64, len(ms)), make([]bool, len(ms))
	err = db.write(ctx, "insert inbound", func(tx querier) error {
		for i, m := range ms {
			var err error
			if ids[i], inserted[i], err = insertInbound(ctx, tx, m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return ids, inserted, nil
}

func insertInbound(ctx context.Context, tx querier, m Inbound) (id int64, inserted bool, err error) {
	if m.Status == "" {
		m.Status = StatusReceived
	}
	// No RETURNING: see insertEpisode.
	res, err := tx.ExecContext(ctx, `INSERT INTO inbound
		(platform, chat_id, chat_kind, message_id, user_id, user_name, text, modality, addressed, at, status, media)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (platform, chat_id, message_id) DO NOTHING`,
		m.Platform, m.ChatID, m.ChatKind, nullText(m.MessageID), m.UserID, m.UserName, m.Text, m.Modality,
		m.Addressed, toNano(m.At), m.Status, m.Media)
	if err != nil {
		return 0, false, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, false, err
	} else if n == 0 {
		err = tx.QueryRowContext(ctx, `SELECT id FROM inbound WHERE platform = ? AND chat_id = ? AND message_id = ?`,
			m.Platform, m.ChatID, m.MessageID).Scan(&id)
		return id, false, err
	}
	if id, err = res.LastInsertId(); err != nil {
		return 0, false, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO chats (platform, chat_id, kind, first_at, last_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (platform, chat_id) DO UPDATE SET last_at = max(chats.last_at, excluded.last_at),
		kind = CASE WHEN excluded.kind != '' THEN excluded.kind ELSE chats.kind END`,
		m.Platform, m.ChatID, m.ChatKind, toNano(m.At), toNano(m.At))
	return id, err == nil, err
}

// PendingInbound lists messages still StatusReceived, oldest first: after a
// crash these are answered once (DESIGN §10 faults).
func (db *DB) PendingInbound(ctx context.Context) ([]Inbound, error) {
	return queryInbound(ctx, db.reader, "WHERE status = ?", StatusReceived)
}

// SetInboundStatus moves a message to answered or skipped. Unknown ids are
// ErrNotFound; unknown statuses violate the table's CHECK.
func (db *DB) SetInboundStatus(ctx context.Context, id int64, status string) error {
	return db.write(ctx, "set inbound status", func(tx querier) error {
		return setInboundStatus(ctx, tx, id, status)
	})
}

func setInboundStatus(ctx context.Context, q querier, id int64, status string) error {
	res, err := q.ExecContext(ctx, "UPDATE inbound SET status = ? WHERE id = ?", status, id)
	if err != nil {
		return fmt.Errorf("inbound %d: %w", id, err)
	}
	return checkOne(res, fmt.Sprintf("inbound %d", id))
}

// SetInboundHeard stores what hearing made of a voice note (DESIGN §12): the
// message's text becomes text, addressed is updated (in a group a voice note
// may name the bot), media is replaced (the transport's reference is no
// longer needed once the words are kept), and the transcription's usage is
// recorded in the same transaction, so a restart neither transcribes again
// nor loses the cost. Unknown ids are ErrNotFound.
func (db *DB) SetInboundHeard(ctx context.Context, id int64, text string, addressed bool, media string, usage []Usage) error {
	return db.write(ctx, "set inbound heard", func(tx querier) error {
		res, err := tx.ExecContext(ctx, "UPDATE inbound SET text = ?, addressed = ?, media = ? WHERE id = ?",
			text, addressed, media, id)
		if err != nil {
			return fmt.Errorf("inbound %d: %w", id, err)
		}
		if err := checkOne(res, fmt.Sprintf("inbound %d", id)); err != nil {
			return err
		}
		return addUsage(ctx, tx, usage)
	})
}

// Cursor returns a transport's saved position (e.g. Telegram's update
// offset), "" when unset.
func (db *DB) Cursor(ctx context.Context, name string) (string, error) {
	var v string
	err := db.reader.QueryRowContext(ctx, "SELECT value FROM cursors WHERE name = ?", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("load cursor %s: %w", name, err)
	}
	return v, nil
}

// SetCursor saves a transport's position.
func (db *DB) SetCursor(ctx context.Context, name, value string) error {
	return db.write(ctx, "set cursor "+name, func(tx querier) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO cursors (name, value) VALUES (?, ?)
			ON CONFLICT (name) DO UPDATE SET value = excluded.value`, name, value)
		return err
	})
}

// NewestMessageIDs maps each chat of platform to the newest platform
// message id stored from it, comparing ids as numbers (Discord snowflakes).
// Ids that are not numbers (slash-command and button events) are skipped.
// The Discord transport resumes its history backfill from these.
func (db *DB) NewestMessageIDs(ctx context.Context, platform string) (map[string]string, error) {
	rows, err := db.reader.QueryContext(ctx, `SELECT chat_id, MAX(CAST(message_id AS INTEGER)) FROM inbound
		WHERE platform = ? AND message_id GLOB '[1-9]*' AND message_id NOT GLOB '*[^0-9]*'
		GROUP BY chat_id`, platform)
	if err != nil {
		return nil, fmt.Errorf("newest message ids of %s: %w", platform, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var chat string
		var id int64
		if err := rows.Scan(&chat, &id); err != nil {
			return nil, fmt.Errorf("newest message ids of %s: %w", platform, err)
		}
		out[chat] = strconv.FormatInt(id, 10)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("newest message ids of %s: %w", platform, err)
	}
	return out, nil
}
