package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// History paging, as Discord's "Get Channel Messages" documents it.
const (
	// defaultHistoryLimit is the page size when a request names none
	// (Discord API docs, "Get Channel Messages": limit default 50).
	defaultHistoryLimit = 50
	// maxHistoryLimit is the largest page (same docs: 1-100).
	maxHistoryLimit = 100
	// channelTypeGuildText and channelTypeDM are Discord's channel types
	// (Discord API docs, "Channel Types": GUILD_TEXT 0, DM 1).
	channelTypeGuildText = 0
	channelTypeDM        = 1
)

// Fetch is one request for a channel's message history.
type Fetch struct {
	Channel string
	After   string // "" when the request had no after
	Before  string
	Limit   int
}

// channel is one channel's recorded history. f.mu guards it.
type channel struct {
	guild string    // "" for a DM
	msgs  []histMsg // ascending by id
}

// histMsg is one message in a channel's history, as REST returns it.
type histMsg struct {
	id   string
	body map[string]any
}

// idLess orders snowflakes (shorter is smaller), and test ids such as "m9"
// and "m10" the same way.
func idLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// idCmp is idLess as a three-way comparison.
func idCmp(a, b string) int {
	switch {
	case a == b:
		return 0
	case idLess(a, b):
		return -1
	}
	return 1
}

// AddHistory puts a MESSAGE_CREATE payload into its channel's history
// without dispatching it: Discord received the message while no session
// was there to hear of it (hearth was down). Only a history request finds
// it.
func (f *Server) AddHistory(d any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(d)
}

// record adds a message payload to its channel's history, replacing one
// with the same id. REST message objects carry no guild_id or member (only
// the gateway event adds them), so those are kept aside. f.mu held.
func (f *Server) record(d any) {
	raw, err := json.Marshal(d)
	if err != nil {
		f.t.Errorf("fake: history: %v", err)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("fake: history: %v", err)
		return
	}
	id, _ := body["id"].(string)
	ch, _ := body["channel_id"].(string)
	if id == "" || ch == "" {
		f.t.Errorf("fake: history: message without id or channel_id: %s", raw)
		return
	}
	guild, _ := body["guild_id"].(string)
	delete(body, "guild_id")
	delete(body, "member")
	c := f.history[ch]
	if c == nil {
		c = &channel{guild: guild}
		f.history[ch] = c
	}
	i, found := slices.BinarySearchFunc(c.msgs, id, func(m histMsg, id string) int { return idCmp(m.id, id) })
	if found {
		c.msgs[i] = histMsg{id: id, body: body}
		return
	}
	c.msgs = slices.Insert(c.msgs, i, histMsg{id: id, body: body})
}

// getChannel answers GET /channels/{id} for channels with a history.
func (f *Server) getChannel(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	f.mu.Lock()
	c := f.history[id]
	f.mu.Unlock()
	if c == nil {
		writeJSON(w, 404, map[string]any{"message": "Unknown Channel", "code": 10003})
		return
	}
	out := map[string]any{"id": id, "type": channelTypeDM}
	if c.guild != "" {
		out["type"], out["guild_id"] = channelTypeGuildText, c.guild
	}
	writeJSON(w, 200, out)
}

// channelMessages answers GET /channels/{id}/messages with after, before
// and limit as Discord does: the page of messages nearest the given id
// (after: the oldest ones after it; otherwise the newest), newest first.
func (f *Server) channelMessages(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	q := r.URL.Query()
	fe := Fetch{Channel: id, After: q.Get("after"), Before: q.Get("before"), Limit: defaultHistoryLimit}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxHistoryLimit {
			writeJSON(w, 400, map[string]any{"message": fmt.Sprintf("limit %q: want 1-%d", s, maxHistoryLimit), "code": 50035})
			return
		}
		fe.Limit = n
	}
	if q.Get("around") != "" {
		writeJSON(w, 400, map[string]any{"message": "the fake does not serve around", "code": 50035})
		return
	}
	f.mu.Lock()
	f.Fetches = append(f.Fetches, fe)
	if f.Limit429[r.URL.Path] > 0 {
		f.Limit429[r.URL.Path]--
		f.RateLimited = append(f.RateLimited, time.Now())
		wait := f.RetryAfter
		f.mu.Unlock()
		w.Header().Set("Retry-After", fmt.Sprint(wait))
		writeJSON(w, 429, map[string]any{"message": "You are being rate limited.", "retry_after": wait, "global": false})
		return
	}
	c, forbidden := f.history[id], f.Forbid[id]
	var page []map[string]any
	if c != nil {
		var sel []histMsg
		for _, m := range c.msgs {
			if (fe.After == "" || idLess(fe.After, m.id)) && (fe.Before == "" || idLess(m.id, fe.Before)) {
				sel = append(sel, m)
			}
		}
		if len(sel) > fe.Limit {
			if fe.After != "" {
				sel = sel[:fe.Limit]
			} else {
				sel = sel[len(sel)-fe.Limit:]
			}
		}
		for i := len(sel) - 1; i >= 0; i-- {
			page = append(page, sel[i].body)
		}
	}
	f.mu.Unlock()
	switch {
	case forbidden:
		writeJSON(w, 403, map[string]any{"message": "Missing Access", "code": 50001})
	case c == nil:
		writeJSON(w, 404, map[string]any{"message": "Unknown Channel", "code": 10003})
	default:
		if page == nil {
			page = []map[string]any{}
		}
		writeJSON(w, 200, page)
	}
}
