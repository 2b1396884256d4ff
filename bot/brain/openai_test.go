package brain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
)

// testKey is the API key of every test; no error or log may contain it.
const testKey = "sk-test-SECRET-0123456789abcdef"

// fakeLLM is an OpenAI-compatible server on 127.0.0.1. Each request is
// answered by the next handler of script (the last one repeats) and recorded
// with its arrival time.
type fakeLLM struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	script []http.HandlerFunc
	reqs   []recorded
}

type recorded struct {
	at   time.Time
	path string
	auth string
	body map[string]any
}

func newFakeLLM(t *testing.T, script ...http.HandlerFunc) *fakeLLM {
	t.Helper()
	f := &fakeLLM{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, "bad request body", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, recorded{at: at, path: r.URL.Path, auth: r.Header.Get("Authorization"), body: body})
	h := f.script[min(n, len(f.script)-1)]
	f.mu.Unlock()
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	h(w, r)
}

func (f *fakeLLM) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// brain builds an OpenAI brain against the fake with fast, jitter-free
// backoff, logging into logs.
func (f *fakeLLM) brain(logs *bytes.Buffer, mod func(*OpenAIConfig)) *OpenAI {
	f.t.Helper()
	cfg := OpenAIConfig{BaseURL: f.srv.URL + "/v1", APIKey: testKey, HTTPClient: f.srv.Client()}
	if logs != nil {
		cfg.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if mod != nil {
		mod(&cfg)
	}
	o, err := NewOpenAI(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	o.backoff = backoff{base: 5 * time.Millisecond, max: 20 * time.Millisecond, rand: func() float64 { return 0 }}
	return o
}

func jsonAnswer(content string, prompt, completion int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`,
			content, prompt, completion, prompt+completion)
	}
}

func statusAnswer(code int, header map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// sse streams content chunks; finish adds a finish_reason chunk, usage a
// usage chunk, done the [DONE] line. Without finish and done the connection
// just closes: a stream cut mid-way.
func sse(chunks []string, finish bool, usage *[2]int, done bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		write := func(v any) {
			b, _ := json.Marshal(v)
			fmt.Fprintf(w, "data: %s\n\n", b)
			fl.Flush()
		}
		write(map[string]any{"id": "s", "object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": ""}, "finish_reason": nil}}})
		for _, c := range chunks {
			write(map[string]any{"id": "s", "object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": c}, "finish_reason": nil}}})
		}
		if finish {
			write(map[string]any{"id": "s", "object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
		}
		if usage != nil {
			write(map[string]any{"id": "s", "object": "chat.completion.chunk", "choices": []any{}, "usage": map[string]any{"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": usage[0] + usage[1]}})
		}
		if done {
			io.WriteString(w, "data: [DONE]\n\n")
			fl.Flush()
		}
	}
}

func perceptionReq() bot.Request {
	return bot.Request{
		Kind: bot.KindPerception,
		JSON: true,
		Messages: []bot.ChatMessage{
			{Role: "system", Content: "Classify the user's message. Answer in JSON."},
			{Role: "user", Content: "hello there"},
		},
	}
}

func replyReq(stream func(string)) bot.Request {
	return bot.Request{
		Kind:   bot.KindReply,
		Stream: stream,
		Messages: []bot.ChatMessage{
			{Role: "system", Content: bot.KindReply.Marker() + "\nYou are Luna."},
			{Role: "user", Content: "how are you?"},
		},
	}
}

func assertNoKey(t *testing.T, err error, logs *bytes.Buffer) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), testKey) {
		t.Errorf("error contains the API key: %v", err)
	}
	if logs != nil && strings.Contains(logs.String(), testKey) {
		t.Errorf("logs contain the API key: %s", logs)
	}
}

func firstSystem(t *testing.T, body map[string]any) string {
	t.Helper()
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		mm := m.(map[string]any)
		if mm["role"] == "system" {
			return mm["content"].(string)
		}
	}
	t.Fatalf("no system message in %v", body)
	return ""
}

func TestOpenAIJSONKind(t *testing.T) {
	answer := `{"intent_category":"GREETING","sentiment":0.4,"disclosure":"none","crisis":false}`
	f := newFakeLLM(t, jsonAnswer(answer, 31, 17))
	resp, err := f.brain(nil, nil).Complete(t.Context(), perceptionReq())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != answer || resp.Trailer != "" || resp.Offline {
		t.Errorf("resp = %+v", resp)
	}
	if resp.Usage != (bot.Usage{PromptTokens: 31, CompletionTokens: 17}) {
		t.Errorf("usage = %+v, want 31/17", resp.Usage)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	body := reqs[0].body
	if rf, _ := body["response_format"].(map[string]any); rf["type"] != "json_object" {
		t.Errorf("response_format = %v, want json_object", body["response_format"])
	}
	if body["stream"] == true {
		t.Error("JSON kind was streamed")
	}
	if body["model"] != DefaultModel {
		t.Errorf("model = %v, want %s", body["model"], DefaultModel)
	}
	if _, ok := body["temperature"]; ok {
		t.Errorf("temperature sent without config: %v", body["temperature"])
	}
	sys := firstSystem(t, body)
	if first, rest, _ := strings.Cut(sys, "\n"); first != "[[hearth:perception]]" || rest != "Classify the user's message. Answer in JSON." {
		t.Errorf("first system message = %q, want marker line then the prompt", sys)
	}
	if reqs[0].auth != "Bearer "+testKey {
		t.Errorf("authorization = %q", reqs[0].auth)
	}
}

func TestOpenAIMarkerHandling(t *testing.T) {
	tests := []struct {
		name string
		msgs []bot.ChatMessage
		want string // first system message sent
	}{
		{"already marked", []bot.ChatMessage{{Role: "system", Content: "[[hearth:reflect]]\nReflect. Reply in JSON."}}, "[[hearth:reflect]]\nReflect. Reply in JSON."},
		{"no system message", []bot.ChatMessage{{Role: "user", Content: "json please"}}, "[[hearth:reflect]]"},
		{"marker not alone on its line", []bot.ChatMessage{{Role: "system", Content: "[[hearth:reflect]] json"}}, "[[hearth:reflect]]\n[[hearth:reflect]] json"},
		{"json never mentioned", []bot.ChatMessage{{Role: "system", Content: "Reflect."}}, "[[hearth:reflect]]\nReflect.\n" + jsonHint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeLLM(t, jsonAnswer(`{"inner_state":"calm"}`, 1, 1))
			_, err := f.brain(nil, nil).Complete(t.Context(), bot.Request{Kind: bot.KindReflect, JSON: true, Messages: tt.msgs})
			if err != nil {
				t.Fatal(err)
			}
			body := f.requests()[0].body
			if got := firstSystem(t, body); got != tt.want {
				t.Errorf("first system message = %q, want %q", got, tt.want)
			}
			if msgs := body["messages"].([]any); msgs[0].(map[string]any)["role"] != "system" && tt.name == "no system message" {
				t.Errorf("inserted system message is not first: %v", msgs)
			}
		})
	}
}

func TestOpenAIRetries5xx(t *testing.T) {
	var logs bytes.Buffer
	f := newFakeLLM(t,
		statusAnswer(500, nil, `{"error":{"message":"boom","type":"server_error"}}`),
		statusAnswer(503, nil, `upstream down`),
		jsonAnswer(`{"speak":false,"message":""}`, 5, 5))
	resp, err := f.brain(&logs, nil).Complete(t.Context(), bot.Request{Kind: bot.KindLifeLoop, JSON: true, Messages: []bot.ChatMessage{{Role: "system", Content: "json"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"speak":false,"message":""}` {
		t.Errorf("Text = %q", resp.Text)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d requests, want 3 (two retries)", n)
	}
	if !strings.Contains(logs.String(), "retrying") {
		t.Errorf("retries not logged: %s", logs.String())
	}
	assertNoKey(t, err, &logs)
}

func TestOpenAIRetriesBounded(t *testing.T) {
	f := newFakeLLM(t, statusAnswer(502, nil, `bad gateway`))
	_, err := f.brain(nil, func(c *OpenAIConfig) { c.MaxRetries = 2 }).Complete(t.Context(), perceptionReq())
	if err == nil {
		t.Fatal("want an error after the retries")
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d requests, want 1 + MaxRetries = 3", n)
	}
}

func TestOpenAIRetryAfter(t *testing.T) {
	f := newFakeLLM(t,
		statusAnswer(429, map[string]string{"Retry-After": "1"}, `{"error":{"message":"slow down","type":"rate_limit"}}`),
		sse([]string{"ok"}, true, &[2]int{1, 1}, true))
	start := time.Now()
	resp, err := f.brain(nil, nil).Complete(t.Context(), replyReq(nil))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "ok" {
		t.Errorf("Text = %q", resp.Text)
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if gap := reqs[1].at.Sub(reqs[0].at); gap < time.Second {
		t.Errorf("retry came %v after the 429, want >= Retry-After 1s", gap)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("call took %v", d)
	}
}

func TestOpenAINoRetryOn4xx(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 422} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			var logs bytes.Buffer
			// Some servers echo the key they were given; it must not leak.
			f := newFakeLLM(t, statusAnswer(code, nil, `{"error":{"message":"Incorrect API key provided: `+testKey+`","type":"invalid_request_error"}}`))
			_, err := f.brain(&logs, nil).Complete(t.Context(), perceptionReq())
			if err == nil {
				t.Fatal("want an error")
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d requests, want 1 (no retry on %d)", n, code)
			}
			if !strings.Contains(err.Error(), redactedMark) {
				t.Errorf("error %q: want the key redacted, not dropped silently", err)
			}
			assertNoKey(t, err, &logs)
		})
	}
}

