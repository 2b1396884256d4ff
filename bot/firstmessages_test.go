package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/heart"
)

// TestSayingDontMessageMeFirstIsHonoured: "please don't message me first"
// written in a private chat does what /quiet does: she stops writing
// first, answers the request and says what changed with the way back,
// and it counts once as seed 003 §2.3's boundary signal. "You can message me first again" undoes it; the same
// words in a group change nothing.
func TestSayingDontMessageMeFirstIsHonoured(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.send(t, msg("31", "hi, I'm Sam"))
	e.send(t, msg("31", "please don't message me first, I'll come to you when I want to talk"))
	e.h.Drain()
	if u := e.user(t, "telegram:31"); u.Proactive {
		t.Fatal("she may still write first after being asked not to")
	}
	said := strings.Join(e.out.texts("31"), "\n")
	if !strings.Contains(said, "I won't message you first") || !strings.Contains(said, "/quiet off") {
		t.Errorf("she did not say she will not write first, nor how to undo it:\n%s", said)
	}
	// The reply answers the request itself (not "Mm, and then?").
	if !strings.Contains(said, "I understand.") && !strings.Contains(said, "Thank you for telling me.") {
		t.Errorf("the reply did not answer the request:\n%s", said)
	}
	sigs, err := e.db.Signals(ctx, "telegram:31", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range sigs {
		if s.Tag == string(heart.SignalBoundary) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d boundary signals, want 1", n)
	}
	e.send(t, msg("31", "actually you can message me first again"))
	e.h.Drain()
	if u := e.user(t, "telegram:31"); !u.Proactive {
		t.Error("asked to write first again, she still may not")
	}

	group := msg("32", "please don't message me first")
	group.ChatID, group.ChatKind = "-100", bot.ChatGroup
	e.send(t, msg("32", "hello"))
	e.send(t, group)
	e.h.Drain()
	if u := e.user(t, "telegram:32"); !u.Proactive {
		t.Error("words said in a group switched her first messages off")
	}
}
