package main

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
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
