// Package media gives the companion her senses (DESIGN §12): it downloads
// voice notes and photos through the transports within size and duration
// limits, transcribes voice notes on an OpenAI-compatible
// /audio/transcriptions endpoint, speaks replies on /audio/speech, and turns
// photos into data: URLs for the reply model. The turn engine consumes it
// through bot.Media; transports only open platform files (bot.MediaFetcher).
//
// Downloads stream: a voice note is spooled to an unlinked temporary file
// and uploaded from there with a known length, so a 20 MB recording does not
// sit in memory; a photo (at most bot.MaxPhotoBytes) is read once.
package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hearth/bot"
	"hearth/bot/baseurl"
	"hearth/bot/probe"
)

// Deadlines and retries of media calls (hearth's choices).
const (
	// TranscribeTimeout bounds downloading and transcribing one voice note;
	// a ten-minute note on a local whisper server takes a while.
	TranscribeTimeout = 2 * time.Minute
	// SpeakTimeout bounds one speech request.
	SpeakTimeout = time.Minute
	// PictureTimeout bounds downloading one photo.
	PictureTimeout = 30 * time.Second
	// DefaultRetryWait is the pause before the one retry after a 429, a
	// 5xx or a network error.
	DefaultRetryWait = time.Second
	// unavailableFor is how long an endpoint that answered 404 is left alone
	// (issue 14: "logged once and treated as unavailable for an hour").
	unavailableFor = time.Hour
	// failingAfter is how many calls in a row must fail (unreachable, 5xx
	// or 429 after the retry, or the API key refused) before Health
	// reports the endpoint (the brain's BreakerThreshold: one blip is not
	// an outage).
	failingAfter = 2
	// maxAnswerBytes bounds a transcription's JSON answer.
	maxAnswerBytes = 1 << 20
	// maxSpeechBytes bounds a speech answer: 4096 characters spoken are about
	// five minutes, 1.2 MB of Opus at 32 kbit/s or 4.8 MB of MP3 at 128.
	maxSpeechBytes = 16 << 20
	// bytesPerSecond estimates the length of a recording whose length
	// neither the platform nor its container told: Telegram voice notes are
	// Opus at 16-32 kbit/s, so 4000 B/s errs towards fewer seconds.
	bytesPerSecond = 4000
)

// Off is the model name that switches hearing or speech off
// (HEARTH_STT_MODEL=off, HEARTH_TTS_MODEL=off).
const Off = "off"

// Config configures the senses; cmd/hearth fills it from HEARTH_AUDIO_*.
type Config struct {
	// BaseURL is the OpenAI-compatible server of /audio/transcriptions and
	// /audio/speech, e.g. "https://api.openai.com/v1". Required.
	BaseURL string
	APIKey  string // never logged; redacted from errors
	// STTModel and TTSModel name the models; "" or Off switches hearing or
	// speech off.
	STTModel, TTSModel string
	// HTTPClient is optional; the per-call deadlines bound every call.
	HTTPClient *http.Client
	Logger     *slog.Logger
	Now        func() time.Time // default time.Now
	TempDir    string           // for spooled voice notes; default os.TempDir()
	RetryWait  time.Duration    // before the one retry; 0: DefaultRetryWait
	// ProbeFirst is the wait before the first probe of a server found
	// unreachable (see Run); 0: ProbeFirst. Tests shorten it.
	ProbeFirst time.Duration
}

// Senses implements bot.Media. It is safe for concurrent use.
type Senses struct {
	base      baseurl.URL
	key       string
	stt, tts  endpoint
	client    *http.Client
	log       *slog.Logger
	now       func() time.Time
	tempDir   string
	retryWait time.Duration

	mu         sync.Mutex
	opusRefuse bool // the speech server refused Opus once: ask for MP3

	// probing is set while Run probes: then an endpoint failing with
	// nothing answering gets no trial calls, the probe finds out.
	probing atomic.Bool
	// first is the wait before the first probe and the first trial call.
	first time.Duration

	// loop probes the server while an endpoint fails as unreachable, so
	// Health recovers without waiting for the next voice note (Run).
	loop *probe.Loop
}

var _ bot.Media = (*Senses)(nil)

