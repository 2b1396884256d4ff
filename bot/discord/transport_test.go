package discord

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"hearth/bot"
	"hearth/bot/discord/discordtest"
)

// user is a gateway user object.
func user(id, name string) map[string]any {
	return map[string]any{"id": id, "username": name, "global_name": "Ann " + name, "discriminator": "0"}
}

// message is a MESSAGE_CREATE payload; guild "" makes it a DM.
func message(id, channel, guild, author, content string) map[string]any {
	m := map[string]any{
		"id": id, "channel_id": channel, "type": 0, "content": content,
		"timestamp": "2026-11-22T08:00:00.000000+00:00",
		"author":    user(author, "u"+author), "mentions": []any{}, "attachments": []any{},
	}
	if guild != "" {
		m["guild_id"] = guild
	}
	return m
}

func TestDMReply(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)

	f.Dispatch("MESSAGE_CREATE", message("m1", "dm1", "", "42", "  hello there  "))
	m := r.rec.waitMessage(t, "m1")
	want := bot.Message{
		Platform: "discord", ChatID: "dm1", ChatKind: bot.ChatPrivate, MessageID: "m1",
		UserID: "42", UserName: "Ann u42", Text: "hello there", Modality: bot.ModalityText,
		At: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC), Addressed: true,
	}
	if !m.At.Equal(want.At) {
		t.Errorf("At = %v, want %v", m.At, want.At)
	}
	m.At = want.At
	if m != want {
		t.Errorf("message = %+v\nwant %+v", m, want)
	}

	sent, err := r.tr.Send(context.Background(), m.Chat(), bot.Outgoing{Text: "hi, Ann"})
	if err != nil {
		t.Fatal(err)
	}
	got := f.Messages()
	if len(got) != 1 || got[0].Via != "channel" || got[0].Target != "dm1" || got[0].Content != "hi, Ann" {
		t.Fatalf("fake got %+v, want one channel message to dm1", got)
	}
	if !got[0].NoPings {
		t.Error("message allows mentions; replies must never ping")
	}
	if len(sent.MessageIDs) != 1 || sent.MessageIDs[0] != got[0].ID {
		t.Errorf("Sent = %v, want [%s]", sent.MessageIDs, got[0].ID)
	}

	f.Snapshot(func(f *discordtest.Server) {
		if len(f.Identifies) != 1 {
			t.Fatalf("identifies = %d, want 1", len(f.Identifies))
		}
		id := f.Identifies[0]
		if id.Intents != int(intents) || id.Intents&(1<<15) == 0 {
			t.Errorf("intents = %b, want %b with MessageContent (1<<15)", id.Intents, intents)
		}
		if f.Heartbeats == 0 {
			t.Error("no heartbeat reached the gateway")
		}
	})
}

func TestGuildAddressing(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)

	plain := message("g1", "c1", "G", "42", "just chatting")
	mention := message("g2", "c1", "G", "42", "<@"+fakeBotID+"> how are you?")
	mention["mentions"] = []any{user(fakeBotID, "hearth")}
	nick := message("g3", "c1", "G", "42", "hey <@!"+fakeBotID+"> you")
	replyBot := message("g4", "c1", "G", "42", "yes!")
	replyBot["type"] = 19
	replyBot["message_reference"] = map[string]any{"message_id": "b1", "channel_id": "c1"}
	replyBot["referenced_message"] = map[string]any{"id": "b1", "channel_id": "c1", "content": "tea?", "author": map[string]any{"id": fakeBotID, "username": "hearth", "bot": true}}
	replyOther := message("g5", "c1", "G", "42", "agreed")
	replyOther["type"] = 19
	replyOther["message_reference"] = map[string]any{"message_id": "o1", "channel_id": "c1"}
	replyOther["referenced_message"] = map[string]any{"id": "o1", "channel_id": "c1", "content": "x", "author": user("43", "bob")}
	otherBot := message("g6", "c1", "G", "77", "<@"+fakeBotID+"> beep")
	otherBot["author"] = map[string]any{"id": "77", "username": "robot", "bot": true}
	itself := message("g7", "c1", "G", fakeBotID, "my own words")
	sentinel := message("g8", "c1", "G", "42", "last")

	for _, m := range []map[string]any{plain, mention, nick, replyBot, replyOther, otherBot, itself, sentinel} {
		f.Dispatch("MESSAGE_CREATE", m)
	}
	r.rec.waitMessage(t, "g8")

	want := map[string]struct {
		addressed bool
		text      string
	}{
		"g1": {false, "just chatting"},
		"g2": {true, "how are you?"},
		"g3": {true, "hey you"},
		"g4": {true, "yes!"},
		"g5": {false, "agreed"},
		"g8": {false, "last"},
	}
	got := r.rec.messages()
	if len(got) != len(want) {
		t.Errorf("delivered %d messages, want %d (bots ignored): %+v", len(got), len(want), got)
	}
	for i, m := range got {
		w, ok := want[m.MessageID]
		if !ok {
			t.Errorf("message %s delivered, want it ignored", m.MessageID)
			continue
		}
		if m.Addressed != w.addressed || m.Text != w.text || m.ChatKind != bot.ChatGroup {
			t.Errorf("%s: addressed %v text %q kind %s, want %v %q group", m.MessageID, m.Addressed, m.Text, m.ChatKind, w.addressed, w.text)
		}
		if i > 0 && got[i-1].MessageID >= m.MessageID {
			t.Errorf("delivery out of gateway order: %s after %s", m.MessageID, got[i-1].MessageID)
		}
	}
}

