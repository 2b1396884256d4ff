package discord

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// The fake Discord: REST endpoints and a gateway websocket on 127.0.0.1
// that speak enough of the real protocol to drive the real discordgo client.

const (
	fakeToken     = "test-token"
	fakeBotID     = "100"
	fakeAppID     = "900"
	fakeSessionID = "session-1"
	// fakeHeartbeat is the real gateway's heartbeat interval in ms (Discord
	// API docs, "Hello" example: 45000); the client's first beat is
	// immediate, so tests never wait for one.
	fakeHeartbeat = 45000
)

type fakeFile struct {
	Name        string
	ContentType string
	Data        []byte
}

type fakeMsg struct {
	ID       string
	Via      string // "channel" or "webhook"
	Target   string // channel id, or "app/token" for webhooks
	Content  string
	Flags    int
	Buttons  []string // custom ids, row by row
	Files    []fakeFile
	NoPings  bool // allowed_mentions present with nothing allowed
	Received time.Time
}

type fakeCallback struct {
	ID, Token string
	Type      int
	Flags     int
}

type fakeIdentify struct {
	Token   string  `json:"token"`
	Intents int     `json:"intents"`
	Shard   *[2]int `json:"shard"`
}

type fakeResume struct {
	Token     string `json:"token"`
	SessionID string `json:"session_id"`
	Seq       int64  `json:"seq"`
}

type fakeConn struct {
	ws  *websocket.Conn
	wmu sync.Mutex
}

func (c *fakeConn) write(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.ws.WriteJSON(v)
}

type fakeDiscord struct {
	t   testing.TB
	srv *httptest.Server

	mu          sync.Mutex
	msgs        []fakeMsg
	posts       []time.Time // every POST to a channel's messages, 429s included
	rateLimited []time.Time // when each 429 was sent
	typing      []string
	commands    []map[string]any
	callbacks   []fakeCallback
	identifies  []fakeIdentify
	resumes     []fakeResume
	heartbeats  int
	closed      int // gateway connections that ended
	conn        *fakeConn
	log         []dispatch // this session's dispatches, for RESUME replay
	seq         int64
	nextID      int
	valid       bool // the session can be resumed

	// behaviour switches, set before use
	limit429           map[string]int // path → how many 429s to answer first
	retryAfter         float64        // seconds, as Discord sends it
	forbid             map[string]bool
	expired            map[string]bool // interaction tokens whose webhook is gone
	closeOnIdentify    int             // close code answered to IDENTIFY; 0: READY
	invalidateOnResume bool            // answer RESUME with op 9 once
	silent             bool            // never send HELLO
}

type dispatch struct {
	typ     string
	d       any
	seq     int64
	written bool // reached some connection
}

func newFakeDiscord(t testing.TB) *fakeDiscord { return newFake(t, false) }

// newFakeDiscordTLS serves REST over https and the gateway over wss, as
// Discord does.
func newFakeDiscordTLS(t testing.TB) *fakeDiscord { return newFake(t, true) }

