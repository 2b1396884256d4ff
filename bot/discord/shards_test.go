package discord

import (
	"context"
	"slices"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/discord/discordtest"
)

// testIdentifyInterval spaces shard connections in tests.
const testIdentifyInterval = time.Millisecond

// waitShards waits until the fake has a live connection for each of want.
func waitShards(t *testing.T, f *discordtest.Server, want []int) {
	t.Helper()
	eventually(t, "live shards", func() bool { return slices.Equal(f.LiveShards(), want) })
}

// TestTwoShardsOneTransport: with two shards, one Transport runs two
// gateway sessions that identify as [0, 2] and [1, 2]; a message from a
// guild of each shard and a DM (shard 0) each reach the Inbound once, and
// a reply to each goes out once.
func TestTwoShardsOneTransport(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, func(c *Config) { c.ShardCount, c.IdentifyInterval = 2, testIdentifyInterval })
	waitShards(t, f, []int{0, 1})
	f.Snapshot(func(f *discordtest.Server) {
		var shards [][2]int
		for _, id := range f.Identifies {
			if id.Shard == nil {
				t.Fatalf("an IDENTIFY without a shard: %+v", id)
			}
			shards = append(shards, *id.Shard)
		}
		if !slices.Equal(shards, [][2]int{{0, 2}, {1, 2}}) {
			t.Errorf("identified shards %v, want [0 2] then [1 2]", shards)
		}
	})

	g0, g1 := discordtest.GuildOnShard(0, 2), discordtest.GuildOnShard(1, 2)
	if shardOf(g0, 2) != 0 || shardOf(g1, 2) != 1 {
		t.Fatalf("the fake's guilds %s, %s are not on shards 0, 1", g0, g1)
	}
	mention := func(m map[string]any) map[string]any {
		m["mentions"] = []any{user(fakeBotID, "hearth")}
		m["content"] = "<@" + fakeBotID + "> " + m["content"].(string)
		return m
	}
	f.Dispatch("MESSAGE_CREATE", mention(message("m1", "c0", g0, "42", "hello from shard 0")))
	f.Dispatch("MESSAGE_CREATE", mention(message("m2", "c1", g1, "43", "hello from shard 1")))
	f.Dispatch("MESSAGE_CREATE", message("m3", "dm1", "", "44", "hello in a DM"))
	for _, id := range []string{"m1", "m2", "m3"} {
		m := r.rec.waitMessage(t, id)
		if _, err := r.tr.Send(context.Background(), m.Chat(), bot.Outgoing{Text: "hi"}); err != nil {
			t.Fatal(err)
		}
	}
	count := map[string]int{}
	for _, m := range r.rec.messages() {
		count[m.MessageID]++
	}
	if len(count) != 3 || count["m1"] != 1 || count["m2"] != 1 || count["m3"] != 1 {
		t.Errorf("messages delivered %v, want m1, m2 and m3 once each", count)
	}
	for _, ch := range []string{"c0", "c1", "dm1"} {
		n := 0
		for _, m := range f.Messages() {
			if m.Target == ch {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d replies in %s, want 1", n, ch)
		}
	}
	// The shard 1 session reconnects on its own after a drop: a message
	// sent meanwhile is replayed on RESUME.
	f.DropShard(1)
	f.Dispatch("MESSAGE_CREATE", mention(message("m4", "c1", g1, "43", "are you there?")))
	r.rec.waitMessage(t, "m4")
	waitShards(t, f, []int{0, 1})
}

// TestAutoShardsAsksDiscord: ShardCount AutoShards takes GET /gateway/bot's
// recommended count.
func TestAutoShardsAsksDiscord(t *testing.T) {
	f := newFakeDiscord(t)
	f.Snapshot(func(f *discordtest.Server) { f.Shards = 3 })
	start(t, f, func(c *Config) { c.ShardCount, c.IdentifyInterval = AutoShards, testIdentifyInterval })
	waitShards(t, f, []int{0, 1, 2})
	f.Snapshot(func(f *discordtest.Server) {
		if len(f.Identifies) != 3 || *f.Identifies[2].Shard != [2]int{2, 3} {
			t.Errorf("identifies %+v, want three, the last [2 3]", f.Identifies)
		}
	})
}

// TestShardsStartInMaxConcurrencyGroups: with max_concurrency 2, shards 0
// and 1 identify at once and shard 2 an IdentifyInterval later (Discord
// API docs, "Sharding": one start per bucket per 5 seconds).
func TestShardsStartInMaxConcurrencyGroups(t *testing.T) {
	const interval = 300 * time.Millisecond
	f := newFakeDiscord(t)
	f.Snapshot(func(f *discordtest.Server) { f.MaxConcurrency = 2 })
	start(t, f, func(c *Config) { c.ShardCount, c.IdentifyInterval = 3, interval })
	waitShards(t, f, []int{0, 1, 2})
	f.Snapshot(func(f *discordtest.Server) {
		ids := f.Identifies
		if len(ids) != 3 {
			t.Fatalf("identifies %+v, want 3", ids)
		}
		if gap := ids[1].At.Sub(ids[0].At); gap >= interval {
			t.Errorf("shard 1 started %v after shard 0, want at once (another bucket)", gap)
		}
		if gap := ids[2].At.Sub(ids[1].At); gap < interval {
			t.Errorf("shard 2 started %v after shard 1, want at least %v (shard 0's bucket)", gap, interval)
		}
	})
}

func TestShardOf(t *testing.T) {
	for _, c := range []struct {
		guild       string
		count, want int
	}{
		{"", 4, 0},                    // a DM
		{"not-a-snowflake", 4, 0},     // a test id
		{"81384788765712384", 1, 0},   // one shard
		{"81384788765712384", 2, 0},   // 81384788765712384 >> 22 = 19403645698
		{"81384788765712384", 3, 1},   // 19403645698 % 3
		{"175928847299117063", 16, 4}, // 175928847299117063 >> 22 = 41944705796
	} {
		if got := shardOf(c.guild, c.count); got != c.want {
			t.Errorf("shardOf(%q, %d) = %d, want %d", c.guild, c.count, got, c.want)
		}
	}
}
