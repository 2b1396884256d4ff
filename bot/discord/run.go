package discord

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"hearth/bot"
)

// Gateway close codes that retrying cannot fix (Discord API docs, "Gateway
// Close Event Codes").
const (
	closeAuthenticationFailed = 4004
	closeInvalidShard         = 4010
	closeShardingRequired     = 4011
	closeInvalidAPIVersion    = 4012
	closeInvalidIntents       = 4013
	closeDisallowedIntents    = 4014
)

// Run connects to the gateway, registers the slash commands, and delivers
// events to in until ctx ends; then it closes the gateway and returns nil.
// It reconnects (resuming the session) when the connection drops. After
// each READY (a new session, which replays nothing) it backfills the
// channels in Config.Cursors before the new session's events; see backfill.
// It returns an error when the cursor cannot be read, the first connection
// fails, or Discord closes the gateway with a code that retrying cannot
// fix, such as 4014 when the Message Content intent is not enabled.
func (t *Transport) Run(ctx context.Context, in bot.Inbound) error {
	if err := t.loadCursor(ctx); err != nil {
		return fmt.Errorf("discord: %w", err)
	}
	defer t.saveCursor(ctx) // after shutdown: nothing is delivered any more
	defer t.shutdown()
	if err := t.openShards(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("discord: connect: %w", err)
	}
	t.registerCommands(ctx)

	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.wake:
			t.drain(ctx, in)
		case <-t.disc:
			for _, sh := range t.shards {
				if ctx.Err() != nil {
					return nil
				}
				if !sh.down.CompareAndSwap(true, false) {
					continue
				}
				if code := sh.conns.closeCode(); fatalCode(code) {
					return fmt.Errorf("discord: gateway: %w", t.onShard(sh, explain(&websocket.CloseError{Code: code})))
				}
				if err := t.reconnect(ctx, sh); err != nil {
					return fmt.Errorf("discord: reconnect: %w", t.onShard(sh, err))
				}
			}
		}
	}
}

// onShard names the shard in err when there are several.
func (t *Transport) onShard(sh *shard, err error) error {
	if len(t.shards) > 1 {
		return fmt.Errorf("shard %d of %d: %w", sh.id, len(t.shards), err)
	}
	return err
}

// shutdown closes every shard's gateway and every socket and idle
// connection, so no discordgo goroutine outlives Run. The shards close at
// once: discordgo waits a second after its close frame for each.
func (t *Transport) shutdown() {
	var wg sync.WaitGroup
	for _, sh := range t.shards {
		wg.Go(func() {
			if err := sh.s.Close(); err != nil {
				t.log.Warn("discord: close gateway", "shard", sh.id, "err", err)
			}
			sh.conns.abort()
		})
	}
	wg.Wait()
	t.http.CloseIdleConnections()
	t.log.Info("discord: disconnected")
}

// open makes one connection attempt, bounded by OpenTimeout and ctx.
// discordgo's Open has no deadline of its own, so it runs in a goroutine
// and, on timeout, its socket is closed underneath it; open always waits
// for that goroutine before returning. The one step that cannot be cut
// short is Open's REST lookup of the gateway URL, bounded by restTimeout,
// so in the worst case open returns that long after ctx ends.
func (t *Transport) open(ctx context.Context, sh *shard) error {
	done := make(chan error, 1)
	go func() { done <- sh.s.Open() }()
	timer := time.NewTimer(t.cfg.OpenTimeout)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		err = abortOpen(sh, done, fmt.Errorf("no READY within %v", t.cfg.OpenTimeout))
	case <-ctx.Done():
		err = abortOpen(sh, done, ctx.Err())
	}
	if err != nil && !errors.Is(err, discordgo.ErrWSAlreadyOpen) {
		return t.rebased(explain(err))
	}
	return err
}

