package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// Writes that arrive while the writer is busy commit together in one
// transaction. When one of them fails, nothing of the group is kept and
// each write runs again alone: the failing one gets its error and leaves
// no row, the others are committed, and every caller gets its own result.
func TestGroupCommit(t *testing.T) {
	for _, failing := range []int{-1, 2} {
		t.Run(fmt.Sprintf("failing=%d", failing), func(t *testing.T) {
			db, _ := openTest(t)
			ctx := context.Background()
			const n = 6
			txs, runs, errs := queuedWrites(t, db, n, failing)
			wantTxs, wantRuns := 1, 1
			if failing >= 0 {
				wantTxs, wantRuns = 1+n, 2 // the failed group, then each write alone
			}
			if len(txs) != wantTxs {
				t.Errorf("the %d queued writes ran in %d transactions, want %d", n, len(txs), wantTxs)
			}
			for i, err := range errs {
				got, _ := db.Cursor(ctx, fmt.Sprint("op", i))
				switch {
				case i == failing && (err == nil || got != ""):
					t.Errorf("op %d: err %v, row %q; want its error and no row", i, err, got)
				case i != failing && (err != nil || got != "x"):
					t.Errorf("op %d: err %v, row %q; want it committed", i, err, got)
				}
				if runs[i] > wantRuns {
					t.Errorf("op %d ran %d times, want at most %d", i, runs[i], wantRuns)
				}
			}
		})
	}
}

// queuedWrites holds the writer with one write, queues n more behind it
// (write number failing returns an error after its insert), releases them
// and returns the transactions they ran in, how often each ran and their
// results.
func queuedWrites(t *testing.T, db *DB, n, failing int) (map[querier]int, []int, []error) {
	t.Helper()
	ctx := context.Background()
	hold, held := make(chan struct{}), make(chan struct{})
	var first sync.WaitGroup
	first.Go(func() {
		err := db.write(ctx, "hold the writer", func(tx querier) error {
			close(held)
			<-hold
			_, err := tx.ExecContext(ctx, "INSERT INTO cursors (name, value) VALUES ('first', '1')")
			return err
		})
		if err != nil {
			t.Error(err)
		}
	})
	<-held

	var (
		mu   sync.Mutex
		txs  = map[querier]int{}
		runs = make([]int, n)
		wg   sync.WaitGroup
	)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = db.write(ctx, fmt.Sprintf("op %d", i), func(tx querier) error {
				mu.Lock()
				txs[tx]++
				runs[i]++
				mu.Unlock()
				if _, err := tx.ExecContext(ctx, "INSERT INTO cursors (name, value) VALUES (?, 'x')", fmt.Sprint("op", i)); err != nil {
					return err
				}
				if i == failing {
					return fmt.Errorf("op %d changes its mind", i)
				}
				return nil
			})
		})
	}
	waitQueued(t, db, n)
	close(hold)
	wg.Wait()
	first.Wait()
	return txs, runs, errs
}

// waitQueued waits (up to a generous deadline) until n writes wait behind
// the one in progress.
func waitQueued(t *testing.T, db *DB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		db.group.mu.Lock()
		q := len(db.group.queue)
		db.group.mu.Unlock()
		if q >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d writes queued", q, n)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// TestAsyncWrites: a write nobody waits for returns at once and rides
// along with the next write someone waits for, or is committed by its
// timer; Flush commits what is queued. Its callback gets its own result, a
// failure only its own.
func TestAsyncWrites(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	var mu sync.Mutex
	results := make(map[string]error)
	arrived := make(chan string, 16) // every result, as it comes
	reported := func(name string) (error, bool) {
		mu.Lock()
		defer mu.Unlock()
		err, ok := results[name]
		return err, ok
	}
	queue := func(names ...string) {
		for _, name := range names {
			db.writeAsync(ctx, name, func(tx querier) error {
				if _, err := tx.ExecContext(ctx, "INSERT INTO cursors (name, value) VALUES (?, 'x')", name); err != nil {
					return err
				}
				if strings.HasPrefix(name, "fail") {
					return fmt.Errorf("%s changes its mind", name)
				}
				return nil
			}, func(err error) {
				mu.Lock()
				results[name] = err
				mu.Unlock()
				arrived <- name
			})
		}
	}
	check := func(names ...string) {
		t.Helper()
		for _, name := range names {
			err, ok := reported(name)
			row, _ := db.Cursor(ctx, name)
			if fail := strings.HasPrefix(name, "fail"); !ok || fail != (err != nil) || fail != (row == "") {
				t.Errorf("%s: reported %v (%v), row %q", name, ok, err, row)
			}
		}
	}

	// Along with a write someone waits for: committed when it returns.
	queue("a1", "fail2", "a3")
	if err := db.write(ctx, "awaited", func(tx querier) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO cursors (name, value) VALUES ('awaited', 'x')")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	check("a1", "fail2", "a3")

	// Alone: its timer commits it.
	for len(arrived) > 0 { // the results above, already checked
		<-arrived
	}
	queue("t1", "t2")
	deadline := time.After(10 * time.Second)
	for range 2 {
		select {
		case <-arrived:
		case <-deadline:
			t.Fatal("the timer never committed t1 and t2")
		}
	}
	check("t1", "t2")

	// Flush: committed when it returns.
	queue("f1")
	if err := db.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	check("f1")
}

// TestMarksDoNotSplitTheRecallIndex: delivery marks share groups with
// turns; their statements must not make FTS5 flush the turns' pending
// terms as a segment per mark (an upsert or INSERT ... SELECT would), so a
// group of turns and marks leaves the index as the turns alone do.
func TestMarksDoNotSplitTheRecallIndex(t *testing.T) {
	ctx := context.Background()
	ftsRows := func(marks bool) int {
		db, _ := openTest(t)
		var ids []int64
		for i := range 20 {
			id, err := db.EnqueueOutbound(ctx, Outbound{Platform: "telegram", ChatID: fmt.Sprint(i), UserID: "u", Kind: "reply",
				Text: "x", Status: OutboundPending, CreatedAt: t0})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		err := db.write(ctx, "turns and marks", func(tx querier) error {
			for i, id := range ids {
				u := fmt.Sprint("telegram:", i)
				_, err := commitTurn(ctx, tx, Turn{NewUser: true, User: User{ID: u, Platform: "telegram", Name: "U", CreatedAt: t0},
					Episode: Episode{UserID: u, Platform: "telegram", ChatID: fmt.Sprint(i), ChatKind: "private",
						UserText: fmt.Sprintf("message %d about the harbour", i), ReplyText: "I see.", At: t0}})
				if err != nil {
					return err
				}
				if marks {
					fn, err := markOutbound(ctx, Outbound{ID: id, Platform: "telegram", ChatID: fmt.Sprint(i)}, OutboundSent, []string{fmt.Sprint(500 + i)}, t0)
					if err != nil {
						return err
					}
					if err := fn(tx); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.reader.QueryRowContext(ctx, "SELECT count(*) FROM recall_fts_data").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if with, without := ftsRows(true), ftsRows(false); with != without {
		t.Errorf("the recall index has %d data rows with marks in the group, %d without", with, without)
	}
}
