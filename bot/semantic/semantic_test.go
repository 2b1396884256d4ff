package semantic_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"hearth/bot/bottest"
	"hearth/bot/semantic"
	"hearth/bot/semantic/semantictest"
	"hearth/heart"
	"hearth/store"
)

// TestMain fails the package if a worker outlives its test.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var t0 = time.Date(2026, 3, 14, 15, 0, 0, 0, time.UTC)

const (
	ann = "telegram:42"
	bob = "telegram:7"
	dim = 64
)

// env is one instance file, a fake embeddings server and an index on them.
type env struct {
	db    *store.DB
	fake  *semantictest.Server
	idx   *semantic.Index
	clock *bottest.Clock
	logs  *bottest.Buffer
}

func newEnv(t *testing.T, edit ...func(*semantic.Config)) *env {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "soul.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{db: db, fake: semantictest.New(t, map[string]int{"m1": dim, "m2": dim}), clock: bottest.NewClock(t0), logs: &bottest.Buffer{}}
	e.idx = e.index(t, "m1", edit...)
	return e
}

// index builds another index on the same file and server.
func (e *env) index(t *testing.T, model string, edit ...func(*semantic.Config)) *semantic.Index {
	t.Helper()
	cfg := semantic.Config{
		BaseURL: e.fake.URL(), APIKey: "sk-secret", Model: model, Store: e.db, Now: e.clock.Now,
		Logger: slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})), BatchSize: 4,
	}
	for _, f := range edit {
		f(&cfg)
	}
	idx, err := semantic.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

type chat struct{ platform, id, kind string }

var (
	annChat = chat{"telegram", "42", "private"}
	bobChat = chat{"telegram", "7", "private"}
	group   = chat{"telegram", "-100", "group"}
)

func (e *env) say(t *testing.T, user string, c chat, said string) {
	t.Helper()
	_, err := e.db.CommitTurn(context.Background(), store.Turn{Episode: store.Episode{
		UserID: user, Platform: c.platform, ChatID: c.id, ChatKind: c.kind,
		UserText: said, ReplyText: "I see, tell me more.", At: e.clock.Now(), HasValues: true, Salience: 0.5,
	}})
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Add(time.Minute)
}

func (e *env) recall(t *testing.T, q store.RecallQuery) []store.RecallHit {
	t.Helper()
	hits, err := e.idx.Recall(context.Background(), q)
	if err != nil {
		t.Fatalf("Recall(%q): %v", q.Text, err)
	}
	return hits
}

func privately(user, text string) store.RecallQuery {
	return store.RecallQuery{UserID: user, Text: text, Scope: store.RecallPrivate}
}

func inGroup(user, text string) store.RecallQuery {
	return store.RecallQuery{UserID: user, Text: text, Scope: store.RecallGroup, Platform: group.platform, ChatID: group.id}
}

