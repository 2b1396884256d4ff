package discord

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"

	"github.com/bwmarrin/discordgo"

	"hearth/bot"
)

// voiceMessageName is the file name Discord's own clients give a voice
// message; a voice message is one OGG/Opus attachment without content
// (Discord API docs, "Voice Messages").
const voiceMessageName = "voice-message.ogg"

// mediaOf reports a message's voice message, audio file or image for the
// turn to fetch (DESIGN §12), nil for none: with the voice-message flag or
// an audio type its first audio attachment, else its first image, else its
// first other file (a document, a video: never fetched, so she can say she
// cannot open it). The attachment URL is the reference; it carries no token.
func mediaOf(m *discordgo.Message) *bot.MediaRef {
	voice := m.Flags&discordgo.MessageFlagsIsVoiceMessage != 0
	var image, other *discordgo.MessageAttachment
	for _, a := range m.Attachments {
		if a == nil || !fetchable(a.URL) {
			continue
		}
		ct := strings.ToLower(a.ContentType)
		switch {
		case strings.HasPrefix(ct, "audio/") || (voice && image == nil && !strings.HasPrefix(ct, "image/")):
			name, mime := a.Filename, a.ContentType
			if mime == "" {
				mime = "audio/ogg" // a voice message is OGG/Opus
			}
			if name == "" {
				name = voiceMessageName
			}
			return &bot.MediaRef{Kind: bot.ModalityVoice, ID: a.URL, Name: name, MIME: mime,
				Size: int64(max(a.Size, 0)), Seconds: max(a.DurationSecs, 0)}
		case strings.HasPrefix(ct, "image/") && image == nil:
			image = a
		case !strings.HasPrefix(ct, "image/") && other == nil:
			other = a
		}
	}
	if image == nil && other != nil {
		return &bot.MediaRef{Kind: bot.ModalityOther, ID: other.URL, Name: other.Filename, MIME: other.ContentType,
			Size: int64(max(other.Size, 0))}
	}
	if image == nil {
		return pollOf(m)
	}
	return &bot.MediaRef{Kind: bot.ModalityPhoto, ID: image.URL, Name: image.Filename, MIME: image.ContentType,
		Size: int64(max(image.Size, 0))}
}

// fetchable reports whether u is an http(s) URL hearth may download.
func fetchable(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "https" || p.Scheme == "http") && p.Host != ""
}

// FetchMedia downloads an attachment (bot.MediaFetcher). Attachment URLs
// are signed CDN links: no Authorization is sent with them. A size past
// the limit of ref's kind is ErrMediaTooLarge before anything is read.
func (t *Transport) FetchMedia(ctx context.Context, ref bot.MediaRef) (io.ReadCloser, error) {
	limit := int64(bot.MaxVoiceBytes)
	if ref.Kind == bot.ModalityPhoto {
		limit = bot.MaxPhotoBytes
	}
	if ref.Size > limit {
		return nil, fmt.Errorf("discord attachment: %d bytes: %w", ref.Size, bot.ErrMediaTooLarge)
	}
	if !fetchable(ref.ID) {
		return nil, fmt.Errorf("discord attachment: not an http(s) URL")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ref.ID, nil)
	if err != nil {
		return nil, fmt.Errorf("discord attachment: %w", err)
	}
	resp, err := (&http.Client{Transport: t.http}).Do(req) // bounded by ctx
	if err != nil {
		return nil, fmt.Errorf("discord attachment: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("discord attachment: status %d", resp.StatusCode)
	}
	return resp.Body, nil
}

// voicePayload is a create-message body with attachment metadata, which
// discordgo's MessageSend cannot carry.
type voicePayload struct {
	Flags           discordgo.MessageFlags            `json:"flags,omitempty"`
	Attachments     []voiceAttachment                 `json:"attachments"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
}

type voiceAttachment struct {
	ID           string  `json:"id"`
	Filename     string  `json:"filename"`
	DurationSecs float64 `json:"duration_secs,omitempty"`
	Waveform     string  `json:"waveform,omitempty"`
}

// sendVoice posts a spoken reply to the channel: OGG/Opus as a voice
// message (flag IS_VOICE_MESSAGE, with duration and waveform, no content),
// anything else (MP3 from servers without Opus) as a plain audio file.
func (t *Transport) sendVoice(ctx context.Context, chatID string, v *bot.Voice) (*discordgo.Message, error) {
	att := voiceAttachment{ID: "0", Filename: voiceMessageName}
	p := voicePayload{AllowedMentions: noPings()}
	if v.MIME == "audio/ogg" && v.Duration > 0 {
		p.Flags = discordgo.MessageFlagsIsVoiceMessage
		att.DurationSecs = math.Round(v.Duration.Seconds()*100) / 100
		wave := v.Waveform
		if len(wave) == 0 {
			wave = []byte{0} // Discord requires one; a flat line is honest
		}
		att.Waveform = base64.StdEncoding.EncodeToString(wave)
	} else {
		att.Filename = "voice.mp3"
	}
	p.Attachments = []voiceAttachment{att}
	file := &discordgo.File{Name: att.Filename, ContentType: v.MIME, Reader: strings.NewReader(string(v.Data))}
	ctype, body, err := discordgo.MultipartBodyWithJSON(p, []*discordgo.File{file})
	if err != nil {
		return nil, fmt.Errorf("discord: voice message: %w", err)
	}
	endpoint := discordgo.EndpointChannelMessages(chatID)
	resp, err := t.s.RequestRaw(http.MethodPost, endpoint, ctype, body, endpoint, 0, discordgo.WithContext(ctx))
	if err != nil {
		return nil, classify("discord: voice message to "+chatID, err)
	}
	var msg discordgo.Message
	if err := json.Unmarshal(resp, &msg); err != nil {
		return nil, fmt.Errorf("discord: voice message answer: %w", err)
	}
	return &msg, nil
}

// pollOf reports a message's poll (Discord's one equivalent of Telegram's
// shared locations, contacts, polls and dice) for the turn to describe in
// words: its question and its answers' texts; nil for none.
func pollOf(m *discordgo.Message) *bot.MediaRef {
	if m.Poll == nil {
		return nil
	}
	s := bot.Shared{Name: m.Poll.Question.Text}
	for _, a := range m.Poll.Answers {
		if a.Media != nil && a.Media.Text != "" {
			s.Options = append(s.Options, a.Media.Text)
		}
	}
	return &bot.MediaRef{Kind: bot.ModalityPoll, Shared: &s}
}
