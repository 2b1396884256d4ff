package brain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"hearth/bot"
	"hearth/bot/probe"
)

// The circuit breaker in front of the model (hearth's choices, README
// "Brains"). A model that cannot be reached costs each turn nothing once
// the breaker is open: perception falls back to heuristics and the offline
// brain answers at once, while Run probes the server in the background.
const (
	// BreakerThreshold is how many calls in a row must fail with an outage
	// (unreachable, 5xx after retries, deadline) before the breaker opens:
	// two is one turn's perception and reply, so a single blip does not
	// send anyone to the offline brain, and the second turn of an outage
	// already skips the model.
	BreakerThreshold = 2
	// probeFirst is the wait before the first probe of a model found down;
	// each failed probe doubles it up to probeMax.
	probeFirst = 500 * time.Millisecond
	probeMax   = time.Minute
	// probeTimeout bounds one probe (GET /models).
	probeTimeout = 5 * time.Second
	// dialTimeout bounds connecting to the model server (the default
	// transport waits 30 s): a server on the same network accepts in
	// milliseconds, a hosted API in well under a second.
	dialTimeout = 5 * time.Second
	// maxIdlePerHost keeps this many idle connections to the model server
	// (Go's default of 2 reconnects for every third concurrent turn).
	maxIdlePerHost = 16
)

// breaker counts consecutive outage failures and, past BreakerThreshold,
// refuses calls until a probe finds the model reachable again. It logs once
// when the model goes down and once when it is back.
type breaker struct {
	threshold int
	log       *slog.Logger
	now       func() time.Time
	// loop probes while the breaker is open for an outage; its First and
	// Max (probeFirst, probeMax; tests shorten them) also pace the trial
	// calls made without Run.
	loop *probe.Loop

	mu       sync.Mutex
	failures int       // consecutive outage or rejected failures
	down     bool      // open: calls are refused
	since    time.Time // when it opened
	// rejectedBy is the HTTP status (401, 403) of the answer that opened
	// the breaker when the server refused the API key rather than went
	// away; 0 for an outage. A probe cannot tell a refused key from an
	// accepted one (llama.cpp serves /models without the key), so while it
	// is set trial calls, not probes, find out when the key works again.
	rejectedBy int
	// keyLogged says the refusal was logged; only a call the server
	// accepted clears it, so a server that keeps refusing the key is
	// logged once however often the breaker opens.
	keyLogged bool
	probing   bool // Run is probing; else allow lets a trial call through
	interval  time.Duration
	trialAt   time.Time // without Run: when the next trial call may go
}

func newBreaker(log *slog.Logger, ask func(context.Context) error) *breaker {
	b := &breaker{threshold: BreakerThreshold, log: log, now: time.Now}
	b.loop = probe.New(probe.Loop{
		First: probeFirst, Max: probeMax, Timeout: probeTimeout, Probe: ask, Log: log, What: "model",
		// Up, or waiting for a trial call to show the key works: a probe
		// cannot tell a refused key from an accepted one.
		Down: func() bool {
			b.mu.Lock()
			defer b.mu.Unlock()
			return b.down && b.rejectedBy == 0
		},
		Up: func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.down && b.rejectedBy == 0 {
				b.closeLocked("probe")
			}
		},
	})
	return b
}

// allow reports whether a call may go to the model. While the breaker is
// open and Run is not probing (a one-shot tool, a test), one call per probe
// interval goes through as the probe, so the breaker never stays open for
// good.
func (b *breaker) allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.down {
		return true
	}
	if b.probing && b.rejectedBy == 0 {
		return false
	}
	now := b.now()
	if now.Before(b.trialAt) {
		return false
	}
	b.trialAt = now.Add(b.interval)
	b.interval = min(2*b.interval, b.loop.Max)
	return true
}

// verdict is what one finished call says about the model.
type verdict int

const (
	reachable verdict = iota // it answered, even if with a 4xx or bad JSON
	outage                   // it could not be reached or failed as a server
	refused                  // it refused the API key (401, 403)
	unknown                  // the caller gave up: says nothing
)

// record counts the result of one call.
func (b *breaker) record(v verdict, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch v {
	case reachable:
		b.failures = 0
		if b.down {
			b.closeLocked("a call went through")
		}
		b.keyLogged = false
	case outage:
		b.failures++
		if b.down && b.rejectedBy != 0 {
			// A trial call found the server gone: probe for it instead.
			b.rejectedBy = 0
			b.wakeLocked()
		}
		if b.down || b.failures < b.threshold {
			return
		}
		b.openLocked()
		b.log.Warn("model unreachable: the offline brain answers until it is back",
			"failures", b.failures, "err", err)
		b.wakeLocked()
	case refused:
		b.failures++
		if !b.down && b.failures < b.threshold {
			return
		}
		if !b.down {
			b.openLocked()
		}
		b.rejectedBy = statusOf(err)
		if !b.keyLogged {
			b.keyLogged = true
			b.log.Error("model rejects the API key: the offline brain answers until it accepts it (check OPENAI_API_KEY)",
				"status", b.rejectedBy, "err", err)
		}
	}
}

// openLocked opens the breaker now; the first trial call may go after
// the loop's First.
func (b *breaker) openLocked() {
	b.down, b.since = true, b.now()
	b.interval, b.trialAt = b.loop.First, b.since.Add(b.loop.First)
}

// wakeLocked starts Run's probing, if it is not probing already.
func (b *breaker) wakeLocked() { b.loop.Wake() }