func texts(hits []store.RecallHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.UserText)
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Issue 11 item 2: what was said before embeddings were switched on is
// embedded in batches: a probe first (the model's dimension), then the
// backlog, memories and the newest episodes first, a group message's
// words once for its two documents. Its tokens are usage of kind embed.
func TestCatchUpEmbedsTheBacklogInBatches(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	for i := range 6 {
		e.say(t, ann, annChat, "ordinary message number "+string(rune('a'+i)))
	}
	e.say(t, ann, group, "sailing on Sunday, who is in?")
	if err := e.db.PutMemory(ctx, store.Memory{UserID: ann, Slot: 0, Content: "cat: Biscuit", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}

	e.idx.CatchUp(ctx)
	calls := e.fake.Calls()
	if len(calls) != 4 || !slices.Equal(calls[0].Inputs, []string{"hearth"}) {
		t.Fatalf("calls: %+v", calls)
	}
	if !slices.Equal(calls[1].Inputs, []string{"cat: Biscuit", "sailing on Sunday, who is in?", "ordinary message number f"}) {
		t.Errorf("first batch (4 documents, the group message's two embedded once): %q", calls[1].Inputs)
	}
	if len(calls[2].Inputs) != 4 || len(calls[3].Inputs) != 1 {
		t.Errorf("second and third batches: %q, %q", calls[2].Inputs, calls[3].Inputs)
	}
	if hits := e.recall(t, privately(ann, "ordinary message number c")); len(hits) == 0 || hits[0].UserText != "ordinary message number c" {
		t.Fatalf("recall after catching up: %q", texts(hits))
	}
	e.idx.CatchUp(ctx) // nothing left: no call
	if n := len(e.fake.Calls()); n != 5 {
		t.Errorf("%d calls after the second catch-up, want 5 (4 + the query)", n)
	}
	e.idx.Step(ctx) // records the query's tokens
	if used, err := e.db.TokensSince(ctx, t0, ""); err != nil || used == 0 {
		t.Fatalf("embedding tokens not counted: %d, %v", used, err)
	}
	if used, _ := e.db.TokensSince(ctx, t0, ann); used != len(semantictest.Tokens("ordinary message number c")) {
		t.Errorf("the query's tokens counted for the user: %d", used)
	}
}

// The worker catches up when it starts, then follows new rows, and stops
// with its context.
func TestRunCatchesUpAndFollowsNewRows(t *testing.T) {
	e := newEnv(t, func(c *semantic.Config) { c.FollowInterval = 5 * time.Millisecond; c.Now = nil })
	e.say(t, ann, annChat, "my cat Biscuit turned twelve")
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.idx.Run(ctx) }()
	defer func() { stop(); <-done }()

	waitFor(t, "catching up", func() bool { return len(e.recall(t, privately(ann, "Biscuit my cat"))) == 1 })
	e.say(t, ann, annChat, "exam on Friday, wish me luck")
	waitFor(t, "following a new row", func() bool { return len(e.recall(t, privately(ann, "wish me luck on the exam"))) == 1 })
	stop()
	<-done
}

// Issue 11 item 4 for recall by meaning: two users who say the same
// things never find each other's words; in a group only the user's own
// words in that group; a weak match is no match.
func TestRecallScopeTwoUsersGroupAndPrivate(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.say(t, ann, group, "my cat Biscuit loves the park")
	e.say(t, bob, bobChat, "my cat Biscuit was sick all night")
	e.idx.CatchUp(ctx)

	got := texts(e.recall(t, privately(ann, "my cat Biscuit")))
	slices.Sort(got)
	if !slices.Equal(got, []string{"my cat Biscuit loves the park", "my cat Biscuit was sick all night"}) {
		t.Errorf("private: %q", got)
	}
	if got := texts(e.recall(t, inGroup(ann, "my cat Biscuit was sick"))); !slices.Equal(got, []string{"my cat Biscuit loves the park"}) {
		t.Errorf("group: %q", got)
	}
	hits := e.recall(t, privately(bob, "my cat Biscuit"))
	if got := texts(hits); !slices.Equal(got, []string{"my cat Biscuit was sick all night"}) {
		t.Errorf("the other user: %q", got)
	}
	if hits[0].Score < semantic.MinSimilarity || hits[0].Score > 1.0001 {
		t.Errorf("score %v is not a cosine above the threshold", hits[0].Score)
	}
	if hits := e.recall(t, privately(ann, "quarterly tax forms deadline")); len(hits) != 0 {
		t.Errorf("a weak match: %q", texts(hits))
	}
}

// Issue 11 item 2: another model re-embeds everything in the background;
// until then its searches ignore the old vectors.
func TestModelChangeReembeds(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.say(t, ann, annChat, "exam on Friday")
	e.idx.CatchUp(ctx)

	e.idx = e.index(t, "m2")
	e.idx.Step(ctx) // the probe, and the first batch
	if hits := e.recall(t, privately(ann, "Biscuit was sick")); len(hits) != 1 {
		t.Fatalf("with the new model: %q", texts(hits))
	}
	var m2 []string
	for _, c := range e.fake.Calls() {
		if c.Model == "m2" {
			m2 = append(m2, c.Inputs...)
		}
	}
	slices.Sort(m2)
	if !slices.Equal(m2, []string{"Biscuit was sick", "exam on Friday", "hearth", "my cat Biscuit was sick all night"}) {
		t.Errorf("embedded with the new model: %q", m2)
	}
}

