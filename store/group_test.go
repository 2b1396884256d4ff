package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// Writes that arrive while the writer is busy commit together in one
// transaction, each in its own savepoint: a failing one is rolled back
// alone, the others are committed, and every caller gets its own result.
func TestGroupCommit(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	hold, held := make(chan struct{}), make(chan struct{})
	var first sync.WaitGroup
	first.Go(func() {
		err := db.write(ctx, "hold the writer", func(tx *sql.Tx) error {
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

	const n = 6
	var (
		mu  sync.Mutex
		txs = map[*sql.Tx]int{}
		wg  sync.WaitGroup
	)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = db.write(ctx, fmt.Sprintf("op %d", i), func(tx *sql.Tx) error {
				mu.Lock()
				txs[tx]++
				mu.Unlock()
				if _, err := tx.ExecContext(ctx, "INSERT INTO cursors (name, value) VALUES (?, 'x')", fmt.Sprint("op", i)); err != nil {
					return err
				}
				if i == 2 {
					return errors.New("op 2 changes its mind")
				}
				return nil
			})
		})
	}
	waitQueued(t, db, n)
	close(hold)
	wg.Wait()
	first.Wait()

	if len(txs) != 1 {
		t.Errorf("the %d queued writes ran in %d transactions, want one group", n, len(txs))
	}
	for i, err := range errs {
		got, _ := db.Cursor(ctx, fmt.Sprint("op", i))
		switch {
		case i == 2 && (err == nil || got != ""):
			t.Errorf("op 2: err %v, row %q; want its error and no row", err, got)
		case i != 2 && (err != nil || got != "x"):
			t.Errorf("op %d: err %v, row %q; want it committed", i, err, got)
		}
	}
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
