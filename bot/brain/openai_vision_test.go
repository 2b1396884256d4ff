package brain

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"hearth/bot"
	"hearth/bot/bottest"
)

const photoURL = "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ=="

func photoReq() bot.Request {
	req := replyReq(nil)
	last := len(req.Messages) - 1
	req.Messages[last].Images = []string{photoURL}
	return req
}

// Issue 14 item 3: a photo reaches the model as an image content part with
// a data: URL after the text, answered by HEARTH_VISION_MODEL when set;
// requests without images keep the usual model and plain content.
func TestPhotoIsADataURLPartForTheVisionModel(t *testing.T) {
	f := newFakeLLM(t, sse([]string{"What a lovely cat."}, true, &[2]int{900, 5}, true))
	o := f.brain(nil, func(c *OpenAIConfig) { c.Model, c.VisionModel = "text-model", "eye-model" })
	if _, err := o.Complete(context.Background(), photoReq()); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Complete(context.Background(), replyReq(nil)); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if reqs[0].body["model"] != "eye-model" || reqs[1].body["model"] != "text-model" {
		t.Fatalf("models = %v, %v", reqs[0].body["model"], reqs[1].body["model"])
	}
	msgs := reqs[0].body["messages"].([]any)
	parts, ok := msgs[len(msgs)-1].(map[string]any)["content"].([]any)
	if !ok || len(parts) != 2 {
		t.Fatalf("last message content = %v, want text and image parts", msgs[len(msgs)-1])
	}
	text, img := parts[0].(map[string]any), parts[1].(map[string]any)
	if text["type"] != "text" || img["type"] != "image_url" || img["image_url"].(map[string]any)["url"] != photoURL {
		t.Fatalf("parts = %v", parts)
	}
	plain := reqs[1].body["messages"].([]any)
	if _, ok := plain[len(plain)-1].(map[string]any)["content"].(string); !ok {
		t.Fatal("a request without images lost its plain content")
	}
}

// A model without vision refuses image parts: the error says so (the turn
// retries once without them), and is not retried here.
func TestImageRefusalIsErrImagesRejected(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		body   string
		want   bool
	}{
		{"openai", 400, `{"error":{"message":"Invalid content type. image_url is only supported by certain models.","type":"invalid_request_error"}}`, true},
		{"ollama", 400, `{"error":{"message":"json: cannot unmarshal array into Go struct field Message.messages.content of type string"}}`, true},
		{"plain text", 422, `multimodal input is not supported`, true},
		{"auth", 401, `{"error":{"message":"bad key for image models"}}`, false},
		{"forbidden", 403, `{"error":{"message":"You do not have access to the model eye-model."}}`, true},
		{"vision model not pulled", 404, `{"error":{"message":"model \"llava\" not found, try pulling it first"}}`, true},
		{"other 400", 400, `{"error":{"message":"max_tokens too large"}}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeLLM(t, statusAnswer(c.status, nil, c.body))
			_, err := f.brain(nil, nil).Complete(context.Background(), photoReq())
			if got := errors.Is(err, bot.ErrImagesRejected); got != c.want {
				t.Fatalf("ErrImagesRejected = %v, want %v (err %v)", got, c.want, err)
			}
			if n := len(f.requests()); n != 1 {
				t.Fatalf("%d requests, want 1", n)
			}
			f2 := newFakeLLM(t, statusAnswer(c.status, nil, c.body))
			if _, err := f2.brain(nil, nil).Complete(context.Background(), replyReq(nil)); errors.Is(err, bot.ErrImagesRejected) {
				t.Fatal("a request without images reported images rejected")
			}
		})
	}
}

// visionForbidden is a model server on 127.0.0.1 that answers text and
// refuses, with a 403, every request carrying an image part: a key or
// vision model without image access. It counts the text calls it answered.
func visionForbidden(t *testing.T) (url string, texts *atomic.Int32) {
	texts = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"image_url"`) {
			statusAnswer(http.StatusForbidden, nil,
				`{"error":{"message":"This key is not allowed to use image inputs.","type":"invalid_request_error","code":"forbidden"}}`)(w, r)
			return
		}
		texts.Add(1)
		sse([]string{"I'm here."}, true, &[2]int{10, 2}, true)(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", texts
}

// Operator probe: a 403 for image input only must not open the breaker.
// Photo after photo is refused as images (the turn retries without them),
// Health stays ok, no line says the key is rejected, and text calls keep
// reaching the model.
func TestImageForbiddenLeavesTextOnTheModel(t *testing.T) {
	url, texts := visionForbidden(t)
	var logs bottest.Buffer
	b := downBrain(t, url, &http.Transport{}, &logs)
	for i := range BreakerThreshold + 1 {
		_, err := b.Complete(t.Context(), photoReq())
		if !errors.Is(err, bot.ErrImagesRejected) {
			t.Fatalf("photo %d: err = %v, want ErrImagesRejected", i+1, err)
		}
		if err := b.Health(t.Context()); err != nil {
			t.Fatalf("Health after photo %d = %v, want ok: only images are refused", i+1, err)
		}
		if _, err := b.Complete(t.Context(), replyReq(nil)); err != nil {
			t.Fatalf("text call after photo %d: %v", i+1, err)
		}
	}
	if n := texts.Load(); n != BreakerThreshold+1 {
		t.Errorf("%d text calls reached the model, want %d", n, BreakerThreshold+1)
	}
	if out := logs.String(); strings.Contains(out, "rejects the API key") || strings.Contains(out, "unreachable") {
		t.Errorf("an image refusal was logged as a key or outage problem:\n%s", out)
	}
}

// A key refused for everything is still the breaker's, photo or not: the
// 403 of the photo says nothing, and the text retry's 403 counts.
func TestImageForbiddenThenTextForbiddenOpensBreaker(t *testing.T) {
	f := newFakeLLM(t, statusAnswer(http.StatusForbidden, nil, `{"error":{"message":"key revoked"}}`))
	b := f.brain(nil, nil)
	for range BreakerThreshold {
		if _, err := b.Complete(t.Context(), photoReq()); !errors.Is(err, bot.ErrImagesRejected) {
			t.Fatalf("photo: err = %v, want ErrImagesRejected", err)
		}
		b.Complete(t.Context(), replyReq(nil))
	}
	if err := b.Health(t.Context()); !errors.Is(err, bot.ErrBrainDown) {
		t.Fatalf("Health = %v, want the key rejected", err)
	}
}
