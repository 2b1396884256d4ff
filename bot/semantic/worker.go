package semantic

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hearth/bot"
	"hearth/store"
)

// flushTimeout bounds recording the last usage at shutdown.
const flushTimeout = time.Second

// errUnusable is a model that refuses even the probe's one word: not an
// embedding model (a chat model's name, say).
var errUnusable = errors.New("the model refuses a one-word text")

// errStore marks a failure of the instance file, not of the endpoint: it
// must not count against the endpoint's health.
var errStore = errors.New("store")

// Run is the worker: it probes the model, embeds the queued documents a
// batch at a time (catching up at start, newest first), then looks for new
// ones every FollowInterval, waiting while the endpoint fails, is off or
// the daily budget is spent. It returns when ctx ends.
func (x *Index) Run(ctx context.Context) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), flushTimeout)
			x.flushUsage(fctx)
			cancel()
			return
		case <-t.C:
		}
		n, wait := x.Step(ctx)
		if wait == 0 && n == 0 {
			wait = x.interval // caught up
		}
		t.Reset(wait)
	}
}

// CatchUp embeds the whole backlog now, as far as the endpoint and the
// budget allow (hearth simulate runs it before each message instead of the
// worker, so replies do not depend on timing).
func (x *Index) CatchUp(ctx context.Context) {
	for {
		if n, wait := x.Step(ctx); n == 0 || wait > 0 {
			return
		}
	}
}

// Step is one round of the worker: it records the query tokens spent since
// the last round, then embeds one batch of the backlog. It returns how
// many documents left the queue and how long the worker must wait before
// the next round (0: at once, or after FollowInterval when n is 0).
func (x *Index) Step(ctx context.Context) (n int, wait time.Duration) {
	x.flushUsage(ctx)
	now := x.now()
	if wait := x.health.wait(now); wait > 0 {
		return 0, wait
	}
	if wait := x.checkBudget(ctx, now); wait > 0 {
		return 0, wait
	}
	if model, _ := x.active(); model == 0 || x.health.isDown() {
		if err := x.probe(ctx); err != nil {
			return 0, x.backOff(ctx, err)
		}
	}
	docs, err := x.store.VectorBacklog(ctx, x.batch)
	if err != nil {
		x.log.Warn("read the embedding backlog", "err", err)
		return 0, x.interval
	}
	if len(docs) == 0 {
		return 0, 0
	}
	if err := x.embedDocs(ctx, docs); err != nil {
		return 0, x.backOff(ctx, err)
	}
	return len(docs), 0
}

// backOff records a failed round and returns the wait before the next.
func (x *Index) backOff(ctx context.Context, err error) time.Duration {
	if errors.Is(err, errStore) {
		x.log.Warn("embedding worker: instance file", "err", err)
		return x.interval
	}
	if x.health.failed(ctx, x.now(), err) == outage {
		x.log.Debug("embedding call failed; backing off", "err", err)
	}
	return x.health.wait(x.now())
}

// probe embeds probeText to learn the model's dimension and makes its
// tag active (a new tag queues every document for re-embedding).
func (x *Index) probe(ctx context.Context) error {
	bctx, cancel := context.WithTimeout(ctx, BatchTimeout)
	defer cancel()
	vecs, tokens, err := x.embed(bctx, []string{probeText})
	if err != nil {
		if classify(ctx, err) == badInput {
			return fmt.Errorf("%w: %w", errUnusable, err)
		}
		return err
	}
	x.health.succeeded(x.now())
	x.record(ctx, "", tokens)
	return x.use(ctx, len(vecs[0]))
}

// use makes (model, dim) the active tag.
func (x *Index) use(ctx context.Context, dim int) error {
	if _, have := x.active(); have == dim {
		return nil
	}
	id, err := x.store.UseVectorModel(ctx, x.name, dim)
	if err != nil {
		return fmt.Errorf("%w: %w", errStore, err)
	}
	x.setActive(id, dim)
	x.log.Info("recall by meaning: embedding model ready", "model", x.name, "dimensions", dim)
	return nil
}

