package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"hearth/bot"
)

// Retry and backoff tuning (chosen by us; the Bot API documents only
// retry_after).
const (
	// backoffBase is the first wait after a transient failure.
	backoffBase = 250 * time.Millisecond
	// backoffMax bounds the exponential backoff of the poll loop and of
	// failing handlers, so recovery is noticed within half a minute.
	backoffMax = 30 * time.Second
	// sendRetries bounds retries of one request after 5xx or network errors.
	sendRetries = 4
	// rateLimitRetries bounds how often one request waits out a 429; Telegram
	// asks for seconds, so this still delivers through a burst.
	rateLimitRetries = 10
	// defaultRetryAfter is the wait after a 429 that names no retry_after.
	defaultRetryAfter = time.Second
)

// HTTP status codes the Bot API uses as error_code.
const (
	codeUnauthorized    = http.StatusUnauthorized
	codeForbidden       = http.StatusForbidden
	codeConflict        = http.StatusConflict
	codeTooManyRequests = http.StatusTooManyRequests
	codeServerError     = http.StatusInternalServerError
)

// ctxDoer is the library's HTTPClient for one call: it attaches the caller's
// context to every request (tgbotapi v5.5.1 builds requests without one), so
// cancelling the context aborts the request, including a blocked long poll.
// It also remembers the HTTP status, because the library's UploadFiles
// reports errors without an error code.
type ctxDoer struct {
	ctx    context.Context
	client *http.Client
	token  string
	status int
}

// Do sends req under the call's context and strips the token from errors:
// *url.Error includes the request URL, which contains the token.
func (d *ctxDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.client.Do(req.WithContext(d.ctx))
	if err != nil {
		return nil, redact(err, d.token)
	}
	d.status = resp.StatusCode
	return resp, nil
}

// api returns a library client bound to ctx. BotAPI is a small struct; one per
// call lets concurrent Send and Run calls carry their own contexts.
func (t *Transport) api(ctx context.Context) (*tgbotapi.BotAPI, *ctxDoer) {
	d := &ctxDoer{ctx: ctx, client: t.client, token: t.token}
	api := &tgbotapi.BotAPI{Token: t.token, Client: d, Self: t.selfUser}
	api.SetAPIEndpoint(t.endpoint)
	return api, d
}

// redactedError hides the bot token in an error's text while keeping the
// chain for errors.Is (context.Canceled, net errors).
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redact removes token from err's message.
func redact(err error, token string) error {
	if token == "" || !strings.Contains(err.Error(), token) {
		return err
	}
	var ue *url.Error
	if errors.As(err, &ue) && !strings.Contains(ue.Err.Error(), token) {
		c := *ue
		c.URL = strings.ReplaceAll(c.URL, token, "<token>")
		return &c
	}
	return &redactedError{msg: strings.ReplaceAll(err.Error(), token, "<token>"), err: errors.Unwrap(err)}
}

// failure classifies an error of one call: the Bot API error code (the HTTP
// status when the library dropped it; 0 for network and decode errors) and
// the retry_after a 429 asked for.
func failure(err error, status int) (code int, retryAfter time.Duration) {
	var te *tgbotapi.Error
	if errors.As(err, &te) {
		code = te.Code
		retryAfter = time.Duration(te.RetryAfter) * time.Second
	}
	if code == 0 && status >= http.StatusBadRequest {
		code = status
	}
	return code, retryAfter
}

// retryPolicy bounds how often one request is retried.
type retryPolicy struct {
	transient int // after 5xx and network errors
	rateLimit int // after 429
}

// deliverPolicy is for requests whose effect matters: messages, files and
// callback answers.
func deliverPolicy() retryPolicy {
	return retryPolicy{transient: sendRetries, rateLimit: rateLimitRetries}
}

// oncePolicy is for best-effort requests the caller repeats anyway (typing)
// or that are bounded by a caller's deadline (getMe at start).
func oncePolicy() retryPolicy { return retryPolicy{} }

// call runs f with a context-bound client, retrying per p: 429 waits
// retry_after, 5xx and network errors back off exponentially. A 403 is
// returned wrapping bot.ErrUnreachable. Retries are at-least-once: a request
// whose response was lost may be sent twice.
func (t *Transport) call(ctx context.Context, op string, p retryPolicy, f func(*tgbotapi.BotAPI) error) error {
	transient, limited := 0, 0
	for {
		api, d := t.api(ctx)
		err := f(api)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", op, ctx.Err())
		}
		code, retryAfter := failure(err, d.status)
		var wait time.Duration
		switch {
		case code == codeForbidden:
			return fmt.Errorf("%s: %w: %w", op, bot.ErrUnreachable, err)
		case code == codeTooManyRequests && limited < p.rateLimit:
			limited++
			wait = retryAfter
			if wait <= 0 {
				wait = defaultRetryAfter
			}
		case (code == 0 || code >= codeServerError) && transient < p.transient:
			wait = backoff(transient)
			transient++
		default:
			return fmt.Errorf("%s: %w", op, err)
		}
		t.log.Warn("telegram request retry", "op", op, "code", code, "wait", wait, "err", err)
		if err := sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
}

// backoff is the wait before retry n (0-based): backoffBase doubling up to
// backoffMax.
func backoff(n int) time.Duration {
	d := backoffBase
	for i := 0; i < n && d < backoffMax; i++ {
		d *= 2
	}
	return min(d, backoffMax)
}

// sleep waits d or until ctx ends, returning ctx's error in that case.
func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
