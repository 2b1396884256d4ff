package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/heart"
)

func (r *recorder) last(chatID string) bot.Outgoing {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.sent) - 1; i >= 0; i-- {
		if r.sent[i].chat.ChatID == chatID {
			return r.sent[i].out
		}
	}
	return bot.Outgoing{}
}

// buttonData is what an answer's buttons send when pressed, row by row,
// joined by spaces.
func buttonData(o bot.Outgoing) string {
	var data []string
	for _, row := range o.Buttons {
		for _, b := range row {
			data = append(data, b.Data)
		}
	}
	return strings.Join(data, " ")
}

func TestMeShowsTheCardTheChartAndButtons(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("20", "I'm so happy today!"))
	e.send(t, msg("20", "/remember I love jasmine tea"))
	e.send(t, msg("20", "/me"))
	e.h.Drain()
	out := e.out.last("20")
	for _, want := range []string{"Where we are:", "We met today", "Things I remember: 1", "chart below"} {
		if !strings.Contains(out.Text, want) {
			t.Errorf("/me card lacks %q:\n%s", want, out.Text)
		}
	}
	if out.Photo == nil {
		t.Fatal("/me has no chart")
	}
	if _, err := png.Decode(bytes.NewReader(out.Photo.Data)); err != nil {
		t.Errorf("/me chart is not a PNG: %v", err)
	}
	if got := buttonData(out); got != "/memories /privacy /export" {
		t.Errorf("/me buttons = %q", got)
	}
}

func TestWhyExplainsMoodLingeringAndRelationship(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("21", "you are wonderful and kind"))
	e.send(t, msg("21", "/why"))
	e.h.Drain()
	out := e.out.last("21").Text
	for _, want := range []string{"I feel warm toward you", "you said something kind about me", "We've only just met."} {
		if !strings.Contains(out, want) {
			t.Errorf("/why lacks %q:\n%s", want, out)
		}
	}
}

func TestExportIsAJSONFileOfEverythingAboutTheUser(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("22", "my name is Rin"))
	e.send(t, msg("23", "someone else entirely"))
	e.send(t, msg("22", "/export"))
	e.h.Drain()
	out := e.out.last("22")
	if out.Document == nil || out.Document.MIME != "application/json" {
		t.Fatalf("/export sent %+v", out)
	}
	var ex map[string]json.RawMessage
	if err := json.Unmarshal(out.Document.Data, &ex); err != nil {
		t.Fatalf("export is not JSON: %v", err)
	}
	for _, key := range []string{"user", "inbound", "outbound", "episodes", "memories", "signals"} {
		if _, ok := ex[key]; !ok {
			t.Errorf("export lacks %q", key)
		}
	}
	if !bytes.Contains(out.Document.Data, []byte("my name is Rin")) || bytes.Contains(out.Document.Data, []byte("someone else entirely")) {
		t.Errorf("export must hold this user's messages and no one else's")
	}
}

// TestQuietCountsAsABoundaryOnlyWhenItSwitchesOff: a timed pause is no
// seed 003 §2.3 "关闭了AI主动消息功能"; switching proactive messages off is,
// once a month however often it is toggled.
func TestQuietCountsAsABoundaryOnlyWhenItSwitchesOff(t *testing.T) {
	e := newEnv(t)
	boundaries := func() int {
		sigs, _ := e.db.Signals(context.Background(), "telegram:24", time.Time{})
		n := 0
		for _, s := range sigs {
			if s.Tag == string(heart.SignalBoundary) {
				n++
			}
		}
		return n
	}
	e.send(t, msg("24", "/quiet 2h"))
	e.h.Drain()
	u := e.user(t, "telegram:24")
	if u.QuietUntil.Before(time.Now().Add(time.Hour)) || u.QuietUntil.After(time.Now().Add(3*time.Hour)) {
		t.Errorf("quiet until %v, want about 2h from now", u.QuietUntil)
	}
	if n := boundaries(); n != 0 {
		t.Errorf("a timed pause counted as a boundary (%d)", n)
	}
	e.send(t, msg("24", "/quiet off"))
	e.send(t, msg("24", "/quiet"))
	e.h.Drain()
	if u := e.user(t, "telegram:24"); u.Proactive || !u.QuietUntil.IsZero() {
		t.Errorf("/quiet without duration: proactive %v until %v", u.Proactive, u.QuietUntil)
	}
	if n := boundaries(); n != 1 {
		t.Errorf("switching off: %d boundary signals, want 1 (seed 003 §2.3 需要边界)", n)
	}
	e.send(t, msg("24", "/quiet off"))
	e.send(t, msg("24", "/quiet"))
	e.send(t, msg("24", "/quiet"))
	e.send(t, msg("24", "/quiet off"))
	e.h.Drain()
	if u := e.user(t, "telegram:24"); !u.Proactive {
		t.Error("/quiet off did not turn proactive messages back on")
	}
	if n := boundaries(); n != 1 {
		t.Errorf("toggling again: %d boundary signals, want still 1", n)
	}
}

