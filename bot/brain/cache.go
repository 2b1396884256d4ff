package brain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"hearth/bot"
)

// PromptCache names the request fields that help a server's prefix cache
// (HEARTH_PROMPT_CACHE; README "Prompt caching"). Every server caches a
// repeated prefix by itself; these fields only route or switch it on where
// the server needs to be told, and are never sent to a server that would
// reject them.
type PromptCache string

// The prompt cache modes.
const (
	// CacheAuto is CacheOpenAI for OpenAI's own API and CacheOff elsewhere.
	CacheAuto PromptCache = "auto"
	// CacheOpenAI sends prompt_cache_key (one key per user and kind of
	// call), which routes a user's requests to the machine holding their
	// prefix.
	CacheOpenAI PromptCache = "openai"
	// CacheLlamaCpp sends cache_prompt: true, which llama.cpp builds before
	// November 2024 need to reuse a slot's KV cache (later ones default to
	// it).
	CacheLlamaCpp PromptCache = "llamacpp"
	// CacheOff sends nothing beyond the standard request.
	CacheOff PromptCache = "off"
)

// openAIHost is the host of OpenAI's own API, where CacheAuto sends
// prompt_cache_key.
const openAIHost = "api.openai.com"

// ParsePromptCache reads a HEARTH_PROMPT_CACHE value; "" is CacheAuto.
func ParsePromptCache(s string) (PromptCache, error) {
	switch c := PromptCache(strings.ToLower(strings.TrimSpace(s))); c {
	case "":
		return CacheAuto, nil
	case CacheAuto, CacheOpenAI, CacheLlamaCpp, CacheOff:
		return c, nil
	}
	return "", fmt.Errorf("prompt cache %q: want auto, openai, llamacpp or off", s)
}

// resolve turns CacheAuto into the mode for baseURL.
func (c PromptCache) resolve(baseURL string) PromptCache {
	if c != CacheAuto && c != "" {
		return c
	}
	if u, err := url.Parse(baseURL); err == nil && strings.EqualFold(u.Hostname(), openAIHost) {
		return CacheOpenAI
	}
	return CacheOff
}

// fields are the JSON fields this mode adds to a chat request with key.
func (c PromptCache) fields(key string) map[string]any {
	switch {
	case c == CacheOpenAI && key != "":
		return map[string]any{"prompt_cache_key": key}
	case c == CacheLlamaCpp:
		return map[string]any{"cache_prompt": true}
	}
	return nil
}

// usageOf converts a server's usage, cached prompt tokens included.
func usageOf(u openai.Usage) bot.Usage {
	out := bot.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CachedTokens = min(max(u.PromptTokensDetails.CachedTokens, 0), u.PromptTokens)
	}
	return out
}

// extraBodyKey carries the fields of withExtraBody in a request context.
type extraBodyKey struct{}

// withExtraBody asks extraBodyDoer to add fields to the JSON body of the
// requests made under ctx: what OpenAI's own SDKs call extra_body, for
// fields go-openai's ChatCompletionRequest does not have.
func withExtraBody(ctx context.Context, fields map[string]any) context.Context {
	if len(fields) == 0 {
		return ctx
	}
	return context.WithValue(ctx, extraBodyKey{}, fields)
}

// extraBodyDoer is the HTTP client go-openai sends through. It adds the
// context's extra fields to a POST's JSON object body (chat completions;
// never an upload) and changes nothing else.
type extraBodyDoer struct{ c *http.Client }

// Do implements openai.HTTPDoer.
func (d extraBodyDoer) Do(req *http.Request) (*http.Response, error) {
	fields, _ := req.Context().Value(extraBodyKey{}).(map[string]any)
	if len(fields) == 0 || req.Method != http.MethodPost || req.Body == nil ||
		!strings.HasPrefix(req.Header.Get("Content-Type"), "application/json") {
		return d.c.Do(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	if body, err = addFields(body, fields); err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return d.c.Do(req)
}

// addFields inserts fields (in key order) at the start of the JSON object
// obj, leaving the rest of it byte for byte as it was.
func addFields(obj []byte, fields map[string]any) ([]byte, error) {
	trimmed := bytes.TrimLeft(obj, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("add request fields: body is not a JSON object")
	}
	rest := trimmed[1:]
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(fields)) {
		if i > 0 {
			b.WriteByte(',')
		}
		kv, err := json.Marshal(k)
		if err != nil {
			return nil, fmt.Errorf("add request field %q: %w", k, err)
		}
		v, err := json.Marshal(fields[k])
		if err != nil {
			return nil, fmt.Errorf("add request field %q: %w", k, err)
		}
		b.Write(kv)
		b.WriteByte(':')
		b.Write(v)
	}
	if len(bytes.TrimLeft(rest, " \t\r\n")) > 0 && bytes.TrimLeft(rest, " \t\r\n")[0] != '}' {
		b.WriteByte(',')
	}
	b.Write(rest)
	return b.Bytes(), nil
}
