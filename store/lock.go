package store

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// lockSuffix names the instance lock file next to the database
// (/tmp/store.md: flock on <path>.lock).
const lockSuffix = ".lock"

// instanceLock is the exclusive flock that keeps a second writer (another
// hearth run on the same file) out. The kernel drops it when the process
// dies, so a crash never leaves a stale lock (only a stale file, which the
// next writer takes over). The holder removes the file when it lets go,
// while it still holds the lock; a writer that locked a file removed under
// it (it opened the name just before) sees that the name no longer leads to
// its file and tries again, so two processes never hold locks on two files
// of one name.
//
// The lock file alone is not enough: a symlink or a hard link to the same
// database, or a lock file deleted by hand, would give a second writer a
// lock file of its own (DESIGN §9: "Two processes never open the same FILE
// for writing"). So the lock file's name follows symlinks, and the holder
// also takes an exclusive flock on the database file itself, which every
// name of that file shares. On Linux flock and SQLite's fcntl (POSIX) locks
// are independent, so this lock never blocks SQLite's own locking. The fd
// stays open until the SQLite pools are closed: closing any fd of a file
// drops the process's POSIX locks on it.
type instanceLock struct {
	f    *os.File
	path string
	db   *os.File // the database file, flocked
	// stale is the holder line a process that died holding the lock left
	// in the lock file ("" for a fresh file): the new holder says, once,
	// that it takes the instance over.
	stale string
}

// lockAttempts bounds acquireLock's retries when holders keep letting go
// between its open and its lock; hearth's choice: far more than two
// processes racing on one file ever need.
const lockAttempts = 10

// LockedError is returned (wrapping ErrLocked) when another process holds the
// instance lock. Holder is that process's own line, "pid=… host=… since=…".
type LockedError struct {
	Path   string
	Holder string
	// Reading says the holders only read the file (hearth state or export
	// with no daemon running, see quietGuard): they are done in a moment,
	// and no writer is there.
	Reading bool
}

// Error names the file and the holder, so the operator knows which process
// to stop.
func (e *LockedError) Error() string {
	h := e.Holder
	if h == "" {
		h = "an unknown process"
	}
	return fmt.Sprintf("instance %s is in use by %s", e.Path, h)
}

// Unwrap makes errors.Is(err, ErrLocked) work.
func (e *LockedError) Unwrap() error { return ErrLocked }

// acquireLock takes the instance lock of dbPath without blocking and writes
// the holder line into the lock file. A refusal leaves the holder's file
// alone.
func acquireLock(dbPath string) (*instanceLock, error) {
	lockPath := resolvePath(dbPath) + lockSuffix
	for range lockAttempts {
		f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, fileMode)
		if err != nil {
			return nil, openLockError(dbPath, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			defer f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				holder, _ := io.ReadAll(io.LimitReader(f, maxHolderLine))
				return nil, &LockedError{Path: dbPath, Holder: strings.TrimSpace(string(holder))}
			}
			return nil, fmt.Errorf("lock %s: %w", lockPath, err)
		}
		if !current(f, lockPath) {
			_ = f.Close() // its holder removed it as we opened it: try again
			continue
		}
		stale, _ := io.ReadAll(io.LimitReader(f, maxHolderLine))
		l := &instanceLock{f: f, path: lockPath, stale: strings.TrimSpace(string(stale))}
		if l.db, err = lockDatabase(dbPath); err != nil {
			return nil, errors.Join(err, l.release())
		}
		if err := l.writeHolder(); err != nil {
			return nil, errors.Join(err, l.release())
		}
		return l, nil
	}
	return nil, fmt.Errorf("lock %s: the lock file kept being replaced", lockPath)
}

// resolvePath follows symlinks in path, so every symlinked name of one
// database shares one lock file. A file that does not exist yet keeps its
// name inside its resolved directory; the flock on the database file
// (lockDatabase) still covers a dangling symlink.
func resolvePath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(d, filepath.Base(path))
	}
	return path
}

// openLockError says what an operator must fix when the lock file cannot be
// created: above all a missing directory, named once.
func openLockError(dbPath string, err error) error {
	dir := filepath.Dir(dbPath)
	if errors.Is(err, os.ErrNotExist) {
		if _, serr := os.Stat(dir); errors.Is(serr, os.ErrNotExist) {
			return &missingDirError{path: dbPath, dir: dir}
		}
	}
	return fmt.Errorf("open %s: create lock file: %w", dbPath, err) // err names the lock file
}

// missingDirError says FILE's directory does not exist, and is
// os.ErrNotExist for errors.Is.
type missingDirError struct{ path, dir string }