// New builds the senses.
func New(cfg Config) (*Senses, error) {
	base, err := baseurl.Parse(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("new media: %w", err)
	}
	s := &Senses{
		base: base, key: cfg.APIKey, client: cfg.HTTPClient, log: cfg.Logger, now: cfg.Now, tempDir: cfg.TempDir,
		retryWait: cfg.RetryWait,
		stt:       endpoint{path: "/audio/transcriptions", model: model(cfg.STTModel)},
		tts:       endpoint{path: "/audio/speech", model: model(cfg.TTSModel)},
	}
	if s.client == nil {
		s.client = &http.Client{}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.retryWait <= 0 {
		s.retryWait = DefaultRetryWait
	}
	first := cfg.ProbeFirst
	if first <= 0 {
		first = ProbeFirst
	}
	s.first = first
	s.loop = probe.New(probe.Loop{First: first, Max: ProbeMax, Timeout: ProbeTimeout, Probe: s.probe,
		Down: s.unreachable, Up: s.reachable, Log: s.log, What: "audio server"})
	return s, nil
}

func model(name string) string {
	if strings.EqualFold(strings.TrimSpace(name), Off) {
		return ""
	}
	return strings.TrimSpace(name)
}

// endpoint is one audio endpoint with its model, after a 404 the time
// until which it is left alone, and the failures in a row Health reports.
type endpoint struct {
	path, model string
	mu          sync.Mutex
	until       time.Time
	notFoundAt  time.Time // when the 404 that set until came
	failures    int       // calls in a row that failed as an outage or with the key refused
	since       time.Time // when the first of them failed
	// how is the last failure's kind: a probe of /models speaks only for
	// failedNet (nothing answered); a server that answers but fails the
	// call, or refuses the key, is found working again only by a call.
	how failure
	// status is the last failure's HTTP status (0: no answer).
	status int
	// While failing, calls are refused at once (fail-fast) but for one
	// trial call at trialAt, the next after interval, doubling to
	// ProbeMax; with failedNet and Run probing, the probe finds out
	// instead and no trial goes.
	trialAt  time.Time
	interval time.Duration
}

// failure is how a call that counts against an endpoint failed.
type failure int

const (
	failedNet    failure = iota // no answer: refused, reset, no route
	failedServer                // a 5xx or 429 after the retry, or no answer within the call's deadline
	failedKey                   // 401 or 403: the API key refused
)

// change is what one call's outcome did to an endpoint's health.
type change int

const (
	unchanged   change = iota
	wentDown           // the failingAfter-th failure in a row: unreachable
	keyRefused         // the failingAfter-th failure in a row: the key refused
	stillDown          // failing as unreachable, and known to be
	cameBack           // a call went through after the endpoint was failing
	keyAccepted        // a call went through after the key was refused
)

// outcome records how one call ended for Health: ok for a call the
// server answered (2xx, or a 4xx about this input); else a failure of
// kind how that counts against the endpoint, with the HTTP status (0:
// none). It says what the call changed, and since when the endpoint had
// failed. first is the wait before the first trial call once failing.
func (e *endpoint) outcome(now time.Time, ok bool, how failure, status int, first time.Duration) (change, time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ok {
		c := unchanged
		switch {
		case e.failures >= failingAfter && e.how == failedKey:
			c = keyAccepted
		case e.failures >= failingAfter:
			c = cameBack
		}
		e.failures, e.how, e.status = 0, failedNet, 0
		return c, e.since
	}
	if e.failures == 0 || e.since.IsZero() {
		e.since = now
	}
	e.failures++
	e.how, e.status = how, status
	if e.failures == failingAfter {
		e.interval, e.trialAt = first, now.Add(first)
	}
	switch {
	case e.failures < failingAfter:
		return unchanged, e.since
	case how == failedKey && e.failures == failingAfter:
		return keyRefused, e.since
	case how == failedKey:
		return unchanged, e.since
	case e.failures == failingAfter:
		return wentDown, e.since
	}
	return stillDown, e.since
}

// down reports whether the endpoint fails with nothing answering: what a
// probe can find out about (a refused key, or a server that answers but
// fails the call, only a real call can).
func (e *endpoint) down() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.model != "" && e.failures >= failingAfter && e.how == failedNet
}

// up records a probe that found the server answering: an endpoint failing
// with nothing answering reports ok again, one failure short of failing,
// so the next failed call reports it at once (the probe showed the server
// there, not that this endpoint works). It reports whether the endpoint
// was down and since when.
func (e *endpoint) up() (bool, time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.model == "" || e.failures < failingAfter || e.how != failedNet {
		return false, time.Time{}
	}
	since := e.since
	e.failures, e.since = failingAfter-1, time.Time{}
	return true, since
}

