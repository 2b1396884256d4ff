package bot

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"
)

// Limits of the senses (DESIGN §12). Transports use them to choose what to
// fetch (the largest Telegram photo within MaxPhotoBytes); bot/media
// enforces them while streaming.
const (
	// MaxVoiceBytes bounds a voice note or audio file: the Telegram Bot API
	// serves files "of up to 20 MB in size" to bots (getFile), and whisper-1
	// accepts uploads up to 25 MiB, so nothing bigger could be heard anyway.
	MaxVoiceBytes = 20 << 20
	// MaxVoiceDuration bounds what is transcribed (hearth's choice: ten
	// minutes is a long voice note; longer ones are answered with a clear
	// "too long" instead of a large bill).
	MaxVoiceDuration = 10 * time.Minute
	// MaxPhotoBytes bounds a photo sent to the model as a data: URL
	// (hearth's choice: Telegram's largest photo size is usually well under
	// 1 MB; 5 MiB keeps one reply request under about 7 MB of JSON).
	MaxPhotoBytes = 5 << 20
	// MaxSpeechRunes bounds a spoken reply: OpenAI's /audio/speech accepts
	// input "up to 4096 characters"; longer replies go out as text only.
	MaxSpeechRunes = 4096
)

// Voice reply modes, persona key voice.replies (DESIGN §9).
const (
	VoiceMirror = "mirror" // a voice note is answered with a voice note (default)
	VoiceAlways = "always" // every reply of a turn is spoken
	VoiceNever  = "never"  // replies are text only
)

// DefaultVoice is the speech voice when the persona names none (OpenAI's
// first voice, which every compatible server we know of accepts).
const DefaultVoice = "alloy"

// Errors of the senses. bot/media and the transports wrap them so the turn
// can tell the user plainly what happened.
var (
	// ErrMediaTooLarge: the file is larger than its limit.
	ErrMediaTooLarge = errors.New("media too large")
	// ErrMediaTooLong: the recording or the text to speak is too long.
	ErrMediaTooLong = errors.New("media too long")
	// ErrSenseOff: hearing or speech is switched off, or its endpoint is
	// unavailable for now (a 404, the server unreachable or failing after
	// its retry, the API key refused).
	ErrSenseOff = errors.New("sense unavailable")
	// ErrSenseDown: the call was not made because its endpoint is known
	// to be failing (bot/media's fail-fast); it comes with ErrSenseOff.
	// The senses logged the outage once, so the turn logs it at DEBUG.
	ErrSenseDown = errors.New("sense known down")
	// ErrMediaFormat: the server cannot read the recording's format (a
	// WMA or AMR file a speech server does not decode).
	ErrMediaFormat = errors.New("media format not supported")
	// ErrImagesRejected: the model refused a request because of its image
	// parts (a model without vision); the turn retries once without them.
	ErrImagesRejected = errors.New("model rejected images")
)

// MediaRef is a voice note, audio file or photo as a transport reported it,
// or a file she cannot open (ModalityOther: a document, a video), which is
// never fetched but named to the model so she can say so. The bytes stay
// on the platform until a turn fetches them (MediaFetcher), so a restart
// can fetch them again; it is stored with the message.
type MediaRef struct {
	Kind    Modality `json:"kind"`              // ModalityVoice, ModalityPhoto or ModalityOther
	ID      string   `json:"id"`                // the platform's file id or URL, for the transport only
	Name    string   `json:"name,omitempty"`    // a file name for uploads ("voice.ogg")
	MIME    string   `json:"mime,omitempty"`    // "" when the platform did not say
	Size    int64    `json:"size,omitempty"`    // bytes; 0 when unknown
	Seconds float64  `json:"seconds,omitempty"` // duration of a recording; 0 when unknown
	// Shared is what a location, contact, poll or dice says (Kind one of
	// ModalityLocation, ModalityContact, ModalityPoll, ModalityDice; ID
	// then empty): nothing to fetch, all there is to tell.
	Shared *Shared `json:"shared,omitempty"`
}

// MediaFetcher is implemented by transports whose platform carries files.
// FetchMedia opens ref's bytes; the caller closes the reader and enforces
// the size limit while reading. A size the platform reports beyond the
// limit is an error wrapping ErrMediaTooLarge before anything is read.
type MediaFetcher interface {
	FetchMedia(ctx context.Context, ref MediaRef) (io.ReadCloser, error)
}

// Transcript is what hearing made of a voice note.
type Transcript struct {
	Text    string
	Seconds int // of audio transcribed, for cost accounting (rounded up)
}

// Voice is a spoken reply: OGG/Opus audio (MP3 from servers that cannot
// make Opus), its length, and a coarse waveform for platforms that draw one.
type Voice struct {
	MIME     string        `json:"mime"`
	Data     []byte        `json:"-"` // kept in the ledger's voice column, not in the attachment JSON
	Duration time.Duration `json:"duration"`
	// Waveform is up to 256 loudness samples 0-255 (Discord voice messages).
	Waveform []byte `json:"waveform,omitempty"`
}

// Media is what the turn needs of bot/media: downloads within the limits
// above, transcription and speech. Nil in Config means no senses at all.
type Media interface {
	// Transcribe fetches a voice note and transcribes it with lang ("en",
	// "zh", "ja") as a hint. Errors wrap ErrMediaTooLarge, ErrMediaTooLong
	// or ErrSenseOff where they apply.
	Transcribe(ctx context.Context, ref MediaRef, fetch MediaFetcher, lang string) (Transcript, error)
	// Picture fetches a photo as a data: URL for an image content part.
	Picture(ctx context.Context, ref MediaRef, fetch MediaFetcher) (string, error)
	// Speak says text in the named voice. Markup is not spoken. It returns
	// how many characters were spoken, for cost accounting.
	Speak(ctx context.Context, text, voice string) (Voice, int, error)
}

// Usage kinds of media calls, with their units (store.Usage.Units).
const (
	UsageTranscription = "transcription" // seconds of audio
	UsageSpeech        = "speech"        // characters spoken
	UsageImage         = "image"         // images shown to the model
)

// Token equivalents of media calls, so the daily budget (DESIGN §8) bounds
// them with the same number as the model's tokens. hearth's choices, from
// OpenAI's audio models: user audio is billed as about 1 token per 100 ms,
// and spoken output at about 20 tokens per second, roughly one per
// character of speech. Images are counted by the model itself, in the
// reply's prompt tokens.
const (
	TokensPerTranscribedSecond = 10
	TokensPerSpokenCharacter   = 1
)

// encodeMedia is the inbound row's media column for ref ("" for none).
func encodeMedia(ref *MediaRef) string {
	if ref == nil {
		return ""
	}
	raw, err := json.Marshal(ref)
	if err != nil {
		panic("media reference is plain data and always encodes: " + err.Error())
	}
	return string(raw)
}

// decodeMedia reads an inbound row's media column; false for none or an
// unreadable one.
func decodeMedia(raw string) (MediaRef, bool) {
	if raw == "" {
		return MediaRef{}, false
	}
	var ref MediaRef
	if json.Unmarshal([]byte(raw), &ref) != nil || (ref.ID == "" && (ref.Shared == nil || !shared(ref.Kind))) {
		return MediaRef{}, false
	}
	return ref, true
}
