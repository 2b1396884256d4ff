package bot

import (
	"context"
	"errors"
)

// Sender delivers the bot's words to a chat. The turn engine, the life loop
// and the admin API all send through it, so there is one way out.
type Sender interface {
	// Send delivers out, split at the platform's limit, and returns the
	// platform ids of what was sent. It honours rate limits itself.
	Send(ctx context.Context, chat ChatRef, out Outgoing) (Sent, error)
	// Typing shows a typing indicator once; the caller repeats it while a
	// reply is being written.
	Typing(ctx context.Context, chat ChatRef) error
}

// Inbound is what a transport delivers to. The Handler implements it.
type Inbound interface {
	// HandleMessage stores the message durably and schedules its turn. It
	// returns once the message is stored (not answered), so a transport may
	// advance its cursor as soon as HandleMessage returns nil.
	HandleMessage(ctx context.Context, m Message) error
	// HandleReaction records a reaction to a bot message.
	HandleReaction(ctx context.Context, r Reaction) error
}

// BatchInbound is an Inbound that also stores many messages in one write,
// all or none: a transport holding a batch of updates (a Telegram poll)
// hands them over together. The Handler implements it.
type BatchInbound interface {
	Inbound
	HandleMessages(ctx context.Context, ms []Message) error
}

// Transport is one platform connection.
type Transport interface {
	Sender
	// Name is the platform name, one of the Platform constants.
	Name() string
	// Run receives messages until ctx ends, then returns nil. Any other
	// return is a fatal transport error.
	Run(ctx context.Context, in Inbound) error
}

// ErrUnreachable is returned (wrapped) by Send when the platform says the user
// can no longer be reached, e.g. they blocked the bot (Telegram 403). The
// caller marks the user unreachable and stops proactive messages to them.
var ErrUnreachable = errors.New("user unreachable")
