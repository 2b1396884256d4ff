package admin

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// maxBody caps request bodies of /api/*. Chosen by us: a gift or an
// override is a few hundred bytes; 64 KiB leaves room and stops floods.
const maxBody = 64 << 10

// Health statuses of /healthz.
const (
	statusOK       = "ok"
	statusDegraded = "degraded"
)

func (s *Server) routes() http.Handler {
	api := http.NewServeMux()
	api.HandleFunc("/api/gift/send", s.giftSend)
	api.HandleFunc("/api/otome_kairo", s.otomeKairo)
	api.HandleFunc("/api/", notFound)

	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", s.healthz)
	metrics := promhttp.HandlerFor(s.cfg.Metrics.Registry(), promhttp.HandlerOpts{})
	mux.Handle("/metrics", onlyGet(metrics))
	mux.Handle("/api/", s.auth(api))
	mux.HandleFunc("/", notFound)
	return mux
}

// apiOff is the answer of every /api/* request when no token is configured.
const apiOff = "the admin API is off: HEARTH_ADMIN_TOKEN is not set"

// auth guards /api/* with the bearer token, compared in constant time so
// the comparison leaks nothing about the token. With no token configured
// /api/* is off: every request is refused before it reaches Core.
func (s *Server) auth(next http.Handler) http.Handler {
	if s.cfg.Token == "" {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			writeError(w, http.StatusForbidden, apiOff)
		})
	}
	want := []byte(s.cfg.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		// RFC 6750 §2.1 with RFC 9110 §11.1: the scheme is case-insensitive.
		if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="hearth"`)
			writeError(w, http.StatusUnauthorized, "unauthorized")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func onlyGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			methodNotAllowed(w, http.MethodGet, http.MethodHead)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// healthReport is the /healthz body.
type healthReport struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
	Info   map[string]string `json:"info"`
}

// healthz runs every check at once, each bounded by CheckTimeout, and
// answers 200 only when all pass.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, http.MethodGet, http.MethodHead)
		return
	}
	rep := healthReport{Status: statusOK, Checks: make(map[string]string, len(s.cfg.Checks)), Info: s.cfg.Info}
	if rep.Info == nil {
		rep.Info = map[string]string{}
	}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for name, check := range s.cfg.Checks {
		wg.Go(func() {
			res := runCheck(r.Context(), check)
			mu.Lock()
			rep.Checks[name] = res
			mu.Unlock()
		})
	}
	wg.Wait()
	code := http.StatusOK
	for _, res := range rep.Checks {
		if res != statusOK {
			rep.Status, code = statusDegraded, http.StatusServiceUnavailable
		}
	}
	writeJSON(w, code, rep)
}

// runCheck runs one check under CheckTimeout; a panic counts as a failure
// rather than taking the server down.
func runCheck(ctx context.Context, check Check) (res string) {
	ctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			res = "error: check panicked"
		}
	}()
	if check == nil {
		return "error: no check"
	}
	if err := check(ctx); err != nil {
		return "error: " + err.Error()
	}
	return statusOK
}

func notFound(w http.ResponseWriter, _ *http.Request) {
	writeError(w, http.StatusNotFound, "not found")
}

func methodNotAllowed(w http.ResponseWriter, allowed ...string) {
	sort.Strings(allowed)
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	writeError(w, http.StatusMethodNotAllowed, "method not allowed")
}

// errorBody is every error answer of the admin API.
type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, errorBody{Error: msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // the client went away; nothing to do
}

// decodeBody reads one JSON value of at most maxBody bytes into v and
// answers the error itself: 413 when too large, 400 when malformed.
func decodeBody(w http.ResponseWriter, r *http.Request, v any, strict bool) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil {
		if _, extra := dec.Token(); extra == nil {
			writeError(w, http.StatusBadRequest, "bad JSON: more than one value")
			return false
		}
		return true
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeError(w, http.StatusRequestEntityTooLarge, "body too large")
		return false
	}
	writeError(w, http.StatusBadRequest, "bad JSON: "+err.Error())
	return false
}