func TestOpenAIRetries408(t *testing.T) {
	f := newFakeLLM(t, statusAnswer(408, nil, `timeout`), jsonAnswer(`{"inner_state":"x"}`, 1, 1))
	if _, err := f.brain(nil, nil).Complete(t.Context(), perceptionReq()); err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestOpenAIHangHitsDeadline(t *testing.T) {
	f := newFakeLLM(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	var logs bytes.Buffer
	b := f.brain(&logs, nil)
	const deadline = 300 * time.Millisecond
	for _, req := range []bot.Request{perceptionReq(), replyReq(nil)} {
		ctx, cancel := context.WithTimeout(t.Context(), deadline)
		start := time.Now()
		_, err := b.Complete(ctx, req)
		elapsed := time.Since(start)
		cancel()
		if err == nil {
			t.Fatalf("%s: want an error", req.Kind)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: error %v, want context.DeadlineExceeded in the chain", req.Kind, err)
		}
		if elapsed > deadline+time.Second {
			t.Errorf("%s: returned after %v, deadline was %v", req.Kind, elapsed, deadline)
		}
		assertNoKey(t, err, &logs)
	}
}

// deadlineProbe records the deadline of each outgoing request's context.
type deadlineProbe struct {
	base http.RoundTripper
	got  chan time.Time
}

func (p deadlineProbe) RoundTrip(r *http.Request) (*http.Response, error) {
	if dl, ok := r.Context().Deadline(); ok {
		select {
		case p.got <- dl:
		default:
		}
	}
	return p.base.RoundTrip(r)
}

func TestOpenAIKindDeadline(t *testing.T) {
	// Without a deadline on ctx the call still gets the kind's default one.
	f := newFakeLLM(t, jsonAnswer(`{"a":1}`, 1, 1))
	got := make(chan time.Time, 1)
	b := f.brain(nil, func(c *OpenAIConfig) {
		c.HTTPClient = &http.Client{Transport: deadlineProbe{base: f.srv.Client().Transport, got: got}}
	})
	if _, err := b.Complete(context.Background(), perceptionReq()); err != nil {
		t.Fatal(err)
	}
	select {
	case dl := <-got:
		if left := time.Until(dl); left <= 0 || left > bot.DeadlinePerception {
			t.Errorf("request deadline in %v, want within %v", left, bot.DeadlinePerception)
		}
	default:
		t.Fatal("request carried no deadline")
	}
}

func TestOpenAIMalformedBody(t *testing.T) {
	var logs bytes.Buffer
	f := newFakeLLM(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1","choices":[{"index":0,"message":{"content":"x"`)
		io.WriteString(w, `,,,}`)
	})
	_, err := f.brain(&logs, nil).Complete(t.Context(), perceptionReq())
	if err == nil {
		t.Fatal("want an error for a malformed body")
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("%d requests, want 1 (garbage is not retried)", n)
	}
	assertNoKey(t, err, &logs)
}

func TestOpenAINotJSONAnswer(t *testing.T) {
	f := newFakeLLM(t, jsonAnswer("I think the intent is greeting.", 1, 1))
	if _, err := f.brain(nil, nil).Complete(t.Context(), perceptionReq()); err == nil {
		t.Fatal("want an error when a JSON kind answers prose")
	}
	// A fenced object is accepted: local models often add fences.
	f2 := newFakeLLM(t, jsonAnswer("```json\n{\"speak\":true,\"message\":\"hi\"}\n```", 1, 1))
	resp, err := f2.brain(nil, nil).Complete(t.Context(), perceptionReq())
	if err != nil || resp.Text != `{"speak":true,"message":"hi"}` {
		t.Fatalf("fenced JSON: %q, %v", resp.Text, err)
	}
}

func TestOpenAIEmptyChoices(t *testing.T) {
	f := newFakeLLM(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1","object":"chat.completion","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":0,"total_tokens":1}}`)
	})
	_, err := f.brain(nil, nil).Complete(t.Context(), perceptionReq())
	if !errors.Is(err, ErrEmptyAnswer) {
		t.Fatalf("err = %v, want ErrEmptyAnswer", err)
	}
}

