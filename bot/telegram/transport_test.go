package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/telegram/telegramtest"
)

func TestDMRoundTrip(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	cursors := newMemCursors()
	tr := newTransport(t, f, cursors, func(c *Config) {
		c.Commands = []Command{{Name: "/start", Description: "开始"}, {Name: "me", Description: "我们的关系"}}
	})
	in := &recInbound{}
	run(t, tr, in)

	id := f.Push("message", telegramtest.TextMessage(5, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "hello Luna"))
	waitFor(t, "the message", func() bool { return len(in.messages()) == 1 })
	got := in.messages()[0]
	want := bot.Message{
		Platform: "telegram", ChatID: "42", ChatKind: bot.ChatPrivate, MessageID: "5",
		UserID: "42", UserName: "Ann", Text: "hello Luna", Modality: bot.ModalityText,
		At: time.Unix(1700000005, 0).UTC(), Addressed: true,
	}
	if got != want {
		t.Fatalf("message = %+v\nwant      %+v", got, want)
	}
	waitFor(t, "the offset", func() bool { return cursors.get(offsetCursor) == "2" && id == 1 })

	sent, err := tr.Send(t.Context(), got.Chat(), bot.Outgoing{Text: "hi Ann"})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	calls := f.CallsTo("sendMessage")
	if len(calls) != 1 || calls[0].Params.Get("chat_id") != "42" || calls[0].Params.Get("text") != "hi Ann" {
		t.Fatalf("sendMessage calls = %+v", calls)
	}
	if calls[0].Params.Get("parse_mode") != "" {
		t.Errorf("text must be plain, got parse_mode %q", calls[0].Params.Get("parse_mode"))
	}
	if len(sent.MessageIDs) != 1 || sent.MessageIDs[0] != "1001" {
		t.Errorf("Sent = %+v, want the fake's id 1001", sent)
	}

	polls := f.CallsTo("getUpdates")
	var allowed []string
	if err := json.Unmarshal([]byte(polls[0].Params.Get("allowed_updates")), &allowed); err != nil ||
		strings.Join(allowed, ",") != "message,edited_message,callback_query,message_reaction" {
		t.Errorf("allowed_updates = %q", polls[0].Params.Get("allowed_updates"))
	}
	if polls[0].Params.Get("timeout") != "1" {
		t.Errorf("long poll timeout = %q, want 1", polls[0].Params.Get("timeout"))
	}
	cmds := f.CallsTo("setMyCommands")
	if len(cmds) != 1 || cmds[0].Params.Get("commands") != `[{"command":"start","description":"开始"},{"command":"me","description":"我们的关系"}]` {
		t.Errorf("setMyCommands = %+v", cmds)
	}
}

func TestGroupAddressing(t *testing.T) {
	group, ann := telegramtest.GroupChat(-100), telegramtest.User(42, "Ann")
	botUser := map[string]any{"id": testBotID, "is_bot": true, "first_name": "Luna", "username": testBotName}
	tests := []struct {
		name      string
		msg       map[string]any
		addressed bool
		text      string
	}{
		{"no mention", telegramtest.TextMessage(1, group, ann, "nice weather"), false, "nice weather"},
		{"mention", telegramtest.TextMessage(2, group, ann, "@LunaBot how are you"), true, "@LunaBot how are you"},
		{"mention any case", telegramtest.TextMessage(3, group, ann, "hey @lunabot!"), true, "hey @lunabot!"},
		{"longer username is someone else", telegramtest.TextMessage(4, group, ann, "ask @LunaBotFan"), false, "ask @LunaBotFan"},
		{"reply to the bot", func() map[string]any {
			m := telegramtest.TextMessage(5, group, ann, "really?")
			m["reply_to_message"] = telegramtest.TextMessage(900, group, botUser, "I like tea")
			return m
		}(), true, "really?"},
		{"reply to someone else", func() map[string]any {
			m := telegramtest.TextMessage(6, group, ann, "really?")
			m["reply_to_message"] = telegramtest.TextMessage(901, group, telegramtest.User(43, "Bo"), "I like tea")
			return m
		}(), false, "really?"},
		{"text mention", func() map[string]any {
			m := telegramtest.TextMessage(7, group, ann, "Luna, hi")
			m["entities"] = []map[string]any{{"type": "text_mention", "offset": 0, "length": 4, "user": botUser}}
			return m
		}(), true, "Luna, hi"},
		{"command for us", telegramtest.TextMessage(8, group, ann, "/remember@LunaBot I like tea"), true, "/remember I like tea"},
		{"command for another bot", telegramtest.TextMessage(9, group, ann, "/help@OtherBot"), false, "/help@OtherBot"},
		{"bare command", telegramtest.TextMessage(10, group, ann, "/help"), true, "/help"},
		{"private command with suffix", telegramtest.TextMessage(11, telegramtest.PrivateChat(42), ann, "/me@LunaBot"), true, "/me"},
	}
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	in := &recInbound{}
	run(t, tr, in)
	for _, tt := range tests {
		f.Push("message", tt.msg)
	}
	waitFor(t, "all messages", func() bool { return len(in.messages()) == len(tests) })
	for i, tt := range tests {
		m := in.messages()[i]
		if m.Addressed != tt.addressed || m.Text != tt.text {
			t.Errorf("%s: Addressed=%v Text=%q, want %v %q", tt.name, m.Addressed, m.Text, tt.addressed, tt.text)
		}
		if wantKind := bot.ChatGroup; tt.msg["chat"].(map[string]any)["type"] == "supergroup" && m.ChatKind != wantKind {
			t.Errorf("%s: ChatKind = %q", tt.name, m.ChatKind)
		}
	}
}

