package lifeloop

import (
	"strings"
	"testing"
	"time"

	"hearth/bot"
)

func TestParseSchedule(t *testing.T) {
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 3, 4, 9, 7, 3, 0, sh) // 09:07:03 Shanghai
	tests := []struct {
		name string
		spec string
		want []time.Time // the next two activations after from
		off  bool
		err  string
	}{
		{name: "every 30m", spec: "@every 30m", want: []time.Time{from.Add(30 * time.Minute), from.Add(time.Hour)}},
		{name: "every two hours, five fields, persona zone", spec: "0 */2 * * *",
			want: []time.Time{time.Date(2026, 3, 4, 10, 0, 0, 0, sh), time.Date(2026, 3, 4, 12, 0, 0, 0, sh)}},
		{name: "every minute at second 30, six fields", spec: "30 * * * * *",
			want: []time.Time{time.Date(2026, 3, 4, 9, 7, 30, 0, sh), time.Date(2026, 3, 4, 9, 8, 30, 0, sh)}},
		{name: "every minute, five fields", spec: "* * * * *",
			want: []time.Time{time.Date(2026, 3, 4, 9, 8, 0, 0, sh), time.Date(2026, 3, 4, 9, 9, 0, 0, sh)}},
		{name: "every 90s", spec: "@every 90s", want: []time.Time{from.Add(90 * time.Second), from.Add(3 * time.Minute)}},
		{name: "every minute exactly", spec: "@every 1m", want: []time.Time{from.Add(time.Minute), from.Add(2 * time.Minute)}},
		// Faster than once a minute: refused, naming what was written.
		{name: "negative every", spec: "@every -5m", err: `"@every -5m": -5m between ticks is less than the minimum of 1m0s`},
		{name: "zero every", spec: "@every 0s", err: `"@every 0s": 0s between ticks`},
		{name: "millisecond every", spec: "@every 1ms", err: `"@every 1ms": 1ms between ticks`},
		{name: "59 seconds", spec: "@every 59s", err: `"@every 59s": 59s between ticks`},
		{name: "every ten seconds, six fields", spec: "*/10 * * * * *", err: `"*/10 * * * * *" fires 6 times a minute`},
		{name: "twice a minute", spec: "0,30 */5 * * * *", err: `fires 2 times a minute`},
		{name: "every second", spec: "* * * * * *", err: `fires 60 times a minute`},
		{name: "descriptor", spec: "@daily",
			want: []time.Time{time.Date(2026, 3, 5, 0, 0, 0, 0, sh), time.Date(2026, 3, 6, 0, 0, 0, 0, sh)}},
		{name: "own CRON_TZ wins", spec: "CRON_TZ=UTC 0 0 * * *",
			want: []time.Time{time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 6, 0, 0, 0, 0, time.UTC)}},
		{name: "off", spec: "off", off: true},
		{name: "OFF with spaces", spec: "  OFF ", off: true},
		{name: "bare CRON_TZ panics inside cron", spec: "CRON_TZ=UTC", err: `"CRON_TZ=UTC"`},
		{name: "bare TZ", spec: "TZ=Asia/Shanghai", err: `"TZ=Asia/Shanghai"`},
		{name: "not a cron", spec: "not a cron", err: `"not a cron"`},
		{name: "too many fields", spec: "0 0 0 0 0 0 0", err: `"0 0 0 0 0 0 0"`},
		{name: "empty", spec: "", err: "empty"},
		{name: "bad every", spec: "@every banana", err: `"@every banana"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSchedule(tt.spec, sh)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseSchedule(%q) = %v, %v; want an error containing %s", tt.spec, s, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSchedule(%q): %v", tt.spec, err)
			}
			if tt.off {
				if s != nil {
					t.Fatalf("ParseSchedule(%q) = %v, want nil (off)", tt.spec, s)
				}
				return
			}
			n1 := s.Next(from)
			n2 := s.Next(n1)
			if !n1.Equal(tt.want[0]) || !n2.Equal(tt.want[1]) {
				t.Fatalf("next = %v, %v; want %v, %v", n1, n2, tt.want[0], tt.want[1])
			}
		})
	}
}

func TestDailyScheduleAtFourLocal(t *testing.T) {
	sh, _ := time.LoadLocation("Asia/Shanghai")
	s, err := dailySchedule(sh)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Next(time.Date(2026, 3, 4, 12, 0, 0, 0, sh))
	if want := time.Date(2026, 3, 5, DailyJobHour, 0, 0, 0, sh); !got.Equal(want) {
		t.Fatalf("daily next = %v, want %v", got, want)
	}
}

func TestNewValidates(t *testing.T) {
	good := func() Config {
		return Config{
			Store: newMemStore(), Brain: &fakeBrain{}, Assess: friendAssess, Forbidden: forbiddenZH,
			Persona: bot.Persona{LifeLoop: bot.LifeLoop{Schedule: "@every 30m"}},
		}
	}
	tests := []struct {
		name   string
		modify func(*Config)
		err    string
	}{
		{"valid", func(c *Config) {}, ""},
		{"empty schedule uses the default", func(c *Config) { c.Persona.LifeLoop.Schedule = "" }, ""},
		{"off", func(c *Config) { c.Persona.LifeLoop.Schedule = "off" }, ""},
		{"bad schedule named", func(c *Config) { c.Persona.LifeLoop.Schedule = "CRON_TZ=UTC" }, `lifeloop.schedule: parse schedule "CRON_TZ=UTC"`},
		{"bad min_state", func(c *Config) { c.Persona.LifeLoop.MinState = "lover" }, `min_state "lover"`},
		{"negative cap", func(c *Config) { c.Persona.LifeLoop.DailyCap = -1 }, "daily_cap"},
		{"quiet hours out of range", func(c *Config) { c.Persona.LifeLoop.QuietStart = 25 * time.Hour }, "quiet_hours"},
		{"no store", func(c *Config) { c.Store = nil }, "Store is required"},
		{"no brain", func(c *Config) { c.Brain = nil }, "Brain is required"},
		{"no assess", func(c *Config) { c.Assess = nil }, "Assess is required"},
		{"no forbidden filter", func(c *Config) { c.Forbidden = nil }, "Forbidden is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := good()
			tt.modify(&c)
			l, err := New(c)
			if tt.err == "" {
				if err != nil || l == nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("New = %v, want an error containing %q", err, tt.err)
			}
		})
	}
}

func TestNewOffHasNoSchedule(t *testing.T) {
	l, err := New(Config{Store: newMemStore(), Brain: &fakeBrain{}, Assess: friendAssess, Forbidden: forbiddenZH,
		Persona: bot.Persona{LifeLoop: bot.LifeLoop{Schedule: "off"}}})
	if err != nil {
		t.Fatal(err)
	}
	if l.schedule != nil {
		t.Fatal("schedule off still scheduled")
	}
	// Tick still works when called directly (hearth simulate's `tick: lifeloop`).
	if _, err := l.Tick(t.Context(), base); err != nil {
		t.Fatal(err)
	}
}