// Issue 11 item 2: the reply path waits for one query embedding at most
// QueryTimeout; a slow server costs a turn no more.
func TestQueryDeadlineIsHonoured(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.idx.CatchUp(ctx)
	release := e.fake.Hold()
	defer release()
	start := time.Now()
	hits, err := e.idx.Recall(ctx, privately(ann, "Biscuit"))
	took := time.Since(start)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || hits != nil {
		t.Errorf("a held query: %v, %v", hits, err)
	}
	if took < semantic.QueryTimeout || took > semantic.QueryTimeout+200*time.Millisecond {
		t.Errorf("the query took %v; its deadline is %v", took, semantic.QueryTimeout)
	}
}

// Issue 11 item 2: without an embeddings endpoint for the model (404, or
// 501 from llama.cpp without --embeddings, or a model that refuses one
// word: not an embedding model), recall is full text alone, logged once
// however many turns ask; the worker asks again after an hour and says
// when the model is there.
func TestNotFoundSwitchesOffLoggedOnce(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(*semantictest.Server)
	}{
		{"404", func(*semantictest.Server) {}},
		{"501", func(f *semantictest.Server) { f.Fail(http.StatusNotImplemented) }},
		{"not an embedding model", func(f *semantictest.Server) { f.SetModel("m1", dim); f.Refuse("hearth") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t)
			e.fake.SetModel("m1", 0)
			c.setup(e.fake)
			e.say(t, ann, annChat, "my cat Biscuit was sick all night")
			if n, wait := e.idx.Step(ctx); n != 0 || wait < time.Hour-time.Second {
				t.Fatalf("Step = %d, %v; want a wait of an hour", n, wait)
			}
			for range 5 {
				if hits := e.recall(t, privately(ann, "Biscuit")); hits != nil {
					t.Fatal(hits)
				}
				e.idx.Step(ctx)
			}
			if n := len(e.fake.Calls()); n != 1 {
				t.Errorf("%d calls while off, want the one probe", n)
			}
			e.clock.Add(time.Hour)
			e.fake.SetModel("m1", 0)
			e.idx.Step(ctx) // still off: not logged again
			if n := e.logs.Count("embeddings unavailable"); n != 1 {
				t.Errorf("logged %d times that embeddings are off, want once:\n%s", n, e.logs.String())
			}
			e.clock.Add(time.Hour)
			e.fake.SetModel("m1", dim)
			e.fake.Refuse("")
			e.idx.CatchUp(ctx)
			if hits := e.recall(t, privately(ann, "Biscuit")); len(hits) != 1 || e.logs.Count("embeddings available again") != 1 {
				t.Errorf("after the model came: %q\n%s", texts(hits), e.logs.String())
			}
		})
	}
}

// Other failures back off (doubling), and after BreakerThreshold in a row
// the reply path stops asking until the worker gets through: a down server
// is not hammered by every turn.
func TestFailuresBackOffAndOpenTheBreaker(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.idx.CatchUp(ctx)
	calls := len(e.fake.Calls())

	e.say(t, ann, annChat, "exam on Friday")
	e.fake.Fail(http.StatusInternalServerError)
	if _, err := e.idx.Recall(ctx, privately(ann, "Biscuit")); err == nil {
		t.Fatal("a failed query reported no error")
	}
	if _, wait := e.idx.Step(ctx); wait != 500*time.Millisecond {
		t.Errorf("after the first failure: wait %v, want 500ms", wait)
	}
	e.clock.Add(500 * time.Millisecond)
	e.fake.Fail(http.StatusServiceUnavailable)
	if _, wait := e.idx.Step(ctx); wait != time.Second {
		t.Errorf("second failure: wait %v, want 1s (doubled)", wait)
	}
	if _, wait := e.idx.Step(ctx); wait != time.Second {
		t.Errorf("the worker did not wait: %v", wait)
	}
	for range 5 {
		if hits, err := e.idx.Recall(ctx, privately(ann, "Biscuit")); hits != nil || err != nil {
			t.Fatalf("while down: %v, %v", hits, err)
		}
	}
	if n := len(e.fake.Calls()) - calls; n != 2 {
		t.Errorf("%d calls, want 2 (the failed query and batch)", n)
	}
	e.clock.Add(time.Second)
	e.idx.CatchUp(ctx) // probes, then embeds the new episode
	if hits := e.recall(t, privately(ann, "Biscuit")); len(hits) != 1 {
		t.Errorf("after recovery: %q", texts(hits))
	}
	if e.logs.Count("embeddings unreachable") != 1 || e.logs.Count("reachable again") != 1 {
		t.Errorf("down and back not logged once each:\n%s", e.logs.String())
	}
	if strings.Contains(e.logs.String(), "sk-secret") {
		t.Error("the API key was logged")
	}
}

