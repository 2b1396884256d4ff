package admin

import (
	"errors"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"hearth/bot"
)

// Histogram buckets for turn and stage durations. Chosen by us: 5 ms doubling
// fifteen times reaches ~82 s, just under the 90 s reply deadline of DESIGN §9
// "Default LLM deadlines"; anything slower lands in +Inf.
const (
	bucketStart  = 0.005 // seconds; a stage of an offline turn
	bucketFactor = 2
	bucketCount  = 15
)

// Label values of the metrics; part of what dashboards query.
const (
	outcomeOK    = "ok"
	outcomeError = "error"
	// outcomeSkipped is a media call not made: its endpoint is known down
	// or resting after a 404 (bot.ErrSenseDown), so the note or reply was
	// answered at once without a request.
	outcomeSkipped = "skipped"
	brainOnline    = "online"
	brainOffline   = "offline"
	tokPrompt      = "prompt"
	tokCached      = "cached" // of prompt: read from the server's prefix cache
	tokComplete    = "completion"
)

// Metrics is hearth's Prometheus instrumentation. It implements bot.Observer
// so the turn engine reports into it, and it owns a private registry so two
// instances (or tests) never collide on the global default registry.
type Metrics struct {
	reg          *prometheus.Registry
	turns        prometheus.Counter
	turnSeconds  prometheus.Histogram
	stageSeconds *prometheus.HistogramVec
	llmCalls     *prometheus.CounterVec
	llmTokens    *prometheus.CounterVec
	errors       *prometheus.CounterVec
	sent         *prometheus.CounterVec
	reflections  *prometheus.CounterVec
	proactive    *prometheus.CounterVec
	budgetOut    prometheus.Gauge
	activeUsers  sourceGauge
	tokensToday  sourceGauge
	mediaCalls   *prometheus.CounterVec
	mediaUnits   *prometheus.CounterVec
}

var _ bot.Observer = (*Metrics)(nil)

// NewMetrics builds the metrics on a fresh registry that also carries the Go
// runtime and process collectors, so one scrape shows hearth and its process.
func NewMetrics() *Metrics {
	buckets := prometheus.ExponentialBuckets(bucketStart, bucketFactor, bucketCount)
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		turns: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hearth_turns_total", Help: "Turns run (messages that went through DESIGN §3).",
		}),
		turnSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "hearth_turn_seconds", Help: "Duration of a whole turn.", Buckets: buckets,
		}),
		stageSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "hearth_stage_seconds", Help: "Duration of one stage of a turn.", Buckets: buckets,
		}, []string{"stage"}),
		llmCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_llm_calls_total", Help: "LLM calls by kind, outcome and brain.",
		}, []string{"kind", "outcome", "brain"}),
		llmTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_llm_tokens_total",
			Help: "LLM tokens spent by kind and type (prompt, completion; cached counts the prompt tokens the server read from its prefix cache).",
		}, []string{"kind", "type"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_errors_total", Help: "Errors the turn engine recovered from, by kind.",
		}, []string{"kind"}),
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_messages_sent_total", Help: "Messages delivered to users, by kind.",
		}, []string{"kind"}),
		reflections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_reflections_total", Help: "Reflections run, by outcome.",
		}, []string{"outcome"}),
		proactive: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_proactive_decisions_total", Help: "Life-loop decisions, by outcome.",
		}, []string{"outcome"}),
		budgetOut: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "hearth_budget_exhausted", Help: "1 while the daily token budget is spent (DESIGN §8).",
		}),
		mediaCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_media_calls_total", Help: "Transcriptions, speech and image inputs, by kind and outcome (DESIGN §12).",
		}, []string{"kind", "outcome"}),
		mediaUnits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_media_units_total", Help: "What media calls consumed: seconds transcribed, characters spoken, images shown.",
		}, []string{"kind"}),
	}
	m.reg.MustRegister(
		m.turns, m.turnSeconds, m.stageSeconds, m.llmCalls, m.llmTokens, m.errors,
		m.sent, m.reflections, m.proactive, m.budgetOut, m.mediaCalls, m.mediaUnits,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "hearth_active_users", Help: "Users hearth currently knows as active, read at each scrape.",
		}, m.activeUsers.value),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "hearth_tokens_today", Help: "LLM tokens spent today against the daily budget, read at each scrape.",
		}, m.tokensToday.value),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	// Pre-create the call series so a dashboard sees zeros, not gaps, before
	// the first call of a kind.
	for _, k := range []bot.Kind{bot.KindPerception, bot.KindReply, bot.KindReflect, bot.KindLifeLoop} {
		for _, o := range []string{outcomeOK, outcomeError} {
			for _, b := range []string{brainOnline, brainOffline} {
				m.llmCalls.WithLabelValues(string(k), o, b)
			}
		}
	}
	for _, k := range []string{bot.UsageTranscription, bot.UsageSpeech, bot.UsageImage} {
		m.mediaUnits.WithLabelValues(k)
		for _, o := range []string{outcomeOK, outcomeError, outcomeSkipped} {
			m.mediaCalls.WithLabelValues(k, o)
		}
	}
	return m
}

