package bot_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/store"
)

// Benchmark sizes and goals. The goals are DESIGN §10's quality bars as the
// benchmark brief (/tmp/bench.md) states them; the sizes are our choices.
const (
	// benchUsers is how many users the overhead and throughput benchmarks
	// rotate through ("many users/chats").
	benchUsers = 256
	// throughputBatch is how many messages one throughput iteration pushes
	// before it waits for all replies: large enough that the drain at the
	// end of a batch is a small part of it.
	throughputBatch = 512
	// slowUsers is DESIGN §10's "200 users at once".
	slowUsers = 200
	// slowBurst is how many messages each of them sends back to back: with
	// three, two wait in the chat's queue while the first is answered, so
	// a queue that lost their order would be caught.
	slowBurst = 3
	// slowBrainDelay is DESIGN §10's "1 s brain"; benchDelayEnv shrinks it
	// for quick runs (e.g. HEARTH_BENCH_BRAIN_DELAY=100ms).
	slowBrainDelay = time.Second
	benchDelayEnv  = "HEARTH_BENCH_BRAIN_DELAY"
	// slowBrainP99Goal is the brief's "p99 reply latency ≤ 1.3 s" for a 1 s
	// brain, as a multiple of the brain's delay so shrunk runs compare too.
	slowBrainP99Goal = 1.3
	// historyMessages is the brief's "user with 2,000 stored messages", and
	// historyLong issue 15's 100,000.
	historyMessages = 2000
	historyLong     = 100_000
	// benchPerceiveDelay is the perception call of spread-model: a fast
	// small model's JSON answer (local models take tens to hundreds of
	// milliseconds), longer than a recall query's p99 at 100,000 episodes.
	benchPerceiveDelay = 10 * time.Millisecond
	// historyLongGap spreads historyLong messages over a year.
	historyLongGap = 5 * time.Minute
	// historySpreadGap spaces the spread user's history: one message an hour
	// is 2,000 messages over 83 days, a long-standing daily user. The
	// "today" user's history is one message a second, all of it today.
	historySpreadGap = time.Hour
	// benchWait bounds every wait for replies, so a lost reply fails the
	// benchmark instead of hanging it.
	benchWait = 2 * time.Minute
	// benchConcurrency is the fixed-configuration variant of the 200-user
	// benchmark: enough turn slots that no user waits for another's LLM call.
	benchConcurrency = 256
)

// Canned brain answers: valid perception JSON, a valid reply trailer and a
// valid reflection, so every turn takes the full online path.
const (
	benchPerception = `{"intent_category":"SMALL_TALK","sentiment":0.2,"disclosure":"none","crisis":false}`
	benchTrailer    = `{"emotion_label":"joy","emotion_intensity":0.4,"salience":0.3,"confidence":0.8,"topic_tags":["day"],"remember":[]}`
	benchReflect    = `{"inner_state":"I enjoy our talks; they seem to like sharing their day."}`
	benchLifeLoop   = `{"speak":false}`
	// benchPromptTokens and benchCompletionTokens are a small online call's
	// usage, so every turn writes token_usage rows as a real brain's would.
	benchPromptTokens     = 120
	benchCompletionTokens = 30
)

// benchTexts are ordinary messages without commands, crisis words or forget
// requests, so every one runs a normal turn.
var benchTexts = []string{
	"hello there, how was your day?",
	"I'm so happy today, the sun is out!",
	"work was long but fine",
	"what are you reading these days?",
}

// instantBrain answers every call at once (or after delay, for replies
// only), echoing the message's token into the reply so the sender can match
// the reply to its message.
type instantBrain struct {
	delay time.Duration
	// perceive, when set, is how long a perception call takes (ns), as a
	// model server's would: recall reads the store meanwhile.
	perceive *atomic.Int64
}

func (b instantBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	usage := bot.Usage{PromptTokens: benchPromptTokens, CompletionTokens: benchCompletionTokens}
	switch req.Kind {
	case bot.KindPerception:
		if b.perceive != nil {
			time.Sleep(time.Duration(b.perceive.Load()))
		}
		return bot.Response{Text: benchPerception, Usage: usage}, nil
	case bot.KindReply:
		if b.delay > 0 {
			t := time.NewTimer(b.delay)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return bot.Response{}, ctx.Err()
			}
		}
		return bot.Response{Text: "Thank you for telling me, that sounds nice." + tokenSuffix(req.Hints.Text), Trailer: benchTrailer, Usage: usage}, nil
	case bot.KindReflect:
		return bot.Response{Text: benchReflect, Usage: usage}, nil
	default:
		return bot.Response{Text: benchLifeLoop, Usage: usage}, nil
	}
}

