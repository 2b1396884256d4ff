package main

import (
	"path/filepath"
	"slices"
	"testing"

	"hearth/bot/discord/discordtest"
)

// discordMention is a MESSAGE_CREATE in a guild channel that @mentions the
// bot, so it is addressed to hearth.
func discordMention(id, channel, guild, author, content string) map[string]any {
	m := discordDM(id, channel, author, "<@"+discordtest.BotID+"> "+content)
	m["guild_id"] = guild
	m["mentions"] = []any{discordUser(discordtest.BotID, "hearth")}
	return m
}

// TestDiscordShardsInOneProcess: DISCORD_SHARDS=auto takes Discord's
// recommended count (two here) and the one daemon runs a gateway session
// per shard, identified as [0, 2] and [1, 2], writing to one file. A
// mention in a guild of each shard and a DM (shard 0) are each answered
// once (DESIGN §11).
func TestDiscordShardsInOneProcess(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	dc := discordtest.NewServer(t, e2eDiscordToken)
	dc.Snapshot(func(f *discordtest.Server) { f.Shards, f.MaxConcurrency = 2, 2 }) // both may start at once
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, append(discordEnv(dc), "DISCORD_SHARDS=auto"))
	waitFor(t, "both shards", func() bool { return slices.Equal(dc.LiveShards(), []int{0, 1}) })
	waitDiscordReady(t, dc)

	g0, g1 := discordtest.GuildOnShard(0, 2), discordtest.GuildOnShard(1, 2)
	dc.Dispatch("MESSAGE_CREATE", discordMention("2001", "c0", g0, "41", "hello from the first guild"))
	dc.Dispatch("MESSAGE_CREATE", discordMention("2002", "c1", g1, "42", "hello from the second guild"))
	dc.Dispatch("MESSAGE_CREATE", discordDM("2003", "dm1", "43", "hello in a DM"))
	for _, ch := range []string{"c0", "c1", "dm1"} {
		waitFor(t, "the reply in "+ch, func() bool { return len(channelMsgs(dc, ch)) > 0 })
	}
	d.term(t)
	for _, ch := range []string{"c0", "c1", "dm1"} {
		got := channelMsgs(dc, ch)
		if len(got) != 1 {
			t.Errorf("%d replies in %s, want 1", len(got), ch)
			continue
		}
		checkReply(t, got[0].Content)
	}
	for _, user := range []string{"discord:41", "discord:42", "discord:43"} {
		if n := stateMessages(t, db, user); n != 1 {
			t.Errorf("%s: state messages %d, want 1", user, n)
		}
	}
	dc.Snapshot(func(f *discordtest.Server) {
		var shards [][2]int
		for _, id := range f.Identifies {
			if id.Shard != nil {
				shards = append(shards, *id.Shard)
			}
		}
		slices.SortFunc(shards, func(a, b [2]int) int { return a[0] - b[0] })
		if len(f.Identifies) != 2 || !slices.Equal(shards, [][2]int{{0, 2}, {1, 2}}) {
			t.Errorf("identified shards %v of %d identifies, want [0 2] and [1 2]", shards, len(f.Identifies))
		}
	})
}
