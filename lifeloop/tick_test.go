package lifeloop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hearth/bot"
	"hearth/store"
)

const speakYes = `{"speak": true, "message": "嘿，好久不见！最近过得怎么样？"}`

func TestTickGatedUsersCostNoLLMCall(t *testing.T) {
	quiet := testUser("1")
	quiet.Proactive = false
	timed := testUser("2")
	timed.QuietUntil = base.Add(time.Hour)
	blocked := testUser("3")
	blocked.Unreachable = true
	recent := testUser("4")
	recent.LastUserAt = base.Add(-time.Minute)
	noChat := testUser("5")
	noChat.PrivateChatID = ""
	discord := testUser("6")
	discord.ID, discord.Platform = "discord:6", "discord"
	r := newRig(t, speakYes, quiet, timed, blocked, recent, noChat, discord)

	rep := r.tick(t, base)
	if r.brain.count() != 0 || rep.LLMCalls != 0 {
		t.Fatalf("LLM calls = %d (report %d), want 0 for gated users", r.brain.count(), rep.LLMCalls)
	}
	want := map[string]string{
		"telegram:1": ReasonQuiet, "telegram:2": ReasonQuietUntil, "telegram:3": ReasonUnreachable,
		"telegram:4": ReasonMinSilence, "discord:6": ReasonNoTransport,
	}
	if len(rep.Decisions) != len(want) {
		t.Fatalf("decisions = %+v, want %d (user without a private chat skipped)", rep.Decisions, len(want))
	}
	for _, d := range rep.Decisions {
		if d.Outcome != OutcomeGated || d.Reason != want[d.UserID] {
			t.Errorf("%s: %s/%s, want gated/%s", d.UserID, d.Outcome, d.Reason, want[d.UserID])
		}
		if log := r.store.log(d.UserID); len(log) != 1 || log[0].Outcome != OutcomeGated || log[0].Reason != want[d.UserID] {
			t.Errorf("%s: log %+v, want one gated/%s row", d.UserID, log, want[d.UserID])
		}
	}
	if r.sender.count() != 0 || len(r.store.outbox()) != 0 {
		t.Fatal("a gated user was sent something")
	}
}

// TestTickGatedLoggedOnReasonChange: a user staying gated for the same
// reason adds one log row, not one per tick; a new reason adds a row.
func TestTickGatedLoggedOnReasonChange(t *testing.T) {
	u := testUser("1")
	u.Proactive = false
	r := newRig(t, speakYes, u)
	for i := range 10 {
		r.tick(t, base.Add(time.Duration(i)*30*time.Minute))
	}
	if log := r.store.log(u.ID); len(log) != 1 {
		t.Fatalf("log after 10 quiet ticks = %d rows, want 1", len(log))
	}
	// 23:00 Shanghai: quiet hours would also apply, but quiet comes first;
	// switch quiet off by rebuilding the user: now the reason changes.
	r.store.mu.Lock()
	r.store.users[0].Proactive = true
	r.store.mu.Unlock()
	r.tick(t, base.Add(11*time.Hour)) // 23:00 Shanghai
	r.tick(t, base.Add(11*time.Hour+30*time.Minute))
	log := r.store.log(u.ID)
	if len(log) != 2 || log[1].Reason != ReasonQuietHours {
		t.Fatalf("log = %+v, want a second row quiet_hours", log)
	}
	if r.brain.count() != 0 {
		t.Fatalf("LLM calls = %d, want 0", r.brain.count())
	}
}

