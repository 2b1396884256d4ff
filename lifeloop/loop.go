package lifeloop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"hearth/bot"
	"hearth/store"
)

// Store is what the life loop needs from hearth/store; *store.DB implements
// it (the consumer declares the interface, STYLE.md).
type Store interface {
	UsersWithPrivateChat(ctx context.Context) ([]store.User, error)
	// ProactiveLog returns a user's decisions with At >= since, oldest first.
	ProactiveLog(ctx context.Context, userID string, since time.Time) ([]store.Proactive, error)
	LogProactive(ctx context.Context, p store.Proactive) error
	EnqueueOutbound(ctx context.Context, o store.Outbound) (int64, error)
	MarkOutbound(ctx context.Context, id int64, status string, platformIDs []string, at time.Time) error
	AddUsage(ctx context.Context, u ...store.Usage) error
	// MarkFollowUpsAsked records that a sent check-in asked about these
	// follow-ups, so none is asked twice.
	MarkFollowUpsAsked(ctx context.Context, ids []int64, at time.Time) error
}

// Assessment is heart's view of one relationship at a moment, supplied by
// the caller (Config.Assess) so this package never interprets the opaque
// relationship JSON itself.
type Assessment struct {
	State           string // stranger, acquaintance, friend or close (seed 003 §3.1)
	Watch           bool   // seed 003 §3.1 Watch overlay: no proactive messages
	DependencyLevel int    // seed 003 §6.2 level 0-3
	// Greeting is the seed 003 §7.1 greeting after an absence for this
	// user's state, offered to the model as a suggestion; may be "".
	Greeting string
}

// Outcomes of one decision, as stored in store.Proactive.Outcome.
const (
	OutcomeGated  = "gated"
	OutcomeSilent = "silent"
	OutcomeSent   = "sent"
	OutcomeError  = "error"
)

// Reasons of non-gate outcomes (silent, error, gated before the gate).
const (
	ReasonDeclined    = "declined"         // the model answered speak:false
	ReasonEmpty       = "empty"            // speak:true with an empty message
	ReasonForbidden   = "forbidden_phrase" // seed 003 §7.2 phrase in the message
	ReasonNoTransport = "no_transport"     // no Sender for the user's platform in this run
	ReasonBrain       = "brain"            // the LLM call failed
	ReasonBadAnswer   = "bad_answer"       // no JSON object in the answer
	ReasonStore       = "store"            // reading or writing the store failed
	ReasonSend        = "send"             // the platform refused for another reason
	// ReasonFollowUp marks a sent check-in that asked about a follow-up
	// whose day had passed (issue 11 item 5). The follow-up relaxed
	// nothing: the same gate let the check-in through.
	ReasonFollowUp = "follow_up"
)

// RecentCheckIns is how many of the last messages sent first the brain is
// told, so it sends none of them again word for word; hearth's choice:
// about as many as a relationship state's plain check-in lines, so weeks
// of check-ins two days apart do not alternate between two of them.
const RecentCheckIns = 3

// CheckInMemory is how far back Tick looks for those check-ins even when
// the user wrote since; hearth's choice: two weeks, past the longest
// backoff (BackoffCap), so a widower who answered on Tuesday is not sent
// Sunday's line again on Thursday.
const CheckInMemory = 14 * 24 * time.Hour

// OutboundKind is the outbound ledger kind of a life-loop message.
const OutboundKind = "proactive"

// UsageKind is the usage kind of a life-loop LLM call.
const UsageKind = "lifeloop"

// LogLookback bounds how far back Tick reads a user's proactive log; chosen
// by us: longer than BackoffCap, so streaks that matter for backoff are seen
// (after log2(7d / min_silence) unanswered messages the wait is capped anyway).
const LogLookback = 30 * 24 * time.Hour

