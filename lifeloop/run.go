package lifeloop

import (
	"context"
	"fmt"
	"slices"
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
// With schedule "off" only the Jobs (if any) run.
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
	for _, j := range l.Jobs() {
		c.Schedule(j.Schedule, cron.FuncJob(func() {
			if err := j.Run(ctx, l.cfg.Now()); err != nil && ctx.Err() == nil {
				l.log.Error(j.Name, "err", err)
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

// Job is work the daemon does on its clock besides the persona's ticks,
// at fixed local times: today the daily jobs at DailyJobHour. Jobs is the
// one table of them: Run puts it on cron, and Due replays it on a simulated
// clock (hearth simulate), so the daemon and the simulator cannot drift
// apart.
type Job struct {
	Name     string
	Schedule cron.Schedule // in the persona's time zone
	Run      func(ctx context.Context, now time.Time) error
}

// Jobs is the table of clock jobs this loop runs.
func (l *Loop) Jobs() []Job {
	var jobs []Job
	if l.cfg.Daily != nil {
		jobs = append(jobs, Job{Name: "daily jobs", Schedule: l.daily, Run: l.RunDaily})
	}
	return jobs
}

// Firing is one time a Job is due.
type Firing struct {
	Job Job
	At  time.Time
}

// Due lists every firing of Jobs after from and up to and including to,
// oldest first: what a daemon running from from to to would have run. A
// clock that jumps ahead (a simulated one) runs them in this order, each
// at its own time.
func (l *Loop) Due(from, to time.Time) []Firing {
	var out []Firing
	for _, j := range l.Jobs() {
		for at := j.Schedule.Next(from); !at.IsZero() && !at.After(to); at = j.Schedule.Next(at) {
			out = append(out, Firing{Job: j, At: at})
		}
	}
	slices.SortStableFunc(out, func(a, b Firing) int { return a.At.Compare(b.At) })
	return out
}
