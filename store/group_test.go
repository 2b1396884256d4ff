package store

import (
	"context"
	"fmt"
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
