package store

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// fileBytes is the database file and its WAL as they are on disk.
func fileBytes(t *testing.T, path string) (db, wal []byte) {
	t.Helper()
	db, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wal, err = os.ReadFile(path + "-wal")
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return db, wal
}

func TestForgetTextLeavesNoTraceOnDisk(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	const secret = "Zorblax-Quennington"
	u := mustUser(t, db, "telegram:42")
	other := mustUser(t, db, "telegram:7")

	// The secret everywhere a user's words end up, in several cases.
	inID, _, _ := db.InsertInbound(ctx, inbound("m1", "my ex is called "+secret+", please keep it secret"))
	tr := realTurn(inID, u, 1)
	tr.Episode.UserText = "my ex is called " + secret
	tr.Episode.ReplyText = "I will remember " + strings.ToUpper(secret) + "."
	tr.Episode.TopicTags = []string{strings.ToLower(secret)}
	tr.Reply.Text = "I will remember " + secret + "."
	tr.User.InnerState = "Ann trusts me with " + secret + " and I feel close."
	tr.User.Scratch = "ask how " + secret + " is"
	tr.Memories = []Memory{
		{UserID: u.ID, Slot: 0, Content: "ex: " + secret, CreatedAt: t0},
		{UserID: u.ID, Slot: 1, Content: "likes tea", CreatedAt: t0},
	}
	if _, err := db.CommitTurn(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if err := db.LogProactive(ctx, Proactive{UserID: u.ID, At: t0, Outcome: "sent", Reason: "missed " + secret, Text: "how is " + secret + "?"}); err != nil {
		t.Fatal(err)
	}
	// Another user's words are theirs: forgetting for Ann must not touch them.
	if err := db.PutMemory(ctx, Memory{UserID: other.ID, Slot: 0, Content: "my cat is " + secret, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}

	// Precondition: the secret is on disk before forgetting, so the final
	// check can fail.
	main, wal := fileBytes(t, path)
	if !bytes.Contains(append(main, wal...), []byte(secret)) {
		t.Fatal("precondition: secret not on disk before forgetting")
	}

	n, err := db.ForgetText(ctx, u.ID, strings.ToLower(secret))
	if err != nil {
		t.Fatal(err)
	}
	// memory, inbound, episode, outbound, proactive, user row.
	if n != 6 {
		t.Errorf("ForgetText changed %d rows, want 6", n)
	}
	// ForgetText scrubbed by itself: the WAL is empty right away.
	if _, wal := fileBytes(t, path); len(wal) != 0 {
		t.Fatalf("ForgetText left %d WAL bytes", len(wal))
	}
	// Only the other user's memory still holds it: delete that too, then
	// nothing of the secret may remain anywhere in the files.
	if ms, _ := db.Memories(ctx, other.ID); len(ms) != 1 || !strings.Contains(ms[0].Content, secret) {
		t.Fatalf("other user's memory touched: %+v", ms)
	}
	x, err := db.Export(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Memories) != 1 || x.Memories[0].Content != "likes tea" {
		t.Fatalf("memories after forget: %+v", x.Memories)
	}
	if x.User.InnerState != "Ann trusts me with  and I feel close." || x.User.Scratch != "ask how  is" {
		t.Fatalf("user after forget: %q %q", x.User.InnerState, x.User.Scratch)
	}
	if x.Episodes[0].Label != "joy" || x.Episodes[0].UserText != "" {
		t.Fatalf("episode after forget: %+v", x.Episodes[0])
	}
	if ok, err := db.DeleteMemory(ctx, other.ID, 0); err != nil || !ok {
		t.Fatal(ok, err)
	}

	main, wal = fileBytes(t, path)
	for _, v := range []string{secret, strings.ToUpper(secret), strings.ToLower(secret)} {
		if bytes.Contains(main, []byte(v)) {
			t.Errorf("%q still in the .db file", v)
		}
		if bytes.Contains(wal, []byte(v)) {
			t.Errorf("%q still in the -wal file", v)
		}
	}
	if len(wal) != 0 {
		t.Errorf("WAL not truncated by Scrub: %d bytes", len(wal))
	}
	// Unrelated data survived.
	if !bytes.Contains(main, []byte("likes tea")) {
		t.Error("unrelated memory lost from disk")
	}
	if _, err := db.ForgetText(ctx, u.ID, "  "); err == nil {
		t.Error("blank needle accepted")
	}
}

func TestDeleteMemoriesScrubsDisk(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	const secret = "Plumbicorn-Sapphire-Ankle"
	for slot := range 30 {
		if err := db.PutMemory(ctx, Memory{UserID: "telegram:1", Slot: slot, Content: strings.Repeat(secret+" ", 20), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Scrub(ctx); err != nil { // move it into the main file first
		t.Fatal(err)
	}
	if main, _ := fileBytes(t, path); !bytes.Contains(main, []byte(secret)) {
		t.Fatal("precondition: secret not in the .db file")
	}
	if n, err := db.DeleteMemories(ctx, "telegram:1"); err != nil || n != 30 {
		t.Fatalf("DeleteMemories = %d, %v", n, err)
	}
	main, wal := fileBytes(t, path)
	if bytes.Contains(main, []byte(secret)) || bytes.Contains(wal, []byte(secret)) {
		t.Fatal("deleted memories still on disk")
	}
}

func TestScrubReportsBlockingReader(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	mustUser(t, db, "telegram:1")
	tx, err := db.reader.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM users").Scan(&n); err != nil { // pins a snapshot
		t.Fatal(err)
	}
	mustUser(t, db, "telegram:2") // a frame the reader's snapshot does not see
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := db.Scrub(short); err == nil {
		t.Error("Scrub claimed success while a reader pinned the WAL")
	}
	t.Logf("blocked Scrub returned after %v", time.Since(start))
	_ = tx.Rollback()
	if err := db.Scrub(ctx); err != nil {
		t.Errorf("Scrub after reader finished: %v", err)
	}
}
