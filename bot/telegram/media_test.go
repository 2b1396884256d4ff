package telegram

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/telegram/telegramtest"
)

// Issue 14 item 1: voice, audio and video notes arrive as voice with a
// reference to fetch; photos as the largest size within the byte limit.
func TestVoiceAndPhotoUpdatesCarryMedia(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	in := &recInbound{}
	run(t, tr, in)
	from := map[string]any{"id": 42, "first_name": "Ann"}
	private := map[string]any{"id": 42, "type": "private"}
	f.Push("message", map[string]any{"message_id": 1, "from": from, "chat": private, "date": 1,
		"voice": map[string]any{"file_id": "V1", "duration": 7, "mime_type": "audio/ogg", "file_size": 4200}})
	f.Push("message", map[string]any{"message_id": 2, "from": from, "chat": private, "date": 1, "caption": "my cat",
		"photo": []map[string]any{
			{"file_id": "thumb", "width": 90, "height": 60, "file_size": 1500},
			{"file_id": "big", "width": 1280, "height": 853, "file_size": 180000},
			{"file_id": "huge", "width": 4000, "height": 2667, "file_size": bot.MaxPhotoBytes + 1},
		}})
	f.Push("message", map[string]any{"message_id": 3, "from": from, "chat": private, "date": 1,
		"video_note": map[string]any{"file_id": "N1", "length": 240, "duration": 12}})
	f.Push("message", map[string]any{"message_id": 4, "from": from, "chat": private, "date": 1,
		"audio": map[string]any{"file_id": "A1", "duration": 30, "file_name": "memo.m4a", "mime_type": "audio/mp4"}})
	waitFor(t, "four messages", func() bool { return len(in.messages()) == 4 })
	got := in.messages()
	want := []bot.MediaRef{
		{Kind: bot.ModalityVoice, ID: "V1", Name: "voice.ogg", MIME: "audio/ogg", Size: 4200, Seconds: 7},
		{Kind: bot.ModalityPhoto, ID: "big", Name: "photo.jpg", MIME: "image/jpeg", Size: 180000},
		{Kind: bot.ModalityVoice, ID: "N1", Name: "video_note.mp4", MIME: "video/mp4", Seconds: 12},
		{Kind: bot.ModalityVoice, ID: "A1", Name: "memo.m4a", MIME: "audio/mp4", Seconds: 30},
	}
	for i, m := range got {
		if m.Media == nil || *m.Media != want[i] {
			t.Errorf("message %d media = %+v, want %+v", i+1, m.Media, want[i])
		}
	}
	if got[1].Text != "my cat" || got[1].Modality != bot.ModalityPhoto || got[0].Modality != bot.ModalityVoice {
		t.Errorf("photo text %q, modalities %s/%s", got[1].Text, got[0].Modality, got[1].Modality)
	}
}

// Files sent as documents are what they are to the person who sent them:
// a picture is a photo and a recording a voice note (by the type Telegram
// reports), and anything else (a PDF, a video, a GIF, which Telegram sends
// as an animation and a document) a file she cannot open, named, never
// fetched.
func TestDocumentsCarryWhatTheyAre(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	in := &recInbound{}
	run(t, tr, in)
	from := map[string]any{"id": 42, "first_name": "Ann"}
	private := map[string]any{"id": 42, "type": "private"}
	doc := func(id, name, mime string) map[string]any {
		return map[string]any{"file_id": id, "file_unique_id": "u" + id, "file_name": name, "mime_type": mime, "file_size": 1000}
	}
	push := func(id int64, kv ...any) {
		m := map[string]any{"message_id": id, "from": from, "chat": private, "date": 1}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		f.Push("message", m)
	}
	push(1, "document", doc("P", "IMG_2041.png", "image/png"))
	push(2, "document", doc("A", "memo.m4a", "audio/mp4"))
	push(3, "caption", "can you read this?", "document", doc("D", "report.pdf", "application/pdf"))
	push(4, "video", doc("V", "clip.mp4", "video/mp4"))
	push(5, "animation", map[string]any{"file_id": "G", "file_unique_id": "uG", "mime_type": "video/mp4", "file_size": 10},
		"document", doc("G", "fun.gif.mp4", "video/mp4"))
	waitFor(t, "five messages", func() bool { return len(in.messages()) == 5 })
	want := []struct {
		modality bot.Modality
		media    bot.MediaRef
	}{
		{bot.ModalityPhoto, bot.MediaRef{Kind: bot.ModalityPhoto, ID: "P", Name: "IMG_2041.png", MIME: "image/png", Size: 1000}},
		{bot.ModalityVoice, bot.MediaRef{Kind: bot.ModalityVoice, ID: "A", Name: "memo.m4a", MIME: "audio/mp4", Size: 1000}},
		{bot.ModalityOther, bot.MediaRef{Kind: bot.ModalityOther, ID: "D", Name: "report.pdf", MIME: "application/pdf", Size: 1000}},
		{bot.ModalityOther, bot.MediaRef{Kind: bot.ModalityOther, ID: "V", Name: "clip.mp4", MIME: "video/mp4", Size: 1000}},
		{bot.ModalityOther, bot.MediaRef{Kind: bot.ModalityOther, ID: "G", MIME: "video/mp4", Size: 10}},
	}
	for i, m := range in.messages() {
		if m.Modality != want[i].modality || m.Media == nil || *m.Media != want[i].media {
			t.Errorf("message %d: %s %+v, want %s %+v", i+1, m.Modality, m.Media, want[i].modality, want[i].media)
		}
	}
	if got := in.messages()[2].Text; got != "can you read this?" {
		t.Errorf("the PDF's caption = %q", got)
	}
	if n := len(f.CallsTo("getFile")); n != 0 {
		t.Errorf("%d getFile calls: the transport fetches nothing itself", n)
	}
}

