package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"hearth/bot"
)

// Long-poll settings.
const (
	// DefaultPollTimeout is how long one getUpdates call may wait for news
	// (chosen by us; Telegram's examples use 30-60 s).
	DefaultPollTimeout = 30 * time.Second
	// httpTimeoutMargin is added to the poll timeout for the default HTTP
	// client's timeout, so a healthy long poll is never cut short.
	httpTimeoutMargin = 15 * time.Second
	// pollAnswerMargin is how long past its own timeout a getUpdates may go
	// unanswered before it counts as failed (hearth's choice). The Bot API
	// answers a long poll when its timeout passes, so a later answer means
	// a link that swallows requests (TCP accepted or SYN dropped, nothing
	// back); 5 s covers a transcontinental round trip and a slow proxy many
	// times over, and notices the silence well before httpTimeoutMargin
	// (or never, with a caller's client that has no timeout).
	pollAnswerMargin = 5 * time.Second
	// pollLimit is the most updates one getUpdates call returns (Bot API
	// getUpdates: "Values between 1-100 are accepted").
	pollLimit = 100
	// offsetCursor is the CursorStore key of the next update id to fetch.
	offsetCursor = "telegram.offset"
	// maxConnsPerHost is how many connections to the Bot API hearth opens
	// and keeps: replies to many chats go out at once, and Go's default of
	// 2 idle connections would open (and close) one for nearly every one of
	// them. A burst beyond it waits for a free connection instead of
	// dialling one that is closed a moment later (issue 15: connection churn
	// was a tenth of a burst's CPU).
	maxConnsPerHost = 32
	// cursorSaveTimeout bounds saving the offset, which outlives Run's
	// context so an update accepted just before shutdown is not redelivered.
	cursorSaveTimeout = 5 * time.Second
)

// allowedUpdates are the update kinds hearth asks for (Bot API getUpdates
// allowed_updates; message_reaction must be asked for explicitly).
const allowedUpdates = `["message","edited_message","callback_query","message_reaction"]`

// CursorStore keeps the poll offset across restarts. The store package
// implements it; tests use a map.
type CursorStore interface {
	Cursor(ctx context.Context, name string) (string, error)
	SetCursor(ctx context.Context, name, value string) error
}

// Command is one entry of the bot's command menu, in the persona's language.
type Command struct{ Name, Description string }

// Config is what cmd/hearth passes to New.
type Config struct {
	Token string
	// Endpoint is TELEGRAM_API_ENDPOINT in the library's format
	// "http://host/bot%s/%s" (token, method); "" means api.telegram.org.
	Endpoint string
	// Cursors persists the poll offset; required.
	Cursors CursorStore
	// Commands are registered with setMyCommands at start.
	Commands []Command
	Logger   *slog.Logger
	// HTTPClient is optional; the default times out PollTimeout + 15 s.
	HTTPClient *http.Client
	// PollTimeout is the long-poll wait; 0 means DefaultPollTimeout. Telegram
	// counts whole seconds, so it is rounded up to at least one second.
	PollTimeout time.Duration
	// OnUnreachable, when set, is called when Telegram answers 403 (the user
	// blocked the bot or it was removed from the group).
	OnUnreachable func(ctx context.Context, chatID string)
}

// Transport is hearth's Telegram connection: a long-poll receiver and a
// Sender. Send and Typing are safe for concurrent use; Run is called once.
type Transport struct {
	token         string
	endpoint      string
	client        *http.Client
	cursors       CursorStore
	log           *slog.Logger
	pollSeconds   int
	pollMargin    time.Duration // pollAnswerMargin; tests shorten it
	onUnreachable func(ctx context.Context, chatID string)
	now           func() time.Time
	self          self
	selfUser      tgbotapi.User

	mu      sync.Mutex
	failing time.Time // when the first poll failed since the last that worked; zero while polls work
	polling time.Time // when the poll in flight started; zero between polls
}

var _ bot.Transport = (*Transport)(nil)

