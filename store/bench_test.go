package store

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkCommitTurn measures one realistic turn's writes: user update,
// episode, inbound status, reply in the ledger, a memory, a signal, two
// usage rows and the daily point, in one transaction with WAL fsync policy
// NORMAL.
func BenchmarkCommitTurn(b *testing.B) {
	ctx := context.Background()
	db, _ := openTest(b)
	u := mustUser(b, db, "telegram:42")
	ids := make([]int64, b.N)
	for i := range b.N {
		id, _, err := db.InsertInbound(ctx, inbound(fmt.Sprint(i), "hello there, how was your day?"))
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = id
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		tr := realTurn(ids[i], u, i)
		tr.User.LastIntents = tr.User.LastIntents[max(0, len(tr.User.LastIntents)-10):]
		tr.User.EmotionHistory = tr.User.EmotionHistory[max(0, len(tr.User.EmotionHistory)-10):]
		if _, err := db.CommitTurn(ctx, tr); err != nil {
			b.Fatal(err)
		}
		u = tr.User
	}
}

// BenchmarkInsertInbound measures the durable ingest of one message
// (DESIGN §3 step 1), which runs before every turn.
func BenchmarkInsertInbound(b *testing.B) {
	ctx := context.Background()
	db, _ := openTest(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, _, err := db.InsertInbound(ctx, inbound(fmt.Sprint(i), "hello there, how was your day?")); err != nil {
			b.Fatal(err)
		}
	}
}
