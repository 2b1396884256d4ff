package telegram_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/bot/telegram"
	"hearth/bot/telegram/telegramtest"
	"hearth/store"
)

// Workload of BenchmarkTelegramTurnVsEcho (issue 8): sequential messages
// for latency, then a burst from many chats for throughput.
const (
	benchSequential = 200
	benchBurst      = 200
	benchToken      = "123:bench"
	benchWait       = 30 * time.Second
)

// instantBrain answers every call at once: the benchmark measures hearth,
// not a model.
type instantBrain struct{}

func (instantBrain) Complete(_ context.Context, req bot.Request) (bot.Response, error) {
	if req.Kind == bot.KindReply {
		return bot.Response{Text: "I'm here.", Trailer: `{"emotion_label":"joy","emotion_intensity":0.3,"salience":0.2,"confidence":0.9,"topic_tags":[],"remember":[],"scratch":""}`}, nil
	}
	return bot.Response{Text: `{"intent_category":"SMALL_TALK","sentiment":0.1,"disclosure":"none","crisis":false}`}, nil
}

// echo is a bare echo bot on the same transport: it answers in the poll
// loop, with no storage at all.
type echo struct{ tr *telegram.Transport }

func (e echo) HandleMessage(ctx context.Context, m bot.Message) error {
	_, err := e.tr.Send(ctx, m.Chat(), bot.Outgoing{Text: m.Text})
	return err
}

func (echo) HandleReaction(context.Context, bot.Reaction) error { return nil }

type memCursors struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *memCursors) Cursor(_ context.Context, k string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k], nil
}

func (c *memCursors) SetCursor(_ context.Context, k, v string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
	return nil
}

// phase is one bot under the workload.
type phase struct {
	latencies []time.Duration // push → the fake received sendMessage
	perSecond float64         // burst throughput
	cpu       time.Duration   // the process's CPU per burst message, the fake's included
}

// runPhase starts a bot (echo or hearth) on a fresh fake Bot API and runs
// the workload against it.
func runPhase(b *testing.B, hearth bool) phase {
	f := telegramtest.NewServer(b, benchToken)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var cursors telegram.CursorStore = &memCursors{m: map[string]string{}}
	var db *store.DB
	if hearth {
		var err error
		if db, err = store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), store.Options{}); err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		cursors = db
	}
	tr, err := telegram.New(ctx, telegram.Config{Token: benchToken, Endpoint: f.Endpoint(), Cursors: cursors, Logger: log, PollTimeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	var in bot.Inbound = echo{tr}
	var h *bot.Handler
	if hearth {
		h, err = bot.NewHandler(ctx, bot.Config{
			Persona: bot.Persona{Name: "Luna", Language: "en", Text: "A kind companion.", Dependency: 1, Perception: "llm", Timezone: time.UTC},
			Store:   db, Brain: instantBrain{}, Offline: brain.NewOffline(),
			Senders: map[string]bot.Sender{bot.PlatformTelegram: tr}, Logger: log,
		})
		if err != nil {
			b.Fatal(err)
		}
		in = h
	}
	done := make(chan error, 1)
	go func() { done <- tr.Run(ctx, in) }()
	defer func() {
		cancel()
		<-done
		if h != nil {
			h.Drain()
		}
	}()

	var p phase
	chat := int64(1000)
	push := func() (int64, time.Time) {
		chat++
		at := time.Now()
		f.Push("message", telegramtest.TextMessage(chat, telegramtest.PrivateChat(chat), telegramtest.User(chat, "U"), fmt.Sprintf("hello %d", chat)))
		return chat, at
	}
	answered := f.FirstSent
	// wait sleeps until the fake records a send, then checks again: no
	// polling, so the harness takes no CPU from the bot it measures.
	wait := func(cond func() bool) {
		deadline := time.NewTimer(benchWait)
		defer deadline.Stop()
		for {
			sent := f.SendSignal()
			if cond() {
				return
			}
			select {
			case <-sent:
			case <-deadline.C:
				b.Fatal("timed out waiting for replies")
			}
		}
	}
	for range benchSequential {
		c, at := push()
		var sent time.Time
		wait(func() bool { var ok bool; sent, ok = answered(c); return ok })
		p.latencies = append(p.latencies, sent.Sub(at))
	}
	chats := make([]int64, 0, benchBurst)
	cpu0 := processCPU(b)
	start := time.Now()
	for range benchBurst {
		c, _ := push()
		chats = append(chats, c)
	}
	var last time.Time
	next := 0 // chats[:next] are answered
	wait(func() bool {
		for ; next < len(chats); next++ {
			at, ok := answered(chats[next])
			if !ok {
				return false
			}
			if at.After(last) {
				last = at
			}
		}
		return true
	})
	p.perSecond = float64(benchBurst) / last.Sub(start).Seconds()
	p.cpu = (processCPU(b) - cpu0) / benchBurst
	return p
}

// processCPU is the user and system CPU time this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// BenchmarkTelegramTurnVsEcho is issue 8's first benchmark: hearth's turn
// with an instant brain through the real Telegram transport against the
// fake Bot API on 127.0.0.1, compared in the same run with a bare echo bot
// on the same library and fake. Goals: throughput ≥ 0.5× the echo's, p99
// added latency ≤ 2 ms. Each iteration runs both bots once; the ratio is
// reported as min, median and max over the iterations (issue 15: run it
// with -benchtime 9x), the latencies of the last iteration.
func BenchmarkTelegramTurnVsEcho(b *testing.B) {
	var (
		e, h      phase
		ratios    []float64
		echoes    []float64
		turns     []float64
		echoCPU   []float64
		hearthCPU []float64
	)
	for b.Loop() {
		e = runPhase(b, false)
		h = runPhase(b, true)
		ratios = append(ratios, h.perSecond/e.perSecond)
		echoes = append(echoes, e.perSecond)
		turns = append(turns, h.perSecond)
		echoCPU = append(echoCPU, float64(e.cpu.Microseconds()))
		hearthCPU = append(hearthCPU, float64(h.cpu.Microseconds()))
	}
	b.ReportMetric(float64(quantile(e.latencies, 0.5).Microseconds()), "echo-p50-µs")
	b.ReportMetric(float64(quantile(h.latencies, 0.5).Microseconds()), "hearth-p50-µs")
	b.ReportMetric(float64(quantile(e.latencies, 0.99).Microseconds()), "echo-p99-µs")
	b.ReportMetric(float64(quantile(h.latencies, 0.99).Microseconds()), "hearth-p99-µs")
	b.ReportMetric(float64((quantile(h.latencies, 0.99) - quantile(e.latencies, 0.99)).Microseconds()), "added-p99-µs")
	b.ReportMetric(median(echoes), "echo-msgs/s")
	b.ReportMetric(median(turns), "hearth-msgs/s")
	b.ReportMetric(median(echoCPU), "echo-cpu-µs/msg")
	b.ReportMetric(median(hearthCPU), "hearth-cpu-µs/msg")
	b.ReportMetric(slices.Min(ratios), "hearth/echo-min")
	b.ReportMetric(median(ratios), "hearth/echo")
	b.ReportMetric(slices.Max(ratios), "hearth/echo-max")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
