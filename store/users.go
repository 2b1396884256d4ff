package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

const userCols = `id, platform, name, private_chat_id, created_at, last_user_at, last_bot_at,
	messages, reflections, mood, last_intents, last_emotion, emotion_history, inner_state,
	scratch, relationship, proactive, quiet_until, unreachable, emergency_contact, emergency_consent, watch_reviewed_at`

func scanUser(s scanner) (User, error) {
	var (
		u                      User
		created, lu, lb, quiet int64
		reviewed               int64
		intents, history       string
		rel                    sql.NullString
	)
	err := s.Scan(&u.ID, &u.Platform, &u.Name, &u.PrivateChatID, &created, &lu, &lb,
		&u.Messages, &u.Reflections, &u.Mood, &intents, &u.LastEmotion, &history, &u.InnerState,
		&u.Scratch, &rel, &u.Proactive, &quiet, &u.Unreachable, &u.EmergencyContact, &u.EmergencyConsent, &reviewed)
	if err != nil {
		return User{}, err
	}
	u.CreatedAt, u.LastUserAt, u.LastBotAt, u.QuietUntil = fromNano(created), fromNano(lu), fromNano(lb), fromNano(quiet)
	u.WatchReviewedAt = fromNano(reviewed)
	u.Relationship = rawFrom(rel)
	if err := fromJSON(intents, &u.LastIntents); err != nil {
		return User{}, fmt.Errorf("user %s last_intents: %w", u.ID, err)
	}
	if err := fromJSON(history, &u.EmotionHistory); err != nil {
		return User{}, fmt.Errorf("user %s emotion_history: %w", u.ID, err)
	}
	return u, nil
}

// userArgs is every column of userCols in order.
func userArgs(u User) ([]any, error) {
	intents, err := toJSON(u.LastIntents)
	if err != nil {
		return nil, err
	}
	history, err := toJSON(u.EmotionHistory)
	if err != nil {
		return nil, err
	}
	platform := u.Platform
	if platform == "" {
		// User ids are "platform:id" (DESIGN §2).
		platform, _, _ = strings.Cut(u.ID, ":")
	}
	return []any{u.ID, platform, u.Name, u.PrivateChatID, toNano(u.CreatedAt), toNano(u.LastUserAt), toNano(u.LastBotAt),
		u.Messages, u.Reflections, u.Mood, intents, u.LastEmotion, history, u.InnerState,
		u.Scratch, rawOrNull(u.Relationship), u.Proactive, toNano(u.QuietUntil), u.Unreachable, u.EmergencyContact, u.EmergencyConsent,
		toNano(u.WatchReviewedAt)}, nil
}

