// Package store keeps everything one hearth instance knows in one SQLite file
// (DESIGN §1, "one file = one soul"): persona, users, messages, the outbound
// ledger, episodes, memories and the bookkeeping of the life loop.
//
// One DB value owns one file. A writer takes an exclusive instance lock so two
// daemons never write the same soul; a ReadOnly DB (hearth state, hearth
// export) takes no lock and never modifies the file, so it is safe next to a
// running daemon. A Shared DB writes without the lock, for one short
// operator command beside the daemon. Writes go through a single connection
// (SQLite allows one writer anyway, and one connection serialises them
// without SQLITE_BUSY storms); reads use a separate read-only pool so a slow
// export never waits behind a turn.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Exported sentinels let callers (cmd/hearth) pick exit codes and messages
// without matching text.
var (
	// ErrLocked means another process holds the instance lock of the file.
	ErrLocked = errors.New("instance is locked by another process")
	// ErrNewerSchema means the file was written by a newer hearth; it is left
	// untouched so that newer hearth can still use it.
	ErrNewerSchema = errors.New("database schema is newer than this hearth")
	// ErrOlderSchema means a ReadOnly open found a schema that needs
	// migrating, which only a writer (hearth run) may do.
	ErrOlderSchema = errors.New("database schema is older than this hearth")
	// ErrNotFound means the row an update or export names does not exist.
	ErrNotFound = errors.New("not found")
	// ErrNotDatabase means the file is not a SQLite database (a persona
	// or another file given as --db); it is left untouched.
	ErrNotDatabase = errors.New("not a SQLite database")
	// ErrReadOnly means a write was attempted on a DB opened ReadOnly.
	ErrReadOnly = errors.New("database opened read-only")
)

// driverName is the database/sql name modernc.org/sqlite registers.
const driverName = "sqlite"

// busyTimeoutMS is how long a connection waits for a lock before SQLITE_BUSY.
// /tmp/store.md: busy_timeout(5000).
const busyTimeoutMS = 5000

// Page cache per connection, in KiB (PRAGMA cache_size; SQLite's default
// is 2,000 KiB each, up to 12 MB over the writer, the checkpointer and
// readPoolSize readers). Hearth's choice, README "Footprint": a turn reads
// a few dozen pages, and a page not cached is one pread from the OS page
// cache, not the disk.
const (
	readerCacheKiB = 256
	writerCacheKiB = 1024
)

// readPoolSize bounds the read-only pool. Chosen: reads are short (history,
// state, export) and a handful in parallel covers concurrent turns without
// holding many file descriptors.
const readPoolSize = 4

// fileMode is the permission of a new database file: it holds private
// conversations, so only the owner may read it (/tmp/store.md).
const fileMode fs.FileMode = 0o600

// Options selects how Open treats the file.
type Options struct {
	// ReadOnly opens without the instance lock, never creates or migrates
	// the file, and rejects writes with ErrReadOnly. For hearth state/export
	// while the daemon runs.
	ReadOnly bool
	// Shared opens for writing next to a daemon that may hold the instance
	// lock: for short operator writes (hearth watch clear) that SQLite's own
	// locking serialises with the daemon's. With no daemon running it takes
	// the instance lock itself, waiting for ReadOnly opens that read the
	// file immutable (see quietGuard) to finish, so none of them reads the
	// file while it changes. The file must exist and already have this
	// binary's schema: a Shared open never creates or migrates. Ignored
	// when ReadOnly is set.
	Shared bool
	// Logger receives the progress of schema migrations (building the
	// recall index of a large file takes seconds). nil discards it.
	Logger *slog.Logger

	// besideDaemon, in tests, runs when a Shared open has found the
	// instance lock held, before it connects: where a daemon stopping
	// would have left a window (see openWriter).
	besideDaemon func()
}

// DB is one open instance file. It is safe for concurrent use.
type DB struct {
	path   string
	writer *sql.DB // nil when ReadOnly; exactly one connection
	reader *sql.DB // mode=ro pool
	lock   *instanceLock
	// guard holds a shared flock on the file while a ReadOnly DB reads it
	// immutable (see quietGuard); nil otherwise.
	guard  *os.File
	schema int

	// The checkpointer moves WAL frames into the database in the
	// background, so no turn's commit pays for it (see CheckpointInterval).
	stopCheckpoints context.CancelFunc
	checkpointsDone chan struct{}

	group writeGroup // concurrent writes share one transaction (group.go)

	vectors vectorCache // shelves' vector codes (vector_cache.go)
}