func TestOpenAITemperature(t *testing.T) {
	zero, half := float32(0), float32(0.5)
	for _, tt := range []struct {
		set  *float32
		want float64
	}{{&zero, float64(zeroTemperature)}, {&half, 0.5}} {
		f := newFakeLLM(t, jsonAnswer(`{}`, 1, 1))
		if _, err := f.brain(nil, func(c *OpenAIConfig) { c.Temperature = tt.set }).Complete(t.Context(), perceptionReq()); err != nil {
			t.Fatal(err)
		}
		got, ok := f.requests()[0].body["temperature"].(float64)
		if !ok || float32(got) != float32(tt.want) {
			t.Errorf("temperature %v sent as %v, want %v", *tt.set, f.requests()[0].body["temperature"], tt.want)
		}
	}
}

func TestOpenAIUnknownKind(t *testing.T) {
	f := newFakeLLM(t, jsonAnswer(`{}`, 1, 1))
	if _, err := f.brain(nil, nil).Complete(t.Context(), bot.Request{Kind: "poetry"}); err == nil {
		t.Fatal("want an error for an unknown kind")
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests for an unknown kind", n)
	}
}

func TestNewOpenAIBadBaseURL(t *testing.T) {
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: "localhost:11434", APIKey: testKey}); err == nil || strings.Contains(err.Error(), testKey) {
		t.Fatalf("err = %v, want a key-free error", err)
	}
}

