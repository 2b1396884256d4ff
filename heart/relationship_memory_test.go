package heart

import (
	"testing"
	"time"
	"unicode/utf8"
)

// TestSeed003_ClassifyRetention: 003_9b71f6486dad9aaa.txt §8.1's classes.
func TestSeed003_ClassifyRetention(t *testing.T) {
	rows := []struct {
		slot    int
		content string
		want    Retention
	}{
		{10, "上个月失恋了", RetentionPermanent},                 // deep disclosure
		{0, "用户是素食主义者", RetentionPermanent},                // core preference
		{0, "Her birthday is March 3", RetentionPermanent}, // important date
		{0, "試験は来週の金曜日", RetentionPermanent},               // important date
		{45, "记住：我不喝咖啡", RetentionPermanent},               // explicit instruction
		{45, "Remember this: I hate cilantro", RetentionPermanent},
		{22, "Be gentle when work comes up", RetentionPermanent}, // DESIGN §5 feelings slot
		{35, "learned to ask before giving advice", RetentionPermanent},
		{3, "likes sci-fi movies", RetentionConditional}, // daily preference
		{12, "上周去了杭州玩", RetentionConditional},            // short-term event
		{14, "ある日少し落ち込んでいた", RetentionConditional},
		{50, "今天天气很好", RetentionEphemeral}, // weather
		{50, "small talk about the weather", RetentionEphemeral},
		{50, "雑談：ラーメンの話", RetentionEphemeral},
	}
	for _, r := range rows {
		if got := ClassifyRetention(r.slot, r.content); got != r.want {
			t.Errorf("%s §8.1: ClassifyRetention(%d, %q) = %s, want %s", seed003, r.slot, r.content, got, r.want)
		}
	}
}

// TestSeed003_MemoryVisibilityAndExpiry: §8.1 <30 fades conditional
// memories, except seed 004's facts (slots 0-9, a new user's name) which
// §3.1's acquaintance remembers from the first day; <20 and 90 days silent
// cleans ephemeral ones.
func TestSeed003_MemoryVisibilityAndExpiry(t *testing.T) {
	day := 24 * time.Hour
	vis := []struct {
		r     Retention
		slot  int
		score float64
		want  bool
	}{
		{RetentionConditional, 12, 29.9, false}, {RetentionConditional, 45, 30, true},
		{RetentionPermanent, 12, 0, true}, {RetentionEphemeral, 50, 5, true},
		{RetentionConditional, 0, 0, true}, {RetentionConditional, 9, 5, true}, {RetentionConditional, 10, 5, false},
	}
	for _, v := range vis {
		if got := MemoryVisible(v.r, v.slot, v.score); got != v.want {
			t.Errorf("%s §8.1: MemoryVisible(%s, slot %d, %v) = %v", seed003, v.r, v.slot, v.score, got)
		}
	}
	exp := []struct {
		r      Retention
		score  float64
		silent time.Duration
		want   bool
	}{
		{RetentionEphemeral, 19.9, 90 * day, true},
		{RetentionEphemeral, 20, 90 * day, false},
		{RetentionEphemeral, 10, 89 * day, false},
		{RetentionConditional, 0, 900 * day, false},
		{RetentionPermanent, 0, 900 * day, false},
	}
	for _, e := range exp {
		if got := MemoryExpired(e.r, e.score, e.silent); got != e.want {
			t.Errorf("%s §8.1: MemoryExpired(%s, %v, %v) = %v", seed003, e.r, e.score, e.silent, got)
		}
	}
}

// TestSeed003_ForgetRequest: §8.1 "用户说'忘掉我说过的XXX'" in three
// languages, and statements about forgetting that are not requests.
func TestSeed003_ForgetRequest(t *testing.T) {
	rows := []struct {
		text   string
		needle string
		all    bool
		ok     bool
	}{
		// zh
		{"忘掉我说过的关于前任的事", "前任", false, true},
		{"请忘记我说过的工作的事情", "工作", false, true},
		{"忘掉我说过的话", "", true, true},
		{"忘掉一切吧", "", true, true},
		{"把我生日的事忘了吧", "我生日", false, true},
		{"你能把我妹妹的事忘掉吗", "我妹妹", false, true},
		{"你能把那件事忘掉吗", "", false, false}, // names nothing to find
		{"忘了它吧", "", false, false},
		{"算了，忘了这件事吧", "", false, false},
		{"忘掉刚才的话", "", false, false},
		{"忘了吧，算了", "", false, false},
		{"忘了我吧", "", true, true},
		{"帮我忘记小明", "小明", false, true},
		{"我忘记带钥匙了", "", false, false},
		{"忘记告诉你了", "", false, false},
		{"忘记密码了怎么办", "", false, false},
		{"你忘了我说过的话吗", "", false, false},
		{"忘掉吧", "", false, false},
		// en
		{"Forget what I said about my ex", "my ex", false, true},
		{"please forget what I told you about work.", "work", false, true},
		{"Forget everything", "", true, true},
		{"can you forget about my sister", "my sister", false, true},
		{"forget my address", "my address", false, true},
		{"never mind, forget it", "", false, false},
		{"forget it, never mind", "", false, false},
		{"Forget it. Never mind.", "", false, false},
		{"forget about it, it's fine", "", false, false},
		{"forget that, whatever", "", false, false},
		{"forget everything, please", "", true, true},
		{"forget what I said about my ex, please", "my ex", false, true},
		{"forget it", "", false, false},
		{"don't forget my birthday", "", false, false},
		{"I forget things easily", "", false, false},
		// ja
		{"元カレのことは忘れて", "元カレ", false, true},
		{"仕事の話は忘れてください", "仕事の話", false, true},
		{"全部忘れて", "", true, true},
		{"何もかも忘れてほしい", "", true, true},
		{"宿題を忘れてた", "", false, false},
		{"忘れないでね", "", false, false},
		{"もういいや、忘れて", "", false, false},
		{"もういいよ、それは忘れて", "", false, false},
		{"今のは忘れて", "", false, false},
		{"もういいよ、元カレのことは忘れて", "元カレ", false, true},
	}
	for _, r := range rows {
		n, a, ok := ForgetRequest(r.text)
		if n != r.needle || a != r.all || ok != r.ok {
			t.Errorf("%s §8.1: ForgetRequest(%q) = (%q, %v, %v), want (%q, %v, %v)", seed003, r.text, n, a, ok, r.needle, r.all, r.ok)
		}
	}
}

// FuzzForgetRequest checks that no input panics and the result is coherent:
// all and a needle never come together, and ok is false when nothing is asked.
func FuzzForgetRequest(f *testing.F) {
	for _, s := range []string{"忘掉我说过的", "forget ", "全部忘れて", "把忘了", "忘れて", "forget what i said about ", "\xff忘掉"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, all, ok := ForgetRequest(s)
		if all && n != "" {
			t.Fatalf("ForgetRequest(%q) = (%q, all)", s, n)
		}
		if !ok && (all || n != "") {
			t.Fatalf("ForgetRequest(%q) not ok but (%q, %v)", s, n, all)
		}
		if ok && !all && n == "" {
			t.Fatalf("ForgetRequest(%q) ok without anything to forget", s)
		}
		if utf8.ValidString(s) && !utf8.ValidString(n) {
			t.Fatalf("needle %q of valid input is invalid UTF-8", n)
		}
	})
}
