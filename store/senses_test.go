package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// A file made by the first hearth (schema v1) gains the senses columns and
// keeps what it held: a pending message is still answered, a pending reply
// still sent.
func TestSensesMigrationUpgradesAV1File(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	v1, err := migrationFS.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	rawSQLite(t, path, string(v1),
		`INSERT INTO inbound (platform, chat_id, message_id, user_id, text, modality, at, status)
			VALUES ('telegram', '42', '7', 'telegram:42', '[voice message]', 'voice', 1, 'received')`,
		`INSERT INTO outbound (platform, chat_id, text, status, created_at) VALUES ('telegram', '42', 'hi', 'pending', 1)`,
		`INSERT INTO token_usage (at, kind, prompt, completion) VALUES (1, 'reply', 10, 5)`,
		"PRAGMA user_version = 1")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	in, err := db.PendingInbound(ctx)
	if err != nil || len(in) != 1 || in[0].Modality != "voice" || in[0].Media != "" {
		t.Fatalf("pending inbound after upgrade = %+v, %v", in, err)
	}
	out, err := db.PendingOutbound(ctx)
	if err != nil || len(out) != 1 || out[0].Text != "hi" || out[0].Voice != nil {
		t.Fatalf("pending outbound after upgrade = %+v, %v", out, err)
	}
	if n, err := db.TokensSince(ctx, time.Unix(0, 0), ""); err != nil || n != 15 {
		t.Fatalf("tokens after upgrade = %d, %v", n, err)
	}
}

// DESIGN §3 step 1 for voice notes: the message is stored with its media
// reference before any call; hearing replaces its text with the transcript,
// may address it, and records the transcription's cost in one write.
func TestSetInboundHeardKeepsTranscriptAndCost(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	id, _, err := db.InsertInbound(ctx, Inbound{Platform: "telegram", ChatID: "-5", ChatKind: "group", MessageID: "9",
		UserID: "telegram:1", Modality: "voice", Media: `{"kind":"voice","id":"F1"}`, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := db.PendingInbound(ctx)
	if len(in) != 1 || in[0].Media != `{"kind":"voice","id":"F1"}` || in[0].Addressed {
		t.Fatalf("stored = %+v", in)
	}
	use := []Usage{{At: t0, Kind: "transcription", UserID: "telegram:1", Prompt: 70, Units: 7}}
	if err := db.SetInboundHeard(ctx, id, "Luna, are you there?", true, "", use); err != nil {
		t.Fatal(err)
	}
	in, _ = db.PendingInbound(ctx)
	if len(in) != 1 || in[0].Text != "Luna, are you there?" || !in[0].Addressed || in[0].Media != "" || in[0].Modality != "voice" {
		t.Fatalf("heard = %+v", in)
	}
	if n, _ := db.TokensSince(ctx, t0, ""); n != 70 {
		t.Fatalf("tokens = %d, want the transcription's 70", n)
	}
	units, err := db.UnitsSince(ctx, t0)
	if err != nil || units["transcription"] != 7 {
		t.Fatalf("units = %v, %v", units, err)
	}
	if err := db.SetInboundHeard(ctx, id+100, "x", false, "", nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
}

// A voice reply is one ledger entry: its audio rides with the pending entry
// and is dropped once sent, so the file does not keep every voice note.
func TestVoiceReplyAudioLivesWhilePending(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	mustUser(t, db, "telegram:1")
	audio := []byte("OggS fake opus")
	ids, err := db.CommitTurn(ctx, Turn{
		User:    User{ID: "telegram:1", Name: "Ann", CreatedAt: t0, Proactive: true},
		Episode: Episode{UserText: "hi", ReplyText: "hello", At: t0, Modality: "voice"},
		Reply:   &Outbound{Platform: "telegram", ChatID: "1", Text: "hello", Voice: audio, CreatedAt: t0},
	})
	if err != nil || len(ids) != 1 {
		t.Fatalf("commit = %v, %v", ids, err)
	}
	out, _ := db.PendingOutbound(ctx)
	if len(out) != 1 || string(out[0].Voice) != string(audio) {
		t.Fatalf("pending = %+v", out)
	}
	eps, _ := db.ChatHistory(ctx, "telegram", "1", 0)
	if len(eps) != 1 || eps[0].Modality != "voice" {
		t.Fatalf("episode = %+v", eps)
	}
	if err := db.MarkOutbound(ctx, ids[0], OutboundSent, []string{"55"}, t0); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.reader.QueryRow("SELECT count(*) FROM outbound WHERE voice IS NOT NULL").Scan(&n); err != nil || n != 0 {
		t.Fatalf("audio rows after sending = %d, %v", n, err)
	}
}
