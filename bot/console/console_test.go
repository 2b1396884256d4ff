package console

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"hearth/bot"
)

type inbox struct {
	mu   sync.Mutex
	msgs []bot.Message
}

func (i *inbox) HandleMessage(_ context.Context, m bot.Message) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.msgs = append(i.msgs, m)
	return nil
}

func (i *inbox) HandleReaction(context.Context, bot.Reaction) error { return nil }

func TestEachNonEmptyLineIsOneMessageAndEOFEndsRun(t *testing.T) {
	in := &inbox{}
	c := New(Config{In: strings.NewReader("hello\n\n  \nhow are you?\n"), Out: &bytes.Buffer{}, User: "ann"})
	if err := c.Run(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if len(in.msgs) != 2 || in.msgs[0].Text != "hello" || in.msgs[1].Text != "how are you?" {
		t.Fatalf("messages = %+v", in.msgs)
	}
	m := in.msgs[0]
	if m.User() != "console:ann" || m.ChatKind != bot.ChatPrivate || !m.Addressed || m.MessageID == in.msgs[1].MessageID {
		t.Errorf("message = %+v", m)
	}
	// A second run (a restart) must not reuse message ids: they are deduplicated.
	in2 := &inbox{}
	if err := New(Config{In: strings.NewReader("hello\n"), Out: &bytes.Buffer{}, User: "ann"}).Run(context.Background(), in2); err != nil {
		t.Fatal(err)
	}
	if in2.msgs[0].MessageID == m.MessageID {
		t.Errorf("message id %q reused across runs", m.MessageID)
	}
}

func TestSendPrintsTextAndWritesAttachments(t *testing.T) {
	var out bytes.Buffer
	dir := t.TempDir()
	c := New(Config{In: strings.NewReader(""), Out: &out, User: "ann", Persona: "Luna", FileDir: dir})
	_, err := c.Send(context.Background(), c.Chat(), bot.Outgoing{
		Text:    "Here you go.",
		Photo:   &bot.File{Name: "mood.png", Data: []byte("PNGDATA")},
		Buttons: [][]bot.Button{{{Label: "Memories", Data: "/memories"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.HasPrefix(text, "Luna: Here you go.\n") || !strings.Contains(text, "Memories → /memories") {
		t.Errorf("printed %q", text)
	}
	start := strings.Index(text, "[mood.png: ")
	if start < 0 {
		t.Fatalf("no attachment path in %q", text)
	}
	path := strings.TrimSuffix(strings.SplitN(text[start+len("[mood.png: "):], "]", 2)[0], "]")
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "PNGDATA" {
		t.Errorf("attachment at %q: %q %v", path, data, err)
	}
}

// TestAttachmentsWithoutFileDirGoAtClose: without FileDir the files (an
// /export holds all of a user's data) live in a private directory that
// Close removes; with FileDir they stay.
func TestAttachmentsWithoutFileDirGoAtClose(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	kept := t.TempDir()
	for _, dir := range []string{"", kept} {
		var out bytes.Buffer
		c := New(Config{In: strings.NewReader(""), Out: &out, User: "ann", Persona: "Luna", FileDir: dir})
		for _, name := range []string{"mood.png", "export.json"} {
			if _, err := c.Send(context.Background(), c.Chat(), bot.Outgoing{Document: &bot.File{Name: name, Data: []byte("DATA")}}); err != nil {
				t.Fatal(err)
			}
		}
		var paths []string
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			_, path, _ := strings.Cut(strings.Trim(line, "[]"), ": ")
			paths = append(paths, path)
		}
		for _, p := range paths {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("attachment %s before Close: %v", p, err)
			}
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			_, err := os.Stat(p)
			if gone := os.IsNotExist(err); gone != (dir == "") {
				t.Errorf("FileDir %q: %s after Close: %v", dir, p, err)
			}
		}
		if _, err := c.Send(context.Background(), c.Chat(), bot.Outgoing{Document: &bot.File{Name: "late.json"}}); err == nil {
			t.Error("an attachment after Close was written")
		}
	}
	if left, _ := os.ReadDir(os.Getenv("TMPDIR")); len(left) != 0 {
		t.Errorf("left in the temp dir: %v", left)
	}
}

func TestRunReturnsWhenContextEnds(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(Config{In: r, Out: &bytes.Buffer{}}).Run(ctx, &inbox{}) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
}
