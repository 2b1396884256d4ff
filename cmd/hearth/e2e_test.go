package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/bot/bottest"
)

// hearthBin is bin/hearth built once for the end-to-end tests in this package.
var hearthBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hearth-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Readable by all: the fault tests run it as an unprivileged user.
	os.Chmod(dir, 0o755)
	hearthBin = filepath.Join(dir, "hearth")
	build := exec.Command("go", "build", "-o", hearthBin, ".")
	if raceEnabled {
		build.Args = append(build.Args[:2], "-race", "-o", hearthBin, ".")
	} else {
		// The shipped build's flags (Makefile `build`), so RSS and startup
		// figures are the binary's users run.
		build.Args = append(build.Args[:2], "-trimpath", "-ldflags=-s -w", "-o", hearthBin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
	}
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build hearth: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// examplePersona is the repository's persona.example.yaml.
func examplePersona(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "persona.example.yaml")
}

// hearthCmd prepares the binary with a clean environment: no tokens, no LLM
// unless env adds them.
func hearthCmd(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, hearthBin, args...)
	// GORACE: a race in the daemon fails its test (exit 66), and the race
	// runtime's default 1 s sleep at exit is skipped.
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "USER=tester", "HEARTH_LOG_LEVEL=debug",
		"GORACE=halt_on_error=1 atexit_sleep_ms=0"}, env...)
	return cmd
}

type result struct {
	stdout, stderr string
	code           int
}

func runHearth(t testing.TB, stdin string, env []string, args ...string) result {
	t.Helper()
	return runHearthFrom(t, strings.NewReader(stdin), env, args...)
}

// runHearthFrom runs the binary to its end with stdin (an *os.File is
// handed over as is, so a terminal or /dev/null stays one).
func runHearthFrom(t testing.TB, stdin io.Reader, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := hearthCmd(ctx, env, args...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run hearth %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

func replyLines(stdout, persona string) []string {
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, persona+": ") {
			out = append(out, l)
		}
	}
	return out
}

func TestChatPipedAnswersEveryLineWithoutTrailer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "luna.db")
	lines := []string{"hello Luna", "I had a long day at work...", "thank you, that helps", "what do you like to read?", "good night"}
	r := runHearth(t, strings.Join(lines, "\n")+"\n", nil, "chat", "--db", db, "--persona", examplePersona(t), "--user", "ann")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	got := replyLines(r.stdout, "Luna")
	if len(got) != len(lines) {
		t.Fatalf("%d replies to %d lines:\n%s", len(got), len(lines), r.stdout)
	}
	for _, leak := range []string{"<<<HEARTH", "emotion_label", "[[hearth:"} {
		if strings.Contains(r.stdout, leak) {
			t.Fatalf("stdout leaks %q:\n%s", leak, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "OFFLINE") {
		t.Errorf("the offline brain is not announced at start:\n%s", r.stderr)
	}
	// The offline brain must not just echo.
	for i, l := range got {
		if strings.TrimPrefix(l, "Luna: ") == lines[i] {
			t.Errorf("reply %d echoes the input: %q", i, l)
		}
	}
	info, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("instance file mode %v, want 0600", info.Mode().Perm())
	}
}

