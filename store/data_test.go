package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func fullUser() User {
	return User{
		ID: "telegram:42", Platform: "telegram", Name: "Ann", PrivateChatID: "42",
		CreatedAt: t0, LastUserAt: t0.Add(time.Minute), LastBotAt: t0.Add(2 * time.Minute),
		Messages: 12, Reflections: 1, Mood: 13.000000000000002,
		LastIntents: []string{"COMPLIMENT", "FLIRT"}, LastEmotion: "happy",
		EmotionHistory: []EmotionRecord{{Emotion: "happy", Confidence: 0.5, Turn: 12}, {Emotion: "sad", Confidence: 0.7, Turn: 11}},
		InnerState:     "I like Ann.", Scratch: "ask about the exam",
		Relationship: json.RawMessage(`{"score":23.5,"state":"acquaintance"}`),
		Proactive:    true, QuietUntil: t0.Add(time.Hour), Unreachable: true,
		EmergencyContact: "Bob +1", EmergencyConsent: true,
	}
}

func TestUserRoundTripIsLossless(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	want := fullUser()
	got, err := db.EnsureUser(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("EnsureUser stored\n%+v\nwant\n%+v", got, want)
	}
	// Nil vs empty lists and nil relationship survive too.
	want.LastIntents, want.EmotionHistory, want.Relationship = []string{}, nil, nil
	want.QuietUntil = time.Time{}
	if err := db.UpdateUser(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := db.User(ctx, want.ID)
	if err != nil || !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("User after update\n%+v (%v %v)\nwant\n%+v", got, ok, err, want)
	}
	if _, ok, err := db.User(ctx, "telegram:nobody"); ok || err != nil {
		t.Fatalf("unknown user: ok=%v err=%v", ok, err)
	}
	if err := db.UpdateUser(ctx, User{ID: "telegram:nobody"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("UpdateUser unknown: %v", err)
	}
}

func TestEnsureUserRefreshesOnlyNameAndPrivateChat(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	first, err := db.EnsureUser(ctx, User{ID: "discord:7", Name: "Old", CreatedAt: t0, Proactive: true, Mood: 5})
	if err != nil {
		t.Fatal(err)
	}
	if first.Platform != "discord" {
		t.Fatalf("platform not derived from id: %q", first.Platform)
	}
	// A group message: new name, no private chat, different defaults.
	got, err := db.EnsureUser(ctx, User{ID: "discord:7", Name: "New", Mood: -50, CreatedAt: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "New" || got.Mood != 5 || !got.CreatedAt.Equal(t0) || !got.Proactive || got.PrivateChatID != "" {
		t.Fatalf("after second EnsureUser: %+v", got)
	}
	got, err = db.EnsureUser(ctx, User{ID: "discord:7", PrivateChatID: "dm-7"})
	if err != nil || got.Name != "New" || got.PrivateChatID != "dm-7" {
		t.Fatalf("third EnsureUser: %+v %v", got, err)
	}
	got, err = db.EnsureUser(ctx, User{ID: "discord:7"})
	if err != nil || got.PrivateChatID != "dm-7" {
		t.Fatalf("empty PrivateChatID erased the known one: %+v %v", got, err)
	}
	mustUser(t, db, "console:zed")
	all, err := db.Users(ctx)
	if err != nil || len(all) != 2 || all[0].ID != "console:zed" || all[1].ID != "discord:7" {
		t.Fatalf("Users = %+v, %v", all, err)
	}
	priv, err := db.UsersWithPrivateChat(ctx)
	if err != nil || len(priv) != 1 || priv[0].ID != "discord:7" {
		t.Fatalf("UsersWithPrivateChat = %+v, %v", priv, err)
	}
}

func inbound(msgID, text string) Inbound {
	return Inbound{Platform: "telegram", ChatID: "42", ChatKind: "private", MessageID: msgID, UserID: "telegram:42",
		UserName: "Ann", Text: text, Modality: "text", Addressed: true, At: t0}
}

func TestInsertInboundDedupe(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	id1, ins, err := db.InsertInbound(ctx, inbound("m1", "hello"))
	if err != nil || !ins || id1 == 0 {
		t.Fatalf("first insert: %d %v %v", id1, ins, err)
	}
	id2, ins, err := db.InsertInbound(ctx, inbound("m1", "hello again"))
	if err != nil || ins || id2 != id1 {
		t.Fatalf("duplicate insert: id=%d inserted=%v err=%v, want %d false", id2, ins, err, id1)
	}
	// Same message id in another chat or platform is a different message.
	other := inbound("m1", "x")
	other.ChatID = "43"
	if id, ins, err := db.InsertInbound(ctx, other); err != nil || !ins || id == id1 {
		t.Fatalf("other chat: %d %v %v", id, ins, err)
	}
	other.Platform, other.ChatID = "discord", "42"
	if _, ins, err := db.InsertInbound(ctx, other); err != nil || !ins {
		t.Fatalf("other platform: %v %v", ins, err)
	}
	// No message id: never deduplicated.
	a, insA, _ := db.InsertInbound(ctx, inbound("", "one"))
	b, insB, _ := db.InsertInbound(ctx, inbound("", "two"))
	if !insA || !insB || a == b {
		t.Fatalf("empty message ids deduplicated: %d %d", a, b)
	}
	pending, err := db.PendingInbound(ctx)
	if err != nil || len(pending) != 5 {
		t.Fatalf("PendingInbound = %d rows, %v", len(pending), err)
	}
	want := inbound("m1", "hello")
	want.ID, want.Status = id1, StatusReceived
	if !reflect.DeepEqual(pending[0], want) {
		t.Fatalf("stored inbound\n%+v\nwant\n%+v", pending[0], want)
	}
}

func TestPendingInboundAndStatus(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	var ids []int64
	for _, m := range []string{"a", "b", "c"} {
		id, _, err := db.InsertInbound(ctx, inbound(m, m))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := db.SetInboundStatus(ctx, ids[1], StatusAnswered); err != nil {
		t.Fatal(err)
	}
	if err := db.SetInboundStatus(ctx, ids[0], StatusSkipped); err != nil {
		t.Fatal(err)
	}
	p, err := db.PendingInbound(ctx)
	if err != nil || len(p) != 1 || p[0].ID != ids[2] {
		t.Fatalf("pending = %+v, %v", p, err)
	}
	if err := db.SetInboundStatus(ctx, ids[2], "bogus"); err == nil {
		t.Fatal("bogus status accepted")
	}
	if err := db.SetInboundStatus(ctx, 999, StatusAnswered); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
}

func outbound(text string) Outbound {
	return Outbound{Platform: "telegram", ChatID: "42", ChatKind: "private", UserID: "telegram:42",
		Kind: "reply", Text: text, CreatedAt: t0}
}

func TestOutboundLedger(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	o1 := outbound("hi")
	o1.Attachment = []byte(`{"photo":{"name":"me.png"}}`)
	id1, err := db.EnqueueOutbound(ctx, o1)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := db.EnqueueOutbound(ctx, outbound("there"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.PendingOutbound(ctx)
	if err != nil || len(p) != 2 || p[0].ID != id1 || p[1].ID != id2 {
		t.Fatalf("pending = %+v, %v", p, err)
	}
	want := o1
	want.ID, want.Status = id1, OutboundPending
	if !reflect.DeepEqual(p[0], want) {
		t.Fatalf("stored outbound\n%+v\nwant\n%+v", p[0], want)
	}

	sentAt := t0.Add(time.Second)
	if err := db.MarkOutbound(ctx, id1, OutboundSent, []string{"501", "502"}, sentAt); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkOutbound(ctx, id2, OutboundFailed, nil, sentAt); err != nil {
		t.Fatal(err)
	}
	if p, err := db.PendingOutbound(ctx); err != nil || len(p) != 0 {
		t.Fatalf("pending after mark = %+v, %v", p, err)
	}
	for _, pid := range []string{"501", "502"} {
		got, ok, err := db.OutboundByPlatformID(ctx, "telegram", "42", pid)
		if err != nil || !ok || got.ID != id1 || got.Status != OutboundSent || !got.SentAt.Equal(sentAt) ||
			!reflect.DeepEqual(got.PlatformIDs, []string{"501", "502"}) {
			t.Fatalf("by platform id %s: %+v %v %v", pid, got, ok, err)
		}
	}
	if _, ok, err := db.OutboundByPlatformID(ctx, "telegram", "43", "501"); ok || err != nil {
		t.Fatalf("other chat matched: %v %v", ok, err)
	}
	// A platform id sent again for another entry (a resend) now names it.
	id3, err := db.EnqueueOutbound(ctx, outbound("again"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MarkOutbound(ctx, id3, OutboundSent, []string{"502"}, sentAt); err != nil {
		t.Fatal(err)
	}
	for pid, want := range map[string]int64{"501": id1, "502": id3} {
		if got, ok, err := db.OutboundByPlatformID(ctx, "telegram", "42", pid); err != nil || !ok || got.ID != want {
			t.Errorf("by platform id %s after the resend: %d %v %v, want %d", pid, got.ID, ok, err, want)
		}
	}
	if err := db.MarkOutbound(ctx, 999, OutboundSent, nil, sentAt); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown outbound: %v", err)
	}
	if err := db.MarkOutbound(ctx, id1, "delivered", nil, sentAt); err == nil {
		t.Fatal("bogus outbound status accepted")
	}
}

func TestMemories(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := "telegram:42"
	for _, m := range []Memory{
		{UserID: u, Slot: 10, Content: "first date", Retention: RetentionConditional, CreatedAt: t0},
		{UserID: u, Slot: 0, Content: "likes tea", CreatedAt: t0},
		{UserID: "telegram:9", Slot: 0, Content: "someone else", CreatedAt: t0},
	} {
		if err := db.PutMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	later := t0.Add(time.Hour)
	if err := db.PutMemory(ctx, Memory{UserID: u, Slot: 0, Content: "likes green tea", Retention: RetentionPermanent, CreatedAt: later, UpdatedAt: later}); err != nil {
		t.Fatal(err)
	}
	ms, err := db.Memories(ctx, u)
	if err != nil || len(ms) != 2 {
		t.Fatalf("Memories = %+v, %v", ms, err)
	}
	want0 := Memory{UserID: u, Slot: 0, Content: "likes green tea", Retention: RetentionPermanent, CreatedAt: t0, UpdatedAt: later}
	if !reflect.DeepEqual(ms[0], want0) || ms[1].Slot != 10 || ms[1].Retention != RetentionConditional {
		t.Fatalf("Memories = %+v", ms)
	}
	for _, bad := range []Memory{{UserID: u, Slot: 100, Content: "x"}, {UserID: u, Slot: -1, Content: "x"}, {UserID: u, Slot: 1, Retention: "forever"}} {
		if err := db.PutMemory(ctx, bad); err == nil {
			t.Errorf("PutMemory(%+v) accepted", bad)
		}
	}
	if ok, err := db.DeleteMemory(ctx, u, 10); err != nil || !ok {
		t.Fatalf("DeleteMemory: %v %v", ok, err)
	}
	if ok, err := db.DeleteMemory(ctx, u, 10); err != nil || ok {
		t.Fatalf("DeleteMemory twice: %v %v", ok, err)
	}
	if n, _, err := db.ForgetAll(ctx, u); err != nil || n != 1 {
		t.Fatalf("ForgetAll: %d %v", n, err)
	}
	if ms, _ := db.Memories(ctx, "telegram:9"); len(ms) != 1 {
		t.Fatal("another user's memory was deleted")
	}
}

func TestPersonaAndCursor(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	if p, err := db.Persona(ctx); p != nil || err != nil {
		t.Fatalf("empty persona = %q, %v", p, err)
	}
	if err := db.SetPersona(ctx, []byte("name: Luna\n"), t0); err != nil {
		t.Fatal(err)
	}
	if err := db.SetPersona(ctx, []byte("name: Sol\n"), t0); err != nil {
		t.Fatal(err)
	}
	if p, err := db.Persona(ctx); string(p) != "name: Sol\n" || err != nil {
		t.Fatalf("persona = %q, %v", p, err)
	}
	if v, err := db.Cursor(ctx, "telegram"); v != "" || err != nil {
		t.Fatalf("unset cursor = %q, %v", v, err)
	}
	for _, v := range []string{"10", "11"} {
		if err := db.SetCursor(ctx, "telegram", v); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := db.Cursor(ctx, "telegram"); v != "11" || err != nil {
		t.Fatalf("cursor = %q, %v", v, err)
	}
}

func TestSignalsUsageProactiveDaily(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	a, b := "telegram:1", "telegram:2"
	if err := db.AddSignals(ctx,
		Signal{UserID: a, At: t0, Tag: "like", Points: 2, Weight: 1, Modality: "reaction"},
		Signal{UserID: a, At: t0.Add(-48 * time.Hour), Tag: "old"},
		Signal{UserID: b, At: t0, Tag: "other"}); err != nil {
		t.Fatal(err)
	}
	s, err := db.Signals(ctx, a, t0.Add(-time.Hour))
	if err != nil || len(s) != 1 || !reflect.DeepEqual(s[0], Signal{UserID: a, At: t0, Tag: "like", Points: 2, Weight: 1, Modality: "reaction"}) {
		t.Fatalf("Signals = %+v, %v", s, err)
	}
	if all, _ := db.Signals(ctx, "", time.Time{}); len(all) != 3 || all[0].Tag != "old" {
		t.Fatalf("all signals = %+v", all)
	}

	if err := db.AddUsage(ctx,
		Usage{At: t0, Kind: "reply", UserID: a, Prompt: 100, Completion: 20},
		Usage{At: t0, Kind: "reply", UserID: b, Prompt: 5, Completion: 5},
		Usage{At: t0, Kind: "reply", UserID: a, Prompt: 1000, Completion: 1000, Offline: true},
		Usage{At: t0.Add(-25 * time.Hour), Kind: "reply", UserID: a, Prompt: 7}); err != nil {
		t.Fatal(err)
	}
	day := t0.Add(-time.Hour)
	if n, err := db.TokensSince(ctx, day, ""); n != 130 || err != nil {
		t.Fatalf("TokensSince all = %d, %v; want 130", n, err)
	}
	if n, err := db.TokensSince(ctx, day, a); n != 120 || err != nil {
		t.Fatalf("TokensSince a = %d, %v; want 120", n, err)
	}
	if n, err := db.TokensSince(ctx, t0.Add(time.Hour), ""); n != 0 || err != nil {
		t.Fatalf("TokensSince future = %d, %v", n, err)
	}

	for i, outcome := range []string{"gated", "sent", "silent"} {
		if err := db.LogProactive(ctx, Proactive{UserID: a, At: t0.Add(time.Duration(-i) * time.Hour), Outcome: outcome, Reason: "r", Text: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	log, err := db.ProactiveLog(ctx, a, t0.Add(-90*time.Minute))
	if err != nil || len(log) != 2 || log[0].Outcome != "sent" || log[1].Outcome != "gated" || !log[1].At.Equal(t0) {
		t.Fatalf("ProactiveLog = %+v, %v", log, err)
	}

	for _, p := range []DailyPoint{{a, "2026-03-13", 1, 10}, {a, "2026-03-14", 2, 20}, {a, "2026-03-14", 3, 30}, {b, "2026-03-14", 9, 9}, {a, "2026-03-01", 0, 0}} {
		if err := db.PutDailyPoint(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	pts, err := db.DailyPoints(ctx, a, "2026-03-10")
	want := []DailyPoint{{a, "2026-03-13", 1, 10}, {a, "2026-03-14", 3, 30}}
	if err != nil || !reflect.DeepEqual(pts, want) {
		t.Fatalf("DailyPoints = %+v, %v", pts, err)
	}
	if err := db.PutDailyPoint(ctx, DailyPoint{UserID: a, Day: "March 1"}); err == nil {
		t.Fatal("malformed day accepted")
	}
}

func TestExportHasEveryRowOfTheUserOnly(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := fullUser()
	if _, err := db.EnsureUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	mustUser(t, db, "telegram:other")
	inID, _, _ := db.InsertInbound(ctx, inbound("m1", "hello"))
	otherIn := inbound("m2", "not mine")
	otherIn.UserID = "telegram:other"
	_, _, _ = db.InsertInbound(ctx, otherIn)
	if _, err := db.CommitTurn(ctx, Turn{InboundID: inID, User: u,
		Episode:  Episode{UserID: u.ID, Platform: "telegram", ChatID: "42", UserText: "hello", ReplyText: "hi", At: t0},
		Reply:    ptr(outbound("hi")),
		Memories: []Memory{{UserID: u.ID, Slot: 1, Content: "c", CreatedAt: t0}},
		Signals:  []Signal{{UserID: u.ID, At: t0, Tag: "s"}},
		Daily:    &DailyPoint{UserID: u.ID, Day: "2026-03-14"}}); err != nil {
		t.Fatal(err)
	}
	if err := db.LogProactive(ctx, Proactive{UserID: u.ID, At: t0, Outcome: "sent"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CommitGift(ctx, Gift{TransactionID: "tx1", UserID: u.ID, Item: "rose", At: t0, Result: json.RawMessage(`{"ok":true}`)}, User{}, nil); err != nil {
		t.Fatal(err)
	}
	x, err := db.Export(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if x.User.ID != u.ID || len(x.Inbound) != 1 || len(x.Outbound) != 1 || len(x.Episodes) != 1 || len(x.Memories) != 1 ||
		len(x.Signals) != 1 || len(x.Proactive) != 1 || len(x.Daily) != 1 || len(x.Gifts) != 1 {
		t.Fatalf("export = %+v", x)
	}
	raw, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"user", "inbound", "outbound", "episodes", "memories", "signals", "proactive", "daily", "gifts"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("export JSON lacks %q", k)
		}
	}
	empty, err := db.Export(ctx, "telegram:other")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = json.Marshal(empty)
	if json.Unmarshal(raw, &keys); string(keys["memories"]) != "[]" || len(empty.Inbound) != 1 {
		t.Fatalf("other user's export = %s", raw)
	}
	if _, err := db.Export(ctx, "telegram:ghost"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown user export: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