// CheckpointInterval is how often a writer checkpoints the WAL, on its own
// connection, instead of SQLite's automatic checkpoint inside whichever
// commit crosses 1000 pages: that one fsync was the turns' p99 spike.
const CheckpointInterval = time.Second

// Open opens (and, for a writer, creates and migrates) the instance file at
// path. See the package doc for the writer/ReadOnly contract.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	if path == "" {
		return nil, errors.New("open store: empty path")
	}
	if opts.ReadOnly {
		return openReadOnly(ctx, path)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return openWriter(ctx, path, opts, log)
}

// checkHeader reads the schema version from the header bytes, before
// SQLite touches the file: a newer schema must leave the file
// byte-identical and must not leave -wal/-shm files behind. A missing file
// is created, unless the open is Shared (which never creates or migrates).
func checkHeader(path string, shared bool) error {
	v, exists, err := peekUserVersion(path)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if v > SchemaVersion {
		return schemaError(path, v)
	}
	if shared && (!exists || (v < SchemaVersion && !walHasFrames(path))) {
		// Without a WAL the header is the truth: refuse before the DSN's
		// journal_mode pragma could touch an old file.
		return schemaError(path, v)
	}
	if !exists {
		if err := createFile(path); err != nil {
			return fmt.Errorf("open %s: %w", path, err)
		}
	}
	return nil
}

// openWriterPool opens the one writer connection's pool and checks the
// file is in WAL mode.
func openWriterPool(ctx context.Context, path string) (*sql.DB, error) {
	w := openCached(dsn(path, false))
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	var mode string
	if err := w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return w, fmt.Errorf("open %s: read journal mode: %w", path, err)
	}
	if !strings.EqualFold(mode, "wal") {
		return w, fmt.Errorf("open %s: journal mode is %q, want wal", path, mode)
	}
	return w, nil
}

func openWriter(ctx context.Context, path string, opts Options, log *slog.Logger) (_ *DB, err error) {
	shared := opts.Shared
	db := &DB{path: path}
	if db.lock, err = writerLock(path, shared, log); err != nil {
		return nil, err
	}
	if shared && db.lock == nil && opts.besideDaemon != nil {
		opts.besideDaemon()
	}
	defer func() {
		if err != nil {
			_ = db.Close()
		}
	}()

	if err := checkHeader(path, shared); err != nil {
		return nil, err
	}
	if db.writer, err = openWriterPool(ctx, path); err != nil {
		return nil, err
	}
	w := db.writer
	if shared && db.lock == nil {
		// A daemon held the lock when we looked. If it has stopped since,
		// before this connection opened, it removed its WAL on the way
		// out, and a hearth state starting now would read the file
		// immutable while we write it: take the lock after all, which
		// waits for such readers. If it still holds the lock, it cannot
		// remove the WAL any more (SQLite removes it with the last
		// connection, and this one stays open until Close), so readers
		// keep reading through it however the daemon ends.
		if db.lock, err = sharedLock(path); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	// The header can lag behind a WAL left by a crash; ask SQLite again now
	// that it has recovered the WAL.
	v, err := userVersion(ctx, w)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if v > SchemaVersion || (shared && v < SchemaVersion) {
		// A Shared open never migrates: that is hearth run's job, under
		// the instance lock.
		return nil, schemaError(path, v)
	}
	if err := migrate(ctx, w, v, log.With("db", path)); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Fail at start, not at the first message, when the file cannot be
	// written (a read-only file or file system, a full disk's header).
	if err := probeWrite(ctx, w); err != nil {
		return nil, fmt.Errorf("open %s: instance file is not writable: %w", path, err)
	}

	if db.reader, err = openReader(ctx, path, false); err != nil {
		return nil, err
	}
	db.schema = SchemaVersion
	db.startCheckpoints(path)
	return db, nil
}

// writerLock takes the instance lock of a writing open: always for the
// daemon, and for a Shared open as sharedLock says (which needs the file
// to exist already).
func writerLock(path string, shared bool, log *slog.Logger) (*instanceLock, error) {
	if shared {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		return sharedLock(path)
	}
	l, err := acquireLock(path)
	if err != nil {
		return nil, err
	}
	if l.stale != "" {
		// The kernel dropped the lock when that process ended (a crash,
		// a kill -9): nobody holds the file, and the operator learns that
		// the last run did not stop cleanly.
		log.Warn("taking over a stale instance lock: its holder ended without letting go", "lock", l.path, "previous", l.stale)
	}
	return l, nil
}

// sharedLock is the instance lock of a Shared open when it can have it:
// with no daemon running, a ReadOnly open of the file may be reading it
// immutable, without locks or WAL (quietGuard), and a write beside it
// would change pages under it; holding the lock waits for such readers
// and keeps new ones from going immutable. A daemon holding the lock (by
// this name or another) already keeps them away: then the write goes
// beside it, lockless, and nil is returned. Readers that do not finish
// within readerWait are an error, as for a daemon's start. A lock file
// that cannot be made (a directory the operator may not write) leaves the
// open as it was before: lockless.
func sharedLock(path string) (*instanceLock, error) {
	l, err := acquireLock(path)
	var locked *LockedError
	switch {
	case err == nil:
		return l, nil
	case errors.As(err, &locked) && locked.Reading:
		return nil, err
	}
	return nil, nil
}

// startCheckpoints runs PASSIVE checkpoints every CheckpointInterval on a
// connection of their own until Close. PASSIVE never waits for readers or
// the writer, so it cannot stall a turn.
func (db *DB) startCheckpoints(path string) {
	ctx, cancel := context.WithCancel(context.Background())
	db.stopCheckpoints, db.checkpointsDone = cancel, make(chan struct{})
	go func() {
		defer close(db.checkpointsDone)
		c, err := sql.Open(driverName, dsn(path, false))
		if err != nil {
			return
		}
		defer c.Close()
		c.SetMaxOpenConns(1)
		t := time.NewTicker(CheckpointInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				// A failed checkpoint is retried next tick; the WAL keeps
				// every frame until one succeeds.
				_, _ = c.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
			}
		}
	}()
}

