package discord

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"reflect"
	"testing"
	"time"

	"hearth/bot"
)

// Issue 14 item 1: a voice message (the flag) or an audio attachment is
// voice, an image attachment a photo; the attachment URL is fetched without
// the bot's token.
func TestAttachmentsCarryMedia(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)
	ogg := []byte("OggS a voice message")
	voice := message("v1", "dm1", "", "42", "")
	voice["flags"] = 1 << 13
	voice["attachments"] = []any{f.AddAttachment("voice-message.ogg", "audio/ogg", ogg, 3.5)}
	f.Dispatch("MESSAGE_CREATE", voice)
	photo := message("p1", "c1", "g1", "42", "<@"+fakeBotID+"> look at this")
	photo["mentions"] = []any{user(fakeBotID, "hearth")}
	photo["attachments"] = []any{f.AddAttachment("notes.txt", "text/plain", []byte("x"), 0),
		f.AddAttachment("cat.png", "image/png", []byte("\x89PNG cat"), 0)}
	f.Dispatch("MESSAGE_CREATE", photo)

	v := r.rec.waitMessage(t, "v1")
	if v.Modality != bot.ModalityVoice || v.Media == nil || v.Media.Kind != bot.ModalityVoice ||
		v.Media.Seconds != 3.5 || v.Media.Size != int64(len(ogg)) || v.Media.MIME != "audio/ogg" {
		t.Fatalf("voice message = %+v (media %+v)", v, v.Media)
	}
	p := r.rec.waitMessage(t, "p1")
	if p.Modality != bot.ModalityPhoto || p.Media == nil || p.Media.Name != "cat.png" || p.Text != "look at this" || !p.Addressed {
		t.Fatalf("photo message = %+v (media %+v)", p, p.Media)
	}
	rc, err := r.tr.FetchMedia(context.Background(), *v.Media)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(data, ogg) {
		t.Fatalf("fetched %q", data)
	}
	if d := f.Downloads(); len(d) != 1 || d[0].Auth != "" {
		t.Fatalf("downloads = %+v, want one without Authorization", d)
	}
	big := *p.Media
	big.Size = bot.MaxPhotoBytes + 1
	if _, err := r.tr.FetchMedia(context.Background(), big); !errors.Is(err, bot.ErrMediaTooLarge) {
		t.Fatalf("oversized image: %v", err)
	}
	if _, err := r.tr.FetchMedia(context.Background(), bot.MediaRef{ID: "file:///etc/passwd"}); err == nil {
		t.Fatal("fetched a file: URL")
	}
}

// A file she cannot open (a PDF, a video) is a message of its own, never
// dropped for having no words: it carries the file, never fetched, so she
// can say she cannot open it. With words it stays a text message.
func TestFileAloneIsAMessage(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)
	alone := message("d1", "dm1", "", "42", "")
	alone["attachments"] = []any{f.AddAttachment("report.pdf", "application/pdf", []byte("%PDF-1.4"), 0)}
	f.Dispatch("MESSAGE_CREATE", alone)
	worded := message("d2", "dm1", "", "42", "can you read this?")
	worded["attachments"] = []any{f.AddAttachment("clip.mp4", "video/mp4", []byte("ftyp"), 0)}
	f.Dispatch("MESSAGE_CREATE", worded)

	a := r.rec.waitMessage(t, "d1")
	if a.Modality != bot.ModalityOther || a.Media == nil || a.Media.Kind != bot.ModalityOther || a.Media.Name != "report.pdf" ||
		a.Media.MIME != "application/pdf" {
		t.Fatalf("a PDF alone = %+v (media %+v)", a, a.Media)
	}
	w := r.rec.waitMessage(t, "d2")
	if w.Modality != bot.ModalityText || w.Text != "can you read this?" || w.Media == nil || w.Media.Name != "clip.mp4" {
		t.Fatalf("a video with words = %+v (media %+v)", w, w.Media)
	}
	if d := f.Downloads(); len(d) != 0 {
		t.Fatalf("downloads = %+v, want none: a file she cannot open is never fetched", d)
	}
}

// Issue 14 item 2: a spoken reply is a real voice message (flag, duration,
// waveform, no content), then the text; MP3 goes as a plain audio file.
func TestSendVoiceMessage(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)
	chat := bot.ChatRef{Platform: bot.PlatformDiscord, ChatID: "dm1", Kind: bot.ChatPrivate}
	wave := []byte{0, 128, 255, 64}
	v := &bot.Voice{MIME: "audio/ogg", Data: []byte("OggS reply"), Duration: 2500 * time.Millisecond, Waveform: wave}
	sent, err := r.tr.Send(context.Background(), chat, bot.Outgoing{Text: "Good night.", Voice: v})
	if err != nil || len(sent.MessageIDs) != 2 {
		t.Fatalf("Send = %+v, %v", sent, err)
	}
	got := f.Messages()
	if len(got) != 2 {
		t.Fatalf("%d messages", len(got))
	}
	vm := got[0]
	if vm.Flags&(1<<13) == 0 || vm.Content != "" || len(vm.Files) != 1 || !bytes.Equal(vm.Files[0].Data, v.Data) ||
		vm.Attachments[0].DurationSecs != 2.5 || vm.Attachments[0].Waveform != base64.StdEncoding.EncodeToString(wave) || !vm.NoPings {
		t.Fatalf("voice message = %+v", vm)
	}
	if got[1].Content != "Good night." || sent.MessageIDs[0] != vm.ID {
		t.Fatalf("text after it = %+v, ids %v", got[1], sent.MessageIDs)
	}

	mp3 := &bot.Voice{MIME: "audio/mpeg", Data: []byte("ID3 mp3")}
	if _, err := r.tr.Send(context.Background(), chat, bot.Outgoing{Text: "Hi.", Voice: mp3}); err != nil {
		t.Fatal(err)
	}
	got = f.Messages()
	if m := got[2]; m.Flags&(1<<13) != 0 || len(m.Files) != 1 || m.Files[0].Name != "voice.mp3" {
		t.Fatalf("mp3 message = %+v", m)
	}
}

// A poll sent alone (Discord's one kind of shared thing) is a message of
// its own, carrying its question and answers to be described in words;
// before, having no words, it was dropped unanswered.
func TestPollAloneIsAMessage(t *testing.T) {
	f := newFakeDiscord(t)
	r := start(t, f, nil)
	poll := message("p1", "dm1", "", "42", "")
	poll["poll"] = map[string]any{
		"question": map[string]any{"text": "Pizza or sushi?"},
		"answers": []any{
			map[string]any{"answer_id": 1, "poll_media": map[string]any{"text": "pizza"}},
			map[string]any{"answer_id": 2, "poll_media": map[string]any{"text": "sushi", "emoji": map[string]any{"name": "🍣"}}},
		},
		"allow_multiselect": false, "layout_type": 1, "expiry": "2026-05-02T12:00:00Z",
	}
	f.Dispatch("MESSAGE_CREATE", poll)
	p := r.rec.waitMessage(t, "p1")
	want := bot.Shared{Name: "Pizza or sushi?", Options: []string{"pizza", "sushi"}}
	if p.Modality != bot.ModalityPoll || p.Media == nil || p.Media.Kind != bot.ModalityPoll || p.Media.Shared == nil ||
		!reflect.DeepEqual(*p.Media.Shared, want) {
		t.Fatalf("a poll alone = %+v (media %+v)", p, p.Media)
	}
}
