package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/bot/discord/discordtest"
	"hearth/bot/media/mediatest"
	"hearth/bot/telegram/telegramtest"
)

// The senses end to end (issue 14): the built binary against the fake Bot
// API or Discord, the fake model server and the fake audio server.

// sensesEnv is the environment of a daemon with a brain and an audio server.
func sensesEnv(llm *fakeLLM, audio *mediatest.Server) []string {
	return []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=test-key-123456",
		"HEARTH_AUDIO_BASE_URL=" + audio.URL(), "HEARTH_AUDIO_API_KEY=audio-key-123456"}
}

// noTokenReachedTheModel fails when any request the model server received
// carries a platform token or a Telegram file link.
func noTokenReachedTheModel(t *testing.T, llm *fakeLLM, tokens ...string) {
	t.Helper()
	llm.mu.Lock()
	defer llm.mu.Unlock()
	if len(llm.bodies) == 0 {
		t.Fatal("the model received no request")
	}
	for i, b := range llm.bodies {
		for _, tok := range append(tokens, "/file/bot") {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("model request %d contains %q", i, tok)
			}
		}
	}
}

func voiceUpdate(id int64, chat, from map[string]any, fileID string, seconds int) map[string]any {
	return map[string]any{"message_id": id, "from": from, "chat": chat, "date": 1700000000 + id,
		"voice": map[string]any{"file_id": fileID, "file_unique_id": "u" + fileID, "duration": seconds, "mime_type": "audio/ogg"}}
}