// New checks the token with getMe (bounded by ctx), remembers the bot's id and
// username for mention detection, and registers the command menu. A failing
// setMyCommands is logged, not fatal: the menu is a convenience.
func New(ctx context.Context, cfg Config) (*Transport, error) {
	if cfg.Token == "" {
		return nil, errors.New("telegram config: Token is required")
	}
	if cfg.Cursors == nil {
		return nil, errors.New("telegram config: Cursors is required")
	}
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = tgbotapi.APIEndpoint
	}
	if strings.Count(endpoint, "%s") != 2 {
		return nil, fmt.Errorf("telegram config: Endpoint %q must contain two %%s (token, method)", endpoint)
	}
	poll := cfg.PollTimeout
	if poll <= 0 {
		poll = DefaultPollTimeout
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	client := cfg.HTTPClient
	if client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = maxConnsPerHost
		tr.MaxConnsPerHost = maxConnsPerHost
		client = &http.Client{Timeout: poll + httpTimeoutMargin, Transport: tr}
	} else if client.Timeout != 0 && client.Timeout <= poll {
		log.Warn("telegram HTTP client timeout cuts long polls short", "timeout", client.Timeout, "poll", poll)
	}
	t := &Transport{
		token:         cfg.Token,
		endpoint:      endpoint,
		client:        client,
		cursors:       cfg.Cursors,
		log:           log,
		pollSeconds:   max(1, int((poll+time.Second-1)/time.Second)),
		pollMargin:    pollAnswerMargin,
		onUnreachable: cfg.OnUnreachable,
		now:           time.Now,
	}
	err := t.call(ctx, "telegram getMe", oncePolicy(), func(api *tgbotapi.BotAPI) error {
		u, err := api.GetMe()
		t.selfUser = u
		return err
	})
	if err != nil {
		return nil, err
	}
	t.self = self{ID: t.selfUser.ID, Username: t.selfUser.UserName}
	if len(cfg.Commands) > 0 {
		if err := t.setCommands(ctx, cfg.Commands); err != nil {
			log.Warn("telegram command menu not set", "err", err)
		}
	}
	log.Info("telegram connected", "bot", t.self.Username, "id", t.self.ID)
	return t, nil
}

// setCommands registers the command menu.
func (t *Transport) setCommands(ctx context.Context, cmds []Command) error {
	list := make([]tgbotapi.BotCommand, 0, len(cmds))
	for _, c := range cmds {
		list = append(list, tgbotapi.BotCommand{Command: strings.TrimPrefix(c.Name, "/"), Description: c.Description})
	}
	return t.call(ctx, "telegram setMyCommands", deliverPolicy(), func(api *tgbotapi.BotAPI) error {
		_, err := api.Request(tgbotapi.NewSetMyCommands(list...))
		return err
	})
}

// Name is the platform name.
func (t *Transport) Name() string { return bot.PlatformTelegram }

// Run long-polls getUpdates and delivers each update to in, in order. The
// offset moves past an update (and is persisted) only after in accepted it;
// a failing in is retried with backoff, so nothing is skipped. Run returns nil
// when ctx ends, aborting an in-flight long poll; it returns an error only
// when Telegram rejects the token (401).
func (t *Transport) Run(ctx context.Context, in bot.Inbound) error {
	offset := t.loadOffset(ctx)
	failures := 0
	for ctx.Err() == nil {
		started := t.now()
		t.setPolling(started)
		updates, status, err := t.poll(ctx, offset)
		t.setPolling(time.Time{})
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			t.setFailing(started)
			code, retryAfter := failure(err, status)
			if code == codeUnauthorized {
				return fmt.Errorf("telegram getUpdates: %w", err)
			}
			wait := backoff(failures)
			if code == codeTooManyRequests && retryAfter > 0 {
				wait = retryAfter
			}
			failures++
			if code == codeConflict {
				t.log.Error("telegram poll conflict: another process polls this bot or a webhook is set (deleteWebhook to poll)", "wait", wait, "err", err)
			} else {
				t.log.Warn("telegram poll failed", "code", code, "wait", wait, "err", err)
			}
			if sleep(ctx, wait) != nil {
				break
			}
			continue
		}
		failures = 0
		t.setFailing(time.Time{})
		// The offset is saved once per batch, after the handler stored every
		// update of it: a crash mid-batch only redelivers updates the handler
		// already stored and dedupes, and a busy bot saves one write per
		// poll instead of one per message.
		batchOffset := offset
		offset = t.deliverAll(ctx, in, updates, offset)
		if offset != batchOffset {
			t.saveOffset(ctx, offset)
		}
	}
	return nil
}

