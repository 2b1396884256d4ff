package brain

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"

	"hearth/bot"
)

// Backoff of retried LLM calls: exponential from backoffBase, doubled per
// attempt up to backoffMax, with jitter (our choice; the usual shape for
// OpenAI's rate limits). A server's Retry-After wins when it is longer.
const (
	backoffBase = 500 * time.Millisecond
	backoffMax  = 20 * time.Second
)

// maxRetryAfter caps how long a Retry-After header can make us wait; the
// call's deadline caps it further (our choice).
const maxRetryAfter = 60 * time.Second

// backoff computes waits between attempts. rand is the jitter source in
// [0,1); tests replace it to make waits exact.
type backoff struct {
	base, max time.Duration
	rand      func() float64
}

func defaultBackoff() backoff {
	return backoff{base: backoffBase, max: backoffMax, rand: rand.Float64}
}

// wait is the pause before retry number attempt+1: "equal jitter", half
// fixed and half random, so concurrent callers spread out; at least the
// server's Retry-After.
func (b backoff) wait(attempt int, retryAfter time.Duration) time.Duration {
	d := b.base
	for i := 0; i < attempt && d < b.max; i++ {
		d *= 2
	}
	d = min(d, b.max)
	d = d/2 + time.Duration(b.rand()*float64(d/2))
	if retryAfter > d {
		d = min(retryAfter, maxRetryAfter)
	}
	return d
}

// attemptInfo is what the transport saw of one attempt's HTTP response.
// One per attempt, carried in the request context, so concurrent calls on
// the shared client never see each other's headers.
type attemptInfo struct {
	mu    sync.Mutex
	after time.Duration
}

func (a *attemptInfo) set(d time.Duration) {
	a.mu.Lock()
	a.after = d
	a.mu.Unlock()
}

func (a *attemptInfo) retryAfter() time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.after
}

type attemptKey struct{}

func withAttemptInfo(ctx context.Context, a *attemptInfo) context.Context {
	return context.WithValue(ctx, attemptKey{}, a)
}

// retryAfterRecorder wraps the HTTP transport to record the Retry-After
// header of each response into the attempt's attemptInfo: go-openai returns
// errors without headers. It changes nothing on the wire.
type retryAfterRecorder struct {
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (r *retryAfterRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if err != nil || resp == nil {
		return resp, err
	}
	if a, ok := req.Context().Value(attemptKey{}).(*attemptInfo); ok {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			a.set(d)
		}
	}
	return resp, nil
}

// parseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date
// (RFC 9110 §10.2.3). A date in the past means "now".
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return min(time.Duration(secs*float64(time.Second)), maxRetryAfter), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfter), true
	}
	return 0, false
}

// retryable says whether a failed attempt may be repeated: rate limits
// (429), request timeouts (408), server errors (5xx), timeouts and broken
// connections. Other 4xx mean the request itself is wrong, and a server
// that is not there (refused, unknown name, no route) is left to the
// circuit breaker rather than retried. Nothing is retryable once the
// call's own context has ended.
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil || unreachable(err) {
		return false
	}
	if errors.Is(err, ErrStreamCut) {
		return true
	}
	if status := statusOf(err); status != 0 {
		return retryableStatus(status)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	var urlErr *url.Error
	return errors.As(err, &urlErr)
}

func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= http.StatusInternalServerError
}

// sleepCtx waits d or until ctx ends, with one timer that is always stopped.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Token estimate for answers without usage: about four bytes of ASCII per
// token, one token per non-ASCII rune (CJK), plus a few tokens of framing
// per message (OpenAI's published rules of thumb).
const (
	asciiCharsPerToken = 4
	tokensPerMessage   = 4
)

// estimateTokens guesses the token count of s.
func estimateTokens(s string) int {
	ascii, other := 0, 0
	for _, r := range s {
		if r < utf8.RuneSelf {
			ascii++
		} else {
			other++
		}
	}
	return (ascii+asciiCharsPerToken-1)/asciiCharsPerToken + other
}

// estimateUsage guesses a call's usage so budgets still count calls whose
// server sent none.
func estimateUsage(msgs []openai.ChatCompletionMessage, answer string) bot.Usage {
	p := 0
	for _, m := range msgs {
		p += tokensPerMessage + estimateTokens(m.Content)
	}
	return bot.Usage{PromptTokens: p, CompletionTokens: estimateTokens(answer)}
}
