package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"hearth/bot"
	"hearth/bot/discord/discordtest"
)

// memCursors is an in-memory CursorStore.
type memCursors struct {
	mu   sync.Mutex
	m    map[string]string
	sets int
	fail error // returned by Cursor, as a broken disk would
}

func (c *memCursors) Cursor(_ context.Context, name string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail != nil {
		return "", c.fail
	}
	return c.m[name], nil
}

func (c *memCursors) SetCursor(_ context.Context, name, value string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]string{}
	}
	c.m[name] = value
	c.sets++
	return nil
}

// channels decodes the discord.channels cursor; nil when unset.
func (c *memCursors) channels(t testing.TB) map[string]string {
	t.Helper()
	c.mu.Lock()
	raw := c.m[channelsCursor]
	c.mu.Unlock()
	if raw == "" {
		return nil
	}
	var out map[string]string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("cursor %q is not a JSON object of strings: %v", raw, err)
	}
	return out
}

// waitCursor waits until the cursor holds want for channel ch.
func (c *memCursors) waitCursor(t testing.TB, ch, want string) {
	t.Helper()
	eventually(t, "cursor "+ch+"="+want, func() bool { return c.channels(t)[ch] == want })
}

// withCursors makes start's Transport keep its backfill positions in c.
func withCursors(c *memCursors) func(*Config) {
	return func(cfg *Config) { cfg.Cursors = c }
}

// ids lists the message ids r was given, in delivery order.
func (r *recorder) ids() []string {
	var out []string
	for _, m := range r.messages() {
		out = append(out, m.MessageID)
	}
	return out
}

// fetches returns the history requests the fake served for channel ch.
func fetches(f *discordtest.Server, ch string) []discordtest.Fetch {
	var out []discordtest.Fetch
	f.Snapshot(func(f *discordtest.Server) {
		for _, fe := range f.Fetches {
			if fe.Channel == ch {
				out = append(out, fe)
			}
		}
	})
	return out
}

// waitStopped waits until the fake has no gateway connection.
func waitStopped(t *testing.T, f *discordtest.Server) {
	t.Helper()
	eventually(t, "the gateway connection to end", func() bool { return !f.Live() })
}

func TestBackfillAfterRestart(t *testing.T) {
	f := newFakeDiscord(t)
	cur := &memCursors{}

	first := start(t, f, withCursors(cur))
	f.Dispatch("MESSAGE_CREATE", message("1001", "500", "", "42", "hello"))
	first.rec.waitMessage(t, "1001")
	cur.waitCursor(t, "500", "1001")
	first.stop(t)
	waitStopped(t, f)

	// While hearth is down Discord receives these; no session hears them.
	otherBot := message("1005", "500", "", "77", "beep")
	otherBot["author"] = map[string]any{"id": "77", "username": "robot", "bot": true}
	for _, m := range []map[string]any{
		message("1003", "500", "", "42", "are you there?"), // added out of order
		message("1002", "500", "", "42", "I had a long day"),
		message("1004", "500", "", fakeBotID, "the bot's own words"),
		otherBot,
	} {
		f.AddHistory(m)
	}

	second := start(t, f, withCursors(cur))
	second.rec.waitMessage(t, "1003")
	f.Dispatch("MESSAGE_CREATE", message("1006", "500", "", "42", "live again"))
	second.rec.waitMessage(t, "1006")
	if got, want := second.rec.ids(), []string{"1002", "1003", "1006"}; !slices.Equal(got, want) {
		t.Errorf("delivered %v, want %v (backfill in order, bots ignored, then live)", got, want)
	}
	m := second.rec.messages()[0]
	if m.ChatKind != bot.ChatPrivate || !m.Addressed || m.Text != "I had a long day" || m.UserID != "42" || m.ChatID != "500" {
		t.Errorf("backfilled DM = %+v, want a private, addressed message as live", m)
	}
	cur.waitCursor(t, "500", "1006")
	fe := fetches(f, "500")
	if len(fe) != 1 || fe[0].After != "1001" || fe[0].Limit != backfillPageSize {
		t.Errorf("history requests = %+v, want one after=1001 limit=%d", fe, backfillPageSize)
	}
}

