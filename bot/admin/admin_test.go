package admin_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"hearth/bot"
	"hearth/bot/admin"
	"hearth/heart"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testToken = "s3cret-token"

// fakeCore is a small in-memory Core: known users, idempotent gifts and
// overrides, with call counters so tests see what reached it.
type fakeCore struct {
	mu        sync.Mutex
	users     map[string]bool
	gifts     map[string]bot.GiftResult
	giftCalls int
	overrides map[string]heart.Override
	err       error // returned by Gift and LingeringAt when set
}

func newFakeCore(users ...string) *fakeCore {
	c := &fakeCore{users: map[string]bool{}, gifts: map[string]bot.GiftResult{}, overrides: map[string]heart.Override{}}
	for _, u := range users {
		c.users[u] = true
	}
	return c
}

func (c *fakeCore) Gift(_ context.Context, user, item, tx string) (bot.GiftResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.giftCalls++
	if c.err != nil {
		return bot.GiftResult{}, c.err
	}
	if !c.users[user] {
		return bot.GiftResult{}, fmt.Errorf("gift for %s: %w", user, bot.ErrUnknownUser)
	}
	if r, ok := c.gifts[tx]; ok {
		return r, nil
	}
	r := bot.GiftResult{User: user, Item: item, TransactionID: tx, MoodBefore: 0, MoodAfter: 50, Thanked: true}
	c.gifts[tx] = r
	return r, nil
}

func (c *fakeCore) SetOverride(user string, ov *heart.Override) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ov == nil {
		delete(c.overrides, user)
		return
	}
	c.overrides[user] = *ov
}

func (c *fakeCore) LingeringAt(_ context.Context, user string, _ time.Time) (heart.Lingering, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return heart.Lingering{}, c.err
	}
	if !c.users[user] {
		return heart.Lingering{}, fmt.Errorf("lingering of %s: %w", user, bot.ErrUnknownUser)
	}
	return c.overrides[user].Apply(heart.NewLingering(0, 0, 0, 0)), nil
}

func (c *fakeCore) setErr(err error) {
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
}

func (c *fakeCore) counts() (calls, gifts int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.giftCalls, len(c.gifts)
}

func (c *fakeCore) override(user string) (heart.Override, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ov, ok := c.overrides[user]
	return ov, ok
}

// serve starts cfg's handler on an httptest server (127.0.0.1).
func serve(t *testing.T, cfg admin.Config) *httptest.Server {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	s, err := admin.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

type answer struct {
	code int
	ct   string
	body []byte
}

func (a answer) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("body %q: %v", a.body, err)
	}
}

func (a answer) errMsg(t *testing.T) string {
	t.Helper()
	if a.ct != "application/json" {
		t.Errorf("error content type %q, want application/json", a.ct)
	}
	var e struct{ Error string }
	a.json(t, &e)
	if e.Error == "" {
		t.Errorf("error body without error: %s", a.body)
	}
	return e.Error
}

func do(t *testing.T, ts *httptest.Server, method, path, token, body string) answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header.Get("Content-Type"), b}
}

func TestNewValidatesConfig(t *testing.T) {
	core := newFakeCore()
	for _, addr := range []string{"0.0.0.0:8080", "192.168.1.5:80", ":8080", "[::]:80", "example.com:80", "127.0.0.1:0", "[::1]:8080", "localhost:8080"} {
		for _, token := range []string{"", testToken} {
			s, err := admin.New(admin.Config{Addr: addr, Token: token, Core: core})
			if err != nil {
				t.Errorf("New(%q, token %q): %v", addr, token, err)
				continue
			}
			if s.APIEnabled() != (token != "") {
				t.Errorf("New(%q, token %q): APIEnabled %v", addr, token, s.APIEnabled())
			}
		}
	}
	for _, cfg := range []admin.Config{{Core: core}, {Addr: "127.0.0.1", Core: core}, {Addr: "127.0.0.1:0"}} {
		if _, err := admin.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

func TestAuth(t *testing.T) {
	ts := serve(t, admin.Config{Token: testToken, Core: newFakeCore("u1")})
	for _, c := range []struct {
		name, token string
		want        int
	}{
		{"no token", "", http.StatusUnauthorized},
		{"wrong token", "nope", http.StatusUnauthorized},
		{"token prefix", testToken[:4], http.StatusUnauthorized},
		{"token plus suffix", testToken + "x", http.StatusUnauthorized},
		{"right token", testToken, http.StatusOK},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := do(t, ts, http.MethodGet, "/api/otome_kairo?user=u1", c.token, "")
			if a.code != c.want {
				t.Fatalf("status %d, want %d: %s", a.code, c.want, a.body)
			}
			if c.want == http.StatusUnauthorized && a.errMsg(t) != "unauthorized" {
				t.Errorf("body %s", a.body)
			}
		})
	}
	// A non-Bearer scheme carrying the right token is still refused.
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/otome_kairo?user=u1", nil)
	req.Header.Set("Authorization", "Basic "+testToken)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("Basic scheme: status %d", resp.StatusCode)
	}
	// The scheme is case-insensitive (RFC 9110 §11.1).
	req.Header.Set("Authorization", "bearer "+testToken)
	resp, err = ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("lowercase bearer: status %d", resp.StatusCode)
	}
	// Gift is guarded too, and an unauthorised gift never reaches Core.
	core := newFakeCore("u1")
	ts2 := serve(t, admin.Config{Token: testToken, Core: core})
	if a := do(t, ts2, http.MethodPost, "/api/gift/send", "", `{"user":"u1","item":"rose","transaction_id":"t"}`); a.code != http.StatusUnauthorized {
		t.Errorf("unauthenticated gift: %d", a.code)
	}
	if calls, _ := core.counts(); calls != 0 {
		t.Errorf("unauthenticated gift reached Core %d times", calls)
	}
	// Unknown /api paths need auth before they say 404, so they reveal nothing.
	if a := do(t, ts2, http.MethodGet, "/api/nothing", "", ""); a.code != http.StatusUnauthorized {
		t.Errorf("unknown api path without token: %d", a.code)
	}
	if a := do(t, ts2, http.MethodGet, "/api/nothing", testToken, ""); a.code != http.StatusNotFound || a.errMsg(t) == "" {
		t.Errorf("unknown api path with token: %d", a.code)
	}
}

