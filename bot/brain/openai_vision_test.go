package brain

import (
	"context"
	"errors"
	"testing"

	"hearth/bot"
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
