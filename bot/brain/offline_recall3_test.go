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

// TestOfflineQuoteIsDatedByItsAge: something the user said weeks or
// months ago, still in the conversation's history, is quoted back with a
// time word of its age ("last month", "about three weeks ago", 上个月,
// 3週間ほど前), never "earlier"/"之前"/"前に" as if it were just said; said
// today, it is today's.
func TestOfflineQuoteIsDatedByItsAge(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 20, 20, 0, 0, 0, time.UTC)
	told := map[string]string{"en": "I found out I have type 2 diabetes", "zh": "体检查出了糖尿病", "ja": "健康診断で糖尿病が見つかった"}
	asked := map[string]string{"en": "do you remember what I found out about my health?", "zh": "你还记得我体检查出什么吗？", "ja": "健康診断で何が見つかったか覚えてる？"}
	for _, tt := range []struct {
		lang string
		ago  time.Duration
		any  []string
	}{
		{"en", 24 * 24 * time.Hour, []string{"about three weeks ago"}},
		{"en", 45 * 24 * time.Hour, []string{"in February", "last month"}},
		{"en", 2 * time.Hour, []string{"earlier today"}},
		{"zh", 24 * 24 * time.Hour, []string{"大约三周前"}},
		{"zh", 45 * 24 * time.Hour, []string{"上个月"}},
		{"ja", 24 * 24 * time.Hour, []string{"3週間ほど前"}},
		{"ja", 45 * 24 * time.Hour, []string{"先月"}},
	} {
		at := now.Add(-tt.ago)
		h := bot.Hints{Language: tt.lang, Text: asked[tt.lang], Turn: 9, Now: now, Recent: []bot.ChatMessage{
			{Role: "user", Content: told[tt.lang], At: at}, {Role: "assistant", Content: "…", At: at},
			{Role: "user", Content: "hi", At: now.Add(-time.Minute)}, {Role: "assistant", Content: "hello", At: now.Add(-time.Minute)},
		}}
		got := reply(t, o, h).Text
		if !containsAny(got, tt.any) || !strings.Contains(got, told[tt.lang]) {
			t.Errorf("%s, said %v ago: reply %q; want the quote dated %q", tt.lang, tt.ago, got, tt.any)
		}
	}
}

// TestOfflineUndatedQuoteIsNoEarlier: a quote whose day is unknown is
// said to be from "before", never "earlier", which would say today.
func TestOfflineUndatedQuoteIsNoEarlier(t *testing.T) {
	o := NewOffline()
	for turn := range 6 { // every variant of remember.said
		h := bot.Hints{Language: "en", Text: "do you remember what I found out about my health?", Turn: turn, Recent: []bot.ChatMessage{
			{Role: "user", Content: "I found out I have type 2 diabetes"}, {Role: "assistant", Content: "…"}}}
		got := reply(t, o, h).Text
		if strings.Contains(strings.ToLower(got), "earlier") || !strings.Contains(got, "diabetes") {
			t.Errorf("turn %d: reply %q; want the quote, not from \"earlier\"", turn, got)
		}
	}
}

// TestOfflineCheckInDatesTheMatter: a check-in about a matter shared
// twelve days ago says when by its age ("about two weeks ago", 大约两周
// 前), never "the other day" or 前几天; without a date it names no day.
func TestOfflineCheckInDatesTheMatter(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	told := map[string]string{"en": "my grandpa passed away last night", "zh": "我外婆昨晚去世了"}
	want := map[string]string{"en": "about two weeks ago", "zh": "大约两周前"}
	for _, lang := range []string{"en", "zh"} {
		for _, at := range []time.Time{now.AddDate(0, 0, -12), {}} {
			dated := 0
			for _, user := range []string{"Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"} {
				h := bot.Hints{Language: lang, User: user, Relationship: "friend", Silence: 30 * time.Hour, Now: now,
					Recent: []bot.ChatMessage{{Role: "user", Content: told[lang], At: at}}}
				_, msg := checkIn(t, o, h)
				if containsAny(msg, []string{"the other day", "前几天", "earlier", "{"}) {
					t.Errorf("%s, said at %v: check-in %q", lang, at, msg)
				}
				if strings.Contains(msg, want[lang]) {
					dated++
				}
			}
			if at.IsZero() != (dated == 0) {
				t.Errorf("%s, said at %v: %d check-ins said %q", lang, at, dated, want[lang])
			}
		}
	}
}
