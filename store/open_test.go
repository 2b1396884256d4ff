package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestOpenMigratesAndSetsVersion(t *testing.T) {
	db, path := openTest(t)
	if got := db.SchemaVersion(); got != SchemaVersion {
		t.Fatalf("SchemaVersion() = %d, want %d", got, SchemaVersion)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != SchemaVersion {
		t.Fatalf("%d migrations embedded, const SchemaVersion %d", len(ms), SchemaVersion)
	}
	v, err := userVersion(context.Background(), db.reader)
	if err != nil || v != SchemaVersion {
		t.Fatalf("user_version = %d, %v; want %d", v, err, SchemaVersion)
	}
	// Every table of the assignment exists.
	for _, table := range []string{"config", "users", "chats", "inbound", "outbound", "outbound_msgs", "episodes",
		"memories", "cursors", "gifts", "proactive_log", "token_usage", "signals", "daily_points"} {
		var n int
		if err := db.reader.QueryRow("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", table).Scan(&n); err != nil || n != 1 {
			t.Errorf("table %s: n=%d err=%v", table, n, err)
		}
	}
	// The header on disk carries the version too, once checkpointed.
	if err := db.Scrub(context.Background()); err != nil {
		t.Fatal(err)
	}
	if hv, exists, err := peekUserVersion(path); err != nil || !exists || hv != SchemaVersion {
		t.Fatalf("peekUserVersion = %d, %v, %v", hv, exists, err)
	}
}

func TestReopenIsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "soul.db")
	for i := range 3 {
		db, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatalf("open #%d: %v", i, err)
		}
		if err := db.SetCursor(ctx, "n", strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			if u, ok, err := db.User(ctx, "telegram:1"); err != nil || !ok || u.Name != "Ann" {
				t.Fatalf("reopen #%d lost data: %+v %v %v", i, u, ok, err)
			}
		} else {
			mustUser(t, db, "telegram:1")
		}
		if db.SchemaVersion() != SchemaVersion {
			t.Fatalf("reopen #%d version %d", i, db.SchemaVersion())
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestNewFileMode0600AndWAL(t *testing.T) {
	db, path := openTest(t)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Fatalf("db mode %o, want 600", perm)
	}
	var mode string
	if err := db.writer.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	mustUser(t, db, "telegram:1") // a write makes the -wal exist
	for _, suffix := range []string{"-wal", lockSuffix} {
		fi, err := os.Stat(path + suffix)
		if err != nil {
			t.Fatalf("%s: %v", suffix, err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s mode %o, want 600", suffix, perm)
		}
	}
	for pragma, want := range map[string]int{"secure_delete": 1, "foreign_keys": 1, "busy_timeout": busyTimeoutMS, "synchronous": 1, "temp_store": 2} {
		var got int
		if err := db.writer.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil || got != want {
			t.Errorf("PRAGMA %s = %d, %v; want %d", pragma, got, err, want)
		}
	}
}

func TestInstanceLock(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	mustUser(t, db, "telegram:1")

	_, err := Open(ctx, path, Options{})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second writer: err = %v, want ErrLocked", err)
	}
	pid := "pid=" + strconv.Itoa(os.Getpid())
	if !strings.Contains(err.Error(), pid) || !strings.Contains(err.Error(), "host=") ||
		!strings.Contains(err.Error(), "since=") || !strings.Contains(err.Error(), path) {
		t.Fatalf("lock error %q does not name the file and holder %s", err, pid)
	}

	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("ReadOnly next to a writer: %v", err)
	}
	defer ro.Close()
	if u, ok, err := ro.User(ctx, "telegram:1"); err != nil || !ok || u.Name != "Ann" {
		t.Fatalf("ReadOnly does not see committed user: %+v %v %v", u, ok, err)
	}
	// A write after the reader opened is visible to its next read.
	if err := db.SetCursor(ctx, "tg", "99"); err != nil {
		t.Fatal(err)
	}
	if v, err := ro.Cursor(ctx, "tg"); err != nil || v != "99" {
		t.Fatalf("ReadOnly cursor = %q, %v", v, err)
	}
	if err := ro.SetCursor(ctx, "tg", "1"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write on ReadOnly: %v, want ErrReadOnly", err)
	}

	// A refusal leaves the holder's lock file (and lock) alone.
	if _, err := os.Stat(path + lockSuffix); err != nil {
		t.Fatalf("the holder's lock file after a refused open: %v", err)
	}
	if _, err := Open(ctx, path, Options{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("third writer: err = %v, want ErrLocked (the lock survived the refusal)", err)
	}

	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + lockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Close: %v, want it removed", err)
	}
	db2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("lock not released by Close: %v", err)
	}
	if err := db2.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestStaleLockTakeoverIsLogged: a lock file left by a process that died