func (e *missingDirError) Error() string {
	return fmt.Sprintf("open %s: directory %s does not exist", e.path, e.dir)
}

func (e *missingDirError) Is(target error) bool { return target == os.ErrNotExist }

// lockDatabase opens (creating it with fileMode if needed, as createFile
// would) and flocks the database file itself. Read-only is enough for
// flock, and keeps a read-only file's "not writable" error for later.
func lockDatabase(dbPath string) (*os.File, error) {
	f, err := os.OpenFile(dbPath, os.O_RDONLY|os.O_CREATE, fileMode)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dbPath, err)
	}
	deadline, retried := time.Now().Add(readerWait), false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", dbPath, err)
		}
		pid, reading := flockHolder(f)
		if pid == 0 && !retried {
			retried = true // the holder may have let go since: look once more
			continue
		}
		if reading && time.Now().Before(deadline) {
			// hearth state or export reads the file (quietGuard) and is
			// done in a moment: wait for it rather than fail the start.
			time.Sleep(readerPoll)
			continue
		}
		_ = f.Close()
		holder := "another process"
		if pid > 0 {
			holder = "pid=" + strconv.Itoa(pid)
		}
		if reading {
			return nil, &LockedError{Path: dbPath, Holder: holder + " (reading it: hearth state or export)", Reading: true}
		}
		return nil, &LockedError{Path: dbPath, Holder: holder + " (through another name of the same file, or after its lock file was deleted)"}
	}
}

// A writer starting while hearth state or export reads the file with no
// daemon running (their shared flock, see quietGuard) waits up to
// readerWait for them, checking every readerPoll; hearth's choice: a state
// read takes milliseconds, an export of a long history a second or two.
const (
	readerWait = 10 * time.Second
	readerPoll = 20 * time.Millisecond
)

// procLocks lists the kernel's file locks on Linux (proc(5)); elsewhere it
// does not exist and the holder goes unnamed.
const procLocks = "/proc/locks"

// flockHolder finds the pid holding a flock on f's file in procLocks, or 0,
// and whether it is a shared (READ) lock. A line reads "1: FLOCK
// ADVISORY  WRITE 4242 fd:01:123456 0 EOF", the device as hex major:minor
// (proc(5)); blocked waiters' lines carry "->".
func flockHolder(f *os.File) (pid int, reading bool) {
	fi, err := f.Stat()
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	want := fmt.Sprintf("%02x:%02x:%d", devMajor(uint64(st.Dev)), devMinor(uint64(st.Dev)), uint64(st.Ino))
	pl, err := os.Open(procLocks)
	if err != nil {
		return 0, false
	}
	defer pl.Close()
	sc := bufio.NewScanner(pl)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != want {
			continue // a waiter ("->" shifts the fields), a POSIX lock or another file
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil {
			return pid, fields[3] == "READ"
		}
	}
	return 0, false
}

// devMajor and devMinor split a Linux dev_t as glibc's gnu_dev_major and
// gnu_dev_minor do (sys/sysmacros.h).
func devMajor(dev uint64) uint64 { return (dev>>8)&0xfff | (dev>>32)&^0xfff }
func devMinor(dev uint64) uint64 { return dev&0xff | (dev>>12)&^0xff }

// current reports whether path still names the file f is: false once the
// previous holder removed it.
func current(f *os.File, path string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	pi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, pi)
}

// writeHolder writes the holder line into the locked lock file.
func (l *instanceLock) writeHolder() error {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	line := fmt.Sprintf("pid=%d host=%s since=%s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	if err := writeHolder(l.f, line); err != nil {
		return fmt.Errorf("write lock %s: %w", l.path, err)
	}
	return nil
}

// maxHolderLine caps how much of a lock file is read into an error message.
// Chosen: a holder line is well under 200 bytes.
const maxHolderLine = 512

func writeHolder(f *os.File, line string) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte(line), 0); err != nil {
		return err
	}
	return f.Sync()
}

// release removes the lock file, then drops the lock. Removing it first,
// while the lock is still held, is what makes it safe: whoever opened the
// name before the removal finds, once it gets the lock, that the name no
// longer leads to its file (see acquireLock).
func (l *instanceLock) release() error {
	var removeErr error
	if current(l.f, l.path) {
		removeErr = os.Remove(l.path)
	}
	var dbErr error
	if l.db != nil {
		dbErr = l.db.Close() // drops its flock
	}
	unlockErr := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	closeErr := l.f.Close()
	if err := errors.Join(removeErr, dbErr, unlockErr, closeErr); err != nil {
		return fmt.Errorf("release lock: %w", err)
	}
	return nil
}
