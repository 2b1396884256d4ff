package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
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

	"go.uber.org/goleak"

	"hearth/bot"
)

// TestMain fails the package if any goroutine outlives its test: Run's loop
// and every request must stop with their context. Idle keep-alive
// connections of the shared HTTP transport are not ours to stop.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
	)
}

// Identity of the fake bot account.
const (
	testToken    = "123456:TEST-token-secret"
	testBotID    = 777
	testBotName  = "LunaBot"
	testDeadline = 5 * time.Second // how long a test waits for a condition
)

// fakeCall is one request the fake Bot API received.
type fakeCall struct {
	Method string
	Params url.Values
	Files  map[string]fakeFile // multipart field → file
	At     time.Time           // server-side receive time
}

// fakeFile is one uploaded file.
type fakeFile struct {
	Name string
	Data []byte
}

// fakeFault is an injected error answer for one request.
type fakeFault struct {
	status int
	body   string
}

// fakeUpdate is a queued update; the fake keeps every update and serves
// those at or after the request's offset, so a client that forgets its
// offset sees old updates again.
type fakeUpdate struct {
	id   int64
	kind string
	raw  json.RawMessage
}

// fakeTG is a Bot API server on 127.0.0.1 speaking the real JSON wire format
// for the methods hearth uses.
type fakeTG struct {
	srv *httptest.Server

	mu         sync.Mutex
	updates    []fakeUpdate
	wake       chan struct{} // closed when updates are queued
	calls      []fakeCall
	faults     map[string][]fakeFault
	nextMsg    int64
	nextUpdate int64
	polling    int // getUpdates requests in flight
}