// DESIGN §8: past the persona's daily token budget the worker pauses (and
// the reply path embeds nothing) until the next local day.
func TestBudgetSpentPausesEmbedding(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, func(c *semantic.Config) { c.DailyTokens = 100 })
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.idx.CatchUp(ctx)
	if err := e.db.AddUsage(ctx, store.Usage{At: e.clock.Now(), Kind: "reply", Prompt: 100}); err != nil {
		t.Fatal(err)
	}
	calls := len(e.fake.Calls())
	e.say(t, ann, annChat, "exam on Friday")
	n, wait := e.idx.Step(ctx)
	if midnight := time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC); n != 0 || wait != midnight.Sub(e.clock.Now()) {
		t.Fatalf("Step = %d, %v; want a pause until midnight", n, wait)
	}
	e.idx.Step(ctx)
	if hits := e.recall(t, privately(ann, "Biscuit")); hits != nil {
		t.Errorf("recall while paused: %q", texts(hits))
	}
	if n := len(e.fake.Calls()); n != calls {
		t.Errorf("%d calls past the budget", n-calls)
	}
	if e.logs.Count("budget spent") != 1 {
		t.Errorf("pause not logged once:\n%s", e.logs.String())
	}
	e.clock.Add(24 * time.Hour)
	e.idx.CatchUp(ctx)
	if hits := e.recall(t, privately(ann, "exam Friday")); len(hits) != 1 {
		t.Errorf("the next day: %q", texts(hits))
	}
}

// A text the server refuses (400) does not stall the queue: the batch is
// sent text by text and the refused one is left to full text.
func TestRefusedTextLeavesTheQueue(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.fake.Refuse("UNEMBEDDABLE")
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.say(t, ann, annChat, "UNEMBEDDABLE paste")
	e.say(t, ann, annChat, "exam on Friday")
	e.idx.CatchUp(ctx)
	if docs, err := e.db.VectorBacklog(ctx, 10); err != nil || len(docs) != 0 {
		t.Fatalf("queue after a refusal: %+v, %v", docs, err)
	}
	if hits := e.recall(t, privately(ann, "exam on Friday")); len(hits) != 1 {
		t.Errorf("a text of the refused batch: %q", texts(hits))
	}
}

// Seed 003 §8.1: forgetting removes the text's vector with it (the store's
// tests check the bytes on disk).
func TestForgetRemovesWhatIsFoundByMeaning(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.say(t, ann, annChat, "my ex is called Quentin and I miss him")
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.idx.CatchUp(ctx)
	if hits := e.recall(t, privately(ann, "I miss Quentin")); len(hits) != 1 {
		t.Fatalf("precondition: %q", texts(hits))
	}
	if _, err := e.db.ForgetText(ctx, ann, "Quentin"); err != nil {
		t.Fatal(err)
	}
	if hits := e.recall(t, privately(ann, "I miss Quentin")); len(hits) != 0 {
		t.Errorf("found after forgetting: %q", texts(hits))
	}
	if _, _, err := e.db.ForgetAll(ctx, ann); err != nil {
		t.Fatal(err)
	}
	if hits := e.recall(t, privately(ann, "my cat Biscuit")); len(hits) != 0 {
		t.Errorf("found after /forget all: %q", texts(hits))
	}
}

// A model that starts answering with another dimension is a new model:
// the query is not compared with the old vectors, and the worker
// re-embeds.
func TestDimensionChangeReembeds(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.idx.CatchUp(ctx)
	e.fake.SetModel("m1", 2*dim)
	if hits := e.recall(t, privately(ann, "Biscuit")); hits != nil {
		t.Fatalf("compared across dimensions: %q", texts(hits))
	}
	e.idx.CatchUp(ctx)
	if hits := e.recall(t, privately(ann, "Biscuit")); len(hits) != 1 {
		t.Errorf("after re-embedding: %q", texts(hits))
	}
}

