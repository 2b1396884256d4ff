package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/bot/media/mediatest"
	"hearth/bot/telegram/telegramtest"
)

// The senses as a person meets them (DESIGN §12: "every failure still
// yields an honest text answer"): what she says back when she could not
// see, hear or open what was sent, through the fake Bot API, the fake
// model server and the fake audio server. Each message is recorded and
// answered once.

// personaIn is the example persona speaking lang.
func personaIn(t *testing.T, lang string) string {
	t.Helper()
	b, err := os.ReadFile(examplePersona(t))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("\nlanguage: en\n")) {
		t.Fatal("the example persona no longer says language: en")
	}
	p := filepath.Join(t.TempDir(), "luna-"+lang+".yaml")
	if err := os.WriteFile(p, bytes.Replace(b, []byte("\nlanguage: en\n"), []byte("\nlanguage: "+lang+"\n"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// tgMessage is a Bot API message from Ann in her private chat with the
// fields in kv added.
func tgMessage(id int64, kv ...any) map[string]any {
	m := map[string]any{"message_id": id, "from": telegramtest.User(annID, "Ann"), "chat": telegramtest.PrivateChat(annID),
		"date": 1700000000 + id}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func tgFile(id, name, mime string, size int) map[string]any {
	return map[string]any{"file_id": id, "file_unique_id": "u" + id, "file_name": name, "mime_type": mime, "file_size": size}
}

// answeredOnce fails unless every message hearth kept of Ann's was
// answered, n of them.
func answeredOnce(t *testing.T, db string, n int) {
	t.Helper()
	r := runHearth(t, "", nil, "export", "--db", db, "--user", "telegram:42")
	var ex struct {
		Inbound []struct {
			Status, Modality string
		} `json:"inbound"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ex); err != nil || len(ex.Inbound) != n {
		t.Fatalf("export: %d messages kept, want %d (%v)\n%s", len(ex.Inbound), n, err, r.stdout)
	}
	for i, in := range ex.Inbound {
		if in.Status != "answered" {
			t.Errorf("message %d (%s) is %q, want answered", i+1, in.Modality, in.Status)
		}
	}
}

// lastPrompt is the user message of the model's last reply request and how
// many images it carried.
func lastPrompt(llm *fakeLLM) (string, int) {
	llm.mu.Lock()
	defer llm.mu.Unlock()
	n := len(llm.lastUser)
	if n == 0 {
		return "", 0
	}
	return llm.lastUser[n-1], len(llm.lastImages[n-1])
}

// With the model up: a picture sent as a file is seen as a photo; a
// document or video she cannot open is named to the model with a note to
// say so; a vision model the server does not have is asked again without
// the photo, told she could not see it.
func TestTelegramFilesSheCannotOpenAreSaidHonestly(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llm, audio := newFakeLLM(t), mediatest.NewServer(t)
	photo := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte("cat"), 300)...)
	tg.AddFile("IMG", photo)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, append(append(telegramEnv(tg), sensesEnv(llm, audio)...), "HEARTH_VISION_MODEL=llava"))

	tg.Push("message", tgMessage(1, "document", tgFile("IMG", "IMG_2041.png", "image/png", len(photo))))
	waitSends(t, tg, annID, 1)
	if prompt, images := lastPrompt(llm); images != 1 || prompt != "[photo]" {
		t.Fatalf("a picture sent as a file: the model got %q with %d images, want the photo", prompt, images)
	}

	tg.Push("message", tgMessage(2, "caption", "can you read this?", "document", tgFile("PDF", "report.pdf", "application/pdf", 12345)))
	waitSends(t, tg, annID, 2)
	if prompt, _ := lastPrompt(llm); !strings.Contains(prompt, `you cannot open files`) || !strings.Contains(prompt, `"report.pdf"`) ||
		!strings.HasSuffix(prompt, "\ncan you read this?") {
		t.Fatalf("a PDF: the model got %q, want a note naming the file, then the caption", prompt)
	}
	tg.Push("message", tgMessage(3, "video", tgFile("MP4", "", "video/mp4", 1000)))
	waitSends(t, tg, annID, 3)
	if prompt, _ := lastPrompt(llm); !strings.HasPrefix(prompt, "[The user sent a video, but you cannot open files or watch videos") {
		t.Fatalf("a video: the model got %q", prompt)
	}
	// A location, a poll and a contact are described in words.
	for i, tc := range []struct {
		kind string
		v    any
		want string
	}{
		{"location", map[string]any{"latitude": 52.52, "longitude": 13.405}, "[location: 52.52, 13.40]"},
		{"poll", map[string]any{"id": "9", "question": "Pizza or sushi?", "options": []map[string]any{{"text": "pizza", "voter_count": 0},
			{"text": "sushi", "voter_count": 0}}, "total_voter_count": 0, "is_closed": false, "is_anonymous": true, "type": "regular",
			"allows_multiple_answers": false}, "[poll: Pizza or sushi? — pizza / sushi]"},
		{"contact", map[string]any{"phone_number": "+4915112345678", "first_name": "Mia", "last_name": "Chen"}, "[contact: Mia Chen]"},
	} {
		tg.Push("message", tgMessage(int64(10+i), tc.kind, tc.v))
		waitFor(t, "the model asked about the "+tc.kind, func() bool { p, _ := lastPrompt(llm); return p == tc.want })
	}
	waitSends(t, tg, annID, 6)
	llm.mu.Lock()
	for _, u := range llm.lastUser {
		if strings.Contains(u, "4915112345678") {
			t.Errorf("a contact's phone number reached the model: %q", u)
		}
	}
	llm.mu.Unlock()
	// Telegram names a photo's size: one past the limit is never
	// downloaded, and the model is told it was too large, and the limit.
	tg.Push("message", tgMessage(5, "caption", "look!", "document", tgFile("BIG", "IMG_0001.jpg", "image/jpeg", 7<<20)))
	waitSends(t, tg, annID, 7)
	if prompt, images := lastPrompt(llm); images != 0 || !strings.HasPrefix(prompt, "[The user sent a photo, but it is larger than the 5 MB you can look at") ||
		!strings.HasSuffix(prompt, "\nlook!") {
		t.Fatalf("a photo too large: the model got %q with %d images", prompt, images)
	}

	llm.mu.Lock()
	llm.imageStatus = http.StatusNotFound // HEARTH_VISION_MODEL not pulled
	llm.mu.Unlock()
	tg.Push("message", tgMessage(4, "caption", "my cat today", "photo", []map[string]any{{"file_id": "IMG", "width": 640, "height": 480, "file_size": len(photo)}}))
	waitSends(t, tg, annID, 8)
	if prompt, images := lastPrompt(llm); images != 0 || !strings.Contains(prompt, "you could not see it") || !strings.HasSuffix(prompt, "my cat today") {
		t.Fatalf("vision model missing: the model got %q with %d images, want it asked again without the photo", prompt, images)
	}
	d.term(t)
	if n := len(tg.SentTo(annID)); n != 8 {
		t.Errorf("%d replies to 8 messages", n)
	}
	if !strings.Contains(d.stderr.String(), "the model refused the photo; asking again without it") {
		t.Errorf("the log does not say the photo was refused:\n%s", tail(d.stderr.String(), 4096))
	}
	answeredOnce(t, db, 8)
	noTokenReachedTheModel(t, llm, e2eTelegramToken)
}

// Audio she cannot hear, in Chinese: a format the speech server cannot
// read gets "I can't open that kind of audio file", not "say it again";
// a speech server that is down gets "I can't listen right now".
func TestTelegramAudioSheCannotHearIsSaidHonestly(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llm, audio := newFakeLLM(t), mediatest.NewServer(t)
	tg.AddFile("WMA", []byte("0&\xb2u\x8ef\xcf\x11 a WMA file"))
	tg.AddFile("V1", mediatest.OggOpus(2*time.Second))
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemonWith(t, ctx, db, personaIn(t, "zh"), append(telegramEnv(tg), sensesEnv(llm, audio)...))

	// OpenAI's answer to a format it does not decode.
	audio.Fail("transcriptions", http.StatusBadRequest,
		`{"error":{"message":"Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']","type":"invalid_request_error"}}`)
	tg.Push("message", tgMessage(1, "audio", tgFile("WMA", "song.wma", "audio/x-ms-wma", 20)))
	if got := waitSends(t, tg, annID, 1)[0].Params.Get("text"); got != "抱歉，这种格式的音频我打不开。可以发一条语音，或者打字告诉我吗？" {
		t.Fatalf("an audio format the server cannot read: %q", got)
	}

	// The speech server goes down: the second note in a row that fails
	// makes it known down, and the third is answered at once, without
	// being downloaded (fail-fast), until the probe finds the server back.
	audio.Down(true)
	const cannotListen = "抱歉，我现在没办法听语音。可以打字告诉我吗？"
	for id := int64(2); id <= 4; id++ {
		tg.Push("message", voiceUpdate(id, telegramtest.PrivateChat(annID), telegramtest.User(annID, "Ann"), "V1", 2))
		if got := waitSends(t, tg, annID, int(id))[id-1].Params.Get("text"); got != cannotListen {
			t.Fatalf("voice note %d with the speech server down: %q", id, got)
		}
	}
	if n := len(tg.CallsTo("getFile")); n != 3 {
		t.Errorf("%d voice notes fetched from Telegram, want 3: none once the server is known down", n)
	}
	if llm.count("reply") != 0 {
		t.Error("the model was asked about audio nobody heard")
	}
	audio.Down(false)
	waitFor(t, "the probe to find the audio server back", func() bool {
		return strings.Contains(d.stderr.String(), "audio server reachable again")
	})
	tg.Push("message", voiceUpdate(5, telegramtest.PrivateChat(annID), telegramtest.User(annID, "Ann"), "V1", 2))
	waitFor(t, "the voice note heard and answered with one", func() bool { return len(tg.CallsTo("sendVoice")) == 1 })
	if n := len(audio.Calls("transcriptions")); n != 2 {
		t.Errorf("%d transcriptions, want the WMA and the note after the server came back", n)
	}
	d.term(t)
	log := d.stderr.String()
	if !strings.Contains(log, "reason=format") || !strings.Contains(log, "reason=off") || strings.Contains(log, "audio-key-123456") {
		t.Errorf("the log should give each reason, without the key:\n%s", tail(log, 4096))
	}
	if strings.Count(log, "audio server unreachable") != 1 || strings.Count(log, "audio server reachable again") != 1 ||
		strings.Count(log, `level=WARN msg="voice note not heard"`) != 3 {
		t.Errorf("want the outage logged once each way, and only the notes that were tried as not heard:\n%s", tail(log, 4096))
	}
	answeredOnce(t, db, 5)
}

// With only the offline brain, in Japanese: a photo sent alone is answered
// with her saying she cannot look right now and nothing else (no greeting
// and small talk about "[photo]"); a document she cannot open is said so.
func TestTelegramOfflineSaysWhatSheCannotTakeIn(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemonWith(t, ctx, db, personaIn(t, "ja"), telegramEnv(tg))

	tg.Push("message", tgMessage(1, "photo", []map[string]any{{"file_id": "IMG", "width": 640, "height": 480, "file_size": 900}}))
	if got := waitSends(t, tg, annID, 1)[0].Params.Get("text"); got != "ごめんね、いまは写真を見られないの。どんな写真か教えてくれる？" {
		t.Fatalf("a photo alone: %q", got)
	}
	tg.Push("message", tgMessage(2, "document", tgFile("PDF", "report.pdf", "application/pdf", 12345)))
	if got := waitSends(t, tg, annID, 2)[1].Params.Get("text"); got != "ごめんね、ここではファイルや動画を開けないの。どんな内容か教えてくれる？" {
		t.Fatalf("a document: %q", got)
	}
	// A picture sent as a file, larger than she can look at: she says it
	// is too big, and the limit, not "I can't look right now".
	tg.Push("message", tgMessage(3, "document", tgFile("BIG", "IMG_0001.jpg", "image/jpeg", 7<<20)))
	if got := waitSends(t, tg, annID, 3)[2].Params.Get("text"); got != "ごめんね、その写真は大きすぎて見られないの。5 MBまでの写真なら開けるから、小さめのを送ってくれる？" {
		t.Fatalf("a photo too large: %q", got)
	}
	// Things shared that are neither words nor files: answered for what
	// they are, never as a bare attachment.
	tg.Push("message", tgMessage(4, "dice", map[string]any{"emoji": "🎲", "value": 5}))
	if got := waitSends(t, tg, annID, 4)[3].Params.Get("text"); !strings.Contains(got, "5が出たね！") {
		t.Fatalf("a dice: %q", got)
	}
	tg.Push("message", tgMessage(5, "venue", map[string]any{"location": map[string]any{"latitude": 35.66, "longitude": 139.7},
		"title": "渋谷駅", "address": "東京都渋谷区"}, "location", map[string]any{"latitude": 35.66, "longitude": 139.7}))
	if got := waitSends(t, tg, annID, 5)[4].Params.Get("text"); !strings.Contains(got, "渋谷駅にいるの？") {
		t.Fatalf("a venue: %q", got)
	}
	d.term(t)
	answeredOnce(t, db, 5)
}
