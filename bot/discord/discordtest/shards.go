package discordtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Sharding, as Discord does it (Discord API docs, "Sharding"): a session
// identifies as shard [id, count]; a guild's events go to shard
// (guild_id >> 22) % count and DMs to shard 0. Shard 0's session is the
// Server's own fields (so tests without sharding see no change); the other
// shards' sessions live here.

// shardBits is the sharding formula's shift.
const shardBits = 22

// shardSession is the session of one shard above 0.
type shardSession struct {
	id    string // session id, for RESUME
	conn  *conn
	log   []dispatch
	seq   int64
	valid bool
}

// GuildOnShard is a guild id whose events go to shard of count.
func GuildOnShard(shard, count int) string {
	return strconv.FormatUint(uint64(1000*count+shard)<<shardBits, 10)
}

// LiveShards lists the shards with a gateway connection up, shard 0 first.
func (f *Server) LiveShards() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int
	if f.conn != nil {
		out = append(out, 0)
	}
	for id := 1; id <= len(f.shards); id++ {
		if s := f.shards[id]; s != nil && s.conn != nil {
			out = append(out, id)
		}
	}
	return out
}

// ready is the READY of a new session.
func (f *Server) ready(sessionID string) dispatch {
	return dispatch{typ: "READY", d: map[string]any{
		"v": 10, "session_id": sessionID,
		"resume_gateway_url": f.WSURL(),
		"user":               map[string]any{"id": BotID, "username": "hearth", "bot": true},
		"application":        map[string]any{"id": AppID, "flags": 0},
		"guilds":             []any{},
	}}
}

// identifiedShard starts a new session of shard on c, READY first.
func (f *Server) identifiedShard(c *conn, shard int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shards == nil {
		f.shards = map[int]*shardSession{}
	}
	s := &shardSession{id: fmt.Sprintf("%s-shard-%d", SessionID, shard), conn: c, valid: true}
	f.shards[shard] = s
	f.sendOn(s, f.ready(s.id))
}

// resumedShard answers a RESUME of a shard above 0, replaying what its
// session missed; false when the RESUME is not for one.
func (f *Server) resumedShard(c *conn, res Resume) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.shards {
		if s.id != res.SessionID {
			continue
		}
		f.Resumes = append(f.Resumes, res)
		if !s.valid {
			_ = c.write(map[string]any{"op": 9, "d": false})
			return true
		}
		s.conn = c
		for i := range s.log {
			if s.log[i].seq > res.Seq {
				f.writeOn(s, &s.log[i])
			}
		}
		f.sendOn(s, dispatch{typ: "RESUMED", d: map[string]any{}})
		return true
	}
	return false
}

// dropShardConn forgets c as a shard's connection. f.mu held.
func (f *Server) dropShardConn(c *conn) {
	for _, s := range f.shards {
		if s.conn == c {
			s.conn = nil
		}
	}
}

// shardFor is the shard an event goes to: its guild's, or 0. f.mu held by
// the caller (Dispatch).
func (f *Server) shardFor(d any) int {
	if f.shardCount <= 1 {
		return 0
	}
	var ev struct {
		GuildID string `json:"guild_id"`
	}
	raw, err := json.Marshal(d)
	if err != nil || json.Unmarshal(raw, &ev) != nil || strings.TrimSpace(ev.GuildID) == "" {
		return 0
	}
	id, err := strconv.ParseUint(ev.GuildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> shardBits) % uint64(f.shardCount))
}

// sendShard numbers d in shard's session and writes it if connected; a
// shard that has not identified yet keeps it in its log. f.mu held.
func (f *Server) sendShard(shard int, d dispatch) {
	if f.shards == nil {
		f.shards = map[int]*shardSession{}
	}
	s := f.shards[shard]
	if s == nil {
		s = &shardSession{id: fmt.Sprintf("%s-shard-%d", SessionID, shard)}
		f.shards[shard] = s
	}
	f.sendOn(s, d)
}

// sendOn numbers, logs and writes d on s. f.mu held.
func (f *Server) sendOn(s *shardSession, d dispatch) {
	s.seq++
	d.seq, d.written = s.seq, false
	s.log = append(s.log, d)
	if s.conn != nil {
		f.writeOn(s, &s.log[len(s.log)-1])
	}
}

// writeOn puts d on s's connection. f.mu held.
func (f *Server) writeOn(s *shardSession, d *dispatch) {
	if err := s.conn.write(map[string]any{"op": 0, "t": d.typ, "s": d.seq, "d": d.d}); err != nil {
		f.t.Logf("fake: write %s: %v", d.typ, err)
		return
	}
	d.written = true
}

// DropShard cuts a shard's live gateway connection without a close frame,
// like a network failure (Drop for shard 0).
func (f *Server) DropShard(shard int) {
	if shard == 0 {
		f.Drop()
		return
	}
	f.mu.Lock()
	var c *conn
	if s := f.shards[shard]; s != nil {
		c, s.conn = s.conn, nil
	}
	f.mu.Unlock()
	if c != nil {
		_ = c.ws.UnderlyingConn().Close()
	}
}
