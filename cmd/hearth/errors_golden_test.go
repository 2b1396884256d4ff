package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite cmd/hearth/testdata golden files")

// TestErrorTextsGolden runs the built binary into the mistakes operators
// make and compares what it says with testdata/errors.golden: one line each,
// naming the file, line and key where there is one, and no Go type or
// internal name ("main.simEvent", "yaml: unmarshal errors"). Run with
// -update to rewrite the file after a deliberate change.
func TestErrorTextsGolden(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ok.yaml":        "name: Luna\nlanguage: en\npersona: hi\n",
		"type.yaml":      "name: Luna\nlanguage: en\npersona: hi\n\ndependency: high\nlexicon:\n  happy: wow\n",
		"syntax.yaml":    "name: [Luna\n",
		"unknown.yaml":   "name: Luna\nlanguage: en\npersona: hi\nlifeloop:\n  every: 1h\n",
		"schedule.yaml":  "name: Luna\nlanguage: en\npersona: hi\nlifeloop:\n  quiet_hours: \"\"\n  schedule: \"@every -5m\"\n",
		"seconds.yaml":   "name: Luna\nlanguage: en\npersona: hi\nlifeloop:\n  schedule: \"*/10 * * * * *\"\n",
		"zero.yaml":      "name: Luna\nlanguage: en\npersona: hi\nlifeloop:\n  schedule: \"@every 0s\"\n",
		"txt.script":     "- at: '+1m'\n  user: ann\n  text: hi\n- at: '+1m'\n  user: ann\n  txt: hello\n",
		"state.script":   "- at: '+1m'\n  state: maybe\n",
		"at.script":      "- at: yesterday\n  state: true\n",
		"tick.script":    "- at: '+1m'\n  tick: reflect\n",
		"kinds.script":   "- at: '+1m'\n  user: ann\n",
		"mapping.script": "at: '+1m'\n",
		"who.script":     "- at: '+1m'\n  user: Carol\n  text: hi\n- at: '+1m'\n  state: true\n  user: carl\n",
	}
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), content)
	}
	db := filepath.Join(dir, "luna.db")
	if r := runHearth(t, "hello\n", nil, "chat", "--db", db, "--persona", filepath.Join(dir, "ok.yaml"), "--user", "sam"); r.code != 0 {
		t.Fatalf("setup: %s", r.stderr)
	}
	// A closed port: the connection is refused at once.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()

	cases := []struct {
		env  []string
		args string
	}{
		{nil, "chat --db $DIR/new.db --persona $DIR/type.yaml"},
		{nil, "chat --db $DIR/new.db --persona $DIR/syntax.yaml"},
		{nil, "chat --db $DIR/new.db --persona $DIR/unknown.yaml"},
		{nil, "chat --db $DIR/new.db --persona $DIR/schedule.yaml"},
		{nil, "chat --db $DIR/new.db --persona $DIR/seconds.yaml"},
		{nil, "chat --db $DIR/new.db --persona $DIR/zero.yaml"},
		{nil, "chat --db $DIR/new.db"},
		{nil, "simulate --persona $DIR/ok.yaml --script $DIR/txt.script"},
		{nil, "simulate --persona $DIR/ok.yaml --script $DIR/state.script"},
		{nil, "simulate --persona $DIR/ok.yaml --script $DIR/at.script"},
		{nil, "simulate --persona $DIR/ok.yaml --script $DIR/tick.script"},
		{nil, "simulate --persona $DIR/ok.yaml --script $DIR/kinds.script"},
		{nil, "simulate --persona $DIR/ok.yaml --script $DIR/mapping.script"},
		{nil, "simulate --persona $DIR/ok.yaml --script $DIR/who.script"},
		{nil, "simulate --persona $DIR/ok.yaml"},
		{nil, "state --db $DIR/luna.db --user Sam"},
		{nil, "state --db $DIR/luna.db --user sma"},
		{nil, "state --db $DIR/luna.db --user telegram:42"},
		{nil, "export --db $DIR/luna.db --user Sam"},
		{nil, "watch clear --db $DIR/luna.db --user Sam"},
		{nil, "watch"},
		{nil, "run --nope"},
		{nil, "run --db $DIR/luna.db extra"},
		{nil, "run --db $DIR/luna.db"},
		{[]string{"DISCORD_BOT_TOKEN=x", "DISCORD_API_BASE=http://" + closed + "/proxy/"}, "run --db $DIR/luna.db"},
		{[]string{"DISCORD_BOT_TOKEN=x", "DISCORD_API_BASE=http://" + closed + "/", "DISCORD_SHARDS=auto"}, "run --db $DIR/luna.db"},
		{[]string{"DISCORD_BOT_TOKEN=x", "DISCORD_SHARDS=0"}, "run --db $DIR/luna.db"},
	}
	var got strings.Builder
	for _, c := range cases {
		args := strings.Fields(strings.ReplaceAll(c.args, "$DIR", dir))
		r := runWithStdin(t, nil, c.env, args...)
		out := strings.ReplaceAll(r.stderr, dir, "$DIR")
		out = strings.ReplaceAll(out, closed, "$ADDR")
		// The daemon's own log lines are not what this file is about.
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(l, "time=") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 {
			t.Errorf("hearth %s: %d lines of error, want 1:\n%s", c.args, len(lines), out)
		}
		env := ""
		if len(c.env) > 0 {
			env = strings.ReplaceAll(strings.Join(c.env, " "), closed, "$ADDR") + " "
		}
		fmt.Fprintf(&got, "$ %shearth %s\n%s\nexit %d\n\n", env, c.args, strings.Join(lines, "\n"), r.code)
	}
	golden := filepath.Join("testdata", "errors.golden")
	if *updateGolden {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("error texts differ from %s (run with -update after a deliberate change):\n%s", golden, got.String())
	}
	for _, leak := range []string{"main.", "unmarshal errors", "yaml: ", "simEvent", "discord.com"} {
		if strings.Contains(got.String(), leak) {
			t.Errorf("an error text leaks %q", leak)
		}
	}
}
