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

// TestOfflineSomeoneElsesNewsIsTheirs: good news of someone else's ("my
// sister got promoted", "Sara got promoted!" of a wife she keeps,
// 小芳升职了, ユミが昇進した) is congratulated as theirs, never "You earned
// that" or "恭喜你"; the user's own ("I got promoted!", 小芳说我升职了) stays
// the user's.
func TestOfflineSomeoneElsesNewsIsTheirs(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct {
		lang, text, mem string
		any, none       []string
	}{
		{"en", "my sister got promoted", "", []string{"your sister"}, []string{"you earned", "you've been putting", "your hard work", "congratulations, sam", "you got promoted"}},
		{"en", "Sara got promoted!", "People: Sara (wife)", []string{"Sara"}, []string{"you earned", "you've been putting", "your hard work", "congratulations, sam", "you got promoted"}},
		{"en", "my brother got the job!", "", []string{"your brother"}, []string{"what will you be doing"}},
		{"en", "I got promoted!", "People: Sara (wife)", []string{"you got promoted", "congratulations", "well deserved", "fantastic"}, []string{"good for"}},
		{"en", "Sara said I got promoted", "People: Sara (wife)", []string{"congratulations", "wonderful", "well deserved", "fantastic", "huge"}, []string{"good for sara"}},
		{"zh", "我姐姐升职了", "", []string{"你姐姐"}, []string{"恭喜你", "你的付出", "你的努力", "你应得"}},
		{"zh", "小芳升职了！", "身边的人：小芳（妻子）", []string{"小芳"}, []string{"恭喜你", "你的付出", "你应得", "这么久的努力"}},
		{"zh", "小芳说我升职了", "身边的人：小芳（妻子）", []string{"恭喜", "太棒", "好事", "好的消息", "实至名归"}, []string{"小芳升职"}},
		{"ja", "妹が昇進した", "", []string{"妹さん"}, []string{"あなたがつかんだ", "おめでとう、"}},
		{"ja", "ユミが昇進した！", "身近な人：ユミ（妻）", []string{"ユミ"}, []string{"あなたがつかんだ", "がんばってきたもんね", "おめでとう、"}},
	} {
		for turn := range 4 { // several variants
			h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: turn, User: "Sam", ProactiveQuestion: true}
			if tt.mem != "" {
				h.Memories = []string{tt.mem}
			}
			got := reply(t, o, h).Text
			if !containsAny(got, tt.any) || containsAny(got, tt.none) {
				t.Errorf("%q (turn %d): reply %q; want one of %q, none of %q", tt.text, turn, got, tt.any, tt.none)
			}
		}
	}
}

// TestOfflineTiesNewsToWhatWasTold: what the user says now is tied to
// what they told weeks before: a 15 km run to the half marathon that is
// their goal, a hike up a mountain to their fear of heights, a first bowl
// to the pottery they took up, a high blood sugar to their diabetes; the
// same words with nothing told before tie to nothing.
func TestOfflineTiesNewsToWhatWasTold(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 10, 20, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		lang, text, told, mem string
		any                   []string
	}{
		{"en", "I ran 15km today", "my goal this year is to run a half marathon", "", []string{"half marathon"}},
		{"zh", "我今天跑了15公里", "我今年的目标是跑一个半马", "", []string{"半马"}},
		{"ja", "今日15キロ走った", "今年の目標はハーフマラソンを走ること", "", []string{"ハーフマラソン"}},
		{"en", "we're going hiking up a mountain tomorrow", "", "Afraid of: heights", []string{"afraid of heights"}},
		{"zh", "明天要去爬山", "", "害怕：高", []string{"怕高"}},
		{"ja", "明日山に登るんだ", "", "怖いもの：高いところ", []string{"高いところ"}},
		{"en", "I made my first bowl on the wheel", "I've been getting into pottery lately", "", []string{"pottery"}},
		{"zh", "我做出了第一个碗", "最近迷上了陶艺", "", []string{"陶艺"}},
		{"ja", "初めてお皿を作った", "最近陶芸にハマってる", "", []string{"陶芸"}},
		{"en", "my blood sugar was high today", "I found out I have type 2 diabetes", "", []string{"diabetes"}},
		{"zh", "今天血糖有点高", "体检查出了糖尿病", "", []string{"糖尿病"}},
		{"ja", "今日血糖値が高かった", "健康診断で糖尿病が見つかった", "", []string{"糖尿病"}},
		{"en", "hola! estoy aprendiendo", "I want to learn Spanish this year", "", []string{"Spanish"}},
	} {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 30, Now: now, User: "Sam", ProactiveQuestion: true}
		if tt.mem != "" {
			h.Memories = []string{tt.mem}
		}
		bare := reply(t, o, h).Text
		if tt.told != "" {
			h.Recalled = []bot.Recollection{{Kind: "episode", At: now.AddDate(0, -2, 0), Text: tt.told}}
		}
		got := reply(t, o, h).Text
		if !containsAny(got, tt.any) || !endsAsking(got) {
			t.Errorf("%q after %q%s: reply %q; want %q in it and a question", tt.text, tt.told, tt.mem, got, tt.any)
		}
		if tt.told != "" && containsAny(bare, tt.any) {
			t.Errorf("%q with nothing told: reply %q ties to %q", tt.text, bare, tt.any)
		}
	}
}

// TestOfflineParentingAndWorkScripts: misses read in recall round 3's own
// months-later scripts: a job hunt is no new job (no 恭喜 to
// "我最近在偷偷找新工作"), a fear told "too" is kept without it, and a
// child's birthday party tomorrow is no birthday of the user's.
func TestOfflineParentingAndWorkScripts(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 10, 20, 0, 0, 0, time.UTC)
	for turn := range 4 { // every variant
		got := reply(t, o, bot.Hints{Language: "zh", Text: "我最近在偷偷找新工作", Turn: turn, Now: now, User: "小林"}).Text
		if containsAny(got, []string{"恭喜", "兴奋", "好消息", "太好了", "入职"}) {
			t.Errorf("a job hunt (turn %d): reply %q congratulates", turn, got)
		}
	}
	resp := reply(t, o, bot.Hints{Language: "en", Text: "I'm scared of the dark too, honestly, like Lily", Turn: 3, Now: now})
	if kept, b := remembered(t, resp); len(kept) != 1 || kept[0].Content != "Afraid of: the dark" {
		t.Errorf("fear told with \"too\": remember = %s", b)
	}
	got := reply(t, o, bot.Hints{Language: "en", Text: "Lily is going to a birthday party with lots of snacks tomorrow", Turn: 3, Now: now,
		Memories: []string{"People: Lily (daughter)"}}).Text
	if strings.Contains(got, "your birthday") {
		t.Errorf("a child's birthday party: reply %q", got)
	}
}