// holding it (the kernel dropped the flock, the file and its holder line
// stay) is taken over, and the log says so once, naming the old holder; a
// clean start says nothing of the kind.
func TestStaleLockTakeoverIsLogged(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	clean, err := Open(ctx, path, Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	if err := clean.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "stale") {
		t.Fatalf("a clean start logged a stale lock:\n%s", logs.String())
	}
	const crashed = "pid=4194304 host=gone since=2024-01-02T03:04:05Z"
	if err := os.WriteFile(path+lockSuffix, []byte(crashed+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(ctx, path, Options{Logger: log})
	if err != nil {
		t.Fatalf("a stale lock file was not taken over: %v", err)
	}
	defer db2.Close()
	if n := strings.Count(logs.String(), "taking over a stale instance lock"); n != 1 || !strings.Contains(logs.String(), crashed) {
		t.Errorf("want one line taking over the lock of %q:\n%s", crashed, logs.String())
	}
}

// TestLockRemovedUnderAnOpenerIsNotHeld: a writer that opened the lock file
// just before its holder removed it (and let go) gets a lock on a file no
// name leads to any more. acquireLock must see that and lock the name's new
// file, so that it and a third writer never both "hold" the instance.
func TestLockRemovedUnderAnOpenerIsNotHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "soul.db")
	first, err := acquireLock(path)
	if err != nil {
		t.Fatal(err)
	}
	late, err := os.OpenFile(path+lockSuffix, os.O_RDWR, 0) // opened before the release
	if err != nil {
		t.Fatal(err)
	}
	defer late.Close()
	if err := first.release(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(late.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatalf("lock the removed file: %v", err)
	}
	if current(late, path+lockSuffix) {
		t.Fatal("a removed lock file counts as current")
	}
	second, err := acquireLock(path)
	if err != nil {
		t.Fatalf("lock beside a stale handle: %v", err)
	}
	defer second.release()
	if !current(second.f, path+lockSuffix) {
		t.Fatal("the new holder's file is not the one the name leads to")
	}
	if _, err := acquireLock(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("third writer: %v, want ErrLocked", err)
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestNewerSchemaLeavesFileUntouched(t *testing.T) {
	for _, ro := range []bool{false, true} {
		t.Run("ReadOnly="+strconv.FormatBool(ro), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "future.db")
			future := strconv.Itoa(SchemaVersion + 1)
			rawSQLite(t, path, "CREATE TABLE future (x)", "INSERT INTO future VALUES (1)", "PRAGMA user_version = "+future)
			before := fileSum(t, path)
			fi0, _ := os.Stat(path)

			_, err := Open(context.Background(), path, Options{ReadOnly: ro})
			if !errors.Is(err, ErrNewerSchema) {
				t.Fatalf("err = %v, want ErrNewerSchema", err)
			}
			want := "schema version " + future + " is newer than this hearth supports (" + strconv.Itoa(SchemaVersion) + "); upgrade hearth"
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("err %q lacks %q", err, want)
			}
			if fileSum(t, path) != before {
				t.Fatal("file bytes changed")
			}
			fi1, _ := os.Stat(path)
			if fi1.Mode() != fi0.Mode() || !fi1.ModTime().Equal(fi0.ModTime()) {
				t.Fatal("file metadata changed")
			}
			for _, suffix := range []string{"-wal", "-shm", "-journal", lockSuffix} {
				if _, err := os.Stat(path + suffix); err == nil {
					t.Errorf("%s left behind", suffix)
				}
			}
		})
	}
}

func TestNotSQLiteLeftUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "persona.yaml")
	content := []byte("name: Luna\nlanguage: en\n" + strings.Repeat("x", 200))
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), path, Options{}); err == nil || !strings.Contains(err.Error(), "not a SQLite database") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(content) {
		t.Fatal("file changed")
	}
	if _, err := os.Stat(path + lockSuffix); err == nil {
		t.Error("a refused open left its lock file behind")
	}
}

func TestReadOnlyMissingFileCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "none.db")
	_, err := Open(context.Background(), path, Options{ReadOnly: true})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("ReadOnly open created %v", entries)
	}
}

func TestReadOnlyOlderSchemaAsksForRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	rawSQLite(t, path, "CREATE TABLE old (x)")
	before := fileSum(t, path)
	_, err := Open(context.Background(), path, Options{ReadOnly: true})
	if !errors.Is(err, ErrOlderSchema) || !strings.Contains(err.Error(), "hearth run") {
		t.Fatalf("err = %v, want ErrOlderSchema mentioning hearth run", err)
	}
	if fileSum(t, path) != before {
		t.Fatal("ReadOnly changed an old file")
	}
}

// readOnlyOfClosed opens, read-only, a file with one user whose writer
// has closed, and reads the user; it returns the reader, the file and its
// sum before the reader opened.
func readOnlyOfClosed(t *testing.T) (*DB, string, [32]byte) {
	t.Helper()
	ctx := context.Background()
	db, path := openTest(t)
	mustUser(t, db, "telegram:1")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := fileSum(t, path)
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if us, err := ro.Users(ctx); err != nil || len(us) != 1 {
		t.Fatalf("Users = %v, %v", us, err)
	}
	return ro, path, before
}

func TestReadOnlyDoesNotModifyClosedFile(t *testing.T) {
	ro, path, before := readOnlyOfClosed(t)
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if fileSum(t, path) != before {
		t.Fatal("ReadOnly modified the database file")
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if fi, err := os.Stat(path + suffix); err == nil {
			t.Logf("note: %s exists after ReadOnly close (size %d)", suffix, fi.Size())
		}
	}
}

// TestReadOnlyLeavesNothingBehind: with no daemon running, a ReadOnly
// open (hearth state, hearth export) creates no -wal or -shm beside the
// file (which a user who may read it but not write its directory could
// not create at all), changes nothing, and a writer starting meanwhile
// waits for it instead of failing.
func TestReadOnlyLeavesNothingBehind(t *testing.T) {
	ctx := context.Background()
	ro, path, before := readOnlyOfClosed(t)
	onlyFile := func(when string) {
		t.Helper()
		entries, _ := os.ReadDir(filepath.Dir(path))
		for _, e := range entries {
			if e.Name() != filepath.Base(path) {
				t.Errorf("%s: %s beside the instance", when, e.Name())
			}
		}
	}
	onlyFile("while reading")
	if fileSum(t, path) != before {
		t.Error("ReadOnly changed the file")
	}

	// A writer starting now waits for the reader to close.
	opened := make(chan error, 1)
	go func() {
		w, err := Open(ctx, path, Options{})
		if err == nil {
			err = w.Close()
		}
		opened <- err
	}()
	waitUntil(t, "the writer to take the lock file", func() bool {
		_, err := os.Stat(path + lockSuffix)
		return err == nil
	})
	select {
	case err := <-opened:
		t.Fatalf("a writer opened (err %v) while the reader was still open, want it to wait", err)
	default:
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatalf("a writer starting beside a reader: %v, want it to wait", err)
	}
}

