package lifeloop

import (
	"testing"
	"time"

	"hearth/bot"
	"hearth/store"
)

// passingInput is a GateInput every check lets through: a friend who last
// talked a day ago, at noon in Shanghai.
func passingInput(t *testing.T) GateInput {
	t.Helper()
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return GateInput{
		Now:           base, // 12:00 in Shanghai
		Loc:           sh,
		User:          store.User{ID: "telegram:1", Proactive: true},
		Assessment:    Assessment{State: StateFriend},
		Settings:      bot.LifeLoop{QuietStart: 23 * time.Hour, QuietEnd: 8 * time.Hour, MinSilence: 4 * time.Hour, MinState: StateAcquaintance, DailyCap: 2},
		LastMessageAt: base.Add(-24 * time.Hour),
	}
}

func TestGate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*GateInput)
		reason string
	}{
		{"passes", func(in *GateInput) {}, ""},
		{"proactive disabled (/quiet)", func(in *GateInput) { in.User.Proactive = false }, ReasonQuiet},
		{"timed quiet", func(in *GateInput) { in.User.QuietUntil = base.Add(time.Hour) }, ReasonQuietUntil},
		{"timed quiet over", func(in *GateInput) { in.User.QuietUntil = base.Add(-time.Second) }, ""},
		{"unreachable", func(in *GateInput) { in.User.Unreachable = true }, ReasonUnreachable},
		{"watch (seed 003: Watch stops proactive messages)", func(in *GateInput) { in.Assessment.Watch = true }, ReasonWatch},
		{"dependency level 2 (明确边界)", func(in *GateInput) { in.Assessment.DependencyLevel = 2 }, ReasonDependency},
		{"dependency level 3", func(in *GateInput) { in.Assessment.DependencyLevel = 3 }, ReasonDependency},
		{"told today to rest and talk tomorrow", func(in *GateInput) { in.Resting = true }, ReasonResting},
		{"dependency level 1 allowed", func(in *GateInput) { in.Assessment.DependencyLevel = 1 }, ""},
		{"state below min_state", func(in *GateInput) { in.Assessment.State = StateStranger }, ReasonState},
		{"unknown state ranks as stranger", func(in *GateInput) { in.Assessment.State = "lover" }, ReasonState},
		{"state equal to min_state", func(in *GateInput) { in.Assessment.State = StateAcquaintance }, ""},
		{"min_state default is acquaintance", func(in *GateInput) {
			in.Settings.MinState = ""
			in.Assessment.State = StateStranger
		}, ReasonState},
		{"quiet hours (23:30 Shanghai)", func(in *GateInput) { in.Now = at(in.Loc, 23, 30) }, ReasonQuietHours},
		{"quiet hours after midnight (03:00 Shanghai)", func(in *GateInput) { in.Now = at(in.Loc, 3, 0) }, ReasonQuietHours},
		{"quiet hours end is exclusive (08:00 Shanghai)", func(in *GateInput) { in.Now = at(in.Loc, 8, 0) }, ""},
		{"min silence", func(in *GateInput) { in.LastMessageAt = base.Add(-3 * time.Hour) }, ReasonMinSilence},
		{"min silence just met", func(in *GateInput) { in.LastMessageAt = base.Add(-4 * time.Hour) }, ""},
		{"previous proactive unanswered (backoff)", func(in *GateInput) {
			in.LastProactive = &store.Proactive{Outcome: OutcomeSent, At: base.Add(-5 * time.Hour)}
			in.LastMessageAt = in.LastProactive.At
			in.UnansweredStreak = 1
		}, ReasonBackoff},
		{"previous proactive answered", func(in *GateInput) {
			in.LastProactive = &store.Proactive{Outcome: OutcomeSent, At: base.Add(-5 * time.Hour)}
			in.ProactiveAnswered = true
		}, ""},
		{"recently asked, model chose silence", func(in *GateInput) { in.LastAskedAt = base.Add(-time.Hour) }, ReasonRecentlyAsked},
		{"daily cap", func(in *GateInput) { in.SentToday = 2 }, ReasonDailyCap},
		{"daily cap default is 2", func(in *GateInput) {
			in.Settings.DailyCap = 0
			in.SentToday = DefaultDailyCap
		}, ReasonDailyCap},
		{"first failing check wins: quiet before watch", func(in *GateInput) {
			in.User.Proactive = false
			in.Assessment.Watch = true
		}, ReasonQuiet},
		{"first failing check wins: watch before quiet hours", func(in *GateInput) {
			in.Assessment.Watch = true
			in.Now = at(in.Loc, 2, 0)
		}, ReasonWatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := passingInput(t)
			tt.modify(&in)
			ok, reason := Gate(in)
			if reason != tt.reason || ok != (tt.reason == "") {
				t.Fatalf("Gate = (%v, %q), want (%v, %q)", ok, reason, tt.reason == "", tt.reason)
			}
		})
	}
}