// Issue 14 item 1: getFile, then the file from /file/bot<token>/<path> on
// the endpoint's host; a --local server's absolute path is read instead; a
// reported size past the limit is refused before downloading; the token
// never appears in an error.
func TestFetchMedia(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	ogg := []byte("OggS voice note bytes")
	path := f.AddFile("V1", ogg)
	rc, err := tr.FetchMedia(t.Context(), bot.MediaRef{Kind: bot.ModalityVoice, ID: "V1"})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(data, ogg) || len(f.Downloads()) != 1 || f.Downloads()[0] != path {
		t.Fatalf("downloaded %q from %v", data, f.Downloads())
	}

	f.AddFile("P1", []byte("jpeg"))
	f.ReportSize("P1", bot.MaxPhotoBytes+1)
	if _, err := tr.FetchMedia(t.Context(), bot.MediaRef{Kind: bot.ModalityPhoto, ID: "P1"}); !errors.Is(err, bot.ErrMediaTooLarge) {
		t.Fatalf("oversized photo: %v", err)
	}
	if len(f.Downloads()) != 1 {
		t.Fatal("an oversized file was downloaded")
	}
	_, err = tr.FetchMedia(t.Context(), bot.MediaRef{Kind: bot.ModalityVoice, ID: "missing"})
	if err == nil || strings.Contains(err.Error(), testToken) {
		t.Fatalf("unknown file: %v", err)
	}

	f.LocalMode(t, t.TempDir())
	rc, err = tr.FetchMedia(t.Context(), bot.MediaRef{Kind: bot.ModalityVoice, ID: "V1"})
	if err != nil {
		t.Fatal(err)
	}
	data, _ = io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(data, ogg) || len(f.Downloads()) != 1 {
		t.Fatalf("local mode: %q, downloads %v", data, f.Downloads())
	}
}

func TestFileURL(t *testing.T) {
	for endpoint, want := range map[string]string{
		"":                                  "https://api.telegram.org/file/botTOK/voice/file_1.oga",
		"http://127.0.0.1:8081/bot%s/%s":    "http://127.0.0.1:8081/file/botTOK/voice/file_1.oga",
		"https://proxy.example/tg/bot%s/%s": "https://proxy.example/tg/file/botTOK/voice/file_1.oga",
	} {
		if endpoint == "" {
			endpoint = "https://api.telegram.org/bot%s/%s"
		}
		if got := fileURL(endpoint, "TOK", "voice/file_1.oga"); got != want {
			t.Errorf("fileURL(%q) = %q, want %q", endpoint, got, want)
		}
	}
}

// Issue 14 item 2: a spoken reply is a real voice note (sendVoice) with
// the text as its caption when it fits, else followed by the text.
func TestSendVoiceNote(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	audio := []byte("OggS spoken reply")
	v := &bot.Voice{MIME: "audio/ogg", Data: audio, Duration: 2500 * time.Millisecond}
	sent, err := tr.Send(t.Context(), annChat, bot.Outgoing{Text: "Good night, sleep well.", Voice: v})
	if err != nil || len(sent.MessageIDs) != 1 {
		t.Fatalf("Send = %+v, %v", sent, err)
	}
	vc := f.CallsTo("sendVoice")
	if len(vc) != 1 || !bytes.Equal(vc[0].Files["voice"].Data, audio) || vc[0].Files["voice"].Name != "voice.ogg" ||
		vc[0].Params.Get("caption") != "Good night, sleep well." || vc[0].Params.Get("duration") != "3" {
		t.Fatalf("sendVoice = %+v", vc)
	}
	if n := len(f.CallsTo("sendMessage")); n != 0 {
		t.Fatalf("%d text messages besides a captioned voice note", n)
	}

	long := strings.Repeat("A long thought. ", 100) // over the 1024-character caption limit
	mp3 := &bot.Voice{MIME: "audio/mpeg", Data: []byte("ID3 mp3")}
	sent, err = tr.Send(t.Context(), annChat, bot.Outgoing{Text: long, Voice: mp3})
	if err != nil || len(sent.MessageIDs) != 2 {
		t.Fatalf("Send long = %+v, %v", sent, err)
	}
	vc = f.CallsTo("sendVoice")
	if vc[1].Params.Get("caption") != "" || vc[1].Files["voice"].Name != "voice.mp3" {
		t.Fatalf("second voice = %+v", vc[1])
	}
	if msgs := f.CallsTo("sendMessage"); len(msgs) != 1 || msgs[0].Params.Get("text") != strings.TrimSpace(long) && msgs[0].Params.Get("text") != long {
		t.Fatalf("text after the voice note = %+v", msgs)
	}
	if calls := f.Calls(); calls[len(calls)-2].Method != "sendVoice" || calls[len(calls)-1].Method != "sendMessage" {
		t.Fatal("the text went out before the voice note")
	}
}
