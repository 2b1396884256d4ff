// Package discordtest is a fake Discord on 127.0.0.1 for tests of the
// discord transport and of the hearth binary: REST endpoints and a gateway
// websocket that speak enough of the real protocol (HELLO, IDENTIFY, READY,
// heartbeats, RESUME with replay, invalid sessions, close codes) to drive
// the real discordgo client. It records what the client sent and lets a
// test inject rate limits, forbidden channels and expired interactions.
// It keeps each channel's message history (what was dispatched or added
// with AddHistory) and serves it over REST, for the transport's backfill.
package discordtest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Identity of the fake bot account and its session.
const (
	BotID     = "100"
	AppID     = "900"
	SessionID = "session-1"
	// heartbeatMS is the real gateway's heartbeat interval in ms (Discord
	// API docs, "Hello" example: 45000); the client's first beat is
	// immediate, so tests never wait for one.
	heartbeatMS = 45000
	// messageLimit is Discord's message content limit in characters
	// (Discord API docs, "Create Message": 2000); it mirrors
	// discord.MessageLimit, which this package cannot import.
	messageLimit = 2000
	// maxUpload bounds a multipart body held in memory (chosen by us).
	maxUpload = 32 << 20
)

// File is one uploaded attachment.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// Msg is one message the client created, on a channel or as an
// interaction followup.
type Msg struct {
	ID      string
	Via     string // "channel" or "webhook"
	Target  string // channel id, or "app/token" for webhooks
	Content string
	Flags   int
	Buttons []string // custom ids, row by row
	Files   []File
	NoPings bool // allowed_mentions present with nothing allowed
	// Attachments is the attachment metadata of payload_json (a voice
	// message's duration and waveform).
	Attachments []Attachment
	// AfterAck is set on a followup whose interaction had been acknowledged
	// when it arrived, as Discord requires.
	AfterAck bool
	Received time.Time
}

// Callback is one interaction response (the ack).
type Callback struct {
	ID, Token string
	Type      int
	Flags     int
}

// Identify is one IDENTIFY the gateway received.
type Identify struct {
	Token   string    `json:"token"`
	Intents int       `json:"intents"`
	Shard   *[2]int   `json:"shard"`
	At      time.Time `json:"-"` // when it arrived
}

// Resume is one RESUME the gateway received.
type Resume struct {
	Token     string `json:"token"`
	SessionID string `json:"session_id"`
	Seq       int64  `json:"seq"`
}

type conn struct {
	ws  *websocket.Conn
	wmu sync.Mutex
}

func (c *conn) write(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.ws.WriteJSON(v)
}

// Server is the fake Discord. Its exported fields are guarded by its lock:
// read or change them inside Snapshot, or set switches before the client
// starts.
type Server struct {
	// HTTP is the underlying server (TLS for NewTLSServer).
	HTTP *httptest.Server

	t     testing.TB
	token string

	// ReplayUnseen makes a new session receive the events no connection
	// saw before it. Real Discord does not; tests that dispatch before the
	// client connects set it. Set it before the client connects.
	ReplayUnseen bool

	mu sync.Mutex
	// What the client did.
	Msgs        []Msg
	Posts       []time.Time // every POST to a channel's messages, 429s included
	RateLimited []time.Time // when each 429 was sent
	Typing      []string    // channel ids
	Commands    []map[string]any
	Callbacks   []Callback
	Identifies  []Identify
	Resumes     []Resume
	Heartbeats  int
	Closed      int     // gateway connections that ended
	Seq         int64   // last sequence number sent in this session
	Fetches     []Fetch // every history request (GET a channel's messages)

	// Behaviour switches.
	Limit429           map[string]int // path → how many 429s to answer first
	RetryAfter         float64        // seconds, as Discord sends it
	Forbid             map[string]bool
	Expired            map[string]bool // interaction tokens whose webhook is gone
	CloseOnIdentify    int             // close code answered to IDENTIFY; 0: READY
	InvalidateOnResume bool            // answer RESUME with op 9 once
	Silent             bool            // never send HELLO
	// GET /gateway/bot's recommended shard count and
	// session_start_limit.max_concurrency; 0 means 1. Set them inside
	// Snapshot: a client in another process is no happens-before edge.
	Shards, MaxConcurrency int

	conn      *conn
	history   map[string]*channel // channel id → what was posted there
	files     map[string]cdnFile  // attachment id → what the CDN serves (attachments.go)
	downloads []Download
	log       []dispatch // this session's dispatches, for RESUME replay
	nextID    int
	valid     bool // the session can be resumed

	// The fields above are shard 0's session (the only one without
	// sharding); shards.go keeps the others.
	shardCount int                   // from the last shard 0 IDENTIFY; 0 means 1
	shards     map[int]*shardSession // shard id (≥ 1) → its session
}

