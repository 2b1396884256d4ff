package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"hearth/heart"
	"hearth/store"
)

// DefaultConcurrency bounds how many chats run a turn at once. It is hearth's
// choice: a turn holds its slot through its LLM calls, so this is a cap on
// concurrent upstream requests, not on CPU; 256 lets 200 users writing at
// once all be answered in one round of a slow model (README benchmarks).
const DefaultConcurrency = 256

// Config wires a Handler. cmd/hearth fills it; tests build it directly.
type Config struct {
	Persona Persona
	Store   TurnStore
	// Brain answers the LLM calls; Offline answers when the daily token
	// budget is spent and when Brain fails to produce a reply.
	Brain   Brain
	Offline Brain
	Senders map[string]Sender
	// Operators receive Watch alerts (seed 003 §3 "立即人工审核").
	Operators []ChatRef
	Logger    *slog.Logger
	// Now is the clock; hearth simulate injects a simulated one.
	Now         func() time.Time
	Concurrency int
	// Semantic adds recall by meaning to the full-text index; nil means
	// full-text recall only.
	Semantic SemanticRecall
	// Observer receives metrics events; nil means none.
	Observer Observer
	// TallyUsers bounds how many users' running sums stay in memory; 0 is
	// DefaultTallyUsers.
	TallyUsers int
	// Media hears voice notes, speaks replies and fetches photos (DESIGN
	// §12); nil: voice notes and photos are answered as unheard and unseen.
	Media Media
	// Vision sends photos to the reply model as image parts (HEARTH_VISION).
	Vision bool
}

// Handler runs the turn of DESIGN §3 for every inbound message. It
// implements Inbound for transports.
type Handler struct {
	cfg      Config
	log      *slog.Logger
	lex      *heart.Lexicon
	char     heart.Character
	loc      *time.Location
	queues   *chatQueues
	users    keyedMutex
	reflect  *reflector
	override *overrides
	window   *historyWindow
	systems  systemCache
	// perceiving is the perception request's system message, the same on
	// every turn.
	perceiving string
	obs        Observer
	tallies    *tallies
	semantic   semanticHealth

	mu        sync.Mutex
	budgetOut bool           // the daily token budget is spent (logged once per change)
	inflight  map[int64]bool // ledger entries being delivered right now
}

