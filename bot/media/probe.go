package media

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The audio server's background probe (hearth's choices, after the
// brain's circuit breaker, bot/brain/breaker.go): without it, /healthz's
// "audio" check stayed failing after an outage until the next voice note
// or spoken reply happened to go through.
const (
	// ProbeFirst is the wait before the first probe of a server found
	// unreachable; each failed probe doubles it up to ProbeMax (the
	// brain's probeFirst and probeMax).
	ProbeFirst = 500 * time.Millisecond
	ProbeMax   = time.Minute
	// ProbeTimeout bounds one probe (the brain's probeTimeout).
	ProbeTimeout = 5 * time.Second
	// probePath is what a probe asks for: GET /models costs nothing, and
	// speaches, LocalAI and Kokoro-FastAPI serve it; a server without it
	// (whisper.cpp's) answers 404, which still shows it is there.
	probePath = "/models"
)

// Run probes the audio server in the background whenever an endpoint
// fails as unreachable, until the server answers again, so Health
// recovers on its own. It returns when ctx ends; the daemon runs it for
// the senses' lifetime.
func (s *Senses) Run(ctx context.Context) {
	s.probing.Store(true)
	defer s.probing.Store(false)
	s.loop.Run(ctx)
}

// probe asks the server for GET /models: any answer below 500 means it is
// there.
func (s *Senses) probe(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base.Endpoint(probePath), nil)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	if s.key != "" {
		req.Header.Set("Authorization", "Bearer "+s.key)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("probe: %w", s.redact(err))
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswerBytes))
	resp.Body.Close()
	if resp.StatusCode >= http.StatusInternalServerError {
		return fmt.Errorf("probe: GET %s: status %d", probePath, resp.StatusCode)
	}
	return nil
}

// unreachable reports whether an endpoint fails as unreachable: the
// probe's Down.
func (s *Senses) unreachable() bool { return s.stt.down() || s.tts.down() }

// reachable is the probe's Up: the endpoints that failed as unreachable
// report ok again, and the log says so once.
func (s *Senses) reachable() {
	for _, e := range []*endpoint{&s.stt, &s.tts} {
		if was, since := e.up(); was {
			s.log.Info("audio server reachable again", "endpoint", e.path,
				"down_for", s.now().Sub(since).Round(time.Millisecond), "found_by", "probe")
		}
	}
}

// outcome records how a call to e ended (see endpoint.outcome), wakes the
// probe while nothing answers e, and logs when e starts failing or
// recovers, once each.
func (s *Senses) outcome(e *endpoint, ok bool, how failure, status int, err error) {
	c, since := e.outcome(s.now(), ok, how, status, s.first)
	if c == wentDown || c == stillDown {
		s.loop.Wake() // Down says whether there is anything to probe for
	}
	switch c {
	case wentDown:
		s.log.Warn("audio server unreachable: voice notes get a kind answer and replies go out as text until it is back",
			"endpoint", e.path, "failures", failingAfter, "err", s.redact(err))
	case keyRefused:
		s.log.Error("audio server rejects the API key: voice notes get a kind answer and replies go out as text (check HEARTH_AUDIO_API_KEY)",
			"endpoint", e.path, "status", status, "err", s.redact(err))
	case cameBack:
		s.log.Info("audio server reachable again", "endpoint", e.path,
			"down_for", s.now().Sub(since).Round(time.Millisecond), "found_by", "a call went through")
	case keyAccepted:
		s.log.Info("audio server accepts the API key again", "endpoint", e.path,
			"refused_for", s.now().Sub(since).Round(time.Millisecond))
	}
}