type dispatch struct {
	typ     string
	d       any
	seq     int64
	written bool // reached some connection
}

// NewServer starts a fake over plain http and ws accepting token; it is
// closed when the test ends.
func NewServer(t testing.TB, token string) *Server { return newServer(t, token, false) }

// NewTLSServer serves REST over https and the gateway over wss, as Discord
// does; clients must trust HTTP.Certificate().
func NewTLSServer(t testing.TB, token string) *Server { return newServer(t, token, true) }

func newServer(t testing.TB, token string, withTLS bool) *Server {
	f := &Server{t: t, token: token, Limit429: map[string]int{}, Forbid: map[string]bool{}, Expired: map[string]bool{},
		history: map[string]*channel{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/channels/{id}", f.auth(f.getChannel))
	mux.HandleFunc("GET /api/v9/channels/{id}/messages", f.auth(f.channelMessages))
	mux.HandleFunc("GET /gw", f.gateway)
	mux.HandleFunc("GET /gw/", f.gateway) // discordgo appends a slash
	mux.HandleFunc("GET /api/v9/gateway", f.auth(f.gatewayURL))
	mux.HandleFunc("GET /api/v9/gateway/bot", f.auth(f.gatewayURL))
	mux.HandleFunc("GET /api/v9/users/@me", f.auth(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": BotID, "username": "hearth", "bot": true})
	}))
	mux.HandleFunc("POST /api/v9/channels/{id}/messages", f.auth(f.createMessage))
	mux.HandleFunc("GET /attachments/{id}/{name}", f.serveAttachment)
	mux.HandleFunc("POST /api/v9/channels/{id}/typing", f.auth(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.Typing = append(f.Typing, r.PathValue("id"))
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("PUT /api/v9/applications/{app}/commands", f.auth(func(w http.ResponseWriter, r *http.Request) {
		var cmds []map[string]any
		if r.PathValue("app") != AppID || json.NewDecoder(r.Body).Decode(&cmds) != nil {
			writeJSON(w, 400, map[string]any{"message": "bad commands", "code": 50035})
			return
		}
		f.mu.Lock()
		f.Commands = cmds
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
		cb := Callback{ID: r.PathValue("id"), Token: r.PathValue("token"), Type: body.Type}
		if body.Data != nil {
			cb.Flags = body.Data.Flags
		}
		f.mu.Lock()
		f.Callbacks = append(f.Callbacks, cb)
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /api/v9/webhooks/{app}/{token}", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		gone := f.Expired[r.PathValue("token")]
		f.mu.Unlock()
		if gone {
			writeJSON(w, 404, map[string]any{"message": "Unknown Webhook", "code": 10015})
			return
		}
		f.store(w, r, "webhook", r.PathValue("app")+"/"+r.PathValue("token"))
	})
	f.HTTP = httptest.NewUnstartedServer(mux) // listens on 127.0.0.1
	if withTLS {
		f.HTTP.StartTLS()
	} else {
		f.HTTP.Start()
	}
	t.Cleanup(f.HTTP.Close)
	return f
}

// WSURL is the gateway URL the fake hands out.
func (f *Server) WSURL() string {
	scheme := "ws://"
	if f.HTTP.TLS != nil {
		scheme = "wss://"
	}
	return scheme + f.HTTP.Listener.Addr().String() + "/gw"
}

// Base is the DISCORD_API_BASE pointing at the fake.
func (f *Server) Base() string { return f.HTTP.URL + "/" }

func (f *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bot "+f.token {
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

func (f *Server) gatewayURL(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	shards, concurrency := max(f.Shards, 1), max(f.MaxConcurrency, 1)
	f.mu.Unlock()
	writeJSON(w, 200, map[string]any{
		"url":    f.WSURL(),
		"shards": shards,
		"session_start_limit": map[string]any{
			"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": concurrency,
		},
	})
}

func (f *Server) createMessage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	f.mu.Lock()
	f.Posts = append(f.Posts, time.Now())
	if f.Limit429[r.URL.Path] > 0 {
		f.Limit429[r.URL.Path]--
		f.RateLimited = append(f.RateLimited, time.Now())
		f.mu.Unlock()
		w.Header().Set("Retry-After", fmt.Sprint(f.RetryAfter))
		writeJSON(w, 429, map[string]any{"message": "You are being rate limited.", "retry_after": f.RetryAfter, "global": false})
		return
	}
	forbidden := f.Forbid[id]
	f.mu.Unlock()
	if forbidden {
		writeJSON(w, 403, map[string]any{"message": "Cannot send messages to this user", "code": 50007})
		return
	}
	f.store(w, r, "channel", id)
}

// store records a message posted as JSON or multipart and answers it the
// way Discord does, with the created message.
func (f *Server) store(w http.ResponseWriter, r *http.Request, via, target string) {
	var payload struct {
		Content         string          `json:"content"`
		Flags           int             `json:"flags"`
		AllowedMentions json.RawMessage `json:"allowed_mentions"`
		Components      []struct {
			Components []struct {
				CustomID string `json:"custom_id"`
			} `json:"components"`
		} `json:"components"`
		Attachments []Attachment `json:"attachments"`
	}
	msg := Msg{Via: via, Target: target, Received: time.Now()}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var raw []byte
	if mt == "multipart/form-data" {
		if err := r.ParseMultipartForm(maxUpload); err != nil {
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
				msg.Files = append(msg.Files, File{Name: h.Filename, ContentType: h.Header.Get("Content-Type"), Data: data})
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
	if len([]rune(payload.Content)) > messageLimit {
		writeJSON(w, 400, map[string]any{"message": "content too long", "code": 50035})
		return
	}
	if err := voiceMessageRules(payload.Flags, payload.Content, payload.Attachments, msg.Files); err != nil {
		writeJSON(w, 400, map[string]any{"message": err.Error(), "code": 50035})
		return
	}
	msg.Content, msg.Flags, msg.Attachments = payload.Content, payload.Flags, payload.Attachments
	msg.NoPings = string(payload.AllowedMentions) == `{}` || strings.Contains(string(payload.AllowedMentions), `"parse":[]`)
	for _, row := range payload.Components {
		for _, c := range row.Components {
			msg.Buttons = append(msg.Buttons, c.CustomID)
		}
	}
	f.mu.Lock()
	if via == "webhook" {
		_, token, _ := strings.Cut(target, "/")
		msg.AfterAck = slices.ContainsFunc(f.Callbacks, func(c Callback) bool { return c.Token == token })
	}
	f.nextID++
	msg.ID = fmt.Sprintf("m%d", f.nextID)
	f.Msgs = append(f.Msgs, msg)
	f.mu.Unlock()
	writeJSON(w, 200, map[string]any{
		"id": msg.ID, "channel_id": target, "content": msg.Content, "type": 0,
		"author": map[string]any{"id": BotID, "username": "hearth", "bot": true},
	})
}

// gateway speaks the gateway protocol on one websocket connection.
func (f *Server) gateway(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		f.t.Logf("fake: upgrade: %v", err)
		return
	}
	c := &conn{ws: ws}
	defer func() {
		_ = ws.Close()
		f.mu.Lock()
		f.Closed++
		if f.conn == c {
			f.conn = nil
		}
		f.dropShardConn(c)
		f.mu.Unlock()
	}()
	f.mu.Lock()
	silent := f.Silent
	f.mu.Unlock()
	if !silent {
		if err := c.write(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": heartbeatMS}}); err != nil {
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
			f.Heartbeats++
			f.mu.Unlock()
			if c.write(map[string]any{"op": 11}) != nil {
				return
			}
		case 2:
			var id Identify
			_ = json.Unmarshal(p.D, &id)
			id.At = time.Now()
			f.mu.Lock()
			f.Identifies = append(f.Identifies, id)
			code := f.CloseOnIdentify
			f.mu.Unlock()
			if code != 0 {
				c.wmu.Lock()
				_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, "Disallowed intent(s)."), time.Now().Add(time.Second))
				c.wmu.Unlock()
				return
			}
			if id.Token != "Bot "+f.token {
				c.wmu.Lock()
				_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."), time.Now().Add(time.Second))
				c.wmu.Unlock()
				return
			}
			if id.Shard != nil && id.Shard[0] > 0 {
				f.identifiedShard(c, id.Shard[0])
				continue
			}
			f.mu.Lock()
			f.shardCount = 1
			if id.Shard != nil {
				f.shardCount = id.Shard[1]
			}
			f.mu.Unlock()
			f.identified(c, f.ready(SessionID))
		case 6:
			var res Resume
			_ = json.Unmarshal(p.D, &res)
			if f.resumedShard(c, res) {
				continue
			}
			f.mu.Lock()
			f.Resumes = append(f.Resumes, res)
			if f.InvalidateOnResume || res.SessionID != SessionID {
				f.valid = false
			}
			f.InvalidateOnResume = false
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

// identified starts a new session on c: sequence numbers restart and READY
// goes first. As on Discord, a new session gets nothing of what happened
// before it: events no connection saw are gone (they stay in channel
// history, where a client can fetch them), unless ReplayUnseen is set.
func (f *Server) identified(c *conn, ready dispatch) {
	f.mu.Lock()
	defer f.mu.Unlock()
	queue := []dispatch{ready}
	if f.ReplayUnseen {
		for _, d := range f.log {
			if !d.written {
				queue = append(queue, d)
			}
		}
	}
	f.valid, f.Seq, f.log, f.conn = true, 0, nil, c
	for _, d := range queue {
		f.send(d)
	}
}

// resumed replays on c every event after seq, then sends RESUMED, as the
// gateway does (Discord API docs, "Resuming").
func (f *Server) resumed(c *conn, seq int64) {
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
func (f *Server) send(d dispatch) {
	f.Seq++
	d.seq, d.written = f.Seq, false
	f.log = append(f.log, d)
	if f.conn != nil {
		f.write(&f.log[len(f.log)-1])
	}
}

// write puts d on the live connection. f.mu held.
func (f *Server) write(d *dispatch) {
	if err := f.conn.write(map[string]any{"op": 0, "t": d.typ, "s": d.seq, "d": d.d}); err != nil {
		f.t.Logf("fake: write %s: %v", d.typ, err)
		return
	}
	d.written = true
}

// Dispatch sends an event to the client now, or replays it when the client
// resumes. A MESSAGE_CREATE is also added to its channel's history, as on
// Discord.
func (f *Server) Dispatch(typ string, d any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if typ == "MESSAGE_CREATE" {
		f.record(d)
	}
	if shard := f.shardFor(d); shard > 0 {
		f.sendShard(shard, dispatch{typ: typ, d: d})
		return
	}
	f.send(dispatch{typ: typ, d: d})
}

// Op sends a bare gateway opcode on the live connection (7: RECONNECT).
func (f *Server) Op(code int, d any) {
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

// Drop cuts the live gateway connection without a close frame, like a
// network failure.
func (f *Server) Drop() {
	f.mu.Lock()
	c := f.conn
	f.conn = nil
	f.mu.Unlock()
	if c != nil {
		_ = c.ws.UnderlyingConn().Close()
	}
}

// Snapshot runs read under the fake's lock, to read or change its
// exported fields.
func (f *Server) Snapshot(read func(f *Server)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	read(f)
}

// Live reports whether a gateway connection is up.
func (f *Server) Live() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conn != nil
}

// Messages returns the messages the client created, in order.
func (f *Server) Messages() []Msg {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Msg(nil), f.Msgs...)
}
