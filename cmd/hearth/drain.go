package main

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// DrainLogEvery is how often a stop that is still draining says what it
// waits for (hearth's choice: a turn on a hung model can hold the drain for
// a reply's 90 s deadline, DESIGN §9, and an operator watching a slow
// `systemctl stop` should see it move well within systemd's default 90 s
// stop timeout; a line every 5 s is about a dozen lines at worst).
const DrainLogEvery = 5 * time.Second

// drainLogged runs wait, the daemon's wait for in-flight work, and until it
// returns logs every interval what inFlight still reports, so a slow stop
// shows that it moves. The ticker's goroutine is owned here and has ended
// when drainLogged returns.
func drainLogged(log *slog.Logger, every time.Duration, inFlight func() (turns, reflections int), wait func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		began := time.Now()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			turns, reflections := inFlight()
			log.Info("stopping: still draining", "turns", turns, "reflections", reflections,
				"waited", time.Since(began).Round(time.Second))
		}
	})
	defer wg.Wait()
	defer cancel()
	wait()
}