func newFake(t testing.TB, withTLS bool) *fakeDiscord {
	f := &fakeDiscord{t: t, limit429: map[string]int{}, forbid: map[string]bool{}, expired: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /gw", f.gateway)
	mux.HandleFunc("GET /gw/", f.gateway) // discordgo appends a slash
	mux.HandleFunc("GET /api/v9/gateway", f.auth(f.gatewayURL))
	mux.HandleFunc("GET /api/v9/gateway/bot", f.auth(f.gatewayURL))
	mux.HandleFunc("GET /api/v9/users/@me", f.auth(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": fakeBotID, "username": "hearth", "bot": true})
	}))
	mux.HandleFunc("POST /api/v9/channels/{id}/messages", f.auth(f.createMessage))
	mux.HandleFunc("POST /api/v9/channels/{id}/typing", f.auth(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.typing = append(f.typing, r.PathValue("id"))
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("PUT /api/v9/applications/{app}/commands", f.auth(func(w http.ResponseWriter, r *http.Request) {
		var cmds []map[string]any
		if r.PathValue("app") != fakeAppID || json.NewDecoder(r.Body).Decode(&cmds) != nil {
			writeJSON(w, 400, map[string]any{"message": "bad commands", "code": 50035})
			return
		}
		f.mu.Lock()
		f.commands = cmds
		f.mu.Unlock()
		writeJSON(w, 200, cmds)
	}))
	mux.HandleFunc("POST /api/v9/interactions/{id}/{token}/callback", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Type int `json:"type"`
			Data *struct {
				Flags int `json:"flags"`
			} `json:"data"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			writeJSON(w, 400, map[string]any{"message": "bad callback", "code": 50035})
			return
		}
		cb := fakeCallback{ID: r.PathValue("id"), Token: r.PathValue("token"), Type: body.Type}
		if body.Data != nil {
			cb.Flags = body.Data.Flags
		}
		f.mu.Lock()
		f.callbacks = append(f.callbacks, cb)
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /api/v9/webhooks/{app}/{token}", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		gone := f.expired[r.PathValue("token")]
		f.mu.Unlock()
		if gone {
			writeJSON(w, 404, map[string]any{"message": "Unknown Webhook", "code": 10015})
			return
		}
		f.store(w, r, "webhook", r.PathValue("app")+"/"+r.PathValue("token"))
	})
	f.srv = httptest.NewUnstartedServer(mux) // listens on 127.0.0.1
	if withTLS {
		f.srv.StartTLS()
	} else {
		f.srv.Start()
	}
	t.Cleanup(f.srv.Close)
	return f
}

// trust makes tr accept the fake's TLS certificate, for REST and gateway.
func (f *fakeDiscord) trust(tr *Transport) {
	if f.srv.TLS == nil {
		return
	}
	pool := x509.NewCertPool()
	pool.AddCert(f.srv.Certificate())
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	tr.conns.tls = cfg
	tr.http.TLSClientConfig = cfg
}

// wsURL is the gateway URL the fake hands out.
func (f *fakeDiscord) wsURL() string {
	scheme := "ws://"
	if f.srv.TLS != nil {
		scheme = "wss://"
	}
	return scheme + f.srv.Listener.Addr().String() + "/gw"
}

// base is the DISCORD_API_BASE pointing at the fake.
func (f *fakeDiscord) base() string { return f.srv.URL + "/" }

func (f *fakeDiscord) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bot "+fakeToken {
			writeJSON(w, 401, map[string]any{"message": "401: Unauthorized", "code": 0})
			return
		}
		h(w, r)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeDiscord) gatewayURL(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{
		"url":    f.wsURL(),
		"shards": 1,
		"session_start_limit": map[string]any{
			"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1,
		},
	})
}

func (f *fakeDiscord) createMessage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	f.mu.Lock()
	f.posts = append(f.posts, time.Now())
	if f.limit429[r.URL.Path] > 0 {
		f.limit429[r.URL.Path]--
		f.rateLimited = append(f.rateLimited, time.Now())
		f.mu.Unlock()
		w.Header().Set("Retry-After", fmt.Sprint(f.retryAfter))
		writeJSON(w, 429, map[string]any{"message": "You are being rate limited.", "retry_after": f.retryAfter, "global": false})
		return
	}
	forbidden := f.forbid[id]
	f.mu.Unlock()
	if forbidden {
		writeJSON(w, 403, map[string]any{"message": "Cannot send messages to this user", "code": 50007})
		return
	}
	f.store(w, r, "channel", id)
}

// store records a message posted as JSON or multipart and answers it the
// way Discord does, with the created message.
func (f *fakeDiscord) store(w http.ResponseWriter, r *http.Request, via, target string) {
	var payload struct {
		Content         string          `json:"content"`
		Flags           int             `json:"flags"`
		AllowedMentions json.RawMessage `json:"allowed_mentions"`
		Components      []struct {
			Components []struct {
				CustomID string `json:"custom_id"`
			} `json:"components"`
		} `json:"components"`
	}
	msg := fakeMsg{Via: via, Target: target, Received: time.Now()}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var raw []byte
	if mt == "multipart/form-data" {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			writeJSON(w, 400, map[string]any{"message": err.Error(), "code": 50035})
			return
		}
		raw = []byte(r.FormValue("payload_json"))
		for key, hs := range r.MultipartForm.File {
			if !strings.HasPrefix(key, "files[") {
				continue
			}
			for _, h := range hs {
				fh, err := h.Open()
				if err != nil {
					f.t.Errorf("fake: open upload: %v", err)
					continue
				}
				data, _ := io.ReadAll(fh)
				_ = fh.Close()
				msg.Files = append(msg.Files, fakeFile{Name: h.Filename, ContentType: h.Header.Get("Content-Type"), Data: data})
			}
		}
	} else {
		raw, _ = io.ReadAll(r.Body)
	}
	if err := json.Unmarshal(raw, &payload); err != nil {
		writeJSON(w, 400, map[string]any{"message": "bad json", "code": 50035})
		return
	}
	if strings.TrimSpace(payload.Content) == "" && len(msg.Files) == 0 && len(payload.Components) == 0 {
		writeJSON(w, 400, map[string]any{"message": "Cannot send an empty message", "code": 50006})
		return
	}
	if len([]rune(payload.Content)) > MessageLimit {
		writeJSON(w, 400, map[string]any{"message": "content too long", "code": 50035})
		return
	}
	msg.Content, msg.Flags = payload.Content, payload.Flags
	msg.NoPings = string(payload.AllowedMentions) == `{}` || strings.Contains(string(payload.AllowedMentions), `"parse":[]`)
	for _, row := range payload.Components {
		for _, c := range row.Components {
			msg.Buttons = append(msg.Buttons, c.CustomID)
		}
	}
	f.mu.Lock()
	f.nextID++
	msg.ID = fmt.Sprintf("m%d", f.nextID)
	f.msgs = append(f.msgs, msg)
	f.mu.Unlock()
	writeJSON(w, 200, map[string]any{
		"id": msg.ID, "channel_id": target, "content": msg.Content, "type": 0,
		"author": map[string]any{"id": fakeBotID, "username": "hearth", "bot": true},
	})
}

// gateway speaks the gateway protocol on one websocket connection.
func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		f.t.Logf("fake: upgrade: %v", err)
		return
	}
	c := &fakeConn{ws: ws}
	defer func() {
		_ = ws.Close()
		f.mu.Lock()
		f.closed++
		if f.conn == c {
			f.conn = nil
		}
		f.mu.Unlock()
	}()
	f.mu.Lock()
	silent := f.silent
	f.mu.Unlock()
	if !silent {
		if err := c.write(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": fakeHeartbeat}}); err != nil {
			return
		}
	}
	for {
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := ws.ReadJSON(&p); err != nil {
			return
		}
		switch p.Op {
		case 1:
			f.mu.Lock()
			f.heartbeats++
			f.mu.Unlock()
			if c.write(map[string]any{"op": 11}) != nil {
				return
			}
		case 2:
			var id fakeIdentify
			_ = json.Unmarshal(p.D, &id)
			f.mu.Lock()
			f.identifies = append(f.identifies, id)
			code := f.closeOnIdentify
			f.mu.Unlock()
			if code != 0 {
				c.wmu.Lock()
				_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, "Disallowed intent(s)."), time.Now().Add(time.Second))
				c.wmu.Unlock()
				return
			}
			if id.Token != "Bot "+fakeToken {
				c.wmu.Lock()
				_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."), time.Now().Add(time.Second))
				c.wmu.Unlock()
				return
			}
			f.identified(c, dispatch{typ: "READY", d: map[string]any{
				"v": 10, "session_id": fakeSessionID,
				"resume_gateway_url": f.wsURL(),
				"user":               map[string]any{"id": fakeBotID, "username": "hearth", "bot": true},
				"application":        map[string]any{"id": fakeAppID, "flags": 0},
				"guilds":             []any{},
			}})
		case 6:
			var res fakeResume
			_ = json.Unmarshal(p.D, &res)
			f.mu.Lock()
			f.resumes = append(f.resumes, res)
			if f.invalidateOnResume || res.SessionID != fakeSessionID {
				f.valid = false
			}
			f.invalidateOnResume = false
			invalidate := !f.valid
			f.mu.Unlock()
			if invalidate {
				if c.write(map[string]any{"op": 9, "d": false}) != nil {
					return
				}
				continue
			}
			f.resumed(c, res.Seq)
		}
	}
}

// identified starts a new session on c: sequence numbers restart, READY
// goes first, then the events no connection has seen yet (the old
// session's other events are lost, as on Discord).
func (f *fakeDiscord) identified(c *fakeConn, ready dispatch) {
	f.mu.Lock()
	defer f.mu.Unlock()
	queue := []dispatch{ready}
	for _, d := range f.log {
		if !d.written {
			queue = append(queue, d)
		}
	}
	f.valid, f.seq, f.log, f.conn = true, 0, nil, c
	for _, d := range queue {
		f.send(d)
	}
}

// resumed replays on c every event after seq, then sends RESUMED, as the
// gateway does (Discord API docs, "Resuming").
func (f *fakeDiscord) resumed(c *fakeConn, seq int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.conn = c
	for i := range f.log {
		if f.log[i].seq > seq {
			f.write(&f.log[i])
		}
	}
	f.send(dispatch{typ: "RESUMED", d: map[string]any{}})
}

// send numbers d, logs it and writes it if a connection is live. f.mu held.
func (f *fakeDiscord) send(d dispatch) {
	f.seq++
	d.seq, d.written = f.seq, false
	f.log = append(f.log, d)
	if f.conn != nil {
		f.write(&f.log[len(f.log)-1])
	}
}

// write puts d on the live connection. f.mu held.
func (f *fakeDiscord) write(d *dispatch) {
	if err := f.conn.write(map[string]any{"op": 0, "t": d.typ, "s": d.seq, "d": d.d}); err != nil {
		f.t.Logf("fake: write %s: %v", d.typ, err)
		return
	}
	d.written = true
}

// dispatch sends an event to the client now, or replays it when the client
// resumes.
func (f *fakeDiscord) dispatch(typ string, d any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.send(dispatch{typ: typ, d: d})
}

// op sends a bare gateway opcode on the live connection.
func (f *fakeDiscord) op(code int, d any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn == nil {
		f.t.Errorf("fake: op %d with no connection", code)
		return
	}
	if err := f.conn.write(map[string]any{"op": code, "d": d}); err != nil {
		f.t.Errorf("fake: write op %d: %v", code, err)
	}
}

// drop cuts the live gateway connection without a close frame, like a
// network failure.
func (f *fakeDiscord) drop() {
	f.mu.Lock()
	c := f.conn
	f.conn = nil
	f.mu.Unlock()
	if c != nil {
		_ = c.ws.UnderlyingConn().Close()
	}
}

// snapshot runs read under the fake's lock.
func (f *fakeDiscord) snapshot(read func(f *fakeDiscord)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	read(f)
}

func (f *fakeDiscord) live() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conn != nil
}

func (f *fakeDiscord) messages() []fakeMsg {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeMsg(nil), f.msgs...)
}