// rebased makes err name the address hearth really used: discordgo's
// errors quote https://discord.com/ even when DISCORD_API_BASE sent the
// request elsewhere.
func (t *Transport) rebased(err error) error {
	if t.cfg.APIBase == "" {
		return err
	}
	return rebasedError{err: err, base: strings.TrimSuffix(t.cfg.APIBase, "/") + "/"}
}

// rebasedError is err with https://discord.com/ replaced by base.
type rebasedError struct {
	err  error
	base string
}

func (e rebasedError) Error() string {
	return strings.ReplaceAll(e.err.Error(), "https://"+discordHost+"/", e.base)
}

func (e rebasedError) Unwrap() error { return e.err }

// abortOpen makes a hung Open return by closing its socket, and waits for it.
func abortOpen(sh *shard, done <-chan error, why error) error {
	sh.conns.abort()
	if err := <-done; err == nil {
		// Open won the race; close what it opened, the caller gave up.
		_ = sh.s.Close()
	}
	return fmt.Errorf("open gateway: %w", why)
}

// reconnect retries opening shard sh with doubling waits until it
// succeeds, ctx ends (nil), or Discord refuses for good (the error).
func (t *Transport) reconnect(ctx context.Context, sh *shard) error {
	wait := reconnectMin
	timer := time.NewTimer(reconnectMin)
	timer.Stop() // armed with Reset before each wait
	defer timer.Stop()
	for attempt := 1; ; attempt++ {
		err := t.open(ctx, sh)
		switch {
		case errors.Is(err, discordgo.ErrWSAlreadyOpen):
			t.setFailing(sh, false)
			return nil // a stale signal (our own close); the gateway is up
		case err == nil:
			t.setFailing(sh, false)
			t.log.Info("discord: gateway reconnected", "shard", sh.id, "attempts", attempt)
			return nil
		}
		if ctx.Err() != nil {
			return nil
		}
		if fatal(err) {
			return err
		}
		t.log.Warn("discord: gateway reconnect", "shard", sh.id, "attempt", attempt, "err", err, "retry_in", wait)
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		}
		wait = min(wait*2, reconnectMax)
	}
}

// fatal reports whether err is a gateway close that retrying cannot fix.
func fatal(err error) bool {
	var ce *websocket.CloseError
	return errors.As(err, &ce) && fatalCode(ce.Code)
}

// fatalCode reports whether a gateway close code forbids reconnecting.
func fatalCode(code int) bool {
	switch code {
	case closeAuthenticationFailed, closeInvalidShard, closeShardingRequired,
		closeInvalidAPIVersion, closeInvalidIntents, closeDisallowedIntents:
		return true
	}
	return false
}

// explain adds what the operator must do to the close codes that need it.
func explain(err error) error {
	var ce *websocket.CloseError
	if !errors.As(err, &ce) {
		return err
	}
	switch ce.Code {
	case closeDisallowedIntents:
		return fmt.Errorf("gateway refused the Message Content intent (close 4014): enable it in the Discord developer portal under Bot → Privileged Gateway Intents → Message Content Intent: %w", err)
	case closeAuthenticationFailed:
		return fmt.Errorf("gateway rejected the bot token (close 4004): check DISCORD_BOT_TOKEN: %w", err)
	case closeShardingRequired:
		return fmt.Errorf("gateway requires sharding (close 4011): run one session per shard: %w", err)
	}
	return err
}

// registerCommands bulk-overwrites the global slash commands. A failure is
// logged, not fatal: messages still work without slash commands.
func (t *Transport) registerCommands(ctx context.Context) {
	if t.cfg.Commands == nil {
		return
	}
	_, app := t.ids()
	if app == "" {
		t.log.Warn("discord: no application id in READY; slash commands not registered")
		return
	}
	cmds := make([]*discordgo.ApplicationCommand, 0, len(t.cfg.Commands))
	for _, c := range t.cfg.Commands {
		ac := &discordgo.ApplicationCommand{Name: c.Name, Description: c.Description}
		if c.Option != "" {
			ac.Options = []*discordgo.ApplicationCommandOption{{
				Type:        discordgo.ApplicationCommandOptionString,
				Name:        c.Option,
				Description: c.Option,
			}}
		}
		cmds = append(cmds, ac)
	}
	if _, err := t.s.ApplicationCommandBulkOverwrite(app, "", cmds, discordgo.WithContext(ctx)); err != nil {
		t.log.Error("discord: register slash commands", "err", err)
		return
	}
	t.log.Info("discord: slash commands registered", "count", len(cmds))
}

