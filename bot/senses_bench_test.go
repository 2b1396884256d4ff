package bot_test

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/store"
)

// instantMedia hears and speaks at once, so what a voice turn costs beyond
// its two audio calls is hearth's own: the stored transcript, the speech
// stage, the audio in the ledger.
type instantMedia struct{ audio []byte }

func (instantMedia) Transcribe(_ context.Context, ref bot.MediaRef, _ bot.MediaFetcher, _ string) (bot.Transcript, error) {
	return bot.Transcript{Text: "I had a long day at work and my feet hurt #" + ref.ID, Seconds: 3}, nil
}

func (instantMedia) Picture(context.Context, bot.MediaRef, bot.MediaFetcher) (string, error) {
	return "data:image/png;base64,iVBORw0KGgo=", nil
}

func (m instantMedia) Speak(_ context.Context, text, _ string) (bot.Voice, int, error) {
	return bot.Voice{MIME: "audio/ogg", Data: m.audio, Duration: 2 * time.Second, Waveform: make([]byte, 64)}, len(text), nil
}

// voiceBenchSender is the bench transport with files.
type voiceBenchSender struct{ *benchSender }

func (voiceBenchSender) FetchMedia(context.Context, bot.MediaRef) (io.ReadCloser, error) {
	return io.NopCloser(strings.NewReader("OggS")), nil
}

// BenchmarkVoiceTurnOverhead is issue 14's "a voice turn's overhead beyond
// the two audio calls": a text turn and a voice turn per iteration, over benchUsers users
// with an instant brain and instant audio; it reports both latencies and
// what a voice turn adds.
func BenchmarkVoiceTurnOverhead(b *testing.B) {
	db, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "hearth.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	r := &rig{out: newBenchSender(), db: db, clock: &benchClock{}}
	// A 4-second reply in Opus at 32 kbit/s.
	m := instantMedia{audio: make([]byte, 16<<10)}
	h, err := bot.NewHandler(context.Background(), bot.Config{
		Persona: testPersona(), Store: db, Brain: instantBrain{}, Offline: brain.NewOffline(),
		Senders: map[string]bot.Sender{bot.PlatformTelegram: voiceBenchSender{r.out}},
		Now:     r.clock.Now, Media: m, Vision: true,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(h.Drain)
	r.h, r.in = h, h
	voice := func(user string) time.Duration {
		tok := r.seq.Add(1)
		id := strconv.FormatInt(tok, 10)
		r.out.expect(tok)
		if err := h.HandleMessage(context.Background(), bot.Message{
			Platform: bot.PlatformTelegram, ChatID: user, ChatKind: bot.ChatPrivate, MessageID: id,
			UserID: user, UserName: "User " + user, Modality: bot.ModalityVoice, Addressed: true,
			Media: &bot.MediaRef{Kind: bot.ModalityVoice, ID: id, Seconds: 3},
		}); err != nil {
			b.Fatal(err)
		}
		r.out.wait(b, 1)
		return r.out.latency(tok)
	}
	for i := range benchUsers { // first contact is not the steady state
		r.turn(b, userID(i))
	}
	var text, spoken []time.Duration
	b.ReportAllocs()
	i := 0
	for b.Loop() { // one text turn and one voice turn per iteration
		u := userID(i % benchUsers)
		text = append(text, r.turn(b, u))
		spoken = append(spoken, voice(u))
		i++
	}
	b.ReportMetric(micros(percentile(text, 0.50)), "text-p50-µs")
	b.ReportMetric(micros(percentile(spoken, 0.50)), "voice-p50-µs")
	b.ReportMetric(micros(percentile(spoken, 0.99)), "voice-p99-µs")
	b.ReportMetric(micros(percentile(spoken, 0.50)-percentile(text, 0.50)), "voice-extra-p50-µs")
}
