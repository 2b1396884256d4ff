package lifeloop

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"hearth/store"
)

// bubbleUser is a user who last wrote a day before the synctest clock's now.
func bubbleUser(id string) store.User {
	u := testUser(id)
	u.LastUserAt = time.Now().Add(-24 * time.Hour)
	u.LastBotAt = u.LastUserAt
	return u
}

// TestRunSkipsTicksWhileOneRuns runs the real cron wiring on synctest's fake
// clock with a schedule of every minute (the fastest allowed): the first
// Tick (00:01:00) blocks reading the store while five schedule times pass;
// those firings are dropped (SkipIfStillRunning: without it each would wait
// for the tick lock and run at once on release). After it returns exactly
// one more Tick runs, at the next schedule time, and every later firing
// runs too without asking anyone again: the log's min_silence gate stops
// them.
func TestRunSkipsTicksWhileOneRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The bubble's clock starts at 2000-01-01 00:00:00 UTC = 08:00
		// Shanghai, just after the 23:00-08:00 quiet hours.
		r := newRigWith(t, speakYes, func(c *Config) { c.Persona.LifeLoop.Schedule = "* * * * *" }, bubbleUser("1"))
		release := make(chan struct{})
		r.store.block = release
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.loop.Run(ctx) }()

		time.Sleep(61 * time.Second) // 00:01:01
		synctest.Wait()
		if r.store.lists() != 1 || r.brain.count() != 0 {
			t.Fatalf("at 01:01: ticks %d, calls %d; want the first tick blocked in the store", r.store.lists(), r.brain.count())
		}
		// 02:00 03:00 04:00 05:00 and 06:00 pass while it runs.
		time.Sleep(5*time.Minute + 4*time.Second) // 00:06:05
		synctest.Wait()
		if r.store.lists() != 1 {
			t.Fatalf("ticks while blocked = %d, want 1 (the rest skipped)", r.store.lists())
		}
		close(release)
		synctest.Wait()
		if r.sender.count() != 1 || r.store.lists() != 1 {
			t.Fatalf("after release: sent %d, ticks %d; want 1, 1", r.sender.count(), r.store.lists())
		}
		time.Sleep(56 * time.Second) // 00:07:01: the 00:07:00 firing runs
		synctest.Wait()
		if r.store.lists() != 2 {
			t.Fatalf("after release: ticks %d, want exactly one more (2)", r.store.lists())
		}
		time.Sleep(3*time.Minute + 58*time.Second) // 00:10:59: 08:00 09:00 10:00 run, gated
		synctest.Wait()
		if r.store.lists() != 5 {
			t.Fatalf("ticks by 00:10:59 = %d, want 5 (every firing runs)", r.store.lists())
		}
		if r.brain.count() != 1 || r.sender.count() != 1 {
			t.Fatalf("the extra tick asked again: calls %d, sent %d", r.brain.count(), r.sender.count())
		}
		log := r.store.log("telegram:1")
		if len(log) != 2 || log[0].Outcome != OutcomeSent || log[1].Reason != ReasonMinSilence {
			t.Fatalf("log %+v, want sent then gated/min_silence", log)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run = %v, want nil", err)
		}
	})
}

// TestRunWaitsForRunningTick: cancelling Run while a Tick is inside the LLM
// call returns nil only after that Tick has returned.
func TestRunWaitsForRunningTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRigWith(t, speakYes, func(c *Config) { c.Persona.LifeLoop.Schedule = "@every 1m" }, bubbleUser("1"))
		r.brain.block = make(chan struct{}) // never released: only ctx ends the call
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.loop.Run(ctx) }()
		time.Sleep(time.Minute + time.Second)
		synctest.Wait()
		if r.brain.count() != 1 {
			t.Fatalf("calls %d, want the tick inside the LLM call", r.brain.count())
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run = %v", err)
		}
		if r.brain.returned() != 1 {
			t.Fatal("Run returned before the running tick's LLM call did")
		}
		// The tick saw ctx end: no decision was logged for the interrupted call.
		if log := r.store.log("telegram:1"); len(log) != 0 || r.sender.count() != 0 {
			t.Fatalf("after cancel: log %+v, sent %d", log, r.sender.count())
		}
	})
}