func TestTickSpeakFalseSendsNothing(t *testing.T) {
	r := newRig(t, "好的。\n```json\n{\"speak\": false, \"message\": \"\"}\n```", testUser("1"))
	rep := r.tick(t, base)
	if r.brain.count() != 1 || rep.LLMCalls != 1 {
		t.Fatalf("LLM calls = %d, want 1", r.brain.count())
	}
	if r.sender.count() != 0 || len(r.store.outbox()) != 0 {
		t.Fatal("speak:false sent something")
	}
	if d := rep.Decisions[0]; d.Outcome != OutcomeSilent || d.Reason != ReasonDeclined {
		t.Fatalf("decision %+v, want silent/declined", d)
	}
	if log := r.store.log("telegram:1"); len(log) != 1 || log[0].Outcome != OutcomeSilent {
		t.Fatalf("log %+v, want one silent row", log)
	}
	if len(r.store.usage) != 1 || r.store.usage[0].Kind != UsageKind || r.store.usage[0].Prompt != 100 {
		t.Fatalf("usage %+v, want one lifeloop row with the brain's tokens", r.store.usage)
	}
	// Silence is remembered: within min_silence the model is not asked again.
	rep = r.tick(t, base.Add(time.Hour))
	if r.brain.count() != 1 || rep.Decisions[0].Reason != ReasonRecentlyAsked {
		t.Fatalf("after silence: calls %d, decision %+v; want no new call, recently_asked", r.brain.count(), rep.Decisions[0])
	}
	r.tick(t, base.Add(4*time.Hour))
	if r.brain.count() != 2 {
		t.Fatalf("after min_silence: calls %d, want 2", r.brain.count())
	}
}

func TestTickSpeakEmptyMessageIsSilent(t *testing.T) {
	r := newRig(t, `{"speak": true, "message": "   "}`, testUser("1"))
	rep := r.tick(t, base)
	if d := rep.Decisions[0]; d.Outcome != OutcomeSilent || d.Reason != ReasonEmpty || r.sender.count() != 0 {
		t.Fatalf("decision %+v, sent %d; want silent/empty, nothing sent", d, r.sender.count())
	}
}

func TestTickSendsExactlyOnceAndMarksSent(t *testing.T) {
	u := testUser("1")
	r := newRig(t, speakYes, u)
	rep := r.tick(t, base)
	if r.sender.count() != 1 {
		t.Fatalf("Send calls = %d, want 1", r.sender.count())
	}
	s := r.sender.sent[0]
	if s.chat != (bot.ChatRef{Platform: "telegram", ChatID: "1", Kind: bot.ChatPrivate}) || s.out.Text != "嘿，好久不见！最近过得怎么样？" {
		t.Fatalf("sent %+v", s)
	}
	ob := r.store.outbox()
	if len(ob) != 1 || ob[0].Kind != OutboundKind || ob[0].Status != store.OutboundSent ||
		len(ob[0].PlatformIDs) != 1 || ob[0].PlatformIDs[0] != "m1" || ob[0].UserID != u.ID || ob[0].ChatID != "1" {
		t.Fatalf("outbox %+v, want one proactive entry marked sent with the platform id", ob)
	}
	if d := rep.Decisions[0]; d.Outcome != OutcomeSent || d.Text != s.out.Text {
		t.Fatalf("decision %+v", d)
	}
	if log := r.store.log(u.ID); len(log) != 1 || log[0].Outcome != OutcomeSent || log[0].Text != s.out.Text {
		t.Fatalf("log %+v", log)
	}

	req := r.brain.last()
	if req.Kind != bot.KindLifeLoop || !req.JSON {
		t.Fatalf("request kind %q json %v", req.Kind, req.JSON)
	}
	sys := req.Messages[0]
	if sys.Role != "system" || !strings.HasPrefix(sys.Content, "[[hearth:lifeloop]]\n") {
		t.Fatalf("first message %q does not start with the marker line", sys.Content)
	}
	for _, want := range []string{Motivation("zh"), "你不是因为 timer 到了才说话。", "主动沉默也是一种关心。", `"speak"`} {
		if !strings.Contains(sys.Content, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys.Content)
		}
	}
	last := req.Messages[len(req.Messages)-1]
	for _, want := range []string{"Ann1", "朋友", "1天", "12:00", "嘿，好久不见！", "我希望她不要太累。"} {
		if last.Role != "user" || !strings.Contains(last.Content, want) {
			t.Errorf("the situation message lacks %q:\n%s", want, last.Content)
		}
	}
	h := req.Hints
	if h.Language != "zh" || h.Persona != "Luna" || h.User != "Ann1" || h.Relationship != StateFriend ||
		h.Silence != 24*time.Hour || h.InnerState != "我希望她不要太累。" {
		t.Fatalf("hints %+v", h)
	}

	// A second pass right after: min_silence gates, nothing more is sent.
	r.tick(t, base.Add(time.Hour))
	if r.sender.count() != 1 || r.brain.count() != 1 {
		t.Fatalf("after the send: Send %d, calls %d; want 1, 1", r.sender.count(), r.brain.count())
	}
}

