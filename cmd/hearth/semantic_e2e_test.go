package main

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/bot/bottest"
	"hearth/bot/semantic/semantictest"
)

// setEmbeddings makes the fake brain's server answer /embeddings with h.
func (f *fakeLLM) setEmbeddings(h http.Handler) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.embeddings = h
}

// simulateWith runs `hearth simulate --brain openai` in process with the
// fake brain at llm and env, for a script of messages from one user.
func simulateWith(t *testing.T, llm *fakeLLM, env map[string]string, texts ...string) (stdout, stderr string) {
	t.Helper()
	var script strings.Builder
	for i, text := range texts {
		at := "'+10m'"
		if i == 0 {
			at = "'2026-01-05T10:00:00+08:00'"
		}
		script.WriteString("- at: " + at + "\n  user: telegram:1\n  text: '" + text + "'\n")
	}
	sp := filepath.Join(t.TempDir(), "script.yaml")
	writeFile(t, sp, script.String())
	env["OPENAI_BASE_URL"], env["OPENAI_API_KEY"] = llm.URL(), "test-key-123456"
	var out, errb strings.Builder
	code := Main(context.Background(), []string{"simulate", "--persona", examplePersona(t), "--script", sp, "--brain", "openai"},
		Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }})
	if code != 0 {
		t.Fatalf("simulate: exit %d\n%s", code, errb.String())
	}
	return out.String(), errb.String()
}

// Issue 11 item 2, DESIGN §9 HEARTH_EMBED_MODEL: the brain's own server
// embeds, with its key; simulate embeds what was said before each message
// on its clock (the daemon's worker does it in the background).
func TestSimulateEmbedsOnTheBrainsServer(t *testing.T) {
	llm := newFakeLLM(t)
	emb := semantictest.New(t, map[string]int{"nomic-embed-text": 64})
	llm.setEmbeddings(emb)
	_, stderr := simulateWith(t, llm, map[string]string{"HEARTH_EMBED_MODEL": "nomic-embed-text"},
		"my cat Biscuit turned twelve", "work was long today", "Biscuit was sick all night")
	var inputs []string
	for _, c := range emb.Calls() {
		if c.Model != "nomic-embed-text" {
			t.Errorf("embedded with model %q", c.Model)
		}
		inputs = append(inputs, c.Inputs...)
	}
	for _, want := range []string{"hearth", "my cat Biscuit turned twelve", "work was long today"} {
		if !slices.Contains(inputs, want) {
			t.Errorf("not embedded: %q (inputs %q)", want, inputs)
		}
	}
	if !strings.Contains(stderr, "embedding model ready") || strings.Contains(stderr, "test-key-123456") {
		t.Errorf("log:\n%s", stderr)
	}
}

// Issue 11 item 2: a brain's server without /embeddings (404) leaves
// recall to the full-text index, said once, and every message answered.
func TestEmbeddingsNotFoundLoggedOnce(t *testing.T) {
	llm := newFakeLLM(t) // no embeddings handler: 404
	stdout, stderr := simulateWith(t, llm, map[string]string{"HEARTH_EMBED_MODEL": "text-embedding-3-small"},
		"hello", "my cat Biscuit turned twelve", "Biscuit was sick all night")
	if n := strings.Count(stdout, `"kind":"reply"`); n != 3 {
		t.Fatalf("%d replies:\n%s", n, stdout)
	}
	if n := strings.Count(stderr, "embeddings unavailable"); n != 1 {
		t.Errorf("logged %d times:\n%s", n, stderr)
	}
	// Without the variable it says so once, too.
	_, stderr = simulateWith(t, llm, map[string]string{}, "hello")
	if n := strings.Count(stderr, "recall by meaning off"); n != 1 {
		t.Errorf("unset variable logged %d times:\n%s", n, stderr)
	}
}

// The daemon's worker catches up on start with what was said before
// HEARTH_EMBED_MODEL was set, in the background, and stops with it.
func TestRunEmbedsWhatWasSaidBefore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "luna.db")
	first := runHearth(t, "my cat Biscuit turned twelve\nwork was long today\n", nil, "chat", "--db", db, "--persona", examplePersona(t), "--user", "ann")
	if first.code != 0 || !strings.Contains(first.stderr, "recall by meaning off") {
		t.Fatalf("first run: exit %d\n%s", first.code, first.stderr)
	}

	llm := newFakeLLM(t)
	emb := semantictest.New(t, map[string]int{"m1": 64})
	llm.setEmbeddings(emb)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := hearthCmd(ctx, []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=test-key-123456", "HEARTH_EMBED_MODEL=m1"},
		"run", "--db", db, "--console")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &bottest.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the worker to catch up", func() bool { return emb.Inputs() >= 3 }) // the probe and both messages
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	var inputs []string
	for _, c := range emb.Calls() {
		inputs = append(inputs, c.Inputs...)
	}
	if !slices.Contains(inputs, "my cat Biscuit turned twelve") || !slices.Contains(inputs, "work was long today") {
		t.Errorf("embedded %q", inputs)
	}
}
