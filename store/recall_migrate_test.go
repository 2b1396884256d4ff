package store

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// schema1File makes an instance file as hearth with schema 1 left it: the
// embedded 0001 migration and rows written with its columns.
func schema1File(t *testing.T, rows ...string) string {
	t.Helper()
	init, err := migrationFS.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v1.db")
	rawSQLite(t, path, append([]string{string(init), "PRAGMA user_version = 1"}, rows...)...)
	return path
}

// Issue 11: a migration builds the index for existing files. A file made by
// today's hearth (schema 1) with episodes and memories in en/zh/ja is
// migrated, and its contents are found, scoped as if they had been indexed
// when written.
func TestMigrationIndexesASchema1File(t *testing.T) {
	ctx := context.Background()
	path := schema1File(t,
		`INSERT INTO users (id, platform, name, private_chat_id) VALUES ('telegram:42', 'telegram', 'Ann', '42'), ('telegram:7', 'telegram', 'Bob', '7')`,
		`INSERT INTO chats (platform, chat_id, kind, first_at, last_at) VALUES
			('telegram', '42', 'private', 1, 1), ('telegram', '7', 'private', 1, 1), ('telegram', '-100', 'group', 1, 1)`,
		`INSERT INTO inbound (id, platform, chat_id, chat_kind, message_id, user_id, text, at, status) VALUES
			(1, 'telegram', '42', 'private', 'm1', 'telegram:42', 'my cat Biscuit turned twelve', 1000, 'answered'),
			(2, 'telegram', '-100', 'group', 'm2', 'telegram:42', 'who wants to go sailing on Sunday?', 2000, 'answered')`,
		`INSERT INTO episodes (user_id, platform, chat_id, inbound_id, user_text, reply_text, at, has_values, salience) VALUES
			('telegram:42', 'telegram', '42', 1, 'my cat Biscuit turned twelve', 'Happy birthday, Biscuit!', 1000, 1, 0.4),
			('telegram:42', 'telegram', '-100', 2, 'who wants to go sailing on Sunday?', 'Count me in.', 2000, 0, 0),
			('telegram:42', 'telegram', '42', NULL, '我上个月在杭州被公司裁员了', '辛苦了。', 3000, 1, 0.9),
			('telegram:42', 'telegram', '42', NULL, '来月、京都で茶道の試験を受ける', '応援してる！', 4000, 1, 0.7),
			('telegram:42', 'discord', 'gone', NULL, 'a chat nobody recorded: Biscuit', '', 5000, 0, 0),
			('telegram:42', 'telegram', '42', NULL, '', '', 6000, 1, 0.1),
			('telegram:7', 'telegram', '7', NULL, 'Biscuit is my dog', '', 7000, 0, 0)`,
		`INSERT INTO memories (user_id, slot, content, retention, created_at, updated_at) VALUES
			('telegram:42', 0, '猫の名前はビスケット', 'permanent', 1000, 1500),
			('telegram:42', 1, 'lives in Hangzhou', 'conditional', 1000, 1000)`,
	)
	var logs bytes.Buffer
	db, err := Open(ctx, path, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, want := range []string{"recall index: building", "episodes=6", "recall index: built", "memories=2", "schema migrated", "version=" + strconv.Itoa(SchemaVersion)} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("migration log lacks %q:\n%s", want, logs.String())
		}
	}

	const u = "telegram:42"
	for _, c := range []struct{ query, want string }{
		{"Biscuit was sick all night", "my cat Biscuit turned twelve"},
		{"sail", "who wants to go sailing on Sunday?"},
		{"裁员", "我上个月在杭州被公司裁员了"},
		{"試験", "来月、京都で茶道の試験を受ける"},
		{"ビスケット", "猫の名前はビスケット"},
		{"Hangzhou", "lives in Hangzhou"},
	} {
		topIs(t, recall(t, db, privately(u, c.query)), c.query, c.want)
	}
	hits := recall(t, db, privately(u, "Biscuit"))
	if len(hits) != 2 || hits[0].ChatKind != "private" || hits[1].ChatKind != "" {
		t.Fatalf("Biscuit hits (chat kinds from inbound, else chats, else unknown): %+v", hits)
	}
	if hits[0].Salience != 0.4 || !hits[0].HasValues || !hits[0].At.Equal(fromNano(1000)) {
		t.Errorf("values of a migrated episode: %+v", hits[0])
	}
	// The group episode got its kind from the inbound row and is found in
	// its group; the private ones are not.
	if hits := recall(t, db, inGroup(u, "sailing Biscuit 裁员")); len(hits) != 1 || hits[0].ChatKind != "group" {
		t.Fatalf("group scope after migration: %+v", hits)
	}
	if hits := recall(t, db, privately("telegram:7", "Biscuit")); len(hits) != 1 || hits[0].UserText != "Biscuit is my dog" {
		t.Fatalf("the other user's migrated rows: %+v", hits)
	}
}