func TestInboundErrorDoesNotStopRun(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)
	r.rec.mu.Lock()
	r.rec.fail = map[string]bool{"e1": true}
	r.rec.mu.Unlock()
	f.Dispatch("MESSAGE_CREATE", message("e1", "dm1", "", "42", "lost"))
	f.Dispatch("MESSAGE_CREATE", message("e2", "dm1", "", "42", "kept"))
	r.rec.waitMessage(t, "e2")
	select {
	case err := <-r.done:
		t.Fatalf("Run returned %v after an Inbound error", err)
	default:
	}
}

func TestTyping(t *testing.T) {
	f := newFakeDiscord(t)
	tr, err := New(Config{Token: fakeToken, APIBase: f.Base()})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Typing(context.Background(), bot.ChatRef{Platform: "discord", ChatID: "c9"}); err != nil {
		t.Fatal(err)
	}
	f.Snapshot(func(f *discordtest.Server) {
		if len(f.Typing) != 1 || f.Typing[0] != "c9" {
			t.Errorf("typing = %v, want [c9]", f.Typing)
		}
	})
	tr.http.CloseIdleConnections()
}

// longReply is about 9,000 characters of paragraphs, emoji sequences and a
// run with no spaces, so every split rule is exercised.
func longReply() string {
	var b strings.Builder
	for i := 0; utf8.RuneCountInString(b.String()) < 9000; i++ {
		b.WriteString("The tea was warm and the evening quiet 👩‍👩‍👧‍👦. ")
		if i%7 == 6 {
			b.WriteString("\n\n")
		}
		if i%31 == 30 {
			b.WriteString(strings.Repeat("🇯🇵", 600))
		}
	}
	runes := []rune(b.String())
	return string(runes[:9000])
}