// FailingSince is when getUpdates started failing (the start of the first
// failed poll since the last one that worked), or the zero time while
// polls work: the daemon's /healthz reports Telegram down once this lasts.
// A failing poll is only logged by Run, which retries it for ever.
func (t *Transport) FailingSince() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failing
}

// AwaitingSince is when the poll in flight started, while at now it is
// still within a long poll's normal length (its timeout plus pollMargin):
// whether the link works is not known before then, as a healthy long
// poll with no news lasts that long. It is the zero time between polls
// and once the poll in flight is overdue. /healthz counts a failing link
// only up to this moment, so one swallowed poll followed by a healthy one
// is never reported down while that one is still waiting for news.
func (t *Transport) AwaitingSince(now time.Time) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.polling.IsZero() || !now.Before(t.polling.Add(t.pollLength())) {
		return time.Time{}
	}
	return t.polling
}

// pollLength is the longest a healthy poll takes: its timeout plus
// pollMargin, past which it fails as unanswered.
func (t *Transport) pollLength() time.Duration {
	return time.Duration(t.pollSeconds)*time.Second + t.pollMargin
}

func (t *Transport) setPolling(since time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.polling = since
}

// setFailing records a failed poll that started at since, or with the zero
// time a poll that worked.
func (t *Transport) setFailing(since time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if since.IsZero() || t.failing.IsZero() {
		t.failing = since
	}
}

// errPollUnanswered is a long poll that outlived its timeout plus
// pollMargin without an answer.
var errPollUnanswered = errors.New("getUpdates unanswered past its timeout")

// poll runs one getUpdates long poll from offset. It returns the HTTP status
// too, so a proxy's non-JSON 401 or 5xx page is classified correctly. A poll
// the server has not answered by its timeout plus pollMargin fails then
// (wrapping errPollUnanswered), so a link that swallows requests shows in
// FailingSince and the log within seconds of the poll's timeout.
func (t *Transport) poll(ctx context.Context, offset int64) ([]rawUpdate, int, error) {
	wait := t.pollLength()
	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	params := tgbotapi.Params{
		"limit":           strconv.Itoa(pollLimit),
		"timeout":         strconv.Itoa(t.pollSeconds),
		"allowed_updates": allowedUpdates,
	}
	if offset > 0 {
		params["offset"] = strconv.FormatInt(offset, 10)
	}
	api, d := t.api(pctx)
	resp, err := api.MakeRequest("getUpdates", params)
	if err != nil {
		if ctx.Err() == nil && pctx.Err() != nil {
			err = fmt.Errorf("%w (%s): %w", errPollUnanswered, wait, err)
		}
		return nil, d.status, err
	}
	updates, err := decodeUpdates(resp.Result)
	return updates, d.status, err
}

