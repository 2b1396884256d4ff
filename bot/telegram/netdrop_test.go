package telegram

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

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
