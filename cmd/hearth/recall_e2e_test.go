package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulateFollowUpAskedAfterItsDay (issue 11 item 5), through the
// built binary: "I have an exam on Friday" said on a Monday becomes a
// follow-up; the life loop's check-ins before Saturday do not ask about
// it, the first one after Friday does, says so in its reason
// (sent: follow_up), and asks once.
func TestSimulateFollowUpAskedAfterItsDay(t *testing.T) {
	persona := personaFile(t, "lifeloop:\n  schedule: '@every 1h'\n  quiet_hours: '23:00-08:00'\n  min_silence: 12h\n  min_state: stranger\n  daily_cap: 1\n")
	var b strings.Builder
	b.WriteString("- at: '2026-01-05T10:00:00+08:00'\n  user: telegram:7\n  name: Ann\n  text: I have an exam on Friday, wish me luck\n")
	for day := 6; day <= 11; day++ { // Tuesday to Sunday
		fmt.Fprintf(&b, "- at: '2026-01-%02dT15:00:00+08:00'\n  tick: lifeloop\n", day)
		fmt.Fprintf(&b, "- at: '2026-01-%02dT21:00:00+08:00'\n  user: telegram:7\n  text: long day, going to bed soon\n", day)
	}
	script := filepath.Join(t.TempDir(), "script.yaml")
	if err := os.WriteFile(script, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runHearth(t, "", nil, "simulate", "--persona", persona, "--script", script)
	if r.code != 0 {
		t.Fatalf("simulate exit %d:\n%s", r.code, r.stderr)
	}
	var asked []simLine
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var sl simLine
		if err := json.Unmarshal([]byte(l), &sl); err != nil {
			t.Fatalf("not a JSON line %q: %v", l, err)
		}
		if sl.Kind == "decision" && sl.Reason == "sent: follow_up" {
			asked = append(asked, sl)
		}
	}
	if len(asked) != 1 {
		t.Fatalf("%d follow-up check-ins, want exactly one:\n%s", len(asked), r.stdout)
	}
	if asked[0].At != "2026-01-10T15:00:00+08:00" || !strings.Contains(strings.ToLower(asked[0].Text), "exam") {
		t.Fatalf("follow-up check-in %+v, want Saturday 15:00 asking about the exam", asked[0])
	}
}