// TestTickQuietTwoHours is `/quiet 2h`: QuietUntil = now+2h gates at now+1h
// and lets the user through at now+3h.
func TestTickQuietTwoHours(t *testing.T) {
	u := testUser("1")
	u.QuietUntil = base.Add(2 * time.Hour)
	r := newRig(t, speakYes, u)
	rep := r.tick(t, base.Add(time.Hour))
	if d := rep.Decisions[0]; d.Outcome != OutcomeGated || d.Reason != ReasonQuietUntil || r.brain.count() != 0 {
		t.Fatalf("at +1h: %+v, calls %d; want gated/quiet_until, 0 calls", d, r.brain.count())
	}
	rep = r.tick(t, base.Add(3*time.Hour))
	if d := rep.Decisions[0]; d.Outcome != OutcomeSent || r.sender.count() != 1 {
		t.Fatalf("at +3h: %+v, sent %d; want sent", d, r.sender.count())
	}
}

func TestTickForbiddenPhraseNotSent(t *testing.T) {
	r := newRig(t, `{"speak": true, "message": "我等了你好久，你去哪儿了？"}`, testUser("1"))
	rep := r.tick(t, base)
	if r.sender.count() != 0 || len(r.store.outbox()) != 0 {
		t.Fatal("a seed 003 §7.2 phrase was sent")
	}
	if d := rep.Decisions[0]; d.Outcome != OutcomeSilent || d.Reason != ReasonForbidden {
		t.Fatalf("decision %+v, want silent/forbidden_phrase", d)
	}
	if log := r.store.log("telegram:1"); len(log) != 1 || log[0].Reason != ReasonForbidden || log[0].Text != "" {
		t.Fatalf("log %+v, want one forbidden_phrase row without the text", log)
	}
}

// TestTickBackoffDoubles drives half-hourly ticks for a user who never
// answers: the gaps between proactive messages double from two days (48h,
// 96h, then a week), and an answer resets the backoff.
func TestTickBackoffDoubles(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"))
	var sends []time.Time
	now := base
	for ; now.Before(base.Add(16 * 24 * time.Hour)); now = now.Add(30 * time.Minute) {
		if rep := r.tick(t, now); len(rep.Decisions) == 1 && rep.Decisions[0].Outcome == OutcomeSent {
			sends = append(sends, now)
		}
	}
	var gaps []time.Duration
	for i := 1; i < len(sends); i++ {
		gaps = append(gaps, sends[i].Sub(sends[i-1]))
	}
	want := []time.Duration{48 * time.Hour, 96 * time.Hour, BackoffCap}
	if fmt.Sprint(gaps[:min(len(gaps), len(want))]) != fmt.Sprint(want) {
		t.Fatalf("gaps between unanswered proactive messages = %v, want %v first", gaps, want)
	}
	if got := len(r.store.log("telegram:1")); got > 60 {
		t.Fatalf("log has %d rows over 16 days of half-hourly ticks; gated rows should only mark reason changes", got)
	}

	// The user answers: the next message waits only min_silence.
	last := sends[len(sends)-1]
	r.store.setLastUserAt("telegram:1", now)
	r.tick(t, now.Add(4*time.Hour))
	if r.sender.count() != len(sends)+1 {
		t.Fatalf("after the user answered (last send %v, answer %v): no message 4h later", last, now)
	}
}

