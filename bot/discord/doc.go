// Package discord is hearth's Discord transport: it connects one gateway
// session (or one shard, DESIGN §11) with github.com/bwmarrin/discordgo,
// turns gateway events into bot.Message and bot.Reaction values, and sends
// the bot's replies through Discord's REST API. It is the only package that
// imports discordgo.
//
// The bot asks for the Guilds, GuildMessages, DirectMessages,
// GuildMessageReactions, DirectMessageReactions and MessageContent intents.
// MessageContent is privileged: it must be switched on for the application
// in the Discord developer portal (Bot → Privileged Gateway Intents →
// Message Content Intent). Without it Discord closes the gateway with code
// 4014 and Run returns an error that says so.
//
// Addressing follows DESIGN §3: a direct message is always addressed; in a
// guild channel a message is addressed when it mentions the bot or replies
// to one of the bot's messages, and the mention is removed from the text.
//
// Slash commands (DESIGN §8) are registered as global application commands
// when Run starts. An invocation is acknowledged at once with a deferred
// response (ephemeral in guild channels, because commands such as /me and
// /export are personal) and delivered as a message "/name arg"; the next
// Send to that channel answers the interaction through its followup webhook,
// later sends are ordinary channel messages. Button clicks arrive the same
// way, with the button's data as the text.
//
// REST requests honour HTTP(S)_PROXY; the gateway websocket connects
// directly to the URL that GET /api/v9/gateway names (behind
// DISCORD_API_BASE, the proxy's answer).
//
// Discord does not replay events to a new gateway session. With
// Config.Cursors set, the transport remembers per channel the newest
// message the Inbound stored (cursor "discord.channels", a JSON object of
// channel id → message id, the 1,000 most recently active channels) and,
// after every READY, fetches each channel's newer messages over REST and
// delivers them oldest first, through the same conversion as live events,
// before the new session's own events. History messages carry no guild id,
// so a channel first seen in the cursor is looked up once (GET
// /channels/{id}) to tell a DM from a guild channel. The cursor is saved
// when the event queue empties and when Run ends; it only ever lags what
// was stored, so a crash causes refetching, which the Inbound's dedupe
// absorbs, never a loss.
//
// discordgo's own reconnect loop is switched off: Run owns reconnection, so
// every connection attempt is bounded, stops with its context, and fatal
// close codes end Run instead of retrying forever.
package discord