// TestReadOnlyReadsALeftoverWAL: a WAL left by a crash holds committed
// pages the file does not, so ReadOnly must read it (mode=ro), not the
// file alone.
func TestReadOnlyReadsALeftoverWAL(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	db.stopCheckpoints() // keep the user in the WAL, as a crash would
	<-db.checkpointsDone
	db.stopCheckpoints = nil
	mustUser(t, db, "telegram:1")
	crashed := filepath.Join(t.TempDir(), "crashed.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(crashed+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !walHasFrames(crashed) {
		t.Fatal("setup: the copy has no WAL frames")
	}
	ro, err := Open(ctx, crashed, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if us, err := ro.Users(ctx); err != nil || len(us) != 1 {
		t.Fatalf("Users = %v, %v; want the user committed in the WAL", us, err)
	}
}

func TestSharedWriterBesideDaemon(t *testing.T) {
	ctx := context.Background()
	daemon, path := openTest(t)
	u := mustUser(t, daemon, "telegram:1") // data only in the WAL so far

	op, err := Open(ctx, path, Options{Shared: true})
	if err != nil {
		t.Fatalf("Shared open beside a writer: %v", err)
	}
	u.Scratch = "written by the operator"
	if err := op.UpdateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := daemon.User(ctx, u.ID); got.Scratch != "written by the operator" {
		t.Fatalf("daemon does not see the shared write: %+v", got)
	}
	// The daemon still holds the instance lock.
	if _, err := Open(ctx, path, Options{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("lock lost after shared close: %v", err)
	}

	dir := t.TempDir()
	if _, err := Open(ctx, filepath.Join(dir, "none.db"), Options{Shared: true}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Shared on a missing file: %v", err)
	}
	for _, mode := range []string{"WAL", "DELETE"} {
		old := filepath.Join(dir, "old-"+mode+".db")
		rawSQLite(t, old, "PRAGMA journal_mode = "+mode, "CREATE TABLE old (x)")
		before := fileSum(t, old)
		if _, err := Open(ctx, old, Options{Shared: true}); !errors.Is(err, ErrOlderSchema) {
			t.Fatalf("Shared on an old %s schema: %v", mode, err)
		}
		if fileSum(t, old) != before {
			t.Fatalf("Shared open changed an old %s file", mode)
		}
	}
}

// TestSharedWriterWaitsForAQuietReader: with no daemon running, hearth
// state reads the file immutable (no locks, no WAL: quietGuard), which is
// right only while nobody writes it. hearth watch clear (a Shared open)
// must not change the file under it: it waits for the reader to close,
// then writes, and a reader opened after it sees the write.
func TestSharedWriterWaitsForAQuietReader(t *testing.T) {
	ctx := context.Background()
	ro, path, before := readOnlyOfClosed(t)
	if ro.guard == nil {
		t.Fatal("setup: the reader does not read the file immutable")
	}
	wrote := make(chan error, 1)
	go func() {
		op, err := Open(ctx, path, Options{Shared: true})
		if err != nil {
			wrote <- err
			return
		}
		u, _, err := op.User(ctx, "telegram:1")
		if err == nil {
			u.Scratch = "written by the operator"
			err = op.UpdateUser(ctx, u)
		}
		wrote <- errors.Join(err, op.Close())
	}()
	waitUntil(t, "the operator's write to wait for the reader, or to happen", func() bool {
		_, err := os.Stat(path + lockSuffix)
		return err == nil || len(wrote) > 0
	})
	select {
	case err := <-wrote:
		t.Fatalf("the operator wrote (err %v; file changed: %v) while an immutable reader was open, want it to wait",
			err, fileSum(t, path) != before)
	default:
	}
	if fileSum(t, path) != before {
		t.Fatal("the file changed under an immutable reader")
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-wrote; err != nil {
		t.Fatalf("the operator's write after the reader closed: %v", err)
	}
	after, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	if u, _, err := after.User(ctx, "telegram:1"); err != nil || u.Scratch != "written by the operator" {
		t.Fatalf("a reader after the write: %q, %v", u.Scratch, err)
	}
}

// TestInstanceLockFollowsTheFile: DESIGN §9, "Two processes never open the
// same FILE for writing", whatever name reaches it. A symlink resolves to
// the holder's lock file; a hard link and a lock file deleted by hand meet
// the flock on the database file itself.
func TestInstanceLockFollowsTheFile(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		other func(t *testing.T, path string) string // another way to the same file
	}{
		{"symlink", func(t *testing.T, path string) string {
			link := filepath.Join(t.TempDir(), "link.db")
			if err := os.Symlink(path, link); err != nil {
				t.Fatal(err)
			}
			return link
		}},
		{"relative symlink", func(t *testing.T, path string) string {
			link := filepath.Join(filepath.Dir(path), "link.db")
			if err := os.Symlink(filepath.Base(path), link); err != nil {
				t.Fatal(err)
			}
			return link
		}},
		{"hard link", func(t *testing.T, path string) string {
			link := filepath.Join(filepath.Dir(path), "hard.db")
			if err := os.Link(path, link); err != nil {
				t.Fatal(err)
			}
			return link
		}},
		{"lock file deleted", func(t *testing.T, path string) string {
			if err := os.Remove(path + lockSuffix); err != nil {
				t.Fatal(err)
			}
			return path
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, path := openTest(t)
			mustUser(t, db, "telegram:1")
			other := tc.other(t, path)
			second, err := Open(ctx, other, Options{})
			if err == nil {
				second.Close()
				t.Fatalf("second writer through %s opened the held file", other)
			}
			if !errors.Is(err, ErrLocked) {
				t.Fatalf("second writer through %s: %v, want ErrLocked", other, err)
			}
			// The holder is named from its lock file, or from the kernel's
			// lock table where there is one (Linux).
			if _, perr := os.Stat(procLocks); perr == nil && !strings.Contains(err.Error(), "pid="+strconv.Itoa(os.Getpid())) {
				t.Fatalf("lock error %q does not name the holder, pid %d", err, os.Getpid())
			}
			// The refusal took nothing from the holder.
			mustUser(t, db, "telegram:2")
		})
	}
}

// TestOpenInMissingDirectory: the operator learns the directory is
// missing, once, instead of the lock file's path twice.
func TestOpenInMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nodir")
	_, err := Open(context.Background(), filepath.Join(dir, "x.db"), Options{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want it to wrap ErrNotExist", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "directory "+dir+" does not exist") || strings.Count(msg, dir) != 2 || strings.Contains(msg, lockSuffix) {
		t.Fatalf("err = %q, want the missing directory named once (beside the file)", msg)
	}
}

// The daemon stops between a Shared open's look at the instance lock
// (held: write beside it, lockless) and its connecting: it removed its
// WAL, and a hearth state starting then would read the file immutable
// while the Shared open writes. The open takes the lock after all, so
// such a reader goes through the WAL instead (and one already reading is
// waited for).
func TestSharedOpenTakesTheLockWhenTheDaemonStopsMidOpen(t *testing.T) {
	ctx := context.Background()
	daemon, path := openTest(t)
	mustUser(t, daemon, "telegram:1")
	stopped := false
	op, err := Open(ctx, path, Options{Shared: true, besideDaemon: func() {
		if err := daemon.Close(); err != nil {
			t.Errorf("stop the daemon: %v", err)
		}
		stopped = true
	}})
	if err != nil {
		t.Fatalf("Shared open as the daemon stops: %v", err)
	}
	defer op.Close()
	if !stopped {
		t.Fatal("the daemon was not stopped mid-open: the test does not test the window")
	}
	if op.lock == nil {
		t.Error("the Shared open writes lockless with no daemon left to hold the lock")
	}
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if ro.guard != nil {
		t.Error("a hearth state reads the file immutable while the Shared open may write it")
	}
}

// TestSharedOpenKeepsTheWALWhenTheDaemonStopsAfter: a Shared open that
// connected beside a running daemon writes without the instance lock. If
// the daemon stops then, it cannot remove the WAL (SQLite removes it with
// the last connection, and the Shared one is still open), so a hearth
// state starting afterwards reads through the WAL, never the file alone
// (immutable), and sees what the Shared open writes next; even when a
// forget had just emptied the WAL.
func TestSharedOpenKeepsTheWALWhenTheDaemonStopsAfter(t *testing.T) {
	ctx := context.Background()
	daemon, path := openTest(t)
	mustUser(t, daemon, "telegram:1")
	// A forget scrubbed the WAL to nothing just before (Scrub truncates
	// it), so no frame tells a reader that someone is connected.
	if err := daemon.Scrub(ctx); err != nil {
		t.Fatal(err)
	}
	op, err := Open(ctx, path, Options{Shared: true})
	if err != nil {
		t.Fatalf("Shared open beside the daemon: %v", err)
	}
	defer op.Close()
	if op.lock != nil {
		t.Fatal("setup: the Shared open took the lock while the daemon held it")
	}
	if err := daemon.Close(); err != nil {
		t.Fatalf("stop the daemon: %v", err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("the daemon removed the WAL while the Shared open was connected: %v", err)
	}
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if ro.guard != nil {
		t.Fatal("a hearth state reads the file immutable while the Shared open may still write it")
	}
	u, _, err := op.User(ctx, "telegram:1")
	if err != nil {
		t.Fatal(err)
	}
	u.Scratch = "written by the operator"
	if err := op.UpdateUser(ctx, u); err != nil {
		t.Fatalf("the Shared write after the daemon stopped: %v", err)
	}
	if got, _, err := ro.User(ctx, u.ID); err != nil || got.Scratch != u.Scratch {
		t.Fatalf("the reader sees %+v, %v; want the Shared write", got, err)
	}
}
