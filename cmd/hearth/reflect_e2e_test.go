package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReflectionEveryTenMessagesAgainstAnLLM: seed 004's reflection through
// the binary and an OpenAI-compatible server. The reflect call hangs, and
// the 10th reply still arrives; after 20 messages there were 2 reflections
// and inner_state is the model's.
func TestReflectionEveryTenMessagesAgainstAnLLM(t *testing.T) {
	llm := newFakeLLM(t)
	llm.holdReflect = make(chan struct{})
	db := filepath.Join(t.TempDir(), "luna.db")
	env := []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=test-key-123456"}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd, stdin, out := startChat(t, ctx, env, "--db", db, "--persona", examplePersona(t), "--user", "ann")
	replies := func() int { return len(replyLines(out.String(), "Luna")) }
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(stdin, "message %d\n", i)
	}
	waitFor(t, "the 10th reply while the reflection hangs", func() bool { return replies() == 10 })
	waitFor(t, "the reflect call", func() bool { return llm.count("reflect") == 1 })
	close(llm.holdReflect)
	for i := 11; i <= 20; i++ {
		fmt.Fprintf(stdin, "message %d\n", i)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("chat: %v", err)
	}
	if replies() != 20 || llm.count("reflect") != 2 {
		t.Fatalf("%d replies, %d reflections; want 20 and 2", replies(), llm.count("reflect"))
	}
	st := runHearth(t, "", nil, "state", "--db", db)
	var doc struct {
		Users []struct {
			Reflections int    `json:"reflections"`
			InnerState  string `json:"inner_state"`
		} `json:"users"`
	}
	if err := json.Unmarshal([]byte(st.stdout), &doc); err != nil || len(doc.Users) != 1 {
		t.Fatalf("state: %v %s", err, st.stdout)
	}
	if u := doc.Users[0]; u.Reflections != 2 || u.InnerState != "I feel closer to them than before." {
		t.Errorf("after 20 messages: %+v", u)
	}
}

// TestGatedUsersCostNoLifeLoopCalls: the deterministic gate runs before any
// LLM call; gated users cost nothing at the LLM server (DESIGN §7).
func TestGatedUsersCostNoLifeLoopCalls(t *testing.T) {
	llm := newFakeLLM(t)
	persona := personaFile(t, "lifeloop:\n  schedule: '@every 1h'\n  quiet_hours: '23:00-08:00'\n  min_silence: 6h\n")
	script := `- at: '2026-01-05T10:00:00+08:00'
  user: telegram:1
  text: hello
- at: '+1h'
  tick: lifeloop
- at: '2026-01-06T02:00:00+08:00'
  tick: lifeloop
`
	dir := t.TempDir()
	sp := filepath.Join(dir, "script.yaml")
	writeFile(t, sp, script)
	env := map[string]string{"OPENAI_BASE_URL": llm.URL(), "OPENAI_API_KEY": "test-key-123456"}
	var out, errb strings.Builder
	code := Main(context.Background(), []string{"simulate", "--persona", persona, "--script", sp, "--brain", "openai"},
		Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }})
	if code != 0 {
		t.Fatalf("simulate: %d %s", code, errb.String())
	}
	if llm.count("reply") != 1 {
		t.Fatalf("the turn did not use the LLM: %v", llm.calls)
	}
	if n := llm.count("lifeloop"); n != 0 {
		t.Errorf("%d lifeloop calls for a gated user:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), `"gated: `) {
		t.Errorf("no gated decision recorded:\n%s", out.String())
	}
}
