package main

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestLoggerRedactsSecretsEverywhere(t *testing.T) {
	const secret = "sk-live-VERYSECRET-0123456789"
	env := map[string]string{"OPENAI_API_KEY": secret, "HEARTH_LOG_FORMAT": "json"}
	var buf bytes.Buffer
	log := newLogger(&buf, func(k string) string { return env[k] })
	log.Info("calling with "+secret, "key", secret, "err", errors.New("401: bad key "+secret),
		slog.Group("req", slog.String("auth", "Bearer "+secret)))
	log.With("header", secret).Warn("again", "any", []string{secret})
	out := buf.String()
	if strings.Contains(out, "VERYSECRET") {
		t.Fatalf("secret in logs:\n%s", out)
	}
	if strings.Count(out, "[REDACTED]") < 6 {
		t.Errorf("expected every occurrence redacted:\n%s", out)
	}
}

func TestShortValuesAreNotTreatedAsSecrets(t *testing.T) {
	var buf bytes.Buffer
	log := newLogger(&buf, func(k string) string {
		if k == "HEARTH_ADMIN_TOKEN" {
			return "a"
		}
		return ""
	})
	log.Info("a normal day")
	if !strings.Contains(buf.String(), "a normal day") {
		t.Errorf("a one-letter token mangled the log: %s", buf.String())
	}
}

// TestURLSecretsNeverLogged: a password or query values in a URL variable
// (OPENAI_BASE_URL, HEARTH_AUDIO_BASE_URL) show in no log line of a real
// run, while the brain's server still gets the query on every call.
func TestURLSecretsNeverLogged(t *testing.T) {
	llm := newFakeLLM(t)
	var mu sync.Mutex
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		llm.serve(w, r)
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "luna.db")
	env := []string{
		"OPENAI_BASE_URL=" + strings.Replace(srv.URL, "http://", "http://bob:PWSECRET999@", 1) + "/v1?api-key=QSECRET555",
		"HEARTH_AUDIO_BASE_URL=http://127.0.0.1:8/v1?token=AUDQSECRET",
		"TELEGRAM_API_ENDPOINT=http://tg:TGPWSECRET@127.0.0.1:9/bot%s/%s",
	}
	r := runHearth(t, "hello\n", env, "chat", "--db", db, "--persona", examplePersona(t), "--user", "ann")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, s := range []string{"PWSECRET999", "QSECRET555", "AUDQSECRET"} {
		if strings.Contains(r.stderr, s) || strings.Contains(r.stdout, s) {
			t.Errorf("%s in the output:\n%s", s, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "api-key=[REDACTED]") {
		t.Errorf("the brain's URL is not logged with its query redacted:\n%s", r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(queries) == 0 {
		t.Fatal("the brain's server was never called")
	}
	for _, q := range queries {
		if q != "/v1/chat/completions?api-key=QSECRET555" {
			t.Errorf("the brain's server saw %q, want the base URL's query after /v1/chat/completions", q)
		}
	}
}

func TestLoggerRedactsURLSecretsInErrors(t *testing.T) {
	env := map[string]string{
		"OPENAI_BASE_URL":       "http://bob:pw@127.0.0.1:9/v1?api-key=QS",
		"TELEGRAM_API_ENDPOINT": "http://127.0.0.1:9/bot%s/%s?secret=TGQ",
	}
	var buf bytes.Buffer
	log := newLogger(&buf, func(k string) string { return env[k] })
	log.Warn("reply call failed", "err", errors.New(`Post "http://bob:pw@127.0.0.1:9/v1/chat/completions?api-key=QS": refused`),
		"tg", "GET http://127.0.0.1:9/bot1/getMe?secret=TGQ")
	out := buf.String()
	for _, s := range []string{"pw@", "=QS", "=TGQ"} {
		if strings.Contains(out, s) {
			t.Errorf("%q in %s", s, out)
		}
	}
}