func TestModalities(t *testing.T) {
	chat, ann := telegramtest.PrivateChat(42), telegramtest.User(42, "Ann")
	with := func(id int64, k string, v any, caption string) map[string]any {
		m := map[string]any{"message_id": id, "from": ann, "chat": chat, "date": 1700000000, k: v}
		if caption != "" {
			m["caption"] = caption
		}
		return m
	}
	tests := []struct {
		msg  map[string]any
		mod  bot.Modality
		text string
	}{
		{with(1, "photo", []map[string]any{{"file_id": "p", "file_unique_id": "u", "width": 1, "height": 1}}, "my cat"), bot.ModalityPhoto, "my cat"},
		{with(2, "voice", map[string]any{"file_id": "v", "file_unique_id": "u", "duration": 3}, ""), bot.ModalityVoice, ""},
		{with(3, "audio", map[string]any{"file_id": "a", "file_unique_id": "u", "duration": 3}, ""), bot.ModalityVoice, ""},
		{with(4, "sticker", map[string]any{"file_id": "s", "emoji": "😊"}, ""), bot.ModalitySticker, "😊"},
		{with(5, "location", map[string]any{"latitude": 1.0, "longitude": 2.0}, ""), bot.ModalityLocation, ""},
		{with(6, "contact", map[string]any{"phone_number": "+4915112345678", "first_name": "Mia", "last_name": "Chen", "user_id": 7}, ""), bot.ModalityContact, ""},
		{with(7, "poll", map[string]any{"id": "1", "question": "Pizza or sushi?", "options": []map[string]any{{"text": "pizza", "voter_count": 0}, {"text": "sushi", "voter_count": 0}},
			"total_voter_count": 0, "is_closed": false, "is_anonymous": true, "type": "regular", "allows_multiple_answers": false}, ""), bot.ModalityPoll, ""},
		{with(8, "dice", map[string]any{"emoji": "🎲", "value": 5}, ""), bot.ModalityDice, ""},
		{func() map[string]any {
			m := with(9, "venue", map[string]any{"location": map[string]any{"latitude": 52.5, "longitude": 13.35}, "title": "Café Einstein", "address": "Kurfürstenstraße 58"}, "")
			m["location"] = map[string]any{"latitude": 52.5, "longitude": 13.35} // a venue carries its location too
			return m
		}(), bot.ModalityLocation, ""},
	}
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	in := &recInbound{}
	run(t, tr, in)
	for _, tt := range tests {
		f.Push("message", tt.msg)
	}
	waitFor(t, "all messages", func() bool { return len(in.messages()) == len(tests) })
	for i, tt := range tests {
		if m := in.messages()[i]; m.Modality != tt.mod || m.Text != tt.text {
			t.Errorf("message %d: Modality=%q Text=%q, want %q %q", i, m.Modality, m.Text, tt.mod, tt.text)
		}
	}
	// What was shared travels with the message, to be described in words
	// (never as a bare "[attachment]"); a contact's phone number does not.
	for i, want := range map[int]bot.Shared{
		4: {Lat: 1, Lon: 2},
		5: {Name: "Mia Chen"},
		6: {Name: "Pizza or sushi?", Options: []string{"pizza", "sushi"}},
		7: {Name: "🎲", Value: 5},
		8: {Name: "Café Einstein", Address: "Kurfürstenstraße 58", Lat: 52.5, Lon: 13.35},
	} {
		m := in.messages()[i]
		if m.Media == nil || m.Media.Kind != m.Modality || m.Media.Shared == nil || !reflect.DeepEqual(*m.Media.Shared, want) {
			t.Errorf("message %d: Media = %+v, want %s %+v", i+1, m.Media, m.Modality, want)
		}
	}
}

