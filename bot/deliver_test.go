package bot_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/store"
)

// TestConcurrentDeliveriesSendOnce: the retry loop, recovery and a turn may
// all hold the same pending entry in their lists; it is sent once.
func TestConcurrentDeliveriesSendOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.db.EnsureUser(ctx, store.User{ID: "telegram:30", Name: "Ona", PrivateChatID: "30", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if _, err := e.db.EnqueueOutbound(ctx, store.Outbound{Platform: bot.PlatformTelegram, ChatID: "30", ChatKind: "private",
			UserID: "telegram:30", Kind: "reply", Text: "hello " + itoa(i), Status: store.OutboundPending, CreatedAt: time.Now().Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := e.h.DeliverPending(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := e.out.texts("30"); len(got) != 5 {
		t.Fatalf("%d deliveries of 5 entries: %q", len(got), got)
	}
}
