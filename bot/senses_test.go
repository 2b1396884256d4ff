package bot_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/media"
	"hearth/bot/media/mediatest"
	"hearth/store"
)

// platform is a recorder that also holds the platform's files, as a
// transport does (bot.MediaFetcher).
type platform struct {
	*recorder
	mu      sync.Mutex
	files   map[string][]byte
	fetches int
}

func (p *platform) FetchMedia(_ context.Context, ref bot.MediaRef) (io.ReadCloser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fetches++
	data, ok := p.files[ref.ID]
	if !ok {
		return nil, fmt.Errorf("file %s: not found", ref.ID)
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

func (p *platform) sent() []bot.Outgoing {
	p.recorder.mu.Lock()
	defer p.recorder.mu.Unlock()
	var out []bot.Outgoing
	for _, s := range p.recorder.sent {
		out = append(out, s.out)
	}
	return out
}

// sensesEnv is a handler with senses: the real bot/media against the fake
// audio server, and a platform holding a voice note and a photo.
type sensesEnv struct {
	*env
	audio *mediatest.Server
	plat  *platform
}

var jpeg = append([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), bytes.Repeat([]byte("photo"), 400)...)

func newSensesEnv(t *testing.T, mutate ...func(*bot.Config)) *sensesEnv {
	t.Helper()
	audio := mediatest.NewServer(t)
	m, err := media.New(media.Config{BaseURL: audio.URL(), APIKey: "k", STTModel: "whisper-1", TTSModel: "tts-1",
		TempDir: t.TempDir(), RetryWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	plat := &platform{recorder: &recorder{}, files: map[string][]byte{
		"VOICE": mediatest.OggOpus(4 * time.Second), "PHOTO": jpeg,
	}}
	e := newEnv(t, append([]func(*bot.Config){func(c *bot.Config) {
		c.Media, c.Vision = m, true
		c.Senders = map[string]bot.Sender{bot.PlatformTelegram: plat}
	}}, mutate...)...)
	e.out = plat.recorder
	return &sensesEnv{env: e, audio: audio, plat: plat}
}

func voiceMsg(user string) bot.Message {
	m := msg(user, "")
	m.Modality = bot.ModalityVoice
	m.Media = &bot.MediaRef{Kind: bot.ModalityVoice, ID: "VOICE", MIME: "audio/ogg", Seconds: 4}
	return m
}

func photoMsg(user, caption string) bot.Message {
	m := msg(user, caption)
	m.Modality = bot.ModalityPhoto
	m.Media = &bot.MediaRef{Kind: bot.ModalityPhoto, ID: "PHOTO"}
	return m
}

// lastUser is the last user message of the last request of kind.
func (e *env) lastUser(t *testing.T, kind bot.Kind) (bot.ChatMessage, bot.Request) {
	t.Helper()
	e.brain.mu.Lock()
	defer e.brain.mu.Unlock()
	for i := len(e.brain.reqs) - 1; i >= 0; i-- {
		if r := e.brain.reqs[i]; r.Kind == kind {
			return r.Messages[len(r.Messages)-1], r
		}
	}
	t.Fatalf("no %s request", kind)
	return bot.ChatMessage{}, bot.Request{}
}

// Seed 004 (他让我用声音说了晚安) and issue 14 items 1-2: a voice note's
// transcript is the text of the whole turn, stored as the message and the
// episode with its modality, and the reply is a voice note with its text.
func TestVoiceNoteIsHeardAndAnsweredWithAVoiceNote(t *testing.T) {
	ctx := context.Background()
	e := newSensesEnv(t)
	e.audio.Transcript = "I feel so lonely tonight. Can you say good night to me?"
	e.send(t, voiceMsg("41"))
	e.h.Drain()

	for _, kind := range []bot.Kind{bot.KindPerception, bot.KindReply} {
		if last, _ := e.lastUser(t, kind); last.Content != e.audio.Transcript {
			t.Errorf("%s request's user message = %q, want the transcript", kind, last.Content)
		}
	}
	c := e.audio.Calls("transcriptions")
	if len(c) != 1 || c[0].Language != "en" {
		t.Fatalf("transcriptions = %+v", c)
	}
	out := e.plat.sent()
	if len(out) != 1 || out[0].Voice == nil || out[0].Voice.MIME != "audio/ogg" || out[0].Text == "" || len(out[0].Voice.Data) == 0 {
		t.Fatalf("sent = %+v, want one voice note with its text", out)
	}
	sp := e.audio.Calls("speech")
	if len(sp) != 1 || sp[0].Voice != bot.DefaultVoice || !strings.Contains(out[0].Text, sp[0].Input) {
		t.Fatalf("speech = %+v for reply %q", sp, out[0].Text)
	}
	eps, _ := e.db.ChatHistory(ctx, bot.PlatformTelegram, "41", 0)
	if len(eps) != 1 || eps[0].UserText != e.audio.Transcript || eps[0].Modality != "voice" {
		t.Fatalf("episode = %+v", eps)
	}
	sigs, _ := e.db.Signals(ctx, "telegram:41", time.Time{})
	for _, s := range sigs {
		if s.Modality != "voice" {
			t.Errorf("signal %s has modality %q, want voice (seed 003 §1.1)", s.Tag, s.Modality)
		}
	}
	// Issue 14 item 5: seconds and characters are counted and budgeted.
	st, err := bot.BuildState(ctx, e.db, bot.StateOptions{Persona: testPersona(), Now: time.Now()})
	if err != nil || st.Tokens.TranscribedSeconds != 4 || st.Tokens.SpokenCharacters != len([]rune(sp[0].Input)) {
		t.Fatalf("state tokens = %+v, %v", st.Tokens, err)
	}
	want := 4*bot.TokensPerTranscribedSecond + len([]rune(sp[0].Input))*bot.TokensPerSpokenCharacter + 30
	if st.Tokens.Today != want {
		t.Fatalf("tokens today = %d, want %d (LLM 30 + transcription + speech)", st.Tokens.Today, want)
	}
	if u := e.user(t, "telegram:41"); u.Messages != 1 {
		t.Fatalf("messages = %d", u.Messages)
	}
}

// DESIGN §3 step 1 with a voice note: it is stored, reference and all,
// before any call. A crash before the transcript was kept transcribes again
// at the next start; once the transcript is kept it is not heard again.
func TestVoiceNoteSurvivesACrash(t *testing.T) {
	ctx := context.Background()
	e := newSensesEnv(t)
	// What HandleMessage stored just before the process died.
	ref, _ := json.Marshal(voiceMsg("42").Media)
	if _, _, err := e.db.InsertInbound(ctx, store.Inbound{Platform: bot.PlatformTelegram, ChatID: "42", ChatKind: "private",
		MessageID: "v1", UserID: "telegram:42", UserName: "Ann", Modality: "voice", Addressed: true, At: time.Now(),
		Media: string(ref)}); err != nil {
		t.Fatal(err)
	}
	if err := e.h.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	e.h.Drain()
	if n := len(e.audio.Calls("transcriptions")); n != 1 {
		t.Fatalf("%d transcriptions after the restart, want 1", n)
	}
	if out := e.plat.sent(); len(out) != 1 || out[0].Voice == nil {
		t.Fatalf("sent = %+v, want the voice note answered once", out)
	}
	in, _ := e.db.Export(ctx, "telegram:42")
	if in.Inbound[0].Text != e.audio.Transcript || in.Inbound[0].Media != "" {
		t.Fatalf("stored message = %+v", in.Inbound[0])
	}
	// A crash after the transcript was kept: the next start finds words.
	if err := e.db.SetInboundStatus(ctx, in.Inbound[0].ID, store.StatusReceived); err != nil {
		t.Fatal(err)
	}
	if err := e.h.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	e.h.Drain()
	if n := len(e.audio.Calls("transcriptions")); n != 1 {
		t.Fatalf("%d transcriptions, want still 1", n)
	}
	if last, _ := e.lastUser(t, bot.KindReply); last.Content != e.audio.Transcript {
		t.Fatalf("prompt after restart = %q", last.Content)
	}
}

// Issue 14 item 4: when she could not make it out, too long, too large or
// unable to listen, a kind text reply in the persona's language says so;
// the message is answered with its modality and nothing is invented.
func TestUnheardVoiceNotesGetAnHonestAnswer(t *testing.T) {
	for _, c := range []struct {
		name, lang string
		setup      func(*sensesEnv, *bot.Message)
		want       string
	}{
		// A server failing after its retry cannot be used right now:
		// asking to say it again would only fail again.
		{"failing endpoint", "en", func(e *sensesEnv, _ *bot.Message) {
			e.audio.Fail("transcriptions", http.StatusInternalServerError, "")
			e.audio.Fail("transcriptions", http.StatusBadGateway, "")
		}, "can't listen to voice notes right now"},
		{"a refusal of this recording", "en", func(e *sensesEnv, _ *bot.Message) {
			e.audio.Fail("transcriptions", http.StatusBadRequest, `{"error":{"message":"Audio file is too short."}}`)
		}, "couldn't make out"},
		{"a format the server cannot read", "ja", func(e *sensesEnv, _ *bot.Message) {
			e.audio.Fail("transcriptions", http.StatusBadRequest, `{"error":{"message":"Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']"}}`)
		}, "その形式の音声ファイルは開けない"},
		{"nothing said", "zh", func(e *sensesEnv, _ *bot.Message) { e.audio.Transcript = "  " }, "没能听清"},
		{"too long", "ja", func(_ *sensesEnv, m *bot.Message) { m.Media.Seconds = 3600 }, "長すぎて"},
		{"too large", "en", func(_ *sensesEnv, m *bot.Message) { m.Media.Size = bot.MaxVoiceBytes + 1 }, "too large"},
		{"endpoint missing", "en", func(e *sensesEnv, _ *bot.Message) {
			e.audio.Fail("transcriptions", http.StatusNotFound, "")
		}, "can't listen"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newSensesEnv(t, func(cfg *bot.Config) { cfg.Persona.Language = c.lang })
			m := voiceMsg("43")
			c.setup(e, &m)
			e.send(t, m)
			e.h.Drain()
			texts := e.out.texts("43")
			if len(texts) != 1 || !strings.Contains(texts[0], c.want) {
				t.Fatalf("replies = %q, want one containing %q", texts, c.want)
			}
			if n := e.brain.count(bot.KindReply) + e.brain.count(bot.KindPerception); n != 0 {
				t.Fatalf("%d LLM calls about a voice note nobody heard", n)
			}
			if in, _ := e.db.PendingInbound(context.Background()); len(in) != 0 {
				t.Fatalf("message still pending: %+v", in)
			}
			eps, _ := e.db.ChatHistory(context.Background(), bot.PlatformTelegram, "43", 0)
			if len(eps) != 1 || eps[0].Modality != "voice" || eps[0].UserText != "[voice message]" {
				t.Fatalf("episode = %+v", eps)
			}
		})
	}
}

// Issue 14 item 1: in a group the voice note is transcribed before the
// bot decides whether it was addressed; spoken words address it by name.
func TestGroupVoiceNoteAddressedByName(t *testing.T) {
	e := newSensesEnv(t)
	group := func(id string) bot.Message {
		m := voiceMsg("44")
		m.ChatID, m.ChatKind, m.Addressed, m.MessageID = "-100", bot.ChatGroup, false, id
		return m
	}
	e.audio.Transcript = "anyway, pass the salt please"
	e.send(t, group("g1"))
	e.h.Drain()
	if n := len(e.out.texts("-100")); n != 0 || e.out.typing != 0 {
		t.Fatalf("chatter answered: %d replies, %d typing", n, e.out.typing)
	}
	e.audio.Transcript = "Luna, what do you think about that?"
	e.send(t, group("g2"))
	e.h.Drain()
	if n := len(e.out.texts("-100")); n != 1 {
		t.Fatalf("%d replies to a voice note naming Luna, want 1", n)
	}
	if last, _ := e.lastUser(t, bot.KindReply); last.Content != e.audio.Transcript {
		t.Fatalf("prompt = %q", last.Content)
	}
	if n := len(e.audio.Calls("transcriptions")); n != 2 {
		t.Fatalf("%d transcriptions, want both notes heard", n)
	}
}

// Issue 14 item 3: the photo reaches the reply model as a data: URL of the
// full photo, with its caption as the text, and is counted.
func TestPhotoReachesTheModelAsADataURL(t *testing.T) {
	e := newSensesEnv(t)
	e.send(t, photoMsg("45", "my cat today"))
	e.h.Drain()
	last, _ := e.lastUser(t, bot.KindReply)
	want := "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(jpeg)
	if len(last.Images) != 1 || last.Images[0] != want || last.Content != "my cat today" {
		t.Fatalf("user message = %q with %d images", last.Content, len(last.Images))
	}
	if p, _ := e.lastUser(t, bot.KindPerception); len(p.Images) != 0 {
		t.Fatal("perception got the photo")
	}
	st, _ := bot.BuildState(context.Background(), e.db, bot.StateOptions{Persona: testPersona(), Now: time.Now()})
	if st.Tokens.ImageInputs != 1 {
		t.Fatalf("image inputs = %d", st.Tokens.ImageInputs)
	}
	if out := e.plat.sent(); len(out) != 1 || out[0].Voice != nil {
		t.Fatalf("sent = %+v, want text (mirror: a photo is not a voice note)", out)
	}
}

// A model that refuses images is asked once more without them and told she
// could not see it; with vision off she is told at once. Never a guess.
func TestPhotoNotSeenIsSaidHonestly(t *testing.T) {
	const note = "you could not see it"
	t.Run("model refuses", func(t *testing.T) {
		e := newSensesEnv(t)
		refused := 0
		e.brain.mu.Lock()
		e.brain.failWhen = func(req bot.Request) error {
			if req.Kind == bot.KindReply && len(req.Messages[len(req.Messages)-1].Images) > 0 {
				refused++
				return fmt.Errorf("400: image_url not supported: %w", bot.ErrImagesRejected)
			}
			return nil
		}
		e.brain.mu.Unlock()
		e.send(t, photoMsg("46", ""))
		e.h.Drain()
		last, req := e.lastUser(t, bot.KindReply)
		if refused != 1 || len(last.Images) != 0 || !strings.Contains(last.Content, note) || req.Hints.Unsensed != "photo" {
			t.Fatalf("refused %d times; retry = %q, %d images, hints %q", refused, last.Content, len(last.Images), req.Hints.Unsensed)
		}
		if n := len(e.out.texts("46")); n != 1 {
			t.Fatalf("%d replies", n)
		}
	})
	t.Run("model fails", func(t *testing.T) {
		// The reply call with the photo fails for good (a 5xx after the
		// retries, a timeout): the offline brain standing in is told she
		// could not see it, instead of answering as if no photo came.
		e := newSensesEnv(t)
		e.brain.mu.Lock()
		e.brain.fail[bot.KindReply] = errBoom
		e.brain.mu.Unlock()
		e.send(t, photoMsg("49", ""))
		e.h.Drain()
		want := "I can't look at photos right now, I'm sorry. Would you tell me what's in it?"
		if got := e.out.texts("49"); len(got) != 1 || got[0] != want {
			t.Fatalf("replies %q, want %q", got, want)
		}
	})
	t.Run("vision off", func(t *testing.T) {
		e := newSensesEnv(t, func(c *bot.Config) { c.Vision = false })
		e.send(t, photoMsg("47", "look!"))
		e.h.Drain()
		last, _ := e.lastUser(t, bot.KindReply)
		if len(last.Images) != 0 || !strings.Contains(last.Content, note) || !strings.HasSuffix(last.Content, "look!") || e.plat.fetches != 0 {
			t.Fatalf("user message = %q, %d images, %d fetches", last.Content, len(last.Images), e.plat.fetches)
		}
	})
}

// Issue 14 item 5: past the daily budget, no transcription and no speech;
// the offline answer says she cannot listen right now.
func TestBudgetSpentMeansNoTranscriptionOrSpeech(t *testing.T) {
	e := newSensesEnv(t, func(c *bot.Config) { c.Persona.Budget.DailyTokens = 10 })
	if err := e.db.AddUsage(context.Background(), store.Usage{At: time.Now(), Kind: "reply", UserID: "telegram:48", Prompt: 10}); err != nil {
		t.Fatal(err)
	}
	e.send(t, voiceMsg("48"))
	e.send(t, photoMsg("48", "see?"))
	e.h.Drain()
	if n := len(e.audio.Calls("")); n != 0 || e.plat.fetches != 0 {
		t.Fatalf("%d audio calls and %d downloads past the budget", n, e.plat.fetches)
	}
	texts := e.out.texts("48")
	if len(texts) != 2 || !strings.Contains(texts[0], "can't listen") || !strings.Contains(texts[1], "can't look at photos") {
		t.Fatalf("replies = %q", texts)
	}
}

// voice.replies: always speaks text turns too, never speaks nothing; a
// speech failure or a crisis turn leaves text.
func TestVoiceReplyModes(t *testing.T) {
	for _, c := range []struct {
		name, mode string
		in         func() bot.Message
		fail       bool
		voice      bool
	}{
		{"always speaks text", bot.VoiceAlways, func() bot.Message { return msg("49", "how was your day?") }, false, true},
		{"mirror keeps text for text", "", func() bot.Message { return msg("49", "how was your day?") }, false, false},
		{"never", bot.VoiceNever, func() bot.Message { return voiceMsg("49") }, false, false},
		{"speech fails", bot.VoiceMirror, func() bot.Message { return voiceMsg("49") }, true, false},
		{"crisis", bot.VoiceAlways, func() bot.Message { return msg("49", "I want to kill myself") }, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newSensesEnv(t, func(cfg *bot.Config) { cfg.Persona.Voice = bot.VoiceSettings{Name: "nova", Replies: c.mode} })
			if c.fail {
				e.audio.Fail("speech", http.StatusInternalServerError, "")
				e.audio.Fail("speech", http.StatusInternalServerError, "")
			}
			e.send(t, c.in())
			e.h.Drain()
			out := e.plat.sent()
			if len(out) == 0 || out[0].Text == "" {
				t.Fatalf("sent = %+v", out)
			}
			if got := out[0].Voice != nil; got != c.voice {
				t.Fatalf("voice = %v, want %v", got, c.voice)
			}
			for _, o := range out[1:] {
				if o.Voice != nil {
					t.Fatalf("a second message (crisis resources?) was spoken: %+v", o)
				}
			}
		})
	}
}

// A voice reply is one ledger entry: not delivered, it is sent after a
// restart with the same audio, once, and its audio then leaves the file.
func TestVoiceReplyIsOneLedgerEntry(t *testing.T) {
	ctx := context.Background()
	e := newSensesEnv(t)
	e.plat.recorder.fail = fmt.Errorf("platform down")
	e.send(t, voiceMsg("50"))
	e.h.Drain()
	pending, _ := e.db.PendingOutbound(ctx)
	if len(pending) != 1 || len(pending[0].Voice) == 0 {
		t.Fatalf("pending = %+v", pending)
	}
	e.plat.recorder.mu.Lock()
	e.plat.recorder.fail = nil
	e.plat.recorder.mu.Unlock()
	if err := e.h.DeliverPending(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.h.DeliverPending(ctx); err != nil {
		t.Fatal(err)
	}
	out := e.plat.sent()
	if len(out) != 1 || out[0].Voice == nil || !bytes.Equal(out[0].Voice.Data, pending[0].Voice) {
		t.Fatalf("sent = %d messages, want the stored voice note once", len(out))
	}
	if n := len(e.audio.Calls("speech")); n != 1 {
		t.Fatalf("%d speech calls, want 1 (the audio is stored, not made again)", n)
	}
	if p, _ := e.db.PendingOutbound(ctx); len(p) != 0 {
		t.Fatalf("still pending: %+v", p)
	}
}
