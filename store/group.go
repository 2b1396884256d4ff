package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxGroupOps bounds how many writes share one transaction, so one commit
// never holds the writer for long (hearth's choice: a burst of 200 chats
// commits in two or three transactions).
const maxGroupOps = 64

// asyncDelay is how long a write nobody waits for (writeAsync) may stay
// queued for a write someone waits for to take it along before it is
// committed on its own (hearth's choice: under load one comes within a
// fraction of a millisecond; alone, a delivery mark two milliseconds late
// costs nothing, while a commit of its own was two in five of a burst's
// commits).
const asyncDelay = 2 * time.Millisecond

// writeGroup lines up the writes that arrive while the writer connection
// is busy. The first waiting write then leads: it runs every queued write
// in ONE transaction and commits once (group commit; see commitGroup for
// a write that fails). One SQLite commit with its WAL write is the cost of a
// write; under load many writes share it. No goroutine of its own: the
// writers themselves take turns leading, and a timer commits async writes
// that no other write took along.
type writeGroup struct {
	mu    sync.Mutex
	busy  bool // a leader is committing
	queue []*writeOp
	timer *time.Timer // flushAsync, while armed
	armed bool
}

// writeOp is one caller's write.
type writeOp struct {
	ctx  context.Context
	op   string
	fn   func(tx querier) error
	err  error
	done chan struct{} // closed when err is final
	lead chan struct{} // closed when this op is to lead the next group (write only)
	// then, for a write nobody waits for (writeAsync), is called with err
	// once it is final.
	then func(error)
}

// write runs fn in an IMMEDIATE transaction on the writer connection, alone
// or grouped with writes that arrived meanwhile (see writeGroup). Either
// way fn's writes are all-or-nothing (a failing fn fails only its own
// write) and committed when write returns nil. fn may run twice (once in a
// group that failed, then alone), so it must only write through tx and
// set what it returns afresh each time.
func (db *DB) write(ctx context.Context, op string, fn func(tx querier) error) error {
	if db.writer == nil {
		return fmt.Errorf("%s: %w", op, ErrReadOnly)
	}
	w := &writeOp{ctx: ctx, op: op, fn: fn, done: make(chan struct{}), lead: make(chan struct{})}
	g := &db.group
	g.mu.Lock()
	g.queue = append(g.queue, w)
	if g.busy {
		g.mu.Unlock()
		select {
		case <-w.done:
			return w.err
		case <-w.lead:
		}
		g.mu.Lock()
	}
	db.lead(w)
	return w.err
}

// writeAsync is write for a caller that need not wait for the commit: the
// write joins the queue and writeAsync returns at once; the next write
// someone waits for takes it along, or after asyncDelay a timer commits
// it. then is called with the result once it is final, on the committing
// goroutine (so it must be quick). Flush commits what is queued.
func (db *DB) writeAsync(ctx context.Context, op string, fn func(tx querier) error, then func(error)) {
	if db.writer == nil {
		then(fmt.Errorf("%s: %w", op, ErrReadOnly))
		return
	}
	w := &writeOp{ctx: ctx, op: op, fn: fn, done: make(chan struct{}), then: then} // never leads: no lead
	g := &db.group
	g.mu.Lock()
	defer g.mu.Unlock()
	g.queue = append(g.queue, w)
	if !g.busy {
		db.armAsync() // a busy leader takes it along or arms the timer itself
	}
}

// Flush commits every write queued before it, async ones included; the
// Handler's Drain and Close call it so nothing queued is left behind.
func (db *DB) Flush(ctx context.Context) error {
	return db.write(ctx, "flush", func(querier) error { return nil })
}

// armAsync starts the timer that commits async writes left queued. Called
// with g.mu held.
func (db *DB) armAsync() {
	g := &db.group
	if g.armed {
		return
	}
	g.armed = true
	if g.timer == nil {
		g.timer = time.AfterFunc(asyncDelay, db.flushAsync)
	} else {
		g.timer.Reset(asyncDelay)
	}
}

// flushAsync commits the async writes no other write took along.
func (db *DB) flushAsync() {
	g := &db.group
	g.mu.Lock()
	g.armed = false
	if g.busy || len(g.queue) == 0 {
		g.mu.Unlock() // a leader has them
		return
	}
	db.lead(nil)
}

