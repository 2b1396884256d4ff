package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"hearth/heart"
	"hearth/store"
)

// unheard says why a voice note could not be heard; "" when it was heard or
// there was none.
type unheard string

const (
	heardOK         unheard = ""
	unheardOff      unheard = "off"     // hearing is off or unavailable, the brain is offline or the budget spent
	unheardUnclear  unheard = "unclear" // the transcription failed or found no words
	unheardTooLong  unheard = "too_long"
	unheardTooLarge unheard = "too_large"
	unheardFormat   unheard = "format" // the server cannot read the recording's format
)

// hear is a voice note's first stage (DESIGN §12), before the bot decides
// whether it was addressed: in a group, a voice note that names the
// companion is meant for her. The transcript becomes the message's text for
// the whole turn and is stored, with the transcription's cost, before
// anything else happens; a crash before that transcribes again on restart.
// When hearing fails the message stays as it was and why says what went
// wrong; an error means the transcript could not be stored.
func (h *Handler) hear(ctx context.Context, in store.Inbound) (_ store.Inbound, why unheard, _ error) {
	ref, ok := decodeMedia(in.Media)
	if !ok || ref.Kind != ModalityVoice {
		return in, heardOK, nil
	}
	fetch, ok := h.fetcher(in.Platform)
	if !ok {
		return in, unheardOff, nil
	}
	now := h.cfg.Now()
	if _, offline := h.brainFor(ctx, in.UserID, now); offline {
		return in, unheardOff, nil // DESIGN §8: past the budget, no transcription
	}
	if in.Addressed { // group chatter gets no "typing…" while she listens
		stop := h.typing(ctx, in)
		defer stop()
	}
	stage := time.Now()
	tr, err := h.cfg.Media.Transcribe(ctx, ref, fetch, h.cfg.Persona.Language)
	h.obs.Stage("hear", time.Since(stage))
	h.obs.Media(UsageTranscription, tr.Seconds, err)
	use := []store.Usage{{At: now.UTC(), Kind: UsageTranscription, UserID: in.UserID,
		Prompt: tr.Seconds * TokensPerTranscribedSecond, Units: tr.Seconds}}
	if err != nil {
		why = unheardReason(err)
		level := slog.LevelWarn
		if errors.Is(err, ErrSenseDown) {
			level = slog.LevelDebug // the senses logged the outage once; this note was not even sent
		}
		h.log.Log(ctx, level, "voice note not heard", "user", in.UserID, "inbound", in.ID, "reason", why, "err", err)
		return in, why, nil
	}
	words := strings.TrimSpace(tr.Text)
	if words == "" {
		if err := h.cfg.Store.AddUsage(ctx, use...); err != nil {
			h.log.Warn("record transcription usage", "err", err)
		}
		return in, unheardUnclear, nil
	}
	text := words
	if caption := strings.TrimSpace(in.Text); caption != "" {
		text = caption + "\n" + words
	}
	addressed := in.Addressed || (in.ChatKind == string(ChatGroup) && heart.NamesCompanion(text, h.cfg.Persona.Name))
	if err := h.cfg.Store.SetInboundHeard(ctx, in.ID, text, addressed, "", use); err != nil {
		return in, heardOK, fmt.Errorf("store transcript of message %d: %w", in.ID, err)
	}
	in.Text, in.Addressed, in.Media = text, addressed, ""
	return in, heardOK, nil
}

// fetcher is the transport of platform when it can fetch media and the
// senses are wired.
func (h *Handler) fetcher(platform string) (MediaFetcher, bool) {
	if h.cfg.Media == nil {
		return nil, false
	}
	f, ok := h.cfg.Senders[platform].(MediaFetcher)
	return f, ok
}

func unheardReason(err error) unheard {
	switch {
	case errors.Is(err, ErrMediaTooLarge):
		return unheardTooLarge
	case errors.Is(err, ErrMediaTooLong):
		return unheardTooLong
	case errors.Is(err, ErrMediaFormat):
		return unheardFormat
	case errors.Is(err, ErrSenseOff):
		return unheardOff
	}
	return unheardUnclear
}

// answerUnheard answers a voice note that could not be heard and carried no
// words: kindly, in the persona's language, saying what happened, never
// guessing. The turn completes: the message is answered with its modality
// kept and the exchange is in the chat's history; like a command it does not
// count as a message.
func (h *Handler) answerUnheard(ctx context.Context, in store.Inbound, u store.User, why unheard, now time.Time) error {
	text := senseText(h.cfg.Persona.Language, why)
	chat := ChatRef{Platform: in.Platform, ChatID: in.ChatID, Kind: ChatKind(in.ChatKind)}
	u.LastUserAt, u.LastBotAt = in.At, now.UTC()
	t := store.Turn{
		InboundID: in.ID, User: u, Reply: h.outbound(u.ID, chat, "reply", in.ID, text, now),
		Episode: store.Episode{UserID: u.ID, Platform: in.Platform, ChatID: in.ChatID, InboundID: in.ID,
			UserText: modalityPlaceholder(in.Modality), ReplyText: text, At: now.UTC(), Modality: in.Modality},
	}
	ids, err := h.cfg.Store.CommitTurn(ctx, t)
	if err != nil {
		return fmt.Errorf("commit unheard voice note of %s: %w", u.ID, err)
	}
	h.tallied(t)
	h.deliverCommitted(ctx, t, ids)
	return nil
}