func (b *breaker) closeLocked(how string) {
	msg := "model reachable again: answering with it"
	if b.rejectedBy != 0 {
		msg = "model accepts the API key again: answering with it"
	}
	b.log.Info(msg, "down_for", b.now().Sub(b.since).Round(time.Millisecond), "found_by", how)
	b.down, b.rejectedBy = false, 0
	// One more outage reopens at once: the probe only showed the server
	// answers, not that a call will.
	b.failures = b.threshold - 1
}

// state reports whether the breaker is open and since when.
func (b *breaker) state() (down bool, since time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.down, b.since
}

// refusal is the HTTP status with which the server refused the API key
// while the breaker is open for that reason, else 0.
func (b *breaker) refusal() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.down {
		return 0
	}
	return b.rejectedBy
}

// run probes the model whenever the breaker opens for an outage, at
// probeFirst doubling to probeMax, until a probe succeeds; it returns when
// ctx ends.
func (b *breaker) run(ctx context.Context) {
	b.mu.Lock()
	b.probing = true
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.probing = false
		b.mu.Unlock()
	}()
	b.loop.Run(ctx)
}

// Complete runs one LLM call (see complete), unless the breaker says the
// model is down: then it fails at once with bot.ErrBrainDown, and the
// caller falls back without waiting.
func (o *OpenAI) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	if !o.breaker.allow() {
		return bot.Response{}, fmt.Errorf("complete %s: %w", req.Kind, bot.ErrBrainDown)
	}
	resp, err := o.complete(withExtraBody(ctx, o.cache.fields(req.CacheKey)), req)
	o.breaker.record(classify(ctx, err), err)
	return resp, err
}

// Run probes the model in the background whenever the breaker opens, until
// ctx ends. The daemon runs it for the brain's lifetime; without it a
// trial call per probe interval does the probing.
func (o *OpenAI) Run(ctx context.Context) {
	o.breaker.run(ctx)
}

// Health is nil while the model is reachable and accepts the API key (as
// far as the last calls tell), for /healthz and hearth_brain_up.
func (o *OpenAI) Health(context.Context) error {
	down, since := o.breaker.state()
	if status := o.breaker.refusal(); down && status != 0 {
		return keyRejectedError{status: status, since: since}
	}
	if down {
		return fmt.Errorf("%w since %s: the offline brain answers", bot.ErrBrainDown, since.UTC().Format(time.RFC3339))
	}
	return nil
}

// keyRejectedError is Health's answer while the server refuses the API
// key: bot.ErrBrainDown for errors.Is, in words that do not call the
// server unreachable.
type keyRejectedError struct {
	status int
	since  time.Time
}

func (e keyRejectedError) Error() string {
	return fmt.Sprintf("the model rejects the API key (HTTP %d) since %s: the offline brain answers",
		e.status, e.since.UTC().Format(time.RFC3339))
}

// Is makes errors.Is(err, bot.ErrBrainDown) hold.
func (e keyRejectedError) Is(target error) bool { return target == bot.ErrBrainDown }

// probe asks the server for its model list: cheap, no tokens, served by
// OpenAI, llama.cpp, vLLM, Ollama and SGLang alike. Any answer below 500
// means the server is there.
func (o *OpenAI) probe(ctx context.Context) error {
	_, err := o.client.ListModels(ctx)
	if err == nil || statusOf(err) > 0 && statusOf(err) < http.StatusInternalServerError {
		return nil
	}
	return redact(err, o.secrets...)
}

// classify reads what a call's error says about the model. ctx is the
// caller's: when the caller gave up, nothing is learned.
func classify(ctx context.Context, err error) verdict {
	switch {
	case err == nil:
		return reachable
	case errors.Is(ctx.Err(), context.Canceled):
		return unknown
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, ErrStreamCut):
		return outage
	}
	if code := statusOf(err); code > 0 {
		switch {
		case code >= http.StatusInternalServerError:
			return outage
		case code == http.StatusUnauthorized || code == http.StatusForbidden:
			if errors.Is(err, bot.ErrImagesRejected) {
				// Only the photo was refused (see imagesRejected):
				// the retry without it speaks for the key.
				return unknown
			}
			return refused
		}
		return reachable
	}
	var netErr net.Error
	if unreachable(err) || errors.As(err, &netErr) || errors.Is(err, syscall.ECONNRESET) {
		return outage
	}
	return reachable // it answered something we could not use
}

// APIError reads a failed call's HTTP status and what the server said
// (lower-cased: the message, its code and any raw body), for the callers
// that decide by them: retries, the breaker, image refusals and the
// embeddings worker. status is 0 when the server answered nothing.
func APIError(err error) (status int, message string) {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		code, _ := apiErr.Code.(string)
		return apiErr.HTTPStatusCode, strings.ToLower(apiErr.Message + " " + code)
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode, strings.ToLower(string(reqErr.Body) + " " + reqErr.Error())
	}
	return 0, ""
}

// statusOf is the HTTP status of an API error, 0 when there was none.
func statusOf(err error) int {
	status, _ := APIError(err)
	return status
}

// unreachable reports errors that say no server is there: a refused
// connection, a name that does not resolve, no route, a connect timeout.
// Retrying them at once only delays the fallback; the breaker and its probe
// take over instead.
func unreachable(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// defaultTransport is http.DefaultTransport with dialTimeout and
// maxIdlePerHost, for a brain given no HTTP client of its own.
func defaultTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: dialTimeout}).DialContext
	t.MaxIdleConnsPerHost = maxIdlePerHost
	return t
}
