package bot

import (
	"context"
	"errors"
	"time"
)

// Kind names one of the four LLM calls of DESIGN §9. Every request's first
// system message begins with the line "[[hearth:<kind>]]".
type Kind string

// The four call kinds.
const (
	KindPerception Kind = "perception"
	KindReply      Kind = "reply"
	KindReflect    Kind = "reflect"
	KindLifeLoop   Kind = "lifeloop"
)

// Marker is the first line of the first system message of a request of kind k.
func (k Kind) Marker() string { return "[[hearth:" + string(k) + "]]" }

// Default LLM deadlines (DESIGN §9 "Default LLM deadlines").
const (
	DeadlinePerception = 15 * time.Second
	DeadlineReply      = 90 * time.Second
	DeadlineReflect    = 60 * time.Second
	DeadlineLifeLoop   = 60 * time.Second
)

// Deadline is the default deadline of one call of kind k.
func (k Kind) Deadline() time.Duration {
	switch k {
	case KindPerception:
		return DeadlinePerception
	case KindReply:
		return DeadlineReply
	case KindReflect:
		return DeadlineReflect
	default:
		return DeadlineLifeLoop
	}
}

// ChatMessage is one message of an LLM conversation.
type ChatMessage struct {
	Role    string `json:"role"` // "system", "user" or "assistant"
	Content string `json:"content"`
	// Images are data: URLs of photos the user sent with this message
	// (DESIGN §12); never a link, so no platform token reaches the model.
	Images []string `json:"images,omitempty"`
	// At is when a history message was said (zero: unknown, or not
	// history). Never sent to a model: the offline brain dates what it
	// quotes back by it ("about three weeks ago", never "earlier").
	At time.Time `json:"-"`
}

// Request is one LLM call. Messages is the full conversation, first system
// message starting with Kind.Marker(). Hints carry the same situation in
// structured form for the offline brain, which cannot read prose.
type Request struct {
	Kind     Kind
	Messages []ChatMessage
	// JSON asks for a JSON object (response_format json_object); true for
	// perception, reflect and lifeloop.
	JSON bool
	// Stream, when set on a reply request, receives user-visible text as it
	// arrives. It never receives any part of the trailer.
	Stream func(visible string)
	Hints  Hints
	// CacheKey groups requests that share a prompt prefix (one per user and
	// kind of call), so a server that routes by it (OpenAI's
	// prompt_cache_key) finds its cached prefix more often. It never holds
	// a user id in the clear (see CacheKey) and never depends on the
	// messages. Empty: none sent.
	CacheKey string
}

// Response is what a brain answered.
type Response struct {
	// Text is the user-visible reply (trailer removed) for KindReply, and the
	// raw JSON object for the JSON kinds.
	Text string
	// Trailer is the raw JSON after the reply's trailer delimiter, "" when
	// the model wrote none. Only for KindReply.
	Trailer string
	Usage   Usage
	// Offline is true when the answer came from the offline brain.
	Offline bool
}

// Usage is the token count of one call.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	// CachedTokens is the part of PromptTokens the server read from its
	// prefix cache (usage.prompt_tokens_details.cached_tokens); 0 when the
	// server does not say.
	CachedTokens int
}

// Total is prompt plus completion tokens.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

// ErrBrainDown is returned, wrapped, by a brain that knows its model is
// unreachable and did not try: the caller falls back at once (heuristic
// perception, the offline brain) and need not log every such turn.
var ErrBrainDown = errors.New("model unreachable")

// Brain answers LLM calls. Implementations: the OpenAI-compatible brain and
// the offline rule-based brain in bot/brain.
type Brain interface {
	Complete(ctx context.Context, req Request) (Response, error)
}