// look is the photo stage (DESIGN §12): a photo reaches the reply model as
// a data: URL when vision is on and the online brain answers; otherwise, or
// when it cannot be fetched, the companion is told she could not see it. A
// voice note still carrying its media was not heard: she is told that too.
func (h *Handler) look(ctx context.Context, m *moment) {
	ref, ok := decodeMedia(m.in.Media)
	switch {
	case !ok:
		return
	case ref.Kind == ModalityVoice:
		m.unsensed = ModalityVoice
		return
	case ref.Kind == ModalityOther:
		m.unsensed, m.file = ModalityOther, ref
		return
	case ref.Kind != ModalityPhoto:
		return
	case ref.Size > MaxPhotoBytes:
		// The platform said how big it is: too big to look at, whoever
		// answers, and she says so rather than "I can't look right now".
		m.unsensed, m.tooLarge = ModalityPhoto, true
		return
	}
	fetch, ok := h.fetcher(m.in.Platform)
	if !ok || !h.cfg.Vision || m.offline {
		m.unsensed = ModalityPhoto
		return
	}
	stage := time.Now()
	url, err := h.cfg.Media.Picture(ctx, ref, fetch)
	h.obs.Stage("look", time.Since(stage))
	if err != nil {
		h.log.Warn("photo not fetched; she will say she could not see it", "user", m.u.ID, "inbound", m.in.ID, "err", err)
		m.unsensed, m.tooLarge = ModalityPhoto, errors.Is(err, ErrMediaTooLarge)
		return
	}
	m.images = []string{url}
}

// Notes to the reply model about what the companion could not perceive; it
// must say so honestly and never invent what it did not hear or see. The
// file's note names the file (fileNote).
var unsensedNotes = map[Modality]string{
	ModalityVoice: "[The user sent a voice note, but you could not listen to it. Say so honestly and kindly; do not guess what it said.]",
	ModalityPhoto: "[The user sent a photo, but you could not see it. Say so honestly and kindly; never describe or guess what it shows.]",
	ModalityOther: "[The user sent %s, but you cannot open files or watch videos here. Say so honestly and kindly; never guess what it contains.]",
}

// tooLargeNote is the note for a photo larger than MaxPhotoBytes, with the
// limit, so she can say why and what would work.
const tooLargeNote = "[The user sent a photo, but it is larger than the %s you can look at, so you could not see it. Say so honestly and kindly, with that limit, and that a smaller one would work; never describe or guess what it shows.]"

// UnsensedPhotoTooLarge is Hints.Unsensed for a photo she could not see
// because it is larger than MaxPhotoBytes.
const UnsensedPhotoTooLarge = "photo_too_large"

// PhotoLimit is MaxPhotoBytes in the words she says it with ("5 MB").
func PhotoLimit() string { return fmt.Sprintf("%d MB", MaxPhotoBytes>>20) }

// maxFileNameRunes bounds the file name a note shows (hearth's choice: a
// name is a hint, not content; Telegram allows 255 bytes).
const maxFileNameRunes = 64

// unsensedNote is the note for what m could not perceive, a file said to
// be a video or a file, and named.
func (m *moment) unsensedNote() string {
	note := unsensedNotes[m.unsensed]
	if m.tooLarge {
		return fmt.Sprintf(tooLargeNote, PhotoLimit())
	}
	if m.unsensed != ModalityOther {
		return note
	}
	what := "a file"
	if strings.HasPrefix(strings.ToLower(m.file.MIME), "video/") {
		what = "a video"
	}
	if n := []rune(strings.TrimSpace(heart.NeutraliseMarkers(m.file.Name))); len(n) > 0 {
		what += fmt.Sprintf(" (%q)", string(n[:min(len(n), maxFileNameRunes)]))
	}
	return fmt.Sprintf(note, what)
}