// Voice in, transcript in the prompt, voice out; in a group, a voice note
// is heard before deciding, and naming her addresses her.
func TestTelegramVoiceNoteInVoiceNoteOut(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llm, audio := newFakeLLM(t), mediatest.NewServer(t)
	audio.Transcript = "I had a rough day. Say good night to me?"
	note := mediatest.OggOpus(3 * time.Second)
	tg.AddFile("V1", note)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, append(telegramEnv(tg), sensesEnv(llm, audio)...))

	tg.Push("message", voiceUpdate(1, telegramtest.PrivateChat(annID), telegramtest.User(annID, "Ann"), "V1", 3))
	waitFor(t, "the voice reply", func() bool { return len(tg.CallsTo("sendVoice")) == 1 })
	v := tg.CallsTo("sendVoice")[0]
	if v.Params.Get("chat_id") != "42" || v.Params.Get("caption") != llm.reply || len(v.Files["voice"].Data) == 0 ||
		!bytes.HasPrefix(v.Files["voice"].Data, []byte("OggS")) || v.Params.Get("duration") != "2" {
		t.Fatalf("sendVoice = %+v", v.Params)
	}
	llm.mu.Lock()
	prompt := llm.lastUser[len(llm.lastUser)-1]
	llm.mu.Unlock()
	if prompt != audio.Transcript {
		t.Fatalf("reply prompt's user message = %q, want the transcript", prompt)
	}
	c := audio.Calls("transcriptions")
	if len(c) != 1 || c[0].FileSize != int64(len(note)) || c[0].Language != "en" || c[0].Auth != "Bearer audio-key-123456" {
		t.Fatalf("transcription = %+v", c)
	}
	if s := audio.Calls("speech"); len(s) != 1 || s[0].Input != llm.reply || s[0].Voice != "alloy" {
		t.Fatalf("speech = %+v", s)
	}

	group, bo := telegramtest.GroupChat(groupID), telegramtest.User(43, "Bo")
	tg.AddFile("G1", note)
	tg.AddFile("G2", note)
	audio.Set(func(s *mediatest.Server) { s.Transcript = "did anyone see the game" })
	tg.Push("message", voiceUpdate(2, group, bo, "G1", 3))
	waitFor(t, "the group chatter heard", func() bool { return len(audio.Calls("transcriptions")) == 2 })
	audio.Set(func(s *mediatest.Server) { s.Transcript = "Luna, did you see it?" })
	tg.Push("message", voiceUpdate(3, group, bo, "G2", 3))
	waitFor(t, "the group reply", func() bool { return len(tg.CallsTo("sendVoice")) == 2 })
	d.term(t)
	if n := len(tg.CallsTo("sendVoice")) + len(tg.SentTo(groupID)) + len(tg.SentTo(annID)); n != 2 {
		t.Errorf("%d messages sent, want two voice notes (chatter unanswered)", n)
	}
	noTokenReachedTheModel(t, llm, e2eTelegramToken)

	r := runHearth(t, "", nil, "state", "--db", db)
	var doc struct {
		Tokens struct {
			Today              int `json:"today"`
			TranscribedSeconds int `json:"transcribed_seconds"`
			SpokenCharacters   int `json:"spoken_characters"`
		} `json:"tokens"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Tokens.TranscribedSeconds != 9 ||
		doc.Tokens.SpokenCharacters != 2*len(llm.reply) {
		t.Fatalf("state tokens = %+v, %v\n%s", doc.Tokens, err, r.stdout)
	}
}

// A photo reaches the model as a data: URL of the largest size within the
// limit, never as a link with the token; a model without vision is asked
// again without it and she says she could not see it.
func TestTelegramPhotoIsSeenWithoutTheToken(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llm, audio := newFakeLLM(t), mediatest.NewServer(t)
	photo := append([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), bytes.Repeat([]byte("cat"), 5000)...)
	tg.AddFile("thumb", photo[:200])
	tg.AddFile("full", photo)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, append(telegramEnv(tg), sensesEnv(llm, audio)...))

	photoMsg := func(id int64) map[string]any {
		return map[string]any{"message_id": id, "from": telegramtest.User(annID, "Ann"), "chat": telegramtest.PrivateChat(annID),
			"date": 1700000000 + id, "caption": "my cat today", "photo": []map[string]any{
				{"file_id": "thumb", "width": 90, "height": 90, "file_size": 200},
				{"file_id": "full", "width": 1280, "height": 960, "file_size": len(photo)},
			}}
	}
	tg.Push("message", photoMsg(1))
	waitSends(t, tg, annID, 1)
	llm.mu.Lock()
	images, prompt := llm.lastImages[0], llm.lastUser[0]
	llm.rejectImages = true
	llm.mu.Unlock()
	want := "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(photo)
	if len(images) != 1 || images[0] != want || prompt != "my cat today" {
		t.Fatalf("reply request: %q with %d images (want the full photo as a data: URL)", prompt, len(images))
	}
	if dl := tg.Downloads(); len(dl) != 1 {
		t.Fatalf("downloads = %v, want the full size only", dl)
	}

	tg.Push("message", photoMsg(2))
	waitSends(t, tg, annID, 2)
	d.term(t)
	llm.mu.Lock()
	n := len(llm.lastUser)
	retry, retryImages := llm.lastUser[n-1], llm.lastImages[n-1]
	llm.mu.Unlock()
	// Three reply calls: the first photo, the refused one, its retry (the
	// fake records the user message of answered calls only).
	if llm.count("reply") != 3 || n != 2 || len(retryImages) != 0 || !strings.Contains(retry, "could not see it") {
		t.Fatalf("after the refusal: %d reply calls, last %q with %d images", llm.count("reply"), retry, len(retryImages))
	}
	noTokenReachedTheModel(t, llm, e2eTelegramToken)
}

// Each audio endpoint failing still yields an honest text answer: no
// transcription endpoint (404) → she cannot listen; speech down → text.
func TestTelegramAudioFailuresAnswerInText(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llm, audio := newFakeLLM(t), mediatest.NewServer(t)
	tg.AddFile("V1", mediatest.OggOpus(2*time.Second))
	tg.AddFile("V2", mediatest.OggOpus(2*time.Second))
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, append(telegramEnv(tg), sensesEnv(llm, audio)...))
	ann := telegramtest.User(annID, "Ann")

	audio.Fail("transcriptions", http.StatusNotFound, "")
	tg.Push("message", voiceUpdate(1, telegramtest.PrivateChat(annID), ann, "V1", 2))
	first := waitSends(t, tg, annID, 1)[0].Params.Get("text")
	if !strings.Contains(first, "can't listen to voice notes") {
		t.Fatalf("reply to an unheard voice note = %q", first)
	}
	if llm.count("reply") != 0 {
		t.Fatal("the model was asked about a voice note nobody heard")
	}
	// The endpoint rests for an hour: the next voice note is not sent there.
	tg.Push("message", voiceUpdate(2, telegramtest.PrivateChat(annID), ann, "V2", 2))
	waitSends(t, tg, annID, 2)
	if n := len(audio.Calls("transcriptions")); n != 1 {
		t.Fatalf("%d transcription calls within the hour after a 404, want 1", n)
	}
	d.term(t)
	if !strings.Contains(d.stderr.String(), "answered 404") || strings.Count(d.stderr.String(), "answered 404") != 1 {
		t.Errorf("the 404 should be logged once:\n%s", d.stderr.String())
	}
	if strings.Contains(d.stderr.String(), "audio-key-123456") {
		t.Error("the audio key reached the log")
	}

	// Speech fails: the reply to a heard voice note goes out as text.
	tg2 := telegramtest.NewServer(t, e2eTelegramToken)
	audio2 := mediatest.NewServer(t)
	tg2.AddFile("V3", mediatest.OggOpus(2*time.Second))
	for range 2 {
		audio2.Fail("speech", http.StatusInternalServerError, "")
	}
	d2 := startDaemon(t, ctx, filepath.Join(t.TempDir(), "nana.db"), append(telegramEnv(tg2), sensesEnv(llm, audio2)...))
	tg2.Push("message", voiceUpdate(1, telegramtest.PrivateChat(annID), ann, "V3", 2))
	reply := waitSends(t, tg2, annID, 1)[0].Params.Get("text")
	d2.term(t)
	if reply != llm.reply || len(tg2.CallsTo("sendVoice")) != 0 {
		t.Fatalf("reply %q with %d voice notes, want the text alone", reply, len(tg2.CallsTo("sendVoice")))
	}
}

// Discord: a voice message in, a voice message (flag, no content) and the
// text out; the attachment is fetched without the bot token.
func TestDiscordVoiceMessageInVoiceMessageOut(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	dc := discordtest.NewServer(t, e2eDiscordToken)
	llm, audio := newFakeLLM(t), mediatest.NewServer(t)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, append(discordEnv(dc), sensesEnv(llm, audio)...))
	waitDiscordReady(t, dc)

	m := discordDM("m1", "dm1", "43", "")
	m["flags"] = 1 << 13
	m["attachments"] = []any{dc.AddAttachment("voice-message.ogg", "audio/ogg", mediatest.OggOpus(2*time.Second), 2)}
	dc.Dispatch("MESSAGE_CREATE", m)
	waitFor(t, "the voice reply and its text", func() bool { return len(channelMsgs(dc, "dm1")) == 2 })
	d.term(t)
	got := channelMsgs(dc, "dm1")
	if got[0].Flags&(1<<13) == 0 || got[0].Content != "" || len(got[0].Files) != 1 || got[1].Content != llm.reply {
		t.Fatalf("sent = %+v", got)
	}
	if dl := dc.Downloads(); len(dl) != 1 || dl[0].Auth != "" {
		t.Fatalf("downloads = %+v", dl)
	}
	noTokenReachedTheModel(t, llm, e2eDiscordToken)
}
