package brain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"hearth/bot"
	"hearth/bot/baseurl"
	"hearth/heart"
)

// DefaultModel is used when OpenAIConfig.Model is empty: a small, cheap chat
// model, because a companion sends many short turns (our choice).
const DefaultModel = "gpt-4o-mini"

// DefaultBaseURL is OpenAI's own endpoint, used when OpenAIConfig.BaseURL is
// empty (DESIGN §9: OPENAI_BASE_URL overrides it).
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultMaxRetries bounds the retries of one call when OpenAIConfig.MaxRetries
// is zero (brain brief: "MaxRetries default 3").
const DefaultMaxRetries = 3

// zeroTemperature replaces a configured temperature of exactly 0: go-openai
// tags the field omitempty, so 0 would silently become the server default
// (usually 1). A tiny positive value is as deterministic in practice (our
// choice).
const zeroTemperature float32 = 1e-6

// jsonHint is appended to the first system message of a JSON-mode request
// that never mentions JSON: OpenAI rejects response_format json_object
// unless the word "JSON" appears in the messages.
const jsonHint = "Answer with one JSON object."

// ErrStreamCut means a streamed reply ended without a finish_reason: the
// connection closed mid-way. Returned wrapped, with the partial Response when
// visible text had already been streamed.
var ErrStreamCut = errors.New("stream ended without finish_reason")

// ErrEmptyAnswer means the server answered without any choice.
var ErrEmptyAnswer = errors.New("answer has no choices")

// OpenAIConfig configures the OpenAI-compatible brain. cmd/hearth fills it
// from OPENAI_API_KEY, OPENAI_BASE_URL and HEARTH_MODEL (DESIGN §9).
type OpenAIConfig struct {
	BaseURL string // default DefaultBaseURL
	APIKey  string // never logged, redacted from errors
	Model   string // default DefaultModel
	// VisionModel answers requests that carry images (HEARTH_VISION_MODEL);
	// "" uses Model.
	VisionModel string
	// HTTPClient is copied, never modified; its Transport is wrapped to read
	// Retry-After. nil: a client without its own timeout (the per-call
	// deadline bounds every call).
	HTTPClient *http.Client
	MaxRetries int // retries after the first attempt; 0: DefaultMaxRetries; <0: none
	Logger     *slog.Logger
	// Temperature is sent when set; nil leaves the server default. 0 is sent
	// as zeroTemperature (see there).
	Temperature *float32
	// Deadlines overrides the per-kind default deadlines of DESIGN §9 (for
	// slow local models, or fault tests); missing kinds keep the default.
	Deadlines map[bot.Kind]time.Duration
	// PromptCache picks the prefix-cache fields sent (HEARTH_PROMPT_CACHE);
	// "" is CacheAuto.
	PromptCache PromptCache
	// BreakerProbe is the circuit breaker's first wait before it tries a
	// model found down again; 0 is probeFirst. Fault tests lengthen it, so
	// a slow machine cannot let a trial call through while they count calls.
	BreakerProbe time.Duration
}

// OpenAI is the brain that talks to any OpenAI-compatible chat completions
// server (OpenAI, Ollama, llama.cpp, vLLM). It is safe for concurrent use.
type OpenAI struct {
	client      *openai.Client
	model       string
	visionModel string
	secrets     []string // the API key and the base URL's secrets, scrubbed from errors
	maxRetries  int
	temperature *float32
	deadlines   map[bot.Kind]time.Duration
	log         *slog.Logger
	backoff     backoff
	breaker     *breaker
	cache       PromptCache
}

var _ bot.Brain = (*OpenAI)(nil)

