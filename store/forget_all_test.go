package store

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// petAndFriend is a user who told of a dog, Biscuit (memory slot 3), and
// a friend, Jolyon (slot 5), in two turns.
func petAndFriend(t *testing.T, db *DB) User {
	t.Helper()
	u := mustUser(t, db, "telegram:42")
	saidTurn(t, db, u, 1, "My dog is called Biscuit", "Biscuit, what a good name for a dog.", 3, "Pets: Biscuit (dog)")
	saidTurn(t, db, u, 2, "my friend Jolyon is visiting next week", "Jolyon, your friend. I'll remember.", 5, "People: Jolyon (friend)")
	return u
}

// saidTurn commits one answered, delivered turn of u in which the user
// said text and the bot answered reply, with memory (slot, content) when
// content is not empty.
func saidTurn(t *testing.T, db *DB, u User, i int, text, reply string, slot int, content string) {
	t.Helper()
	ctx := context.Background()
	inID, _, err := db.InsertInbound(ctx, inbound("s"+strconv.Itoa(i), text))
	if err != nil {
		t.Fatal(err)
	}
	tr := realTurn(inID, u, i)
	tr.Episode.UserText, tr.Episode.ReplyText, tr.Episode.TopicTags = text, reply, []string{"chat"}
	tr.Reply.Text = reply
	tr.Memories = nil
	if content != "" {
		tr.Memories = []Memory{{UserID: u.ID, Slot: slot, Content: content, CreatedAt: tr.Episode.At}}
	}
	ids, err := db.CommitTurn(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MarkOutbound(ctx, ids[0], OutboundSent, []string{"p" + strconv.Itoa(i)}, tr.Episode.At); err != nil {
		t.Fatal(err)
	}
}

// recallTexts is what a private-chat recall of query finds for userID.
func recallTexts(t *testing.T, db *DB, userID, query string) []string {
	t.Helper()
	hits, err := db.Recall(context.Background(), RecallQuery{UserID: userID, Text: query, Scope: RecallPrivate})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.UserText+" / "+h.ReplyText)
	}
	return out
}