func openReadOnly(ctx context.Context, path string) (_ *DB, err error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	v, exists, err := peekUserVersion(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if !exists {
		// An empty file is a database nobody initialised yet.
		return nil, schemaError(path, 0)
	}
	if v > SchemaVersion {
		return nil, schemaError(path, v)
	}
	db := &DB{path: path}
	defer func() {
		if err != nil {
			_ = db.Close()
		}
	}()
	db.guard = quietGuard(path)
	if db.reader, err = openReader(ctx, path, db.guard != nil); err != nil {
		return nil, err
	}
	// The WAL of a running daemon may hold a newer header than the file.
	if v, err = userVersion(ctx, db.reader); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	switch {
	case v > SchemaVersion:
		return nil, schemaError(path, v)
	case v < SchemaVersion:
		return nil, schemaError(path, v)
	}
	db.schema = v
	return db, nil
}

func openReader(ctx context.Context, path string, immutable bool) (*sql.DB, error) {
	d := dsn(path, true)
	if immutable {
		d += "&immutable=1"
	}
	r := openCached(d)
	r.SetMaxOpenConns(readPoolSize)
	r.SetMaxIdleConns(readPoolSize)
	if err := r.PingContext(ctx); err != nil {
		_ = r.Close()
		return nil, fmt.Errorf("open %s read pool: %w", path, err)
	}
	return r, nil
}

// dsn builds the modernc file: URI. The writer sets the pragmas of
// /tmp/store.md and BEGIN IMMEDIATE, so a transaction takes the write lock up
// front instead of failing to upgrade a read lock later. The reader is
// mode=ro and query_only, and uses plain BEGIN (IMMEDIATE needs a write lock).
func dsn(path string, readOnly bool) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	var b strings.Builder
	b.WriteString("file:")
	b.WriteString(esc)
	fmt.Fprintf(&b, "?_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)", busyTimeoutMS)
	if readOnly {
		fmt.Fprintf(&b, "&mode=ro&_pragma=query_only(1)&_pragma=cache_size(-%d)", readerCacheKiB)
		return b.String()
	}
	fmt.Fprintf(&b, "&_pragma=cache_size(-%d)", writerCacheKiB)
	b.WriteString("&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=secure_delete(1)&_txlock=immediate&_pragma=wal_autocheckpoint(0)")
	// A statement that may fail halfway (an upsert, a multi-row change)
	// keeps the pages it changes in a statement journal, otherwise a
	// temporary file written page by page: in memory it costs no system
	// calls (at most one statement's pages).
	b.WriteString("&_pragma=temp_store(MEMORY)")
	return b.String()
}

