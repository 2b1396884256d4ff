package lifeloop

import (
	"context"
	"fmt"
	"time"

	"github.com/robfig/cron/v3"
)

// Run drives Tick on the persona's schedule and the daily jobs at
// DailyJobHour, both in the persona's time zone, until ctx ends; then it
// stops the scheduler, waits for a running Tick or daily job to return (they
// see the same ctx, so they return promptly) and returns nil.
//
// Missed ticks coalesce: cron runs an overdue entry once however many of its
// times were missed, SkipIfStillRunning drops firings while the previous
// Tick still runs, and Tick itself skips a second pass in the same minute.
// A panic in a job is recovered and logged, and the loop goes on.
//
// With schedule "off" only the daily jobs (if any) run.
func (l *Loop) Run(ctx context.Context) error {
	logger := cronLogger{l.log}
	c := cron.New(
		cron.WithLocation(l.loc),
		cron.WithLogger(logger),
		// Skip wraps Recover, not the other way round: SkipIfStillRunning
		// hands its token back only when the job returns, so a panic that
		// escaped it would skip every later tick (TestRunRecoversPanic).
		cron.WithChain(cron.SkipIfStillRunning(logger), cron.Recover(logger)),
	)
	if l.schedule != nil {
		c.Schedule(l.schedule, cron.FuncJob(func() {
			now := l.cfg.Now()
			rep, err := l.Tick(ctx, now)
			if err != nil {
				if ctx.Err() == nil {
					l.log.Error("tick", "err", err)
				}
				return
			}
			l.log.Debug("tick", "decisions", len(rep.Decisions), "llm_calls", rep.LLMCalls)
		}))
	}
	if l.cfg.Daily != nil {
		c.Schedule(l.daily, cron.FuncJob(func() {
			if err := l.RunDaily(ctx, l.cfg.Now()); err != nil && ctx.Err() == nil {
				l.log.Error("daily jobs", "err", err)
			}
		}))
	}
	c.Start()
	<-ctx.Done()
	<-c.Stop().Done()
	return nil
}

// RunDaily runs Config.Daily for the persona's local day of now, at most once
// per local day: a second call on the same day returns nil without running
// it, so a restart or a late duplicate firing repeats nothing. A failed run
// is not remembered, so a later call the same day retries it.
func (l *Loop) RunDaily(ctx context.Context, now time.Time) error {
	if l.cfg.Daily == nil {
		return nil
	}
	l.dailyMu.Lock()
	defer l.dailyMu.Unlock()
	day := now.In(l.loc).Format(time.DateOnly)
	if day == l.lastDaily {
		return nil
	}
	if err := l.cfg.Daily(ctx, now); err != nil {
		return fmt.Errorf("daily jobs %s: %w", day, err)
	}
	l.lastDaily = day
	return nil
}