// drain delivers every queued event, in gateway order.
func (t *Transport) drain(ctx context.Context, in bot.Inbound) {
	for ctx.Err() == nil {
		t.mu.Lock()
		if len(t.queue) == 0 {
			t.queue = nil // let a burst's backing array go
			t.mu.Unlock()
			t.saveCursor(ctx) // one write per burst, not per message
			return
		}
		e := t.queue[0]
		t.queue[0] = nil
		t.queue = t.queue[1:]
		t.mu.Unlock()
		t.deliver(ctx, in, e)
	}
}

// deliver converts one gateway event and hands it to the Inbound. Errors
// stop here, so they are logged here.
func (t *Transport) deliver(ctx context.Context, in bot.Inbound, e any) {
	self, _ := t.ids()
	now := t.now()
	switch e := e.(type) {
	case *discordgo.MessageCreate:
		t.deliverMessage(ctx, in, e.Message)
	case backfillEvent:
		t.backfill(ctx, in, e.shard)
	case *discordgo.MessageReactionAdd:
		if e.Member != nil && e.Member.User != nil && e.Member.User.Bot {
			return // another bot's reaction is no feedback
		}
		r, ok := reactionFromEvent(e.MessageReaction, self, now)
		if !ok {
			return
		}
		if err := in.HandleReaction(ctx, r); err != nil {
			t.log.Error("discord: handle reaction", "chat", r.ChatID, "message", r.MessageID, "err", err)
		}
	case *discordgo.InteractionCreate:
		t.deliverInteraction(ctx, in, e.Interaction, now)
	}
}

// deliverMessage converts one message, live or backfilled, hands it to the
// Inbound and records a stored one in the channel's position. It reports
// whether the Inbound accepted the message.
func (t *Transport) deliverMessage(ctx context.Context, in bot.Inbound, msg *discordgo.Message) bool {
	self, _ := t.ids()
	m, ok := messageFromEvent(msg, self, t.now())
	if !ok {
		return false
	}
	err := in.HandleMessage(ctx, m)
	if err != nil {
		t.log.Error("discord: handle message", "chat", m.ChatID, "message", m.MessageID, "err", err)
	}
	t.delivered(msg.ChannelID, msg.GuildID, msg.ID, err)
	return err == nil
}

// deliverInteraction acknowledges a command or button click within
// Discord's 3-second window (a deferred response), remembers it so the
// reply can answer it, and delivers it as a command message.
func (t *Transport) deliverInteraction(ctx context.Context, in bot.Inbound, ix *discordgo.Interaction, now time.Time) {
	m, ok := messageFromInteraction(ix, now)
	if !ok {
		return
	}
	ephemeral := m.ChatKind == bot.ChatGroup
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if ephemeral {
		resp.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	if err := t.s.InteractionRespond(ix, resp, discordgo.WithContext(ctx)); err != nil {
		// Without an acknowledgement the token cannot be used; the reply
		// will go to the channel instead.
		t.log.Warn("discord: acknowledge interaction", "chat", m.ChatID, "err", redact(err))
	} else {
		t.mu.Lock()
		t.pending[m.ChatID] = pendingInteraction{ix: ix, ephemeral: ephemeral, at: now}
		t.mu.Unlock()
	}
	if err := in.HandleMessage(ctx, m); err != nil {
		t.log.Error("discord: handle command", "chat", m.ChatID, "message", m.MessageID, "err", err)
	}
}