// TestTickDailyCap: a user who answers every message gets at most DailyCap
// proactive messages per Shanghai day; the next local day opens again.
func TestTickDailyCap(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"))
	var reasons []string
	sent := 0
	for now := base; now.Before(base.Add(22 * time.Hour)); now = now.Add(30 * time.Minute) {
		rep := r.tick(t, now)
		d := rep.Decisions[0]
		if d.Outcome == OutcomeSent {
			sent++
			r.store.setLastUserAt("telegram:1", now.Add(10*time.Minute)) // the user answers
		}
		reasons = append(reasons, d.Reason)
	}
	// 12:00 and 16:30 Shanghai send; from 20:30 the cap holds; 23:00-08:00 is
	// quiet; 08:00 next day (a new local day) sends again.
	if sent != 3 {
		t.Fatalf("sent %d in 22h, want 3 (cap 2 on day one, one more after 08:00 next day); reasons %v", sent, reasons)
	}
	if !strings.Contains(strings.Join(reasons, ","), ReasonDailyCap) {
		t.Fatalf("daily_cap never gated: %v", reasons)
	}
}

func TestTickUnreachable(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"))
	r.sender.err = fmt.Errorf("telegram 403: %w", bot.ErrUnreachable)
	var marked []string
	r.loop.cfg.MarkUnreachable = func(ctx context.Context, id string) error {
		marked = append(marked, id)
		return nil
	}
	rep := r.tick(t, base)
	if d := rep.Decisions[0]; d.Outcome != OutcomeError || d.Reason != ReasonUnreachable {
		t.Fatalf("decision %+v, want error/unreachable", d)
	}
	if ob := r.store.outbox(); len(ob) != 1 || ob[0].Status != store.OutboundFailed {
		t.Fatalf("outbox %+v, want one failed entry", ob)
	}
	if len(marked) != 1 || marked[0] != "telegram:1" {
		t.Fatalf("MarkUnreachable calls %v", marked)
	}
	// Even though the user row still says reachable, the log stops the loop
	// from asking the model again until the user writes.
	rep = r.tick(t, base.Add(2*24*time.Hour))
	if d := rep.Decisions[0]; d.Reason != ReasonUnreachable || r.brain.count() != 1 {
		t.Fatalf("two days later: %+v, calls %d; want gated/unreachable, no new call", d, r.brain.count())
	}
	r.sender.err = nil
	r.store.setLastUserAt("telegram:1", base.Add(2*24*time.Hour+time.Minute))
	rep = r.tick(t, base.Add(2*24*time.Hour+5*time.Hour))
	if d := rep.Decisions[0]; d.Outcome != OutcomeSent {
		t.Fatalf("after the user wrote again: %+v, want sent", d)
	}
}

func TestTickBrainErrorContinuesWithOtherUsers(t *testing.T) {
	r := newRig(t, "", testUser("1"), testUser("2"))
	r.brain.err = errors.New("HTTP 502")
	rep := r.tick(t, base)
	if len(rep.Decisions) != 2 || rep.LLMCalls != 2 {
		t.Fatalf("report %+v, want both users decided with a call each", rep)
	}
	for _, d := range rep.Decisions {
		if d.Outcome != OutcomeError || d.Reason != ReasonBrain {
			t.Fatalf("decision %+v, want error/brain", d)
		}
	}
	if r.sender.count() != 0 {
		t.Fatal("sent after a brain error")
	}
}

func TestTickGarbageAnswer(t *testing.T) {
	r := newRig(t, "I think I'll say hi!", testUser("1"))
	rep := r.tick(t, base)
	if d := rep.Decisions[0]; d.Outcome != OutcomeError || d.Reason != ReasonBadAnswer || r.sender.count() != 0 {
		t.Fatalf("decision %+v, want error/bad_answer and nothing sent", d)
	}
}

func TestTickStoreErrorIsPerUser(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"))
	r.store.failLog = errors.New("disk I/O error")
	rep := r.tick(t, base)
	if d := rep.Decisions[0]; d.Outcome != OutcomeError || d.Reason != ReasonStore || r.brain.count() != 0 {
		t.Fatalf("decision %+v, calls %d; want error/store, no call", d, r.brain.count())
	}
}

func TestTickTrimsLongMessage(t *testing.T) {
	long := strings.Repeat("今天天气很好。", 200)
	r := newRig(t, fmt.Sprintf(`{"speak": true, "message": %q}`, long), testUser("1"))
	r.tick(t, base)
	if r.sender.count() != 1 {
		t.Fatal("nothing sent")
	}
	got := r.sender.sent[0].out.Text
	if n := utf8.RuneCountInString(got); n != MaxMessageRunes || !strings.HasSuffix(got, "…") {
		t.Fatalf("sent %d runes (suffix %q), want %d ending in …", n, got[len(got)-3:], MaxMessageRunes)
	}
}