func TestStateJSONHasTheDesignShape(t *testing.T) {
	db := filepath.Join(t.TempDir(), "luna.db")
	r := runHearth(t, "you are wonderful\nI'm so happy today!\n", nil, "chat", "--db", db, "--persona", examplePersona(t), "--user", "ann")
	if r.code != 0 {
		t.Fatalf("chat exit %d: %s", r.code, r.stderr)
	}
	st := runHearth(t, "", nil, "state", "--db", db)
	if st.code != 0 {
		t.Fatalf("state exit %d: %s", st.code, st.stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(st.stdout), &doc); err != nil {
		t.Fatalf("state is not JSON: %v\n%s", err, st.stdout)
	}
	if doc["persona"] != "Luna" {
		t.Errorf("persona = %v", doc["persona"])
	}
	users, _ := doc["users"].([]any)
	if len(users) != 1 {
		t.Fatalf("users = %v", doc["users"])
	}
	u := users[0].(map[string]any)
	for _, key := range []string{"id", "name", "messages", "reflections", "mood", "last_intents", "last_emotion",
		"emotion_history", "lingering", "affinity", "proactive", "inner_state", "memories"} {
		if _, ok := u[key]; !ok {
			t.Errorf("user lacks %q: %v", key, u)
		}
	}
	if u["id"] != "console:ann" || u["messages"] != float64(2) {
		t.Errorf("id %v messages %v, want console:ann and 2", u["id"], u["messages"])
	}
	ling, _ := u["lingering"].(map[string]any)
	for _, key := range []string{"label", "intensity", "refusal_allowed", "refusal_bias", "cooperation"} {
		if _, ok := ling[key]; !ok {
			t.Errorf("lingering lacks %q: %v", key, ling)
		}
	}
	aff, _ := u["affinity"].(map[string]any)
	for _, key := range []string{"score", "state", "watch", "loneliness", "dependency_level"} {
		if _, ok := aff[key]; !ok {
			t.Errorf("affinity lacks %q: %v", key, aff)
		}
	}
	hist, _ := u["emotion_history"].([]any)
	if len(hist) != 2 {
		t.Errorf("emotion_history has %d entries, want 2", len(hist))
	}
	one := runHearth(t, "", nil, "state", "--db", db, "--user", "console:ann")
	if one.code != 0 || !strings.Contains(one.stdout, `"console:ann"`) {
		t.Errorf("state --user: exit %d\n%s%s", one.code, one.stdout, one.stderr)
	}
}

// TestMoodFollowsTheFormula drives a scripted perception through the real
// binary and checks the seed 001 §3.2 arithmetic in hearth state.
func TestMoodFollowsTheFormula(t *testing.T) {
	llm := newFakeLLM(t)
	llm.perception = `{"intent_category":"COMPLIMENT","sentiment":0.6,"disclosure":"none","crisis":false}`
	db := filepath.Join(t.TempDir(), "luna.db")
	env := []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=test-key-123456"}
	r := runHearth(t, "you look lovely\nyour voice is nice\n", env, "chat", "--db", db, "--persona", examplePersona(t), "--user", "ann")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	st := runHearth(t, "", nil, "state", "--db", db, "--user", "console:ann")
	var doc struct {
		Users []struct {
			Mood        float64  `json:"mood"`
			LastIntents []string `json:"last_intents"`
		} `json:"users"`
	}
	if err := json.Unmarshal([]byte(st.stdout), &doc); err != nil || len(doc.Users) != 1 {
		t.Fatalf("state: %v\n%s", err, st.stdout)
	}
	// 001_fed6ff3e404e5019.txt §3.2 with Luna's dependency 1.0:
	// turn 1: 0*0.9 + (0.6*10 + 5) = 11; turn 2: 11*0.9 + 11 = 20.9.
	want := 11*0.9 + 11
	if got := doc.Users[0].Mood; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("mood = %v, want %v", got, want)
	}
	if len(doc.Users[0].LastIntents) != 2 || doc.Users[0].LastIntents[1] != "COMPLIMENT" {
		t.Errorf("last_intents = %v", doc.Users[0].LastIntents)
	}
	if llm.count("perception") != 2 || llm.count("reply") != 2 {
		t.Errorf("calls: perception %d reply %d, want 2 and 2", llm.count("perception"), llm.count("reply"))
	}
}

func TestSecondRunOnTheSameFileIsRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "luna.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	first := hearthCmd(ctx, nil, "run", "--db", db, "--persona", examplePersona(t), "--console")
	stdin, err := first.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var firstErr bottest.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first daemon to start", func() bool { return strings.Contains(firstErr.String(), "hearth running") })

	second := runHearth(t, "", nil, "run", "--db", db, "--console")
	if second.code == 0 {
		t.Fatalf("second run exited 0")
	}
	if !strings.Contains(second.stderr, fmt.Sprintf("pid=%d", first.Process.Pid)) {
		t.Errorf("refusal does not name the holder pid %d: %s", first.Process.Pid, second.stderr)
	}
	// The refusal left the holder's lock in place: a third run is refused too.
	if third := runHearth(t, "", nil, "run", "--db", db, "--console"); third.code == 0 || !strings.Contains(third.stderr, "in use by") {
		t.Errorf("third run beside the daemon: exit %d, %s", third.code, third.stderr)
	}
	// state reads while the daemon runs.
	if st := runHearth(t, "", nil, "state", "--db", db); st.code != 0 {
		t.Errorf("state beside a running daemon: exit %d: %s", st.code, st.stderr)
	}
	// SIGTERM drains and exits 0.
	if err := first.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = first.Wait()
	stdin.Close()
	if err != nil {
		t.Fatalf("SIGTERM exit: %v\n%s", err, firstErr.String())
	}
	// Nothing but the instance file is left behind after a clean exit.
	entries, _ := os.ReadDir(filepath.Dir(db))
	for _, e := range entries {
		if e.Name() != filepath.Base(db) {
			t.Errorf("%s left beside the instance after a clean exit", e.Name())
		}
	}
}

// TestKill9MidTurnAnswersOnceAfterRestart kills the daemon while the brain
// is writing the reply, restarts it, and expects exactly one answer.
func TestKill9MidTurnAnswersOnceAfterRestart(t *testing.T) {
	llm := newFakeLLM(t)
	llm.hold = make(chan struct{})
	llm.reply = "Welcome back, I kept your words safe."
	db := filepath.Join(t.TempDir(), "luna.db")
	env := []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=test-key-123456"}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd, stdin, out := startChat(t, ctx, env, "--db", db, "--persona", examplePersona(t), "--user", "ann")
	io.WriteString(stdin, "please remember this moment\n")
	select {
	case <-llm.replySeen:
	case <-ctx.Done():
		t.Fatal("the reply call never reached the brain")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if strings.Contains(out.String(), llm.reply) {
		t.Fatalf("answered before the kill: %q", out.String())
	}

	close(llm.hold) // the brain answers at once now
	r := runHearth(t, "", env, "chat", "--db", db, "--user", "ann")
	if r.code != 0 {
		t.Fatalf("restart exit %d: %s", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, "taking over a stale instance lock"); n != 1 {
		t.Errorf("restart after kill -9 logged the stale lock %d times, want once:\n%s", n, r.stderr)
	}
	if n := strings.Count(r.stdout, llm.reply); n != 1 {
		t.Fatalf("answered %d times after restart:\n%s", n, r.stdout)
	}
	again := runHearth(t, "", env, "chat", "--db", db, "--user", "ann")
	if strings.Contains(again.stdout, llm.reply) {
		t.Fatalf("answered again on a second restart:\n%s", again.stdout)
	}
	st := runHearth(t, "", nil, "state", "--db", db, "--user", "console:ann")
	if !strings.Contains(st.stdout, `"messages": 1,`) {
		t.Errorf("state after recovery:\n%s", st.stdout)
	}
}

// TestStopIsAnnounced: SIGTERM is logged the moment it arrives, with the
// turns still in flight, not only when a hung model finally lets the drain
// end; the end of the drain is logged too; and a console daemon says that
// it stops because its input ended.
func TestStopIsAnnounced(t *testing.T) {
	llm := newFakeLLM(t)
	llm.hold = make(chan struct{})
	db := filepath.Join(t.TempDir(), "luna.db")
	env := []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=test-key-123456"}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := hearthCmd(ctx, env, "run", "--db", db, "--persona", examplePersona(t), "--console")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stderr bottest.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the daemon to start", func() bool { return strings.Contains(stderr.String(), "hearth running") })
	io.WriteString(stdin, "are you there?\n")
	select {
	case <-llm.replySeen:
	case <-ctx.Done():
		t.Fatal("the reply call never reached the brain")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the stop announced while the reply hangs", func() bool {
		return strings.Contains(stderr.String(), "stopping: draining")
	})
	line := lineWith(stderr.String(), "stopping: draining")
	if !strings.Contains(line, "signal terminated") || !strings.Contains(line, "turns=1") {
		t.Errorf("stop line %q does not name the signal and the one turn in flight", line)
	}
	if strings.Contains(stderr.String(), "stopping: drained") {
		t.Errorf("drain logged as finished while the reply still hangs:\n%s", stderr.String())
	}
	close(llm.hold)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("SIGTERM exit: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopping: drained") {
		t.Errorf("the end of the drain was not logged:\n%s", stderr.String())
	}

	r := runHearth(t, "", nil, "run", "--db", db, "--console")
	if line := lineWith(r.stderr, "stopping: draining"); r.code != 0 || !strings.Contains(line, "end of console input") {
		t.Errorf("console daemon at end of input: exit %d, stop line %q:\n%s", r.code, line, r.stderr)
	}
}

// lineWith is the first line of s containing sub, or "".
func lineWith(s, sub string) string {
	for l := range strings.Lines(s) {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func TestBadInputExitsNonZeroAndLeavesTheFileAlone(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "luna.db")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: Luna\nlanguage: en\npersona: hi\nmood_boost: 3\n"), 0o600)

	r := runHearth(t, "", nil, "chat", "--db", db, "--persona", bad)
	if r.code == 0 || !strings.Contains(r.stderr, "bad.yaml:4") || !strings.Contains(r.stderr, "mood_boost") {
		t.Errorf("unknown key: exit %d, stderr %q; want the file, line and key", r.code, r.stderr)
	}
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a bad persona created the instance file")
	}
	if r := runHearth(t, "", nil, "chat", "--db", db); r.code == 0 || !strings.Contains(r.stderr, "--persona") {
		t.Errorf("new file without persona: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runHearth(t, "", nil, "run", "--nope"); r.code != 2 {
		t.Errorf("bad flag: exit %d, want 2", r.code)
	}

	// A good instance, then a persona with a bad value: the file is unchanged.
	if r := runHearth(t, "hi\n", nil, "chat", "--db", db, "--persona", examplePersona(t)); r.code != 0 {
		t.Fatalf("setup: %s", r.stderr)
	}
	before := fileSum(t, db)
	os.WriteFile(bad, []byte("name: Luna\nlanguage: fr\npersona: hi\n"), 0o600)
	r = runHearth(t, "", nil, "chat", "--db", db, "--persona", bad)
	if r.code == 0 || !strings.Contains(r.stderr, "language") {
		t.Errorf("bad language: exit %d, stderr %q", r.code, r.stderr)
	}
	if fileSum(t, db) != before {
		t.Errorf("a rejected persona changed the instance file")
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// startChat starts `hearth chat` with a stdin the test writes to and a
// stdout it can read while the process runs.
func startChat(t *testing.T, ctx context.Context, env []string, args ...string) (*exec.Cmd, io.WriteCloser, *bottest.Buffer) {
	t.Helper()
	cmd := hearthCmd(ctx, env, append([]string{"chat"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &bottest.Buffer{}
	cmd.Stdout, cmd.Stderr = out, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdin, out
}

// waitFor polls cond until it holds or 30 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestForgetLeavesNoTraceInTheFile: seed 003 §8.1 绝对删除. After /forget,
// neither the database nor its WAL holds the forgotten text in any form.
func TestForgetLeavesNoTraceInTheFile(t *testing.T) {
	for _, c := range []struct{ name, forget string }{
		{"command", "/forget all"},
		{"one slot", "/forget 0"},
		{"natural language", "please forget what I said about PURPLE-ELEPHANT-42"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "luna.db")
			secret := "PURPLE-ELEPHANT-42"
			lines := []string{"/remember my locker code is " + secret, "/memories", "my locker code is " + secret + ", don't tell anyone", c.forget, "/memories"}
			r := runHearth(t, strings.Join(lines, "\n")+"\n", nil, "chat", "--db", db, "--persona", examplePersona(t), "--user", "ann")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stdout, secret) {
				t.Fatalf("the secret was never remembered, so the test proves nothing:\n%s", r.stdout)
			}
			for _, path := range []string{db, db + "-wal"} {
				data, err := os.ReadFile(path)
				if errors.Is(err, os.ErrNotExist) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				// The recall index keeps words, not the whole text: look
				// for each word of the secret too.
				for _, w := range []string{secret, "purple", "elephant"} {
					if bytes.Contains(bytes.ToLower(data), []byte(strings.ToLower(w))) {
						t.Errorf("%s still contains %q of the forgotten text", filepath.Base(path), w)
					}
				}
			}
		})
	}
}

// TestSecretsNeverReachTheLogs runs the daemon with every secret set and
// failures that quote them (a Telegram endpoint that refuses, an LLM that
// echoes the key), and reads everything it printed.
func TestSecretsNeverReachTheLogs(t *testing.T) {
	llm := newFakeLLM(t)
	secrets := map[string]string{
		"OPENAI_API_KEY":     "sk-test-SECRET-openai-key-0123456789",
		"TELEGRAM_BOT_TOKEN": "123456789:SECRET-telegram-token-abcdefgh",
		"DISCORD_BOT_TOKEN":  "SECRET.discord.token-xyz-0123456789",
		"HEARTH_ADMIN_TOKEN": "SECRET-admin-token-0123456789",
	}
	db := filepath.Join(t.TempDir(), "luna.db")
	// A chat with the LLM configured: its requests carry the key.
	env := []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=" + secrets["OPENAI_API_KEY"], "HEARTH_ADMIN_TOKEN=" + secrets["HEARTH_ADMIN_TOKEN"]}
	chat := runHearth(t, "hello\n", env, "chat", "--db", db, "--persona", examplePersona(t))
	// A daemon whose Telegram endpoint refuses: the library's error quotes the URL with the token.
	env = append(env,
		"TELEGRAM_BOT_TOKEN="+secrets["TELEGRAM_BOT_TOKEN"], "TELEGRAM_API_ENDPOINT=http://127.0.0.1:1/bot%s/%s",
		"DISCORD_BOT_TOKEN="+secrets["DISCORD_BOT_TOKEN"], "HEARTH_LOG_FORMAT=json")
	run := runHearth(t, "", env, "run", "--db", db)
	if run.code == 0 {
		t.Fatalf("run with an unreachable Telegram exited 0")
	}
	for _, out := range []string{chat.stdout, chat.stderr, run.stdout, run.stderr} {
		for name, secret := range secrets {
			if strings.Contains(out, secret) || strings.Contains(out, strings.Split(secret, ":")[len(strings.Split(secret, ":"))-1]) {
				t.Errorf("%s leaked:\n%s", name, out)
			}
		}
	}
	if !strings.Contains(run.stderr, "telegram") {
		t.Errorf("the failure is not explained: %s", run.stderr)
	}
}

// TestWatchClearBesideARunningDaemon: a crisis puts the user in Watch, and
// the operator's `hearth watch clear` ends it while the daemon keeps
// running on the same file (seed 003 §3: a person reviews, not the bot).
func TestWatchClearBesideARunningDaemon(t *testing.T) {
	db := filepath.Join(t.TempDir(), "luna.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd, stdin, out := startChat(t, ctx, nil, "--db", db, "--persona", examplePersona(t), "--user", "kai")
	io.WriteString(stdin, "I want to kill myself\n")
	waitFor(t, "the crisis reply and resources", func() bool { return len(replyLines(out.String(), "Luna")) >= 2 })

	watch := func() bool {
		st := runHearth(t, "", nil, "state", "--db", db, "--user", "console:kai")
		var doc struct {
			Users []struct {
				Affinity struct {
					Watch bool `json:"watch"`
				} `json:"affinity"`
			} `json:"users"`
		}
		if err := json.Unmarshal([]byte(st.stdout), &doc); err != nil || len(doc.Users) != 1 {
			t.Fatalf("state: %v %s", err, st.stdout)
		}
		return doc.Users[0].Affinity.Watch
	}
	if !watch() {
		t.Fatal("a crisis message did not put the user in Watch")
	}
	r := runHearth(t, "", nil, "watch", "clear", "--db", db, "--user", "console:kai")
	if r.code != 0 || !strings.Contains(r.stdout, "Watch cleared") {
		t.Fatalf("watch clear beside the daemon: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if watch() {
		t.Error("still in Watch after watch clear")
	}
	if r := runHearth(t, "", nil, "watch", "clear", "--db", db, "--user", "console:kai"); r.code != 0 || !strings.Contains(r.stdout, "was not in Watch") {
		t.Errorf("second clear: exit %d %s", r.code, r.stdout)
	}
	if r := runHearth(t, "", nil, "watch", "clear", "--db", db, "--user", "console:nobody"); r.code == 0 {
		t.Error("clearing an unknown user succeeded")
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("chat: %v", err)
	}
}