func TestNewOpenAILeavesClientAlone(t *testing.T) {
	tr := &http.Transport{}
	hc := &http.Client{Transport: tr, Timeout: time.Minute}
	if _, err := NewOpenAI(OpenAIConfig{APIKey: testKey, HTTPClient: hc}); err != nil {
		t.Fatal(err)
	}
	if hc.Transport != tr || hc.Timeout != time.Minute {
		t.Error("NewOpenAI modified the caller's http.Client")
	}
}

// TestOpenAIBaseURLQueryAndSecrets: a query in the base URL (Azure's
// api-version, a gateway's api-key) goes out as a query on every call, not
// glued into the path, and neither it nor a userinfo password shows in an
// error, even when the server echoes the URL it was called on.
func TestOpenAIBaseURLQueryAndSecrets(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"no access to %s?%s","type":"invalid_request_error"}}`, r.URL.Path, r.URL.RawQuery)
	}))
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://", "http://bob:PWSECRET999@", 1) + "/v1?api-version=2024-02-01&api-key=QSECRET555"
	var logs bytes.Buffer
	o, err := NewOpenAI(OpenAIConfig{BaseURL: base, APIKey: testKey, HTTPClient: srv.Client(),
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Complete(t.Context(), perceptionReq())
	if err == nil {
		t.Fatal("want the 401 as an error")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0] != "/v1/chat/completions?api-key=QSECRET555&api-version=2024-02-01" {
		t.Errorf("server saw %q, want /v1/chat/completions with the base URL's query", seen)
	}
	for _, s := range []string{"QSECRET555", "PWSECRET999"} {
		if strings.Contains(err.Error(), s) || strings.Contains(logs.String(), s) {
			t.Errorf("%s shown: err %q\nlogs:\n%s", s, err, logs.String())
		}
	}
	assertNoKey(t, err, &logs)
}
