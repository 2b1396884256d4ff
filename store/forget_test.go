package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

func TestForgetAllScrubsDisk(t *testing.T) {
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
	if n, _, err := db.ForgetAll(ctx, "telegram:1"); err != nil || n != 30 {
		t.Fatalf("ForgetAll = %d, %v", n, err)
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

// The recall index keeps its own copies of a text: the terms in FTS5
// segments (prefix-compressed, so only fragments may show), page-boundary
// prefixes in recall_fts_idx, the prepared text in recall_fts_content.
// Written full-width and half-width, a secret's source rows hold other
// bytes than the index's NFKC-folded forms, so any ASCII or full-width
// fragment of it on disk can only come from the index.
type indexSecret struct {
	wide, term, kana string // as said; its folded word; its folded kana
}

var (
	// secretSaid is said in three episodes; secretKept is only in a memory.
	secretSaid = indexSecret{"ＱＵＩＸＺＪＯＲＢ ｿﾞﾑﾇｹﾞ", "quixzjorb", "ゾムヌゲ"}
	secretKept = indexSecret{"ＦＬＯＢＷＹＮＫ ﾎﾟﾆﾔｷﾞ", "flobwynk", "ポニヤギ"}
)

// fragments lists what of the secret would betray the index: every 4-byte
// piece of the word, either case, and every kana bigram.
func (s indexSecret) fragments() []string {
	var out []string
	for i := 0; i+4 <= len(s.term); i++ {
		out = append(out, s.term[i:i+4], strings.ToUpper(s.term[i:i+4]))
	}
	k := []rune(s.kana)
	for i := 0; i+1 < len(k); i++ {
		out = append(out, string(k[i:i+2]))
	}
	return out
}

// noFragments fails for every fragment of the secrets in the file or WAL.
func noFragments(t *testing.T, file string, secrets ...indexSecret) {
	t.Helper()
	main, wal := fileBytes(t, file)
	for _, s := range secrets {
		for _, f := range s.fragments() {
			if bytes.Contains(main, []byte(f)) {
				t.Errorf("%q still in the .db file", f)
			}
			if bytes.Contains(wal, []byte(f)) {
				t.Errorf("%q still in the -wal file", f)
			}
		}
	}
}

// forgetFixture is an instance where one user's secrets went through the
// index among a few hundred turns, each its own transaction (so the index
// has many segments, and its pages split and rebalance around them), and
// another user said something else. Built once, copied per case.
func forgetFixture(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db, file := openTest(t)
	const u = "telegram:42"
	at := fill(t, db, u, privateChat, t0, 120)
	for i := range 3 {
		say(t, db, u, privateChat, at, "I told nobody: "+secretSaid.wide, "Your secret is safe.")
		at = fill(t, db, u, privateChat, at.Add(time.Minute), 60)
		if i == 1 {
			if err := db.PutMemory(ctx, Memory{UserID: u, Slot: 5, Content: "secret: " + secretKept.wide, CreatedAt: at}); err != nil {
				t.Fatal(err)
			}
		}
	}
	say(t, db, "telegram:7", chatAt{"telegram", "7", "private"}, at, "pancakes for breakfast", "")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Precondition: the index holds each secret (terms are stored
	// prefix-compressed, so look for fragments), else the cases prove
	// nothing.
	main, _ := fileBytes(t, file)
	for _, s := range []indexSecret{secretSaid, secretKept} {
		if !slices.ContainsFunc(s.fragments(), func(f string) bool { return bytes.Contains(main, []byte(f)) }) {
			t.Fatalf("precondition: %q not in the index before forgetting", s.term)
		}
	}
	return file
}

// openCopy opens a copy of a closed instance file.
func openCopy(t *testing.T, src string) (*DB, string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, file
}

// Seed 003 §8.1 绝对删除, for the recall index: every forget path leaves no
// fragment of what it forgot in the file or its WAL, and the rest of the
// index still answers.
func TestForgetLeavesNoTraceInRecallIndex(t *testing.T) {
	ctx := context.Background()
	fixture := forgetFixture(t)
	const u = "telegram:42"
	for _, c := range []struct {
		name   string
		forget func(db *DB) error
		gone   []indexSecret
	}{
		{"ForgetText", func(db *DB) error { _, err := db.ForgetText(ctx, u, "ｿﾞﾑﾇｹﾞ"); return err }, []indexSecret{secretSaid}},
		{"DeleteMemory", func(db *DB) error { _, err := db.DeleteMemory(ctx, u, 5); return err }, []indexSecret{secretKept}},
		// /forget all: the episodes keep their (full-width) text, but
		// nothing of either secret may stay in the index.
		{"ForgetAll", func(db *DB) error { _, _, err := db.ForgetAll(ctx, u); return err }, []indexSecret{secretSaid, secretKept}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, file := openCopy(t, fixture)
			if err := c.forget(db); err != nil {
				t.Fatal(err)
			}
			for _, s := range c.gone {
				if hits := recall(t, db, privately(u, s.term+" "+s.kana)); len(hits) != 0 {
					t.Fatalf("still searchable: %+v", hits)
				}
			}
			noFragments(t, file, c.gone...)
			if hits := recall(t, db, privately("telegram:7", "pancakes")); len(hits) != 1 {
				t.Error("forgetting broke the rest of the index")
			}
		})
	}
}

// secure_delete zeroes deleted cells and freed pages, but a b-tree page
// that rebalancing rebuilt keeps old bytes in its unused middle: here FTS5's
// 'optimize' (instead of the forget paths' 'rebuild') leaves the secret's
// word in no live row, yet in the file. purge's VACUUM removes it.
func TestPurgeRemovesWhatRebalancedPagesKeep(t *testing.T) {
	ctx := context.Background()
	db, file := openCopy(t, forgetFixture(t))
	err := db.write(ctx, "forget without rebuild", func(tx querier) error {
		if _, err := forgetText(ctx, tx, "telegram:42", regexp.MustCompile(regexp.QuoteMeta("ｿﾞﾑﾇｹﾞ"))); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO recall_fts (recall_fts) VALUES ('optimize')")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Scrub(ctx); err != nil {
		t.Fatal(err)
	}
	var live int
	if err := db.reader.QueryRow("SELECT count(*) FROM recall_fts_data WHERE instr(block, ?) > 0", []byte(secretSaid.term)).Scan(&live); err != nil {
		t.Fatal(err)
	}
	if main, _ := fileBytes(t, file); live != 0 || !bytes.Contains(main, []byte(secretSaid.term)) {
		t.Skipf("this SQLite left no residue outside live rows (live rows: %d); nothing to prove", live)
	}
	if err := db.purge(ctx); err != nil {
		t.Fatal(err)
	}
	noFragments(t, file, secretSaid)
}

// TestForgetMatchesWholeWords: "forget what I said about my cat" forgets
// the cat, the cats and the cat's bowl, never "education" or "category";
// Chinese and Japanese, written without spaces, match anywhere.
func TestForgetMatchesWholeWords(t *testing.T) {
	for _, tc := range []struct {
		needle, text string
		want         bool
	}{
		{"cat", "my cat is sick", true},
		{"cat", "the cats were fed", true},
		{"cat", "the cat's bowl", true},
		{"Cat", "CAT!", true},
		{"cat", "my education", false},
		{"cat", "a category error", false},
		{"Pets: Biscuit (cat)", "Pets: Biscuit (cat)", true},
		{"猫", "我家的猫叫小雨", true},
		{"試験", "来月の茶道試験", true},
	} {
		if got := needleRegexp(tc.needle).MatchString(tc.text); got != tc.want {
			t.Errorf("needle %q in %q = %v, want %v", tc.needle, tc.text, got, tc.want)
		}
	}
}
