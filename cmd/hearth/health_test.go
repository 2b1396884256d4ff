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

// link is a transport's link as the health check sees it: failing since
// failing, and a long poll in flight since awaiting until it is overdue
// at overdue.
type link struct{ failing, awaiting, overdue time.Time }

func (l link) FailingSince() time.Time { return l.failing }
func (l link) AwaitingSince(now time.Time) time.Time {
	if now.Before(l.overdue) {
		return l.awaiting
	}
	return time.Time{}
}

// A long poll lasts up to its timeout (30 s) and counts as failed 5 s
// past it: one swallowed poll, then a healthy one waiting its 30 s for
// news, is no outage, though a minute passes since the first began. A
// link that swallows every poll is reported once the second is overdue.
func TestTransportHealthWaitsForALongPollToTell(t *testing.T) {
	const poll = telegram.DefaultPollTimeout + 5*time.Second
	start := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	second := start.Add(poll + time.Second) // after the first poll failed and a backoff
	th := &transportHealth{downAfter: TransportDownAfter, state: map[string]error{"telegram": nil},
		links: map[string]linkWatch{"telegram": link{failing: start, awaiting: second, overdue: second.Add(poll)}}}
	check := th.check("telegram")

	th.now = func() time.Time { return start.Add(TransportDownAfter) }
	if err := check(t.Context()); err != nil {
		t.Errorf("a minute after one swallowed poll, the next still within its %s: %v, want ok", poll, err)
	}
	th.now = func() time.Time { return second.Add(poll) }
	if err := check(t.Context()); err == nil || !strings.Contains(err.Error(), "unreachable since 2026-05-01T12:00:00Z (1m11s)") {
		t.Errorf("once the second poll is overdue too: %v, want unreachable since the first", err)
	}
}
