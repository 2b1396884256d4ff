package semantic

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"hearth/bot/brain"
)

// How the index treats a failing endpoint (hearth's choices, after the
// brain's circuit breaker, bot/brain/breaker.go).
const (
	// BreakerThreshold is how many calls in a row must fail before the
	// endpoint counts as down: no query is embedded on the reply path
	// until a call of the worker goes through again.
	BreakerThreshold = 2
	// backoffFirst is the worker's wait after a first failure; each
	// further failure doubles it up to backoffMax.
	backoffFirst = 500 * time.Millisecond
	backoffMax   = time.Minute
	// offFor is how long an endpoint that answered 404 (no embeddings
	// endpoint, no such model) is left alone before the worker asks again:
	// an operator may pull the model meanwhile (ollama pull).
	offFor = time.Hour
)

// verdict is what one failed call says about the endpoint.
type verdict int

const (
	outage   verdict = iota // unreachable, 5xx, 429, a deadline, a bad answer: back off
	off                     // no embeddings here for this model: full text alone
	badInput                // the server refused this input: skip it
	unknown                 // the caller gave up: says nothing
)

// classify reads a failed call's error. ctx is the caller's.
func classify(ctx context.Context, err error) verdict {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return unknown
	case errors.Is(err, errUnusable):
		return off
	}
	status, msg := brain.APIError(err)
	switch {
	case status == http.StatusNotFound, status == http.StatusNotImplemented:
		// OpenAI, vLLM and Ollama answer 404 for a model they do not
		// have; llama.cpp started without --embeddings answers 501.
		return off
	case status == http.StatusBadRequest && strings.Contains(msg, "model") &&
		(strings.Contains(msg, "not found") || strings.Contains(msg, "does not exist") || strings.Contains(msg, "model_not_found")):
		return off
	case status == http.StatusBadRequest, status == http.StatusRequestEntityTooLarge, status == http.StatusUnprocessableEntity:
		return badInput
	}
	return outage
}

// health is what the index knows of the endpoint: failures in a row (the
// breaker), a 404 (off), and a spent daily budget (paused). Each change is
// logged once.
type health struct {
	log   *slog.Logger
	model string

	mu          sync.Mutex
	failures    int
	retryAt     time.Time // the worker waits until then after a failure
	down        bool      // BreakerThreshold failures in a row
	downSince   time.Time
	offUntil    time.Time
	offSince    time.Time // when the endpoint first answered it has no embeddings
	offLogged   bool
	pausedUntil time.Time
	// rejectedBy is the HTTP status (401, 403) of the last failure when the
	// server refused the API key rather than went away; 0 otherwise.
	rejectedBy int
}

// queryable reports whether a query may be embedded now.
func (h *health) queryable(now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.down && !now.Before(h.offUntil) && !now.Before(h.pausedUntil)
}

// wait is how long the worker must wait before its next call (0: none).
func (h *health) wait(now time.Time) time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	until := h.retryAt
	if h.offUntil.After(until) {
		until = h.offUntil
	}
	if h.pausedUntil.After(until) {
		until = h.pausedUntil
	}
	return max(until.Sub(now), 0)
}

// isDown reports whether the breaker is open.
func (h *health) isDown() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.down
}

// succeeded records a call that went through.
func (h *health) succeeded(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failures, h.retryAt, h.rejectedBy = 0, time.Time{}, 0
	if h.down {
		h.down = false
		h.log.Info("embeddings reachable again: recall by meaning is back", "down_for", now.Sub(h.downSince).Round(time.Millisecond))
	}
	if h.offLogged {
		h.offLogged = false
		h.log.Info("embeddings available again: recall by meaning is on", "model", h.model)
	}
}

// failed records a failed call and returns its verdict.
func (h *health) failed(ctx context.Context, now time.Time, err error) verdict {
	v := classify(ctx, err)
	h.mu.Lock()
	defer h.mu.Unlock()
	switch v {
	case off:
		h.offUntil = now.Add(offFor)
		if !h.offLogged {
			h.offLogged, h.offSince = true, now
			h.log.Warn("embeddings unavailable for this model (no embeddings endpoint, no such model, or not an embedding model); recall uses the full-text index alone",
				"model", h.model, "retry_in", offFor, "err", err)
		} else {
			h.log.Debug("embeddings still unavailable", "model", h.model, "err", err)
		}
	case outage:
		h.failures++
		h.retryAt = now.Add(min(backoffFirst<<min(h.failures-1, 16), backoffMax))
		h.rejectedBy = 0
		if status, _ := brain.APIError(err); status == http.StatusUnauthorized || status == http.StatusForbidden {
			h.rejectedBy = status
		}
		if h.failures >= BreakerThreshold && !h.down {
			h.down, h.downSince = true, now
			msg := "embeddings unreachable: recall uses the full-text index alone until they are back"
			if h.rejectedBy != 0 {
				msg = "embeddings server rejects the API key: recall uses the full-text index alone until it accepts it (check OPENAI_API_KEY)"
			}
			h.log.Warn(msg, "failures", h.failures, "status", h.rejectedBy, "err", err)
		}
	}
	return v
}

// pause records whether the daily token budget is spent until until (the
// zero time: not spent), logging a change once.
func (h *health) pause(until time.Time, used, budget int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	was := !h.pausedUntil.IsZero()
	h.pausedUntil = until
	switch {
	case !was && !until.IsZero():
		h.log.Warn("daily token budget spent: embedding paused until tomorrow", "used", used, "budget", budget)
	case was && until.IsZero():
		h.log.Info("daily token budget available again: embedding resumes", "used", used, "budget", budget)
	}
}

// status is the endpoint's failing state for /healthz, in the words of the
// brain's check, or nil while embeddings work (or have not been asked yet).
// A spent budget is not a failure: /metrics and the log say it.
func (h *health) status(now time.Time) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	const alone = "recall uses the full-text index alone"
	switch {
	case h.down && h.rejectedBy != 0:
		return fmt.Errorf("the embeddings server rejects the API key (HTTP %d) since %s: %s",
			h.rejectedBy, h.downSince.UTC().Format(time.RFC3339), alone)
	case h.down:
		return fmt.Errorf("embeddings unreachable since %s: %s", h.downSince.UTC().Format(time.RFC3339), alone)
	case now.Before(h.offUntil):
		return fmt.Errorf("no embeddings for model %q since %s (asking again at %s): %s",
			h.model, h.offSince.UTC().Format(time.RFC3339), h.offUntil.UTC().Format(time.RFC3339), alone)
	}
	return nil
}