// Config wires a Loop. Store, Brain, Assess and Forbidden are required.
type Config struct {
	// Persona supplies Name, Language, Text, Timezone and LifeLoop settings.
	Persona bot.Persona
	Store   Store
	Brain   bot.Brain
	// Senders deliver by platform name; a user whose platform has no Sender
	// in this run is gated with "no_transport".
	Senders map[string]bot.Sender
	// Assess reports the relationship facts heart derives for u at now.
	Assess func(u store.User, now time.Time) Assessment
	// Forbidden reports a seed 003 §7.2 phrase (heart.ContainsForbidden).
	Forbidden func(text string) bool
	// About optionally tells the brain what it knows of u for a check-in:
	// the memories it may bring up, the user's recent messages, the
	// follow-ups whose day has passed and, after a long silence, the heavy
	// topic they left, so a check-in can name something real (seed 003
	// §7.1 "你之前提到的[那件事]"). It is called only for users the gate
	// let through.
	About func(ctx context.Context, u store.User, now time.Time) bot.CheckIn
	// Prompt optionally replaces BuildPrompt; the marker line is enforced.
	Prompt func(u store.User, a Assessment, now time.Time) []bot.ChatMessage
	// Daily optionally runs once per local day at DailyJobHour (dependency and
	// loneliness evaluation, memory cleanup: wired by the caller).
	Daily func(ctx context.Context, now time.Time) error
	// Resting optionally reports that u was told today that the day's talk
	// is over (a daily limit reached); the gate then keeps her from
	// writing first until their next day (ReasonResting).
	Resting func(ctx context.Context, u store.User, now time.Time) bool
	// MarkUnreachable optionally records that the platform said the user
	// blocked the bot (sets store.User.Unreachable). Without it the loop still
	// stops asking: the log's "unreachable" entry gates until the user writes.
	MarkUnreachable func(ctx context.Context, userID string) error
	// Observe, when set, sees every decision as it is made (metrics).
	Observe func(Decision)
	// Now is the clock Run uses for cron-driven ticks; nil means time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Loop is the life loop of one instance. Its methods are safe for concurrent
// use; ticks are serialised.
type Loop struct {
	cfg      Config
	loc      *time.Location
	settings bot.LifeLoop
	schedule cron.Schedule // nil: schedule "off"
	daily    cron.Schedule
	log      *slog.Logger

	// tickSem (capacity 1) is held for a whole Tick so ticks never overlap;
	// a channel rather than a mutex so a waiting Tick still honours ctx.
	tickSem chan struct{}

	dailyMu   sync.Mutex
	lastDaily string // local date (2006-01-02) of the last successful daily run
}

// New validates cfg and the persona's life-loop settings, including the
// schedule, so a bad persona fails at start-up with the offending value named.
func New(cfg Config) (*Loop, error) {
	var errs []error
	if cfg.Store == nil {
		errs = append(errs, errors.New("Store is required"))
	}
	if cfg.Brain == nil {
		errs = append(errs, errors.New("Brain is required"))
	}
	if cfg.Assess == nil {
		errs = append(errs, errors.New("Assess is required"))
	}
	if cfg.Forbidden == nil {
		errs = append(errs, errors.New("Forbidden is required (seed 003 §7.2 phrases are never sent)"))
	}
	ll := cfg.Persona.LifeLoop
	if ll.MinState != "" && !validState(ll.MinState) {
		errs = append(errs, fmt.Errorf("lifeloop.min_state %q: want stranger, acquaintance, friend or close", ll.MinState))
	}
	if ll.MinSilence < 0 {
		errs = append(errs, fmt.Errorf("lifeloop.min_silence %v: negative", ll.MinSilence))
	}
	if ll.DailyCap < 0 {
		errs = append(errs, fmt.Errorf("lifeloop.daily_cap %d: negative", ll.DailyCap))
	}
	for _, q := range []time.Duration{ll.QuietStart, ll.QuietEnd} {
		if q < 0 || q >= 24*time.Hour {
			errs = append(errs, fmt.Errorf("lifeloop.quiet_hours: offset %v outside one day", q))
		}
	}
	loc := cfg.Persona.Timezone
	if loc == nil {
		loc = time.UTC
	}
	spec := ll.Schedule
	if strings.TrimSpace(spec) == "" {
		spec = DefaultSchedule
	}
	sched, err := ParseSchedule(spec, loc)
	if err != nil {
		errs = append(errs, fmt.Errorf("lifeloop.schedule: %w", err))
	}
	daily, err := dailySchedule(loc)
	if err != nil {
		errs = append(errs, fmt.Errorf("daily schedule: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("new lifeloop: %w", err)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Loop{
		cfg:      cfg,
		loc:      loc,
		settings: EffectiveSettings(ll),
		schedule: sched,
		daily:    daily,
		tickSem:  make(chan struct{}, 1),
		log:      log.With("component", "lifeloop"),
	}, nil
}

// Decision is what the loop decided for one user in one tick.
type Decision struct {
	UserID  string
	Outcome string // gated, silent, sent or error
	Reason  string
	Text    string // the message sent (sent only)
}

// TickReport summarises one Tick.
type TickReport struct {
	Decisions []Decision
	LLMCalls  int
}
