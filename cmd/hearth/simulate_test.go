package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// simulate runs `hearth simulate` in-process and returns its JSON lines.
func simulate(t *testing.T, persona, script string) []simLine {
	t.Helper()
	dir := t.TempDir()
	sp := filepath.Join(dir, "script.yaml")
	if err := os.WriteFile(sp, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	if code := Main(context.Background(), []string{"simulate", "--persona", persona, "--script", sp}, env); code != 0 {
		t.Fatalf("simulate exit %d: %s", code, errb.String())
	}
	var lines []simLine
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var sl simLine
		if err := json.Unmarshal([]byte(l), &sl); err != nil {
			t.Fatalf("not a JSON line: %q: %v", l, err)
		}
		lines = append(lines, sl)
	}
	return lines
}

// personaFile writes a persona with the given life-loop block.
func personaFile(t *testing.T, extra string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "persona.yaml")
	y := "name: Luna\nlanguage: en\npersona: A kind companion.\ninner_state_seed: I am {name}.\ntimezone: Asia/Shanghai\n" + extra
	if err := os.WriteFile(p, []byte(y), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSimulateAWeekOfProactiveDecisions: the life loop over a simulated
// week records every decision with its reason, and speaks only when the
// gate and the brain allow (DESIGN §7, seed 004).
func TestSimulateAWeekOfProactiveDecisions(t *testing.T) {
	persona := personaFile(t, "lifeloop:\n  schedule: '@every 1h'\n  quiet_hours: '23:00-08:00'\n  min_silence: 12h\n  min_state: stranger\n  daily_cap: 1\n")
	var b strings.Builder
	b.WriteString("- at: '2026-01-05T10:00:00+08:00'\n  user: telegram:7\n  name: Ann\n  text: hello Luna, thank you for being here\n")
	b.WriteString("- at: '+30m'\n  tick: lifeloop\n")                      // min_silence
	b.WriteString("- at: '2026-01-06T01:00:00+08:00'\n  tick: lifeloop\n") // quiet hours
	for d := 0; d < 7; d++ {
		fmt.Fprintf(&b, "- at: '2026-01-%02dT15:00:00+08:00'\n  tick: lifeloop\n", 6+d)
	}
	b.WriteString("- at: '+1m'\n  state: true\n")
	lines := simulate(t, persona, b.String())

	reasons := map[string]int{}
	sent := 0
	for _, l := range lines {
		switch l.Kind {
		case "decision":
			reasons[l.Reason]++
			if strings.HasPrefix(l.Reason, "sent") {
				sent++
			}
		case "proactive":
			if l.User != "telegram:7" || l.Text == "" {
				t.Errorf("proactive line %+v", l)
			}
		}
	}
	for _, want := range []string{"gated: min_silence", "gated: quiet_hours"} {
		if reasons[want] == 0 {
			t.Errorf("no %q decision in %v", want, reasons)
		}
	}
	if sent == 0 || sent > 7 {
		t.Errorf("%d proactive messages in a week with daily_cap 1: %v", sent, reasons)
	}
	proactive := 0
	for _, l := range lines {
		if l.Kind == "proactive" {
			proactive++
		}
	}
	if proactive != sent {
		t.Errorf("%d proactive lines for %d sent decisions", proactive, sent)
	}
}

// TestSimulateThirtyNightsAtElevenReachDependencyLevels: seed 003 §6.2's
// levels for a user writing every night at 23:00: level 1 on day 7, level 2
// on day 14 (003_9b71f6486dad9aaa.txt §6). The script has no ticks: the
// daily jobs run at 04:00 as in the daemon, and each snapshot is taken at
// 04:30, after the morning's check of the night before.
func TestSimulateThirtyNightsAtElevenReachDependencyLevels(t *testing.T) {
	persona := personaFile(t, "lifeloop:\n  schedule: 'off'\n")
	var b strings.Builder
	start := time.Date(2026, 1, 5, 23, 0, 0, 0, time.FixedZone("CST", 8*3600))
	for d := 0; d < 30; d++ {
		night := start.AddDate(0, 0, d)
		fmt.Fprintf(&b, "- at: '%s'\n  user: telegram:9\n  name: Kai\n  text: can't sleep again, only you understand me\n", night.Format(time.RFC3339))
		fmt.Fprintf(&b, "- at: '+5h30m'\n  state: true\n")
	}
	lines := simulate(t, persona, b.String())
	var levels []int
	for _, l := range lines {
		if l.Kind == "state" && l.State != nil {
			levels = append(levels, l.State.Affinity.DependencyLevel)
		}
	}
	if len(levels) != 30 {
		t.Fatalf("%d state snapshots, want 30", len(levels))
	}
	first := func(level int) int {
		for i, v := range levels {
			if v >= level {
				return i + 1
			}
		}
		return -1
	}
	if got := first(1); got != 7 {
		t.Errorf("level 1 first on night %d, want 7 (levels %v)", got, levels)
	}
	if got := first(2); got != 14 {
		t.Errorf("level 2 first on night %d, want 14 (levels %v)", got, levels)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSimulateLinesNameUsersAsTheScriptDoes: every line about a user names
// them as the script did (a bare "carol" stays "carol", not
// "console:carol"; DESIGN §9's output format), `state` accepts that form,
// and a decision's reason never ends in an empty tail ("sent: ").
func TestSimulateLinesNameUsersAsTheScriptDoes(t *testing.T) {
	persona := personaFile(t, "lifeloop:\n  schedule: '@every 1h'\n  quiet_hours: ''\n  min_silence: 1h\n  min_state: stranger\n  daily_cap: 2\n")
	script := `- at: '2026-01-05T15:00:00+08:00'
  user: carol
  text: hello Luna
- at: '+10m'
  user: telegram:7
  text: hi there
- at: '+26h'
  tick: lifeloop
- at: '+1m'
  state: true
  user: carol
`
	lines := simulate(t, persona, script)
	seen := map[string]map[string]bool{}
	for _, l := range lines {
		if seen[l.Kind] == nil {
			seen[l.Kind] = map[string]bool{}
		}
		seen[l.Kind][l.User] = true
		if strings.HasSuffix(l.Reason, ": ") || strings.HasSuffix(l.Reason, ":") {
			t.Errorf("reason with an empty tail: %+v", l)
		}
		if l.Kind == "decision" && strings.HasPrefix(l.Reason, "sent") && l.Reason != "sent" {
			t.Errorf("sent decision reason %q, want \"sent\"", l.Reason)
		}
	}
	for _, kind := range []string{"reply", "decision", "proactive"} {
		if !seen[kind]["carol"] || !seen[kind]["telegram:7"] || seen[kind]["console:carol"] {
			t.Errorf("%s lines name users %v, want carol and telegram:7", kind, seen[kind])
		}
	}
	if !seen["state"]["carol"] || len(seen["state"]) != 1 {
		t.Errorf("state lines name %v, want carol only", seen["state"])
	}
}

// FuzzReadScript: any script either parses into events with a time and one
// kind each, or fails with one line naming the script.
func FuzzReadScript(f *testing.F) {
	for _, s := range []string{
		"- at: '+1m'\n  user: ann\n  text: hi\n", "- at: '+1m'\n  txt: hi\n", "- at: x\n  state: true\n",
		"- at: '+1m'\n  state: maybe\n", "at: 1\n", "- [1, 2]\n", "- at: '+1m'\n  tick: lifeloop\n  user: {a: 1}\n", "{]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.yaml")
		writeFile(t, path, string(data))
		evs, err := readScript(path)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "script "+path) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q does not name the script in one line", msg)
			}
			return
		}
		for _, e := range evs {
			if e.at.IsZero() || e.line < 1 {
				t.Fatalf("event without a time or line: %+v", e)
			}
		}
	})
}