// NewHandler validates cfg and returns a Handler whose turns run under ctx's
// values but survive its cancellation: shutdown drains turns instead of
// cutting them (DESIGN §9 "SIGTERM ... drain in-flight turns").
func NewHandler(ctx context.Context, cfg Config) (*Handler, error) {
	if cfg.Store == nil || cfg.Brain == nil || cfg.Offline == nil {
		return nil, errors.New("new handler: store, brain and offline brain are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	lex, err := heart.NewLexicon(cfg.Persona.Lexicon)
	if err != nil {
		return nil, fmt.Errorf("new handler: lexicon: %w", err)
	}
	loc := cfg.Persona.Timezone
	if loc == nil {
		loc = time.UTC
	}
	obs := cfg.Observer
	if obs == nil {
		obs = nopObserver{}
	}
	work := context.WithoutCancel(ctx)
	h := &Handler{
		cfg:        cfg,
		log:        cfg.Logger,
		lex:        lex,
		char:       heart.Character{Dependency: cfg.Persona.Dependency, Pride: cfg.Persona.Pride},
		loc:        loc,
		queues:     newChatQueues(work, cfg.Concurrency),
		override:   newOverrides(),
		window:     newHistoryWindow(),
		perceiving: KindPerception.Marker() + "\n" + heart.PerceptionPrompt(cfg.Persona.Language),
		obs:        obs,
		tallies:    newTallies(cfg.TallyUsers),
		inflight:   make(map[int64]bool),
	}
	h.reflect = newReflector(work, h)
	return h, nil
}

// Persona is the persona the handler runs with.
func (h *Handler) Persona() Persona { return h.cfg.Persona }

// Location is the persona's time zone.
func (h *Handler) Location() *time.Location { return h.loc }

// HandleMessage stores m durably (deduplicated on platform, chat and message
// id) and queues its turn. It returns once the message is stored.
func (h *Handler) HandleMessage(ctx context.Context, m Message) error {
	return h.HandleMessages(ctx, []Message{m})
}

// HandleMessages stores ms in one write, all or none, then queues their
// turns in order (BatchInbound). It returns once they are stored.
func (h *Handler) HandleMessages(ctx context.Context, ms []Message) error {
	ins := make([]store.Inbound, len(ms))
	for i, m := range ms {
		if m.At.IsZero() {
			m.At = h.cfg.Now()
		}
		if m.Modality == "" {
			m.Modality = ModalityText
		}
		ins[i] = store.Inbound{
			Platform: m.Platform, ChatID: m.ChatID, ChatKind: string(m.ChatKind),
			MessageID: m.MessageID, UserID: m.User(), UserName: m.UserName,
			Text: m.Text, Modality: string(m.Modality), Addressed: m.Addressed,
			At: m.At.UTC(), Status: store.StatusReceived, Media: encodeMedia(m.Media),
		}
	}
	ids, inserted, err := h.cfg.Store.InsertInbounds(ctx, ins)
	if err != nil {
		if len(ms) == 1 {
			return fmt.Errorf("store message %s/%s/%s: %w", ms[0].Platform, ms[0].ChatID, ms[0].MessageID, err)
		}
		return fmt.Errorf("store %d messages: %w", len(ms), err)
	}
	for i, in := range ins {
		if !inserted[i] {
			h.log.Debug("duplicate message ignored", "platform", in.Platform, "chat", in.ChatID, "message", in.MessageID)
			continue
		}
		in.ID = ids[i]
		h.enqueue(in)
	}
	return nil
}

func (h *Handler) enqueue(in store.Inbound) {
	h.queues.push(in.Platform+"/"+in.ChatID, func(ctx context.Context) {
		if err := h.turn(ctx, in); err != nil {
			h.obs.Error("turn")
			h.log.Error("turn failed; the message stays queued for the next start",
				"user", in.UserID, "inbound", in.ID, "err", err)
		}
	})
}

// Recover answers what a crash left behind: stored messages without an
// answer get their turn (once), and replies decided but not yet delivered are
// sent. Call it once at start, after the transports' senders are wired.
func (h *Handler) Recover(ctx context.Context) error {
	pending, err := h.cfg.Store.PendingInbound(ctx)
	if err != nil {
		return fmt.Errorf("recover: %w", err)
	}
	if err := h.DeliverPending(ctx); err != nil {
		return fmt.Errorf("recover: %w", err)
	}
	for _, in := range pending {
		h.enqueue(in)
	}
	if len(pending) > 0 {
		h.log.Info("answering messages stored before the last stop", "count", len(pending))
	}
	return nil
}

// InFlight is what Drain would wait for now: the turns queued or running
// and the reflections running. The daemon logs it when it starts to stop.
func (h *Handler) InFlight() (turns, reflections int) {
	return h.queues.size(), h.reflect.running()
}

// Drain waits until every queued turn and reflection has finished and the
// writes they left queued are committed.
func (h *Handler) Drain() {
	h.queues.wait()
	h.reflect.wait()
	// Delivery marks wait in the store's queue for company (MarkOutboundAsync).
	if err := h.cfg.Store.Flush(context.Background()); err != nil {
		h.log.Warn("flush the store's queued writes", "err", err)
	}
}

// RetryMinAge is how old a pending ledger entry must be before the retry
// loop resends it: younger ones are still being delivered by their turn or
// by the life loop, and resending them would say the same thing twice.
const RetryMinAge = time.Minute

// DeliverPending sends every pending entry of the outbound ledger and
// returns once the ledger records what was sent. Recover calls it at
// start, when nothing is in flight.
func (h *Handler) DeliverPending(ctx context.Context) error {
	if err := h.deliverPending(ctx, 0); err != nil {
		return err
	}
	if err := h.cfg.Store.Flush(ctx); err != nil { // the sent marks (MarkOutboundAsync)
		return fmt.Errorf("deliver pending: %w", err)
	}
	return nil
}

func (h *Handler) deliverPending(ctx context.Context, minAge time.Duration) error {
	out, err := h.cfg.Store.PendingOutbound(ctx)
	if err != nil {
		return fmt.Errorf("pending outbound: %w", err)
	}
	now := h.cfg.Now()
	for _, o := range out {
		if now.Sub(o.CreatedAt) < minAge {
			continue
		}
		if _, ok := h.cfg.Senders[o.Platform]; !ok {
			continue // that transport is not running in this process
		}
		if err := h.deliver(ctx, o, listed); err != nil {
			h.log.Warn("delivery failed; will retry", "outbound", o.ID, "err", err)
		}
	}
	return nil
}

// RunRetries re-sends undelivered ledger entries every interval until ctx
// ends, so a transient platform outage delays replies instead of losing them.
func (h *Handler) RunRetries(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := h.deliverPending(ctx, RetryMinAge); err != nil && ctx.Err() == nil {
				h.log.Warn("retry deliveries", "err", err)
			}
		}
	}
}

