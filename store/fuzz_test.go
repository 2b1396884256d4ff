package store

import (
	"context"
	"encoding/binary"
	"testing"
)

// FuzzParseHeader feeds arbitrary file beginnings to the header check that
// runs before SQLite touches an operator's file: it must never panic, must
// accept only full SQLite headers, and must read user_version exactly.
func FuzzParseHeader(f *testing.F) {
	hdr := make([]byte, sqliteHeaderSize)
	copy(hdr, sqliteMagic)
	hdr[userVersionOffset+3] = 7
	f.Add(hdr)
	f.Add([]byte{})
	f.Add([]byte("name: Luna\n"))
	f.Add([]byte(sqliteMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > sqliteHeaderSize {
			data = data[:sqliteHeaderSize] // peekUserVersion never reads more
		}
		v, exists, err := parseHeader(data)
		isSQLite := len(data) == sqliteHeaderSize && string(data[:len(sqliteMagic)]) == sqliteMagic
		switch {
		case len(data) == 0:
			if err != nil || exists {
				t.Fatalf("empty file: %v %v", exists, err)
			}
		case isSQLite:
			want := int(int32(binary.BigEndian.Uint32(data[userVersionOffset:])))
			if err != nil || !exists || v != want {
				t.Fatalf("valid header: v=%d exists=%v err=%v, want %d", v, exists, err, want)
			}
		default:
			if err == nil {
				t.Fatalf("non-SQLite data accepted: %q", data)
			}
		}
	})
}

// FuzzRecallQuery feeds arbitrary user text to the recall query builder:
// whatever the text, each term's MATCH expression is one SQLite accepts (or
// there are no terms, and no query runs), and Recall never fails on it, in
// either scope. A planted document proves the queries run against an index.
func FuzzRecallQuery(f *testing.F) {
	for _, s := range []string{
		"Biscuit was sick all night", "裁员", "試験どうしよう", `"NEAR(a b)" AND OR NOT ^ * : {text}`,
		`text: "x`, `)(`, "\x00\xff", "ＡＮＤ", "ﾈｺ", "e\u0301\u0301", "\u200b\u200d", "NEAR/2", "a-b+c",
	} {
		f.Add(s)
	}
	db, _ := openTest(f)
	ctx := context.Background()
	if _, err := db.CommitTurn(ctx, Turn{Episode: Episode{UserID: "telegram:1", Platform: "telegram", ChatID: "-1",
		ChatKind: "group", UserText: "Biscuit 裁员 試験 and a near miss", ReplyText: "said so", At: t0}}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		terms := recallTerms(text)
		if len(terms) > recallMaxTerms {
			t.Fatalf("%q: %d terms", text, len(terms))
		}
		for _, term := range terms {
			var n int
			if err := db.reader.QueryRowContext(ctx, "SELECT count(*) FROM recall_fts WHERE recall_fts MATCH ?", recallTermMatch(term)).Scan(&n); err != nil {
				t.Fatalf("%q: term %q -> %q: %v", text, term, recallTermMatch(term), err)
			}
		}
		for _, q := range []RecallQuery{
			{UserID: "telegram:1", Text: text, Scope: RecallPrivate},
			{UserID: "telegram:1", Text: text, Scope: RecallGroup, Platform: "telegram", ChatID: "-1"},
		} {
			if _, err := db.Recall(ctx, q); err != nil {
				t.Fatalf("Recall(%q, %s): %v", text, q.Scope, err)
			}
		}
	})
}
