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
// dies, so a crash never leaves a stale lock; the file itself stays (removing
// it would let two processes lock different inodes of the same name).
type instanceLock struct {
	f *os.File
}

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
// the holder line into the lock file.
func acquireLock(dbPath string) (*instanceLock, error) {
	lockPath := dbPath + lockSuffix
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
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	line := fmt.Sprintf("pid=%d host=%s since=%s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	if err := writeHolder(f, line); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("write lock %s: %w", lockPath, err)
	}
	return &instanceLock{f: f}, nil
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

// release empties the holder line and drops the lock.
func (l *instanceLock) release() error {
	truncErr := l.f.Truncate(0)
	unlockErr := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	closeErr := l.f.Close()
	if err := errors.Join(truncErr, unlockErr, closeErr); err != nil {
		return fmt.Errorf("release lock: %w", err)
	}
	return nil
}
