package store

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
)

func TestCommitGiftIdempotentUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := mustUser(t, db, "telegram:42")
	const callers = 20
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		inserted int
		results  []Gift
		errs     []error
	)
	for i := range callers {
		wg.Go(func() {
			g := Gift{TransactionID: "tx-1", UserID: u.ID, Item: "rose", At: t0, MoodBefore: 10, MoodAfter: 60,
				Result: json.RawMessage(fmt.Sprintf(`{"caller":%d}`, i))}
			nu := u
			nu.Mood = 60
			nu.LastIntents = append(nu.LastIntents, "GIFT_SEND")
			out := &Outbound{Platform: "telegram", ChatID: "42", UserID: u.ID, Kind: "gift", Text: fmt.Sprintf("thank you %d", i), CreatedAt: t0}
			stored, ins, err := db.CommitGift(ctx, g, nu, out)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			if ins {
				inserted++
			}
			results = append(results, stored)
		})
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if inserted != 1 {
		t.Fatalf("%d callers inserted, want exactly 1", inserted)
	}
	// Every caller got the same first result back.
	for _, r := range results[1:] {
		if !reflect.DeepEqual(r, results[0]) {
			t.Fatalf("results differ: %+v vs %+v", r, results[0])
		}
	}
	g, ok, err := db.Gift(ctx, "tx-1")
	if err != nil || !ok || !reflect.DeepEqual(g, results[0]) {
		t.Fatalf("Gift = %+v %v %v, want %+v", g, ok, err, results[0])
	}
	out, _ := db.PendingOutbound(ctx)
	if len(out) != 1 || out[0].Kind != "gift" {
		t.Fatalf("gift thanks enqueued %d times: %+v", len(out), out)
	}
	got, _, _ := db.User(ctx, u.ID)
	if got.Mood != 60 || len(got.LastIntents) != 1 {
		t.Fatalf("user after gifts = %+v", got)
	}
	if _, ok, err := db.Gift(ctx, "tx-unknown"); ok || err != nil {
		t.Fatalf("unknown gift: %v %v", ok, err)
	}
}

func TestCommitGiftRollsBack(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	// Unknown user: the gift must not be recorded, so a retry after the
	// user exists still applies it.
	g := Gift{TransactionID: "tx-2", UserID: "telegram:ghost", Item: "rose", At: t0}
	if _, _, err := db.CommitGift(ctx, g, User{ID: "telegram:ghost"}, nil); err == nil {
		t.Fatal("gift for unknown user committed")
	}
	if _, ok, _ := db.Gift(ctx, "tx-2"); ok {
		t.Fatal("failed gift left its transaction id behind")
	}
	u := mustUser(t, db, "telegram:ghost")
	if _, ins, err := db.CommitGift(ctx, g, u, nil); err != nil || !ins {
		t.Fatalf("retry: %v %v", ins, err)
	}
}
