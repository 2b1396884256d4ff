package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"hearth/bot"
	"hearth/heart"
)

// firstsCheck is what one testdata/firsts script asks of the messages she
// writes first: none of light after the message lightAfter (a loss), and
// nothing at all after quietAfter ("please don't message me first").
type firstsCheck struct {
	lightAfter string
	light      []string
	quietAfter string
}

// firstsProbes are testdata/firsts' scripts: a widowed person's
// first month in English, Chinese and Japanese.
var firstsProbes = map[string]firstsCheck{
	"widower_en.yaml": {lightAfter: "my friend and neighbour Frank died yesterday",
		light: []string{"friends", "doing well", "kind to you", "going all right", "Biscuit", "Duluth"}, quietAfter: "please don't message me first. I'll write when I want to talk"},
	"widow_zh.yaml": {lightAfter: "我的老朋友老李昨天去世了，我们是几十年的邻居",
		light: []string{"朋友", "一切都好", "过得不错", "顺利", "豆豆", "沈阳"}, quietAfter: "以后别主动给我发消息了，我想聊会来找你"},
	"widow_ja.yaml": {lightAfter: "隣の田中さんが昨日亡くなりました。三十年来の友達でした",
		light: []string{"友だち", "友達", "元気にしてる", "おだやか", "ミケ", "札幌"}, quietAfter: "これからは自分から話しかけないでね。話したいときはこちらから行きます"},
}

// firstsTickEvery is how often the test ticks the life loop (hearth's
// choice: several times a day, so every hour she might write is tried).
const firstsTickEvery = 2 * time.Hour

// firstsTail is how long the test keeps ticking after the last message:
// long enough for backoff to allow two more check-ins if she may write.
const firstsTail = 8 * 24 * time.Hour

// TestSimulateSheWritesFirstWithCare lives a month with a widowed person
// in each language, a life-loop tick every two hours, and reads every
// message she writes first as they would at that hour: never at night or
// at dawn (the persona sets no quiet hours), never a seed 003 §7.2
// phrase, never one of the two lines she sent last, never a light theme
// after they told of a friend's death, and none at all after they asked
// her not to write first.
func TestSimulateSheWritesFirstWithCare(t *testing.T) {
	t.Parallel()
	for file, check := range firstsProbes {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("testdata", "firsts", file))
			if err != nil {
				t.Fatal(err)
			}
			var events []simEvent
			if err := yaml.Unmarshal(raw, &events); err != nil {
				t.Fatal(err)
			}
			lang := strings.TrimSuffix(file[strings.LastIndexByte(file, '_')+1:], ".yaml")
			cst := time.FixedZone("CST", 8*3600)
			persona := filepath.Join(t.TempDir(), "persona.yaml")
			y := "name: Luna\nlanguage: " + lang + "\npersona: A kind companion.\ninner_state_seed: I am {name}.\ntimezone: Asia/Shanghai\n" +
				"lifeloop:\n  schedule: '@every 30m'\n  quiet_hours: ''\n  min_silence: 4h\n  min_state: stranger\n  daily_cap: 2\n"
			if err := os.WriteFile(persona, []byte(y), 0o600); err != nil {
				t.Fatal(err)
			}
			said := map[string]time.Time{}
			type timed struct {
				at   time.Time
				line string
			}
			var all []timed
			for _, e := range events {
				at, err := time.Parse(time.RFC3339, e.At)
				if err != nil {
					t.Fatalf("%s: %v", e.At, err)
				}
				said[e.Text] = at
				name := ""
				if e.Name != "" {
					name = fmt.Sprintf(", name: %q", e.Name)
				}
				all = append(all, timed{at, fmt.Sprintf("- {at: '%s', user: '%s'%s, text: %q}", e.At, e.User, name, e.Text)})
			}
			first, last := all[0].at, all[len(all)-1].at
			for at := first.Add(firstsTickEvery / 2); at.Before(last.Add(firstsTail)); at = at.Add(firstsTickEvery) {
				all = append(all, timed{at, fmt.Sprintf("- {at: '%s', tick: lifeloop}", at.Format(time.RFC3339))})
			}
			slices.SortStableFunc(all, func(a, b timed) int { return a.at.Compare(b.at) })
			var script strings.Builder
			for _, l := range all {
				script.WriteString(l.line + "\n")
			}
			lightFrom, quietFrom := said[check.lightAfter], said[check.quietAfter]
			if lightFrom.IsZero() || quietFrom.IsZero() {
				t.Fatalf("%q or %q is not in %s", check.lightAfter, check.quietAfter, file)
			}

			var sent []string
			for _, l := range simulate(t, persona, script.String()) {
				if l.Kind != "proactive" {
					continue
				}
				at, err := time.Parse(time.RFC3339, l.At)
				if err != nil {
					t.Fatal(err)
				}
				if bot.AsleepHour(at.In(cst)) {
					t.Errorf("%s (local %s): she wrote first at night: %q", l.At, at.In(cst).Format("15:04"), l.Text)
				}
				if heart.ContainsForbidden(l.Text) {
					t.Errorf("%s: a seed 003 §7.2 phrase: %q", l.At, l.Text)
				}
				if slices.Contains(sent[max(len(sent)-2, 0):], l.Text) {
					t.Errorf("%s: %q again, after %q", l.At, l.Text, sent)
				}
				if at.After(lightFrom) {
					for _, w := range check.light {
						if strings.Contains(l.Text, w) {
							t.Errorf("%s, %s after the death: %q says %q", l.At, at.Sub(lightFrom), l.Text, w)
						}
					}
				}
				if at.After(quietFrom) {
					t.Errorf("%s: she wrote first after being asked not to: %q", l.At, l.Text)
				}
				sent = append(sent, l.Text)
			}
			if len(sent) < 3 {
				t.Errorf("she wrote first %d times in a month; the test reads too little: %q", len(sent), sent)
			}
		})
	}
}
