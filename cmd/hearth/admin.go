package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"hearth/bot"
	"hearth/bot/admin"
	"hearth/bot/discord"
	"hearth/bot/media"
	"hearth/bot/semantic"
	"hearth/bot/telegram"
	"hearth/lifeloop"
	"hearth/store"
)

// ActiveWindow is who counts as an active user: wrote in the last day.
const ActiveWindow = 24 * time.Hour

// TransportDownAfter is how long a running transport's link to its platform
// (Telegram's getUpdates, a Discord gateway) must be known to have failed
// before /healthz reports the transport down (hearth's choice: longer than
// a blip, which Telegram's poll backoff and Discord's reconnects ride out
// in seconds, and short enough for an alert to fire within a few scrapes).
// Known: a Telegram long poll lasts up to its timeout (30 s) and counts as
// failed only 5 s past it (telegram.DefaultPollTimeout, pollAnswerMargin),
// so the time a poll in flight is still within that is not counted (see
// awaiting). Counting it gave false reds: one swallowed poll (35 s) and
// the healthy poll after it waiting its 30 s for news passed the minute
// with the link working. A link that swallows every poll is reported at
// about 70 s, when its second poll is overdue.
const TransportDownAfter = time.Minute

// linkWatch is what a platform transport adds to bot.Transport: since when
// its link has been failing, the zero time while it works.
type linkWatch interface {
	FailingSince() time.Time
}

// awaiting is a link whose attempts take a while to tell (a Telegram long
// poll): the start of the attempt in flight while at now it could still
// be working, else the zero time.
type awaiting interface {
	AwaitingSince(now time.Time) time.Time
}

var _ awaiting = (*telegram.Transport)(nil)

var (
	_ linkWatch = (*telegram.Transport)(nil)
	_ linkWatch = (*discord.Transport)(nil)
)

// healthWatch is a part that can say it is failing, for /healthz: the
// audio endpoints (bot/media) and, by the same words, recall by meaning.
type healthWatch interface {
	Health(ctx context.Context) error
}

var (
	_ healthWatch = (*semantic.Index)(nil)
	_ healthWatch = (*media.Senses)(nil)
	// The senses' probe is started by serve only through modelWatch.
	_ modelWatch = (*media.Senses)(nil)
)

// transportHealth records, for /healthz, whether each transport's Run is
// still going and, for those that say, whether their link to the platform
// works.
type transportHealth struct {
	now       func() time.Time
	downAfter time.Duration // TransportDownAfter; tests shorten it
	links     map[string]linkWatch

	mu    sync.Mutex
	state map[string]error // nil: running
}

func newTransportHealth(ts []bot.Transport) *transportHealth {
	th := &transportHealth{
		now: time.Now, downAfter: TransportDownAfter,
		links: make(map[string]linkWatch, len(ts)), state: make(map[string]error, len(ts)),
	}
	for _, t := range ts {
		th.state[t.Name()] = nil
		if l, ok := t.(linkWatch); ok {
			th.links[t.Name()] = l
		}
	}
	return th
}

func (th *transportHealth) stopped(name string, err error) {
	if err == nil {
		err = errors.New("stopped")
	}
	th.mu.Lock()
	th.state[name] = err
	th.mu.Unlock()
}

// check is transport name's /healthz check: failing once its Run stopped,
// or once its link has failed for downAfter. It names no error of the
// link: /healthz is served without a token, and the log has the details.
func (th *transportHealth) check(name string) admin.Check {
	return func(context.Context) error {
		th.mu.Lock()
		err := th.state[name]
		th.mu.Unlock()
		if err != nil {
			return err
		}
		l, ok := th.links[name]
		if !ok {
			return nil
		}
		since, now := l.FailingSince(), th.now()
		if since.IsZero() {
			return nil
		}
		known := now // the link is known to have failed from since until known
		if a, ok := l.(awaiting); ok {
			if s := a.AwaitingSince(now); !s.IsZero() && s.Before(known) {
				known = s
			}
		}
		if known.Sub(since) >= th.downAfter {
			return fmt.Errorf("unreachable since %s (%s): retrying, see the log", since.UTC().Format(time.RFC3339), now.Sub(since).Round(time.Second))
		}
		return nil
	}
}

// newAdmin builds the admin API when HEARTH_HTTP_ADDR is set, else nil.
func newAdmin(env Env, inst *instance, h *bot.Handler, m *admin.Metrics, th *transportHealth) (*admin.Server, error) {
	addr := env.Getenv("HEARTH_HTTP_ADDR")
	if addr == "" {
		return nil, nil
	}
	checks := map[string]admin.Check{"db": inst.db.Ping}
	for name := range th.state {
		checks[name] = th.check(name)
	}
	if w, ok := inst.brain.(modelWatch); ok {
		checks["brain"] = w.Health
		m.WatchBrain(func() bool { return w.Health(context.Background()) == nil })
	}
	if inst.meaning != nil {
		checks["embeddings"] = inst.meaning.Health
	}
	if w, ok := inst.media.(healthWatch); ok {
		checks["audio"] = w.Health
	}
	brain := "offline"
	if inst.online {
		brain = "openai-compatible"
	}
	srv, err := admin.New(admin.Config{
		Addr: addr, Token: env.Getenv("HEARTH_ADMIN_TOKEN"), Core: h, Checks: checks,
		Info:    map[string]string{"brain": brain, "persona": inst.persona.Name, "version": version},
		Metrics: m, Logger: inst.log.With("part", "admin"),
	})
	if err != nil {
		// A malformed HEARTH_HTTP_ADDR is a configuration error: no restart fixes it.
		return nil, usageError{fmt.Errorf("HEARTH_HTTP_ADDR: %w", err)}
	}
	return srv, nil
}

// readGauges makes /metrics' token and active-user gauges read the store
// at each scrape (one COUNT and one SUM each), so they are never behind.
func readGauges(ctx context.Context, db *store.DB, p bot.Persona, m *admin.Metrics) {
	loc := p.Timezone
	if loc == nil {
		loc = time.UTC
	}
	m.TokensTodayFrom(func() (int, error) {
		ctx, cancel := context.WithTimeout(ctx, admin.CheckTimeout)
		defer cancel()
		return db.TokensSince(ctx, bot.StartOfDay(time.Now(), loc), "")
	})
	m.ActiveUsersFrom(func() (int, error) {
		ctx, cancel := context.WithTimeout(ctx, admin.CheckTimeout)
		defer cancel()
		return db.CountActiveUsers(ctx, time.Now().Add(-ActiveWindow))
	})
}

// meteredBrain reports the life loop's LLM calls to the metrics (the turn
// engine reports its own).
type meteredBrain struct {
	bot.Brain
	obs bot.Observer
}

func (b meteredBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	resp, err := b.Brain.Complete(ctx, req)
	b.obs.LLM(req.Kind, resp.Usage, resp.Offline, err)
	return resp, err
}

// observeDecision counts a life-loop decision by outcome, and a sent one
// as a sent message: the life loop delivers through the Sender itself.
func observeDecision(obs bot.Observer) func(lifeloop.Decision) {
	return func(d lifeloop.Decision) {
		obs.Proactive(d.Outcome)
		if d.Outcome == lifeloop.OutcomeSent {
			obs.Sent(lifeloop.OutboundKind)
		}
	}
}