// allow reports whether a call may go to the endpoint now (fail-fast):
// always while it works; while it fails, only as the trial call of its
// interval, and never while it fails with nothing answering and probing
// (Run) finds out instead.
func (e *endpoint) allow(now time.Time, probing bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.failures < failingAfter:
		return true
	case e.how == failedNet && probing:
		return false
	case now.Before(e.trialAt):
		return false
	}
	e.trialAt = now.Add(e.interval)
	e.interval = min(2*e.interval, ProbeMax)
	return true
}

// health is the endpoint's failing state in /healthz's words, nil while
// it works, is switched off or has not failed failingAfter times in a row.
func (e *endpoint) health(now time.Time) error {
	if e.model == "" {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	since := e.since.UTC().Format(time.RFC3339)
	switch {
	case now.Before(e.until):
		return fmt.Errorf("%s: no such endpoint or model %q (HTTP 404) since %s, asking again at %s",
			e.path, e.model, e.notFoundAt.UTC().Format(time.RFC3339), e.until.UTC().Format(time.RFC3339))
	case e.failures < failingAfter:
		return nil
	case e.how == failedKey:
		return fmt.Errorf("%s: the server rejects the API key (HTTP %d) since %s", e.path, e.status, since)
	case e.how == failedServer && e.status != 0:
		return fmt.Errorf("%s: unreachable since %s (it answers HTTP %d)", e.path, since, e.status)
	case e.how == failedServer:
		return fmt.Errorf("%s: unreachable since %s (no answer in time)", e.path, since)
	}
	return fmt.Errorf("%s: unreachable since %s", e.path, since)
}

// Health is nil while hearing and speech work as far as the last calls
// and probes tell, for /healthz. It fails while an endpoint rests after a
// 404, and after failingAfter calls in a row that failed as an outage or
// with the API key refused: until Run's probe finds the server answering
// again (when nothing answered the calls) or a call goes through (the key
// refused, or a server that answers GET /models but fails the call: a
// probe cannot tell those from a working endpoint).
func (s *Senses) Health(context.Context) error {
	now := s.now()
	return errors.Join(s.stt.health(now), s.tts.health(now))
}

// ready returns ErrSenseOff while the endpoint is switched off or resting
// after a 404, and, wrapping bot.ErrSenseDown too, while it is known to be
// failing and this call is not its trial (fail-fast: a voice note is
// answered at once instead of waiting on a server known down).
func (s *Senses) ready(e *endpoint) error {
	if e.model == "" {
		return fmt.Errorf("%s: switched off: %w", e.path, bot.ErrSenseOff)
	}
	now := s.now()
	e.mu.Lock()
	resting, until := now.Before(e.until), e.until
	e.mu.Unlock()
	if resting {
		return fmt.Errorf("%s: unavailable after a 404 until %s: %w: %w", e.path, until.Format(time.TimeOnly), bot.ErrSenseDown, bot.ErrSenseOff)
	}
	if !e.allow(now, s.probing.Load()) {
		return fmt.Errorf("%s: failing, not asked again yet: %w: %w", e.path, bot.ErrSenseDown, bot.ErrSenseOff)
	}
	return nil
}

// notFound leaves the endpoint alone for unavailableFor and reports whether
// this is news worth logging (it was available until now).
func (e *endpoint) notFound(now time.Time) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	news := !now.Before(e.until)
	if news {
		e.notFoundAt = now
	}
	e.until = now.Add(unavailableFor)
	return news
}

// statusError is an audio endpoint's non-2xx answer.
type statusError struct {
	status int
	body   string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("status %d: %s", e.status, e.body)
}

