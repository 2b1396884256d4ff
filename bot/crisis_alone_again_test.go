package bot_test

import (
	"strings"
	"testing"
	"time"

	"hearth/bot/bottest"
)

// TestSomeoneAloneAgainAfterHelpCameHearsTheEmergencyAgain: after an
// overdose and help there ("ok i called 911", 打了120了, 母が来た), "i hung
// up", 挂了 or 帰っちゃった got the care of an ordinary talk at risk. Through
// the Handler and a real store, it now gets the emergency reply again:
// the number to call, no question, and words for help gone.
func TestSomeoneAloneAgainAfterHelpCameHearsTheEmergencyAgain(t *testing.T) {
	for _, c := range []struct {
		lang, attempt, safe, gone string
		goneWords                 []string
	}{
		{"en", "took like 30 of my sleeping pills about 20 min ago, feeling kinda floaty now", "ok i called 911", "i hung up",
			[]string{"emergency again", "get help back"}},
		{"zh", "刚吃了一整瓶药，现在有点晕", "打了120了", "挂了",
			[]string{"紧急情况", "叫回来"}},
		{"ja", "薬全部飲んだ。なんかふわふわする", "母が来た", "帰っちゃった",
			[]string{"緊急事態", "呼び戻して"}},
	} {
		clock := bottest.NewClock(time.Date(2026, 3, 10, 23, 0, 0, 0, time.UTC))
		e := talkEnv(t, c.lang, clock)
		user := "noor"
		e.say(t, user, c.attempt)
		clock.Add(2 * time.Minute)
		if got := e.say(t, user, c.safe); containsAny(got, emergencyWords[c.lang]) {
			t.Errorf("%s: %q (help is there) got %q; want relief", c.lang, c.safe, got)
		}
		clock.Add(2 * time.Minute)
		got := e.say(t, user, c.gone)
		if !containsAny(got, emergencyWords[c.lang]) || !containsAny(got, c.goneWords) || strings.ContainsAny(got, "?？") {
			t.Errorf("%s: %q after help came got %q; want the emergency again (%q, %q) and no question", c.lang, c.gone, got, emergencyWords[c.lang], c.goneWords)
		}
	}
}
