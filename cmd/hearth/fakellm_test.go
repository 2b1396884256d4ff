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
	// Senses (issue 14): every request body as received, the image URLs of
	// each reply's last user message, and whether image parts are refused
	// as a model without vision refuses them.
	bodies       [][]byte
	lastImages   [][]string
	rejectImages bool
}

func newFakeLLM(t *testing.T) *fakeLLM {
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

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
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
	hold, holdReflect := f.hold, f.holdReflect
	perception, reply, trailer := f.perception, f.reply, f.trailer
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
		writeCompletion(w, perception)
	case "reflect":
		if holdReflect != nil {
			select {
			case <-holdReflect:
			case <-r.Context().Done():
				return
			}
		}
		writeCompletion(w, `{"inner_state":"I feel closer to them than before."}`)
	case "lifeloop":
		writeCompletion(w, `{"speak":false,"message":""}`)
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
			writeStream(w, text)
		} else {
			writeCompletion(w, text)
		}
	default:
		http.Error(w, "no marker", http.StatusBadRequest)
	}
}

func writeCompletion(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "x", "object": "chat.completion", "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
}

// writeStream sends content as SSE chunks of 7 bytes, so the trailer
// delimiter is split across chunks.
func writeStream(w http.ResponseWriter, content string) {
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
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	fmt.Fprint(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
