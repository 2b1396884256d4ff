// Package bottest holds the small test doubles every package's tests
// need: a buffer safe to write from goroutines while the test reads it,
// a clock the test moves, and a wait on a condition with a deadline. It
// imports nothing of hearth's.
package bottest

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// WaitLimit bounds WaitFor: generous, so a loaded CI machine never fails
// a test that only runs slowly; a passing test waits no longer than its
// condition takes.
const WaitLimit = 10 * time.Second

// waitPoll is how often WaitFor looks at its condition.
const waitPoll = 2 * time.Millisecond

// WaitFor returns as soon as cond holds and fails the test when it has not
// held within WaitLimit: a wait on a condition, never a fixed sleep.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(WaitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", WaitLimit, what)
		}
		time.Sleep(waitPoll)
	}
}

// Buffer is a bytes.Buffer safe to write from a server's goroutines (or
// a child process's pipe) while the test reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Count is how many times sub was written, as strings.Count counts.
func (s *Buffer) Count(sub string) int { return strings.Count(s.String(), sub) }

// Clock is a settable clock (for Config.Now and the like), safe for
// concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock showing t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
