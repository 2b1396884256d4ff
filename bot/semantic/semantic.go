// Package semantic is hearth's optional recall by meaning (issue 11 item
// 2, DESIGN §12 "Recall"): when HEARTH_EMBED_MODEL is set, the recall
// index's documents are embedded through the brain's OpenAI-compatible
// /v1/embeddings endpoint, and a turn finds the user's past by cosine
// similarity beside the full-text index.
//
// An Index has two sides. Its worker (Run, owned by cmd/hearth) embeds the
// store's queue of documents in batches, in the background: it catches up
// on start, then follows new rows, within the daily token budget, and
// backs off when the endpoint fails. Its Recall (bot.SemanticRecall) runs
// on the reply path and costs one query embedding, bounded by
// QueryTimeout, plus a search of the user's vectors in the store. Without
// an embeddings endpoint for the model (404), recall is the full-text
// index alone, logged once.
package semantic

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"

	"hearth/bot"
	"hearth/bot/baseurl"
	"hearth/heart"
	"hearth/store"
)

// Numbers of recall by meaning (hearth's choices).
const (
	// QueryTimeout bounds the one embedding a turn waits for: a local
	// server embeds a sentence in tens of milliseconds, a hosted API in a
	// hundred or two; past this the reply goes on with full text alone.
	QueryTimeout = 300 * time.Millisecond
	// MinSimilarity drops matches whose cosine similarity with the query is
	// below it. Unrelated sentences score about 0.0-0.25 with OpenAI's
	// text-embedding-3 models and the sentence-transformers family;
	// paraphrases and the same topic 0.4 and up. Ranking
	// (heart.RecallMatchFloor) then drops what is far below the best.
	MinSimilarity = 0.3
	// DefaultBatchSize is how many texts one worker request embeds:
	// OpenAI accepts 2,048 inputs, local servers embed a batch at once,
	// and 64 chat messages are a few thousand tokens at most.
	DefaultBatchSize = 64
	// BatchTimeout bounds one batch (a CPU-only local model is slow).
	BatchTimeout = time.Minute
	// DefaultFollowInterval is how often the caught-up worker looks for
	// new documents. A new episode is in the chat's history for the next
	// turns anyway; recall needs it only once it has left the window.
	DefaultFollowInterval = 5 * time.Second
	// MaxInputRunes cuts a text before embedding: the meaning of a chat
	// message is in its first paragraphs, and every model's context
	// (512 tokens for the small sentence-transformers) holds this much.
	MaxInputRunes = 1000
	// dialTimeout bounds connecting to the model server, as the brain's.
	dialTimeout = 5 * time.Second
	// probeText is what the worker embeds to learn the model's dimension
	// and whether the endpoint is there (one token).
	probeText = "hearth"
)

// UsageKind is the kind of embedding calls' usage rows: their tokens count
// against the persona's daily budget like the model's.
const UsageKind = "embed"

// Store is what the index needs of the instance file (store.DB).
type Store interface {
	UseVectorModel(ctx context.Context, name string, dim int) (int64, error)
	VectorBacklog(ctx context.Context, limit int) ([]store.VectorDoc, error)
	PutVectors(ctx context.Context, model int64, vs []store.Vector, skipped []int64) (int, error)
	VectorRecall(ctx context.Context, q store.VectorQuery) ([]store.RecallHit, error)
	AddUsage(ctx context.Context, u ...store.Usage) error
	TokensSince(ctx context.Context, since time.Time, userID string) (int, error)
}

// Config configures an Index; cmd/hearth fills it from HEARTH_EMBED_MODEL
// and the brain's OPENAI_BASE_URL and OPENAI_API_KEY.
type Config struct {
	BaseURL string // the OpenAI-compatible server, e.g. "http://127.0.0.1:11434/v1"
	APIKey  string // never logged
	Model   string // the embedding model; required
	Store   Store
	// HTTPClient is optional; QueryTimeout and BatchTimeout bound every
	// call.
	HTTPClient *http.Client
	Logger     *slog.Logger
	Now        func() time.Time // default time.Now; hearth simulate's clock
	// DailyTokens is the persona's budget.daily_tokens (0: none) and
	// Location its time zone, where a day starts.
	DailyTokens int
	Location    *time.Location
	// BatchSize and FollowInterval default to DefaultBatchSize and
	// DefaultFollowInterval.
	BatchSize      int
	FollowInterval time.Duration
}

// Index embeds the recall index's documents and searches them by meaning.
// It is safe for concurrent use; Run is called once.
type Index struct {
	client   *openai.Client
	name     string
	secrets  []string // the API key and the base URL's secrets, scrubbed from errors
	store    Store
	log      *slog.Logger
	now      func() time.Time
	budget   int
	loc      *time.Location
	batch    int
	interval time.Duration
	health   health

	mu      sync.Mutex
	modelID int64 // the active tag; 0 until the worker probed the model
	dim     int
	spent   map[string]int // query tokens per user, not yet recorded
}

var _ bot.SemanticRecall = (*Index)(nil)