// call sends the request make builds, once more after a 429, a 5xx or a
// network error. A 404 rests the endpoint for an hour (logged once) and is
// ErrSenseOff. The key is redacted from every error.
func (s *Senses) call(ctx context.Context, e *endpoint, build func() (*http.Request, error)) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		req, err := build()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.path, err)
		}
		if s.key != "" {
			req.Header.Set("Authorization", "Bearer "+s.key)
		}
		resp, err := s.client.Do(req)
		if err == nil && resp.StatusCode/100 == 2 {
			s.outcome(e, true, 0, 0, nil)
			return resp, nil
		}
		retry := err != nil && ctx.Err() == nil && isNetErr(err)
		switch {
		case err != nil && ctx.Err() == nil && (!retry || attempt > 0):
			s.outcome(e, false, failedNet, 0, err) // unreachable, after the retry
		case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
			// The call's own deadline (TranscribeTimeout, SpeakTimeout):
			// a server that takes a voice note and never answers is as
			// down as one that refuses it.
			s.outcome(e, false, failedServer, 0, err)
		}
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			resp.Body.Close()
			err = &statusError{status: resp.StatusCode, body: strings.TrimSpace(string(body))}
			retry = resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
			if resp.StatusCode == http.StatusNotFound {
				if e.notFound(s.now()) {
					s.log.Warn("audio endpoint answered 404; treating it as unavailable for an hour", "endpoint", e.path, "model", e.model)
				}
				return nil, fmt.Errorf("%s: %w: %w", e.path, bot.ErrSenseOff, s.redact(err))
			}
			if !retry || attempt > 0 {
				switch code := resp.StatusCode; {
				case retry:
					s.outcome(e, false, failedServer, code, err)
				case code == http.StatusUnauthorized || code == http.StatusForbidden:
					s.outcome(e, false, failedKey, code, err)
				default:
					s.outcome(e, true, 0, 0, nil) // a 4xx about this input: the server works
				}
			}
		}
		if !retry || attempt > 0 {
			return nil, s.failure(ctx, e, err)
		}
		s.log.Warn("audio call retrying", "endpoint", e.path, "err", s.redact(err))
		t := time.NewTimer(s.retryWait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%s: %w", e.path, ctx.Err())
		case <-t.C:
		}
	}
}

// formatWords are what speech servers say when they cannot decode an
// upload's format: OpenAI answers 400 "Invalid file format. Supported
// formats: [...]", others "unsupported", "could not decode", or name the
// codec. A 415 says it without words.
var formatWords = []string{"format", "unsupported", "decod", "codec"}

// failure is the error of a call that failed for good, redacted and, so
// the turn can tell the user plainly, wrapping bot.ErrSenseOff when the
// server cannot be used right now (unreachable, a 5xx or 429 after the
// retry, the API key refused) and bot.ErrMediaFormat when it cannot read
// this recording's format.
func (s *Senses) failure(ctx context.Context, e *endpoint, err error) error {
	var se *statusError
	switch {
	case errors.As(err, &se) && (se.status >= 500 || se.status == http.StatusTooManyRequests ||
		se.status == http.StatusUnauthorized || se.status == http.StatusForbidden):
		return fmt.Errorf("%s: %w: %w", e.path, bot.ErrSenseOff, s.redact(err))
	case errors.As(err, &se) && (se.status == http.StatusUnsupportedMediaType ||
		(se.status == http.StatusBadRequest || se.status == http.StatusUnprocessableEntity) && containsAny(strings.ToLower(se.body), formatWords)):
		return fmt.Errorf("%s: %w: %w", e.path, bot.ErrMediaFormat, s.redact(err))
	case se == nil && ctx.Err() == nil && isNetErr(err):
		return fmt.Errorf("%s: unreachable: %w: %w", e.path, bot.ErrSenseOff, s.redact(err))
	}
	return fmt.Errorf("%s: %w", e.path, s.redact(err))
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// isNetErr reports whether err is a transport failure worth one retry (a
// refused or reset connection, a timeout of one attempt), not the caller's
// cancellation.
func isNetErr(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// redactedError hides the API key and the base URL's secrets in an error's
// text, keeping the chain.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

func (s *Senses) redact(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, sec := range append([]string{s.key}, s.base.Secrets()...) {
		if sec != "" {
			msg = strings.ReplaceAll(msg, sec, baseurl.Mark)
		}
	}
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}

// spool copies what fetch opens for ref into an unlinked temporary file,
// at most limit bytes: nothing stays behind on disk, even after kill -9.
func (s *Senses) spool(ctx context.Context, ref bot.MediaRef, fetch bot.MediaFetcher, limit int64) (*os.File, int64, error) {
	rc, err := fetch.FetchMedia(ctx, ref)
	if err != nil {
		return nil, 0, fmt.Errorf("fetch: %w", err)
	}
	defer rc.Close()
	f, err := os.CreateTemp(s.tempDir, "hearth-voice-*")
	if err != nil {
		return nil, 0, fmt.Errorf("spool: %w", err)
	}
	_ = os.Remove(f.Name()) // the open file lives on until closed
	n, err := io.Copy(f, io.LimitReader(rc, limit+1))
	if err == nil && n > limit {
		err = fmt.Errorf("more than %d bytes: %w", limit, bot.ErrMediaTooLarge)
	}
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("download: %w", err)
	}
	return f, n, nil
}
