// Package telegramtest is a fake Telegram Bot API server on 127.0.0.1 for
// tests of the telegram transport and of the hearth binary. It speaks the
// real JSON wire format for the methods hearth uses (getMe, getUpdates,
// sendMessage, sendDocument, sendPhoto, sendVoice, sendChatAction,
// setMyCommands, answerCallbackQuery, getFile and file downloads), records
// every request with its arrival time, and
// lets a test queue updates, inject error answers and hold a send's answer,
// so delivery guarantees can be tested against the real client code.
package telegramtest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Identity of the fake bot account, as getMe reports it.
const (
	BotID   = 777
	BotName = "LunaBot"
)

// Fake server limits, chosen by us.
const (
	// maxUpload bounds a multipart request body held in memory.
	maxUpload = 32 << 20
	// firstMessageID is the id before the first message the fake creates;
	// ids start above it so they never collide with test-made update ids.
	firstMessageID = 1000
)

// Call is one request the fake received.
type Call struct {
	Method string
	Params url.Values
	Files  map[string]File // multipart field → file
	At     time.Time       // server-side receive time
	// MessageID is the id of the message a successful send created (also
	// while its answer is held), so tests can react to it; 0 otherwise.
	MessageID int64
}

// File is one uploaded file.
type File struct {
	Name string
	Data []byte
}

// fault is an injected error answer for one request.
type fault struct {
	status int
	body   string
}

// update is a queued update; the fake keeps every update and serves those
// at or after the request's offset, so a client that forgets its offset
// sees old updates again.
type update struct {
	id   int64
	kind string
	raw  json.RawMessage
}

// Hold makes one sendMessage request wait for its answer: the fake has
// recorded the message (the platform "has" it) but the client has not heard
// back, which is the window where a crash makes a duplicate.
type Hold struct {
	reached chan struct{} // closed when the held request arrived
	release chan struct{} // closed by Release
	once    sync.Once
}

// Reached is closed once the held request has been received and recorded.
func (h *Hold) Reached() <-chan struct{} { return h.reached }

// Release lets the held request be answered; safe to call more than once.
func (h *Hold) Release() { h.once.Do(func() { close(h.release) }) }

// Server is the fake Bot API. Its methods are safe for concurrent use.
type Server struct {
	// HTTP is the underlying server; tests may Close it to simulate an
	// unreachable API.
	HTTP  *httptest.Server
	token string

	mu         sync.Mutex
	updates    []update
	wake       chan struct{} // closed when updates are queued
	calls      []Call
	faults     map[string][]fault
	holds      []*Hold // for the next sendMessage requests, in order
	nextMsg    int64
	nextUpdate int64
	polling    int             // getUpdates requests in flight
	files      map[string]file // file_id → file (files.go)
	downloads  []string        // file paths downloaded
	localMode  bool            // getFile answers absolute paths (--local)
	// firstSent is each chat's first sendMessage time, and sent is closed
	// and replaced at every sendMessage, so a benchmark waits for replies
	// without polling (and without stealing the CPU it measures).
	firstSent map[string]time.Time
	sent      chan struct{}
}

// NewServer starts a fake accepting token; it is closed when the test ends.
func NewServer(t testing.TB, token string) *Server {
	t.Helper()
	s := &Server{token: token, wake: make(chan struct{}), faults: map[string][]fault{}, nextMsg: firstMessageID, nextUpdate: 1,
		firstSent: map[string]time.Time{}, sent: make(chan struct{})}
	s.HTTP = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.HTTP.Close)
	return s
}

// Endpoint is the library's endpoint format (TELEGRAM_API_ENDPOINT)
// pointing at the fake.
func (s *Server) Endpoint() string { return s.HTTP.URL + "/bot%s/%s" }

