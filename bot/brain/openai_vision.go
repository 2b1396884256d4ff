package brain

import (
	"fmt"
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"hearth/bot"
)

// toOpenAIMessage converts one message. A message with images becomes
// multi-part content: its text, then one image_url part per data: URL
// (DESIGN §12: the photo itself, never a link).
func toOpenAIMessage(m bot.ChatMessage) openai.ChatCompletionMessage {
	if len(m.Images) == 0 {
		return openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	parts := make([]openai.ChatMessagePart, 0, 1+len(m.Images))
	if m.Content != "" {
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: m.Content})
	}
	for _, url := range m.Images {
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL,
			ImageURL: &openai.ChatMessageImageURL{URL: url, Detail: openai.ImageURLDetailAuto}})
	}
	return openai.ChatCompletionMessage{Role: m.Role, MultiContent: parts}
}

// modelFor is the model of a request: HEARTH_VISION_MODEL for one that
// carries images, when set, else the configured model.
func (o *OpenAI) modelFor(msgs []bot.ChatMessage) string {
	if o.visionModel != "" && hasImages(msgs) {
		return o.visionModel
	}
	return o.model
}

func hasImages(msgs []bot.ChatMessage) bool {
	for _, m := range msgs {
		if len(m.Images) > 0 {
			return true
		}
	}
	return false
}

// imageWords are what servers say when a model cannot take image parts:
// OpenAI names images or vision, llama.cpp and vLLM "multimodal", and
// servers expecting plain text complain about the content (an array).
var imageWords = []string{"image", "vision", "multimodal", "content", "array"}

// imagesRejected wraps err with bot.ErrImagesRejected when a request with
// images was refused for them: a client error (not auth, not a rate limit)
// whose message speaks of images or content, any 403, or any 404.
//
// A 404 on a request with images is the model of photos missing: most
// often HEARTH_VISION_MODEL not pulled or misspelt ("model \"llava\" not
// found"). The text model may well be there: the turn asks once more
// without the photo instead of giving the whole turn to the offline brain.
//
// A 403 on a request with images is the key or the model (often
// HEARTH_VISION_MODEL) being refused image input, whatever words the server
// uses; the turn asks once more without the photo, and that text call tells
// the breaker whether the key itself is refused. Counting the 403 against
// the key would send every text turn to the offline brain for a refusal
// that concerns photos only. A 401 is about the key and stays the breaker's.
func imagesRejected(msgs []bot.ChatMessage, err error) error {
	if err == nil || !hasImages(msgs) {
		return err
	}
	status, msg := APIError(err)
	switch status {
	case http.StatusForbidden, http.StatusNotFound:
		return fmt.Errorf("%w: %w", bot.ErrImagesRejected, err)
	case http.StatusBadRequest, http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity:
	default:
		return err
	}
	for _, w := range imageWords {
		if strings.Contains(msg, w) {
			return fmt.Errorf("%w: %w", bot.ErrImagesRejected, err)
		}
	}
	return err
}
