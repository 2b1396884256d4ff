package brain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"hearth/bot"
)

func TestOpenAIStreamReply(t *testing.T) {
	trailer := `{"emotion_label":"joy","emotion_intensity":0.6,"salience":0.5,"confidence":0.8,"topic_tags":["day"],"remember":[],"scratch":""}`
	chunks := []string{"I'm doing", " well, thanks", " for asking!\n<<<HEAR", "TH_KAIRO_J", "SON_v1>", ">>\n", trailer[:20], trailer[20:]}
	f := newFakeLLM(t, sse(chunks, true, &[2]int{42, 13}, true))
	var mu sync.Mutex
	var streamed []string
	resp, err := f.brain(nil, nil).Complete(t.Context(), replyReq(func(s string) {
		mu.Lock()
		streamed = append(streamed, s)
		mu.Unlock()
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := "I'm doing well, thanks for asking!"
	if resp.Text != want {
		t.Errorf("Text = %q, want %q", resp.Text, want)
	}
	if got := strings.Join(streamed, ""); got != want {
		t.Errorf("streamed %q, want %q", got, want)
	}
	if len(streamed) < 2 {
		t.Errorf("reply arrived in %d piece(s); want it streamed", len(streamed))
	}
	for _, s := range append(streamed, resp.Text) {
		if strings.Contains(s, "<") || strings.Contains(s, "HEARTH") || strings.Contains(s, "emotion_label") {
			t.Errorf("trailer text reached the user: %q", s)
		}
	}
	if resp.Trailer != trailer {
		t.Errorf("Trailer = %q, want %q", resp.Trailer, trailer)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(resp.Trailer), &v); err != nil || v["emotion_label"] != "joy" {
		t.Errorf("trailer does not parse: %v %v", err, v)
	}
	if resp.Usage != (bot.Usage{PromptTokens: 42, CompletionTokens: 13}) {
		t.Errorf("usage = %+v, want 42/13 from the final chunk", resp.Usage)
	}
	body := f.requests()[0].body
	if body["stream"] != true {
		t.Error("reply not streamed")
	}
	if so, _ := body["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options = %v, want include_usage", body["stream_options"])
	}
	if _, ok := body["response_format"]; ok {
		t.Error("reply asked for JSON mode")
	}
	if sys := firstSystem(t, body); !strings.HasPrefix(sys, "[[hearth:reply]]\nYou are Luna.") || strings.Count(sys, "[[hearth:") != 1 {
		t.Errorf("first system message = %q", sys)
	}
}

func TestOpenAIStreamUsageEstimated(t *testing.T) {
	f := newFakeLLM(t, sse([]string{"Hello ", "there."}, true, nil, true))
	resp, err := f.brain(nil, nil).Complete(t.Context(), replyReq(nil))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Hello there." || resp.Usage.PromptTokens == 0 || resp.Usage.CompletionTokens == 0 {
		t.Errorf("resp = %+v, want text and an estimated usage", resp)
	}
}

func TestOpenAIStreamCut(t *testing.T) {
	t.Run("after visible text: partial text and error", func(t *testing.T) {
		var streamed []string
		f := newFakeLLM(t, sse([]string{"Half a sen", "tence and "}, false, nil, false))
		resp, err := f.brain(nil, nil).Complete(t.Context(), replyReq(func(s string) { streamed = append(streamed, s) }))
		if !errors.Is(err, ErrStreamCut) {
			t.Fatalf("err = %v, want ErrStreamCut", err)
		}
		if resp.Text != "Half a sentence and" || strings.Join(streamed, "") != resp.Text {
			t.Errorf("partial Text %q, streamed %q: want what the user saw", resp.Text, streamed)
		}
		if n := len(f.requests()); n != 1 {
			t.Errorf("%d requests, want 1: visible text was already sent", n)
		}
	})
	t.Run("before visible text: retried", func(t *testing.T) {
		f := newFakeLLM(t, sse(nil, false, nil, false), sse([]string{"Fine now."}, true, nil, true))
		resp, err := f.brain(nil, nil).Complete(t.Context(), replyReq(nil))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text != "Fine now." {
			t.Errorf("Text = %q", resp.Text)
		}
		if n := len(f.requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})
	t.Run("every attempt cut", func(t *testing.T) {
		f := newFakeLLM(t, sse([]string{"<<<HEA"}, false, nil, false))
		_, err := f.brain(nil, func(c *OpenAIConfig) { c.MaxRetries = 1 }).Complete(t.Context(), replyReq(nil))
		if !errors.Is(err, ErrStreamCut) {
			t.Fatalf("err = %v, want ErrStreamCut", err)
		}
		if n := len(f.requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})
	t.Run("cut inside the trailer: text complete", func(t *testing.T) {
		f := newFakeLLM(t, sse([]string{"All said.\n" + Delimiter + "\n{\"emotion_la"}, false, nil, false))
		resp, err := f.brain(nil, nil).Complete(t.Context(), replyReq(nil))
		if !errors.Is(err, ErrStreamCut) || resp.Text != "All said." {
			t.Fatalf("resp %+v err %v: want the complete text with ErrStreamCut", resp, err)
		}
	})
}

func TestOpenAIConcurrentCalls(t *testing.T) {
	// Every request answers with the user text it received, after a 429 on
	// every third arrival: concurrent calls must not mix up answers or
	// Retry-After values.
	var mu sync.Mutex
	n := 0
	f := newFakeLLM(t, func(w http.ResponseWriter, r *http.Request) {})
	f.script = []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		limited := n%3 == 0
		mu.Unlock()
		if limited {
			statusAnswer(429, map[string]string{"Retry-After": "0"}, `{"error":{"message":"busy"}}`)(w, r)
			return
		}
		sse([]string{"echo:", r.Header.Get("X-Test")}, true, &[2]int{1, 1}, true)(w, r)
	}}
	b := f.brain(nil, func(c *OpenAIConfig) {
		c.HTTPClient = &http.Client{Transport: headerTagger{base: f.srv.Client().Transport}}
		c.MaxRetries = 5
	})
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		wg.Go(func() {
			ctx := context.WithValue(t.Context(), tagKey{}, fmt.Sprint(i))
			resp, err := b.Complete(ctx, replyReq(nil))
			if err != nil {
				errs <- err
				return
			}
			if resp.Text != "echo:"+fmt.Sprint(i) {
				errs <- fmt.Errorf("call %d got %q", i, resp.Text)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

type tagKey struct{}

// headerTagger copies a per-call tag from the context into a header so the
// fake server can answer each call with its own text.
type headerTagger struct{ base http.RoundTripper }

func (h headerTagger) RoundTrip(r *http.Request) (*http.Response, error) {
	if v, ok := r.Context().Value(tagKey{}).(string); ok {
		r = r.Clone(r.Context())
		r.Header.Set("X-Test", v)
	}
	return h.base.RoundTrip(r)
}
