package discord

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// rewriter sends requests for https://discord.com/ to DISCORD_API_BASE
// instead. It exists so the base can change per Transport without touching
// discordgo's package-level Endpoint variables, which are shared globals.
type rewriter struct {
	base *url.URL // nil: no rewriting
	next http.RoundTripper
}

// RoundTrip rewrites the request's scheme, host and path prefix, leaving
// the caller's request untouched as the RoundTripper contract requires.
func (r rewriter) RoundTrip(req *http.Request) (*http.Response, error) {
	if r.base == nil || req.URL.Scheme != "https" || req.URL.Host != discordHost {
		return r.next.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	u := *req.URL
	prefix := strings.TrimSuffix(r.base.Path, "/")
	u.Scheme, u.Host = r.base.Scheme, r.base.Host
	u.Path = prefix + u.Path
	if u.RawPath != "" {
		u.RawPath = strings.TrimSuffix(r.base.EscapedPath(), "/") + u.RawPath
	}
	out.URL = &u
	out.Host = ""
	return r.next.RoundTrip(out)
}

// errAborted is returned by a dial that finished after abort.
var errAborted = errors.New("gateway connection aborted")

// connTracker dials the gateway's TCP connections and can close them all.
// discordgo's Open has no deadline and holds the session lock while it
// reads HELLO and READY; closing the socket underneath is the only way to
// make a hung Open return.
type connTracker struct {
	d     net.Dialer
	tls   *tls.Config // nil: system roots; tests trust their own server
	mu    sync.Mutex
	epoch uint64
	conns map[*trackedConn]struct{}
	code  int // close code of the last close frame on the newest socket
}

func newConnTracker() *connTracker {
	return &connTracker{conns: make(map[*trackedConn]struct{})}
}

// dial is the websocket Dialer's NetDialContext, for ws:// gateways.
func (c *connTracker) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	epoch := c.currentEpoch()
	conn, err := c.d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return c.track(conn, epoch)
}

// dialTLS is the websocket Dialer's NetDialTLSContext, for wss:// gateways
// (the real one). It does the TLS handshake itself so the close sniffer
// sees the decrypted stream, not TLS records.
func (c *connTracker) dialTLS(ctx context.Context, network, addr string) (net.Conn, error) {
	epoch := c.currentEpoch()
	raw, err := c.d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.tls != nil {
		cfg = c.tls.Clone()
	}
	if cfg.ServerName == "" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			_ = raw.Close()
			return nil, fmt.Errorf("gateway address %q: %w", addr, err)
		}
		cfg.ServerName = host
	}
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(ctx); err != nil {
		_ = raw.Close()
		return nil, fmt.Errorf("gateway tls handshake: %w", err)
	}
	return c.track(conn, epoch)
}

func (c *connTracker) currentEpoch() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// track registers a new socket, unless abort came since its dial began.
func (c *connTracker) track(conn net.Conn, epoch uint64) (net.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		_ = conn.Close()
		return nil, errAborted
	}
	tc := &trackedConn{Conn: conn, owner: c}
	c.conns[tc] = struct{}{}
	c.code = 0
	return tc, nil
}

// abort closes every open gateway socket and fails dials in flight.
func (c *connTracker) abort() {
	c.mu.Lock()
	c.epoch++
	conns := c.conns
	c.conns = make(map[*trackedConn]struct{})
	c.mu.Unlock()
	for tc := range conns {
		_ = tc.Conn.Close()
	}
}

// open counts the sockets not yet closed; tests use it to prove shutdown.
func (c *connTracker) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.conns)
}

// closeCode is the code of the last close frame the gateway sent on the
// newest socket, 0 if none.
func (c *connTracker) closeCode() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.code
}

// trackedConn forgets itself when closed and notes close frames.
type trackedConn struct {
	net.Conn
	owner *connTracker
	sniff closeSniffer // used only by the one reading goroutine at a time
}

// Read passes the bytes through the close sniffer.
func (tc *trackedConn) Read(p []byte) (int, error) {
	n, err := tc.Conn.Read(p)
	if n > 0 {
		before := tc.sniff.code
		tc.sniff.feed(p[:n])
		if tc.sniff.code != before {
			tc.owner.mu.Lock()
			if _, live := tc.owner.conns[tc]; live {
				tc.owner.code = tc.sniff.code
			}
			tc.owner.mu.Unlock()
		}
	}
	return n, err
}

// Close closes the socket and removes it from its tracker.
func (tc *trackedConn) Close() error {
	tc.owner.mu.Lock()
	delete(tc.owner.conns, tc)
	tc.owner.mu.Unlock()
	return tc.Conn.Close()
}
