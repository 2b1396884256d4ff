package bot_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/brain"
)

// faultyLLM is an OpenAI-compatible server that misbehaves in one way for
// one call kind and answers every other call normally.
type faultyLLM struct {
	kind, fault string
	mu          sync.Mutex
	calls       map[string]int
}

func (f *faultyLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct{ Content string } `json:"messages"`
		Stream   bool                       `json:"stream"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	kind := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(req.Messages[0].Content, "\n", 2)[0], "[[hearth:"), "]]")
	f.mu.Lock()
	f.calls[kind]++
	n := f.calls[kind]
	f.mu.Unlock()
	answer := map[string]string{
		"perception": `{"intent_category":"SMALL_TALK","sentiment":0.2,"disclosure":"none","crisis":false}`,
		"reflect":    `{"inner_state":"I am glad they keep coming back."}`,
		"reply":      "It's good to hear from you.\n<<<HEARTH_KAIRO_JSON_v1>>>\n" + `{"emotion_label":"joy","emotion_intensity":0.4,"salience":0.3,"confidence":0.9,"topic_tags":[],"remember":[],"scratch":""}`,
	}[kind]
	if kind == f.kind {
		switch f.fault {
		case "5xx":
			http.Error(w, `{"error":{"message":"upstream down"}}`, http.StatusBadGateway)
			return
		case "429":
			if n == 1 {
				w.Header().Set("Retry-After", "1")
				http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
				return
			}
		case "hang":
			<-r.Context().Done()
			return
		case "malformed":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices": [ {"message": `)
			return
		case "empty":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"x","object":"chat.completion","choices":[]}`)
			return
		case "garbage":
			answer = "I am not JSON at all <<<HEARTH_KAIRO_JSON_v1>>> {broken"
		case "cut":
			if req.Stream {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, "data: %s\n\n", chunk("It's good to hear"))
				w.(http.Flusher).Flush()
				return // connection closes: no finish_reason, no [DONE]
			}
		}
	}
	if req.Stream {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < len(answer); i += 5 { // 5-byte chunks split the delimiter
			fmt.Fprintf(w, "data: %s\n\n", chunk(answer[i:min(i+5, len(answer))]))
		}
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "choices": []any{
		map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}}})
	w.Write(b)
}

func chunk(s string) string {
	b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk",
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": s}}}})
	return string(b)
}

// TestLLMFaultMatrix: for every call kind and every fault, no turn dies,
// nothing of the trailer or the control text reaches the user, and every
// message gets exactly one answer (issue 8 "LLM fault matrix").
func TestLLMFaultMatrix(t *testing.T) {
	faults := []string{"5xx", "429", "hang", "malformed", "empty", "garbage", "cut"}
	for _, kind := range []string{"perception", "reply", "reflect"} {
		for _, fault := range faults {
			t.Run(kind+"/"+fault, func(t *testing.T) {
				t.Parallel()
				llm := &faultyLLM{kind: kind, fault: fault, calls: map[string]int{}}
				srv := httptest.NewServer(llm)
				defer srv.Close()
				b, err := brain.NewOpenAI(brain.OpenAIConfig{
					BaseURL: srv.URL, APIKey: "test", MaxRetries: 1,
					Deadlines: map[bot.Kind]time.Duration{bot.KindPerception: 400 * time.Millisecond, bot.KindReply: time.Second, bot.KindReflect: 400 * time.Millisecond},
				})
				if err != nil {
					t.Fatal(err)
				}
				e := newEnv(t, func(c *bot.Config) { c.Brain = b })
				n := 2
				if kind == "reflect" {
					n = bot.ReflectEvery // reach a reflection
				}
				for i := 0; i < n; i++ {
					e.send(t, msg("f-"+kind+"-"+fault, fmt.Sprintf("hello number %d", i)))
				}
				e.h.Drain()
				got := e.out.texts("f-" + kind + "-" + fault)
				if len(got) != n {
					t.Fatalf("%d answers to %d messages", len(got), n)
				}
				for _, text := range got {
					if strings.TrimSpace(text) == "" {
						t.Error("an empty answer was sent")
					}
					for _, leak := range []string{"<<<HEARTH", "HEARTH_KAIRO", "emotion_label", "[[hearth:", "{broken"} {
						if strings.Contains(text, leak) {
							t.Errorf("answer leaks %q: %q", leak, text)
						}
					}
				}
			})
		}
	}
}