// deliver sends one ledger entry and records the outcome. The window between
// the platform accepting the message and its sent mark committing is the
// only place a crash can cause a duplicate; hearth prefers a rare duplicate
// to a lost reply there (README "Delivery guarantees").
func (h *Handler) deliver(ctx context.Context, o store.Outbound, from origin) error {
	sender, ok := h.cfg.Senders[o.Platform]
	if !ok {
		return fmt.Errorf("deliver %d: no transport for %s", o.ID, o.Platform)
	}
	if !h.claim(o.ID) {
		return nil // another goroutine is delivering it right now
	}
	marking := false // the claim then lasts until the mark is committed
	defer func() {
		if !marking {
			h.release(o.ID)
		}
	}()
	if mayBeDelivered(o, from, h.cfg.Now()) {
		if status, err := h.cfg.Store.OutboundStatus(ctx, o.ID); err != nil {
			return fmt.Errorf("deliver %d: %w", o.ID, err)
		} else if status != store.OutboundPending {
			return nil
		}
	}
	out, err := decodeOutgoing(o)
	if err != nil {
		_ = h.cfg.Store.MarkOutbound(ctx, o.ID, store.OutboundFailed, nil, h.cfg.Now())
		return fmt.Errorf("deliver %d: %w", o.ID, err)
	}
	chat := ChatRef{Platform: o.Platform, ChatID: o.ChatID, Kind: ChatKind(o.ChatKind)}
	sent, err := sender.Send(ctx, chat, out)
	if errors.Is(err, ErrUnreachable) {
		h.markUnreachable(ctx, o.UserID)
		if mErr := h.cfg.Store.MarkOutbound(ctx, o.ID, store.OutboundFailed, nil, h.cfg.Now()); mErr != nil {
			return fmt.Errorf("deliver %d: %w", o.ID, mErr)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("deliver %d: %w", o.ID, err)
	}
	// The mark joins the writer's next group instead of waiting for it
	// (README "Delivery guarantees"). The entry stays claimed until the
	// mark is committed, so no other deliverer takes it for pending
	// meanwhile; a mark that fails leaves it pending for the retry loop.
	marking = true
	h.cfg.Store.MarkOutboundAsync(context.WithoutCancel(ctx), o, store.OutboundSent, sent.MessageIDs, h.cfg.Now(), func(err error) {
		h.release(o.ID)
		if err != nil {
			h.log.Warn("sent, but not marked sent; the retry loop may send it again", "outbound", o.ID, "err", err)
		}
	})
	h.obs.Sent(o.Kind)
	return nil
}

// origin is where a deliverer got a ledger entry from.
type origin bool

const (
	listed    origin = false // a list of pending entries read from the ledger
	committed origin = true  // the caller's own write that just created it
)

// mayBeDelivered reports whether entry o may have been delivered since its
// deliverer got it, so its status must be read again first. A listed
// entry may: the list can predate another delivery. One its deliverer
// just committed may not while it is younger than RetryMinAge: the retry
// loop lists only older entries, and claim keeps everyone else out. Ages
// only grow, so no retry pass can have listed it before now either.
func mayBeDelivered(o store.Outbound, from origin, now time.Time) bool {
	return from == listed || now.Sub(o.CreatedAt) >= RetryMinAge
}

// claim marks ledger entry id as being delivered; false if it already was.
func (h *Handler) claim(id int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inflight[id] {
		return false
	}
	h.inflight[id] = true
	return true
}

func (h *Handler) release(id int64) {
	h.mu.Lock()
	delete(h.inflight, id)
	h.mu.Unlock()
}

func (h *Handler) markUnreachable(ctx context.Context, userID string) {
	if err := h.MarkUnreachable(ctx, userID); err != nil {
		h.log.Warn("mark user unreachable", "user", userID, "err", err)
	}
}

// MarkUnreachable records that the platform refused to deliver to userID
// (they blocked the bot): no proactive messages until they write again. It
// takes no per-user lock, so deliveries inside a turn may call it.
func (h *Handler) MarkUnreachable(ctx context.Context, userID string) error {
	if userID == "" {
		return nil
	}
	if err := h.cfg.Store.SetUnreachable(ctx, userID, true); err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("mark %s unreachable: %w", userID, err)
	}
	h.log.Info("user unreachable; proactive messages stop", "user", userID)
	return nil
}

// Send puts out into the ledger for userID's chat and delivers it: the one
// way out for the admin API's gift thanks and other non-turn messages.
func (h *Handler) Send(ctx context.Context, userID string, chat ChatRef, kind string, out Outgoing) error {
	o, err := encodeOutgoing(out)
	if err != nil {
		return err
	}
	o.Platform, o.ChatID, o.ChatKind, o.UserID, o.Kind = chat.Platform, chat.ChatID, string(chat.Kind), userID, kind
	o.Status, o.CreatedAt = store.OutboundPending, h.cfg.Now().UTC()
	id, err := h.cfg.Store.EnqueueOutbound(ctx, o)
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", kind, err)
	}
	o.ID = id
	return h.deliver(ctx, o, committed)
}
