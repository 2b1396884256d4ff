package brain

import (
	"strings"
	"testing"
	"time"

	"hearth/bot"
)

// The recall round's third set of leftovers, as the user reads them.

// TestOfflineSecondRoundAheadIsNoNews: "我三月十二号考研复试" names the day
// of the 考研 second-round interview the user faces, not news of getting
// through: the date is kept and the feeling asked after, never "恭喜…
// 进下一轮" or "下一轮也加油"; getting into it ("我进复试了！") is still news.
func TestOfflineSecondRoundAheadIsNoNews(t *testing.T) {
	o := NewOffline()
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 16, 19, 0, 0, 0, sh)
	for _, tt := range []struct {
		text      string
		any, none []string
	}{
		{"我三月十二号考研复试", []string{"考研复试"}, []string{"恭喜", "晋级", "下一轮", "进下一"}},
		{"3月12号复试，好紧张", []string{"复试"}, []string{"恭喜", "晋级", "下一轮"}},
		{"我进复试了！", []string{"恭喜", "好消息", "太好了"}, nil},
		{"初试过了，进了复试！", []string{"恭喜", "好消息", "太好了"}, nil},
	} {
		got := reply(t, o, bot.Hints{Language: "zh", Text: tt.text, Turn: 3, Now: now, User: "小雨", ProactiveQuestion: true}).Text
		if !containsAny(got, tt.any) || containsAny(got, tt.none) {
			t.Errorf("%q: reply %q; want one of %q, none of %q", tt.text, got, tt.any, tt.none)
		}
	}
}

// containsAny reports whether s holds one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(strings.ToLower(s), strings.ToLower(w)) {
			return true
		}
	}
	return false
}