// NewOpenAI builds the OpenAI-compatible brain. Retries happen per call, in
// Complete, not in the transport: a stream that breaks off before any visible
// text must be retried as a whole call. The transport wrapper only records
// the Retry-After header, which go-openai does not expose on errors.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	bu, err := baseurl.Parse(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("new openai brain: %w", err)
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	var hc http.Client
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	base := hc.Transport
	if base == nil {
		base = defaultTransport()
	}
	hc.Transport = &retryAfterRecorder{base: bu.Transport(base)}

	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = bu.Base() // go-openai appends the path; the query goes through Transport
	oc.HTTPClient = extraBodyDoer{&hc}
	o := &OpenAI{
		client:      openai.NewClientWithConfig(oc),
		model:       cfg.Model,
		visionModel: cfg.VisionModel,
		secrets:     append([]string{cfg.APIKey}, bu.Secrets()...),
		maxRetries:  cfg.MaxRetries,
		temperature: cfg.Temperature,
		deadlines:   maps.Clone(cfg.Deadlines),
		log:         cfg.Logger,
		backoff:     defaultBackoff(),
		cache:       cfg.PromptCache.resolve(cfg.BaseURL),
	}
	o.breaker = newBreaker(cfg.Logger, o.probe)
	if cfg.BreakerProbe > 0 {
		o.breaker.loop.First = cfg.BreakerProbe
	}
	return o, nil
}

// complete runs one LLM call. The reply kind is streamed through a Splitter
// (req.Stream receives visible text only); the other kinds are one
// non-streaming JSON-mode request. The call's deadline is the kind's default
// (DESIGN §9) unless ctx ends sooner.
func (o *OpenAI) complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	if !validKind(req.Kind) {
		return bot.Response{}, fmt.Errorf("complete: unknown kind %q", req.Kind)
	}
	deadline := req.Kind.Deadline()
	if d, ok := o.deadlines[req.Kind]; ok && d > 0 {
		deadline = d
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()

	jsonMode := req.JSON || req.Kind != bot.KindReply
	creq := openai.ChatCompletionRequest{
		Model:    o.modelFor(req.Messages),
		Messages: toOpenAIMessages(prepareMessages(req.Kind, req.Messages, jsonMode)),
	}
	if o.temperature != nil {
		creq.Temperature = *o.temperature
		if creq.Temperature == 0 {
			creq.Temperature = zeroTemperature
		}
	}
	if jsonMode {
		creq.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}

	var (
		resp bot.Response
		err  error
	)
	for attempt := 0; ; attempt++ {
		rec := &attemptInfo{}
		actx := withAttemptInfo(ctx, rec)
		var retry bool
		if req.Kind == bot.KindReply && !jsonMode {
			resp, retry, err = o.stream(actx, creq, req.Stream)
		} else {
			resp, retry, err = o.once(actx, creq, req.Kind)
		}
		if err == nil {
			return resp, nil
		}
		err = redact(err, o.secrets...)
		if !retry || attempt >= o.maxRetries || ctx.Err() != nil {
			return resp, fmt.Errorf("complete %s: %w", req.Kind, imagesRejected(req.Messages, err))
		}
		wait := o.backoff.wait(attempt, rec.retryAfter())
		if dl, ok := ctx.Deadline(); ok && wait >= time.Until(dl) {
			o.log.Warn("llm call not retried: wait exceeds deadline",
				"kind", req.Kind, "attempt", attempt+1, "wait", wait, "err", err)
			return resp, fmt.Errorf("complete %s: %w", req.Kind, err)
		}
		o.log.Warn("llm call retrying", "kind", req.Kind, "attempt", attempt+1, "wait", wait, "err", err)
		if werr := sleepCtx(ctx, wait); werr != nil {
			return resp, fmt.Errorf("complete %s: %w", req.Kind, err)
		}
	}
}

// once runs one non-streaming request and reports whether a failure is
// worth retrying.
func (o *OpenAI) once(ctx context.Context, creq openai.ChatCompletionRequest, kind bot.Kind) (bot.Response, bool, error) {
	cresp, err := o.client.CreateChatCompletion(ctx, creq)
	if err != nil {
		return bot.Response{}, retryable(ctx, err), err
	}
	if len(cresp.Choices) == 0 {
		return bot.Response{}, false, ErrEmptyAnswer
	}
	text := strings.TrimSpace(cresp.Choices[0].Message.Content)
	if kind != bot.KindReply || creq.ResponseFormat != nil {
		obj, ok := heart.FirstJSONObject(text)
		if !ok {
			return bot.Response{}, false, fmt.Errorf("answer is not a JSON object (%d bytes)", len(text))
		}
		text = obj
	}
	usage := usageOf(cresp.Usage)
	if usage.Total() == 0 {
		usage = estimateUsage(creq.Messages, text)
		o.log.Debug("llm usage missing: estimated", "kind", kind, "tokens", usage.Total())
	}
	return bot.Response{Text: text, Usage: usage}, false, nil
}