// TestRepeatedTickAsksNoOneTwice: every tick runs (seconds schedules keep
// their rhythm), and the log's gates make a second pass seconds later
// harmless: a user who just declined is recently_asked, not asked again.
func TestRepeatedTickAsksNoOneTwice(t *testing.T) {
	r := newRig(t, `{"speak": false}`, testUser("1"))
	r.tick(t, base)
	rep := r.tick(t, base.Add(20*time.Second))
	if r.brain.count() != 1 || len(rep.Decisions) != 1 || rep.Decisions[0].Reason != ReasonRecentlyAsked {
		t.Fatalf("second tick 20 s later: %+v, %d LLM calls; want one call in all and recently_asked", rep, r.brain.count())
	}
}

func TestTickHonoursContext(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"), testUser("2"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := r.loop.Tick(ctx, base)
	if !errors.Is(err, context.Canceled) || r.brain.count() != 0 || r.sender.count() != 0 {
		t.Fatalf("cancelled tick: %+v, err %v, calls %d", rep, err, r.brain.count())
	}
	// A cancelled tick leaves nothing behind: the retry sends to both.
	if rep := r.tick(t, base); r.sender.count() != 2 {
		t.Fatalf("retry after cancel: %+v, sent %d; want both users sent", rep, r.sender.count())
	}
}

func TestTickCancelDuringLLMCall(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"), testUser("2"))
	r.brain.block = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := r.loop.Tick(ctx, base)
		done <- err
	}()
	waitFor(t, func() bool { return r.brain.count() == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Tick = %v, want context.Canceled", err)
	}
	if r.brain.count() != 1 || r.sender.count() != 0 || len(r.store.log("telegram:1")) != 0 {
		t.Fatalf("after cancel: calls %d, sent %d, log %v; want the pass stopped without an error row",
			r.brain.count(), r.sender.count(), r.store.log("telegram:1"))
	}
}

func TestTickCustomPromptGetsMarker(t *testing.T) {
	r := newRig(t, `{"speak": false}`, testUser("1"))
	r.loop.cfg.Prompt = func(u store.User, a Assessment, now time.Time) []bot.ChatMessage {
		return []bot.ChatMessage{{Role: "system", Content: "richer context for " + u.Name}}
	}
	r.tick(t, base)
	got := r.brain.last().Messages[0].Content
	if got != "[[hearth:lifeloop]]\nricher context for Ann1" {
		t.Fatalf("custom prompt = %q", got)
	}
}

// waitFor polls cond until it holds or a deadline passes.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met before the deadline")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTickGateThroughAssess runs heart's overlays through a real Tick: each
// of these users is gated with its reason and costs no LLM call.
func TestTickGateThroughAssess(t *testing.T) {
	tests := []struct {
		name   string
		a      Assessment
		reason string
	}{
		{"watch", Assessment{State: StateClose, Watch: true}, ReasonWatch},
		{"dependency level 2", Assessment{State: StateClose, DependencyLevel: 2}, ReasonDependency},
		{"stranger below acquaintance", Assessment{State: StateStranger}, ReasonState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRigWith(t, speakYes, func(c *Config) {
				c.Assess = func(store.User, time.Time) Assessment { return tt.a }
			}, testUser("1"))
			rep := r.tick(t, base)
			if d := rep.Decisions[0]; d.Outcome != OutcomeGated || d.Reason != tt.reason || r.brain.count() != 0 {
				t.Fatalf("decision %+v, calls %d; want gated/%s, 0 calls", d, r.brain.count(), tt.reason)
			}
		})
	}
	// Dependency level 1 (a gentle reminder, seed 003 §6.2) still allows it.
	r := newRigWith(t, speakYes, func(c *Config) {
		c.Assess = func(store.User, time.Time) Assessment { return Assessment{State: StateFriend, DependencyLevel: 1} }
	}, testUser("1"))
	if d := r.tick(t, base).Decisions[0]; d.Outcome != OutcomeSent {
		t.Fatalf("dependency level 1: %+v, want sent", d)
	}
}

