// Package mediatest is a fake OpenAI-compatible audio server on 127.0.0.1
// for tests of hearth's senses: /audio/transcriptions (multipart, answers
// {"text": ...}) and /audio/speech (JSON, answers Ogg/Opus or MP3 bytes).
// It also answers GET /models (what hearth's probe asks). It records every
// request, streams uploads without holding them, and lets a test inject
// failures, refuse Opus, hold transcriptions, or take the whole server
// down and bring it back.
package mediatest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Call is one request the fake received.
type Call struct {
	Path   string // "/v1/audio/transcriptions" or "/v1/audio/speech"
	Auth   string // the Authorization header
	Model  string
	Status int // what the fake answered
	// Transcriptions.
	Language      string
	Filename      string
	FileType      string
	FileSize      int64
	FileSHA256    [32]byte
	ContentLength int64 // -1: chunked
	// Speech.
	Input, Voice, Format string
}

type fault struct {
	status int
	body   string
}

// Server is the fake. Set its exported fields before the client calls, or
// under Set.
type Server struct {
	HTTP *httptest.Server

	mu sync.Mutex
	// Transcript is the text every transcription answers.
	Transcript string
	// SpeechLength is how long the spoken audio is.
	SpeechLength time.Duration
	// RefuseOpus answers 400 to speech requests asking for Opus.
	RefuseOpus bool
	// Hold, when non-nil, makes transcriptions wait until it is closed.
	Hold   chan struct{}
	calls  []Call
	faults map[string][]fault
	down   bool
}

// NewServer starts a fake; it is closed when the test ends.
func NewServer(t testing.TB) *Server {
	s := &Server{Transcript: "hello from a voice note", SpeechLength: 2 * time.Second, faults: map[string][]fault{}}
	s.HTTP = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.HTTP.Close)
	return s
}

// URL is the base URL for HEARTH_AUDIO_BASE_URL.
func (s *Server) URL() string { return s.HTTP.URL + "/v1" }

