package store

import (
	"context"
	"fmt"
	"sync"
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

// burstChats is the Telegram benchmark's burst (bot/telegram
// BenchmarkTelegramTurnVsEcho): that many chats at once, each a first turn.
const burstChats = 200

// BenchmarkBurstWrites is the writer's side of a burst (issue 15 item 5):
// burstChats messages stored in one poll's transaction, then every chat's
// first turn committed and its reply marked sent (the mark riding along
// with the next commit), all at once, as the handler does. The single writer connection serialises all of it, so its
// time per turn bounds a burst's throughput.
func BenchmarkBurstWrites(b *testing.B) {
	ctx := context.Background()
	db, _ := openTest(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		ins := make([]Inbound, burstChats)
		for i := range ins {
			n++
			ins[i] = inbound(fmt.Sprint(n), "hello there, how was your day?")
			ins[i].ChatID, ins[i].UserID = fmt.Sprint(n), fmt.Sprintf("telegram:%d", n)
		}
		ids, _, err := db.InsertInbounds(ctx, ins)
		if err != nil {
			b.Fatal(err)
		}
		var wg sync.WaitGroup
		for i, in := range ins {
			wg.Go(func() {
				tr := realTurn(ids[i], User{ID: in.UserID, Platform: "telegram", Name: "Ann", CreatedAt: t0, Proactive: true}, i)
				tr.NewUser, tr.Memories = true, nil // as the Telegram benchmark's brain: nothing to remember
				tr.Episode.UserID, tr.Episode.ChatID, tr.Reply.ChatID, tr.Reply.UserID = in.UserID, in.ChatID, in.ChatID, in.UserID
				out, err := db.CommitTurn(ctx, tr)
				if err != nil {
					b.Error(err)
					return
				}
				sent := Outbound{ID: out[0], Platform: "telegram", ChatID: in.ChatID}
				db.MarkOutboundAsync(ctx, sent, OutboundSent, []string{fmt.Sprint(i)}, t0, func(err error) {
					if err != nil {
						b.Error(err)
					}
				})
			})
		}
		wg.Wait()
		if err := db.Flush(ctx); err != nil { // the marks, as the handler's Drain
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*burstChats), "µs/turn")
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