// TestNoTokenMeansNoAPI: without HEARTH_ADMIN_TOKEN, /api/* is off on
// loopback too (anyone with a shell on the host could mint gifts), while
// /healthz and /metrics are served.
func TestNoTokenMeansNoAPI(t *testing.T) {
	core := newFakeCore("u1")
	ts := serve(t, admin.Config{Core: core, Checks: map[string]admin.Check{"db": func(context.Context) error { return nil }}})
	for _, c := range []struct{ method, path, token, body string }{
		{http.MethodPost, "/api/gift/send", "", `{"user":"u1","item":"rose","transaction_id":"t1"}`},
		{http.MethodPost, "/api/gift/send", "anything", `{"user":"u1","item":"rose","transaction_id":"t2"}`},
		{http.MethodGet, "/api/otome_kairo?user=u1", "", ""},
		{http.MethodPut, "/api/otome_kairo?user=u1", "", `{"active":true,"anger":1}`},
		{http.MethodGet, "/api/nothing", "", ""},
	} {
		a := do(t, ts, c.method, c.path, c.token, c.body)
		if a.code != http.StatusForbidden || !strings.Contains(a.errMsg(t), "HEARTH_ADMIN_TOKEN") {
			t.Errorf("%s %s without a configured token: %d %s, want 403 naming HEARTH_ADMIN_TOKEN", c.method, c.path, a.code, a.body)
		}
	}
	if calls, _ := core.counts(); calls != 0 {
		t.Errorf("a gift reached Core %d times with the API off", calls)
	}
	if _, ok := core.override("u1"); ok {
		t.Error("an override was set with the API off")
	}
	for _, path := range []string{"/healthz", "/metrics"} {
		if a := do(t, ts, http.MethodGet, path, "", ""); a.code != http.StatusOK {
			t.Errorf("GET %s without a token: %d, want 200", path, a.code)
		}
	}
}

func TestGiftErrors(t *testing.T) {
	core := newFakeCore("u1")
	ts := serve(t, admin.Config{Token: testToken, Core: core})
	big := `{"user":"u1","item":"` + strings.Repeat("x", 70<<10) + `","transaction_id":"t"}`
	for _, c := range []struct {
		name, method, body string
		want               int
		msg                string
	}{
		{"bad JSON", http.MethodPost, `{"user":`, http.StatusBadRequest, "bad JSON"},
		{"not an object", http.MethodPost, `[1,2]`, http.StatusBadRequest, "bad JSON"},
		{"two values", http.MethodPost, `{"user":"u1","item":"a","transaction_id":"t"}{}`, http.StatusBadRequest, "bad JSON"},
		{"empty body", http.MethodPost, ``, http.StatusBadRequest, "bad JSON"},
		{"missing user", http.MethodPost, `{"item":"rose","transaction_id":"t1"}`, http.StatusBadRequest, "missing user"},
		{"missing item", http.MethodPost, `{"user":"u1","transaction_id":"t1"}`, http.StatusBadRequest, "missing item"},
		{"blank transaction", http.MethodPost, `{"user":"u1","item":"rose","transaction_id":"  "}`, http.StatusBadRequest, "missing transaction_id"},
		{"too large", http.MethodPost, big, http.StatusRequestEntityTooLarge, "too large"},
		{"unknown user", http.MethodPost, `{"user":"ghost","item":"rose","transaction_id":"t2"}`, http.StatusNotFound, "unknown user"},
		{"GET", http.MethodGet, ``, http.StatusMethodNotAllowed, "method"},
		{"PUT", http.MethodPut, `{"user":"u1","item":"rose","transaction_id":"t3"}`, http.StatusMethodNotAllowed, "method"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := do(t, ts, c.method, "/api/gift/send", testToken, c.body)
			if a.code != c.want {
				t.Fatalf("status %d, want %d: %s", a.code, c.want, a.body)
			}
			if msg := a.errMsg(t); !strings.Contains(msg, c.msg) {
				t.Errorf("error %q, want it to contain %q", msg, c.msg)
			}
		})
	}
	if _, n := core.counts(); n != 0 {
		t.Errorf("a rejected request applied %d gifts", n)
	}
	core.setErr(errors.New("disk on fire"))
	a := do(t, ts, http.MethodPost, "/api/gift/send", testToken, `{"user":"u1","item":"rose","transaction_id":"t4"}`)
	if a.code != http.StatusInternalServerError {
		t.Fatalf("core error: status %d", a.code)
	}
	if msg := a.errMsg(t); strings.Contains(msg, "disk on fire") {
		t.Errorf("500 body leaks the internal error: %q", msg)
	}
}

