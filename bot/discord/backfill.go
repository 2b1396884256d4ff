package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"hearth/bot"
)

// Backfill limits. The gateway does not replay events to a new session, so
// what was sent while hearth was down is fetched over REST after READY.
const (
	// channelsCursor is the CursorStore key of the per-channel positions:
	// a JSON object {"<channel id>": "<newest stored message id>"}.
	channelsCursor = "discord.channels"

	// cursorChannels bounds the channels the cursor remembers: the most
	// recently active ones (largest newest message id, since snowflakes
	// grow with time) are kept. Chosen by us (backfill brief: "the 1,000
	// most recently active channels"); at about 40 bytes a channel the
	// cursor stays near 40 KB.
	cursorChannels = 1000

	// backfillPageSize is the most messages one history request returns
	// (Discord API docs, "Get Channel Messages": limit 1-100).
	backfillPageSize = 100

	// backfillPages bounds the history pages fetched per channel on one
	// connect, so one busy channel cannot starve the others: 10 pages are
	// 1,000 messages, more than any companion chat sees in an outage.
	// Chosen by us.
	backfillPages = 10

	// backfillTimeout bounds one whole backfill; live events wait in the
	// queue meanwhile (they are delivered after it, in order). Chosen by
	// us: a minute covers hundreds of channels at Discord's rate limits
	// without holding live chats back for long.
	backfillTimeout = time.Minute

	// codeUnknownChannel is Discord's JSON error code for a channel that
	// does not exist (any more) (Discord API docs, "JSON Error Codes":
	// 10003 Unknown Channel).
	codeUnknownChannel = 10003

	// cursorSaveTimeout bounds saving the cursor, which may happen after
	// Run's context ended (the final flush). Same value as bot/telegram's.
	cursorSaveTimeout = 5 * time.Second
)

// CursorStore keeps the backfill positions across restarts; the same
// interface as bot/telegram's. The store package implements it; tests use a
// map.
type CursorStore interface {
	Cursor(ctx context.Context, name string) (string, error)
	SetCursor(ctx context.Context, name, value string) error
}

// backfillEvent is queued when READY starts a new gateway session, so the
// backfill runs in gateway order: after the events of the old session and
// before those of the new one. It covers the channels of that session's
// shard, or every channel (everyShard) after events were dropped.
type backfillEvent struct{ shard int }

// channelPos is what the transport knows of one channel it delivered from.
type channelPos struct {
	last  string // newest message id stored through HandleMessage
	guild string // the channel's guild; "" for a DM
	known bool   // guild is known (from a live event or a lookup)
	held  bool   // a message here was refused: last must not move past it
}

// snowflakeLess orders Discord ids: snowflakes are decimal numbers without
// leading zeros, so a shorter id is smaller. Other strings (test ids) get a
// consistent order too.
func snowflakeLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// prevID is the snowflake just before id, a valid "after" position that
// includes id itself; false when id is not a positive decimal number.
func prevID(id string) (string, bool) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return "", false
	}
	return strconv.FormatUint(n-1, 10), true
}

// snowflakeCmp is snowflakeLess as a three-way comparison.
func snowflakeCmp(a, b string) int {
	switch {
	case a == b:
		return 0
	case snowflakeLess(a, b):
		return -1
	}
	return 1
}

// loadCursor reads the saved channel positions. A cursor that is not a
// JSON object of strings is logged and ignored (backfill starts afresh);
// a store that cannot be read is an error, so a healthy cursor is never
// overwritten with an empty one.
func (t *Transport) loadCursor(ctx context.Context) error {
	if t.cfg.Cursors == nil {
		return nil
	}
	raw, err := t.cfg.Cursors.Cursor(ctx, channelsCursor)
	if err != nil {
		return fmt.Errorf("read cursor %s: %w", channelsCursor, err)
	}
	var saved map[string]string
	if raw != "" {
		if err := json.Unmarshal([]byte(raw), &saved); err != nil {
			t.log.Error("discord: cursor is not a JSON object of ids; backfill starts afresh", "cursor", channelsCursor, "err", err)
			saved = nil
		}
	}
	if t.cfg.Stored != nil {
		stored, err := t.cfg.Stored(ctx)
		if err != nil {
			return fmt.Errorf("read stored positions: %w", err)
		}
		if saved == nil {
			saved = make(map[string]string, len(stored))
		}
		for ch, last := range stored {
			if cur, ok := saved[ch]; !ok || snowflakeLess(cur, last) {
				saved[ch] = last
				t.dirty = true
			}
		}
	}
	for ch, last := range saved {
		if ch != "" && last != "" {
			t.chans[ch] = &channelPos{last: last}
		}
	}
	t.trimChannels()
	return nil
}

