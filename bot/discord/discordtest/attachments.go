package discordtest

import (
	"errors"
	"fmt"
	"net/http"
)

// voiceMessageFlag is IS_VOICE_MESSAGE (Discord API docs, "Message Flags":
// 1 << 13).
const voiceMessageFlag = 1 << 13

// Attachment is the metadata of one uploaded file in payload_json.
type Attachment struct {
	ID           string  `json:"id"`
	Filename     string  `json:"filename"`
	DurationSecs float64 `json:"duration_secs"`
	Waveform     string  `json:"waveform"`
}

// cdnFile is an attachment a user sent, as the CDN serves it.
type cdnFile struct {
	name, contentType string
	data              []byte
}

// Download is one attachment download the fake served.
type Download struct {
	ID   string
	Auth string // the Authorization header, which a CDN link must not need
}

// AddAttachment stores a file as if a user had attached it and returns the
// attachment object for a MESSAGE_CREATE, its URL on the fake's CDN.
// seconds > 0 marks a voice recording.
func (f *Server) AddAttachment(name, contentType string, data []byte, seconds float64) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.files == nil {
		f.files = map[string]cdnFile{}
	}
	f.nextID++
	id := fmt.Sprintf("a%d", f.nextID)
	f.files[id] = cdnFile{name: name, contentType: contentType, data: data}
	a := map[string]any{"id": id, "filename": name, "content_type": contentType, "size": len(data),
		"url": f.HTTP.URL + "/attachments/" + id + "/" + name + "?ex=signed"}
	if seconds > 0 {
		a["duration_secs"], a["waveform"] = seconds, "AAAA"
	}
	return a
}

// Downloads returns the attachment downloads served, in order.
func (f *Server) Downloads() []Download {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Download(nil), f.downloads...)
}

func (f *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	file, ok := f.files[r.PathValue("id")]
	if ok && file.name == r.PathValue("name") {
		f.downloads = append(f.downloads, Download{ID: r.PathValue("id"), Auth: r.Header.Get("Authorization")})
	}
	f.mu.Unlock()
	if !ok || file.name != r.PathValue("name") {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", file.contentType)
	_, _ = w.Write(file.data)
}

// voiceMessageRules are Discord's for a voice message: no content, one
// OGG audio file whose attachment names its duration and waveform.
func voiceMessageRules(flags int, content string, meta []Attachment, files []File) error {
	if flags&voiceMessageFlag == 0 {
		return nil
	}
	switch {
	case content != "":
		return errors.New("voice messages cannot have content")
	case len(files) != 1 || len(meta) != 1:
		return errors.New("a voice message is exactly one attachment")
	case files[0].ContentType != "audio/ogg":
		return fmt.Errorf("voice message type %q, want audio/ogg", files[0].ContentType)
	case meta[0].DurationSecs <= 0 || meta[0].Waveform == "":
		return errors.New("a voice message needs duration_secs and waveform")
	}
	return nil
}
