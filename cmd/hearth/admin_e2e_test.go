package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAdminAPIThroughTheDaemon: with HEARTH_HTTP_ADDR set the daemon serves
// /healthz and /metrics, guards /api/* with the token, and refuses a public
// address without one.
func TestAdminAPIThroughTheDaemon(t *testing.T) {
	db := filepath.Join(t.TempDir(), "luna.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const token = "admin-token-0123456789"
	cmd := hearthCmd(ctx, []string{"HEARTH_HTTP_ADDR=127.0.0.1:0", "HEARTH_ADMIN_TOKEN=" + token},
		"run", "--db", db, "--persona", examplePersona(t), "--console")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr, cmd.Stdout = &stderr, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addrRe := regexp.MustCompile(`admin API listening.*addr=(127\.0\.0\.1:\d+)`)
	waitFor(t, "the admin API", func() bool { return addrRe.MatchString(stderr.String()) })
	base := "http://" + addrRe.FindStringSubmatch(stderr.String())[1]

	get := func(path, auth string) (int, string) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/healthz", ""); code != 200 || !strings.Contains(body, `"db":"ok"`) || !strings.Contains(body, `"console":"ok"`) {
		t.Errorf("/healthz = %d %s", code, body)
	}
	if code, body := get("/metrics", ""); code != 200 || !strings.Contains(body, "hearth_turns_total") {
		t.Errorf("/metrics = %d", code)
	}
	if code, _ := get("/api/otome_kairo?user=console:x", ""); code != 401 {
		t.Errorf("/api without token = %d, want 401", code)
	}
	if code, _ := get("/api/otome_kairo?user=console:nobody", token); code != 404 {
		t.Errorf("/api with token for an unknown user = %d, want 404", code)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
	stdin.Close()

	r := runHearth(t, "", []string{"HEARTH_HTTP_ADDR=0.0.0.0:0"}, "run", "--db", db, "--console")
	if r.code == 0 || !strings.Contains(r.stderr, "HEARTH_ADMIN_TOKEN") {
		t.Errorf("a public admin address without a token: exit %d, %s", r.code, r.stderr)
	}
}