// delivered records that message id of channel ch (in guild) was stored,
// or, with err set, refused. Only Run's goroutine calls it.
func (t *Transport) delivered(ch, guild, id string, err error) {
	if t.cfg.Cursors == nil {
		return
	}
	p := t.chans[ch]
	if p == nil {
		p = &channelPos{}
		if err != nil {
			// The channel's first message was refused: remember the
			// position just before it, so the next backfill retries it.
			prev, ok := prevID(id)
			if !ok {
				return
			}
			p.last, t.dirty = prev, true
		}
		t.chans[ch] = p
	}
	if guild != "" || !p.known {
		p.guild, p.known = guild, true
	}
	switch {
	case err != nil:
		p.held = true
	case !p.held && (p.last == "" || snowflakeLess(p.last, id)):
		p.last, t.dirty = id, true
	}
	t.trimChannels()
}

// trimChannels forgets the least recently active channels beyond
// cursorChannels.
func (t *Transport) trimChannels() {
	for len(t.chans) > cursorChannels {
		oldest := ""
		for ch, p := range t.chans {
			if oldest == "" || snowflakeLess(p.last, t.chans[oldest].last) {
				oldest = ch
			}
		}
		delete(t.chans, oldest)
		t.dirty = true
	}
}

// saveCursor persists the channel positions if they changed. It outlives
// ctx's cancellation (bounded by cursorSaveTimeout), so the final flush at
// shutdown still lands.
func (t *Transport) saveCursor(ctx context.Context) {
	if t.cfg.Cursors == nil || !t.dirty {
		return
	}
	out := make(map[string]string, len(t.chans))
	for ch, p := range t.chans {
		if p.last != "" {
			out[ch] = p.last
		}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		t.log.Error("discord: encode cursor", "err", err)
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cursorSaveTimeout)
	defer cancel()
	if err := t.cfg.Cursors.SetCursor(sctx, channelsCursor, string(raw)); err != nil {
		t.log.Error("discord: save cursor", "cursor", channelsCursor, "err", err)
		return
	}
	t.dirty = false
}

// backfill fetches, for every remembered channel of shard (or of every
// shard), the messages newer than its position and delivers them oldest
// first, as live MESSAGE_CREATEs would be. The Inbound deduplicates, so
// overlap with live events is harmless. Errors are logged; the whole pass
// is bounded by backfillTimeout. The most recently active channels go
// first.
func (t *Transport) backfill(ctx context.Context, in bot.Inbound, shard int) {
	if t.cfg.Cursors == nil || len(t.chans) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, backfillTimeout)
	defer cancel()
	chans := slices.SortedFunc(maps.Keys(t.chans), func(a, b string) int {
		return -snowflakeCmp(t.chans[a].last, t.chans[b].last)
	})
	if shard != everyShard {
		chans = slices.DeleteFunc(chans, func(ch string) bool { return t.channelShard(t.chans[ch]) != shard })
	}
	total := 0
	for i, ch := range chans {
		if ctx.Err() != nil {
			t.log.Warn("discord: backfill cut short", "channels_done", i, "channels", len(chans), "err", ctx.Err())
			break
		}
		n, err := t.backfillChannel(ctx, in, ch)
		total += n
		if err != nil {
			t.log.Warn("discord: backfill channel", "chat", ch, "err", err)
		}
	}
	t.saveCursor(ctx)
	t.log.Info("discord: backfill done", "shard", shard, "channels", len(chans), "delivered", total)
}

// backfillChannel delivers one channel's missed messages and reports how
// many it handed to the Inbound.
func (t *Transport) backfillChannel(ctx context.Context, in bot.Inbound, ch string) (int, error) {
	p := t.chans[ch]
	p.held = false // a refused message is retried from the unmoved position
	after := p.last
	total := 0
	for range backfillPages {
		page, err := t.s.ChannelMessages(ch, backfillPageSize, "", after, "", discordgo.WithContext(ctx))
		if err != nil {
			if isAPICode(err, codeUnknownChannel) {
				delete(t.chans, ch) // the channel is gone; stop asking
				t.dirty = true
			}
			return total, fmt.Errorf("fetch messages after %s: %w", after, err)
		}
		page = slices.DeleteFunc(page, func(m *discordgo.Message) bool { return m == nil || m.ID == "" })
		if len(page) == 0 {
			return total, nil
		}
		if !p.known {
			c, err := t.s.Channel(ch, discordgo.WithContext(ctx))
			if err != nil {
				// Guessing would turn a guild channel into a DM, where
				// every message is addressed; better to wait for the
				// next connect.
				return total, fmt.Errorf("look up channel: %w", err)
			}
			p.guild, p.known = c.GuildID, true
		}
		slices.SortFunc(page, func(a, b *discordgo.Message) int { return snowflakeCmp(a.ID, b.ID) })
		for _, m := range page {
			m.ChannelID = ch
			if m.GuildID == "" {
				m.GuildID = p.guild // history messages carry no guild_id
			}
			if t.deliverMessage(ctx, in, m) {
				total++
			}
		}
		after = page[len(page)-1].ID
		if len(page) < backfillPageSize {
			return total, nil
		}
	}
	return total, fmt.Errorf("stopped after %d full pages; any further messages wait for the next new session", backfillPages)
}

// isAPICode reports whether err is a REST answer carrying Discord's JSON
// error code. A bare HTTP status is not enough: a misrouted proxy answering
// 404 must not make the transport forget every channel.
func isAPICode(err error, code int) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Message != nil && re.Message.Code == code
}
