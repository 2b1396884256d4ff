package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// cacheConversation is what a user says, in turn, in the token runs.
var cacheConversation = []string{
	"hello Luna, how are you today?",
	"work was long, my manager moved the deadline again",
	"I cooked pasta tonight, it turned out well",
	"do you think I should call my sister this weekend?",
	"I read a few pages of a novel before bed",
}

// tokenRun is one `hearth chat` conversation of n messages against a
// prefix-caching fake, and what `hearth state` reported afterwards.
type tokenRun struct {
	spent  fakeUsage // what the fake server counted
	today  int       // hearth state tokens.today
	cached int       // hearth state tokens.cached
}

// chatWithCache runs one conversation of n messages through the real
// binary against a prefix-caching fake.
func chatWithCache(tb testing.TB, n int) tokenRun {
	tb.Helper()
	llm := newFakeLLM(tb)
	llm.prefixes = map[string]string{}
	db := filepath.Join(tb.TempDir(), "luna.db")
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "%s (%d)\n", cacheConversation[i%len(cacheConversation)], i+1)
	}
	env := []string{"OPENAI_BASE_URL=" + llm.URL(), "OPENAI_API_KEY=sk-test"}
	run := func(stdin string, args ...string) string {
		r := runHearth(tb, stdin, env, args...)
		if r.code != 0 {
			tb.Fatalf("hearth %v: exit %d\n%s", args, r.code, r.stderr)
		}
		return r.stdout
	}
	run(in.String(), "chat", "--db", db, "--persona", examplePersona(tb), "--user", "ann")
	var doc struct {
		Tokens struct {
			Today  int `json:"today"`
			Cached int `json:"cached"`
		} `json:"tokens"`
	}
	if err := json.Unmarshal([]byte(run("", "state", "--db", db)), &doc); err != nil {
		tb.Fatal(err)
	}
	llm.mu.Lock()
	defer llm.mu.Unlock()
	return tokenRun{spent: llm.spent, today: doc.Tokens.Today, cached: doc.Tokens.Cached}
}

// The cached prompt tokens a server reports reach `hearth state`: they are
// stored per call and summed for today, and never exceed the prompt.
func TestStateCountsCachedTokens(t *testing.T) {
	r := chatWithCache(t, 12)
	if r.spent.cached == 0 {
		t.Fatal("the fake reported no cached tokens: nothing to check")
	}
	if r.cached != r.spent.cached || r.today != r.spent.prompt+r.spent.completion {
		t.Errorf("state tokens today %d cached %d; the server reported %+v", r.today, r.cached, r.spent)
	}
}

// BenchmarkTokensPerTurn is a 100-message conversation through the real
// binary against a fake that reports cached_tokens as a prefix cache would
// (the longest prefix shared with the previous prompt of the same kind and
// cache key, four bytes a token). Per turn: perception, reply and every
// tenth message's reflection.
func BenchmarkTokensPerTurn(b *testing.B) {
	const messages = 100
	var r tokenRun
	for b.Loop() {
		r = chatWithCache(b, messages)
	}
	b.ReportMetric(float64(r.spent.prompt)/messages, "prompt/turn")
	b.ReportMetric(float64(r.spent.cached)/messages, "cached/turn")
	b.ReportMetric(float64(r.spent.completion)/messages, "completion/turn")
	b.ReportMetric(float64(r.spent.cached)/float64(max(1, r.spent.prompt)), "cached-share")
}