// Issue 11 item 2, end to end until the turn's recall stage lands: what
// full text cannot find ("my kitty is ill" shares no word with "my cat was
// sick all night") is found by meaning, and reciprocal rank fusion
// (heart.RankRecall) recalls it beside the full-text list.
func TestRecallByMeaningFindsWhatFullTextMisses(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	e.say(t, ann, annChat, "the exam on Friday went well")
	e.idx.CatchUp(ctx)
	q := privately(ann, "my kitty is ill again")
	lexical, err := e.db.Recall(ctx, q)
	if err != nil || len(lexical) != 0 {
		t.Fatalf("precondition: full text found %q, %v", texts(lexical), err)
	}
	meaning := e.recall(t, q)
	got := heart.RankRecall([][]heart.RecallCandidate{candidates(lexical), candidates(meaning)},
		heart.RecallParams{Now: e.clock.Now(), BudgetTokens: 500})
	if len(got) != 1 || got[0].Text != "my cat Biscuit was sick all night" {
		t.Fatalf("recalled: %+v", got)
	}
}

// candidates is the test's stand-in for the turn's recall stage: hits as
// ranking's candidates.
func candidates(hits []store.RecallHit) []heart.RecallCandidate {
	out := make([]heart.RecallCandidate, 0, len(hits))
	for _, h := range hits {
		out = append(out, heart.RecallCandidate{
			Key: heart.RecallKey{Kind: heart.RecallKind(h.Kind), ID: h.EpisodeID}, At: h.At, Text: h.UserText, Reply: h.ReplyText,
			Salience: h.Salience, HasValues: h.HasValues, Match: h.Score,
		})
	}
	return out
}

// Health, for /healthz: ok while embeddings work; failing, in words that
// say which, while the endpoint is down, refuses the API key (never named)
// or has no such model; ok again once a call goes through.
func TestHealthReportsAFailingEndpoint(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.say(t, ann, annChat, "my cat Biscuit was sick all night")
	if err := e.idx.Health(ctx); err != nil {
		t.Fatalf("Health before any call = %v", err)
	}
	e.idx.CatchUp(ctx)
	if err := e.idx.Health(ctx); err != nil {
		t.Fatalf("Health while embeddings work = %v", err)
	}
	fail := func(status int) {
		t.Helper()
		e.say(t, ann, annChat, "exam on Friday")
		for range semantic.BreakerThreshold {
			e.fake.Fail(status)
			e.clock.Add(time.Minute) // past any backoff
			e.idx.Step(ctx)
		}
	}
	back := func() {
		t.Helper()
		e.clock.Add(time.Minute)
		e.idx.CatchUp(ctx)
		if err := e.idx.Health(ctx); err != nil {
			t.Fatalf("Health after a call went through = %v", err)
		}
	}

	fail(http.StatusServiceUnavailable)
	if err := e.idx.Health(ctx); err == nil || !strings.Contains(err.Error(), "embeddings unreachable since") {
		t.Fatalf("Health while down = %v", err)
	}
	back()

	fail(http.StatusUnauthorized)
	err := e.idx.Health(ctx)
	if err == nil || !strings.Contains(err.Error(), "rejects the API key (HTTP 401)") || strings.Contains(err.Error(), "sk-secret") {
		t.Fatalf("Health with the key refused = %v", err)
	}
	back()

	e.say(t, ann, annChat, "a new job")
	e.fake.SetModel("m1", 0) // every call answers 404 now
	e.clock.Add(time.Minute)
	e.idx.Step(ctx)
	if err := e.idx.Health(ctx); err == nil || !strings.Contains(err.Error(), `no embeddings for model "m1"`) {
		t.Fatalf("Health without the model = %v", err)
	}
	e.clock.Add(time.Hour)
	e.fake.SetModel("m1", dim)
	back()
	if strings.Contains(e.logs.String(), "sk-secret") {
		t.Error("the API key was logged")
	}
}
