package brain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1", time.Second, true},
		{" 7 ", 7 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"3600", maxRetryAfter, true},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"", 0, false},
		{"-3", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoffWait(t *testing.T) {
	b := backoff{base: 100 * time.Millisecond, max: time.Second, rand: func() float64 { return 0 }}
	want := []time.Duration{50, 100, 200, 400, 500, 500} // half of base·2^n, capped
	for i, w := range want {
		if got := b.wait(i, 0); got != w*time.Millisecond {
			t.Errorf("wait(%d) = %v, want %v", i, got, w*time.Millisecond)
		}
	}
	b.rand = func() float64 { return 0.999 }
	if got := b.wait(0, 0); got < 99*time.Millisecond || got > 100*time.Millisecond {
		t.Errorf("full jitter wait(0) = %v, want just under 100ms", got)
	}
	if got := b.wait(0, 3*time.Second); got != 3*time.Second {
		t.Errorf("Retry-After 3s: wait = %v", got)
	}
	if got := b.wait(0, time.Hour); got != maxRetryAfter {
		t.Errorf("Retry-After 1h: wait = %v, want cap %v", got, maxRetryAfter)
	}
}

func TestRetryable(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"429", live, &openai.APIError{HTTPStatusCode: 429}, true},
		{"408", live, &openai.RequestError{HTTPStatusCode: 408}, true},
		{"500", live, &openai.APIError{HTTPStatusCode: 500}, true},
		{"503 raw", live, &openai.RequestError{HTTPStatusCode: 503}, true},
		{"400", live, &openai.APIError{HTTPStatusCode: 400}, false},
		{"401", live, &openai.RequestError{HTTPStatusCode: 401}, false},
		{"reset", live, fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{"refused: the breaker's", live, fmt.Errorf("dial: %w", syscall.ECONNREFUSED), false},
		{"unknown host: the breaker's", live, &net.DNSError{Err: "no such host", Name: "model.invalid", IsNotFound: true}, false},
		{"unexpected eof", live, io.ErrUnexpectedEOF, true},
		{"stream cut", live, ErrStreamCut, true},
		{"empty", live, ErrEmptyAnswer, false},
		{"syntax", live, errors.New("invalid character"), false},
		{"ctx over", done, &openai.APIError{HTTPStatusCode: 500}, false},
	}
	for _, tt := range tests {
		if got := retryable(tt.ctx, tt.err); got != tt.want {
			t.Errorf("%s: retryable = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestRedact(t *testing.T) {
	base := errors.New("401: bad key " + testKey + " given")
	err := redact(fmt.Errorf("wrap: %w", base), testKey)
	if strings.Contains(err.Error(), testKey) || !strings.Contains(err.Error(), redactedMark) {
		t.Errorf("redacted error = %q", err)
	}
	if !errors.Is(err, base) {
		t.Error("redaction broke the error chain")
	}
	plain := errors.New("no secret here")
	if redact(plain, testKey) != plain {
		t.Error("an error without the key was rewrapped")
	}
	if redact(plain, "") != plain {
		t.Error("an empty key redacted something")
	}
}

func TestEstimateTokens(t *testing.T) {
	if got := estimateTokens("abcdefgh"); got != 2 {
		t.Errorf("8 ASCII bytes = %d tokens, want 2", got)
	}
	if got := estimateTokens("你好世界"); got != 4 {
		t.Errorf("4 Han = %d tokens, want 4", got)
	}
	if got := estimateTokens(""); got != 0 {
		t.Errorf("empty = %d", got)
	}
}