func TestReportAlertsTheOperator(t *testing.T) {
	e := newEnv(t, func(c *bot.Config) {
		c.Operators = []bot.ChatRef{{Platform: bot.PlatformTelegram, ChatID: "ops", Kind: bot.ChatPrivate}}
	})
	e.send(t, msg("25", "/report it said something hurtful"))
	e.h.Drain()
	sigs, _ := e.db.Signals(context.Background(), "telegram:25", time.Time{})
	if len(sigs) != 1 || sigs[0].Tag != string(heart.SignalReport) {
		t.Errorf("signals after /report: %+v", sigs)
	}
	// 003_9b71f6486dad9aaa.txt §2.3: a report is handled urgently, by a person.
	ops := e.out.texts("ops")
	if len(ops) != 1 || !strings.Contains(ops[0], "telegram:25") || !strings.Contains(ops[0], "report") {
		t.Errorf("operator messages after /report: %q", ops)
	}
}

// forbiddenBrain answers every reply with a §7.2 phrase followed by a
// normal sentence.
type forbiddenBrain struct{ *fakeBrain }

func (f forbiddenBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	if req.Kind == bot.KindReply {
		return bot.Response{Text: "I waited for you so long. How was your day?"}, nil
	}
	return f.fakeBrain.Complete(ctx, req)
}

// TestForbiddenPhrasesAreNeverSent: 003_9b71f6486dad9aaa.txt §7.2, whoever
// wrote them.
func TestForbiddenPhrasesAreNeverSent(t *testing.T) {
	e := newEnv(t, func(c *bot.Config) { c.Brain = forbiddenBrain{newFakeBrain()} })
	e.send(t, msg("26", "hi, I'm back"))
	e.h.Drain()
	got := e.out.texts("26")
	if len(got) != 1 || heart.ContainsForbidden(got[0]) || !strings.Contains(got[0], "How was your day?") {
		t.Fatalf("sent %q", got)
	}
}

func TestReactionOnABotMessageIsALike(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("27", "hello"))
	e.h.Drain()
	// The recorder numbers what it sent: m1 is the reply.
	err := e.h.HandleReaction(context.Background(), bot.Reaction{Platform: bot.PlatformTelegram, ChatID: "27", MessageID: "m1", UserID: "27", Emoji: "👍"})
	if err != nil {
		t.Fatal(err)
	}
	// A reaction on someone else's message is not feedback.
	if err := e.h.HandleReaction(context.Background(), bot.Reaction{Platform: bot.PlatformTelegram, ChatID: "27", MessageID: "user-msg", UserID: "27", Emoji: "👍"}); err != nil {
		t.Fatal(err)
	}
	sigs, _ := e.db.Signals(context.Background(), "telegram:27", time.Time{})
	likes := 0
	for _, s := range sigs {
		if s.Tag == string(heart.SignalLike) {
			likes++
		}
	}
	if likes != 1 {
		t.Errorf("%d likes recorded, want 1: %+v", likes, sigs)
	}
}

func TestBudgetExhaustedSwitchesToTheOfflineBrain(t *testing.T) {
	e := newEnv(t, func(c *bot.Config) { c.Persona.Budget.DailyTokens = 20 })
	e.send(t, msg("28", "first message")) // perception 15 + reply 15 tokens: over 20
	e.h.Drain()
	before := e.brain.count(bot.KindReply) + e.brain.count(bot.KindPerception)
	e.send(t, msg("28", "second message"))
	e.h.Drain()
	if after := e.brain.count(bot.KindReply) + e.brain.count(bot.KindPerception); after != before {
		t.Errorf("the paid brain was called %d more times after the budget was spent", after-before)
	}
	if n := len(e.out.texts("28")); n != 2 {
		t.Errorf("%d replies, want 2: the offline brain must answer", n)
	}
	st, err := bot.BuildState(context.Background(), e.db, bot.StateOptions{Persona: testPersona(), Now: time.Now()})
	if err != nil || st.Tokens == nil || st.Tokens.Today != 30 {
		t.Errorf("state tokens = %+v %v", st.Tokens, err)
	}
}
