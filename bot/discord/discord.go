package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"hearth/bot"
)

// Limits and timings. Each names where it comes from.
const (
	// MessageLimit is Discord's maximum message length in characters
	// (Discord API docs, "Create Message": content up to 2000 characters;
	// DESIGN §3 step 9).
	MessageLimit = 2000

	// DefaultOpenTimeout bounds one gateway connection attempt when
	// Config.OpenTimeout is zero. Chosen by us: HELLO and READY arrive
	// within seconds; 30 s leaves room for a slow proxy.
	DefaultOpenTimeout = 30 * time.Second

	// restTimeout bounds one REST request; discordgo's own default
	// (discordgo discord.go New: 20 s).
	restTimeout = 20 * time.Second

	// handshakeTimeout bounds the websocket upgrade. Chosen by us:
	// gorilla/websocket's DefaultDialer allows 45 s, which would hold Run
	// too long when the gateway hangs; 10 s is ample on a working network.
	handshakeTimeout = 10 * time.Second

	// interactionTTL is how long an interaction token may be used for
	// followups (Discord API docs, "Receiving and Responding": tokens are
	// valid for 15 minutes).
	interactionTTL = 15 * time.Minute

	// reconnectMin and reconnectMax bound the wait between reconnection
	// attempts. discordgo's own loop starts at 1 s and doubles (wsapi.go
	// reconnect); we cap at 2 minutes instead of its 10 so a bot comes back
	// soon after an outage.
	reconnectMin = 1 * time.Second
	reconnectMax = 2 * time.Minute

	// queueLimit bounds the events waiting for the Inbound. Chosen by us:
	// HandleMessage only stores a message, so a queue this long means the
	// handler is stuck; dropping (and logging) beats unbounded memory.
	queueLimit = 4096

	// discordHost is the host DISCORD_API_BASE replaces (DESIGN §9).
	discordHost = "discord.com"
)

// intents are the gateway intents hearth needs: guild and DM messages with
// their content, and reactions in both (DESIGN §8 "Reactions").
const intents = discordgo.IntentsGuilds |
	discordgo.IntentsGuildMessages |
	discordgo.IntentsDirectMessages |
	discordgo.IntentsGuildMessageReactions |
	discordgo.IntentsDirectMessageReactions |
	discordgo.IntentMessageContent

// Command is one slash command to register, so Discord users can type the
// commands of DESIGN §8 with autocompletion.
type Command struct {
	Name        string
	Description string
	// Option is the name of one optional string argument, e.g. "text" for
	// /remember, "n" for /forget, "duration" for /quiet; "" for none.
	Option string
}

// Config is what cmd/hearth passes in; the package reads no environment.
type Config struct {
	// Token is the bot token (DISCORD_BOT_TOKEN), with or without "Bot ".
	Token string
	// APIBase replaces "https://discord.com/" in every REST request
	// (DISCORD_API_BASE), e.g. "http://127.0.0.1:5555/"; "" = real Discord.
	// The gateway URL is whatever GET /api/v9/gateway there returns.
	APIBase string
	// Commands are registered as global application commands when Run
	// starts (bulk overwrite). Nil leaves registered commands alone.
	Commands []Command
	// Logger receives the transport's logs; nil discards them.
	Logger *slog.Logger
	// OpenTimeout bounds one gateway connection attempt; 0 means
	// DefaultOpenTimeout.
	OpenTimeout time.Duration
	// ShardCount is how many gateway shards the bot uses (DESIGN §11,
	// DISCORD_SHARDS): Run opens one session per shard, all feeding this
	// one Transport. 0 means 1; AutoShards asks Discord's GET /gateway/bot
	// for its recommended count when Run starts.
	ShardCount int
	// IdentifyInterval spaces the shards' first connections; 0 means
	// DefaultIdentifyInterval.
	IdentifyInterval time.Duration
	// Cursors keeps, per channel, the newest message hearth stored, so
	// that after every new gateway session Run fetches over REST what was
	// sent while hearth was away (Discord does not replay events to a new
	// session). Nil disables that backfill: messages sent while hearth is
	// down are then lost.
	Cursors CursorStore
	// Stored, when set, reports the newest message id the instance stored
	// per channel. Run merges it into the cursor at start: the store is the
	// truth about what was stored, and it covers a channel whose first
	// message was stored just before a crash, before the cursor was saved.
	Stored func(ctx context.Context) (map[string]string, error)
}

// Transport is the Discord connection. Create it with New; call Run once.
// Send and Typing may be called from any goroutine, before or during Run.
type Transport struct {
	cfg   Config
	log   *slog.Logger
	auth  string             // "Bot " + token
	base  *url.URL           // DISCORD_API_BASE; nil: real Discord
	s     *discordgo.Session // shard 0's session; all REST goes through it
	http  *http.Transport
	conns *connTracker // shard 0's gateway sockets
	now   func() time.Time

	// shards are the gateway sessions; shards[0] is s. Only Run's
	// goroutine changes the slice (see openShards), holding mu.
	shards []*shard

	wake chan struct{} // an event was queued
	disc chan struct{} // a shard's gateway disconnected (shard.down says which)

	mu      sync.Mutex
	self    string // the bot's user id, from READY
	appID   string // the application id, from READY
	queue   []any
	pending map[string]pendingInteraction // channel id → unanswered interaction

	// Backfill positions; only Run's goroutine touches them.
	chans map[string]*channelPos // channel id → what was stored there
	dirty bool                   // chans changed since the last save
}

