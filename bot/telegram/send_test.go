package telegram

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/telegram/telegramtest"
)

var annChat = bot.ChatRef{Platform: "telegram", ChatID: "42", Kind: bot.ChatPrivate}

func TestLongReplySplitAndRejoined(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	text := longEmojiText()
	sent, err := tr.Send(t.Context(), annChat, bot.Outgoing{Text: text})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	calls := f.CallsTo("sendMessage")
	if len(calls) < 3 || len(sent.MessageIDs) != len(calls) {
		t.Fatalf("%d sendMessage calls, %d ids; want ≥ 3 and equal", len(calls), len(sent.MessageIDs))
	}
	var got strings.Builder
	for i, c := range calls {
		part := c.Params.Get("text")
		if n := utf16Len(part); n > MaxMessageUTF16 {
			t.Errorf("part %d has %d UTF-16 units", i, n)
		}
		got.WriteString(part)
	}
	if got.String() != text {
		t.Fatal("parts received by the server do not rejoin to the reply")
	}
}

func TestSendHonoursRetryAfter(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	f.Fail("sendMessage", 429, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 1","parameters":{"retry_after":1}}`)
	sent, err := tr.Send(t.Context(), annChat, bot.Outgoing{Text: "still here"})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	calls := f.CallsTo("sendMessage")
	if len(calls) != 2 || len(sent.MessageIDs) != 1 {
		t.Fatalf("%d calls, Sent %+v; want the 429 then one delivery", len(calls), sent)
	}
	if gap := calls[1].At.Sub(calls[0].At); gap < time.Second {
		t.Fatalf("retry came %v after the 429, want ≥ retry_after (1s)", gap)
	}
	if calls[1].Params.Get("text") != "still here" {
		t.Errorf("retried text = %q", calls[1].Params.Get("text"))
	}
}

func TestSendForbiddenIsUnreachable(t *testing.T) {
	for _, tc := range []struct {
		name, method string
		out          bot.Outgoing
	}{
		{"text", "sendMessage", bot.Outgoing{Text: "hello?"}},
		// The library drops error_code on uploads: the HTTP status must do.
		{"document", "sendDocument", bot.Outgoing{Document: &bot.File{Name: "export.json", Data: []byte("{}")}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := telegramtest.NewServer(t, testToken)
			var mu sync.Mutex
			var gone []string
			tr := newTransport(t, f, newMemCursors(), func(c *Config) {
				c.OnUnreachable = func(_ context.Context, chatID string) {
					mu.Lock()
					defer mu.Unlock()
					gone = append(gone, chatID)
				}
			})
			f.Fail(tc.method, 403, `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`)
			_, err := tr.Send(t.Context(), annChat, tc.out)
			if !errors.Is(err, bot.ErrUnreachable) {
				t.Fatalf("Send = %v, want ErrUnreachable", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(gone) != 1 || gone[0] != "42" {
				t.Errorf("OnUnreachable calls = %v, want [42]", gone)
			}
			if n := len(f.CallsTo(tc.method)); n != 1 {
				t.Errorf("%d attempts, want 1 (403 is final)", n)
			}
		})
	}
}

func TestSendRetriesServerErrors(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	f.Fail("sendMessage", 502, "<html>Bad Gateway</html>") // a proxy's page, not JSON
	f.Fail("sendMessage", 500, "")
	sent, err := tr.Send(t.Context(), annChat, bot.Outgoing{Text: "eventually"})
	if err != nil || len(sent.MessageIDs) != 1 {
		t.Fatalf("Send = %+v, %v; want delivery after two 5xx", sent, err)
	}
	if n := len(f.CallsTo("sendMessage")); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
}

func TestSendGivesUpAfterBoundedRetries(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	for range sendRetries + 2 {
		f.Fail("sendMessage", 503, "")
	}
	_, err := tr.Send(t.Context(), annChat, bot.Outgoing{Text: "x"})
	if err == nil || errors.Is(err, bot.ErrUnreachable) {
		t.Fatalf("Send = %v, want a plain error", err)
	}
	if n := len(f.CallsTo("sendMessage")); n != sendRetries+1 {
		t.Errorf("%d attempts, want %d", n, sendRetries+1)
	}
}

func TestSendStopsWithContext(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	f.Fail("sendMessage", 429, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 60","parameters":{"retry_after":60}}`)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := tr.Send(ctx, annChat, bot.Outgoing{Text: "x"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Send = %v, want the deadline", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Send waited %v despite its deadline", d)
	}
}

func TestSendFilesAndButtons(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	png := []byte("\x89PNG\r\n\x1a\nchart")
	sent, err := tr.Send(t.Context(), annChat, bot.Outgoing{
		Text:     "Your data and our month:",
		Document: &bot.File{Name: "export.json", MIME: "application/json", Data: []byte(`{"user":"telegram:42"}`)},
		Photo:    &bot.File{Name: "mood.png", MIME: "image/png", Data: png},
	})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	if len(sent.MessageIDs) != 3 {
		t.Fatalf("Sent = %+v, want three ids", sent)
	}
	doc := f.CallsTo("sendDocument")
	if len(doc) != 1 || doc[0].Params.Get("chat_id") != "42" || doc[0].Files["document"].Name != "export.json" ||
		string(doc[0].Files["document"].Data) != `{"user":"telegram:42"}` {
		t.Fatalf("sendDocument = %+v", doc)
	}
	photo := f.CallsTo("sendPhoto")
	if len(photo) != 1 || photo[0].Files["photo"].Name != "mood.png" || !bytes.Equal(photo[0].Files["photo"].Data, png) {
		t.Fatalf("sendPhoto = %+v", photo)
	}

	// Without text, buttons ride on the first attachment.
	_, err = tr.Send(t.Context(), annChat, bot.Outgoing{
		Document: &bot.File{Name: "a.json", Data: []byte("{}")},
		Buttons:  [][]bot.Button{{{Label: "More", Data: "/export"}}},
	})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	if d := f.CallsTo("sendDocument"); !strings.Contains(d[1].Params.Get("reply_markup"), `"callback_data":"/export"`) {
		t.Errorf("document reply_markup = %q", d[1].Params.Get("reply_markup"))
	}

	if _, err := tr.Send(t.Context(), annChat, bot.Outgoing{Text: "x", Buttons: [][]bot.Button{{{Label: "L", Data: strings.Repeat("a", maxCallbackData+1)}}}}); err == nil {
		t.Error("Send accepted callback data over 64 bytes")
	}
	if _, err := tr.Send(t.Context(), bot.ChatRef{ChatID: "not-a-number"}, bot.Outgoing{Text: "x"}); err == nil {
		t.Error("Send accepted a non-numeric chat id")
	}
	before := len(f.CallsTo("sendMessage"))
	if sent, err := tr.Send(t.Context(), annChat, bot.Outgoing{Text: " \n "}); err != nil || len(sent.MessageIDs) != 0 {
		t.Errorf("blank text: Send = %+v, %v", sent, err)
	}
	if len(f.CallsTo("sendMessage")) != before {
		t.Error("blank text reached the server")
	}
}

func TestTyping(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	if err := tr.Typing(t.Context(), annChat); err != nil {
		t.Fatalf("Typing: %v", err)
	}
	calls := f.CallsTo("sendChatAction")
	if len(calls) != 1 || calls[0].Params.Get("action") != "typing" || calls[0].Params.Get("chat_id") != "42" {
		t.Fatalf("sendChatAction = %+v", calls)
	}
	f.Fail("sendChatAction", 403, "")
	if err := tr.Typing(t.Context(), annChat); !errors.Is(err, bot.ErrUnreachable) {
		t.Errorf("Typing after 403 = %v, want ErrUnreachable", err)
	}
	if tr.Name() != bot.PlatformTelegram {
		t.Errorf("Name = %q", tr.Name())
	}
}

// TestSendWithoutAnswerIsNotSent holds the server's answer: the platform has
// the message, hearth has no proof. Send must give up with its caller's
// deadline and report an error, so the ledger keeps the reply pending (the
// duplicate window of README "Delivery guarantees"), and it must not retry
// on its own while the first attempt is unanswered.
func TestSendWithoutAnswerIsNotSent(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	hold := f.HoldNextSend(t)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	sent, err := tr.Send(ctx, annChat, bot.Outgoing{Text: "are you there?"})
	if err == nil || len(sent.MessageIDs) != 0 {
		t.Fatalf("Send = %+v, %v; want an error and no ids", sent, err)
	}
	select {
	case <-hold.Reached():
	default:
		t.Fatal("the held request never reached the server")
	}
	if calls := f.CallsTo("sendMessage"); len(calls) != 1 || calls[0].Params.Get("text") != "are you there?" {
		t.Errorf("sendMessage calls = %+v, want the one held request", calls)
	}
	hold.Release()

	// The next send is answered normally, with the next message id.
	sent, err = tr.Send(t.Context(), annChat, bot.Outgoing{Text: "again"})
	if err != nil || len(sent.MessageIDs) != 1 || sent.MessageIDs[0] != "1002" {
		t.Fatalf("Send after release = %+v, %v; want id 1002", sent, err)
	}
}
