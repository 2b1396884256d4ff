package store

import (
	"errors"
	"fmt"
	"io"
	"os"
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
type instanceLock struct {
	f    *os.File
	path string
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
	lockPath := dbPath + lockSuffix
	for range lockAttempts {
		f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, fileMode)
		if err != nil {
			return nil, fmt.Errorf("open lock %s: %w", lockPath, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			defer f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				holder, _ := io.ReadAll(io.LimitReader(f, maxHolderLine))
				return nil, &LockedError{Path: dbPath, Holder: strings.TrimSpace(string(holder))}
			}
			return nil, fmt.Errorf("lock %s: %w", lockPath, err)
		}
		if current(f, lockPath) {
			return hold(f, lockPath)
		}
		_ = f.Close() // its holder removed it as we opened it: try again
	}
	return nil, fmt.Errorf("lock %s: the lock file kept being replaced", lockPath)
}

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

// hold writes the holder line into the locked file f.
func hold(f *os.File, lockPath string) (*instanceLock, error) {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	line := fmt.Sprintf("pid=%d host=%s since=%s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	if err := writeHolder(f, line); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("write lock %s: %w", lockPath, err)
	}
	return &instanceLock{f: f, path: lockPath}, nil
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
	unlockErr := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	closeErr := l.f.Close()
	if err := errors.Join(removeErr, unlockErr, closeErr); err != nil {
		return fmt.Errorf("release lock: %w", err)
	}
	return nil
}
