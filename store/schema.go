package store

import (
	"context"
	"database/sql"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// SchemaVersion is the newest schema this hearth knows: the number of
// embedded migrations. A file with a higher PRAGMA user_version came from a
// newer hearth and is refused untouched.
const SchemaVersion = 8

//go:embed migrations/*.sql
var migrationFS embed.FS

// sqliteHeaderSize, sqliteMagic and userVersionOffset come from the SQLite
// file format (https://sqlite.org/fileformat.html §1.3): a 100-byte header
// that starts with "SQLite format 3\0" and holds user_version as a 4-byte
// big-endian integer at offset 60.
const (
	sqliteHeaderSize  = 100
	sqliteMagic       = "SQLite format 3\x00"
	userVersionOffset = 60
)

// VersionError reports a schema version this binary cannot use as is. It
// wraps ErrNewerSchema or ErrOlderSchema.
type VersionError struct {
	Path      string
	Have      int // PRAGMA user_version of the file
	Supported int // SchemaVersion of this binary
}

// Error says both versions and what the operator should do.
func (e *VersionError) Error() string {
	if e.Have > e.Supported {
		return fmt.Sprintf("open %s: schema version %d is newer than this hearth supports (%d); upgrade hearth",
			e.Path, e.Have, e.Supported)
	}
	return fmt.Sprintf("open %s: schema version %d is older than this hearth (%d); run `hearth run --db %s` once to upgrade it first",
		e.Path, e.Have, e.Supported, e.Path)
}

// Unwrap makes errors.Is work with ErrNewerSchema / ErrOlderSchema.
func (e *VersionError) Unwrap() error {
	if e.Have > e.Supported {
		return ErrNewerSchema
	}
	return ErrOlderSchema
}

func schemaError(path string, v int) error {
	return &VersionError{Path: path, Have: v, Supported: SchemaVersion}
}

// peekUserVersion reads user_version from the file header without SQLite,
// so nothing is created or changed. exists is false for a missing or empty
// file (a new database). A non-SQLite file is an error.
func peekUserVersion(p string) (v int, exists bool, err error) {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("read header: %w", err)
	}
	defer f.Close()
	h := make([]byte, sqliteHeaderSize)
	n, err := io.ReadFull(f, h)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, false, fmt.Errorf("read header: %w", err)
	}
	return parseHeader(h[:n])
}

// parseHeader checks the first bytes of a file: none means a new database,
// anything but a full SQLite header is an error, and a header yields its
// user_version.
func parseHeader(h []byte) (v int, exists bool, err error) {
	if len(h) == 0 {
		return 0, false, nil
	}
	if len(h) < sqliteHeaderSize || string(h[:len(sqliteMagic)]) != sqliteMagic {
		return 0, false, fmt.Errorf("%w (bad header)", ErrNotDatabase)
	}
	return int(int32(binary.BigEndian.Uint32(h[userVersionOffset:]))), true, nil
}

func userVersion(ctx context.Context, q querier) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read user_version: %w", err)
	}
	return v, nil
}

// migration is one embedded NNNN_name.sql file, and the Go step that
// completes it when the SQL alone cannot (migrationSteps).
type migration struct {
	version int
	name    string
	sql     string
	step    migrationStep
}

// migrationStep runs inside a migration's transaction, after its SQL.
type migrationStep func(ctx context.Context, tx querier, log *slog.Logger) error

// migrationSteps maps a migration's topic (the name between the number and
// ".sql") to its Go step. Keyed by topic, not number, because migrations
// are renumbered when branches merge.
func migrationSteps() map[string]migrationStep {
	return map[string]migrationStep{
		"recall": backfillRecall, // index the episodes and memories that exist
	}
}

// migrations lists the embedded migrations in order and checks they are
// numbered 1..SchemaVersion without gaps.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var ms []migration
	steps := migrationSteps()
	for _, e := range entries {
		num, topic, ok := strings.Cut(e.Name(), "_")
		if !ok || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", e.Name())
		}
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: %w", e.Name(), err)
		}
		body, err := migrationFS.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", e.Name(), err)
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(body), step: steps[strings.TrimSuffix(topic, ".sql")]})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d", m.name, i+1)
		}
	}
	if len(ms) != SchemaVersion {
		return nil, fmt.Errorf("%d migrations embedded, SchemaVersion is %d", len(ms), SchemaVersion)
	}
	return ms, nil
}

// migrate applies every migration above from, each in its own transaction
// that also sets user_version, so a crash leaves a consistent version.
func migrate(ctx context.Context, w *sql.DB, from int, log *slog.Logger) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.version <= from {
			continue
		}
		start := time.Now()
		if err := applyMigration(ctx, w, m, log); err != nil {
			return err
		}
		// Upgrading an existing file is news for the operator; creating a
		// new one is not.
		level := slog.LevelDebug
		if from > 0 {
			level = slog.LevelInfo
		}
		log.Log(ctx, level, "schema migrated", "version", m.version, "migration", m.name, "took", time.Since(start).Round(time.Millisecond))
	}
	return nil
}

func applyMigration(ctx context.Context, w *sql.DB, m migration, log *slog.Logger) error {
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: begin: %w", m.name, err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if m.step != nil {
		if err := m.step(ctx, tx, log); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	// PRAGMA takes no bound parameters; the version is our own integer.
	if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(m.version)); err != nil {
		return fmt.Errorf("migration %s: set user_version: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.name, err)
	}
	return nil
}
