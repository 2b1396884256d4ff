package telegram

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"hearth/bot"
)

// maxCaptionUTF16 is the Bot API limit on a media caption ("0-1024
// characters after entities parsing"), counted like message text.
const maxCaptionUTF16 = 1024

// mediaOf reports a message's voice note, audio file, video note or photo
// for the turn to fetch (DESIGN §12), a picture or recording sent as a
// file like a photo or voice note, and any other file (a document, a
// video, a GIF) as one she cannot open, never fetched; nil for none. Of a
// photo's sizes it picks the largest within bot.MaxPhotoBytes, never the
// thumbnail unless that is all there is.
func mediaOf(m *wireMessage) *bot.MediaRef {
	voice := func(f *wireFile, name, mime string) *bot.MediaRef {
		if f.FileID == "" {
			return nil
		}
		if f.FileName != "" {
			name = f.FileName
		}
		if f.MimeType != "" {
			mime = f.MimeType
		}
		return &bot.MediaRef{Kind: bot.ModalityVoice, ID: f.FileID, Name: name, MIME: mime,
			Size: max(f.FileSize, 0), Seconds: float64(max(f.Duration, 0))}
	}
	switch {
	case len(m.Photo) > 0:
		if p, ok := largestPhoto(m.Photo); ok {
			return &bot.MediaRef{Kind: bot.ModalityPhoto, ID: p.FileID, Name: "photo.jpg", MIME: "image/jpeg", Size: max(p.FileSize, 0)}
		}
	case m.Voice != nil:
		return voice(m.Voice, "voice.ogg", "audio/ogg") // Telegram voice notes are OGG/Opus
	case m.Audio != nil:
		return voice(m.Audio, "audio.mp3", "audio/mpeg")
	case m.VideoNote != nil:
		return voice(m.VideoNote, "video_note.mp4", "video/mp4") // Whisper reads the sound of an MP4
	case m.Document != nil && documentKind(m.Document) == bot.ModalityPhoto:
		d := m.Document
		return &bot.MediaRef{Kind: bot.ModalityPhoto, ID: d.FileID, Name: d.FileName, MIME: d.MimeType, Size: max(d.FileSize, 0)}
	case m.Document != nil && documentKind(m.Document) == bot.ModalityVoice:
		return voice(m.Document, "audio", m.Document.MimeType)
	}
	if ref := sharedOf(m); ref != nil {
		return ref
	}
	// Telegram sends a GIF as an animation and as a document: the
	// animation says what it is.
	for _, f := range []*wireFile{m.Animation, m.Video, m.Document} {
		if f != nil && f.FileID != "" {
			return &bot.MediaRef{Kind: bot.ModalityOther, ID: f.FileID, Name: f.FileName, MIME: f.MimeType, Size: max(f.FileSize, 0)}
		}
	}
	return nil
}

// documentKind is what a file sent as a document is to the person who
// sent it, by the type Telegram reports: a picture is a photo, a recording
// a voice note; anything else a file (ModalityOther). The picture's bytes
// decide later whether a model can read it (bot/media sniffs them).
func documentKind(d *wireFile) bot.Modality {
	switch mime := strings.ToLower(d.MimeType); {
	case d.FileID == "":
		return bot.ModalityOther
	case strings.HasPrefix(mime, "image/"):
		return bot.ModalityPhoto
	case strings.HasPrefix(mime, "audio/"):
		return bot.ModalityVoice
	}
	return bot.ModalityOther
}

// largestPhoto picks the photo size with the most pixels whose size is
// known and within bot.MaxPhotoBytes; failing that, the smallest size (the
// download enforces the limit, and a photo she could not open is still a
// photo she was sent).
func largestPhoto(sizes []wireFile) (wireFile, bool) {
	var best, smallest wireFile
	found := false
	for _, p := range sizes {
		if p.FileID == "" {
			continue
		}
		if smallest.FileID == "" || area(p) < area(smallest) {
			smallest = p
		}
		if p.FileSize > 0 && p.FileSize <= bot.MaxPhotoBytes && (!found || area(p) > area(best)) {
			best, found = p, true
		}
	}
	if !found {
		return smallest, smallest.FileID != ""
	}
	return best, true
}

func area(p wireFile) int64 { return int64(max(p.Width, 0)) * int64(max(p.Height, 0)) }

