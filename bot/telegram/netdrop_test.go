package telegram

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/bot/bottest"
	"hearth/bot/telegram/telegramtest"
)

// TestPollRecoversFromADroppedConnection: the network drops the long poll
// mid-request (the connection closes without a response); the transport
// polls again and the message is still delivered (issue 8, transport faults).
func TestPollRecoversFromADroppedConnection(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	target, _ := url.Parse(f.HTTP.URL)
	forward := httputil.NewSingleHostReverseProxy(target)
	var dropped atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/getUpdates") && dropped.Add(1) <= 2 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close() // no status line, no body: a dropped connection
			}
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)

	f.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "still there?"))
	tr := newTransport(t, f, newMemCursors(), func(c *Config) { c.Endpoint = proxy.URL + "/bot%s/%s" })
	in := &recInbound{}
	run(t, tr, in)
	waitFor(t, "delivery after two dropped polls", func() bool { return len(in.messages()) == 1 })
	if n := dropped.Load(); n < 3 {
		t.Errorf("%d getUpdates attempts, want the two dropped ones and a good one", n)
	}
	if got := in.messages()[0].Text; got != "still there?" {
		t.Errorf("delivered %q", got)
	}
}

// A black-holed getUpdates (the connection is accepted, nothing comes back)
// fails once the poll's own timeout plus its margin has passed, not at the
// HTTP client's much later timeout: FailingSince and the log say so at
// once, and the first poll answered after the link is back clears it.
func TestUnansweredPollFailsPastItsTimeout(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	target, _ := url.Parse(f.HTTP.URL)
	forward := httputil.NewSingleHostReverseProxy(target)
	var holeOpen atomic.Bool
	holeOpen.Store(true)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/getUpdates") && holeOpen.Load() {
			// Accepted, never answered, until the client gives up (the
			// server notices a closed connection only once the body is read).
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)

	var logs bottest.Buffer
	tr := newTransport(t, f, newMemCursors(), func(c *Config) {
		c.Endpoint = proxy.URL + "/bot%s/%s"
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	// A margin far below the HTTP client's (PollTimeout + 15 s), so the
	// test tells them apart in about a second.
	const margin = 100 * time.Millisecond
	tr.pollMargin = margin
	in := &recInbound{}
	started := time.Now()
	run(t, tr, in)
	waitFor(t, "the unanswered poll to fail", func() bool { return !tr.FailingSince().IsZero() })
	if took, poll := time.Since(started), time.Duration(tr.pollSeconds)*time.Second; took < poll {
		t.Errorf("poll failed after %s, before its own %s timeout", took, poll)
	}
	waitFor(t, "the failure logged", func() bool { return strings.Contains(logs.String(), "unanswered past its timeout") })

	holeOpen.Store(false)
	f.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(42), telegramtest.User(42, "Ann"), "back?"))
	waitFor(t, "delivery once the link answers", func() bool { return len(in.messages()) == 1 })
	if got := tr.FailingSince(); !got.IsZero() {
		t.Errorf("FailingSince = %v after a poll was answered", got)
	}
	if strings.Contains(logs.String(), testToken) {
		t.Errorf("the log has the token:\n%s", logs.String())
	}
}

// While a long poll waits for news it may be healthy: AwaitingSince names
// its start until its timeout plus the margin has passed, and nothing
// after that, so /healthz does not count a healthy long poll as failing.
func TestAwaitingSinceCoversAPollInFlight(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	tr := newTransport(t, f, newMemCursors(), nil)
	run(t, tr, &recInbound{})
	var since time.Time
	waitFor(t, "a poll in flight", func() bool { since = tr.AwaitingSince(time.Now()); return !since.IsZero() })
	if since.After(time.Now()) {
		t.Fatalf("AwaitingSince = %v, in the future", since)
	}
	if late := tr.AwaitingSince(since.Add(tr.pollLength())); !late.IsZero() {
		t.Errorf("AwaitingSince once the poll is overdue = %v, want zero", late)
	}
}
