package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/telegram"
	"hearth/bot/telegram/telegramtest"
)

// A Telegram whose getUpdates keeps failing is reported down by /healthz
// once it has failed for TransportDownAfter, though Run goes on retrying,
// and healthy again as soon as a poll works.
func TestTransportHealthReportsAFailingTelegram(t *testing.T) {
	const token = "123:health-token"
	f := telegramtest.NewServer(t, token)
	const failures = 3
	for range failures {
		f.Fail("getUpdates", 502, "<html>Bad Gateway</html>")
	}
	tg, err := telegram.New(t.Context(), telegram.Config{Token: token, Endpoint: f.Endpoint(), Cursors: &mapCursors{}, PollTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	th := newTransportHealth([]bot.Transport{tg})
	// The check looks at the link as if TransportDownAfter had passed
	// since it started failing: no waiting for a real minute.
	th.now = func() time.Time { return tg.FailingSince().Add(TransportDownAfter) }
	check := th.check(bot.PlatformTelegram)
	if err := check(t.Context()); err != nil {
		t.Fatalf("check before any poll = %v", err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() { tg.Run(ctx, nopInbound{}) })
	defer func() { cancel(); wg.Wait() }()

	waitFor(t, "a failed poll", func() bool { return !tg.FailingSince().IsZero() })
	err = check(t.Context())
	if err == nil || !strings.Contains(err.Error(), "unreachable since") || strings.Contains(err.Error(), token) {
		t.Errorf("check while polls fail = %v, want unreachable since ..., without the token", err)
	}
	th.now = func() time.Time { return tg.FailingSince().Add(TransportDownAfter - time.Second) }
	if err := check(t.Context()); err != nil {
		t.Errorf("check before TransportDownAfter = %v, want ok: a blip is not an outage", err)
	}
	waitFor(t, "a poll that works", func() bool {
		return len(f.CallsTo("getUpdates")) > failures && tg.FailingSince().IsZero()
	})
	th.now = func() time.Time { return time.Now().Add(TransportDownAfter) }
	if err := check(t.Context()); err != nil {
		t.Errorf("check after recovery = %v, want ok", err)
	}
}

// mapCursors keeps the poll offset in memory.
type mapCursors struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *mapCursors) Cursor(_ context.Context, name string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[name], nil
}

func (c *mapCursors) SetCursor(_ context.Context, name, value string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]string{}
	}
	c.m[name] = value
	return nil
}

// nopInbound accepts and forgets every message.
type nopInbound struct{}

func (nopInbound) HandleMessage(context.Context, bot.Message) error   { return nil }
func (nopInbound) HandleReaction(context.Context, bot.Reaction) error { return nil }