// FetchMedia opens a file the platform holds (bot.MediaFetcher): getFile,
// then the file itself from /file/bot<token>/<file_path> on the host of
// TELEGRAM_API_ENDPOINT, or, from a local Bot API server (--local), the
// absolute path it names. The URL carries the token, so it stays inside
// this package and is redacted from every error. A size beyond the limit
// of ref's kind is ErrMediaTooLarge before anything is downloaded.
func (t *Transport) FetchMedia(ctx context.Context, ref bot.MediaRef) (io.ReadCloser, error) {
	limit := int64(bot.MaxVoiceBytes)
	if ref.Kind == bot.ModalityPhoto {
		limit = bot.MaxPhotoBytes
	}
	var f tgbotapi.File
	err := t.call(ctx, "telegram getFile", deliverPolicy(), func(api *tgbotapi.BotAPI) error {
		var err error
		f, err = api.GetFile(tgbotapi.FileConfig{FileID: ref.ID})
		return err
	})
	switch {
	case err != nil:
		return nil, err
	case int64(f.FileSize) > limit:
		return nil, fmt.Errorf("telegram file: %d bytes: %w", f.FileSize, bot.ErrMediaTooLarge)
	case f.FilePath == "":
		return nil, fmt.Errorf("telegram file: no file_path (larger than the Bot API serves?): %w", bot.ErrMediaTooLarge)
	case filepath.IsAbs(f.FilePath):
		file, err := os.Open(f.FilePath) // a --local Bot API server shares its disk
		if err != nil {
			return nil, fmt.Errorf("telegram local file: %w", err)
		}
		return file, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fileURL(t.endpoint, t.token, f.FilePath), nil)
	if err != nil {
		return nil, fmt.Errorf("telegram file: %w", redact(err, t.token))
	}
	// Downloads are bounded by the caller's deadline, not the poll timeout.
	client := *t.client
	client.Timeout = 0
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("telegram file: %w", redact(err, t.token))
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("telegram file: status %d", resp.StatusCode)
	}
	return resp.Body, nil
}

// fileURL is where the Bot API serves file_path: the endpoint's "/bot%s/%s"
// becomes "/file/bot%s/%s" (the library's FileEndpoint for the real API).
func fileURL(endpoint, token, path string) string {
	format := tgbotapi.FileEndpoint
	if i := strings.LastIndex(endpoint, "/bot%s/%s"); i >= 0 {
		format = endpoint[:i] + "/file/bot%s/%s"
	}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return fmt.Sprintf(format, token, strings.Join(segs, "/"))
}

// sendVoice sends a spoken reply as a voice note (sendVoice, not sendAudio:
// a voice bubble), with caption under it when there is one.
func (t *Transport) sendVoice(ctx context.Context, chat bot.ChatRef, chatID int64, v *bot.Voice, caption string, sent *bot.Sent) error {
	name := "voice.ogg"
	if v.MIME == "audio/mpeg" {
		name = "voice.mp3"
	}
	cfg := tgbotapi.NewVoice(chatID, tgbotapi.FileBytes{Name: name, Bytes: v.Data})
	cfg.Caption = caption
	cfg.Duration = int(math.Ceil(v.Duration.Seconds()))
	return t.sendOne(ctx, chat, "telegram sendVoice", cfg, sent)
}

// sharedOf reports a location (a venue by its name), contact, poll or
// dice, for the turn to describe in words; nil for none. A contact's
// phone number is left out: the person shared someone, not a number for
// the model.
func sharedOf(m *wireMessage) *bot.MediaRef {
	shared := func(kind bot.Modality, s bot.Shared) *bot.MediaRef {
		return &bot.MediaRef{Kind: kind, Shared: &s}
	}
	switch {
	case m.Venue != nil:
		v := m.Venue
		return shared(bot.ModalityLocation, bot.Shared{Name: v.Title, Address: v.Address, Lat: v.Location.Latitude, Lon: v.Location.Longitude})
	case m.Location != nil:
		return shared(bot.ModalityLocation, bot.Shared{Lat: m.Location.Latitude, Lon: m.Location.Longitude})
	case m.Contact != nil:
		return shared(bot.ModalityContact, bot.Shared{Name: strings.TrimSpace(m.Contact.FirstName + " " + m.Contact.LastName)})
	case m.Poll != nil:
		s := bot.Shared{Name: m.Poll.Question}
		for _, o := range m.Poll.Options {
			s.Options = append(s.Options, o.Text)
		}
		return shared(bot.ModalityPoll, s)
	case m.Dice != nil:
		return shared(bot.ModalityDice, bot.Shared{Name: m.Dice.Emoji, Value: m.Dice.Value})
	}
	return nil
}