var _ bot.Transport = (*Transport)(nil)

// pendingInteraction is an acknowledged interaction whose answer is the next
// Send to its channel.
type pendingInteraction struct {
	ix        *discordgo.Interaction
	ephemeral bool
	at        time.Time
}

// New checks cfg and prepares a session; it does not connect.
func New(cfg Config) (*Transport, error) {
	token := strings.TrimSpace(cfg.Token)
	if token == "Bot" {
		token = ""
	}
	token = strings.TrimSpace(strings.TrimPrefix(token, "Bot "))
	if token == "" {
		return nil, errors.New("discord: token is empty")
	}
	if cfg.ShardCount == 0 {
		cfg.ShardCount = 1
	}
	if cfg.ShardCount < 1 && cfg.ShardCount != AutoShards {
		return nil, fmt.Errorf("discord: %d shards: want 1 or more, or auto", cfg.ShardCount)
	}
	if cfg.IdentifyInterval <= 0 {
		cfg.IdentifyInterval = DefaultIdentifyInterval
	}
	if cfg.OpenTimeout <= 0 {
		cfg.OpenTimeout = DefaultOpenTimeout
	}
	for _, c := range cfg.Commands {
		if c.Name == "" || c.Description == "" {
			return nil, fmt.Errorf("discord: command %q needs a name and a description", c.Name)
		}
	}
	var base *url.URL
	if cfg.APIBase != "" {
		u, err := url.Parse(cfg.APIBase)
		if err != nil {
			return nil, fmt.Errorf("discord: api base: %w", err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("discord: api base %q: want http(s)://host/", cfg.APIBase)
		}
		base = u
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}

	t := &Transport{
		cfg:     cfg,
		log:     log,
		auth:    "Bot " + token,
		base:    base,
		http:    http.DefaultTransport.(*http.Transport).Clone(),
		now:     time.Now,
		wake:    make(chan struct{}, 1),
		disc:    make(chan struct{}, 1),
		pending: make(map[string]pendingInteraction),
		chans:   make(map[string]*channelPos),
	}
	sh, err := t.newShard(0)
	if err != nil {
		return nil, err
	}
	t.s, t.conns, t.shards = sh.s, sh.conns, []*shard{sh}
	return t, nil
}

// Name is the platform name, bot.PlatformDiscord.
func (t *Transport) Name() string { return bot.PlatformDiscord }

// onReady remembers who the bot is and, since a new session replays
// nothing, queues a backfill of the shard's channels ahead of the session's
// events. It runs inside discordgo's Open with the session lock held, so it
// must not block or call the session.
func (t *Transport) onReady(sh *shard, r *discordgo.Ready) {
	t.mu.Lock()
	if r.User != nil {
		t.self = r.User.ID
	}
	if r.Application != nil && r.Application.ID != "" {
		t.appID = r.Application.ID
	} else if t.appID == "" {
		t.appID = t.self
	}
	t.mu.Unlock()
	if t.cfg.Cursors != nil {
		t.enqueue(backfillEvent{shard: sh.id})
	}
}

// onDisconnect wakes Run to reconnect the shard. It never blocks.
func (t *Transport) onDisconnect(sh *shard) {
	t.setFailing(sh, true)
	sh.down.Store(true)
	select {
	case t.disc <- struct{}{}:
	default:
	}
}

// FailingSince is when the first shard whose gateway is down dropped, or the
// zero time while every shard is connected: the daemon's /healthz reports
// Discord down once this lasts. Run reconnects on its own meanwhile.
func (t *Transport) FailingSince() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	var since time.Time
	for _, sh := range t.shards {
		if !sh.failing.IsZero() && (since.IsZero() || sh.failing.Before(since)) {
			since = sh.failing
		}
	}
	return since
}

// setFailing records that shard sh's gateway dropped (keeping the time of
// the first drop) or is connected again.
func (t *Transport) setFailing(sh *shard, failing bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case !failing:
		sh.failing = time.Time{}
	case sh.failing.IsZero():
		sh.failing = t.now()
	}
}

// enqueue hands a gateway event to Run without blocking discordgo's reader,
// which may hold the session lock. When the queue is full the event is
// dropped; with Cursors set, one backfill is queued behind the full queue
// (past the limit), so dropped messages are fetched again once Run gets
// there: everything ahead of it was delivered, everything dropped came
// after.
func (t *Transport) enqueue(e any) {
	t.mu.Lock()
	if len(t.queue) >= queueLimit {
		last, marked := t.queue[len(t.queue)-1].(backfillEvent)
		if t.cfg.Cursors != nil && (!marked || last.shard != everyShard) {
			t.queue = append(t.queue, backfillEvent{shard: everyShard})
		}
		t.mu.Unlock()
		if _, ok := e.(backfillEvent); !ok {
			t.log.Error("discord: event queue full, dropping event", "limit", queueLimit, "backfill", t.cfg.Cursors != nil)
		}
		return
	}
	t.queue = append(t.queue, e)
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// ids returns the bot's user id and application id as learned from READY.
func (t *Transport) ids() (self, app string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.self, t.appID
}