// Registry is the private registry, for /metrics and for callers that want
// to add their own collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Turn records one finished turn.
func (m *Metrics) Turn(d time.Duration) {
	m.turns.Inc()
	m.turnSeconds.Observe(d.Seconds())
}

// Stage records the duration of one stage of a turn.
func (m *Metrics) Stage(stage string, d time.Duration) {
	m.stageSeconds.WithLabelValues(stage).Observe(d.Seconds())
}

// LLM records one LLM call and the tokens it spent.
func (m *Metrics) LLM(kind bot.Kind, u bot.Usage, offline bool, err error) {
	b := brainOnline
	if offline {
		b = brainOffline
	}
	m.llmCalls.WithLabelValues(string(kind), outcome(err), b).Inc()
	if u.PromptTokens > 0 {
		m.llmTokens.WithLabelValues(string(kind), tokPrompt).Add(float64(u.PromptTokens))
	}
	if u.CachedTokens > 0 {
		m.llmTokens.WithLabelValues(string(kind), tokCached).Add(float64(u.CachedTokens))
	}
	if u.CompletionTokens > 0 {
		m.llmTokens.WithLabelValues(string(kind), tokComplete).Add(float64(u.CompletionTokens))
	}
}

// WatchBrain exports hearth_brain_up: 1 while the model is reachable as
// far as the circuit breaker knows, read from healthy at each scrape.
func (m *Metrics) WatchBrain(healthy func() bool) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "hearth_brain_up", Help: "1 while the model answers; 0 while the offline brain stands in for it.",
	}, func() float64 {
		if healthy() {
			return 1
		}
		return 0
	}))
}

// Error records an error the engine recovered from.
func (m *Metrics) Error(kind string) { m.errors.WithLabelValues(kind).Inc() }

// Sent records one message delivered to a user.
func (m *Metrics) Sent(kind string) { m.sent.WithLabelValues(kind).Inc() }

// Reflection records one reflection and whether it worked.
func (m *Metrics) Reflection(err error) { m.reflections.WithLabelValues(outcome(err)).Inc() }

// Proactive records one life-loop decision (e.g. "spoke", "silent", a gate).
func (m *Metrics) Proactive(outcome string) { m.proactive.WithLabelValues(outcome).Inc() }

// BudgetExhausted sets the budget gauge to 1 while the budget is spent, so
// an alert can fire on DESIGN §8's "says so in /metrics".
func (m *Metrics) BudgetExhausted(exhausted bool) {
	if exhausted {
		m.budgetOut.Set(1)
		return
	}
	m.budgetOut.Set(0)
}

// Media records one media call and what it consumed: seconds transcribed
// (bot.UsageTranscription), characters spoken (bot.UsageSpeech) or images
// shown to the model (bot.UsageImage). A call the senses did not make
// (bot.ErrSenseDown) is "skipped", not an error: an outage counts its
// failed calls once, not every voice note that arrives during it.
func (m *Metrics) Media(kind string, units int, err error) {
	o := outcome(err)
	if errors.Is(err, bot.ErrSenseDown) {
		o = outcomeSkipped
	}
	m.mediaCalls.WithLabelValues(kind, o).Inc()
	if units > 0 {
		m.mediaUnits.WithLabelValues(kind).Add(float64(units))
	}
}

// ActiveUsersFrom makes every scrape read the active-user gauge from read,
// so it is current rather than as old as the last refresh; the daemon's
// wiring decides what "active" means.
func (m *Metrics) ActiveUsersFrom(read func() (int, error)) { m.activeUsers.set(read) }

// TokensTodayFrom makes every scrape read today's token spend from read,
// for budget dashboards.
func (m *Metrics) TokensTodayFrom(read func() (int, error)) { m.tokensToday.set(read) }

// sourceGauge is a gauge read from its source at each scrape. A failed
// read shows the last good value; without a source it shows 0.
type sourceGauge struct {
	mu   sync.Mutex
	read func() (int, error)
	last float64
}

func (g *sourceGauge) set(read func() (int, error)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.read = read
}

func (g *sourceGauge) value() float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.read != nil {
		if n, err := g.read(); err == nil {
			g.last = float64(n)
		}
	}
	return g.last
}

func outcome(err error) string {
	if err != nil {
		return outcomeError
	}
	return outcomeOK
}
