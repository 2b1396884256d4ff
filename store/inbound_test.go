package store

import (
	"context"
	"testing"
	"time"
)

func TestNewestMessageIDsComparesSnowflakesAsNumbers(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	add := func(platform, chat, id string) {
		t.Helper()
		if _, _, err := db.InsertInbound(ctx, Inbound{Platform: platform, ChatID: chat, ChatKind: "private", MessageID: id,
			UserID: platform + ":1", Text: "x", Modality: "text", Status: StatusReceived, At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	add("discord", "a", "9")
	add("discord", "a", "100")
	add("discord", "a", "10")
	add("discord", "a", "ix:99999") // a slash command, not a message id
	add("discord", "b", "5")
	add("telegram", "c", "7")
	got, err := db.NewestMessageIDs(ctx, "discord")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["a"] != "100" || got["b"] != "5" {
		t.Errorf("newest = %v, want a:100 b:5", got)
	}
}