// at is base's day at hh:mm in loc.
func at(loc *time.Location, hh, mm int) time.Time {
	l := base.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), hh, mm, 0, 0, loc)
}

// TestGateQuietHoursWrapNonUTC checks a 23:00-08:00 window in Asia/Shanghai
// minute by minute over a day: the window is judged on Shanghai wall-clock
// time, not UTC (in UTC, 23:00 Shanghai is 15:00).
func TestGateQuietHoursWrapNonUTC(t *testing.T) {
	in := passingInput(t)
	start := at(in.Loc, 0, 0)
	for m := 0; m < 24*60; m++ {
		in.Now = start.Add(time.Duration(m) * time.Minute)
		_, reason := Gate(in)
		wantQuiet := m >= 23*60 || m < 8*60
		if (reason == ReasonQuietHours) != wantQuiet {
			t.Fatalf("%s Shanghai (%s UTC): reason %q, want quiet=%v", in.Now.In(in.Loc).Format("15:04"), in.Now.UTC().Format("15:04"), reason, wantQuiet)
		}
	}
	// The same instant seen in UTC would be wrong: 15:30 UTC is 23:30 Shanghai.
	in.Now = time.Date(2026, 3, 4, 15, 30, 0, 0, time.UTC)
	if _, reason := Gate(in); reason != ReasonQuietHours {
		t.Fatalf("15:30 UTC = 23:30 Shanghai: reason %q, want quiet_hours", reason)
	}
}

func TestInQuietHours(t *testing.T) {
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := func(x float64) time.Time { return day.Add(time.Duration(x * float64(time.Hour))) }
	tests := []struct {
		name       string
		t          time.Time
		start, end time.Duration
		want       bool
	}{
		{"none when start == end", h(3), 0, 0, false},
		{"plain window inside", h(13), 12 * time.Hour, 14 * time.Hour, true},
		{"plain window end exclusive", h(14), 12 * time.Hour, 14 * time.Hour, false},
		{"plain window start inclusive", h(12), 12 * time.Hour, 14 * time.Hour, true},
		{"wrap before midnight", h(23.5), 23 * time.Hour, 8 * time.Hour, true},
		{"wrap after midnight", h(7.99), 23 * time.Hour, 8 * time.Hour, true},
		{"wrap outside", h(12), 23 * time.Hour, 8 * time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InQuietHours(tt.t, tt.start, tt.end); got != tt.want {
				t.Fatalf("InQuietHours = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBackoffWait(t *testing.T) {
	b := 4 * time.Hour
	tests := []struct {
		streak int
		want   time.Duration
	}{
		{0, b}, {1, 48 * time.Hour}, {2, 96 * time.Hour}, {3, BackoffCap}, {60, BackoffCap}, {1000, BackoffCap},
	}
	for _, tt := range tests {
		if got := BackoffWait(b, tt.streak); got != tt.want {
			t.Errorf("BackoffWait(4h, %d) = %v, want %v", tt.streak, got, tt.want)
		}
	}
}

// TestGateBackoffDoubles: after n unanswered proactive messages the gate
// waits two days, then four, then a week since the last one, and not a
// minute less.
func TestGateBackoffDoubles(t *testing.T) {
	for streak, wait := range []time.Duration{1: 48 * time.Hour, 2: 96 * time.Hour, 3: BackoffCap, 4: BackoffCap} {
		if streak == 0 {
			continue
		}
		in := passingInput(t)
		in.UnansweredStreak = streak
		// Judge at base (noon in Shanghai, outside quiet hours) and move the
		// time of the last proactive message instead of the clock.
		in.LastProactive = &store.Proactive{Outcome: OutcomeSent}
		in.LastProactive.At = base.Add(-wait + time.Minute)
		in.LastMessageAt = in.LastProactive.At
		if _, reason := Gate(in); reason != ReasonBackoff {
			t.Fatalf("streak %d, %v after: reason %q, want backoff", streak, wait-time.Minute, reason)
		}
		in.LastProactive.At = base.Add(-wait)
		in.LastMessageAt = in.LastProactive.At
		if ok, reason := Gate(in); !ok {
			t.Fatalf("streak %d, %v after: reason %q, want pass", streak, wait, reason)
		}
	}
}

// TestInQuietHoursDST: on New York's spring-forward day (2026-03-08, 02:00
// EST → 03:00 EDT) only seven hours elapse between midnight and 08:00, so a
// window computed from elapsed time would still say "quiet" at 08:00; the
// wall clock must decide.
func TestInQuietHoursDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	start, end := 23*time.Hour, 8*time.Hour
	if got := InQuietHours(time.Date(2026, 3, 8, 12, 0, 0, 0, time.UTC).In(ny), start, end); got {
		t.Fatal("08:00 EDT on the DST day is quiet, want not quiet")
	}
	if got := InQuietHours(time.Date(2026, 3, 8, 11, 59, 0, 0, time.UTC).In(ny), start, end); !got {
		t.Fatal("07:59 EDT on the DST day is not quiet, want quiet")
	}
}