func getUser(ctx context.Context, q querier, id string) (User, bool, error) {
	u, err := scanUser(q.QueryRowContext(ctx, "SELECT "+userCols+" FROM users WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, fmt.Errorf("load user %s: %w", id, err)
	}
	return u, true, nil
}

// User loads one user; ok is false when the id is unknown.
func (db *DB) User(ctx context.Context, id string) (User, bool, error) {
	return getUser(ctx, db.reader, id)
}

// EnsureUser creates the user from u when absent (u supplies every default:
// set CreatedAt and Proactive there). When present, only Name and
// PrivateChatID are refreshed, and only when non-empty in u, so a message in
// a group never erases the known private chat. Returns the stored row.
func (db *DB) EnsureUser(ctx context.Context, u User) (User, error) {
	args, err := userArgs(u)
	if err != nil {
		return User{}, fmt.Errorf("ensure user %s: %w", u.ID, err)
	}
	var stored User
	err = db.write(ctx, "ensure user "+u.ID, func(tx querier) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO users (`+userCols+`)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT (id) DO UPDATE SET
			name = CASE WHEN excluded.name != '' THEN excluded.name ELSE users.name END,
			private_chat_id = CASE WHEN excluded.private_chat_id != '' THEN excluded.private_chat_id ELSE users.private_chat_id END`,
			args...)
		if err != nil {
			return err
		}
		var ok bool
		stored, ok, err = getUser(ctx, tx, u.ID)
		if err == nil && !ok {
			err = ErrNotFound
		}
		return err
	})
	return stored, err
}

func updateUser(ctx context.Context, q querier, u User) error {
	args, err := userArgs(u)
	if err != nil {
		return fmt.Errorf("update user %s: %w", u.ID, err)
	}
	// Every column but id (0), platform (1) and created_at (4), which never
	// change, and watch_reviewed_at (last), which only ReviewWatch writes.
	set := append([]any{}, args[2:4]...)
	set = append(set, args[5:len(args)-1]...)
	set = append(set, u.ID)
	res, err := q.ExecContext(ctx, `UPDATE users SET name = ?, private_chat_id = ?, last_user_at = ?, last_bot_at = ?,
		messages = ?, reflections = ?, mood = ?, last_intents = ?, last_emotion = ?, emotion_history = ?, inner_state = ?,
		scratch = ?, relationship = ?, proactive = ?, quiet_until = ?, unreachable = ?, emergency_contact = ?, emergency_consent = ?
		WHERE id = ?`, set...)
	if err != nil {
		return fmt.Errorf("update user %s: %w", u.ID, err)
	}
	return checkOne(res, "update user "+u.ID)
}

// insertUser creates u, a user first seen in the turn being committed. The
// turn holds its user's lock, so no other writer creates the same user.
func insertUser(ctx context.Context, q querier, u User) error {
	args, err := userArgs(u)
	if err != nil {
		return fmt.Errorf("create user %s: %w", u.ID, err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO users (`+userCols+`)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, args...); err != nil {
		return fmt.Errorf("create user %s: %w", u.ID, err)
	}
	return nil
}

// ReviewWatch records an operator's review of userID's Watch at `at`
// (hearth watch clear) in one write transaction, so nothing written
// between reading the user and writing it back is lost: update gets the
// stored row and returns the row to write, or false to write nothing.
// When it writes, WatchReviewedAt becomes at (never earlier than it was).
// An unknown user is ErrNotFound.
func (db *DB) ReviewWatch(ctx context.Context, userID string, at time.Time, update func(User) (User, bool)) (bool, error) {
	wrote := false
	err := db.write(ctx, "review watch of "+userID, func(tx querier) error {
		wrote = false // a group commit may run fn again after a retry
		u, ok, err := getUser(ctx, tx, userID)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		next, ok := update(u)
		if !ok {
			return nil
		}
		next.ID = userID
		if err := updateUser(ctx, tx, next); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE users SET watch_reviewed_at = max(watch_reviewed_at, ?) WHERE id = ?",
			toNano(at), userID); err != nil {
			return fmt.Errorf("review watch of %s: %w", userID, err)
		}
		wrote = true
		return nil
	})
	return wrote, err
}

// UpdateUser writes every mutable field of u (all but ID, Platform,
// CreatedAt and WatchReviewedAt). An unknown user is ErrNotFound: users
// are created by EnsureUser.
func (db *DB) UpdateUser(ctx context.Context, u User) error {
	return db.write(ctx, "update user", func(tx querier) error { return updateUser(ctx, tx, u) })
}

func queryUsers(ctx context.Context, q querier, where string, args ...any) ([]User, error) {
	return queryAll(ctx, q, "list users", scanUser, "SELECT "+userCols+" FROM users "+where+" ORDER BY id", args...)
}

// Users lists every user ordered by id (hearth state, daily jobs).
func (db *DB) Users(ctx context.Context) ([]User, error) {
	return queryUsers(ctx, db.reader, "")
}

// UsersWithPrivateChat lists the users the life loop may write to first
// (DESIGN §7), ordered by id.
func (db *DB) UsersWithPrivateChat(ctx context.Context) ([]User, error) {
	return queryUsers(ctx, db.reader, "WHERE private_chat_id != ''")
}

// SetUnreachable sets only the user's unreachable flag: a delivery failure
// records it without the read-modify-write of UpdateUser, so the caller
// needs no per-user lock. An unknown user is ErrNotFound.
func (db *DB) SetUnreachable(ctx context.Context, userID string, unreachable bool) error {
	return db.write(ctx, "set unreachable", func(tx querier) error {
		res, err := tx.ExecContext(ctx, "UPDATE users SET unreachable = ? WHERE id = ?", unreachable, userID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// CountActiveUsers counts the users who wrote at or after since.
func (db *DB) CountActiveUsers(ctx context.Context, since time.Time) (int, error) {
	var n int
	if err := db.reader.QueryRowContext(ctx, "SELECT count(*) FROM users WHERE last_user_at >= ?", toNano(since)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count active users: %w", err)
	}
	return n, nil
}