// TestRunRecoversPanic: a panic inside a Tick (here from Assess) is recovered
// by the cron chain, and the next tick runs normally.
func TestRunRecoversPanic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRigWith(t, speakYes, func(c *Config) { c.Persona.LifeLoop.Schedule = "@every 1m" }, bubbleUser("1"))
		var mu sync.Mutex
		calls := 0
		r.loop.cfg.Assess = func(u store.User, now time.Time) Assessment {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if calls == 1 {
				panic("assess exploded")
			}
			return friendAssess(u, now)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.loop.Run(ctx) }()
		time.Sleep(2*time.Minute + time.Second)
		synctest.Wait()
		if r.sender.count() != 1 {
			t.Fatalf("sent %d after a panicking tick and a good one, want 1", r.sender.count())
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run = %v", err)
		}
	})
}

// TestRunDailyOncePerLocalDay runs the daily hook on the fake clock over
// three days: it fires at 04:00 Shanghai each day, once. The firings Due
// lists for those days are exactly those times, so hearth simulate (Due)
// runs what the daemon (Run) does.
func TestRunDailyOncePerLocalDay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var runs []time.Time
		r := newRigWith(t, speakYes, func(c *Config) {
			c.Persona.LifeLoop.Schedule = "off"
			c.Daily = func(ctx context.Context, now time.Time) error {
				mu.Lock()
				defer mu.Unlock()
				runs = append(runs, now)
				return nil
			}
		})
		start := time.Now()
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.loop.Run(ctx) }()
		time.Sleep(3 * 24 * time.Hour)
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run = %v", err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(runs) != 3 {
			t.Fatalf("daily runs %v, want 3 in three days", runs)
		}
		for _, at := range runs {
			if l := at.In(r.loop.loc); l.Hour() != DailyJobHour || l.Minute() != 0 {
				t.Fatalf("daily ran at %v local, want %02d:00", l, DailyJobHour)
			}
		}
		due := r.loop.Due(start, time.Now())
		if len(due) != len(runs) {
			t.Fatalf("Due lists %d firings, Run ran %d times", len(due), len(runs))
		}
		for i, f := range due {
			if !f.At.Equal(runs[i]) || f.Job.Name != "daily jobs" {
				t.Errorf("firing %d: Due says %s at %v, Run ran at %v", i, f.Job.Name, f.At, runs[i])
			}
		}
		if got := r.loop.Due(due[0].At, due[0].At); len(got) != 0 {
			t.Errorf("Due(t, t) = %v: from is exclusive", got)
		}
		if got := r.loop.Due(due[0].At.Add(-time.Nanosecond), due[0].At); len(got) != 1 {
			t.Errorf("Due up to a firing's own time = %v: to is inclusive", got)
		}
		if r.store.lists() != 0 {
			t.Fatalf("schedule off but %d ticks ran", r.store.lists())
		}
	})
}

func TestRunDailyDirect(t *testing.T) {
	n := 0
	fail := errors.New("cleanup failed")
	var next error
	r := newRigWith(t, speakYes, func(c *Config) {
		c.Daily = func(ctx context.Context, now time.Time) error {
			n++
			return next
		}
	})
	ctx := t.Context()
	next = fail
	if err := r.loop.RunDaily(ctx, base); !errors.Is(err, fail) {
		t.Fatalf("RunDaily = %v, want the hook's error", err)
	}
	next = nil
	if err := r.loop.RunDaily(ctx, base.Add(time.Hour)); err != nil || n != 2 {
		t.Fatalf("retry after failure: err %v, runs %d; want a second run", err, n)
	}
	if err := r.loop.RunDaily(ctx, base.Add(2*time.Hour)); err != nil || n != 2 {
		t.Fatalf("same local day: runs %d, want still 2", n)
	}
	// base is 12:00 Shanghai; +12h is 00:00 the next Shanghai day (still the
	// same UTC day): the local day decides.
	if err := r.loop.RunDaily(ctx, base.Add(12*time.Hour)); err != nil || n != 3 {
		t.Fatalf("next local day: runs %d, want 3", n)
	}
}

// TestRunReturnsNilOnCancel uses the real clock: Run must return nil soon
// after ctx ends (goleak in TestMain checks nothing is left behind).
func TestRunReturnsNilOnCancel(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.loop.Run(ctx) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}