func TestLongReplySplit(t *testing.T) {
	f := newFakeDiscord(t)
	tr, err := New(Config{Token: fakeToken, APIBase: f.Base()})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.http.CloseIdleConnections()
	text := longReply()
	if n := utf8.RuneCountInString(text); n != 9000 {
		t.Fatalf("fixture has %d runes", n)
	}
	sent, err := tr.Send(context.Background(), bot.ChatRef{Platform: "discord", ChatID: "c1"}, bot.Outgoing{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	got := f.Messages()
	if len(got) < 5 {
		t.Fatalf("fake got %d messages, want at least 5 for 9000 characters", len(got))
	}
	var joined strings.Builder
	for i, m := range got {
		if n := utf8.RuneCountInString(m.Content); n > MessageLimit {
			t.Errorf("part %d has %d characters", i, n)
		}
		if sent.MessageIDs[i] != m.ID {
			t.Errorf("Sent[%d] = %s, want %s", i, sent.MessageIDs[i], m.ID)
		}
		joined.WriteString(m.Content)
	}
	if joined.String() != text {
		t.Error("parts do not rejoin to the reply")
	}
	if len(sent.MessageIDs) != len(got) {
		t.Errorf("Sent has %d ids for %d messages", len(sent.MessageIDs), len(got))
	}
}

func TestRateLimitHonoured(t *testing.T) {
	f := newFakeDiscord(t)
	f.Limit429["/api/v9/channels/c1/messages"] = 1
	f.RetryAfter = 0.3
	tr, err := New(Config{Token: fakeToken, APIBase: f.Base()})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.http.CloseIdleConnections()
	sent, err := tr.Send(context.Background(), bot.ChatRef{Platform: "discord", ChatID: "c1"}, bot.Outgoing{Text: "patience"})
	if err != nil {
		t.Fatal(err)
	}
	got := f.Messages()
	if len(got) != 1 || got[0].Content != "patience" || len(sent.MessageIDs) != 1 {
		t.Fatalf("fake got %+v, sent %v; want the message delivered once", got, sent)
	}
	f.Snapshot(func(f *discordtest.Server) {
		if len(f.RateLimited) != 1 || len(f.Posts) != 2 {
			t.Fatalf("429s %d, posts %d; want 1 and 2", len(f.RateLimited), len(f.Posts))
		}
		if wait := f.Posts[1].Sub(f.RateLimited[0]); wait < 300*time.Millisecond {
			t.Errorf("retried after %v, before retry_after 300ms", wait)
		}
	})
}

func TestUnreachable(t *testing.T) {
	f := newFakeDiscord(t)
	f.Forbid["dm7"] = true
	tr, err := New(Config{Token: fakeToken, APIBase: f.Base()})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.http.CloseIdleConnections()
	_, err = tr.Send(context.Background(), bot.ChatRef{Platform: "discord", ChatID: "dm7"}, bot.Outgoing{Text: "hello?"})
	if !errors.Is(err, bot.ErrUnreachable) {
		t.Fatalf("err = %v, want bot.ErrUnreachable", err)
	}
	// A cancelled context stops a send.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = tr.Send(ctx, bot.ChatRef{Platform: "discord", ChatID: "c1"}, bot.Outgoing{Text: "too late"})
	if !errors.Is(err, context.Canceled) || len(f.Messages()) != 0 {
		t.Fatalf("cancelled send: err = %v, fake got %d messages", err, len(f.Messages()))
	}

	// Other failures are not "unreachable".
	_, err = tr.Send(context.Background(), bot.ChatRef{Platform: "discord", ChatID: "c1"}, bot.Outgoing{Text: strings.Repeat(" ", 3)})
	if err != nil {
		t.Fatalf("blank text: err = %v, want nothing sent and no error", err)
	}
	bad, err := New(Config{Token: "wrong", APIBase: f.Base()})
	if err != nil {
		t.Fatal(err)
	}
	defer bad.http.CloseIdleConnections()
	_, err = bad.Send(context.Background(), bot.ChatRef{Platform: "discord", ChatID: "c1"}, bot.Outgoing{Text: "x"})
	if err == nil || errors.Is(err, bot.ErrUnreachable) || strings.Contains(err.Error(), "wrong") {
		t.Fatalf("bad token: err = %v, want a plain error without the token", err)
	}
}

func TestReactions(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)
	f.Dispatch("MESSAGE_REACTION_ADD", map[string]any{"user_id": fakeBotID, "channel_id": "c1", "message_id": "b1", "emoji": map[string]any{"name": "🤖"}})
	f.Dispatch("MESSAGE_REACTION_ADD", map[string]any{"user_id": "42", "channel_id": "c1", "message_id": "b1", "guild_id": "G", "emoji": map[string]any{"name": "❤️"}})
	f.Dispatch("MESSAGE_REACTION_ADD", map[string]any{"user_id": "77", "channel_id": "c1", "message_id": "b1", "guild_id": "G", "emoji": map[string]any{"name": "🤖"},
		"member": map[string]any{"user": map[string]any{"id": "77", "username": "robot", "bot": true}}})
	f.Dispatch("MESSAGE_REACTION_ADD", map[string]any{"user_id": "42", "channel_id": "c1", "message_id": "b2", "emoji": map[string]any{"name": "blob", "id": "555"}})
	eventually(t, "two reactions", func() bool {
		r.rec.mu.Lock()
		defer r.rec.mu.Unlock()
		return len(r.rec.reactions) >= 2
	})
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	got := r.rec.reactions
	if len(got) != 2 {
		t.Fatalf("reactions = %+v, want 2 (the bot's own and another bot's ignored)", got)
	}
	if g := got[0]; g.Platform != "discord" || g.ChatID != "c1" || g.MessageID != "b1" || g.UserID != "42" || g.Emoji != "❤️" || g.User() != "discord:42" {
		t.Errorf("reaction = %+v", g)
	}
	if got[1].Emoji != "blob:555" {
		t.Errorf("custom emoji = %q, want blob:555", got[1].Emoji)
	}
}

// interaction is an INTERACTION_CREATE payload.
func interaction(id, typ int, channel, guild string, data map[string]any) map[string]any {
	ix := map[string]any{
		"id": "ix" + strconv.Itoa(id), "application_id": fakeAppID, "type": typ, "token": "tok" + strconv.Itoa(id),
		"channel_id": channel, "version": 1, "data": data,
	}
	if guild != "" {
		ix["guild_id"] = guild
		ix["member"] = map[string]any{"user": user("42", "ann"), "roles": []any{}}
	} else {
		ix["user"] = user("42", "ann")
	}
	return ix
}

func TestSlashCommandRoundTrip(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, func(c *Config) {
		c.Commands = []Command{{Name: "me", Description: "Your relationship card"}, {Name: "remember", Description: "Remember something", Option: "text"}}
	})
	eventually(t, "commands registered", func() bool {
		var n int
		f.Snapshot(func(f *discordtest.Server) { n = len(f.Commands) })
		return n == 2
	})
	f.Snapshot(func(f *discordtest.Server) {
		if f.Commands[0]["name"] != "me" || f.Commands[1]["name"] != "remember" {
			t.Errorf("commands = %v", f.Commands)
		}
		opts, _ := f.Commands[1]["options"].([]any)
		if len(opts) != 1 || opts[0].(map[string]any)["name"] != "text" || opts[0].(map[string]any)["type"] != float64(discordgo.ApplicationCommandOptionString) {
			t.Errorf("remember options = %v, want one string option \"text\"", opts)
		}
	})

	f.Dispatch("INTERACTION_CREATE", interaction(1, 2, "c1", "G", map[string]any{"id": "cmd1", "name": "me", "type": 1}))
	m := r.rec.waitMessage(t, "ix:ix1")
	if m.Text != "/me" || !m.Addressed || m.UserID != "42" || m.ChatID != "c1" || m.ChatKind != bot.ChatGroup {
		t.Errorf("command message = %+v", m)
	}
	f.Snapshot(func(f *discordtest.Server) {
		if len(f.Callbacks) != 1 || f.Callbacks[0] != (discordtest.Callback{ID: "ix1", Token: "tok1", Type: 5, Flags: 64}) {
			t.Errorf("callbacks = %+v, want one deferred ephemeral ack", f.Callbacks)
		}
	})

	if _, err := r.tr.Send(context.Background(), m.Chat(), bot.Outgoing{Text: "Here is your card."}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tr.Send(context.Background(), m.Chat(), bot.Outgoing{Text: "And later, a normal message."}); err != nil {
		t.Fatal(err)
	}
	got := f.Messages()
	if len(got) != 2 {
		t.Fatalf("fake got %+v", got)
	}
	if got[0].Via != "webhook" || got[0].Target != fakeAppID+"/tok1" || got[0].Content != "Here is your card." || got[0].Flags != 64 {
		t.Errorf("first reply = %+v, want an ephemeral followup on the interaction", got[0])
	}
	if got[1].Via != "channel" || got[1].Target != "c1" {
		t.Errorf("second reply = %+v, want a channel message", got[1])
	}

	// A DM command with an argument: not ephemeral, argument in the text.
	f.Dispatch("INTERACTION_CREATE", interaction(2, 2, "dm1", "", map[string]any{
		"id": "cmd2", "name": "remember", "type": 1,
		"options": []any{map[string]any{"name": "text", "type": 3, "value": "I like jasmine tea"}},
	}))
	m = r.rec.waitMessage(t, "ix:ix2")
	if m.Text != "/remember I like jasmine tea" || m.ChatKind != bot.ChatPrivate {
		t.Errorf("command message = %+v", m)
	}
	if _, err := r.tr.Send(context.Background(), m.Chat(), bot.Outgoing{Text: "I'll remember."}); err != nil {
		t.Fatal(err)
	}
	got = f.Messages()
	if last := got[len(got)-1]; last.Via != "webhook" || last.Target != fakeAppID+"/tok2" || last.Flags != 0 || !last.NoPings {
		t.Errorf("DM reply = %+v, want a public followup that pings nobody", last)
	}

	// An interaction whose webhook is gone: the reply goes to the channel.
	f.Snapshot(func(f *discordtest.Server) { f.Expired["tok4"] = true })
	f.Dispatch("INTERACTION_CREATE", interaction(4, 2, "dm1", "", map[string]any{"id": "cmd1", "name": "me", "type": 1}))
	m = r.rec.waitMessage(t, "ix:ix4")
	sent, err := r.tr.Send(context.Background(), m.Chat(), bot.Outgoing{Text: "Still here."})
	if err != nil {
		t.Fatal(err)
	}
	got = f.Messages()
	if last := got[len(got)-1]; last.Via != "channel" || last.Target != "dm1" || last.Content != "Still here." || sent.MessageIDs[0] != last.ID {
		t.Errorf("reply to an expired interaction = %+v, want a channel message", last)
	}
}

func TestButtonsAndFiles(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)
	chat := bot.ChatRef{Platform: "discord", ChatID: "dm1", Kind: bot.ChatPrivate}
	_, err := r.tr.Send(context.Background(), chat, bot.Outgoing{
		Text:     "Your data.",
		Document: &bot.File{Name: "export.json", MIME: "application/json", Data: []byte(`{"id":"discord:42"}`)},
		Photo:    &bot.File{Name: "mood.png", MIME: "image/png", Data: []byte("\x89PNG fake")},
		Buttons: [][]bot.Button{
			{{Label: "Memories", Data: "/memories"}, {Label: "Why", Data: "/why"}},
			{{Label: "too long", Data: strings.Repeat("x", customIDLimit+1)}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := f.Messages()
	if len(got) != 1 {
		t.Fatalf("fake got %d messages", len(got))
	}
	m := got[0]
	if m.Content != "Your data." || strings.Join(m.Buttons, ",") != "/memories,/why" {
		t.Errorf("message = %+v, want text and two buttons", m)
	}
	if len(m.Files) != 2 {
		t.Fatalf("files = %+v", m.Files)
	}
	names := map[string]string{}
	for _, fl := range m.Files {
		names[fl.Name] = string(fl.Data)
	}
	if names["export.json"] != `{"id":"discord:42"}` || names["mood.png"] != "\x89PNG fake" {
		t.Errorf("files = %v", names)
	}

	// Pressing a button comes back as its data, addressed.
	f.Dispatch("INTERACTION_CREATE", interaction(3, 3, "dm1", "", map[string]any{"custom_id": "/memories", "component_type": 2}))
	msg := r.rec.waitMessage(t, "ix:ix3")
	if msg.Text != "/memories" || !msg.Addressed {
		t.Errorf("button message = %+v", msg)
	}
}

func TestResumeAfterDrop(t *testing.T) {
	f := newFakeDiscord(t)
	f.ReplayUnseen = true // an event may race a new session's READY here
	r := start(t, f, nil)
	f.Dispatch("MESSAGE_CREATE", message("r1", "dm1", "", "42", "before"))
	r.rec.waitMessage(t, "r1")
	var seq int64
	f.Snapshot(func(f *discordtest.Server) { seq = f.Seq })

	f.Drop()
	f.Dispatch("MESSAGE_CREATE", message("r2", "dm1", "", "42", "during")) // queued until resumed
	r.rec.waitMessage(t, "r2")
	f.Snapshot(func(f *discordtest.Server) {
		if len(f.Resumes) != 1 {
			t.Fatalf("resumes = %+v, want 1", f.Resumes)
		}
		if res := f.Resumes[0]; res.SessionID != fakeSessionID || res.Seq != seq || res.Token != "Bot "+fakeToken {
			t.Errorf("resume = %+v, want session %s seq %d", res, fakeSessionID, seq)
		}
		if len(f.Identifies) != 1 {
			t.Errorf("identifies = %d, want 1 (resumed, not re-identified)", len(f.Identifies))
		}
	})

	// Op 7 RECONNECT: the client closes and resumes.
	f.Op(7, nil)
	f.Dispatch("MESSAGE_CREATE", message("r2b", "dm1", "", "42", "after op 7"))
	r.rec.waitMessage(t, "r2b")
	f.Snapshot(func(f *discordtest.Server) {
		if len(f.Resumes) != 2 || len(f.Identifies) != 1 {
			t.Errorf("after op 7: resumes %d identifies %d, want 2 and 1", len(f.Resumes), len(f.Identifies))
		}
	})

	// An invalid session on the next resume makes the client identify anew.
	f.Snapshot(func(f *discordtest.Server) { f.InvalidateOnResume = true })
	f.Drop()
	f.Dispatch("MESSAGE_CREATE", message("r3", "dm1", "", "42", "after"))
	r.rec.waitMessage(t, "r3")
	f.Snapshot(func(f *discordtest.Server) {
		if len(f.Resumes) != 3 || len(f.Identifies) != 2 {
			t.Errorf("resumes %d identifies %d, want 3 and 2", len(f.Resumes), len(f.Identifies))
		}
	})
}

// FailingSince says since when the gateway is down, from the drop on, for
// as long as reconnecting fails, and clears once a session is back, so
// the daemon can report Discord down during an outage it rides out.
func TestFailingSinceTracksTheGateway(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, func(c *Config) { c.OpenTimeout = 200 * time.Millisecond })
	if got := r.tr.FailingSince(); !got.IsZero() {
		t.Fatalf("FailingSince = %v while connected, want zero", got)
	}
	f.Snapshot(func(f *discordtest.Server) { f.Silent = true }) // reconnects time out
	f.Drop()
	eventually(t, "the drop noticed", func() bool { return !r.tr.FailingSince().IsZero() })
	first := r.tr.FailingSince()
	eventually(t, "a failed reconnect", func() bool {
		n := 0
		f.Snapshot(func(f *discordtest.Server) { n = f.Closed })
		return n >= 2
	})
	if got := r.tr.FailingSince(); !got.Equal(first) {
		t.Errorf("FailingSince moved from %v to %v while reconnects failed", first, got)
	}
	f.Snapshot(func(f *discordtest.Server) { f.Silent = false })
	eventually(t, "the gateway back", func() bool { return r.tr.FailingSince().IsZero() })
	f.Dispatch("MESSAGE_CREATE", message("f1", "dm1", "", "42", "back"))
	r.rec.waitMessage(t, "f1")
}

func TestDisallowedIntents(t *testing.T) {
	f := newFakeDiscord(t)
	f.CloseOnIdentify = closeDisallowedIntents
	tr, err := New(Config{Token: fakeToken, APIBase: f.Base(), Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- tr.Run(context.Background(), &recorder{}) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "Message Content intent") || !strings.Contains(err.Error(), "4014") {
			t.Fatalf("Run = %v, want an error naming the Message Content intent", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("Run did not return on close code 4014")
	}
	tr.http.CloseIdleConnections()
}

// TestDisallowedIntentsOnReconnect runs over TLS, like the real gateway:
// the 4014 arrives after discordgo's Open has returned, so only the close
// sniffer, which must see the decrypted stream, can report it.
func TestDisallowedIntentsOnReconnect(t *testing.T) {
	f := newFakeDiscordTLS(t)
	r := start(t, f, nil)
	f.Dispatch("MESSAGE_CREATE", message("t1", "dm1", "", "42", "over tls"))
	r.rec.waitMessage(t, "t1")
	f.Snapshot(func(f *discordtest.Server) {
		f.CloseOnIdentify = closeDisallowedIntents
		f.InvalidateOnResume = true
	})
	f.Drop()
	select {
	case err := <-r.done:
		if err == nil || !strings.Contains(err.Error(), "Message Content intent") {
			t.Fatalf("Run = %v, want the 4014 error", err)
		}
		close(r.done)
	case <-time.After(waitTimeout):
		t.Fatal("Run did not return on close code 4014 while reconnecting")
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)
	began := time.Now()
	r.stop(t)
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("Run took %v to return after cancel", d)
	}
	eventually(t, "gateway closed at the fake", func() bool {
		var closed int
		f.Snapshot(func(f *discordtest.Server) { closed = f.Closed })
		return closed == 1 && !f.Live()
	})
	if n := r.tr.conns.open(); n != 0 {
		t.Errorf("%d gateway sockets still open", n)
	}
}

func TestOpenTimeout(t *testing.T) {
	f := newFakeDiscord(t)
	f.Silent = true // accepts the websocket, never says HELLO
	tr, err := New(Config{Token: fakeToken, APIBase: f.Base(), OpenTimeout: 300 * time.Millisecond, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	err = tr.Run(context.Background(), &recorder{})
	if err == nil || !strings.Contains(err.Error(), "no READY within") {
		t.Fatalf("Run = %v, want an open timeout", err)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("Run took %v with a 300ms open timeout", d)
	}
	if n := tr.conns.open(); n != 0 {
		t.Errorf("%d gateway sockets left open", n)
	}
	tr.http.CloseIdleConnections()

	// Cancelling during Open returns nil promptly too.
	ctx, cancel := context.WithCancel(context.Background())
	tr2, err := New(Config{Token: fakeToken, APIBase: f.Base(), OpenTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- tr2.Run(ctx, &recorder{}) }()
	eventually(t, "dial", func() bool { return tr2.conns.open() == 1 })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v after cancel during open, want nil", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("Run did not return after cancel during open")
	}
	tr2.http.CloseIdleConnections()
}