// New builds an Index. It makes no call: the worker (Run) probes the
// model first.
func New(cfg Config) (*Index, error) {
	base, err := baseurl.Parse(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("new semantic index: %w", err)
	}
	if strings.TrimSpace(cfg.Model) == "" || cfg.Store == nil {
		return nil, fmt.Errorf("new semantic index: a model and a store are required")
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = base.Base() // go-openai appends the path; the query goes through Transport
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		*hc = *cfg.HTTPClient
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = (&net.Dialer{Timeout: dialTimeout}).DialContext
		hc.Transport = t
	}
	hc.Transport = base.Transport(hc.Transport)
	oc.HTTPClient = hc
	x := &Index{
		client: openai.NewClientWithConfig(oc), name: strings.TrimSpace(cfg.Model), secrets: append([]string{cfg.APIKey}, base.Secrets()...),
		store: cfg.Store, log: cfg.Logger, now: cfg.Now, budget: cfg.DailyTokens, loc: cfg.Location,
		batch: cfg.BatchSize, interval: cfg.FollowInterval, spent: map[string]int{},
	}
	if x.log == nil {
		x.log = slog.New(slog.DiscardHandler)
	}
	if x.now == nil {
		x.now = time.Now
	}
	if x.loc == nil {
		x.loc = time.UTC
	}
	if x.batch <= 0 {
		x.batch = DefaultBatchSize
	}
	if x.interval <= 0 {
		x.interval = DefaultFollowInterval
	}
	x.health = health{log: x.log, model: x.name}
	return x, nil
}

// Health is nil while the embeddings endpoint works, for /healthz: it
// fails while the endpoint is unreachable or refuses the API key (after
// BreakerThreshold failures in a row, until a call goes through) and while
// it has no embeddings for the model (a 404, until it is asked again).
func (x *Index) Health(context.Context) error {
	return x.health.status(x.now())
}

// Recall finds the user's documents nearest in meaning to q.Text within
// q.Scope, best first, Score the cosine similarity (at least
// MinSimilarity). It embeds q.Text once, within QueryTimeout. While
// recall by meaning is unavailable (no model answer yet, the endpoint
// off, down or the budget spent) it returns nothing and no error at once:
// those states are logged once where they change. An error means this
// query failed; the caller goes on with full text alone.
func (x *Index) Recall(ctx context.Context, q store.RecallQuery) ([]store.RecallHit, error) {
	text := prepare(q.Text)
	if text == "" {
		return nil, nil
	}
	model, dim := x.active()
	if model == 0 || !x.health.queryable(x.now()) {
		return nil, nil
	}
	qctx, cancel := context.WithTimeout(ctx, QueryTimeout)
	vecs, tokens, err := x.embed(qctx, []string{text})
	cancel()
	if err != nil {
		if x.health.failed(ctx, x.now(), err) == off {
			return nil, nil
		}
		return nil, fmt.Errorf("embed query: %w", err)
	}
	x.health.succeeded(x.now())
	x.mu.Lock()
	x.spent[q.UserID] += tokens
	x.mu.Unlock()
	v := vecs[0]
	if len(v) != dim {
		// The model now answers with another dimension: the worker
		// probes it again and re-embeds.
		x.setActive(0, 0)
		return nil, nil
	}
	return x.store.VectorRecall(ctx, store.VectorQuery{RecallQuery: q, Model: model, Vector: v, MinScore: MinSimilarity})
}

func (x *Index) active() (int64, int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.modelID, x.dim
}

func (x *Index) setActive(id int64, dim int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.modelID, x.dim = id, dim
}

// embed asks the endpoint for the vectors of texts, each made unit length,
// in texts' order, and the tokens the call used (estimated when the server
// does not say).
func (x *Index) embed(ctx context.Context, texts []string) ([][]float32, int, error) {
	resp, err := x.client.CreateEmbeddings(ctx, openai.EmbeddingRequest{Input: texts, Model: openai.EmbeddingModel(x.name)})
	if err != nil {
		return nil, 0, fmt.Errorf("embeddings: %w", redact(err, x.secrets...))
	}
	out, err := vectorsOf(resp.Data, len(texts))
	if err != nil {
		return nil, 0, fmt.Errorf("embeddings: %w", err)
	}
	tokens := resp.Usage.PromptTokens
	if tokens <= 0 {
		for _, t := range texts {
			tokens += heart.EstimateTokens(t)
		}
	}
	return out, tokens, nil
}

// vectorsOf checks an answer's data for n texts and returns the vectors
// in the texts' order, unit length: one per text, each index once, one
// dimension, nothing zero or infinite.
func vectorsOf(data []openai.Embedding, n int) ([][]float32, error) {
	if len(data) != n {
		return nil, fmt.Errorf("%d vectors for %d texts", len(data), n)
	}
	out := make([][]float32, n)
	for _, d := range data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("bad index %d", d.Index)
		}
		if len(d.Embedding) == 0 || len(d.Embedding) != len(data[0].Embedding) {
			return nil, fmt.Errorf("vector %d has %d dimensions", d.Index, len(d.Embedding))
		}
		v, ok := unit(d.Embedding)
		if !ok {
			return nil, fmt.Errorf("vector %d is zero or not finite", d.Index)
		}
		out[d.Index] = v
	}
	return out, nil
}

// unit scales v to length 1 in place; false for a zero or non-finite v.
func unit(v []float32) ([]float32, bool) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	n = math.Sqrt(n)
	if n == 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return nil, false
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v, true
}

// prepare is the text an embedding gets: trimmed, at most MaxInputRunes.
func prepare(text string) string {
	text = strings.TrimSpace(text)
	if utf8.RuneCountInString(text) <= MaxInputRunes {
		return text
	}
	return string([]rune(text)[:MaxInputRunes])
}

// redact removes the API key and the base URL's secrets from an error's
// text.
func redact(err error, secrets ...string) error {
	msg := err.Error()
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "[redacted]")
		}
	}
	if msg == err.Error() {
		return err
	}
	return redactedError{msg: msg, err: err}
}

// redactedError keeps the wrapped error for errors.As (the status) and
// shows only the redacted text.
type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }
