package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hearth/bot/brain"
)

// runWithStdin runs the binary with stdin set to f (nil: /dev/null, what a
// service manager gives a daemon).
func runWithStdin(t *testing.T, f *os.File, env []string, args ...string) result {
	t.Helper()
	if f == nil {
		null, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer null.Close()
		f = null
	}
	return runHearthFrom(t, f, env, args...)
}

// TestRunUnderAServiceManagerWithoutTokenFails: stdin is /dev/null (a
// character device, not a terminal) and no platform token is set. The
// daemon must not open the console, read end of input and exit 0 (the
// unit's Restart=on-failure would never notice); it exits 2 with one line
// and leaves no file behind.
func TestRunUnderAServiceManagerWithoutTokenFails(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "luna.db")
	r := runWithStdin(t, nil, nil, "run", "--db", db, "--persona", examplePersona(t))
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\nstderr:\n%s", r.code, r.stderr)
	}
	want := "hearth run: no transport configured: set TELEGRAM_BOT_TOKEN or DISCORD_BOT_TOKEN, or pass --console (stdin is not a terminal)\n"
	if r.stderr != want {
		t.Errorf("stderr %q, want the one line %q", r.stderr, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused run left %v behind", entries)
	}
	// A pipe is not a terminal either.
	if r := runHearth(t, "hello\n", nil, "run", "--db", db, "--persona", examplePersona(t)); r.code != 2 || !strings.Contains(r.stderr, "no transport configured") {
		t.Errorf("piped stdin: exit %d, %s", r.code, r.stderr)
	}
	// --console asks for the console: /dev/null is then simply no input.
	if r := runWithStdin(t, nil, nil, "run", "--db", db, "--persona", examplePersona(t), "--console"); r.code != 0 {
		t.Errorf("--console with /dev/null: exit %d, %s", r.code, r.stderr)
	}
}

// TestSystemdUnitAgreesWithRun: the shipped unit starts `hearth run`
// without --console (stdin is /dev/null there) and does not restart the
// exit status of a configuration error, the one errNoTransport gets.
func TestSystemdUnitAgreesWithRun(t *testing.T) {
	unit, err := os.ReadFile(filepath.Join(filepath.Dir(examplePersona(t)), "contrib", "systemd", "hearth@.service"))
	if err != nil {
		t.Fatal(err)
	}
	var exec, prevent string
	for _, line := range strings.Split(string(unit), "\n") {
		if v, ok := strings.CutPrefix(line, "ExecStart="); ok {
			exec = v
		}
		if v, ok := strings.CutPrefix(line, "RestartPreventExitStatus="); ok {
			prevent = v
		}
	}
	if !strings.Contains(exec, " run ") || strings.Contains(exec, "--console") {
		t.Errorf("ExecStart=%s: want hearth run without --console", exec)
	}
	var env bytes.Buffer
	code := Main(context.Background(), []string{"run", "--db", filepath.Join(t.TempDir(), "x.db")},
		Env{Stdin: strings.NewReader(""), Stdout: &env, Stderr: &env, Getenv: func(string) string { return "" }})
	if prevent != strconv.Itoa(code) {
		t.Errorf("RestartPreventExitStatus=%q, but no transport exits %d", prevent, code)
	}
}

// TestConsoleFilesNeverPileUpInTmp: the /me chart and the /export file (all
// of a user's data) are written under a private temp dir while the session
// runs, so the user can open them, and removed at exit; --files DIR keeps
// them there instead.
func TestConsoleFilesNeverPileUpInTmp(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(t.TempDir(), "luna.db")
	env := []string{"TMPDIR=" + tmp}
	r := runHearth(t, "hello\n/me\n/export\n", env, "chat", "--db", db, "--persona", examplePersona(t), "--user", "ann")
	if r.code != 0 {
		t.Fatalf("chat: exit %d\n%s", r.code, r.stderr)
	}
	paths := attachmentPaths(r.stdout)
	if len(paths) != 2 {
		t.Fatalf("attachments printed %v, want the chart and the export:\n%s", paths, r.stdout)
	}
	for _, p := range paths {
		if !strings.HasPrefix(p, tmp+string(filepath.Separator)+"hearth-console-") {
			t.Errorf("attachment %s is not under a private dir in TMPDIR", p)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR after exit: %v", left)
	}

	keep := filepath.Join(t.TempDir(), "files")
	r = runHearth(t, "/export\n", env, "chat", "--db", db, "--user", "ann", "--files", keep)
	paths = attachmentPaths(r.stdout)
	if r.code != 0 || len(paths) != 1 || filepath.Dir(paths[0]) != keep {
		t.Fatalf("--files: exit %d, attachments %v\n%s", r.code, paths, r.stderr)
	}
	if data, err := os.ReadFile(paths[0]); err != nil || !strings.Contains(string(data), "console:ann") {
		t.Errorf("kept export: %v %.80s", err, data)
	}
}

// attachmentPaths reads the console's "[name: path]" lines.
func attachmentPaths(stdout string) []string {
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") && strings.Contains(l, ": /") {
			_, p, _ := strings.Cut(strings.Trim(l, "[]"), ": ")
			out = append(out, p)
		}
	}
	return out
}