// embedDocs embeds one batch and stores its vectors. Texts said twice (a
// group message is on the user's shelf and the group's) are embedded
// once; documents without text, and texts the server refuses, only leave
// the queue (full text still finds them).
func (x *Index) embedDocs(ctx context.Context, docs []store.VectorDoc) error {
	var (
		texts   []string
		byText  = map[string][]int64{}
		skipped []int64
	)
	for _, d := range docs {
		t := prepare(d.Text)
		if t == "" {
			skipped = append(skipped, d.DocID)
			continue
		}
		if _, seen := byText[t]; !seen {
			texts = append(texts, t)
		}
		byText[t] = append(byText[t], d.DocID)
	}
	vecs, err := x.embedBatch(ctx, texts)
	if err != nil {
		return err
	}
	x.health.succeeded(x.now())
	var vs []store.Vector
	for i, t := range texts {
		if vecs[i] == nil {
			skipped = append(skipped, byText[t]...)
			continue
		}
		if err := x.use(ctx, len(vecs[i])); err != nil {
			return err
		}
		for _, id := range byText[t] {
			vs = append(vs, store.Vector{DocID: id, Values: vecs[i]})
		}
	}
	model, _ := x.active()
	if _, err := x.store.PutVectors(ctx, model, vs, skipped); err != nil {
		return fmt.Errorf("%w: %w", errStore, err)
	}
	return nil
}

// embedBatch embeds texts in one request. When the server refuses the
// batch as bad input, each text is sent alone, and the ones it still
// refuses get a nil vector.
func (x *Index) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	bctx, cancel := context.WithTimeout(ctx, BatchTimeout)
	vecs, tokens, err := x.embed(bctx, texts)
	cancel()
	if err == nil {
		x.record(ctx, "", tokens)
		return vecs, nil
	}
	if classify(ctx, err) != badInput {
		return nil, err
	}
	if len(texts) == 1 {
		x.log.Warn("the embedding server refused a text; it is found by full text only", "runes", len([]rune(texts[0])), "err", err)
		return [][]float32{nil}, nil
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, err := x.embedBatch(ctx, []string{t})
		if err != nil {
			return nil, err
		}
		out[i] = v[0]
	}
	return out, nil
}

// checkBudget pauses the index while the persona's daily token budget is
// spent (model and embedding tokens together), until the next local day.
func (x *Index) checkBudget(ctx context.Context, now time.Time) time.Duration {
	if x.budget <= 0 {
		return 0
	}
	day := bot.StartOfDay(now, x.loc)
	used, err := x.store.TokensSince(ctx, day, "")
	if err != nil {
		x.log.Warn("read token usage; embedding as if the budget were left", "err", err)
		return 0
	}
	if used < x.budget {
		x.health.pause(time.Time{}, used, x.budget)
		return 0
	}
	next := day.AddDate(0, 0, 1)
	x.health.pause(next, used, x.budget)
	return next.Sub(now)
}

// record adds tokens of an embedding call to the usage to write.
func (x *Index) record(ctx context.Context, userID string, tokens int) {
	x.mu.Lock()
	x.spent[userID] += tokens
	x.mu.Unlock()
	x.flushUsage(ctx)
}

// flushUsage writes the embedding tokens spent since the last flush, one
// row per user (query embeddings are counted to their user; the worker's
// to nobody), so they count against the daily budget.
func (x *Index) flushUsage(ctx context.Context) {
	x.mu.Lock()
	spent := x.spent
	x.spent = map[string]int{}
	x.mu.Unlock()
	var rows []store.Usage
	now := x.now().UTC()
	for user, n := range spent {
		if n > 0 {
			rows = append(rows, store.Usage{At: now, Kind: UsageKind, UserID: user, Prompt: n})
		}
	}
	if len(rows) == 0 {
		return
	}
	if err := x.store.AddUsage(ctx, rows...); err != nil {
		x.log.Warn("record embedding usage", "err", err)
		x.mu.Lock()
		for _, r := range rows {
			x.spent[r.UserID] += r.Prompt
		}
		x.mu.Unlock()
	}
}