func newFakeTG(t *testing.T) *fakeTG {
	t.Helper()
	f := &fakeTG{wake: make(chan struct{}), faults: map[string][]fakeFault{}, nextMsg: 1000, nextUpdate: 1}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// endpoint is the library endpoint format pointing at the fake.
func (f *fakeTG) endpoint() string { return f.srv.URL + "/bot%s/%s" }

// push queues an update of the given kind ("message", "callback_query", ...)
// with payload as its body and returns its update_id.
func (f *fakeTG) push(kind string, payload any) int64 {
	body, err := json.Marshal(payload)
	if err != nil {
		panic(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.nextUpdate
	f.nextUpdate++
	raw := fmt.Appendf(nil, `{"update_id":%d,%q:%s}`, id, kind, body)
	f.updates = append(f.updates, fakeUpdate{id: id, kind: kind, raw: raw})
	close(f.wake)
	f.wake = make(chan struct{})
	return id
}

// pushRaw queues a literal update object with the given id and kind.
func (f *fakeTG) pushRaw(id int64, kind, raw string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextUpdate = max(f.nextUpdate, id+1)
	f.updates = append(f.updates, fakeUpdate{id: id, kind: kind, raw: json.RawMessage(raw)})
	close(f.wake)
	f.wake = make(chan struct{})
}

// fail makes the next request to method answer status with body ("" builds
// the Bot API error object).
func (f *fakeTG) fail(method string, status int, body string) {
	if body == "" {
		body = fmt.Sprintf(`{"ok":false,"error_code":%d,"description":"%s"}`, status, http.StatusText(status))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[method] = append(f.faults[method], fakeFault{status: status, body: body})
}

// callsTo returns the requests received for method, in order.
func (f *fakeTG) callsTo(method string) []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeCall
	for _, c := range f.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// inPoll reports how many getUpdates requests are blocked right now.
func (f *fakeTG) inPoll() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.polling
}

func (f *fakeTG) serve(w http.ResponseWriter, r *http.Request) {
	token, method, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/bot"), "/")
	if !ok || token != testToken {
		writeJSON(w, http.StatusUnauthorized, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
		return
	}
	call := fakeCall{Method: method, At: time.Now(), Files: map[string]fakeFile{}}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
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
	f.mu.Lock()
	f.calls = append(f.calls, call)
	if fs := f.faults[method]; len(fs) > 0 {
		f.faults[method] = fs[1:]
		f.mu.Unlock()
		writeJSON(w, fs[0].status, fs[0].body)
		return
	}
	f.mu.Unlock()

	switch method {
	case "getMe":
		writeJSON(w, http.StatusOK, fmt.Sprintf(`{"ok":true,"result":{"id":%d,"is_bot":true,"first_name":"Luna","username":%q}}`, testBotID, testBotName))
	case "getUpdates":
		f.getUpdates(w, r, call.Params)
	case "sendMessage", "sendDocument", "sendPhoto":
		f.mu.Lock()
		f.nextMsg++
		id := f.nextMsg
		f.mu.Unlock()
		chat, _ := strconv.ParseInt(call.Params.Get("chat_id"), 10, 64)
		msg, _ := json.Marshal(map[string]any{
			"message_id": id, "date": time.Now().Unix(), "text": call.Params.Get("text"),
			"chat": map[string]any{"id": chat, "type": "private"},
			"from": map[string]any{"id": testBotID, "is_bot": true, "first_name": "Luna"},
		})
		writeJSON(w, http.StatusOK, `{"ok":true,"result":`+string(msg)+`}`)
	case "sendChatAction", "setMyCommands", "answerCallbackQuery":
		writeJSON(w, http.StatusOK, `{"ok":true,"result":true}`)
	default:
		writeJSON(w, http.StatusNotFound, `{"ok":false,"error_code":404,"description":"Not Found"}`)
	}
}

// getUpdates answers a long poll: updates at or after offset whose kind is
// allowed, waiting up to timeout seconds for some to arrive.
func (f *fakeTG) getUpdates(w http.ResponseWriter, r *http.Request, p url.Values) {
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
	f.mu.Lock()
	f.polling++
	defer func() { f.mu.Lock(); f.polling--; f.mu.Unlock() }()
	for {
		var out []string
		for _, u := range f.updates {
			if u.id >= offset && (allowed == nil || slices.Contains(allowed, u.kind)) {
				out = append(out, string(u.raw))
			}
		}
		wake := f.wake
		if len(out) > 0 || timeout == 0 {
			f.mu.Unlock()
			writeJSON(w, http.StatusOK, `{"ok":true,"result":[`+strings.Join(out, ",")+`]}`)
			return
		}
		f.mu.Unlock()
		select {
		case <-wake:
		case <-deadline.C:
			writeJSON(w, http.StatusOK, `{"ok":true,"result":[]}`)
			return
		case <-r.Context().Done():
			return
		}
		f.mu.Lock()
	}
}

func readUpload(h *multipart.FileHeader) fakeFile {
	r, err := h.Open()
	if err != nil {
		return fakeFile{Name: h.Filename}
	}
	defer r.Close()
	data, _ := io.ReadAll(r)
	return fakeFile{Name: h.Filename, Data: data}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// memCursors is an in-memory CursorStore.
type memCursors struct {
	mu sync.Mutex
	m  map[string]string
}

func newMemCursors() *memCursors { return &memCursors{m: map[string]string{}} }

func (c *memCursors) Cursor(_ context.Context, name string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[name], nil
}

func (c *memCursors) SetCursor(_ context.Context, name, value string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[name] = value
	return nil
}

func (c *memCursors) get(name string) string {
	v, _ := c.Cursor(context.Background(), name)
	return v
}

// recInbound records what the transport delivered. failNext makes that many
// HandleMessage calls fail first; offsetSeen records the persisted offset at
// each call, to prove it had not moved before acceptance.
type recInbound struct {
	cursors *memCursors

	mu         sync.Mutex
	msgs       []bot.Message
	reactions  []bot.Reaction
	attempts   int
	failNext   int
	offsetSeen []string
}

func (in *recInbound) HandleMessage(_ context.Context, m bot.Message) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.attempts++
	if in.cursors != nil {
		in.offsetSeen = append(in.offsetSeen, in.cursors.get(offsetCursor))
	}
	if in.failNext > 0 {
		in.failNext--
		return fmt.Errorf("store busy")
	}
	in.msgs = append(in.msgs, m)
	return nil
}

func (in *recInbound) HandleReaction(_ context.Context, r bot.Reaction) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.reactions = append(in.reactions, r)
	return nil
}

func (in *recInbound) messages() []bot.Message {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.msgs)
}

func (in *recInbound) reactionList() []bot.Reaction {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.reactions)
}

// waitFor polls cond until it holds or testDeadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testDeadline)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// newTransport connects a Transport to the fake with a 1 s long poll.
func newTransport(t *testing.T, f *fakeTG, cursors CursorStore, edit func(*Config)) *Transport {
	t.Helper()
	cfg := Config{
		Token:       testToken,
		Endpoint:    f.endpoint(),
		Cursors:     cursors,
		Logger:      slog.New(slog.NewTextHandler(t.Output(), nil)),
		PollTimeout: time.Second,
	}
	if edit != nil {
		edit(&cfg)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testDeadline)
	defer cancel()
	tr, err := New(ctx, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tr
}

// run starts tr.Run and returns a stop function that cancels it and returns
// Run's result; cleanup stops it too.
func run(t *testing.T, tr *Transport, in bot.Inbound) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tr.Run(ctx, in) }()
	var once sync.Once
	var result error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case result = <-done:
			case <-time.After(testDeadline):
				result = fmt.Errorf("Run did not return after cancel")
			}
		})
		return result
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return stop
}

// Builders for update payloads in the Bot API wire format.

func user(id int64, first string) map[string]any {
	return map[string]any{"id": id, "is_bot": false, "first_name": first}
}

func privateChat(id int64) map[string]any { return map[string]any{"id": id, "type": "private"} }

func groupChat(id int64) map[string]any {
	return map[string]any{"id": id, "type": "supergroup", "title": "Friends"}
}

func textMessage(id int64, chat, from map[string]any, text string) map[string]any {
	return map[string]any{"message_id": id, "from": from, "chat": chat, "date": 1700000000 + id, "text": text}
}