func TestGiftOK(t *testing.T) {
	core := newFakeCore("u1")
	ts := serve(t, admin.Config{Token: testToken, Core: core})
	body := `{"user":"u1","item":"rose","transaction_id":"tx-1","extra":"tolerated"}`
	var first, again bot.GiftResult
	a := do(t, ts, http.MethodPost, "/api/gift/send", testToken, body)
	if a.code != http.StatusOK || a.ct != "application/json" {
		t.Fatalf("status %d %q: %s", a.code, a.ct, a.body)
	}
	a.json(t, &first)
	want := bot.GiftResult{User: "u1", Item: "rose", TransactionID: "tx-1", MoodAfter: 50, Thanked: true}
	if first != want {
		t.Errorf("result %+v, want %+v", first, want)
	}
	do(t, ts, http.MethodPost, "/api/gift/send", testToken, body).json(t, &again)
	if again != first {
		t.Errorf("repeat %+v, want the first result %+v", again, first)
	}
}

func TestOtomeKairo(t *testing.T) {
	core := newFakeCore("u1")
	ts := serve(t, admin.Config{Token: testToken, Core: core})
	const path = "/api/otome_kairo?user=u1"
	type view struct {
		User      string
		Lingering heart.Lingering
		Override  *heart.Override
	}
	var v view
	do(t, ts, http.MethodGet, path, testToken, "").json(t, &v)
	if v.User != "u1" || v.Override != nil || v.Lingering.Intensity != 0 {
		t.Fatalf("initial view %+v", v)
	}
	a := do(t, ts, http.MethodPut, path, testToken, `{"active":true,"joy":0.1,"sadness":0.2,"anger":0.8,"fear":0}`)
	if a.code != http.StatusOK {
		t.Fatalf("PUT: %d %s", a.code, a.body)
	}
	a.json(t, &v)
	if v.Lingering.Label != heart.LabelAnger || v.Lingering.Intensity != 0.8 {
		t.Errorf("PUT answered lingering %+v, want anger 0.8", v.Lingering)
	}
	if ov, ok := core.override("u1"); !ok || ov.Anger != 0.8 || !ov.Active {
		t.Errorf("core override %+v %v", ov, ok)
	}
	v = view{}
	do(t, ts, http.MethodGet, path, testToken, "").json(t, &v)
	if v.Override == nil || v.Override.Anger != 0.8 || v.Lingering.Label != heart.LabelAnger {
		t.Errorf("GET after PUT %+v", v)
	}
	// active:false clears.
	do(t, ts, http.MethodPut, path, testToken, `{"active":false}`).json(t, &v)
	if _, ok := core.override("u1"); ok || v.Override != nil || v.Lingering.Intensity != 0 {
		t.Errorf("after active:false: core has override %v, view %+v", ok, v)
	}
	// DELETE clears too.
	do(t, ts, http.MethodPut, path, testToken, `{"active":true,"fear":1}`)
	if a := do(t, ts, http.MethodDelete, path, testToken, ""); a.code != http.StatusOK {
		t.Fatalf("DELETE: %d", a.code)
	}
	if _, ok := core.override("u1"); ok {
		t.Error("DELETE left the override in Core")
	}
	// A rejected PUT neither sets nor clears: the override in place stays.
	do(t, ts, http.MethodPut, path, testToken, `{"active":true,"sadness":0.3}`)
	for _, c := range []struct {
		name, method, path, body string
		want                     int
	}{
		{"missing user", http.MethodGet, "/api/otome_kairo", "", http.StatusBadRequest},
		{"unknown user", http.MethodGet, "/api/otome_kairo?user=ghost", "", http.StatusNotFound},
		{"unknown user PUT", http.MethodPut, "/api/otome_kairo?user=ghost", `{"active":true,"joy":1}`, http.StatusNotFound},
		{"above 1", http.MethodPut, path, `{"active":true,"joy":1.5}`, http.StatusBadRequest},
		{"negative", http.MethodPut, path, `{"active":true,"fear":-0.1}`, http.StatusBadRequest},
		{"overflow", http.MethodPut, path, `{"active":true,"anger":1e999}`, http.StatusBadRequest},
		{"string", http.MethodPut, path, `{"active":true,"anger":"high"}`, http.StatusBadRequest},
		{"unknown key", http.MethodPut, path, `{"active":true,"rage":1}`, http.StatusBadRequest},
		{"empty object", http.MethodPut, path, `{}`, http.StatusBadRequest},
		{"no active", http.MethodPut, path, `{"anger":0.9}`, http.StatusBadRequest},
		{"clearing with values", http.MethodPut, path, `{"active":false,"anger":0.9}`, http.StatusBadRequest},
		{"active not a bool", http.MethodPut, path, `{"active":"yes","anger":0.9}`, http.StatusBadRequest},
		{"another API's body", http.MethodPut, path, `{"label":"anger","intensity":0.9}`, http.StatusBadRequest},
		{"POST", http.MethodPost, path, `{}`, http.StatusMethodNotAllowed},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := do(t, ts, c.method, c.path, testToken, c.body)
			if a.code != c.want {
				t.Fatalf("status %d, want %d: %s", a.code, c.want, a.body)
			}
			a.errMsg(t)
		})
	}
	if ov, ok := core.override("u1"); !ok || ov != (heart.Override{Active: true, Sadness: 0.3}) {
		t.Errorf("after rejected PUTs the override is %+v (present %v), want the one set before", ov, ok)
	}
	if _, ok := core.override("ghost"); ok {
		t.Error("an override was set for an unknown user")
	}
	core.setErr(errors.New("db gone"))
	if a := do(t, ts, http.MethodGet, path, testToken, ""); a.code != http.StatusInternalServerError {
		t.Errorf("core error: %d", a.code)
	}
}

