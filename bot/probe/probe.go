// Package probe finds out, in the background, when a server found down is
// back: the brain's circuit breaker (bot/brain) and the audio server's
// health (bot/media) share it. A caller that sees the server fail calls
// Wake; Run then asks the server at waits doubling from First to Max until
// a probe answers or the caller no longer needs one, and reports it up.
// Without Run nothing probes, so /healthz would stay red until the next
// real call.
package probe

import (
	"context"
	"log/slog"
	"time"
)

// Loop is one server's background probe. Set its fields before Run starts;
// Wake may be called from any goroutine at any time.
type Loop struct {
	// First is the wait before the first probe of a round; each failed
	// probe doubles it up to Max.
	First, Max time.Duration
	// Timeout bounds one probe.
	Timeout time.Duration
	// Probe asks the server once; nil means it answered.
	Probe func(ctx context.Context) error
	// Down reports whether there is still something to find out; it is
	// asked before each probe, and false ends the round (the server came
	// back through a real call, or only a real call can tell).
	Down func() bool
	// Up is called after a probe answered; it must check its own state
	// again, as a real call may have changed it meanwhile.
	Up func()
	// Log gets one Debug line per failed probe; nil discards them.
	Log *slog.Logger
	// What names the server in those lines ("model", "audio server").
	What string

	wake chan struct{}
}

// New returns a loop with its fields from l, ready for Wake and Run.
func New(l Loop) *Loop {
	l.wake = make(chan struct{}, 1)
	if l.Log == nil {
		l.Log = slog.New(slog.DiscardHandler)
	}
	return &l
}

// Wake starts a round of probes if Run is waiting, and does nothing when a
// round is already under way or pending. It never blocks.
func (l *Loop) Wake() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Run probes whenever woken, until ctx ends.
func (l *Loop) Run(ctx context.Context) {
	t := time.NewTimer(l.First)
	t.Stop() // armed by each round (Go 1.23 timers: no stale tick survives Stop or Reset)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.wake:
		}
		l.round(ctx, t)
	}
}

// round probes at waits doubling from First to Max until the server
// answers, Down says there is nothing left to find out, or ctx ends. It
// reuses Run's timer.
func (l *Loop) round(ctx context.Context, t *time.Timer) {
	wait := l.First
	t.Reset(wait)
	for {
		if !l.Down() {
			t.Stop()
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, l.Timeout)
		err := l.Probe(pctx)
		cancel()
		if err == nil {
			l.Up()
			return
		}
		wait = min(2*wait, l.Max)
		l.Log.Debug(l.What+" probe failed", "err", err, "next_in", wait)
		t.Reset(wait)
	}
}