// TestMissedWithoutSessionIsBackfilledNotReplayed is the chaos test's
// Discord path in one package: the fake, like Discord, hands a new session
// nothing that was dispatched while no session was up. So a DM in a channel
// hearth never stored anything from, sent before its first session, is lost
// (README, "Delivery guarantees": backfill reaches only the channels in the
// cursor), while one sent during a later outage is fetched from history.
// The chaos test must therefore not write before hearth's first session.
func TestMissedWithoutSessionIsBackfilledNotReplayed(t *testing.T) {
	f := newFakeDiscord(t)
	cur := &memCursors{}
	f.Dispatch("MESSAGE_CREATE", message("2001", "610", "", "42", "anyone home?")) // no session yet

	first := start(t, f, withCursors(cur))
	f.Dispatch("MESSAGE_CREATE", message("2002", "610", "", "42", "hello"))
	first.rec.waitMessage(t, "2002")
	// A replay or a backfill would have come ahead of the live event.
	if got, want := first.rec.ids(), []string{"2002"}; !slices.Equal(got, want) {
		t.Errorf("first session delivered %v, want %v: the fake replayed an event no session saw", got, want)
	}
	cur.waitCursor(t, "610", "2002")
	first.stop(t)
	waitStopped(t, f)

	f.Dispatch("MESSAGE_CREATE", message("2003", "610", "", "42", "still there?")) // hearth is down
	second := start(t, f, withCursors(cur))
	second.rec.waitMessage(t, "2003")
	if fe := fetches(f, "610"); len(fe) != 1 || fe[0].After != "2002" {
		t.Errorf("history requests = %+v, want one after=2002", fe)
	}
	f.Dispatch("MESSAGE_CREATE", message("2004", "610", "", "42", "good"))
	second.rec.waitMessage(t, "2004")
	if got, want := second.rec.ids(), []string{"2003", "2004"}; !slices.Equal(got, want) {
		t.Errorf("second session delivered %v, want %v (the outage's message once, from history)", got, want)
	}
}

func TestBackfillGuildChannel(t *testing.T) {
	f := newFakeDiscord(t)
	cur := &memCursors{}
	mention := func(id, text string) map[string]any {
		m := message(id, "600", "G", "42", "<@"+fakeBotID+"> "+text)
		m["mentions"] = []any{user(fakeBotID, "hearth")}
		return m
	}

	first := start(t, f, withCursors(cur))
	f.Dispatch("MESSAGE_CREATE", mention("2001", "hi"))
	first.rec.waitMessage(t, "2001")
	cur.waitCursor(t, "600", "2001")
	first.stop(t)
	waitStopped(t, f)

	reply := message("2004", "600", "G", "43", "yes!")
	reply["type"] = 19
	reply["message_reference"] = map[string]any{"message_id": "b1", "channel_id": "600"}
	reply["referenced_message"] = map[string]any{"id": "b1", "channel_id": "600", "content": "tea?", "author": map[string]any{"id": fakeBotID, "username": "hearth", "bot": true}}
	f.AddHistory(message("2002", "600", "G", "43", "just chatting"))
	f.AddHistory(mention("2003", "how are you?"))
	f.AddHistory(reply)

	// A new Transport knows nothing of the channel: the history carries
	// no guild_id, so it must ask Discord what kind of channel it is.
	second := start(t, f, withCursors(cur))
	second.rec.waitMessage(t, "2004")
	want := map[string]struct {
		addressed bool
		text      string
	}{"2002": {false, "just chatting"}, "2003": {true, "how are you?"}, "2004": {true, "yes!"}}
	got := second.rec.messages()
	if len(got) != len(want) {
		t.Fatalf("delivered %v, want 2002-2004", second.rec.ids())
	}
	for _, m := range got {
		w := want[m.MessageID]
		if m.ChatKind != bot.ChatGroup || m.Addressed != w.addressed || m.Text != w.text {
			t.Errorf("%s: kind %s addressed %v text %q, want group %v %q", m.MessageID, m.ChatKind, m.Addressed, m.Text, w.addressed, w.text)
		}
	}
	cur.waitCursor(t, "600", "2004")
}