// lead commits the queued writes from the head, a group at a time, until
// self (nil: the async writes' timer) is committed; then it hands the lead
// to the first caller still waiting, who takes the queue from its head, or,
// when only async writes are left, arms their timer. Called with g.mu
// held; returns with it released.
func (db *DB) lead(self *writeOp) {
	g := &db.group
	g.busy = true
	for {
		n := min(len(g.queue), maxGroupOps)
		batch := g.queue[:n:n]
		g.queue = g.queue[n:]
		g.mu.Unlock()

		db.commitGroup(batch)

		g.mu.Lock()
		if self != nil && slices.Contains(batch, self) ||
			self == nil && (len(g.queue) == 0 || slices.ContainsFunc(g.queue, awaited)) {
			break
		}
	}
	switch i := slices.IndexFunc(g.queue, awaited); {
	case i >= 0:
		close(g.queue[i].lead) // it leads next; busy stays set
	case len(g.queue) > 0:
		g.busy = false
		db.armAsync()
	default:
		g.busy = false
	}
	g.mu.Unlock()
}

// awaited reports whether a caller waits for w (write, not writeAsync).
func awaited(w *writeOp) bool { return w.then == nil }

// commitGroup runs batch in one transaction and closes every op's done.
// Writes rarely fail, so the group runs without savepoints (each would
// cost two statements and a copy of every page it touches); when one
// write fails, nothing of the group is kept and every write runs again on
// its own, so the failure stays its caller's.
func (db *DB) commitGroup(batch []*writeOp) {
	defer func() {
		for _, w := range batch {
			close(w.done)
			if w.then != nil {
				w.then(w.err)
			}
		}
	}()
	if len(batch) > 1 && db.commitAll(batch) == nil {
		return
	}
	for _, w := range batch {
		w.err = db.commitOne(w)
	}
}

// commitAll runs every write of batch in one transaction, all or nothing.
// The group outlives any one caller's cancellation: a cancelled statement
// fails its write, which fails the group, and each write runs again alone.
func (db *DB) commitAll(batch []*writeOp) error {
	return db.inTx(db.writer, "BEGIN IMMEDIATE", true, func(c querier) error {
		for _, w := range batch {
			if err := w.fn(c); err != nil {
				return fmt.Errorf("%s: %w", w.op, err)
			}
		}
		return nil
	})
}

// commitOne is a group of one: a plain transaction, no savepoint.
func (db *DB) commitOne(w *writeOp) error {
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", w.op, err)
	}
	if err := db.inTx(db.writer, "BEGIN IMMEDIATE", true, w.fn); err != nil {
		return fmt.Errorf("%s: %w", w.op, err)
	}
	return nil
}

// inTx runs fn in a transaction on a connection of pool, opened with begin
// (BEGIN IMMEDIATE on the writer, BEGIN for a read) and committed when
// commit is set and fn succeeded, rolled back otherwise. The transaction is
// plain SQL on a *sql.Conn, not a *sql.Tx: database/sql wraps a Tx's
// context in a cancellable one and then watches it with a goroutine for the
// Tx and another for every query in it (Rows.awaitDone); on the writer's
// hot path those were two goroutine starts and wake-ups per query, on the
// one goroutine every turn waits for. Statements still honour the
// context their caller passes them.
func (db *DB) inTx(pool *sql.DB, begin string, commit bool, fn func(q querier) error) (err error) {
	bg := context.Background()
	c, err := pool.Conn(bg)
	if err != nil {
		return fmt.Errorf("connection: %w", err)
	}
	defer c.Close()
	if _, err := c.ExecContext(bg, begin); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err = fn(c); err == nil && commit {
		if _, err = c.ExecContext(bg, "COMMIT"); err == nil {
			return nil
		}
		err = fmt.Errorf("commit: %w", err)
	}
	if _, rbErr := c.ExecContext(bg, "ROLLBACK"); rbErr != nil && !noTransaction(rbErr) {
		// A connection that may still hold the transaction must not serve
		// the next one: database/sql discards a connection that says so.
		_ = c.Raw(func(any) error { return driver.ErrBadConn })
		return errors.Join(err, fmt.Errorf("rollback: %w", rbErr))
	}
	return err
}

// noTransaction reports SQLite's answer to a ROLLBACK with no transaction
// open (one a failed COMMIT or statement already ended): nothing is left
// to undo.
func noTransaction(err error) bool {
	return strings.Contains(err.Error(), "no transaction is active")
}