// TestLogNamesTheModelInUse: without HEARTH_MODEL the start line names the
// default model the brain really uses, not model="".
func TestLogNamesTheModelInUse(t *testing.T) {
	llm := newFakeLLM(t)
	db := filepath.Join(t.TempDir(), "luna.db")
	r := runHearth(t, "", []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=test-key-123456"}, "chat", "--db", db, "--persona", examplePersona(t))
	if r.code != 0 || !strings.Contains(r.stderr, "model="+brain.DefaultModel) || strings.Contains(r.stderr, `model=""`) {
		t.Errorf("exit %d; the start line does not name %s:\n%s", r.code, brain.DefaultModel, r.stderr)
	}
}

// TestHelpPrintsUsageAndFlags: every command's -h (and `hearth help CMD`)
// prints its usage line, what it does and its flags on stdout, and exits 0.
func TestHelpPrintsUsageAndFlags(t *testing.T) {
	for _, c := range []struct {
		args  []string
		flags []string
	}{
		{[]string{"run", "-h"}, []string{"-db FILE", "-persona YAML", "-console", "-files DIR"}},
		{[]string{"chat", "--help"}, []string{"-db FILE", "-persona YAML", "-user NAME", "-files DIR"}},
		{[]string{"state", "-h"}, []string{"-db FILE", "-user ID"}},
		{[]string{"export", "-h"}, []string{"-db FILE", "-user ID"}},
		{[]string{"watch", "-h"}, []string{"-db FILE", "-user ID"}},
		{[]string{"watch", "clear", "-h"}, []string{"-db FILE", "-user ID"}},
		{[]string{"simulate", "-h"}, []string{"-persona YAML", "-script FILE", "-brain KIND"}},
		{[]string{"help", "simulate"}, []string{"-persona YAML", "-script FILE"}},
	} {
		r := runHearth(t, "", nil, c.args...)
		name := c.args[0]
		if name == "help" {
			name = c.args[1]
		}
		if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "usage: hearth "+name+" ") || !strings.Contains(r.stdout, "\nflags:\n") {
			t.Errorf("hearth %v: exit %d, stderr %q, stdout:\n%s", c.args, r.code, r.stderr, r.stdout)
			continue
		}
		for _, f := range c.flags {
			if !strings.Contains(r.stdout, f) {
				t.Errorf("hearth %v does not list %s:\n%s", c.args, f, r.stdout)
			}
		}
	}
	// The top-level usage lists every command with the same usage line.
	top := runHearth(t, "", nil, "help")
	for _, c := range commandHelp {
		if !strings.Contains(top.stdout, c.name) || !strings.Contains(top.stdout, c.args) {
			t.Errorf("hearth help lacks %s %s:\n%s", c.name, c.args, top.stdout)
		}
	}
}

// TestConsoleWithoutLoginNameIsCalledFriend: without $USER or --user the
// console user keeps the id console:you, and the companion calls them by
// the persona language's word for a friend, never "you" inside Chinese.
func TestConsoleWithoutLoginNameIsCalledFriend(t *testing.T) {
	dir := t.TempDir()
	persona, err := os.ReadFile(examplePersona(t))
	if err != nil {
		t.Fatal(err)
	}
	zh := filepath.Join(dir, "zh.yaml")
	if err := os.WriteFile(zh, []byte(strings.Replace(string(persona), "\nlanguage: en\n", "\nlanguage: zh\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "luna.db")
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader("好累啊\n晚安\n"), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	if code := Main(context.Background(), []string{"chat", "--db", db, "--persona", zh}, env); code != 0 {
		t.Fatalf("chat: exit %d\n%s", code, errb.String())
	}
	if strings.Contains(out.String(), "you") {
		t.Errorf("the companion calls the user \"you\" in Chinese:\n%s", out.String())
	}
	out.Reset()
	env.Stdin = strings.NewReader("")
	if code := Main(context.Background(), []string{"state", "--db", db, "--user", "console:you"}, env); code != 0 {
		t.Fatalf("state: exit %d\n%s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"name": "朋友"`) {
		t.Errorf("state of console:you lacks the name 朋友:\n%s", out.String())
	}
}