// deliverAll hands a poll's updates to in, in order, and returns the
// offset past the last one in accepted (Telegram is the authority on what
// is unconfirmed, so every update it returns is delivered; the offset never
// moves back). Consecutive messages go to a bot.BatchInbound in one call,
// so a busy poll is stored in one write; a failure is retried until ctx
// ends, and the updates from it on stay unconfirmed.
func (t *Transport) deliverAll(ctx context.Context, in bot.Inbound, updates []rawUpdate, offset int64) int64 {
	batch, batching := in.(bot.BatchInbound)
	var (
		msgs      []bot.Message
		callbacks []string
		end       int64 // offset past the batched updates
	)
	flush := func() error {
		if end == 0 {
			return nil
		}
		if len(msgs) > 0 {
			err := t.retry(ctx, end-1, func() error { return batch.HandleMessages(ctx, msgs) })
			if err != nil {
				return err
			}
		}
		for _, id := range callbacks {
			t.answerCallback(ctx, id)
		}
		offset = max(offset, end)
		msgs, callbacks, end = nil, nil, 0
		return nil
	}
	for _, u := range updates {
		if !u.HasID {
			t.log.Error("telegram update without id dropped", "err", u.Err)
			continue
		}
		if batching && u.Err == nil {
			if ev := t.self.convert(u.Update, t.now()); ev.Reaction == nil {
				if ev.Message != nil {
					msgs = append(msgs, *ev.Message)
				}
				if ev.CallbackID != "" {
					callbacks = append(callbacks, ev.CallbackID)
				}
				end = u.ID + 1
				continue
			}
		}
		if flush() != nil || t.deliver(ctx, in, u) != nil {
			return offset // ctx ended while retrying
		}
		offset = max(offset, u.ID+1)
	}
	_ = flush() // an error means ctx ended: the batch stays unconfirmed
	return offset
}

// deliver hands one update to in, retrying with backoff until in accepts it
// or ctx ends (then it returns ctx's error). Updates that mean nothing to
// hearth are accepted at once.
func (t *Transport) deliver(ctx context.Context, in bot.Inbound, u rawUpdate) error {
	if u.Err != nil {
		t.log.Error("telegram update undecodable, skipped", "update_id", u.ID, "err", u.Err)
		return nil
	}
	ev := t.self.convert(u.Update, t.now())
	if ev.Message == nil && ev.Reaction == nil {
		return nil
	}
	err := t.retry(ctx, u.ID, func() error {
		if ev.Message != nil {
			return in.HandleMessage(ctx, *ev.Message)
		}
		return in.HandleReaction(ctx, *ev.Reaction)
	})
	if err != nil {
		return err
	}
	if ev.CallbackID != "" {
		t.answerCallback(ctx, ev.CallbackID)
	}
	return nil
}

// retry runs accept until it succeeds, with backoff, or until ctx ends
// (then it returns ctx's error). updateID names the update in the log.
func (t *Transport) retry(ctx context.Context, updateID int64, accept func() error) error {
	for attempt := 0; ; attempt++ {
		err := accept()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		wait := backoff(attempt)
		t.log.Warn("telegram update not accepted, retrying", "update_id", updateID, "wait", wait, "err", err)
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// answerCallback stops the button's loading spinner. Failure is only logged:
// the press is already stored and will be answered in the chat.
func (t *Transport) answerCallback(ctx context.Context, id string) {
	err := t.call(ctx, "telegram answerCallbackQuery", deliverPolicy(), func(api *tgbotapi.BotAPI) error {
		_, err := api.Request(tgbotapi.NewCallback(id, ""))
		return err
	})
	if err != nil {
		t.log.Warn("telegram callback not answered", "err", err)
	}
}

// loadOffset reads the persisted offset. A missing or unreadable cursor
// starts from Telegram's oldest unconfirmed update, which is safe: the
// handler dedupes messages it already stored.
func (t *Transport) loadOffset(ctx context.Context) int64 {
	v, err := t.cursors.Cursor(ctx, offsetCursor)
	if err != nil {
		t.log.Warn("telegram offset unreadable, starting from the oldest update", "err", err)
		return 0
	}
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.log.Warn("telegram offset malformed, starting from the oldest update", "value", v, "err", err)
		return 0
	}
	return n
}

// saveOffset persists offset. A failure is logged and polling goes on with
// the offset in memory: at worst a restart redelivers updates the handler
// already stored, and it dedupes them.
func (t *Transport) saveOffset(ctx context.Context, offset int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cursorSaveTimeout)
	defer cancel()
	if err := t.cursors.SetCursor(ctx, offsetCursor, strconv.FormatInt(offset, 10)); err != nil {
		t.log.Warn("telegram offset not saved", "offset", offset, "err", err)
	}
}
