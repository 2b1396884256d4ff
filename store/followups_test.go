package store

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFollowUpsLifecycle: a turn stores its follow-ups from its episode
// (the same one twice kept once, a malformed one skipped without failing
// the turn); open ones are listed by day until asked or resolved; what a
// reply recalled is recorded on its episode for /why.
func TestFollowUpsLifecycle(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := mustUser(t, db, "telegram:42")
	other := mustUser(t, db, "telegram:7")

	tr := realTurn(0, u, 1)
	tr.Episode.UserText = "I have an exam on Friday and an interview next week"
	tr.FollowUps = []FollowUp{{About: "exam", Due: "2026-03-20"}, {About: "interview", Due: "2026-03-29"}, {About: "bad", Due: "Friday"}, {About: " ", Due: "2026-03-21"}}
	tr.Recalled = []RecallRef{{Kind: RecallEpisode, ID: 99}, {Kind: RecallMemory, ID: 3}}
	if _, err := db.CommitTurn(ctx, tr); err != nil {
		t.Fatal(err)
	}
	again := realTurn(0, u, 2)
	again.FollowUps = []FollowUp{{About: "exam", Due: "2026-03-20"}}
	if _, err := db.CommitTurn(ctx, again); err != nil {
		t.Fatal(err)
	}
	theirs := realTurn(0, other, 3)
	theirs.FollowUps = []FollowUp{{About: "exam", Due: "2026-03-20"}}
	if _, err := db.CommitTurn(ctx, theirs); err != nil {
		t.Fatal(err)
	}

	fs, err := db.FollowUps(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0].About != "exam" || fs[1].About != "interview" || fs[0].EpisodeID == 0 || fs[0].UserID != u.ID || !fs[0].CreatedAt.Equal(tr.Episode.At) {
		t.Fatalf("follow-ups: %+v", fs)
	}
	open, err := db.OpenFollowUps(ctx, u.ID, "2026-03-01", "2026-03-25", 0)
	if err != nil || len(open) != 1 || open[0].About != "exam" {
		t.Fatalf("open before 03-25: %+v %v", open, err)
	}
	if err := db.MarkFollowUpsAsked(ctx, []int64{open[0].ID}, t0); err != nil {
		t.Fatal(err)
	}
	if err := db.ResolveFollowUps(ctx, []int64{fs[1].ID}); err != nil {
		t.Fatal(err)
	}
	if open, _ := db.OpenFollowUps(ctx, u.ID, "2026-03-01", "2026-04-30", 0); len(open) != 0 {
		t.Fatalf("asked and resolved ones still open: %+v", open)
	}
	if fs, _ := db.FollowUps(ctx, u.ID); !fs[0].AskedAt.Equal(t0) || !fs[1].Resolved {
		t.Fatalf("after closing: %+v", fs)
	}
	if theirs, _ := db.OpenFollowUps(ctx, other.ID, "2026-03-01", "2026-04-30", 0); len(theirs) != 1 {
		t.Fatalf("another user's follow-up was closed: %+v", theirs)
	}

	// The newest episode recalled nothing; the one before recorded its refs.
	refs, at, err := db.LastRecall(ctx, u.ID)
	if err != nil || refs != nil || !at.Equal(again.Episode.At) {
		t.Fatalf("LastRecall after a turn that recalled nothing: %v %v %v", refs, at, err)
	}
	var raw string
	if err := db.reader.QueryRowContext(ctx, "SELECT recalled FROM episodes WHERE user_id = ? ORDER BY id LIMIT 1", u.ID).Scan(&raw); err != nil || raw != `[{"kind":"episode","id":99},{"kind":"memory","id":3}]` {
		t.Fatalf("recalled column: %q %v", raw, err)
	}
	x, err := db.Export(ctx, u.ID)
	if err != nil || len(x.FollowUps) != 2 {
		t.Fatalf("export follow-ups: %+v %v", x.FollowUps, err)
	}
}