func TestOffsetAdvancesOnlyAfterAccept(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	cursors := newMemCursors()
	tr := newTransport(t, f, cursors, nil)
	in := &recInbound{cursors: cursors, failNext: 2}
	run(t, tr, in)

	f.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "first"))
	waitFor(t, "acceptance after two failures", func() bool { return len(in.messages()) == 1 })
	in.mu.Lock()
	attempts, seen := in.attempts, in.offsetSeen
	in.mu.Unlock()
	if attempts != 3 {
		t.Fatalf("HandleMessage called %d times, want 3 (two failures, one success)", attempts)
	}
	for i, v := range seen {
		if v != "" {
			t.Errorf("attempt %d saw offset %q persisted before acceptance", i, v)
		}
	}
	waitFor(t, "offset after acceptance", func() bool { return cursors.get(offsetCursor) == "2" })

	f.Push("message", telegramtest.TextMessage(2, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "second"))
	waitFor(t, "second message", func() bool { return len(in.messages()) == 2 })
	if m := in.messages(); m[0].Text != "first" || m[1].Text != "second" {
		t.Errorf("order = %q, %q", m[0].Text, m[1].Text)
	}
}

func TestRestartDoesNotRedeliver(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	cursors := newMemCursors()
	in1 := &recInbound{}
	stop := run(t, newTransport(t, f, cursors, nil), in1)
	f.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "one"))
	f.Push("message", telegramtest.TextMessage(2, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "two"))
	waitFor(t, "first run's messages", func() bool { return len(in1.messages()) == 2 })
	waitFor(t, "offset", func() bool { return cursors.get(offsetCursor) == "3" })
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}

	// The fake still holds updates 1 and 2: only the persisted offset keeps
	// them from coming back.
	in2 := &recInbound{}
	run(t, newTransport(t, f, cursors, nil), in2)
	f.Push("message", telegramtest.TextMessage(3, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "three"))
	waitFor(t, "second run's message", func() bool { return len(in2.messages()) >= 1 })
	if m := in2.messages(); len(m) != 1 || m[0].Text != "three" {
		t.Fatalf("second run got %+v, want only \"three\"", m)
	}
	if polls := f.CallsTo("getUpdates"); !hasOffset(polls, "3") {
		t.Errorf("second run never polled from offset 3")
	}

	// Control: a transport without the cursor sees the old updates again,
	// so the assertion above can fail.
	in3 := &recInbound{}
	run(t, newTransport(t, f, newMemCursors(), nil), in3)
	waitFor(t, "redelivery without a cursor", func() bool { return len(in3.messages()) == 3 })
}

func hasOffset(calls []telegramtest.Call, offset string) bool {
	for _, c := range calls {
		if c.Params.Get("offset") == offset {
			return true
		}
	}
	return false
}

func TestUndecodableUpdateSkipped(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	cursors := newMemCursors()
	tr := newTransport(t, f, cursors, nil)
	in := &recInbound{}
	run(t, tr, in)
	f.PushRaw(1, "message", `{"update_id":1,"message":{"message_id":"not a number","chat":{"id":1}}}`)
	f.PushRaw(2, "message", `{"update_id":2,"message":{"message_id":2,"chat":{"id":42,"type":"private"},"from":{"id":42,"first_name":"Ann"},"date":1,"text":"ok"}}`)
	waitFor(t, "the good update", func() bool { return len(in.messages()) == 1 })
	waitFor(t, "offset past both", func() bool { return cursors.get(offsetCursor) == "3" })
}

func TestReaction(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	in := &recInbound{}
	run(t, tr, in)
	f.Push("message_reaction", map[string]any{
		"chat": telegramtest.PrivateChat(42), "message_id": 1001, "user": telegramtest.User(42, "Ann"), "date": 1700000100,
		"new_reaction": []map[string]any{{"type": "emoji", "emoji": "👍"}}, "old_reaction": []any{},
	})
	// A removed reaction is no feedback.
	f.Push("message_reaction", map[string]any{
		"chat": telegramtest.PrivateChat(42), "message_id": 1001, "user": telegramtest.User(42, "Ann"), "date": 1700000200,
		"new_reaction": []any{}, "old_reaction": []map[string]any{{"type": "emoji", "emoji": "👍"}},
	})
	f.Push("message", telegramtest.TextMessage(7, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "after"))
	waitFor(t, "the message after the reactions", func() bool { return len(in.messages()) == 1 })
	rs := in.reactionList()
	want := bot.Reaction{Platform: "telegram", ChatID: "42", MessageID: "1001", UserID: "42", Emoji: "👍", At: time.Unix(1700000100, 0).UTC()}
	if len(rs) != 1 || rs[0] != want {
		t.Fatalf("reactions = %+v, want [%+v]", rs, want)
	}
}