// stream runs one streamed reply. A stream that fails before any visible
// text reached the user is retryable; after that the partial text is
// returned with the error so the caller can decide.
func (o *OpenAI) stream(ctx context.Context, creq openai.ChatCompletionRequest, sink func(string)) (bot.Response, bool, error) {
	creq.Stream = true
	creq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	st, err := o.client.CreateChatCompletionStream(ctx, creq)
	if err != nil {
		return bot.Response{}, retryable(ctx, err), err
	}
	defer st.Close()

	sp := NewSplitter(sink)
	var (
		usage    *openai.Usage
		finished bool
		raw      strings.Builder // everything the model wrote, for estimates
	)
	partial := func(err error) (bot.Response, bool, error) {
		if sp.Emitted() == "" && !sp.Found() {
			return bot.Response{}, retryable(ctx, err), err
		}
		resp := bot.Response{Text: sp.Emitted()}
		if sp.Found() {
			resp.Text, resp.Trailer = sp.Close()
		}
		resp.Usage = estimateUsage(creq.Messages, raw.String())
		return resp, false, err
	}
	for {
		chunk, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return partial(fmt.Errorf("read stream: %w", err))
		}
		if chunk.Usage != nil {
			usage = chunk.Usage
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			raw.WriteString(ch.Delta.Content)
			sp.Write(ch.Delta.Content)
			if ch.FinishReason != "" && ch.FinishReason != openai.FinishReasonNull {
				finished = true
			}
		}
	}
	if !finished {
		return partial(ErrStreamCut)
	}
	text, trailer := sp.Close()
	resp := bot.Response{Text: text, Trailer: trailer}
	if usage != nil && usage.PromptTokens+usage.CompletionTokens > 0 {
		resp.Usage = usageOf(*usage)
	} else {
		resp.Usage = estimateUsage(creq.Messages, raw.String())
		o.log.Debug("llm stream usage missing: estimated", "tokens", resp.Usage.Total())
	}
	return resp, false, nil
}

// prepareMessages returns a copy of msgs whose first system message begins
// with the kind's marker line (DESIGN §9), adding a system message when there
// is none. In JSON mode it makes sure the word JSON appears (see jsonHint).
func prepareMessages(kind bot.Kind, msgs []bot.ChatMessage, jsonMode bool) []bot.ChatMessage {
	marker := kind.Marker()
	out := make([]bot.ChatMessage, 0, len(msgs)+1)
	out = append(out, msgs...)
	sys := -1
	for i, m := range out {
		if m.Role == openai.ChatMessageRoleSystem {
			sys = i
			break
		}
	}
	if sys < 0 {
		out = append([]bot.ChatMessage{{Role: openai.ChatMessageRoleSystem, Content: marker}}, out...)
		sys = 0
	}
	c := out[sys].Content
	if c != marker && !strings.HasPrefix(c, marker+"\n") && !strings.HasPrefix(c, marker+"\r\n") {
		c = marker + "\n" + c
	}
	if jsonMode && !mentionsJSON(out) && !strings.Contains(strings.ToLower(c), "json") {
		c += "\n" + jsonHint
	}
	out[sys].Content = c
	return out
}

func mentionsJSON(msgs []bot.ChatMessage) bool {
	for _, m := range msgs {
		if strings.Contains(strings.ToLower(m.Content), "json") {
			return true
		}
	}
	return false
}

func toOpenAIMessages(msgs []bot.ChatMessage) []openai.ChatCompletionMessage {
	out := make([]openai.ChatCompletionMessage, len(msgs))
	for i, m := range msgs {
		out[i] = toOpenAIMessage(m)
	}
	return out
}

func validKind(k bot.Kind) bool {
	switch k {
	case bot.KindPerception, bot.KindReply, bot.KindReflect, bot.KindLifeLoop:
		return true
	}
	return false
}

// redactedError hides the API key in an error's text while keeping the
// chain for errors.Is (context deadlines, ErrStreamCut). Some servers echo
// the key in their 401 message.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactedMark replaces the API key in error text.
const redactedMark = "[REDACTED]"

func redact(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, redactedMark)
		}
	}
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}