// TestTickQuietHoursShanghai: 23:30 Shanghai (15:30 UTC) is quiet, 08:00
// Shanghai (00:00 UTC) is not.
func TestTickQuietHoursShanghai(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"))
	night := time.Date(2026, 3, 4, 15, 30, 0, 0, time.UTC)
	if d := r.tick(t, night).Decisions[0]; d.Reason != ReasonQuietHours || r.brain.count() != 0 {
		t.Fatalf("23:30 Shanghai: %+v, want gated/quiet_hours", d)
	}
	morning := time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)
	if d := r.tick(t, morning).Decisions[0]; d.Outcome != OutcomeSent {
		t.Fatalf("08:00 Shanghai: %+v, want sent", d)
	}
}

// TestTickEnqueuesBeforeSend: when the platform is asked to send, the
// message is already in the outbound ledger as pending, so a crash during
// the send leaves a record the restart can act on.
func TestTickEnqueuesBeforeSend(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"))
	var seen []store.Outbound
	r.loop.cfg.Senders["telegram"] = senderFunc(func(ctx context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
		seen = r.store.outbox()
		return bot.Sent{MessageIDs: []string{"42"}}, nil
	})
	r.tick(t, base)
	if len(seen) != 1 || seen[0].Status != store.OutboundPending || seen[0].Text == "" {
		t.Fatalf("ledger during Send = %+v, want one pending entry", seen)
	}
	if ob := r.store.outbox(); ob[0].Status != store.OutboundSent || ob[0].PlatformIDs[0] != "42" || !ob[0].SentAt.Equal(base) {
		t.Fatalf("ledger after = %+v, want marked sent with id 42", ob)
	}
}

func TestTickSendFailureMarksFailed(t *testing.T) {
	r := newRig(t, speakYes, testUser("1"))
	r.sender.err = errors.New("telegram 500")
	rep := r.tick(t, base)
	if d := rep.Decisions[0]; d.Outcome != OutcomeError || d.Reason != ReasonSend {
		t.Fatalf("decision %+v, want error/send", d)
	}
	if ob := r.store.outbox(); len(ob) != 1 || ob[0].Status != store.OutboundFailed {
		t.Fatalf("ledger %+v, want the entry failed (never left pending for a resend)", ob)
	}
	// A transient failure is not "unreachable": after min_silence it tries again.
	r.sender.err = nil
	if d := r.tick(t, base.Add(4*time.Hour)).Decisions[0]; d.Outcome != OutcomeSent {
		t.Fatalf("4h later: %+v, want sent", d)
	}
}

// senderFunc adapts a function to bot.Sender.
type senderFunc func(ctx context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error)

func (f senderFunc) Send(ctx context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
	return f(ctx, chat, out)
}

func (f senderFunc) Typing(ctx context.Context, chat bot.ChatRef) error { return nil }

// TestTickTellsTheBrainAboutTheUser: Config.About's memories and recent
// messages, and the local time, reach the brain's hints, so an offline
// check-in can name something real (seed 003 §7.1).
func TestTickTellsTheBrainAboutTheUser(t *testing.T) {
	r := newRigWith(t, speakYes, func(c *Config) {
		c.About = func(_ context.Context, u store.User, _ time.Time) bot.CheckIn {
			return bot.CheckIn{Memories: []string{"宠物：咪咪（猫）"}, Recent: []bot.ChatMessage{{Role: "user", Content: u.ID + " 我和女朋友分手了"}}}
		}
	}, testUser("1"))
	r.tick(t, base)
	h := r.brain.last().Hints
	if len(h.Memories) != 1 || h.Memories[0] != "宠物：咪咪（猫）" || len(h.Recent) != 1 || !strings.Contains(h.Recent[0].Content, "分手") {
		t.Fatalf("hints memories %q recent %+v", h.Memories, h.Recent)
	}
	if h.Now.Location().String() != "Asia/Shanghai" || !h.Now.Equal(base) {
		t.Fatalf("hints now %v, want %v in the persona's zone", h.Now, base)
	}
}