// tokenSuffix is the " #<n>" tail of a benchmark message, "" when none.
func tokenSuffix(text string) string {
	if i := strings.LastIndex(text, " #"); i >= 0 {
		return text[i:]
	}
	return ""
}

// tokenOf parses the token of a benchmark message or reply, -1 when none.
func tokenOf(text string) int64 {
	s := tokenSuffix(text)
	if s == "" {
		return -1
	}
	n, err := strconv.ParseInt(s[2:], 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// benchSender is the in-memory transport's way out. It stamps each reply as
// it arrives, matched to its message by token, and keeps each chat's reply
// order.
type benchSender struct {
	mu      sync.Mutex
	starts  map[int64]time.Time     // token → when HandleMessage was called
	lat     map[int64]time.Duration // token → HandleMessage to Send
	chats   map[string][]int64      // chat → tokens in delivery order
	extra   int                     // sends without a token (e.g. a break suggestion)
	arrived chan int64
	// quick skips keeping latencies and order, for throughput runs whose
	// maps would otherwise grow with every message.
	quick bool
}

func newBenchSender() *benchSender {
	return &benchSender{
		starts: map[int64]time.Time{}, lat: map[int64]time.Duration{},
		chats: map[string][]int64{}, arrived: make(chan int64, 4*throughputBatch),
	}
}

func (s *benchSender) Send(_ context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
	now := time.Now()
	tok := tokenOf(out.Text)
	s.mu.Lock()
	start, ok := s.starts[tok]
	if !ok {
		s.extra++
		s.mu.Unlock()
		return bot.Sent{MessageIDs: []string{"x"}}, nil
	}
	delete(s.starts, tok)
	if !s.quick {
		s.lat[tok] = now.Sub(start)
		s.chats[chat.ChatID] = append(s.chats[chat.ChatID], tok)
	}
	s.mu.Unlock()
	s.arrived <- tok
	return bot.Sent{MessageIDs: []string{"b" + strconv.FormatInt(tok, 10)}}, nil
}

func (s *benchSender) Typing(context.Context, bot.ChatRef) error { return nil }

func (s *benchSender) expect(tok int64) {
	s.mu.Lock()
	s.starts[tok] = time.Now()
	s.mu.Unlock()
}

// latency is how long the reply to tok took.
func (s *benchSender) latency(tok int64) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lat[tok]
}

// wait takes n replies or fails the benchmark after benchWait.
func (s *benchSender) wait(b *testing.B, n int) {
	b.Helper()
	deadline := time.NewTimer(benchWait)
	defer deadline.Stop()
	for range n {
		select {
		case <-s.arrived:
		case <-deadline.C:
			b.Fatalf("only some of %d replies arrived within %v", n, benchWait)
		}
	}
}

// echoInbound is the baseline: a bare Inbound that sends the text straight
// back, with no store and no turn.
type echoInbound struct{ out bot.Sender }

func (e echoInbound) HandleMessage(ctx context.Context, m bot.Message) error {
	_, err := e.out.Send(ctx, m.Chat(), bot.Outgoing{Text: m.Text})
	return err
}

func (echoInbound) HandleReaction(context.Context, bot.Reaction) error { return nil }

// benchClock is the handler's clock: real time shifted back by an offset
// (negative: forward), so a history can be written in the past and the
// spread user's benchmark turns keep their hourly pace.
type benchClock struct{ back atomic.Int64 }

func (c *benchClock) Now() time.Time { return time.Now().Add(-time.Duration(c.back.Load())) }

// rig is the in-memory transport loop: messages go into in, replies come
// out of out.
type rig struct {
	in    bot.Inbound
	out   *benchSender
	db    *store.DB
	h     *bot.Handler
	clock *benchClock
	seq   atomic.Int64
}

// newRig builds a real Handler on a real SQLite file in b.TempDir().
func newRig(b *testing.B, br bot.Brain, concurrency int) *rig {
	b.Helper()
	path := filepath.Join(b.TempDir(), "hearth.db")
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	r := &rig{out: newBenchSender(), db: db, clock: &benchClock{}}
	h, err := bot.NewHandler(context.Background(), bot.Config{
		Persona: testPersona(), Store: db, Brain: br, Offline: tokenEcho{brain.NewOffline()},
		Senders: map[string]bot.Sender{bot.PlatformTelegram: r.out},
		Now:     r.clock.Now, Concurrency: concurrency,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(h.Drain)
	r.h, r.in = h, h
	return r
}

func newEchoRig() *rig {
	r := &rig{out: newBenchSender()}
	r.in = echoInbound{out: r.out}
	return r
}

// send hands one message from user to the handler and returns its token.
func (r *rig) send(b *testing.B, user string) int64 {
	tok, err := r.post(user)
	if err != nil {
		b.Fatal(err)
	}
	return tok
}

// post is send for goroutines other than the benchmark's, which must not
// call b.Fatal.
func (r *rig) post(user string) (int64, error) {
	tok := r.seq.Add(1)
	text := benchTexts[int(tok)%len(benchTexts)] + " #" + strconv.FormatInt(tok, 10)
	m := bot.Message{
		Platform: bot.PlatformTelegram, ChatID: user, ChatKind: bot.ChatPrivate,
		MessageID: strconv.FormatInt(tok, 10), UserID: user, UserName: "User " + user,
		Text: text, Modality: bot.ModalityText, Addressed: true,
	}
	r.out.expect(tok)
	if err := r.in.HandleMessage(context.Background(), m); err != nil {
		return tok, fmt.Errorf("handle message %d: %w", tok, err)
	}
	return tok, nil
}

// turn runs one message to its reply and returns the latency.
func (r *rig) turn(b *testing.B, user string) time.Duration {
	tok := r.send(b, user)
	r.out.wait(b, 1)
	return r.out.latency(tok)
}

// percentile is the p-quantile (0..1) of d by the nearest-rank method.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func userID(i int) string { return "u" + strconv.Itoa(i) }

// BenchmarkTurnOverhead is the handler's own cost per turn with an instant
// brain: one message at a time, rotating over benchUsers users, from
// HandleMessage to the Send of its reply. Goal: p99 ≤ 2 ms.
func BenchmarkTurnOverhead(b *testing.B) {
	r := newRig(b, instantBrain{}, 0)
	for i := range benchUsers { // first contact is not the steady state
		r.turn(b, userID(i))
	}
	var lat []time.Duration
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		lat = append(lat, r.turn(b, userID(i%benchUsers)))
		i++
	}
	b.ReportMetric(micros(percentile(lat, 0.50)), "p50-µs")
	b.ReportMetric(micros(percentile(lat, 0.99)), "p99-µs")
}

// throughput pushes throughputBatch messages per iteration over benchUsers
// users as fast as one transport can, waits for every reply, and reports
// turns per second.
func throughput(b *testing.B, r *rig) {
	r.out.quick = true
	b.ReportAllocs()
	n := 0
	start := time.Now()
	for b.Loop() {
		for j := range throughputBatch {
			r.send(b, userID(j%benchUsers))
		}
		r.out.wait(b, throughputBatch)
		n += throughputBatch
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "turns/s")
}

// BenchmarkEchoBaseline is the in-memory transport loop with a bare echo
// Inbound: the ceiling a turn's throughput is compared with.
func BenchmarkEchoBaseline(b *testing.B) {
	throughput(b, newEchoRig())
}

// BenchmarkTurnThroughput is the same loop through the real Handler with an
// instant brain. Goal: ≥ 0.5× BenchmarkEchoBaseline's turns/s.
func BenchmarkTurnThroughput(b *testing.B) {
	r := newRig(b, instantBrain{}, 0)
	for i := range benchUsers {
		r.turn(b, userID(i))
	}
	throughput(b, r)
}

// brainDelay is slowBrainDelay unless benchDelayEnv shrinks it.
func brainDelay(b *testing.B) time.Duration {
	v := os.Getenv(benchDelayEnv)
	if v == "" {
		return slowBrainDelay
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		b.Fatalf("%s=%q: want a positive duration", benchDelayEnv, v)
	}
	return d
}

// Benchmark200UsersSlowBrain has slowUsers users write at once, each
// slowBurst messages back to back, to a brain that takes slowBrainDelay per
// reply. It reports the p99 latency of the first messages (goal ≤ 1.3 ×
// the delay) and of the follow-ups (which wait for the earlier ones by
// design: one chat is answered in order), and fails if any chat's replies
// come out of order or any message goes unanswered. The
// default-concurrency variant is the daemon as configured; the other shows
// the effect of more turn slots.
func Benchmark200UsersSlowBrain(b *testing.B) {
	delay := brainDelay(b)
	for _, v := range []struct {
		name        string
		concurrency int
	}{
		{"default-concurrency", 0},
		{fmt.Sprintf("concurrency-%d", benchConcurrency), benchConcurrency},
	} {
		b.Run(v.name, func(b *testing.B) {
			r := newRig(b, instantBrain{delay: delay}, v.concurrency)
			var first, follow []time.Duration
			for b.Loop() {
				toks := make([][slowBurst]int64, slowUsers)
				var wg sync.WaitGroup
				gate := make(chan struct{})
				errs := make([]error, slowUsers)
				for u := range slowUsers {
					wg.Go(func() {
						<-gate
						for k := 0; k < slowBurst && errs[u] == nil; k++ {
							toks[u][k], errs[u] = r.post(userID(u))
						}
					})
				}
				close(gate)
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				r.out.wait(b, slowBurst*slowUsers)
				for _, t := range toks {
					first = append(first, r.out.latency(t[0]))
					for _, tok := range t[1:] {
						follow = append(follow, r.out.latency(tok))
					}
				}
			}
			r.checkOrder(b)
			p99 := percentile(first, 0.99)
			b.ReportMetric(millis(percentile(first, 0.50)), "p50-ms")
			b.ReportMetric(millis(p99), "p99-ms")
			b.ReportMetric(millis(percentile(follow, 0.99)), "p99-followup-ms")
			b.ReportMetric(float64(p99)/float64(delay), "p99/brain")
			if float64(p99) > slowBrainP99Goal*float64(delay) {
				b.Logf("p99 %v misses the goal of %.1f × %v", p99, slowBrainP99Goal, delay)
			}
		})
	}
}

// checkOrder fails the benchmark if any chat got its replies in another
// order than its messages were sent (tokens rise in sending order).
func (r *rig) checkOrder(b *testing.B) {
	b.Helper()
	r.out.mu.Lock()
	defer r.out.mu.Unlock()
	for chat, toks := range r.out.chats {
		if !slices.IsSorted(toks) {
			b.Fatalf("chat %s answered out of order: %v", chat, toks)
		}
	}
	if len(r.out.starts) != 0 {
		b.Fatalf("%d messages were never answered", len(r.out.starts))
	}
}

// BenchmarkReplyLatencyHistory compares one turn's latency for a new user
// with that of a user who has a long stored history, every episode in the
// recall index, turns interleaved so machine load hits both alike. Goal:
// within 10%, at 2,000 and at 100,000 episodes (issue 11: "the whole turn
// for a user with 100,000 episodes"). history/new compares with a new
// user's first turn, which reads no past (a first contact has none);
// history/second with the same user's second turn, which reads a past of
// one message as every returning user's turn reads theirs: what a long
// history adds.
//
//   - spread: the history evenly over the past (one message an hour for
//     2,000, every five minutes for 100,000: a year). The clock moves on by
//     that gap per iteration so the benchmark's own turns keep the pace.
//   - today: all of it in the last hours, one message a second (for
//     100,000, every 0.8 s of the last day): every episode still counts in
//     seed 002's lingering sum, the stress case.
//   - spread-model: spread, with a perception call that takes
//     benchPerceiveDelay as a model's would; the recall stage's reading
//     of the store runs beside it (an instant brain leaves nothing to
//     overlap, so spread and today carry its whole cost).
func BenchmarkReplyLatencyHistory(b *testing.B) {
	for _, size := range []struct {
		n   int
		gap time.Duration // spread history's gap
	}{{historyMessages, historySpreadGap}, {historyLong, historyLongGap}} {
		b.Run(strconv.Itoa(size.n), func(b *testing.B) {
			var perceive atomic.Int64
			r := newRig(b, instantBrain{perceive: &perceive}, 0)
			now := time.Now()
			todayGap := min(time.Second, 20*time.Hour/time.Duration(size.n))
			r.writeHistory(b, "spread", size.n, func(i int) time.Time {
				return now.Add(-time.Duration(size.n-i) * size.gap)
			})
			r.writeHistory(b, "today", size.n, func(i int) time.Time {
				return now.Add(-time.Duration(size.n-i) * todayGap)
			})
			n := 0
			compare := func(b *testing.B, user string, gap time.Duration) {
				var fresh, second, old []time.Duration
				b.ReportAllocs()
				for k := 1; b.Loop(); k++ {
					r.clock.back.Store(-int64(time.Duration(k) * gap))
					n++
					newcomer := "new" + strconv.Itoa(n)
					fresh = append(fresh, r.turn(b, newcomer))
					second = append(second, r.turn(b, newcomer))
					old = append(old, r.turn(b, user))
				}
				pNew, pSecond, pOld := percentile(fresh, 0.5), percentile(second, 0.5), percentile(old, 0.5)
				b.ReportMetric(micros(pNew), "new-p50-µs")
				b.ReportMetric(micros(pSecond), "second-p50-µs")
				b.ReportMetric(micros(pOld), "history-p50-µs")
				b.ReportMetric(float64(pOld)/float64(pNew), "history/new")
				b.ReportMetric(float64(pOld)/float64(pSecond), "history/second")
			}
			// today first: the spread run moves the clock past today.
			b.Run("today", func(b *testing.B) { compare(b, "today", 0) })
			b.Run("spread", func(b *testing.B) { compare(b, "spread", size.gap) })
			perceive.Store(int64(benchPerceiveDelay))
			b.Run("spread-model", func(b *testing.B) { compare(b, "spread", size.gap) })
		})
	}
}

// writeHistory gives user n answered messages, the i-th at at(i): the first
// through a real turn (which creates the user as the handler does), the
// rest written in one transaction as turns would have committed them
// (inbound row, episode with values, reply delivered, signal, usage), on a
// second connection to the same file, because 100,000 real turns would
// take longer than the benchmark.
func (r *rig) writeHistory(b *testing.B, user string, n int, at func(i int) time.Time) {
	b.Helper()
	ctx := context.Background()
	r.clock.back.Store(int64(time.Since(at(1))))
	r.turn(b, user)
	r.clock.back.Store(0)
	id := bot.UserKey(bot.PlatformTelegram, user)
	raw, err := sql.Open("sqlite", "file:"+r.db.Path()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	tx, err := raw.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	reply := "Thank you for telling me, that sounds nice."
	stmts := []string{
		`INSERT INTO inbound (platform, chat_id, chat_kind, message_id, user_id, user_name, text, modality, addressed, at, status)
			VALUES ('telegram', ?1, 'private', ?2, ?3, ?1, ?4, 'text', 1, ?5, 'answered')`,
		`INSERT INTO episodes (user_id, platform, chat_id, inbound_id, user_text, reply_text, at, has_values, label,
			intensity, salience, confidence, topic_tags, intent, sentiment)
			VALUES (?3, 'telegram', ?1, last_insert_rowid(), ?4, ?6, ?5, 1, 'joy', 0.4, 0.3, 0.8, '["day"]', 'SMALL_TALK', 0.2)`,
		`INSERT INTO outbound (platform, chat_id, chat_kind, user_id, kind, text, status, platform_ids, created_at, sent_at)
			VALUES ('telegram', ?1, 'private', ?3, 'reply', ?6, 'sent', '["h"]', ?5, ?5)`,
		`INSERT INTO signals (user_id, at, tag, points, weight, modality) VALUES (?3, ?5, 'emotion_word', 1, 1, 'text')`,
		`INSERT INTO token_usage (at, kind, user_id, prompt, completion) VALUES (?5, 'perception', ?3, 120, 30), (?5, 'reply', ?3, 120, 30)`,
	}
	for i := 2; i <= n; i++ {
		text := benchTexts[i%len(benchTexts)]
		for _, q := range stmts {
			if _, err := tx.ExecContext(ctx, q, user, "h"+strconv.Itoa(i), id, text, at(i).UnixNano(), reply); err != nil {
				b.Fatal(err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET messages = ?1, last_user_at = ?2, last_bot_at = ?2 WHERE id = ?3`,
		n, at(n).UnixNano(), id); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}