// TestForgetAllForgetsWhatWasSaid: /forget all leaves nothing the user
// said before in any text a prompt is built from (the conversation
// history, recall, /why, the life loop's notes), nor in the file; the
// episodes keep their emotion values; what is said afterwards is stored
// and recalled again (seed 003 §8.1 绝对删除).
func TestForgetAllForgetsWhatWasSaid(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	u := petAndFriend(t, db)
	if err := db.LogProactive(ctx, Proactive{UserID: u.ID, At: t0, Outcome: "sent", Reason: "follow_up", Text: "How was Jolyon's visit?"}); err != nil {
		t.Fatal(err)
	}
	u, _, _ = db.User(ctx, u.ID)
	u.InnerState, u.Scratch = "Ann loves Biscuit.", "ask about Jolyon"
	if err := db.UpdateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if got := recallTexts(t, db, u.ID, "Biscuit"); len(got) == 0 {
		t.Fatal("precondition: Biscuit not recalled before forgetting")
	}

	mems, eps, err := db.ForgetAll(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if mems != 2 || eps != 2 {
		t.Errorf("ForgetAll = %d memories, %d episodes; want 2, 2", mems, eps)
	}
	hist, err := db.ChatHistory(ctx, "telegram", "42", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 {
		t.Fatalf("episodes after /forget all: %d, want 2 (they stay)", len(hist))
	}
	for _, e := range hist {
		if e.UserText != "" || e.ReplyText != "" || len(e.TopicTags) != 0 {
			t.Errorf("episode %d still says %q / %q %v", e.ID, e.UserText, e.ReplyText, e.TopicTags)
		}
		if !e.HasValues || e.Label != "joy" || e.Intensity != 0.6 {
			t.Errorf("episode %d lost its emotion values: %+v", e.ID, e)
		}
	}
	for _, q := range []string{"Biscuit", "Jolyon", "dog", "friend"} {
		if got := recallTexts(t, db, u.ID, q); len(got) != 0 {
			t.Errorf("recall of %q after /forget all: %q", q, got)
		}
	}
	if eps, err := db.SalientEpisodes(ctx, u.ID, t0.Add(-time.Hour), t0.Add(time.Hour), 0, 0); err != nil || len(eps) != 0 {
		t.Errorf("a return's heavy topic could quote %+v (%v)", eps, err)
	}
	x, err := db.Export(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if x.User.InnerState != "" || x.User.Scratch != "" {
		t.Errorf("notes after /forget all: %q %q", x.User.InnerState, x.User.Scratch)
	}
	for _, m := range x.Inbound {
		if m.Text != "" {
			t.Errorf("inbound %d still says %q", m.ID, m.Text)
		}
	}
	for _, o := range x.Outbound {
		if o.Text != "" {
			t.Errorf("outbound %d still says %q", o.ID, o.Text)
		}
	}
	if len(x.Proactive) != 1 || x.Proactive[0].Text != "" || x.Proactive[0].Reason != "follow_up" {
		t.Errorf("proactive log after /forget all: %+v (the reason is a code the gate reads)", x.Proactive)
	}
	main, wal := fileBytes(t, path)
	for _, secret := range []string{"Biscuit", "Jolyon"} {
		if bytes.Contains(main, []byte(secret)) || bytes.Contains(wal, []byte(secret)) {
			t.Errorf("%q still on disk after /forget all", secret)
		}
	}

	// What the user says afterwards is remembered again.
	u, _, _ = db.User(ctx, u.ID)
	saidTurn(t, db, u, 3, "I adopted a cat called Pumpernickel", "Pumpernickel! Welcome to the family.", 3, "Pets: Pumpernickel (cat)")
	if got := recallTexts(t, db, u.ID, "Pumpernickel"); len(got) == 0 {
		t.Error("what was said after /forget all is not recalled")
	}
	if hist, _ := db.ChatHistory(ctx, "telegram", "42", 0); len(hist) != 3 || hist[2].UserText == "" {
		t.Errorf("history after a new turn: %+v", hist)
	}

	// A second /forget all finds the new words; a third, nothing.
	if mems, eps, err := db.ForgetAll(ctx, u.ID); err != nil || mems != 1 || eps != 1 {
		t.Errorf("second ForgetAll = %d, %d, %v; want 1, 1", mems, eps, err)
	}
	if mems, eps, err := db.ForgetAll(ctx, u.ID); err != nil || mems != 0 || eps != 0 {
		t.Errorf("third ForgetAll = %d, %d, %v; want 0, 0", mems, eps, err)
	}
}

// TestForgetAllKeepsOthersAndWhatIsQueued: another user's words stay, and
// so does a message of the user's still waiting for its turn (it comes
// after the /forget all) and a reply not yet delivered.
func TestForgetAllKeepsOthersAndWhatIsQueued(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := mustUser(t, db, "telegram:42")
	other := mustUser(t, db, "telegram:7")
	saidTurn(t, db, other, 1, "my cat is Quillon", "Quillon is a fine name.", 3, "Pets: Quillon (cat)")
	queued := inbound("q1", "and Biscuit ate my sock")
	qID, _, err := db.InsertInbound(ctx, queued)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EnqueueOutbound(ctx, Outbound{Platform: "telegram", ChatID: "42", ChatKind: "private", UserID: u.ID, Kind: "reply", Text: "Biscuit sounds lovely", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ForgetAll(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if got := recallTexts(t, db, other.ID, "Quillon"); len(got) == 0 {
		t.Error("another user's words were forgotten")
	}
	if ms, _ := db.Memories(ctx, other.ID); len(ms) != 1 {
		t.Errorf("another user's memories: %+v", ms)
	}
	pending, err := db.PendingInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].ID != qID || pending[0].Text != queued.Text {
		t.Errorf("queued message after /forget all: %+v", pending)
	}
	out, err := db.PendingOutbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Text != "Biscuit sounds lovely" {
		t.Errorf("undelivered reply after /forget all: %+v", out)
	}
}

// TestForgetMemoryForgetsWhatItWasAbout: /forget N with the needles the
// bot derives from "Pets: Biscuit (dog)" blanks the message that said it
// and everything else naming Biscuit, in one purge; the other memory and
// what was said about it stay.
func TestForgetMemoryForgetsWhatItWasAbout(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	u := petAndFriend(t, db)
	saidTurn(t, db, u, 3, "Biscuit's ball rolled under the sofa", "Oh no, poor Biscuit!", 6, "")

	n, err := db.ForgetMemory(ctx, u.ID, 3, []string{"Pets: Biscuit (dog)", "Biscuit"})
	if err != nil {
		t.Fatal(err)
	}
	// The memory; 2 episodes, 2 inbound, 2 outbound.
	if n != 7 {
		t.Errorf("ForgetMemory changed %d rows, want 7", n)
	}
	hist, _ := db.ChatHistory(ctx, "telegram", "42", 0)
	if len(hist) != 3 || hist[0].UserText != "" || hist[2].UserText != "" || !strings.Contains(hist[1].UserText, "Jolyon") {
		t.Errorf("history after /forget 3: %+v", hist)
	}
	if got := recallTexts(t, db, u.ID, "Biscuit"); len(got) != 0 {
		t.Errorf("Biscuit recalled after /forget 3: %q", got)
	}
	if got := recallTexts(t, db, u.ID, "Jolyon"); len(got) == 0 {
		t.Error("Jolyon no longer recalled: /forget 3 forgot too much")
	}
	if ms, _ := db.Memories(ctx, u.ID); len(ms) != 1 || ms[0].Slot != 5 {
		t.Errorf("memories after /forget 3: %+v", ms)
	}
	main, wal := fileBytes(t, path)
	if bytes.Contains(main, []byte("Biscuit")) || bytes.Contains(wal, []byte("Biscuit")) {
		t.Error("Biscuit still on disk after /forget 3")
	}
	// An empty slot with needles that match nothing changes nothing.
	if n, err := db.ForgetMemory(ctx, u.ID, 3, []string{"Biscuit", " "}); err != nil || n != 0 {
		t.Errorf("second ForgetMemory = %d, %v; want 0", n, err)
	}
}
