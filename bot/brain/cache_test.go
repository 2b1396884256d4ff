package brain

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"hearth/bot"
)

// Each prompt cache mode sends exactly its fields, on JSON and streamed
// calls alike, and nothing else changes in the request.
func TestPromptCacheFields(t *testing.T) {
	tests := []struct {
		mode PromptCache
		want map[string]any
	}{
		{CacheOpenAI, map[string]any{"prompt_cache_key": "hearth-k1"}},
		{CacheLlamaCpp, map[string]any{"cache_prompt": true}},
		{CacheOff, nil},
		{CacheAuto, nil}, // 127.0.0.1 is not OpenAI
	}
	extra := []string{"prompt_cache_key", "cache_prompt"}
	for _, tt := range tests {
		f := newFakeLLM(t, jsonAnswer(`{}`, 1, 1), sse([]string{"hi"}, true, &[2]int{3, 1}, true))
		b := f.brain(nil, func(c *OpenAIConfig) { c.PromptCache = tt.mode })
		req := perceptionReq()
		req.CacheKey = "hearth-k1"
		if _, err := b.Complete(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		rr := replyReq(nil)
		rr.CacheKey = "hearth-k1"
		if _, err := b.Complete(t.Context(), rr); err != nil {
			t.Fatal(err)
		}
		for i, r := range f.requests() {
			for _, k := range extra {
				if got, want := r.body[k], tt.want[k]; fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s request %d: %s = %v, want %v", tt.mode, i, k, got, want)
				}
			}
			if r.body["model"] != DefaultModel || len(r.body["messages"].([]any)) != 2 {
				t.Errorf("%s request %d: standard fields changed: %v", tt.mode, i, r.body)
			}
		}
	}
}

func TestPromptCacheResolve(t *testing.T) {
	tests := []struct {
		mode PromptCache
		url  string
		want PromptCache
	}{
		{CacheAuto, "https://api.openai.com/v1", CacheOpenAI},
		{"", DefaultBaseURL, CacheOpenAI},
		{CacheAuto, "http://127.0.0.1:8080/v1", CacheOff},
		{CacheAuto, "http://localhost:11434/v1", CacheOff},
		{CacheLlamaCpp, "https://api.openai.com/v1", CacheLlamaCpp},
		{CacheOff, "https://api.openai.com/v1", CacheOff},
	}
	for _, tt := range tests {
		if got := tt.mode.resolve(tt.url); got != tt.want {
			t.Errorf("%q at %s = %q, want %q", tt.mode, tt.url, got, tt.want)
		}
	}
	for _, bad := range []string{"yes", "llama.cpp "} {
		if _, err := ParsePromptCache(bad); err == nil {
			t.Errorf("ParsePromptCache(%q) accepted", bad)
		}
	}
	if c, err := ParsePromptCache(" OpenAI "); err != nil || c != CacheOpenAI {
		t.Errorf("ParsePromptCache(OpenAI) = %q, %v", c, err)
	}
}

func TestAddFields(t *testing.T) {
	fields := map[string]any{"b": true, "a": "k"}
	for in, want := range map[string]string{
		`{}`:            `{"a":"k","b":true}`,
		` {"x":1}`:      `{"a":"k","b":true,"x":1}`,
		"{\n \"x\": 1}": "{\"a\":\"k\",\"b\":true,\n \"x\": 1}",
		`{ }`:           `{"a":"k","b":true }`,
	} {
		got, err := addFields([]byte(in), fields)
		if err != nil || string(got) != want {
			t.Errorf("addFields(%q) = %q, %v; want %q", in, got, err, want)
		}
		if !json.Valid(got) {
			t.Errorf("addFields(%q) = %q: not JSON", in, got)
		}
	}
	if _, err := addFields([]byte(`[1]`), fields); err == nil {
		t.Error("a non-object body was accepted")
	}
}

// cachedJSON answers with usage.prompt_tokens_details.cached_tokens, as
// OpenAI, vLLM, SGLang and recent llama.cpp report it.
func cachedJSON(prompt, cached, completion int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d}}}`,
			prompt, completion, prompt+completion, cached)
	}
}

func cachedSSE(prompt, cached, completion int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"s","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"hello"},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprintf(w, `data: {"id":"s","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d}}}`+"\n\n",
			prompt, completion, prompt+completion, cached)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

func TestCachedTokensReported(t *testing.T) {
	f := newFakeLLM(t, cachedJSON(1200, 1024, 30), cachedSSE(2000, 1920, 40), cachedJSON(10, 50, 1))
	b := f.brain(nil, nil)
	resp, err := b.Complete(t.Context(), perceptionReq())
	if err != nil || resp.Usage != (bot.Usage{PromptTokens: 1200, CachedTokens: 1024, CompletionTokens: 30}) {
		t.Errorf("JSON call usage = %+v, %v", resp.Usage, err)
	}
	resp, err = b.Complete(t.Context(), replyReq(nil))
	if err != nil || resp.Usage != (bot.Usage{PromptTokens: 2000, CachedTokens: 1920, CompletionTokens: 40}) {
		t.Errorf("streamed usage = %+v, %v", resp.Usage, err)
	}
	// A server claiming more cached than prompt tokens is capped.
	resp, _ = b.Complete(t.Context(), perceptionReq())
	if resp.Usage.CachedTokens != 10 {
		t.Errorf("cached = %d, want capped at the prompt's 10", resp.Usage.CachedTokens)
	}
}