// Set runs f under the fake's lock, to change its fields while in use.
func (s *Server) Set(f func(s *Server)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// Fail makes the next request to endpoint ("transcriptions" or "speech")
// answer status with body; calls queue up.
func (s *Server) Fail(endpoint string, status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if body == "" {
		body = fmt.Sprintf(`{"error":{"message":%q}}`, http.StatusText(status))
	}
	s.faults[endpoint] = append(s.faults[endpoint], fault{status, body})
}

// Down takes the server down (true: every connection is closed before an
// answer, as a crashed or restarting server's would be, and nothing is
// recorded) or brings it back (false).
func (s *Server) Down(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

// Calls returns the requests received to endpoint ("" for all, "models"
// for probes), in order.
func (s *Server) Calls(endpoint string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if endpoint == "" || strings.HasSuffix(c.Path, "/"+endpoint) {
			out = append(out, c)
		}
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	down := s.down
	s.mu.Unlock()
	if down {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	c := Call{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), ContentLength: r.ContentLength}
	endpoint := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	var err error
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		c.Status = http.StatusOK
		s.record(c)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"whisper-1","object":"model"},{"id":"tts-1","object":"model"}]}`)
		return
	case r.Method != http.MethodPost:
		err = fmt.Errorf("method %s", r.Method)
	case r.URL.Path == "/v1/audio/transcriptions":
		err = readTranscription(r, &c)
	case r.URL.Path == "/v1/audio/speech":
		err = readSpeech(r, &c)
	default:
		c.Status = http.StatusNotFound
		s.record(c)
		http.NotFound(w, r)
		return
	}
	if err != nil {
		c.Status = http.StatusBadRequest
		s.record(c)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	var f *fault
	if fs := s.faults[endpoint]; len(fs) > 0 {
		f, s.faults[endpoint] = &fs[0], fs[1:]
	} else if endpoint == "speech" && s.RefuseOpus && c.Format == "opus" {
		f = &fault{http.StatusBadRequest, `{"error":{"message":"unsupported response_format opus"}}`}
	}
	transcript, length, hold := s.Transcript, s.SpeechLength, s.Hold
	s.mu.Unlock()
	if f != nil {
		c.Status = f.status
		s.record(c)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		_, _ = io.WriteString(w, f.body)
		return
	}
	c.Status = http.StatusOK
	s.record(c)
	if endpoint == "transcriptions" {
		if hold != nil {
			select {
			case <-hold:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"text": transcript})
		return
	}
	if c.Format == "opus" {
		w.Header().Set("Content-Type", "audio/ogg")
		_, _ = w.Write(OggOpus(length))
		return
	}
	w.Header().Set("Content-Type", "audio/mpeg")
	_, _ = w.Write(append([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"), make([]byte, int(length.Seconds()*16000))...))
}

// readSpeech reads a speech request's JSON body into c.
func readSpeech(r *http.Request, c *Call) error {
	return json.NewDecoder(r.Body).Decode(&struct {
		Model          *string `json:"model"`
		Input          *string `json:"input"`
		Voice          *string `json:"voice"`
		ResponseFormat *string `json:"response_format"`
	}{&c.Model, &c.Input, &c.Voice, &c.Format})
}

func (s *Server) record(c Call) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
}

// readTranscription streams a multipart upload: the fields are kept, the
// file only counted and hashed, so a large upload costs the fake nothing.
func readTranscription(r *http.Request, c *Call) error {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return fmt.Errorf("content type %q", r.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch p.FormName() {
		case "file":
			h := sha256.New()
			n, err := io.Copy(h, p)
			if err != nil {
				return err
			}
			c.Filename, c.FileType, c.FileSize = p.FileName(), p.Header.Get("Content-Type"), n
			copy(c.FileSHA256[:], h.Sum(nil))
		case "model", "language":
			v, _ := io.ReadAll(io.LimitReader(p, 1024))
			if p.FormName() == "model" {
				c.Model = string(v)
			} else {
				c.Language = string(v)
			}
		}
	}
	if c.Model == "" || c.FileSize == 0 {
		return fmt.Errorf("model and file are required")
	}
	return nil
}

// Ogg/Opus framing for OggOpus (RFC 3533, RFC 7845).
const (
	opusRate       = 48000
	packetDuration = 20 * time.Millisecond // a common Opus frame
	packetsPerPage = 50                    // one second per page
	preSkip        = 312                   // what libopus encoders write
)

// OggOpus builds a structurally valid Ogg/Opus stream of length d: the
// OpusHead and OpusTags pages, then audio pages whose packets vary in size
// (so a waveform has a shape) and whose granule positions count 48 kHz
// samples. The packets are not real Opus; nothing here decodes them.
func OggOpus(d time.Duration) []byte {
	head := []byte("OpusHead\x01\x01")
	head = binary.LittleEndian.AppendUint16(head, preSkip)
	head = binary.LittleEndian.AppendUint32(head, opusRate)
	head = append(head, 0, 0, 0)
	out := oggPage(nil, 0x02, 0, 0, [][]byte{head})
	out = oggPage(out, 0, 0, 1, [][]byte{[]byte("OpusTags\x06\x00\x00\x00hearth\x00\x00\x00\x00")})
	total := int(d / packetDuration)
	var granule uint64 = preSkip
	seq := uint32(2)
	for i := 0; i < total; i += packetsPerPage {
		var packets [][]byte
		for j := i; j < min(total, i+packetsPerPage); j++ {
			packets = append(packets, make([]byte, 20+(j*37)%120))
			granule += uint64(packetDuration.Seconds() * opusRate)
		}
		flags := byte(0)
		if i+packetsPerPage >= total {
			flags = 0x04 // end of stream
		}
		out = oggPage(out, flags, granule, seq, packets)
		seq++
	}
	return out
}

// oggPage appends one page holding packets (each under 255 bytes) to out.
func oggPage(out []byte, flags byte, granule uint64, seq uint32, packets [][]byte) []byte {
	page := []byte("OggS\x00")
	page = append(page, flags)
	page = binary.LittleEndian.AppendUint64(page, granule)
	page = binary.LittleEndian.AppendUint32(page, 1) // stream serial
	page = binary.LittleEndian.AppendUint32(page, seq)
	page = append(page, 0, 0, 0, 0, byte(len(packets)))
	for _, p := range packets {
		page = append(page, byte(len(p)))
	}
	for _, p := range packets {
		page = append(page, p...)
	}
	binary.LittleEndian.PutUint32(page[22:], oggCRC(page))
	return append(out, page...)
}

// oggCRC is the Ogg page checksum: CRC-32 with polynomial 0x04c11db7,
// unreflected, initial value 0 (RFC 3533 §6).
func oggCRC(b []byte) uint32 {
	var crc uint32
	for _, x := range b {
		crc ^= uint32(x) << 24
		for range 8 {
			if crc&0x80000000 != 0 {
				crc = crc<<1 ^ 0x04c11db7
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