func TestBackfillPagesAndBrokenChannels(t *testing.T) {
	f := newFakeDiscord(t)
	const n = 2*backfillPageSize + 50
	for i := 1; i <= n; i++ {
		f.AddHistory(message(strconv.Itoa(1000+i), "700", "", "42", "msg "+strconv.Itoa(i)))
	}
	f.AddHistory(message("5001", "701", "", "43", "you can't read me"))
	f.Snapshot(func(f *discordtest.Server) {
		f.Forbid["701"] = true
		f.Limit429["/api/v9/channels/700/messages"] = 1 // retried after RetryAfter
		f.RetryAfter = 0.05
	})
	cur := &memCursors{m: map[string]string{channelsCursor: `{"700":"1000","701":"5000","702":"6000"}`}}

	r := start(t, f, withCursors(cur))
	last := strconv.Itoa(1000 + n)
	r.rec.waitMessage(t, last)
	got := r.rec.ids()
	if len(got) != n {
		t.Fatalf("delivered %d messages, want %d", len(got), n)
	}
	for i, id := range got {
		if id != strconv.Itoa(1001+i) {
			t.Fatalf("delivery %d is %s, want %d: backfill must deliver oldest first", i, id, 1001+i)
		}
	}
	var afters []string
	for _, fe := range fetches(f, "700") {
		afters = append(afters, fe.After)
	}
	// The first request was answered 429 and retried.
	if want := []string{"1000", "1000", "1100", "1200"}; !slices.Equal(afters, want) {
		t.Errorf("page requests after %v, want %v", afters, want)
	}
	// 702 is unknown to Discord (404): forgotten. 701 is forbidden (403):
	// kept for the next connect, and it did not stop 700.
	eventually(t, "the cursor after backfill", func() bool {
		c := cur.channels(t)
		return maps.Equal(c, map[string]string{"700": last, "701": "5000"})
	})
}

func TestBackfillPageLimit(t *testing.T) {
	f := newFakeDiscord(t)
	n := backfillPages*backfillPageSize + 10
	for i := 1; i <= n; i++ {
		f.AddHistory(message(strconv.Itoa(10000+i), "710", "", "42", "x"))
	}
	cur := &memCursors{m: map[string]string{channelsCursor: `{"710":"10000"}`}}
	r := start(t, f, withCursors(cur))
	bound := strconv.Itoa(10000 + backfillPages*backfillPageSize)
	cur.waitCursor(t, "710", bound)
	if got := len(fetches(f, "710")); got != backfillPages {
		t.Errorf("%d page requests, want the bound %d", got, backfillPages)
	}
	if got := len(r.rec.messages()); got != backfillPages*backfillPageSize {
		t.Errorf("delivered %d, want %d", got, backfillPages*backfillPageSize)
	}
}

func TestBackfillRefusedMessageIsRetried(t *testing.T) {
	f := newFakeDiscord(t)
	cur := &memCursors{m: map[string]string{channelsCursor: `{"800":"3000"}`}}
	for _, id := range []string{"3001", "3002", "3003"} {
		f.AddHistory(message(id, "800", "", "42", "m"+id))
	}

	// The store refuses 3002: the cursor must stay before it, though 3003
	// and a live 3004 are stored.
	// In channel 801 hearth never stored anything: its very first message
	// is refused, so the cursor remembers the position just before it.
	rec := &recorder{fail: map[string]bool{"3002": true, "3101": true}}
	r := startWith(t, f, rec, withCursors(cur))
	r.rec.waitMessage(t, "3003")
	f.Dispatch("MESSAGE_CREATE", message("3004", "800", "", "42", "live"))
	f.Dispatch("MESSAGE_CREATE", message("3101", "801", "", "43", "first words"))
	f.Dispatch("MESSAGE_CREATE", message("3005", "800", "", "42", "sentinel"))
	r.rec.waitMessage(t, "3005")
	cur.waitCursor(t, "801", "3100")
	r.stop(t)
	waitStopped(t, f)
	if c := cur.channels(t); !maps.Equal(c, map[string]string{"800": "3001", "801": "3100"}) {
		t.Fatalf("cursor after refused messages = %v, want 800 held at 3001, 801 at 3100", c)
	}

	// Next start: the refused messages are fetched again and now stored.
	again := start(t, f, withCursors(cur))
	again.rec.waitMessage(t, "3002")
	again.rec.waitMessage(t, "3101")
	cur.waitCursor(t, "800", "3005")
	cur.waitCursor(t, "801", "3101")
	if got := again.rec.ids(); !slices.Contains(got, "3101") || slices.Index(got, "3002") > slices.Index(got, "3003") {
		t.Errorf("second start delivered %v, want 3002 before 3003 and 3101", got)
	}
}

func TestNoCursorsNoBackfill(t *testing.T) {
	f := newFakeDiscord(t)
	first := start(t, f, nil)
	f.Dispatch("MESSAGE_CREATE", message("4001", "900", "", "42", "hi"))
	first.rec.waitMessage(t, "4001")
	first.stop(t)
	waitStopped(t, f)
	f.AddHistory(message("4002", "900", "", "42", "lost without a cursor"))
	second := start(t, f, nil)
	f.Dispatch("MESSAGE_CREATE", message("4003", "900", "", "42", "live"))
	second.rec.waitMessage(t, "4003")
	if got := second.rec.ids(); !slices.Equal(got, []string{"4003"}) {
		t.Errorf("delivered %v without Cursors, want only the live 4003", got)
	}
	if fe := fetches(f, "900"); len(fe) != 0 {
		t.Errorf("history requests %+v with Cursors nil, want none", fe)
	}
}

