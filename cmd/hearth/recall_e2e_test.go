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

// TestSimulateRemembersANameToldAsAnAnswer, through the built binary with
// the offline brain: a kitten's name told as the answer to her question
// ("her name is Mochi", 它叫咪咪, 名前はモカ) is kept, and three weeks
// later, a new talk, "do you remember my cat's name?" is answered with it.
func TestSimulateRemembersANameToldAsAnAnswer(t *testing.T) {
	talks := []struct {
		lang, name, news, answer, hello, ask, want string
	}{
		{"en", "Ann", "we got a kitten!", "her name is Mochi", "hi Luna", "do you remember my cat's name?", "Mochi"},
		{"zh", "小安", "我们家新养了一只小猫！", "它叫咪咪", "你好呀", "你还记得我家猫叫什么吗？", "咪咪"},
		{"ja", "アン", "子猫を飼い始めたんだ！", "名前はモカ", "こんばんは", "うちの猫の名前覚えてる？", "モカ"},
	}
	for _, tc := range talks {
		t.Run(tc.lang, func(t *testing.T) {
			dir := t.TempDir()
			persona := filepath.Join(dir, "persona.yaml")
			y := "name: Luna\nlanguage: " + tc.lang + "\npersona: A kind companion.\ninner_state_seed: I am {name}.\ntimezone: Asia/Shanghai\nlifeloop:\n  schedule: 'off'\n"
			script := filepath.Join(dir, "script.yaml")
			s := fmt.Sprintf("- {at: '2026-01-05T19:00:00+08:00', user: 'telegram:7', name: %q, text: %q}\n"+
				"- {at: '+1m', user: 'telegram:7', text: %q}\n"+
				"- {at: '+21d', user: 'telegram:7', text: %q}\n"+
				"- {at: '+2m', user: 'telegram:7', text: %q}\n", tc.name, tc.news, tc.answer, tc.hello, tc.ask)
			for p, b := range map[string]string{persona: y, script: s} {
				if err := os.WriteFile(p, []byte(b), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			r := runHearth(t, "", nil, "simulate", "--persona", persona, "--script", script)
			if r.code != 0 {
				t.Fatalf("simulate exit %d:\n%s", r.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			var last simLine
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
				t.Fatalf("not a JSON line %q: %v", lines[len(lines)-1], err)
			}
			if last.Kind != "reply" || last.At != "2026-01-26T19:03:00+08:00" || !strings.Contains(last.Text, tc.want) {
				t.Fatalf("three weeks later %q got %+v, want a reply naming %s:\n%s", tc.ask, last, tc.want, r.stdout)
			}
		})
	}
}
