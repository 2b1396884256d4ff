package discord

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Sharding (DESIGN §11): a bot in more guilds than one gateway session may
// serve runs one session per shard. Discord sends a guild's events to
// shard (guild_id >> 22) % count and DMs to shard 0 (Discord API docs,
// "Sharding"). All sessions of a Transport feed its one queue, so the
// Handler, the store and the backfill cursor see one Discord.

// AutoShards as Config.ShardCount asks Discord for its recommended shard
// count (GET /gateway/bot "shards") when Run starts (DISCORD_SHARDS=auto).
const AutoShards = -1

// DefaultIdentifyInterval spaces the shards' first connections. Discord API
// docs, "Sharding" (session_start_limit.max_concurrency): shards fall into
// max_concurrency buckets by shard_id % max_concurrency, and each bucket
// may start one session per 5 seconds.
const DefaultIdentifyInterval = 5 * time.Second

// everyShard marks a backfill of every channel, whatever its shard: the
// one queued after events were dropped.
const everyShard = -1

// shardBits is how far a guild id is shifted before taking the shard
// (Discord API docs, "Sharding Formula": (guild_id >> 22) % num_shards).
const shardBits = 22

// shard is one gateway session of the Transport.
type shard struct {
	id    int
	s     *discordgo.Session
	conns *connTracker
	down  atomic.Bool // disconnected; Run reconnects it
	// failing is when the gateway dropped, zero while it is connected;
	// guarded by the Transport's mu.
	failing time.Time
}

// newShard prepares the session of shard id; it does not connect. Every
// shard's events go to the one queue.
func (t *Transport) newShard(id int) (*shard, error) {
	s, err := discordgo.New(t.auth)
	if err != nil {
		return nil, fmt.Errorf("discord: new session: %w", err)
	}
	sh := &shard{id: id, s: s, conns: newConnTracker()}
	if t.conns != nil {
		sh.conns.tls = t.conns.tls // the same gateway, the same trust
	}
	s.Client = &http.Client{Timeout: restTimeout, Transport: rewriter{base: t.base, next: t.http}}
	s.Dialer = &websocket.Dialer{
		// No Proxy: gorilla/websocket would run the TLS dial hook against
		// the proxy itself. DISCORD_API_BASE is the supported way to
		// route through a proxy; its /gateway names the websocket URL.
		NetDialContext:    sh.conns.dial,
		NetDialTLSContext: sh.conns.dialTLS,
		HandshakeTimeout:  handshakeTimeout,
	}
	s.Identify.Intents = intents
	s.ShardID, s.ShardCount = id, max(t.cfg.ShardCount, 1)
	s.ShouldReconnectOnError = false // Run owns reconnection
	s.ShouldReconnectVoiceOnSessionError = false
	s.StateEnabled = false // hearth keeps no guild cache
	s.SyncEvents = true    // handlers run in gateway order: turns of a chat stay ordered
	s.LogLevel = -1        // discordgo would log through the global log package; we log ourselves

	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { t.onReady(sh, r) })
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) { t.onDisconnect(sh) })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.MessageCreate) { t.enqueue(e) })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.MessageReactionAdd) { t.enqueue(e) })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.InteractionCreate) { t.enqueue(e) })
	return sh, nil
}

// openShards settles the shard count (asking Discord when it is
// AutoShards), prepares the sessions beyond shard 0 and connects them in
// order: max_concurrency shards at once, each group IdentifyInterval after
// the one before. An error names the shard when there are several.
func (t *Transport) openShards(ctx context.Context) error {
	count, concurrency := t.cfg.ShardCount, 1
	if count != 1 {
		gb, err := t.s.GatewayBot(discordgo.WithContext(ctx))
		if err != nil {
			return fmt.Errorf("ask Discord how to shard: %w", t.rebased(err))
		}
		if count == AutoShards {
			count = max(gb.Shards, 1)
			t.log.Info("discord: shard count recommended by Discord", "shards", count)
		}
		concurrency = max(gb.SessionStartLimit.MaxConcurrency, 1)
	}
	t.cfg.ShardCount = count
	for id := len(t.shards); id < count; id++ {
		sh, err := t.newShard(id)
		if err != nil {
			return err
		}
		t.mu.Lock() // FailingSince reads the slice from other goroutines
		t.shards = append(t.shards, sh)
		t.mu.Unlock()
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for _, sh := range t.shards {
		sh.s.ShardCount = count
		if sh.id > 0 && sh.id%concurrency == 0 {
			timer.Reset(t.cfg.IdentifyInterval)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-timer.C:
			}
		}
		if err := t.open(ctx, sh); err != nil {
			if count > 1 {
				return fmt.Errorf("shard %d of %d: %w", sh.id, count, err)
			}
			return err
		}
		t.setFailing(sh, false)
		self, _ := t.ids()
		t.log.Info("discord: connected", "bot", self, "shard", sh.id, "shards", count)
	}
	return nil
}

// shardOf is the shard that receives guild's events among count; DMs (no
// guild) and ids that are not snowflakes go to shard 0.
func shardOf(guild string, count int) int {
	id, err := strconv.ParseUint(guild, 10, 64)
	if err != nil || count <= 1 {
		return 0
	}
	return int((id >> shardBits) % uint64(count))
}

// channelShard is the shard whose new session backfills channel p: its
// guild's shard, or shard 0 for DMs and channels whose guild is not known
// yet (shard 0 looks them up).
func (t *Transport) channelShard(p *channelPos) int {
	if !p.known {
		return 0
	}
	return shardOf(p.guild, t.cfg.ShardCount)
}