// TestEpisodesByIDAndSalientAreTheUsers: reads by id never return another
// user's episode; the heavy-topic candidates are deep or salient ones of
// the window, newest first.
func TestEpisodesByIDAndSalientAreTheUsers(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := mustUser(t, db, "telegram:42")
	other := mustUser(t, db, "telegram:7")
	var ids []int64
	for i, e := range []struct {
		user       User
		text, disc string
		sal        float64
	}{{u, "we broke up", "deep", 0.5}, {u, "nice weather", "none", 0.2}, {u, "new job!", "light", 0.8}, {other, "we broke up", "deep", 0.9}} {
		tr := realTurn(0, e.user, i+1)
		tr.Episode.UserText, tr.Episode.Disclosure, tr.Episode.Salience = e.text, e.disc, e.sal
		if _, err := db.CommitTurn(ctx, tr); err != nil {
			t.Fatal(err)
		}
		eps, _ := db.UserEpisodes(ctx, e.user.ID, time.Time{}, 1)
		ids = append(ids, eps[0].ID)
	}
	got, err := db.EpisodesByID(ctx, u.ID, ids)
	if err != nil || len(got) != 3 || slices.ContainsFunc(got, func(e Episode) bool { return e.UserID != u.ID }) {
		t.Fatalf("EpisodesByID: %+v %v", got, err)
	}
	sal, err := db.SalientEpisodes(ctx, u.ID, t0, t0.Add(time.Hour), 0.7, 10)
	if err != nil || len(sal) != 2 || sal[0].UserText != "new job!" || sal[1].UserText != "we broke up" {
		t.Fatalf("SalientEpisodes: %+v %v", sal, err)
	}
}

// TestForgetRemovesFollowUps: seed 003 §8.1 绝对删除 reaches follow-ups:
// "forget what I said about X" deletes the follow-ups about X and those of
// every episode it blanked, from the file and the WAL; /forget all deletes
// them all.
func TestForgetRemovesFollowUps(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	u := mustUser(t, db, "telegram:42")
	for i, f := range []struct{ text, about, due string }{
		{"茶道の試験は来月", "茶道の試験", "2026-04-30"},
		{"my interview at Quarnstead is tomorrow", "interview", "2026-03-15"},
		{"dentist on Friday", "dentist", "2026-03-20"},
	} {
		tr := realTurn(0, u, i+1)
		tr.Episode.UserText = f.text
		tr.FollowUps = []FollowUp{{About: f.about, Due: f.due}}
		if _, err := db.CommitTurn(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := db.ForgetText(ctx, u.ID, "茶道"); err != nil || n == 0 {
		t.Fatalf("forget 茶道: %d %v", n, err)
	}
	// "Quarnstead" is only in the episode; blanking it takes its follow-up.
	if n, err := db.ForgetText(ctx, u.ID, "Quarnstead"); err != nil || n == 0 {
		t.Fatalf("forget Quarnstead: %d %v", n, err)
	}
	fs, _ := db.FollowUps(ctx, u.ID)
	if len(fs) != 1 || fs[0].About != "dentist" {
		t.Fatalf("after forgetting: %+v", fs)
	}
	main, wal := fileBytes(t, path)
	if bytes.Contains(append(main, wal...), []byte("茶道の試験")) {
		t.Fatal("a forgotten follow-up is still in the file")
	}
	if _, _, err := db.ForgetAll(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if fs, _ := db.FollowUps(ctx, u.ID); len(fs) != 0 {
		t.Fatalf("/forget all left follow-ups: %+v", fs)
	}
}

// TestMigrationAddsFollowUpsToAnOlderFile: a file made by the hearth
// before follow-ups upgrades; its episodes recalled nothing and it has no
// follow-ups, and new ones can be stored.
func TestMigrationAddsFollowUpsToAnOlderFile(t *testing.T) {
	ctx := context.Background()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	// The migrations before this one, as the hearth of the day applied them.
	var stmts []string
	before := 0
	for _, m := range ms {
		if strings.HasSuffix(m.name, "_followups.sql") {
			break
		}
		stmts, before = append(stmts, m.sql), m.version
	}
	path := filepath.Join(t.TempDir(), "old.db")
	rawSQLite(t, path, append(stmts, "PRAGMA user_version = "+strconv.Itoa(before),
		`INSERT INTO users (id, platform, name) VALUES ('telegram:42', 'telegram', 'Ann')`,
		`INSERT INTO episodes (user_id, platform, chat_id, user_text, reply_text, at) VALUES ('telegram:42', 'telegram', '42', 'exam on Friday', 'good luck', 1000)`)...)
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.SchemaVersion() != SchemaVersion {
		t.Fatalf("schema %d", db.SchemaVersion())
	}
	if refs, _, err := db.LastRecall(ctx, "telegram:42"); err != nil || refs != nil {
		t.Fatalf("LastRecall of an old episode: %v %v", refs, err)
	}
	u, _, _ := db.User(ctx, "telegram:42")
	tr := realTurn(0, u, 1)
	tr.FollowUps = []FollowUp{{About: "exam", Due: "2026-03-20"}}
	if _, err := db.CommitTurn(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if fs, err := db.FollowUps(ctx, u.ID); err != nil || len(fs) != 1 {
		t.Fatalf("follow-ups after the upgrade: %+v %v", fs, err)
	}
}