// quietGuard makes a ReadOnly open of a file nobody writes leave nothing
// behind. In WAL mode even a mode=ro connection creates FILE-wal and
// FILE-shm (SQLite "WAL-mode read-only databases"), which it cannot remove
// again, and fails in a directory it cannot write. SQLite's immutable=1
// reads the file alone, without locks, WAL or shared memory, which is
// right only while nobody writes it and no WAL holds committed pages. So:
// when no writer holds the database file's flock (see lockDatabase) and
// no -wal file is there, quietGuard returns the file holding a shared
// flock, which keeps a writer from starting until the reader is closed,
// and the reader opens immutable. Otherwise (a daemon runs, a crash left a
// WAL, the file system has no flock) it returns nil and the reader opens
// mode=ro, reading the WAL as usual. An empty -wal counts: SQLite removes
// the WAL with the last connection, so one that is there may belong to a
// hearth watch clear still connected after the daemon beside it stopped
// (it holds no flock), whose next write lands in it.
func quietGuard(path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil || walPresent(path) {
		_ = f.Close()
		return nil
	}
	return f
}

// walHasFrames reports whether a non-empty -wal file sits next to path, in
// which case the header may lag behind committed data.
func walHasFrames(path string) bool {
	fi, err := os.Stat(path + "-wal")
	return err == nil && fi.Size() > 0
}

// walPresent reports whether a -wal file, empty or not, sits next to path:
// a connection may be open on the file, or a crash left it.
func walPresent(path string) bool {
	_, err := os.Stat(path + "-wal")
	return err == nil
}

// createFile makes the new database file with mode 0600 before SQLite sees
// it, so no moment exists where another user could read it.
func createFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	return f.Close()
}

// Close closes both pools and releases the instance lock. The writer closes
// last so SQLite checkpoints and removes the WAL.
func (db *DB) Close() error {
	var errs []error
	if db.writer != nil {
		// Async writes still queued (delivery marks) are committed, and
		// their timer cannot fire on a closed writer.
		errs = append(errs, db.Flush(context.Background()))
		db.group.mu.Lock()
		if db.group.timer != nil {
			db.group.timer.Stop()
		}
		db.group.mu.Unlock()
	}
	if db.stopCheckpoints != nil {
		db.stopCheckpoints()
		<-db.checkpointsDone
		db.stopCheckpoints = nil
	}
	if db.reader != nil {
		errs = append(errs, db.reader.Close())
		db.reader = nil
	}
	if db.writer != nil {
		errs = append(errs, db.writer.Close())
		db.writer = nil
	}
	if db.lock != nil {
		errs = append(errs, db.lock.release())
		db.lock = nil
	}
	if db.guard != nil {
		errs = append(errs, db.guard.Close()) // drops its shared flock
		db.guard = nil
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close %s: %w", db.path, err)
	}
	return nil
}

// Path is the file this DB was opened on, for logs and messages.
func (db *DB) Path() string { return db.path }

// SchemaVersion is the schema version of the open file (always the const
// SchemaVersion once Open succeeded; kept for diagnostics and hearth state).
func (db *DB) SchemaVersion() int { return db.schema }

// Ping checks both pools can reach the file (admin /healthz).
func (db *DB) Ping(ctx context.Context) error {
	if db.writer != nil {
		if err := db.writer.PingContext(ctx); err != nil {
			return fmt.Errorf("ping writer: %w", err)
		}
	}
	if err := db.reader.PingContext(ctx); err != nil {
		return fmt.Errorf("ping reader: %w", err)
	}
	return nil
}

// read runs fn in one read transaction on the read pool, so multi-query
// reads (Export) see one snapshot. See inTx for why it is not a *sql.Tx.
func (db *DB) read(ctx context.Context, op string, fn func(tx querier) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := db.inTx(db.reader, "BEGIN", false, fn); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// querier is what *sql.Conn, *sql.Tx and *sql.DB share, so helpers run in
// any of them.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// probeWrite rewrites the header's user_version inside a transaction and
// rolls it back: nothing changes, but a read-only file says so now.
func probeWrite(ctx context.Context, w *sql.DB) error {
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}