func TestHealthz(t *testing.T) {
	ok := func(context.Context) error { return nil }
	ts := serve(t, admin.Config{Token: testToken, Core: newFakeCore(),
		Checks: map[string]admin.Check{"db": ok, "brain": ok}, Info: map[string]string{"brain": "offline"}})
	a := do(t, ts, http.MethodGet, "/healthz", "", "")
	var rep struct {
		Status string
		Checks map[string]string
		Info   map[string]string
	}
	a.json(t, &rep)
	if a.code != http.StatusOK || rep.Status != "ok" || rep.Checks["db"] != "ok" || rep.Checks["brain"] != "ok" || rep.Info["brain"] != "offline" {
		t.Fatalf("healthy: %d %s", a.code, a.body)
	}

	// A failing check and a hung one: 503, both named, within the bound.
	hung := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	ts = serve(t, admin.Config{Token: testToken, Core: newFakeCore(), Checks: map[string]admin.Check{
		"db": ok, "telegram": func(context.Context) error { return errors.New("getMe: 401") }, "discord": hung,
		"brain": func(context.Context) error { panic("bug") },
	}})
	start := time.Now()
	a = do(t, ts, http.MethodGet, "/healthz", "", "")
	if took := time.Since(start); took > admin.CheckTimeout+5*time.Second {
		t.Errorf("healthz took %v with a hung check", took)
	}
	rep = struct {
		Status string
		Checks map[string]string
		Info   map[string]string
	}{}
	a.json(t, &rep)
	if a.code != http.StatusServiceUnavailable || rep.Status != "degraded" {
		t.Fatalf("degraded: %d %s", a.code, a.body)
	}
	if rep.Checks["db"] != "ok" || rep.Checks["telegram"] != "error: getMe: 401" ||
		!strings.HasPrefix(rep.Checks["discord"], "error: context deadline") || !strings.HasPrefix(rep.Checks["brain"], "error:") {
		t.Errorf("checks %v", rep.Checks)
	}
	if a := do(t, ts, http.MethodPost, "/healthz", "", ""); a.code != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz: %d", a.code)
	}
}

func TestNotFoundIsJSON(t *testing.T) {
	ts := serve(t, admin.Config{Token: testToken, Core: newFakeCore()})
	a := do(t, ts, http.MethodGet, "/nothing", "", "")
	if a.code != http.StatusNotFound || a.errMsg(t) != "not found" {
		t.Errorf("%d %s", a.code, a.body)
	}
}
