package lifeloop

import (
	"fmt"
	"log/slog"
	"math/bits"
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

// MinInterval is the shortest time a schedule may leave between two ticks;
// hearth's choice: the gate's finest settings (quiet hours in minutes,
// min_silence in hours) need no more, and a faster loop only burns the
// store and, past the gate, tokens. Schedules that fire more often ("@every
// 0s", "@every -5m", "*/10 * * * * *") are errors, not silently ticked
// every second as cron would.
const MinInterval = time.Minute

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
	if d, ok := strings.CutPrefix(spec, "@every "); ok {
		// cron turns any interval under a second, negative ones included,
		// into one second; judge what the persona wrote instead.
		if every, err := time.ParseDuration(strings.TrimSpace(d)); err == nil && every < MinInterval {
			return nil, fmt.Errorf("schedule %q: %s between ticks is less than the minimum of %v (e.g. \"@every 30m\")", spec, strings.TrimSpace(d), MinInterval)
		}
	}
	s, err := scheduleParser().Parse(spec)
	if err != nil {
		return nil, fmt.Errorf("parse schedule %q: %w", spec, err)
	}
	if n := firesPerMinute(s); n > 1 {
		return nil, fmt.Errorf("schedule %q fires %d times a minute; at most once a minute is allowed (e.g. \"0 * * * * *\" or \"*/5 * * * *\")", spec, n)
	}
	// A spec without its own CRON_TZ= prefix runs in the persona's zone.
	if ss, ok := s.(*cron.SpecSchedule); ok && !strings.HasPrefix(spec, "TZ=") && !strings.HasPrefix(spec, "CRON_TZ=") {
		ss.Location = loc
	}
	return s, nil
}

// firesPerMinute is how many times s can fire within one minute: the number
// of seconds a cron spec names (a five-field spec names second 0 only).
// "@every" intervals are judged before parsing, in ParseSchedule.
func firesPerMinute(s cron.Schedule) int {
	if s, ok := s.(*cron.SpecSchedule); ok {
		return bits.OnesCount64(s.Second & secondBits)
	}
	return 1
}

// secondBits masks a cron.SpecSchedule's Second field to seconds 0-59
// (the library keeps a "*" marker in bit 63).
const secondBits = 1<<60 - 1

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