func TestCallbackRoundTrip(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	in := &recInbound{}
	run(t, tr, in)

	sent, err := tr.Send(t.Context(), bot.ChatRef{Platform: "telegram", ChatID: "42", Kind: bot.ChatPrivate}, bot.Outgoing{
		Text:    "What next?",
		Buttons: [][]bot.Button{{{Label: "Memories", Data: "/memories"}, {Label: "Me", Data: "/me@LunaBot"}}},
	})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	var markup struct {
		InlineKeyboard [][]struct {
			Text         string `json:"text"`
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(f.CallsTo("sendMessage")[0].Params.Get("reply_markup")), &markup); err != nil {
		t.Fatalf("reply_markup: %v", err)
	}
	if len(markup.InlineKeyboard) != 1 || len(markup.InlineKeyboard[0]) != 2 ||
		markup.InlineKeyboard[0][0].CallbackData != "/memories" || markup.InlineKeyboard[0][1].Text != "Me" {
		t.Fatalf("keyboard = %+v", markup)
	}

	f.Push("callback_query", map[string]any{
		"id": "cbq-9", "from": telegramtest.User(42, "Ann"), "chat_instance": "x", "data": "/me@LunaBot",
		"message": telegramtest.TextMessage(1001, telegramtest.PrivateChat(42), map[string]any{"id": testBotID, "is_bot": true, "first_name": "Luna"}, "What next?"),
	})
	waitFor(t, "the button press", func() bool { return len(in.messages()) == 1 })
	m := in.messages()[0]
	if m.Text != "/me" || m.MessageID != "cb:cbq-9" || !m.Addressed || m.ChatID != "42" || m.UserID != "42" {
		t.Fatalf("callback message = %+v", m)
	}
	waitFor(t, "answerCallbackQuery", func() bool {
		a := f.CallsTo("answerCallbackQuery")
		return len(a) == 1 && a[0].Params.Get("callback_query_id") == "cbq-9"
	})
	if sent.MessageIDs[0] == "" {
		t.Error("no id for the message with buttons")
	}
}

func TestShutdownDuringLongPoll(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), func(c *Config) { c.PollTimeout = 30 * time.Second })
	stop := run(t, tr, &recInbound{})
	waitFor(t, "a blocked long poll", func() bool { return f.InPoll() == 1 })
	start := time.Now()
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Run took %v to return after cancel", d)
	}
	waitFor(t, "the server to see the poll cancelled", func() bool { return f.InPoll() == 0 })
}

func TestPollHonoursRetryAfter(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	f.Fail("getUpdates", 429, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 1","parameters":{"retry_after":1}}`)
	f.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "hi"))
	tr := newTransport(t, f, newMemCursors(), nil)
	in := &recInbound{}
	run(t, tr, in)
	waitFor(t, "delivery after the 429", func() bool { return len(in.messages()) == 1 })
	polls := f.CallsTo("getUpdates")
	if gap := polls[1].At.Sub(polls[0].At); gap < time.Second {
		t.Fatalf("second poll %v after the 429, want ≥ 1s", gap)
	}
}

