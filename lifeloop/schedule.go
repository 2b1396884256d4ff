package lifeloop

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// ScheduleOff is the persona's schedule value that disables the loop
// (DESIGN §9 persona keys: "`off` disables the loop").
const ScheduleOff = "off"

// DefaultSchedule is used when the persona names no schedule; chosen by us:
// every half hour is fine-grained enough for quiet hours and min_silence of
// hours, and the gate makes most ticks free.
const DefaultSchedule = "@every 30m"

// DailyJobHour is the local hour (persona time zone) of the daily jobs;
// chosen by us: 04:00 is after seed 003 §6.1's late-night window (22:00-5:00)
// has mostly passed for the previous day and before most users wake.
const DailyJobHour = 4

// scheduleParser accepts the persona's cron specs (DESIGN §9: "cron with
// optional seconds or `@every 30m`").
func scheduleParser() cron.Parser {
	return cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour |
		cron.Dom | cron.Month | cron.Dow | cron.Descriptor)
}

// ParseSchedule parses a persona schedule in loc (the persona's time zone,
// nil means UTC). "off" returns a nil schedule and a nil error. The cron
// parser panics on some malformed specs (a bare "CRON_TZ=UTC"); that panic
// becomes an error naming the spec, so a bad persona fails at start-up with
// a message instead of crashing.
func ParseSchedule(spec string, loc *time.Location) (sched cron.Schedule, err error) {
	spec = strings.TrimSpace(spec)
	if strings.EqualFold(spec, ScheduleOff) {
		return nil, nil
	}
	if spec == "" {
		return nil, fmt.Errorf("parse schedule %q: empty (use %q to disable the loop)", spec, ScheduleOff)
	}
	if loc == nil {
		loc = time.UTC
	}
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, fmt.Errorf("parse schedule %q: malformed spec (%v)", spec, r)
		}
	}()
	s, err := scheduleParser().Parse(spec)
	if err != nil {
		return nil, fmt.Errorf("parse schedule %q: %w", spec, err)
	}
	// A spec without its own CRON_TZ= prefix runs in the persona's zone.
	if ss, ok := s.(*cron.SpecSchedule); ok && !strings.HasPrefix(spec, "TZ=") && !strings.HasPrefix(spec, "CRON_TZ=") {
		ss.Location = loc
	}
	return s, nil
}

// dailySchedule fires once a day at DailyJobHour:00 in loc.
func dailySchedule(loc *time.Location) (cron.Schedule, error) {
	return ParseSchedule(fmt.Sprintf("0 0 %d * * *", DailyJobHour), loc)
}

// cronLogger adapts slog to cron.Logger: cron's chatty Info lines go to
// Debug, errors (recovered panics) to Error.
type cronLogger struct{ l *slog.Logger }

// Info implements cron.Logger.
func (c cronLogger) Info(msg string, kv ...any) {
	c.l.Debug("cron: "+msg, kv...)
}

// Error implements cron.Logger.
func (c cronLogger) Error(err error, msg string, kv ...any) {
	c.l.Error("cron: "+msg, append([]any{"err", err}, kv...)...)
}
