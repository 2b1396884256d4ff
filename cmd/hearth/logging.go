package main

import (
	"context"
	"io"
	"log/slog"
	"strings"

	"hearth/bot/baseurl"
)

// secretEnv are the variables whose values never appear in logs.
var secretEnv = []string{"TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "OPENAI_API_KEY", "HEARTH_ADMIN_TOKEN", "HEARTH_AUDIO_API_KEY"}

// urlEnv are the variables holding URLs whose userinfo password and query
// values are secrets ("http://bob:pw@host/v1?api-key=..."): those parts never
// appear in logs. TELEGRAM_API_ENDPOINT carries the library's %s verbs.
var urlEnv = []string{"OPENAI_BASE_URL", "HEARTH_AUDIO_BASE_URL", "TELEGRAM_API_ENDPOINT", "DISCORD_API_BASE"}

// MinSecretLen avoids "redacting" trivially short values that would mangle
// ordinary words (a real token is far longer).
const MinSecretLen = 6

// newLogger builds the process logger: text or JSON (HEARTH_LOG_FORMAT) on w,
// level from HEARTH_LOG_LEVEL, with every secret of env redacted from
// messages and attributes, including error strings that libraries built
// from URLs with the Telegram token in them.
func newLogger(w io.Writer, getenv func(string) string) *slog.Logger {
	level := slog.LevelInfo
	_ = level.UnmarshalText([]byte(getenv("HEARTH_LOG_LEVEL")))
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if strings.EqualFold(getenv("HEARTH_LOG_FORMAT"), "json") {
		h = slog.NewJSONHandler(w, opts)
	}
	r := redactor(getenv)
	if r == nil {
		return slog.New(h)
	}
	return slog.New(&redactHandler{next: h, r: r})
}

// redactor replaces every secret of the environment with [REDACTED], or is
// nil when there are none.
func redactor(getenv func(string) string) *strings.Replacer {
	var pairs []string
	for _, k := range secretEnv {
		if v := getenv(k); len(v) >= MinSecretLen {
			pairs = append(pairs, v, "[REDACTED]")
		}
	}
	for _, k := range urlEnv {
		// baseurl.Secrets yields whole "name=value" and "user:pw@" forms,
		// distinctive however short the value.
		for _, s := range baseurl.Secrets(strings.ReplaceAll(getenv(k), "%s", "s")) {
			pairs = append(pairs, s, baseurl.Mark)
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	return strings.NewReplacer(pairs...)
}

// redactHandler rewrites every string in a record before it is written.
type redactHandler struct {
	next slog.Handler
	r    *strings.Replacer
}

func (h *redactHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.Replace(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.redact(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *redactHandler) redact(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		attrs := v.Group()
		red := make([]any, len(attrs))
		for i, g := range attrs {
			red[i] = h.redact(g)
		}
		return slog.Group(a.Key, red...)
	case slog.KindString:
		return slog.String(a.Key, h.r.Replace(v.String()))
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, h.r.Replace(err.Error()))
		}
		return slog.String(a.Key, h.r.Replace(v.String()))
	default:
		return slog.Attr{Key: a.Key, Value: v}
	}
}

func (h *redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		red[i] = h.redact(a)
	}
	return &redactHandler{next: h.next.WithAttrs(red), r: h.r}
}

func (h *redactHandler) WithGroup(name string) slog.Handler {
	return &redactHandler{next: h.next.WithGroup(name), r: h.r}
}
