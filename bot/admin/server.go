package admin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"hearth/bot"
	"hearth/heart"
)

// Timeouts of the admin server. Chosen by us.
const (
	// ShutdownTimeout bounds the graceful shutdown of Run: in-flight
	// requests get this long to finish once ctx ends, then are cut.
	ShutdownTimeout = 5 * time.Second
	// CheckTimeout bounds each /healthz check, so a hung dependency shows
	// as an error instead of hanging the probe.
	CheckTimeout = 2 * time.Second
	// readHeaderTimeout stops slow-header clients from holding connections.
	readHeaderTimeout = 10 * time.Second
	// writeTimeout must exceed the 90 s reply deadline (DESIGN §9 "Default
	// LLM deadlines"): a gift writes its thank-you through the LLM before
	// answering.
	writeTimeout = 2 * time.Minute
	// idleTimeout closes idle keep-alive connections.
	idleTimeout = time.Minute
)

// Core is what the admin API needs from the turn engine; *bot.Handler
// implements it. Declared here, by its consumer, so tests can use a fake.
type Core interface {
	Gift(ctx context.Context, userID, item, transactionID string) (bot.GiftResult, error)
	SetOverride(userID string, ov *heart.Override)
	LingeringAt(ctx context.Context, userID string, now time.Time) (heart.Lingering, error)
}

var _ Core = (*bot.Handler)(nil)

// Check is one /healthz check; a nil error means healthy. It must honour
// ctx, which carries CheckTimeout.
type Check func(ctx context.Context) error

// Config is everything the admin server needs; cmd/hearth fills it from
// HEARTH_HTTP_ADDR, HEARTH_ADMIN_TOKEN and the running parts.
type Config struct {
	// Addr is the listen address (HEARTH_HTTP_ADDR), e.g. "127.0.0.1:8080";
	// port 0 picks a free port (see Server.Addr).
	Addr string
	// Token is the bearer token of /api/* (HEARTH_ADMIN_TOKEN). Empty means
	// /api/* is off (403 on every request): only /healthz and /metrics are
	// served, on any address.
	Token string
	// Core is the turn engine. Required.
	Core Core
	// Checks are the /healthz checks by name (e.g. "db", "telegram"); all
	// must pass for 200.
	Checks map[string]Check
	// Info holds static facts /healthz shows, e.g. {"brain": "offline"}.
	// Never put secrets here.
	Info map[string]string
	// Metrics is served on /metrics; nil means a fresh, empty NewMetrics.
	Metrics *Metrics
	// Logger receives server errors; nil discards them.
	Logger *slog.Logger
	// Now is the clock of the lingering view; nil means time.Now.
	Now func() time.Time
}

// Server is the admin HTTP server. Build it with New, then either call Run,
// or mount Handler in a server of your own.
type Server struct {
	cfg     Config
	log     *slog.Logger
	handler http.Handler

	ovMu sync.Mutex
	ov   map[string]heart.Override // a copy of what Core holds, for GET

	started atomic.Bool // Run was called; a second call is an error
	addrMu  sync.Mutex
	addr    string
	ln      net.Listener // bound by Listen, served by Run
	ready   chan struct{}
}

// New validates cfg and builds the server. It refuses an empty Addr. Without
// a Token it builds a server whose /api/* is off (APIEnabled is false).
func New(cfg Config) (*Server, error) {
	if cfg.Addr == "" {
		return nil, errors.New("admin: empty listen address (HEARTH_HTTP_ADDR)")
	}
	if cfg.Core == nil {
		return nil, errors.New("admin: no core")
	}
	_, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("admin: listen address %q: %w", cfg.Addr, err)
	}
	// A port out of range ("127.0.0.1:99999") is a typo, not a busy port:
	// say so before anything starts.
	if _, err := net.LookupPort("tcp", port); err != nil {
		return nil, fmt.Errorf("admin: listen address %q: %w", cfg.Addr, err)
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg.Checks = maps.Clone(cfg.Checks)
	cfg.Info = maps.Clone(cfg.Info)
	s := &Server{cfg: cfg, log: log, ov: make(map[string]heart.Override), ready: make(chan struct{})}
	s.handler = s.routes()
	return s, nil
}

// APIEnabled reports whether /api/* is served: only with a Token. A shell
// on the host is no proof of being the operator, so loopback alone opens
// nothing.
func (s *Server) APIEnabled() bool { return s.cfg.Token != "" }

// Handler is the whole admin surface, for tests and for callers that run
// their own http.Server.
func (s *Server) Handler() http.Handler { return s.handler }

// Addr is the address Run is listening on (useful with port 0), or "" before
// it listens. Wait on Ready first.
func (s *Server) Addr() string {
	s.addrMu.Lock()
	defer s.addrMu.Unlock()
	return s.addr
}

// Ready is closed once Run listens, after which Addr is set.
func (s *Server) Ready() <-chan struct{} { return s.ready }

// Listen binds Config.Addr without serving yet, so a caller can fail its
// start (a port in use) before it announces it is running. Run serves the
// bound listener; without Listen, Run binds first itself.
func (s *Server) Listen(ctx context.Context) error {
	s.addrMu.Lock()
	defer s.addrMu.Unlock()
	if s.ln != nil {
		return errors.New("admin: Listen called twice")
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("admin: listen %s: %w", s.cfg.Addr, err)
	}
	s.ln, s.addr = ln, ln.Addr().String()
	close(s.ready)
	return nil
}

// Run listens on Config.Addr (unless Listen already did) and serves until
// ctx ends, then shuts down gracefully within ShutdownTimeout and returns
// nil. It returns an error when it cannot listen, serving fails, or it was
// already called.
func (s *Server) Run(ctx context.Context) error {
	if !s.started.CompareAndSwap(false, true) {
		return errors.New("admin: Run called twice")
	}
	s.addrMu.Lock()
	ln := s.ln
	s.addrMu.Unlock()
	if ctx.Err() != nil {
		if ln != nil {
			_ = ln.Close()
		}
		return nil // stopped before it started: nothing to serve
	}
	if ln == nil {
		if err := s.Listen(ctx); err != nil {
			return err
		}
		s.addrMu.Lock()
		ln = s.ln
		s.addrMu.Unlock()
	}
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: readHeaderTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("admin: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		s.log.Warn("admin: shutdown cut in-flight requests", "err", err)
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("admin: serve: %w", err)
	}
	return nil
}
