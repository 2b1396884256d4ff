package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/bot/bottest"
	"hearth/bot/media/mediatest"
	"hearth/bot/telegram/telegramtest"
	"hearth/store"
)

// startAdminDaemon starts `hearth run --console` with the admin API on a
// free loopback port and returns its stdin, output and the API's base URL.
func startAdminDaemon(t *testing.T, ctx context.Context, db string, env ...string) (*exec.Cmd, io.WriteCloser, *bottest.Buffer, *bottest.Buffer, string) {
	t.Helper()
	cmd := hearthCmd(ctx, append([]string{"HEARTH_HTTP_ADDR=127.0.0.1:0"}, env...), "run", "--db", db, "--persona", examplePersona(t), "--console")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := &bottest.Buffer{}, &bottest.Buffer{}
	cmd.Stderr, cmd.Stdout = stderr, stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addrRe := regexp.MustCompile(`admin API listening.*addr=(127\.0\.0\.1:\d+)`)
	waitFor(t, "the admin API", func() bool { return addrRe.MatchString(stderr.String()) })
	return cmd, stdin, stdout, stderr, "http://" + addrRe.FindStringSubmatch(stderr.String())[1]
}

// TestAdminAPIThroughTheDaemon: with HEARTH_HTTP_ADDR set the daemon serves
// /healthz and /metrics and guards /api/* with the token.
func TestAdminAPIThroughTheDaemon(t *testing.T) {
	db := filepath.Join(t.TempDir(), "luna.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const token = "admin-token-0123456789"
	cmd, stdin, stdout, _, base := startAdminDaemon(t, ctx, db, "HEARTH_ADMIN_TOKEN="+token)

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
	if code, body := get("/metrics", ""); code != 200 || !strings.Contains(body, "hearth_turns_total") || !strings.Contains(body, "\nhearth_active_users 0\n") {
		t.Errorf("/metrics = %d, want hearth_active_users 0 before anyone wrote:\n%s", code, body)
	}
	// The active-user gauge is current right after a message, not a
	// refresh interval later.
	io.WriteString(stdin, "hello Luna\n")
	waitFor(t, "the reply", func() bool { return len(replyLines(stdout.String(), "Luna")) == 1 })
	if _, body := get("/metrics", ""); !strings.Contains(body, "\nhearth_active_users 1\n") {
		t.Errorf("hearth_active_users after one user wrote:\n%s", body)
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
}

// TestAdminAPIWithoutTokenNeverChangesState: with no HEARTH_ADMIN_TOKEN the
// daemon serves /healthz and /metrics, says at start that /api/* is off, and
// a gift posted on loopback changes nothing in the file.
func TestAdminAPIWithoutTokenNeverChangesState(t *testing.T) {
	db := filepath.Join(t.TempDir(), "luna.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd, stdin, stdout, stderr, base := startAdminDaemon(t, ctx, db)
	if n := strings.Count(stderr.String(), "/api/* is off because HEARTH_ADMIN_TOKEN is not set"); n != 1 {
		t.Errorf("%d start lines saying /api/* is off, want 1:\n%s", n, stderr.String())
	}
	io.WriteString(stdin, "hello Luna\n")
	waitFor(t, "the reply", func() bool { return len(replyLines(stdout.String(), "Luna")) == 1 })
	before := runHearth(t, "", nil, "state", "--db", db, "--user", "console:tester")

	for _, auth := range []string{"", "Bearer ", "Bearer anything"} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/gift/send",
			strings.NewReader(`{"user":"console:tester","item":"rose","transaction_id":"tx-open"}`))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "HEARTH_ADMIN_TOKEN") {
			t.Errorf("gift with Authorization %q: %d %s, want 403 naming HEARTH_ADMIN_TOKEN", auth, resp.StatusCode, body)
		}
	}
	for _, path := range []string{"/healthz", "/metrics"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", path, resp.StatusCode)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
	stdin.Close()

	after := runHearth(t, "", nil, "state", "--db", db, "--user", "console:tester")
	if before.code != 0 || !sameMoodAndIntents(t, before.stdout, after.stdout) {
		t.Errorf("state changed after a tokenless gift:\nbefore %s\nafter %s", before.stdout, after.stdout)
	}
	if strings.Contains(after.stdout, "GIFT_SEND") {
		t.Errorf("GIFT_SEND in last_intents:\n%s", after.stdout)
	}
	sdb, err := store.Open(ctx, db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := sdb.Gift(ctx, "tx-open"); ok || err != nil {
		t.Errorf("the gift is in the file (found %v, err %v)", ok, err)
	}
	// Closed before the next start: a reader of a stopped instance holds
	// it (store quietGuard), and a starting daemon waits for it.
	if err := sdb.Close(); err != nil {
		t.Fatal(err)
	}

	// A public address without a token starts too, with /api/* off.
	r := runHearth(t, "", []string{"HEARTH_HTTP_ADDR=0.0.0.0:0"}, "run", "--db", db, "--console")
	if r.code != 0 || !strings.Contains(r.stderr, "/api/* is off because HEARTH_ADMIN_TOKEN is not set") {
		t.Errorf("a public admin address without a token: exit %d, %s", r.code, r.stderr)
	}
}

// sameMoodAndIntents compares the parts of two hearth state documents a
// gift would change. (The lingering emotion moves with the clock.)
func sameMoodAndIntents(t *testing.T, a, b string) bool {
	t.Helper()
	type doc struct {
		Users []struct {
			Mood        float64  `json:"mood"`
			LastIntents []string `json:"last_intents"`
			Messages    int      `json:"messages"`
		} `json:"users"`
	}
	var da, dbb doc
	if err := json.Unmarshal([]byte(a), &da); err != nil {
		t.Fatalf("state: %v\n%s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &dbb); err != nil {
		t.Fatalf("state: %v\n%s", err, b)
	}
	if len(da.Users) != 1 || len(dbb.Users) != 1 {
		return false
	}
	x, y := da.Users[0], dbb.Users[0]
	return x.Mood == y.Mood && x.Messages == y.Messages && strings.Join(x.LastIntents, ",") == strings.Join(y.LastIntents, ",")
}

// TestAdminAddressUnusableFailsStart: a HEARTH_HTTP_ADDR that cannot be
// bound stops the start before "hearth running", with a non-zero exit a
// service manager acts on: 1 for a busy port (it may free up, so a restart
// can help), 2 for an address no restart fixes.
func TestAdminAddressUnusableFailsStart(t *testing.T) {
	var lc net.ListenConfig
	busy, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tc := range []struct {
		addr, want string
		code       int
	}{
		{busy.Addr().String(), "address already in use", 1},
		{"127.0.0.1:99999", "invalid port", 2},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "luna.db")
			r := runHearth(t, "hello\n", []string{"HEARTH_HTTP_ADDR=" + tc.addr}, "run", "--db", db, "--persona", examplePersona(t), "--console")
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "HEARTH_HTTP_ADDR") {
				t.Fatalf("exit %d, want %d naming HEARTH_HTTP_ADDR and %q; stderr:\n%s", r.code, tc.code, tc.want, r.stderr)
			}
			if strings.Contains(r.stderr, "hearth running") || strings.Contains(r.stdout, "Luna: ") {
				t.Fatalf("the daemon ran without its admin API:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			}
		})
	}
}

// TestHealthzReportsEmbeddingsAndAudio: recall by meaning and the audio
// endpoints are /healthz checks of their own, failing as the brain's does:
// a brain server without the embedding model turns "embeddings" (and the
// status) to an error that names the model, while "audio" and "brain"
// stay ok.
func TestHealthzReportsEmbeddingsAndAudio(t *testing.T) {
	t.Parallel()
	llm, audio := newFakeLLM(t), mediatest.NewServer(t)
	db := filepath.Join(t.TempDir(), "luna.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd, stdin, _, _, base := startAdminDaemon(t, ctx, db, append(sensesEnv(llm, audio), "HEARTH_EMBED_MODEL=nomic-embed-text")...)
	defer stdin.Close()
	var rep struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	code := 0
	waitFor(t, "the embeddings check to fail", func() bool {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		code = resp.StatusCode
		json.NewDecoder(resp.Body).Decode(&rep)
		return strings.HasPrefix(rep.Checks["embeddings"], "error: ")
	})
	if !strings.Contains(rep.Checks["embeddings"], `no embeddings for model "nomic-embed-text"`) ||
		rep.Checks["audio"] != "ok" || rep.Checks["brain"] != "ok" || rep.Status != "degraded" || code != http.StatusServiceUnavailable {
		t.Errorf("/healthz = %d %+v", code, rep)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
}

// TestHealthzAudioRecoversOnItsOwn: the audio server goes down, two voice
// notes fail and /healthz says "audio" is unreachable; the server comes
// back and, with no further voice note, the daemon's probe turns the check
// ok again (before, it stayed failing until a voice note went through).
func TestHealthzAudioRecoversOnItsOwn(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llm, audio := newFakeLLM(t), mediatest.NewServer(t)
	tg.AddFile("V1", mediatest.OggOpus(2*time.Second))
	tg.AddFile("V2", mediatest.OggOpus(2*time.Second))
	db := filepath.Join(t.TempDir(), "luna.db")
	cmd, _, _, stderr, base := startAdminDaemon(t, ctx, db, append(telegramEnv(tg), sensesEnv(llm, audio)...)...)
	audioCheck := func() string {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var rep struct {
			Checks map[string]string `json:"checks"`
		}
		json.NewDecoder(resp.Body).Decode(&rep)
		return rep.Checks["audio"]
	}

	audio.Down(true)
	ann := telegramtest.User(annID, "Ann")
	tg.Push("message", voiceUpdate(1, telegramtest.PrivateChat(annID), ann, "V1", 2))
	tg.Push("message", voiceUpdate(2, telegramtest.PrivateChat(annID), ann, "V2", 2))
	waitSends(t, tg, annID, 2)
	if got := audioCheck(); !strings.Contains(got, "/audio/transcriptions: unreachable since") {
		t.Fatalf("audio check with the server down = %q", got)
	}
	audio.Down(false)
	waitFor(t, "the audio check to recover without a voice note", func() bool { return audioCheck() == "ok" })
	if n := len(audio.Calls("transcriptions")); n != 0 {
		t.Fatalf("%d transcriptions: the check must recover by the probe alone", n)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "audio-key-123456") {
		t.Error("the audio key reached the log")
	}
}