func TestBackfillAfterNewSession(t *testing.T) {
	f := newFakeDiscord(t)
	cur := &memCursors{}
	r := start(t, f, withCursors(cur))
	f.Dispatch("MESSAGE_CREATE", message("7001", "950", "", "42", "before"))
	r.rec.waitMessage(t, "7001")
	cur.waitCursor(t, "950", "7001")

	// The connection drops and the session cannot be resumed: the new
	// session replays nothing, so what Discord got in between is fetched.
	f.Snapshot(func(f *discordtest.Server) { f.InvalidateOnResume = true })
	f.Drop()
	f.AddHistory(message("7002", "950", "", "42", "in the gap"))
	r.rec.waitMessage(t, "7002")
	f.Snapshot(func(f *discordtest.Server) {
		if len(f.Identifies) != 2 {
			t.Errorf("identifies = %d, want 2 (a new session)", len(f.Identifies))
		}
	})
	cur.waitCursor(t, "950", "7002")
}

func TestCursorLoadErrors(t *testing.T) {
	f := newFakeDiscord(t)

	// A cursor that is not JSON is ignored: Run works, positions restart.
	cur := &memCursors{m: map[string]string{channelsCursor: "not json"}}
	r := start(t, f, withCursors(cur))
	f.Dispatch("MESSAGE_CREATE", message("8001", "960", "", "42", "hi"))
	r.rec.waitMessage(t, "8001")
	cur.waitCursor(t, "960", "8001")
	r.stop(t)
	waitStopped(t, f)

	// A store that cannot be read stops Run before it connects, so a
	// healthy cursor is never overwritten.
	broken := &memCursors{fail: errors.New("disk I/O error")}
	tr, err := New(Config{Token: fakeToken, APIBase: f.Base(), Cursors: broken})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), &recorder{}); err == nil {
		t.Fatal("Run with an unreadable cursor store returned nil")
	}
	tr.http.CloseIdleConnections()
}

func TestCursorKeepsMostRecentChannels(t *testing.T) {
	cur := &memCursors{}
	tr, err := New(Config{Token: fakeToken, Cursors: cur})
	if err != nil {
		t.Fatal(err)
	}
	const extra = 5
	for i := range cursorChannels + extra {
		// Channel c<i> last spoke at message 100000+i: c0..c4 are oldest.
		tr.delivered(fmt.Sprintf("c%d", i), "", strconv.Itoa(100000+i), nil)
	}
	tr.delivered("c7", "", "99", nil) // older than what c7 has: ignored
	tr.saveCursor(context.Background())
	c := cur.channels(t)
	if len(c) != cursorChannels {
		t.Fatalf("cursor holds %d channels, want %d", len(c), cursorChannels)
	}
	for i := range extra {
		if _, ok := c[fmt.Sprintf("c%d", i)]; ok {
			t.Errorf("c%d (least recently active) kept", i)
		}
	}
	if c["c7"] != "100007" || c[fmt.Sprintf("c%d", cursorChannels+extra-1)] == "" {
		t.Errorf("cursor lost recent channels or went backwards: c7=%q", c["c7"])
	}
	sets := cur.sets
	tr.saveCursor(context.Background())
	if cur.sets != sets {
		t.Error("saveCursor wrote an unchanged cursor")
	}
}

func TestSnowflakeLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"9", "10", true},
		{"175928847299117063", "175928847299117064", true},
		{"1175928847299117063", "975928847299117064", false},
		{"5", "5", false},
		{"m9", "m10", true},
	} {
		if got := snowflakeLess(c.a, c.b); got != c.want {
			t.Errorf("snowflakeLess(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// FuzzCursor feeds loadCursor whatever the store might hold: it never
// panics, keeps at most cursorChannels channels, and what it keeps
// survives a save and a reload unchanged.
func FuzzCursor(f *testing.F) {
	f.Add(`{"500":"1001","600":"2004"}`)
	f.Add(`{"a":""}`)
	f.Add(`[]`)
	f.Add(`{"1":1}`)
	f.Add(``)
	f.Fuzz(func(t *testing.T, raw string) {
		cur := &memCursors{m: map[string]string{channelsCursor: raw}}
		tr, err := New(Config{Token: fakeToken, Cursors: cur})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.loadCursor(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(tr.chans) > cursorChannels {
			t.Fatalf("%d channels loaded, want at most %d", len(tr.chans), cursorChannels)
		}
		for ch, p := range tr.chans {
			if ch == "" || p.last == "" {
				t.Fatalf("loaded an empty channel or position: %q=%q", ch, p.last)
			}
		}
		tr.dirty = true
		tr.saveCursor(context.Background())
		again, err := New(Config{Token: fakeToken, Cursors: cur})
		if err != nil {
			t.Fatal(err)
		}
		if err := again.loadCursor(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(again.chans) != len(tr.chans) {
			t.Fatalf("reload has %d channels, want %d", len(again.chans), len(tr.chans))
		}
		for ch, p := range tr.chans {
			if q := again.chans[ch]; q == nil || q.last != p.last {
				t.Fatalf("channel %q: reload lost position %q", ch, p.last)
			}
		}
	})
}

// TestQueueOverflowIsBackfilled holds the Inbound until the event queue
// overflows: the dropped messages are fetched by the backfill queued
// behind the full queue, so none is lost and all arrive in order.
func TestQueueOverflowIsBackfilled(t *testing.T) {
	f := newFakeDiscord(t)
	f.ReplayUnseen = true // dispatches race the new session's READY
	cur := &memCursors{}
	first := start(t, f, withCursors(cur))
	f.Dispatch("MESSAGE_CREATE", message("100000", "990", "", "42", "first"))
	first.rec.waitMessage(t, "100000")
	cur.waitCursor(t, "990", "100000")
	first.stop(t)
	waitStopped(t, f)

	rec := &recorder{gate: make(chan struct{})}
	drops := &dropCounter{}
	r := startWith(t, f, rec, func(c *Config) {
		c.Cursors = cur
		c.Logger = slog.New(drops)
	})
	const n = queueLimit + 200
	for i := 1; i <= n; i++ {
		f.Dispatch("MESSAGE_CREATE", message(strconv.Itoa(100000+i), "990", "", "42", "m"))
	}
	// One message is held in HandleMessage (or, if the consumer has not
	// taken it yet, waits too), queueLimit wait, the rest are dropped.
	eventually(t, "the queue to overflow", func() bool { return drops.n.Load() >= n-1-queueLimit })
	close(rec.gate)
	last := strconv.Itoa(100000 + n)
	r.rec.waitMessage(t, last)
	got := r.rec.ids()
	seen := map[string]bool{}
	newest := ""
	for _, id := range got {
		if seen[id] {
			continue // a backfill overlapping live events; the store dedupes
		}
		seen[id] = true
		if newest != "" && !snowflakeLess(newest, id) {
			t.Fatalf("first delivery of %s came after %s: out of order", id, newest)
		}
		newest = id
	}
	for i := 1; i <= n; i++ {
		if id := strconv.Itoa(100000 + i); !seen[id] {
			t.Fatalf("message %s lost in the overflow", id)
		}
	}
	cur.waitCursor(t, "990", last)
}

// dropCounter is a slog.Handler that counts the transport's "queue full"
// errors and discards everything else.
type dropCounter struct{ n atomic.Int64 }

func (d *dropCounter) Enabled(context.Context, slog.Level) bool { return true }

func (d *dropCounter) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "queue full") {
		d.n.Add(1)
	}
	return nil
}

func (d *dropCounter) WithAttrs([]slog.Attr) slog.Handler { return d }

func (d *dropCounter) WithGroup(string) slog.Handler { return d }

// TestBackfillSeededFromTheStore: the cursor was never saved (hearth died
// right after storing the channel's first message), but the store knows
// the channel: the backfill still fetches what came after it.
func TestBackfillSeededFromTheStore(t *testing.T) {
	f := newFakeDiscord(t)
	f.AddHistory(message("3001", "620", "", "42", "stored before the crash"))
	f.AddHistory(message("3002", "620", "", "42", "sent while hearth was down"))
	r := start(t, f, func(c *Config) {
		c.Cursors = &memCursors{} // empty: never saved
		c.Stored = func(context.Context) (map[string]string, error) { return map[string]string{"620": "3001"}, nil }
	})
	r.rec.waitMessage(t, "3002")
	if got := r.rec.ids(); !slices.Equal(got, []string{"3002"}) {
		t.Errorf("delivered %v, want only the message after the stored one", got)
	}
	if fe := fetches(f, "620"); len(fe) != 1 || fe[0].After != "3001" {
		t.Errorf("history requests = %+v, want one after=3001", fe)
	}
}
