package admin_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"hearth/bot"
	"hearth/bot/admin"
)

// sample finds one series of name whose labels include all of want.
func sample(t *testing.T, m *admin.Metrics, name string, want map[string]string) *dto.Metric {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
	next:
		for _, s := range f.GetMetric() {
			got := map[string]string{}
			for _, l := range s.GetLabel() {
				got[l.GetName()] = l.GetValue()
			}
			for k, v := range want {
				if got[k] != v {
					continue next
				}
			}
			return s
		}
	}
	t.Fatalf("no series %s%v", name, want)
	return nil
}

func TestMetricsObserver(t *testing.T) {
	m := admin.NewMetrics()
	var obs bot.Observer = m

	obs.Turn(1500 * time.Millisecond)
	obs.Turn(10 * time.Millisecond)
	obs.Stage("perceive", 20*time.Millisecond)
	obs.LLM(bot.KindReply, bot.Usage{PromptTokens: 100, CachedTokens: 64, CompletionTokens: 30}, false, nil)
	obs.LLM(bot.KindReply, bot.Usage{PromptTokens: 7}, true, nil)
	obs.LLM(bot.KindPerception, bot.Usage{}, false, errors.New("timeout"))
	obs.Error("turn")
	obs.Sent("reply")
	obs.Sent("reply")
	obs.Reflection(nil)
	obs.Reflection(errors.New("x"))
	obs.Proactive("silent")
	obs.BudgetExhausted(true)
	active := 12
	m.ActiveUsersFrom(func() (int, error) { return active, nil })
	m.TokensTodayFrom(func() (int, error) { return 3456, nil })
	obs.Media(bot.UsageTranscription, 7, nil)
	obs.Media(bot.UsageTranscription, 0, errors.New("404"))
	obs.Media(bot.UsageTranscription, 0, fmt.Errorf("failing, not asked again yet: %w: %w", bot.ErrSenseDown, bot.ErrSenseOff))
	obs.Media(bot.UsageSpeech, 42, nil)
	obs.Media(bot.UsageImage, 1, nil)
	up := false
	m.WatchBrain(func() bool { return up })

	counter := func(name string, labels map[string]string) float64 {
		return sample(t, m, name, labels).GetCounter().GetValue()
	}
	gauge := func(name string) float64 { return sample(t, m, name, nil).GetGauge().GetValue() }
	for _, c := range []struct {
		what string
		got  float64
		want float64
	}{
		{"turns", counter("hearth_turns_total", nil), 2},
		{"turn seconds count", float64(sample(t, m, "hearth_turn_seconds", nil).GetHistogram().GetSampleCount()), 2},
		{"turn seconds sum", sample(t, m, "hearth_turn_seconds", nil).GetHistogram().GetSampleSum(), 1.51},
		{"stage count", float64(sample(t, m, "hearth_stage_seconds", map[string]string{"stage": "perceive"}).GetHistogram().GetSampleCount()), 1},
		{"reply ok online", counter("hearth_llm_calls_total", map[string]string{"kind": "reply", "outcome": "ok", "brain": "online"}), 1},
		{"reply ok offline", counter("hearth_llm_calls_total", map[string]string{"kind": "reply", "outcome": "ok", "brain": "offline"}), 1},
		{"perception error", counter("hearth_llm_calls_total", map[string]string{"kind": "perception", "outcome": "error", "brain": "online"}), 1},
		{"lifeloop pre-created", counter("hearth_llm_calls_total", map[string]string{"kind": "lifeloop", "outcome": "ok", "brain": "online"}), 0},
		{"prompt tokens", counter("hearth_llm_tokens_total", map[string]string{"kind": "reply", "type": "prompt"}), 107},
		{"cached tokens", counter("hearth_llm_tokens_total", map[string]string{"kind": "reply", "type": "cached"}), 64},
		{"completion tokens", counter("hearth_llm_tokens_total", map[string]string{"kind": "reply", "type": "completion"}), 30},
		{"brain down", gauge("hearth_brain_up"), 0},
		{"errors", counter("hearth_errors_total", map[string]string{"kind": "turn"}), 1},
		{"sent", counter("hearth_messages_sent_total", map[string]string{"kind": "reply"}), 2},
		{"reflections ok", counter("hearth_reflections_total", map[string]string{"outcome": "ok"}), 1},
		{"reflections error", counter("hearth_reflections_total", map[string]string{"outcome": "error"}), 1},
		{"proactive", counter("hearth_proactive_decisions_total", map[string]string{"outcome": "silent"}), 1},
		{"budget", gauge("hearth_budget_exhausted"), 1},
		{"active users", gauge("hearth_active_users"), 12},
		{"tokens today", gauge("hearth_tokens_today"), 3456},
		{"transcriptions ok", counter("hearth_media_calls_total", map[string]string{"kind": "transcription", "outcome": "ok"}), 1},
		{"transcriptions failed", counter("hearth_media_calls_total", map[string]string{"kind": "transcription", "outcome": "error"}), 1},
		{"a voice note while the server is known down is no failed call", counter("hearth_media_calls_total", map[string]string{"kind": "transcription", "outcome": "skipped"}), 1},
		{"skipped speech pre-created", counter("hearth_media_calls_total", map[string]string{"kind": "speech", "outcome": "skipped"}), 0},
		{"transcribed seconds", counter("hearth_media_units_total", map[string]string{"kind": "transcription"}), 7},
		{"spoken characters", counter("hearth_media_units_total", map[string]string{"kind": "speech"}), 42},
		{"image inputs", counter("hearth_media_units_total", map[string]string{"kind": "image"}), 1},
	} {
		if diff := c.got - c.want; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	obs.BudgetExhausted(false)
	if g := gauge("hearth_budget_exhausted"); g != 0 {
		t.Errorf("budget after reset %v", g)
	}
	up = true
	if g := gauge("hearth_brain_up"); g != 1 {
		t.Errorf("brain up gauge %v, want 1 once the model is back", g)
	}
	// The source gauges are read at each scrape, and a failed read keeps
	// the last good value.
	active = 13
	if g := gauge("hearth_active_users"); g != 13 {
		t.Errorf("active users after the source changed: %v, want 13 at once", g)
	}
	m.ActiveUsersFrom(func() (int, error) { return 0, errors.New("db busy") })
	if g := gauge("hearth_active_users"); g != 13 {
		t.Errorf("active users after a failed read: %v, want the last good 13", g)
	}
	// Every hearth metric carries the hearth_ prefix and a help text.
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fams {
		if strings.HasPrefix(f.GetName(), "hearth_") {
			names = append(names, f.GetName())
			if f.GetHelp() == "" {
				t.Errorf("%s has no help", f.GetName())
			}
		}
	}
	sort.Strings(names)
	if len(names) != 15 {
		t.Errorf("hearth metrics %v, want 15", names)
	}
}

// Two Metrics never collide: each has its own registry, not the global one.
func TestMetricsPrivateRegistry(t *testing.T) {
	a, b := admin.NewMetrics(), admin.NewMetrics()
	a.Turn(time.Millisecond)
	if v := sample(t, b, "hearth_turns_total", nil).GetCounter().GetValue(); v != 0 {
		t.Errorf("second Metrics sees the first one's turn: %v", v)
	}
}

func BenchmarkMetricsLLM(b *testing.B) {
	m := admin.NewMetrics()
	u := bot.Usage{PromptTokens: 100, CompletionTokens: 20}
	for b.Loop() {
		m.LLM(bot.KindReply, u, false, nil)
	}
}
