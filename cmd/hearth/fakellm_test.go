package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeLLM is an OpenAI-compatible server on 127.0.0.1 that answers by call
// kind, read from the [[hearth:KIND]] marker of the first system message.
type fakeLLM struct {
	srv *httptest.Server

	mu          sync.Mutex
	calls       map[string]int
	perception  string        // JSON answered to perception calls
	reply       string        // visible reply text
	trailer     string        // JSON after the delimiter ("" = none)
	hold        chan struct{} // when non-nil, reply calls block until it is closed
	holdReflect chan struct{} // when non-nil, reflect calls block until it is closed
	replySeen   chan struct{} // closed at the first reply call
	lastUser    []string
	// prefixes, when non-nil, makes the fake a prefix cache: each call's
	// usage counts its prompt and, as cached, what it shares with the
	// previous prompt of the same slot (kind and prompt_cache_key).
	prefixes map[string]string
	spent    fakeUsage // with prefixes: the sum of every call's usage
	// Senses (issue 14): every request body as received, the image URLs of
	// each reply's last user message, and whether image parts are refused
	// as a model without vision refuses them.
	bodies       [][]byte
	lastImages   [][]string
	rejectImages bool
	// imageStatus, when set, answers a reply carrying images with that
	// status (a vision model the server does not have, or one that fails).
	imageStatus int
	// embeddings, when set, answers /embeddings (issue 11: the brain's
	// server embeds); without it the fake has no such endpoint (404).
	embeddings http.Handler
}

func newFakeLLM(t testing.TB) *fakeLLM {
	f := &fakeLLM{
		calls:      map[string]int{},
		perception: `{"intent_category":"SMALL_TALK","sentiment":0,"disclosure":"none","crisis":false}`,
		reply:      "I'm here with you.",
		trailer:    `{"emotion_label":"joy","emotion_intensity":0.5,"salience":0.5,"confidence":0.8,"topic_tags":["life"],"remember":[],"scratch":""}`,
		replySeen:  make(chan struct{}),
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeLLM) URL() string { return f.srv.URL + "/v1" }

func (f *fakeLLM) count(kind string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[kind]
}

type chatReq struct {
	Messages []chatMsg `json:"messages"`
	Stream   bool      `json:"stream"`
	CacheKey string    `json:"prompt_cache_key"`
}

// chatMsg is one message; its content is a string, or parts (text and
// image_url) when it carries images.
type chatMsg struct {
	Role    string
	Content string
	Images  []string
}

func (m *chatMsg) UnmarshalJSON(b []byte) error {
	var raw struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.Role = raw.Role
	if json.Unmarshal(raw.Content, &m.Content) == nil {
		return nil
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(raw.Content, &parts); err != nil {
		return err
	}
	for _, p := range parts {
		switch p.Type {
		case "text":
			m.Content += p.Text
		case "image_url":
			m.Images = append(m.Images, p.ImageURL.URL)
		}
	}
	return nil
}

// fakeUsage is a call's token usage.
type fakeUsage struct{ prompt, cached, completion int }

// fakeBytesPerToken turns prompt bytes into tokens for the prefix cache
// (OpenAI's rule of thumb of four characters per token).
const fakeBytesPerToken = 4

// usage is the fixed 10/5 of every call, or with prefixes set, what a
// prefix-caching server would report. Called with f.mu held.
func (f *fakeLLM) usage(kind string, req chatReq, answer string) fakeUsage {
	if f.prefixes == nil {
		return fakeUsage{prompt: 10, completion: 5}
	}
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Role + "\n" + m.Content + "\n")
	}
	prompt, slot := b.String(), kind+"/"+req.CacheKey
	prev, shared := f.prefixes[slot], 0
	for shared < len(prev) && shared < len(prompt) && prev[shared] == prompt[shared] {
		shared++
	}
	f.prefixes[slot] = prompt
	u := fakeUsage{prompt: len(prompt) / fakeBytesPerToken, cached: shared / fakeBytesPerToken,
		completion: max(1, len(answer)/fakeBytesPerToken)}
	f.spent.prompt += u.prompt
	f.spent.cached += u.cached
	f.spent.completion += u.completion
	return u
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	embeddings := f.embeddings
	f.mu.Unlock()
	if embeddings != nil && strings.HasSuffix(r.URL.Path, "/embeddings") {
		embeddings.ServeHTTP(w, r)
		return
	}
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req chatReq
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	first := req.Messages[0].Content
	kind := "unknown"
	if strings.HasPrefix(first, "[[hearth:") {
		kind = strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(first, "\n", 2)[0], "[[hearth:"), "]]")
	}
	f.mu.Lock()
	f.calls[kind]++
	f.bodies = append(f.bodies, body)
	last := req.Messages[len(req.Messages)-1]
	if kind == "reply" && len(last.Images) > 0 && f.rejectImages {
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"Invalid content type. image_url is only supported by certain models.","type":"invalid_request_error"}}`)
		return
	}
	if kind == "reply" && len(last.Images) > 0 && f.imageStatus != 0 {
		status := f.imageStatus
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"model \"llava\" not found, try pulling it first (status %d)","type":"api_error"}}`, status)
		return
	}
	hold, holdReflect := f.hold, f.holdReflect
	perception, reply, trailer := f.perception, f.reply, f.trailer
	u := f.usage(kind, req, reply)
	if kind == "reply" {
		select {
		case <-f.replySeen:
		default:
			close(f.replySeen)
		}
		f.lastUser = append(f.lastUser, last.Content)
		f.lastImages = append(f.lastImages, last.Images)
	}
	f.mu.Unlock()

	switch kind {
	case "perception":
		writeCompletionUsage(w, perception, u)
	case "reflect":
		if holdReflect != nil {
			select {
			case <-holdReflect:
			case <-r.Context().Done():
				return
			}
		}
		writeCompletionUsage(w, `{"inner_state":"I feel closer to them than before."}`, u)
	case "lifeloop":
		writeCompletionUsage(w, `{"speak":false,"message":""}`, u)
	case "reply":
		if hold != nil {
			select {
			case <-hold:
			case <-r.Context().Done():
				return
			}
		}
		text := reply
		if trailer != "" {
			text += "\n<<<HEARTH_KAIRO_JSON_v1>>>\n" + trailer
		}
		if req.Stream {
			writeStream(w, text, u)
		} else {
			writeCompletionUsage(w, text, u)
		}
	default:
		http.Error(w, "no marker", http.StatusBadRequest)
	}
}

func writeCompletion(w http.ResponseWriter, content string) {
	writeCompletionUsage(w, content, fakeUsage{prompt: 10, completion: 5})
}

func writeCompletionUsage(w http.ResponseWriter, content string, u fakeUsage) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "x", "object": "chat.completion", "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": u.json(),
	})
}

func (u fakeUsage) json() map[string]any {
	return map[string]any{"prompt_tokens": u.prompt, "completion_tokens": u.completion,
		"total_tokens": u.prompt + u.completion, "prompt_tokens_details": map[string]any{"cached_tokens": u.cached}}
}

// writeStream sends content as SSE chunks of 7 bytes, so the trailer
// delimiter is split across chunks.
func writeStream(w http.ResponseWriter, content string, u fakeUsage) {
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	chunk := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	for len(content) > 0 {
		n := min(7, len(content))
		for n < len(content) && !utf8Start(content[n]) {
			n++
		}
		chunk(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": content[:n]}}}})
		content = content[n:]
	}
	chunk(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "fake",
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
	chunk(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "fake", "choices": []any{},
		"usage": u.json()})
	fmt.Fprint(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