// Push queues an update of the given kind ("message", "callback_query",
// "message_reaction", ...) with payload as its body and returns its
// update_id.
func (s *Server) Push(kind string, payload any) int64 {
	body, err := json.Marshal(payload)
	if err != nil {
		panic(fmt.Sprintf("telegramtest: marshal %s update: %v", kind, err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextUpdate
	s.nextUpdate++
	raw := fmt.Appendf(nil, `{"update_id":%d,%q:%s}`, id, kind, body)
	s.queue(update{id: id, kind: kind, raw: raw})
	return id
}

// PushRaw queues a literal update object with the given id and kind, for
// updates the client must survive rather than understand.
func (s *Server) PushRaw(id int64, kind, raw string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextUpdate = max(s.nextUpdate, id+1)
	s.queue(update{id: id, kind: kind, raw: json.RawMessage(raw)})
}

// queue adds u and wakes blocked long polls. s.mu held.
func (s *Server) queue(u update) {
	s.updates = append(s.updates, u)
	close(s.wake)
	s.wake = make(chan struct{})
}

// Fail makes the next request to method answer status with body ("" builds
// the Bot API error object). Calls queue up: two Fails answer two requests.
func (s *Server) Fail(method string, status int, body string) {
	if body == "" {
		body = fmt.Sprintf(`{"ok":false,"error_code":%d,"description":"%s"}`, status, http.StatusText(status))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[method] = append(s.faults[method], fault{status: status, body: body})
}

// HoldNextSend makes the next sendMessage request be recorded and then wait
// for Release (or for the client to go away) before it is answered. The
// hold is released when the test ends.
func (s *Server) HoldNextSend(t testing.TB) *Hold {
	h := &Hold{reached: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	t.Cleanup(h.Release) // runs before the server's Close, which waits for handlers
	return h
}

// CallsTo returns the requests received for method, in order.
func (s *Server) CallsTo(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// Calls returns every request received, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// SentTo returns the sendMessage requests to chat, in order; a held
// request counts, since the platform has it.
func (s *Server) SentTo(chat int64) []Call {
	var out []Call
	for _, c := range s.CallsTo("sendMessage") {
		if c.Params.Get("chat_id") == strconv.FormatInt(chat, 10) {
			out = append(out, c)
		}
	}
	return out
}

// FirstSent is when the first sendMessage to chat arrived; ok is false
// while none has.
func (s *Server) FirstSent(chat int64) (at time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok = s.firstSent[strconv.FormatInt(chat, 10)]
	return at, ok
}

// SendSignal is closed when the next sendMessage request arrives.
func (s *Server) SendSignal() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

// InPoll reports how many getUpdates requests are blocked right now.
func (s *Server) InPoll() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.polling
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/file/bot") {
		s.download(w, r)
		return
	}
	token, method, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/bot"), "/")
	if !ok || token != s.token {
		writeJSON(w, http.StatusUnauthorized, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
		return
	}
	call := Call{Method: method, At: time.Now(), Files: map[string]File{}}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(maxUpload); err != nil {
			writeJSON(w, http.StatusBadRequest, `{"ok":false,"error_code":400,"description":"Bad Request: bad multipart"}`)
			return
		}
		call.Params = url.Values(r.MultipartForm.Value)
		for field, hs := range r.MultipartForm.File {
			call.Files[field] = readUpload(hs[0])
		}
	} else {
		if err := r.ParseForm(); err != nil {
			writeJSON(w, http.StatusBadRequest, `{"ok":false,"error_code":400,"description":"Bad Request: bad form"}`)
			return
		}
		call.Params = r.PostForm
	}
	s.mu.Lock()
	if fs := s.faults[method]; len(fs) > 0 {
		s.faults[method] = fs[1:]
		s.calls = append(s.calls, call)
		s.mu.Unlock()
		writeJSON(w, fs[0].status, fs[0].body)
		return
	}
	var hold *Hold
	if isSend(method) {
		s.nextMsg++
		call.MessageID = s.nextMsg
		if method == "sendMessage" && len(s.holds) > 0 {
			hold, s.holds = s.holds[0], s.holds[1:]
		}
		if method == "sendMessage" {
			if chat := call.Params.Get("chat_id"); s.firstSent[chat].IsZero() {
				s.firstSent[chat] = call.At
			}
			close(s.sent)
			s.sent = make(chan struct{})
		}
	}
	s.calls = append(s.calls, call)
	s.mu.Unlock()

	switch method {
	case "getMe":
		writeJSON(w, http.StatusOK, fmt.Sprintf(`{"ok":true,"result":{"id":%d,"is_bot":true,"first_name":"Luna","username":%q}}`, BotID, BotName))
	case "getUpdates":
		s.getUpdates(w, r, call.Params)
	case "sendMessage", "sendDocument", "sendPhoto", "sendVoice":
		s.send(w, r, call, hold)
	case "getFile":
		s.getFile(w, call.Params.Get("file_id"))
	case "sendChatAction", "setMyCommands", "answerCallbackQuery":
		writeJSON(w, http.StatusOK, `{"ok":true,"result":true}`)
	default:
		writeJSON(w, http.StatusNotFound, `{"ok":false,"error_code":404,"description":"Not Found"}`)
	}
}

// send answers a created message, after hold is released when there is
// one.
func (s *Server) send(w http.ResponseWriter, r *http.Request, call Call, hold *Hold) {
	if hold != nil {
		close(hold.reached)
		select {
		case <-hold.release:
		case <-r.Context().Done():
			return
		}
	}
	chat, _ := strconv.ParseInt(call.Params.Get("chat_id"), 10, 64)
	msg, _ := json.Marshal(map[string]any{
		"message_id": call.MessageID, "date": time.Now().Unix(), "text": call.Params.Get("text"),
		"chat": map[string]any{"id": chat, "type": "private"},
		"from": map[string]any{"id": BotID, "is_bot": true, "first_name": "Luna"},
	})
	writeJSON(w, http.StatusOK, `{"ok":true,"result":`+string(msg)+`}`)
}

// getUpdates answers a long poll: updates at or after offset whose kind is
// allowed, waiting up to timeout seconds for some to arrive.
func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, p url.Values) {
	offset, _ := strconv.ParseInt(p.Get("offset"), 10, 64)
	timeout, _ := strconv.Atoi(p.Get("timeout"))
	var allowed []string
	if a := p.Get("allowed_updates"); a != "" {
		if err := json.Unmarshal([]byte(a), &allowed); err != nil {
			writeJSON(w, http.StatusBadRequest, `{"ok":false,"error_code":400,"description":"Bad Request: can't parse allowed updates"}`)
			return
		}
	}
	deadline := time.NewTimer(time.Duration(timeout) * time.Second)
	defer deadline.Stop()
	s.mu.Lock()
	s.polling++
	defer func() { s.mu.Lock(); s.polling--; s.mu.Unlock() }()
	for {
		var out []string
		for _, u := range s.updates {
			if u.id >= offset && (allowed == nil || slices.Contains(allowed, u.kind)) {
				out = append(out, string(u.raw))
			}
		}
		wake := s.wake
		if len(out) > 0 || timeout == 0 {
			s.mu.Unlock()
			writeJSON(w, http.StatusOK, `{"ok":true,"result":[`+strings.Join(out, ",")+`]}`)
			return
		}
		s.mu.Unlock()
		select {
		case <-wake:
		case <-deadline.C:
			writeJSON(w, http.StatusOK, `{"ok":true,"result":[]}`)
			return
		case <-r.Context().Done():
			return
		}
		s.mu.Lock()
	}
}

func readUpload(h *multipart.FileHeader) File {
	r, err := h.Open()
	if err != nil {
		return File{Name: h.Filename}
	}
	defer r.Close()
	data, _ := io.ReadAll(r)
	return File{Name: h.Filename, Data: data}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// isSend reports whether method creates a message with a message id.
func isSend(method string) bool {
	return method == "sendMessage" || method == "sendDocument" || method == "sendPhoto" || method == "sendVoice"
}