// senseRequest puts the turn's photo into the reply request's last user
// message, or tells the model and the offline brain what the companion
// could not perceive.
func (m *moment) senseRequest(req *Request) {
	last := -1
	for i, msg := range req.Messages {
		if msg.Role == "user" {
			last = i
		}
	}
	if last < 0 {
		return
	}
	req.Messages[last].Images = m.images
	if m.unsensed != "" {
		req.Messages[last].Content = m.unsensedNote() + "\n" + req.Messages[last].Content
		req.Hints.Unsensed = string(m.unsensed)
		if m.tooLarge {
			req.Hints.Unsensed = UnsensedPhotoTooLarge
		}
	}
}

// unseen is req for a brain that cannot look (the offline brain standing
// in for a model that failed): a photo the request carries is taken out,
// and the brain told she could not see it, so the stand-in never answers
// as if no photo had been sent.
func unseen(req Request) Request {
	last := -1
	for i, msg := range req.Messages {
		if msg.Role == "user" {
			last = i
		}
	}
	if last < 0 || len(req.Messages[last].Images) == 0 {
		return req
	}
	req.Messages = slices.Clone(req.Messages)
	req.Messages[last].Images = nil
	req.Messages[last].Content = unsensedNotes[ModalityPhoto] + "\n" + req.Messages[last].Content
	req.Hints.Unsensed = string(ModalityPhoto)
	return req
}

// replyBrain is the brain of the reply call: with a photo, one that asks
// again without it if the model refuses images.
func (h *Handler) replyBrain(m *moment) Brain {
	if len(m.images) == 0 {
		return m.brain
	}
	return seeing{Brain: m.brain, h: h, m: m}
}

// seeing is the reply brain of a turn with a photo. When the model refuses
// image parts (a model without vision), it asks once more without them and
// tells the model she could not see the photo (DESIGN §12: never invent a
// description). A photo the model took is counted as an image input.
type seeing struct {
	Brain
	h *Handler
	m *moment
}

func (s seeing) Complete(ctx context.Context, req Request) (Response, error) {
	resp, err := s.Brain.Complete(ctx, req)
	if err == nil {
		s.h.obs.Media(UsageImage, len(s.m.images), nil)
		s.m.mediaUse = append(s.m.mediaUse, store.Usage{At: s.m.now.UTC(), Kind: UsageImage, UserID: s.m.u.ID, Units: len(s.m.images)})
	}
	if !errors.Is(err, ErrImagesRejected) {
		return resp, err
	}
	s.h.obs.Media(UsageImage, 0, err)
	s.h.log.Warn("the model refused the photo; asking again without it", "user", s.m.u.ID, "err", err)
	s.m.images, s.m.unsensed = nil, ModalityPhoto
	req.Messages = slices.Clone(req.Messages)
	s.m.senseRequest(&req)
	return s.Brain.Complete(ctx, req)
}

// speakReply is the speaking stage (DESIGN §12): the reply is also spoken
// when the persona's voice.replies says so (mirror: a voice note heard is
// answered with one). Crisis turns, the offline brain and a spent budget
// stay text; crisis resources and the trailer are never spoken, and a
// failure of speech leaves the reply as text.
func (h *Handler) speakReply(ctx context.Context, m *moment) {
	mode := h.cfg.Persona.Voice.Replies
	heardVoice := m.in.Modality == string(ModalityVoice) && m.unsensed == ""
	if h.cfg.Media == nil || m.offline || m.urgent() || strings.TrimSpace(m.reply) == "" ||
		mode == VoiceNever || (mode != VoiceAlways && !heardVoice) {
		return
	}
	name := h.cfg.Persona.Voice.Name
	if name == "" {
		name = DefaultVoice
	}
	stage := time.Now()
	stop := h.typing(ctx, m.in)
	v, chars, err := h.cfg.Media.Speak(ctx, m.reply, name)
	stop()
	h.obs.Stage("voice", time.Since(stage))
	h.obs.Media(UsageSpeech, chars, err)
	if err != nil {
		level := slog.LevelWarn
		if errors.Is(err, ErrSenseDown) {
			level = slog.LevelDebug
		}
		h.log.Log(ctx, level, "reply not spoken; it goes out as text", "user", m.u.ID, "err", err)
		return
	}
	m.voice = &v
	m.mediaUse = append(m.mediaUse, store.Usage{At: m.now.UTC(), Kind: UsageSpeech, UserID: m.u.ID,
		Prompt: chars * TokensPerSpokenCharacter, Units: chars})
}

// sensed adds what the senses did to a turn about to be committed: their
// cost, and the spoken reply as part of the reply's one ledger entry.
func (m *moment) sensed(t store.Turn) store.Turn {
	t.Usage = append(t.Usage, m.mediaUse...)
	if m.voice != nil && t.Reply != nil {
		o, err := encodeOutgoing(Outgoing{Text: t.Reply.Text, Voice: m.voice})
		if err == nil {
			t.Reply.Attachment, t.Reply.Voice = o.Attachment, o.Voice
		}
	}
	return t
}