func TestRunFailsOnRevokedToken(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	f.Fail("getUpdates", 401, "")
	ctx, cancel := context.WithTimeout(t.Context(), testDeadline)
	defer cancel()
	err := tr.Run(ctx, &recInbound{})
	if err == nil || ctx.Err() != nil {
		t.Fatalf("Run = %v (ctx %v), want a prompt 401 error", err, ctx.Err())
	}
	if strings.Contains(err.Error(), testToken) {
		t.Errorf("error leaks the token: %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	ctx := t.Context()
	if _, err := New(ctx, Config{Token: "wrong", Endpoint: f.Endpoint(), Cursors: newMemCursors()}); err == nil {
		t.Error("New accepted a token the server rejects")
	}
	if _, err := New(ctx, Config{Token: testToken, Endpoint: "http://127.0.0.1/bot", Cursors: newMemCursors()}); err == nil {
		t.Error("New accepted an endpoint without placeholders")
	}
	if _, err := New(ctx, Config{Token: testToken, Endpoint: f.Endpoint()}); err == nil {
		t.Error("New accepted a config without Cursors")
	}
	// A dead server: the error names the request but never the token.
	dead := telegramtest.NewServer(t, testToken)
	ep := dead.Endpoint()
	dead.HTTP.Close()
	_, err := New(ctx, Config{Token: testToken, Endpoint: ep, Cursors: newMemCursors()})
	if err == nil {
		t.Fatal("New succeeded against a closed server")
	}
	if strings.Contains(err.Error(), testToken) || !strings.Contains(err.Error(), "<token>") {
		t.Errorf("error = %q, want the token redacted", err)
	}
	if errors.Is(err, context.Canceled) {
		t.Errorf("unexpected cancel: %v", err)
	}
}

func TestPollRecoversFromServerErrors(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	f.Fail("getUpdates", 502, "<html>Bad Gateway</html>")
	f.Fail("getUpdates", 500, "")
	f.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "hi"))
	tr := newTransport(t, f, newMemCursors(), nil)
	in := &recInbound{}
	run(t, tr, in)
	waitFor(t, "delivery after two 5xx", func() bool { return len(in.messages()) == 1 })
	if n := len(f.CallsTo("getUpdates")); n < 3 {
		t.Errorf("%d polls, want ≥ 3", n)
	}
}

// FailingSince says since when polls fail (the first failed poll, not the
// latest), so the daemon can report Telegram down, and clears as soon as a
// poll works again.
func TestFailingSinceTracksPolls(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	const failures = 3
	for range failures {
		f.Fail("getUpdates", 502, "<html>Bad Gateway</html>")
	}
	tr := newTransport(t, f, newMemCursors(), nil)
	if !tr.FailingSince().IsZero() {
		t.Fatal("failing before the first poll")
	}
	in := &recInbound{}
	run(t, tr, in)
	waitFor(t, "the first failed poll", func() bool { return !tr.FailingSince().IsZero() })
	first := tr.FailingSince()
	waitFor(t, "the last failed poll", func() bool { return len(f.CallsTo("getUpdates")) >= failures })
	if got := tr.FailingSince(); !got.IsZero() && !got.Equal(first) {
		t.Errorf("FailingSince moved from %v to %v while polls kept failing", first, got)
	}
	f.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "hi"))
	waitFor(t, "delivery after the failures", func() bool { return len(in.messages()) == 1 })
	if got := tr.FailingSince(); !got.IsZero() {
		t.Errorf("FailingSince = %v after a poll worked, want zero", got)
	}
}

func TestRunFailsOnProxyUnauthorizedPage(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	f.Fail("getUpdates", 401, "<html>401 Authorization Required</html>")
	ctx, cancel := context.WithTimeout(t.Context(), testDeadline)
	defer cancel()
	if err := tr.Run(ctx, &recInbound{}); err == nil || ctx.Err() != nil {
		t.Fatalf("Run = %v (ctx %v), want a prompt error from the HTTP status", err, ctx.Err())
	}
}

func TestShutdownWhileHandlerFailsKeepsOffset(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	cursors := newMemCursors()
	tr := newTransport(t, f, cursors, nil)
	in := &recInbound{failNext: 1 << 30}
	stop := run(t, tr, in)
	f.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "never stored"))
	waitFor(t, "two failed attempts", func() bool {
		in.mu.Lock()
		defer in.mu.Unlock()
		return in.attempts >= 2
	})
	if err := stop(); err != nil {
		t.Fatalf("Run = %v, want nil on shutdown", err)
	}
	if v := cursors.get(offsetCursor); v != "" {
		t.Fatalf("offset %q persisted for a message no handler accepted", v)
	}
}

func TestConcurrentSends(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	run(t, tr, &recInbound{})
	const senders = 8
	errs := make(chan error, senders)
	for i := range senders {
		go func() {
			chat := bot.ChatRef{Platform: "telegram", ChatID: strconv.Itoa(100 + i), Kind: bot.ChatPrivate}
			_, err := tr.Send(t.Context(), chat, bot.Outgoing{Text: "hello " + strconv.Itoa(i)})
			errs <- err
		}()
	}
	for range senders {
		if err := <-errs; err != nil {
			t.Errorf("Send: %v", err)
		}
	}
	if n := len(f.CallsTo("sendMessage")); n != senders {
		t.Errorf("%d messages reached the server, want %d", n, senders)
	}
}
