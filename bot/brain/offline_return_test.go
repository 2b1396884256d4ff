package brain

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/heart"
)

// checkIn asks the offline brain's life loop and returns what it would send.
func checkIn(t *testing.T, o *Offline, h bot.Hints) (bool, string) {
	t.Helper()
	resp, err := o.Complete(context.Background(), bot.Request{Kind: bot.KindLifeLoop, JSON: true, Hints: h})
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Speak   bool   `json:"speak"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(resp.Text), &v); err != nil {
		t.Fatalf("lifeloop answer %q: %v", resp.Text, err)
	}
	return v.Speak, v.Message
}

// TestOfflineCheckInAsksAboutAFollowUp (issue 11 item 5): a follow-up
// whose day has passed is what the check-in asks after, in the persona's
// language, owned by the user ("your exam").
func TestOfflineCheckInAsksAboutAFollowUp(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ lang, about, want string }{
		{"en", "exam", "your exam"},
		{"en", "my job interview", "your job interview"},
		{"zh", "考试", "考试"},
		{"ja", "試験", "試験"},
	} {
		h := bot.Hints{Language: tt.lang, User: "Ann", Relationship: "friend", Silence: 30 * time.Hour, Now: now,
			FollowUps: []bot.FollowUp{{ID: 1, About: tt.about, Due: "2026-03-13"}}}
		speak, msg := checkIn(t, o, h)
		if !speak || !strings.Contains(msg, tt.want) {
			t.Errorf("%s: speak %v %q, want it to ask about %q", tt.lang, speak, msg, tt.want)
		}
	}
}

// TestSeed003_OfflineReturnCheckIn: seed 003 §7.1's third greeting from
// the offline brain: the heavy topic a user left before going quiet is
// named (by its situation when one matches, else in their own words), and
// a stranger is never asked about it.
func TestSeed003_OfflineReturnCheckIn(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	h := bot.Hints{Language: "zh", User: "小林", Relationship: "friend", Silence: 12 * 24 * time.Hour, Now: now,
		Heavy: "我和女朋友分手了", Greeting: "好久不见！你之前提到的“我和女朋友分手了”那件事，现在怎么样了？"}
	if speak, msg := checkIn(t, o, h); !speak || !strings.Contains(msg, "分手") {
		t.Errorf("deep situation: %v %q", speak, msg)
	}
	h.Heavy = "公司的项目黄了，我被调岗到了外地"
	h.Greeting = "好久不见！你之前提到的“公司的项目黄了”那件事，现在怎么样了？"
	if speak, msg := checkIn(t, o, h); !speak || msg != h.Greeting {
		t.Errorf("own words: %v %q", speak, msg)
	}
	h.Relationship, h.Greeting = "stranger", "你好呀，有什么我能帮到你的吗？"
	if _, msg := checkIn(t, o, h); strings.Contains(msg, "项目") {
		t.Errorf("a stranger was asked about a private matter: %q", msg)
	}
}

// TestSeed003_OfflineFirstReplyAfterReturn: the first reply to a user back
// after a while opens with the §7.1 greeting (Hints.Greeting) and asks
// nothing else; hard news is answered instead.
func TestSeed003_OfflineFirstReplyAfterReturn(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	greeting := "Long time no see! Last time you told me about “we broke up”. How are things now?"
	h := bot.Hints{Language: "en", User: "Ann", Text: "hi, it's me again", Relationship: "friend", Now: now,
		MaxLength: 200, ProactiveQuestion: true, Greeting: greeting}
	got := reply(t, o, h).Text
	if !strings.HasPrefix(got, greeting) || strings.Count(got, "?") != 1 {
		t.Errorf("return reply %q: want the greeting and no other question", got)
	}
	h.Text, h.Felt, h.Emotion = "my dad is in hospital, I'm so scared", "anxious", "anxious"
	if got := reply(t, o, h).Text; strings.Contains(got, "Long time no see") {
		t.Errorf("hard news met with a greeting: %q", got)
	}
}

// TestOfflineRecallsTheMomentWhenNoFactFits: "我生日是哪天来着？" has no
// stored fact to answer from; the recall stage's most relevant episode is
// quoted with when it was said (DESIGN §12), not "you never told me".
func TestOfflineRecallsTheMomentWhenNoFactFits(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)
	h := bot.Hints{Language: "zh", Now: now, Text: "我生日是哪天来着？", Recalled: []bot.Recollection{
		{Kind: "episode", At: now.AddDate(0, 0, -2), Text: "下周五是我生日"},
	}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "下周五是我生日") {
		t.Errorf("reply %q, want the recalled words", got)
	}
	h.Recalled = nil
	if got := reply(t, o, h).Text; strings.Contains(got, "下周五") {
		t.Errorf("without a recollection: %q", got)
	}
}

// TestOfflineQuotesTheRecollectionTheQuestionIsAbout: among recollections
// the one sharing a word with the question is quoted ("面接っていつだっけ？"
// → the interview, not the cat recalled for the message before).
func TestOfflineQuotesTheRecollectionTheQuestionIsAbout(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)
	h := bot.Hints{Language: "ja", Now: now, Text: "面接っていつだっけ？", Recalled: []bot.Recollection{
		{Kind: "episode", At: now.Add(-time.Hour), Text: "うちの猫はミソっていうの"},
		{Kind: "episode", At: now.Add(-time.Hour), Text: "明日は面接がある、緊張する"},
	}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "面接がある") {
		t.Errorf("reply %q, want the interview recalled", got)
	}
}

// TestOfflineCheckInKnowsWhatToAskAfter: a check-in never asks after a pet
// the user lost ("How's Rex doing these days?" after "my dog Rex died"),
// nor after the weather of a passing remark; a matter they shared is named
// in a sentence that reads ("since losing your job").
func TestOfflineCheckInKnowsWhatToAskAfter(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		said, memory, word string
		named              bool
	}{
		{"my dog Rex died this morning", "Pets: Rex (dog); Miso (cat)", "Rex", false},
		{"it's raining again", "", "weather", false},
		{"I lost my job today", "", "losing your job", true},
	} {
		h := bot.Hints{Language: "en", User: "Ann", Relationship: "friend", Silence: 3 * 24 * time.Hour,
			Recent: []bot.ChatMessage{{Role: "user", Content: tt.said}, {Role: "assistant", Content: "I see."}}}
		if tt.memory != "" {
			h.Memories = []string{tt.memory}
		}
		for d := range 7 {
			h.Now = now.AddDate(0, 0, d)
			if _, msg := checkIn(t, o, h); strings.Contains(msg, tt.word) != tt.named {
				t.Errorf("after %q, day %d: check-in %q; want %q named: %v", tt.said, d, msg, tt.word, tt.named)
			}
		}
	}
}

// TestOfflineAFactIsNoHeavyTopic: a fact the user states ("my sister Mia
// called") is worth keeping, not the heavy topic a return greeting asks
// after (seed 003 §7.1 wants a deep one): its salience stays below
// heart.ReturnTopicSalience, and a fact said again adds none.
func TestOfflineAFactIsNoHeavyTopic(t *testing.T) {
	o := NewOffline()
	h := bot.Hints{Language: "en", User: "Ann", Text: "my sister Mia called"}
	salience := func(h bot.Hints) float64 {
		var tr struct {
			Salience float64 `json:"salience"`
		}
		if err := json.Unmarshal([]byte(reply(t, o, h).Trailer), &tr); err != nil {
			t.Fatal(err)
		}
		return tr.Salience
	}
	first := salience(h)
	if first >= heart.ReturnTopicSalience || first < baseSalience {
		t.Errorf("a new fact: salience %.2f, want between %.2f and %.2f", first, baseSalience, heart.ReturnTopicSalience)
	}
	h.Recent = []bot.ChatMessage{{Role: "user", Content: "my sister Mia called"}, {Role: "assistant", Content: "Tell me about Mia."}}
	if again := salience(h); again >= first {
		t.Errorf("the same fact again: salience %.2f, want less than %.2f", again, first)
	}
}

// TestOfflineCheckInNeverWakesSomeone: the offline brain does not speak
// first at night or at dawn in the persona's zone, not even to ask how an
// exam went; the same check-in is sent once the day has begun.
func TestOfflineCheckInNeverWakesSomeone(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)
	for _, lang := range languages() {
		h := bot.Hints{Language: lang, User: names[lang][1], Relationship: "friend", Silence: 30 * time.Hour,
			FollowUps: []bot.FollowUp{{ID: 1, About: map[string]string{langEN: "exam", langZH: "考试", langJA: "試験"}[lang], Due: "2026-03-13"}}}
		for _, at := range []time.Duration{1 * time.Hour, 5*time.Hour + 30*time.Minute, 7*time.Hour + 59*time.Minute, 22 * time.Hour, 23*time.Hour + 30*time.Minute} {
			h.Now = day.Add(at)
			if speak, msg := checkIn(t, o, h); speak || msg != "" {
				t.Errorf("%s at %s: she spoke first: %q", lang, h.Now.Format("15:04"), msg)
			}
		}
		for _, at := range []time.Duration{8 * time.Hour, 13 * time.Hour, 21*time.Hour + 30*time.Minute} {
			h.Now = day.Add(at)
			if speak, _ := checkIn(t, o, h); !speak {
				t.Errorf("%s at %s: silent in the day", lang, h.Now.Format("15:04"))
			}
		}
	}
}

// TestOfflineCheckInNeverRepeatsTheLastOne: check-ins left unanswered come
// days apart (the gate's backoff: 2, 4, 7 days); whatever the gap, the
// next one is none of the two lines sent last, so weeks of them are not
// two lines in turn.
func TestOfflineCheckInNeverRepeatsTheLastOne(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	for _, lang := range languages() {
		for _, state := range []string{"stranger", "acquaintance", "friend"} {
			h := bot.Hints{Language: lang, User: names[lang][1], Relationship: state, Silence: 3 * 24 * time.Hour, CheckedIn: true}
			at := day
			seen := map[string]bool{}
			for _, gap := range []int{0, 2, 2, 4, 2, 2, 7, 4} {
				at = at.AddDate(0, 0, gap)
				h.Now = at
				speak, msg := checkIn(t, o, h)
				if !speak {
					t.Fatalf("%s %s %s: silent", lang, state, at.Format(time.DateOnly))
				}
				if n := len(h.CheckIns); n > 0 && slices.Contains(h.CheckIns[max(n-2, 0):], msg) {
					t.Errorf("%s %s %s: %q again, after %q", lang, state, at.Format(time.DateOnly), msg, h.CheckIns)
				}
				seen[msg] = true
				if h.CheckIns = append(h.CheckIns, msg); len(h.CheckIns) > 3 {
					h.CheckIns = h.CheckIns[1:]
				}
			}
			if len(seen) < 3 {
				t.Errorf("%s %s: eight check-ins in four weeks, %d lines: %v", lang, state, len(seen), seen)
			}
		}
	}
}

// TestOfflineCheckInAfterALossStaysGentle: days after a user told of a
// death, a check-in asks after it once (not a stranger); after that, or
// from a stranger, it is a quiet word, even when they felt better that
// evening. It never turns the loss into a
// light theme ("your friends" after a friend died), never asks after their
// pet or city, and never hopes they are "doing well".
func TestOfflineCheckInAfterALossStaysGentle(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 5, 19, 0, 0, 0, time.UTC)
	said := map[string]string{
		langEN: "my friend and neighbour Frank died yesterday",
		langZH: "我的好朋友兼邻居老王昨天去世了",
		langJA: "親友で隣の田中さんが昨日亡くなった",
	}
	better := map[string]string{
		langEN: "thank you, I feel much better now",
		langZH: "谢谢，说说话好多了",
		langJA: "ありがとう、話したら楽になった",
	}
	light := regexp.MustCompile(`(?i)friends|doing well|kind to you|going all right|Biscuit|Duluth|朋友|过得不错|一切都好|顺利|友だち|友達|元気にしてる|おだやか`)
	for _, lang := range languages() {
		for _, state := range []string{"stranger", "acquaintance", "friend", "close"} {
			h := bot.Hints{Language: lang, User: names[lang][1], Relationship: state, Silence: 2 * 24 * time.Hour,
				Memories: []string{map[string]string{langEN: "Pets: Biscuit (dog)", langZH: "宠物：Biscuit（狗）", langJA: "ペット：Biscuit（犬）"}[lang],
					map[string]string{langEN: "Lives in Duluth", langZH: "住在Duluth", langJA: "Duluthに住んでいる"}[lang]},
				Recent: []bot.ChatMessage{
					{Role: "user", Content: said[lang], At: day.AddDate(0, 0, -2)},
					{Role: "assistant", Content: "…"},
					// A better evening is no grief over.
					{Role: "user", Content: better[lang], At: day.AddDate(0, 0, -2)},
				}}
			for d, checkedIn := range []bool{false, true, true, true, true} {
				h.Now, h.CheckedIn = day.AddDate(0, 0, 2*d), checkedIn
				speak, msg := checkIn(t, o, h)
				if !speak {
					t.Fatalf("%s %s day %d: silent", lang, state, d)
				}
				if light.MatchString(msg) {
					t.Errorf("%s %s day %d (asked before: %v): %q after a death", lang, state, d, checkedIn, msg)
				}
				h.CheckIns = append(h.CheckIns, msg)
			}
		}
	}
}

// TestOfflineCheckInIsGladOfGoodNews: the day after "I passed!!! going
// out with friends to celebrate", a friend or acquaintance is asked about
// the good news, named, not about "your friends"; once asked, it is not
// brought up again.
func TestOfflineCheckInIsGladOfGoodNews(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 5, 19, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ lang, said, thing string }{
		{langEN, "I passed!!! going out with friends to celebrate", "passing"},
		{langEN, "I got the job!! I start monday", "the new job"},
		{langZH, "成绩出来了，我过了！！晚上和朋友去吃火锅", "通过"},
		{langZH, "我拿到offer了！", "拿到新工作"},
		{langJA, "合格した！！友達とお祝いする", "合格"},
		{langJA, "内定もらった！", "新しい仕事"},
	} {
		for _, state := range []string{"acquaintance", "friend", "close"} {
			h := bot.Hints{Language: tt.lang, User: names[tt.lang][1], Relationship: state, Silence: 30 * time.Hour, Now: day,
				Recent: []bot.ChatMessage{{Role: "user", Content: tt.said, At: day.AddDate(0, 0, -1)}}}
			speak, msg := checkIn(t, o, h)
			if !speak || !strings.Contains(msg, tt.thing) || strings.Contains(msg, "friends") {
				t.Errorf("%s after %q: %v %q; want %q named", state, tt.said, speak, msg, tt.thing)
			}
			h.CheckedIn, h.Now, h.CheckIns = true, day.AddDate(0, 0, 2), []string{msg}
			if _, again := checkIn(t, o, h); strings.Contains(again, tt.thing) {
				t.Errorf("%s after %q, asked again: %q", state, tt.said, again)
			}
		}
	}
}

// TestOfflineJapaneseCheckInSaysNoGoodAfternoonAtEight: she writes first
// from eight in the morning to ten at night, so a Japanese check-in does
// not open with こんにちは, which is wrong at either end of that day.
func TestOfflineJapaneseCheckInSaysNoGoodAfternoonAtEight(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)
	recents := [][]bot.ChatMessage{nil,
		{{Role: "user", Content: "仕事がきつい"}},
		{{Role: "user", Content: "隣の田中さんが亡くなりました"}},
		{{Role: "user", Content: "合格した！"}},
	}
	for _, state := range []string{"stranger", "acquaintance", "friend"} {
		for _, recent := range recents {
			for d := range 4 {
				for _, at := range []time.Duration{8*time.Hour + 30*time.Minute, 20*time.Hour + 30*time.Minute} {
					h := bot.Hints{Language: langJA, User: "さくら", Relationship: state, Silence: 30 * time.Hour,
						Now: day.AddDate(0, 0, d).Add(at), Recent: recent, CheckedIn: d%2 == 1}
					if _, msg := checkIn(t, o, h); strings.Contains(msg, "こんにちは") {
						t.Errorf("%s at %s: %q", state, h.Now.Format("15:04"), msg)
					}
				}
			}
		}
	}
}

// TestOfflineCheckInLetsBeWhatTheyWouldNotTalkAbout: "my girlfriend and I
// broke up" and then "I don't want to talk about it anymore tonight": the
// next days' check-ins do not name the breakup nor ask anything; they are
// a quiet word.
func TestOfflineCheckInLetsBeWhatTheyWouldNotTalkAbout(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 5, 19, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ lang, hard, hush string }{
		{langEN, "my girlfriend and I broke up", "I don't want to talk about it anymore tonight"},
		{langZH, "我和女朋友分手了", "我不想再提了"},
		{langJA, "彼女と別れた", "今はその話はやめよう"},
	} {
		thing := o.loaded().sits[slicesIndex(o.loaded().sits, "breakup")].Thing[tt.lang]
		for _, state := range []string{"acquaintance", "friend"} {
			h := bot.Hints{Language: tt.lang, User: names[tt.lang][1], Relationship: state, Silence: 30 * time.Hour, Now: day,
				Recent: []bot.ChatMessage{{Role: "user", Content: tt.hard, At: day.AddDate(0, 0, -1)}}}
			if _, msg := checkIn(t, o, h); !strings.Contains(msg, thing) {
				t.Fatalf("%s %s: without the hush, %q does not name %q; the test checks nothing", tt.lang, state, msg, thing)
			}
			h.Recent = append(h.Recent, bot.ChatMessage{Role: "user", Content: tt.hush, At: day.AddDate(0, 0, -1)})
			for d := range 3 {
				h.Now = day.AddDate(0, 0, d)
				if _, msg := checkIn(t, o, h); strings.Contains(msg, thing) || strings.Contains(msg, "?") || strings.Contains(msg, "？") {
					t.Errorf("%s %s day %d: %q after %q", tt.lang, state, d, msg, tt.hush)
				}
			}
		}
	}
}

// TestOfflineCheckInWishesWellTheDayBefore: the day before the exam she
// was told of, a check-in names it and wishes them well, whatever their
// relationship and in grief too; without it, nothing of the exam is said.
func TestOfflineCheckInWishesWellTheDayBefore(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 4, 19, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ lang, about, want string }{
		{langEN, "exam", "your exam"},
		{langZH, "考试", "考试"},
		{langJA, "試験", "試験"},
	} {
		for _, state := range []string{"stranger", "acquaintance", "friend"} {
			h := bot.Hints{Language: tt.lang, User: names[tt.lang][1], Relationship: state, Silence: 30 * time.Hour, Now: day,
				Ahead: []bot.FollowUp{{ID: 1, About: tt.about, Due: "2026-03-05"}}}
			if speak, msg := checkIn(t, o, h); !speak || !strings.Contains(msg, tt.want) {
				t.Errorf("%s %s, the day before: %v %q", tt.lang, state, speak, msg)
			}
			// In grief too, once the loss was asked after: the day before
			// is a day before.
			grief := h
			grief.CheckedIn = true
			grief.Recent = []bot.ChatMessage{{Role: "user", Content: map[string]string{langEN: "my grandma died last week", langZH: "我奶奶上周去世了", langJA: "先週おばあちゃんが亡くなった"}[tt.lang]}}
			if speak, msg := checkIn(t, o, grief); !speak || !strings.Contains(msg, tt.want) {
				t.Errorf("%s %s, the day before, after a death: %v %q", tt.lang, state, speak, msg)
			}
			h.Ahead = nil
			if _, msg := checkIn(t, o, h); strings.Contains(msg, tt.want) {
				t.Errorf("%s %s, no exam ahead: %q", tt.lang, state, msg)
			}
		}
	}
}

// TestOfflineCheckInAfterDarkWordsStaysGentle: once an operator has
// cleared Watch, the first check-in a week after "I don't want to be alive
// anymore" asks nothing about work or the cat; it is a quiet word.
func TestOfflineCheckInAfterDarkWordsStaysGentle(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 9, 19, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ lang, before, dark, pets string }{
		{langEN, "I work at the warehouse and my cat Tom keeps me sane", "I don't want to be alive anymore", "Pets: Tom (cat)"},
		{langZH, "我在仓库上班，家里的猫叫小黑", "我不想活了", "宠物：小黑（猫）"},
		{langJA, "倉庫で働いてる。猫のクロがいる", "もう生きていたくない", "ペット：クロ（猫）"},
	} {
		for _, state := range []string{"acquaintance", "friend", "close"} {
			h := bot.Hints{Language: tt.lang, User: names[tt.lang][1], Relationship: state, Silence: 5 * 24 * time.Hour, Now: day,
				Memories: []string{tt.pets}, Recent: []bot.ChatMessage{
					{Role: "user", Content: tt.before, At: day.AddDate(0, 0, -7)},
					{Role: "user", Content: tt.dark, At: day.AddDate(0, 0, -6)},
				}}
			for d := range 3 {
				h.Now = day.AddDate(0, 0, 2*d)
				_, msg := checkIn(t, o, h)
				if strings.ContainsAny(msg, "?？") || regexp.MustCompile(`(?i)work|Tom|工作|小黑|仕事|クロ|ペット`).MatchString(msg) {
					t.Errorf("%s %s day %d: %q a week after %q", tt.lang, state, d, msg, tt.dark)
				}
				h.CheckIns = append(h.CheckIns, msg)
			}
		}
	}
}

// TestOfflineCheckInAsksAfterALossOnce: a widower who answers every few
// days is asked after his loss once; the check-ins after his next replies
// are a quiet word, not the same question again.
func TestOfflineCheckInAsksAfterALossOnce(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 5, 19, 0, 0, 0, time.UTC)
	said := map[string]string{langEN: "my friend and neighbour Frank died yesterday", langZH: "我的好朋友老李昨天去世了", langJA: "隣の田中さんが昨日亡くなった"}
	later := map[string]string{langEN: "Biscuit and I walked by the lake", langZH: "早上带豆豆去公园走了走", langJA: "朝、犬と散歩した"}
	for _, lang := range languages() {
		thing := o.loaded().sits[slicesIndex(o.loaded().sits, "loss")].Thing[lang]
		for _, state := range []string{"acquaintance", "friend"} {
			h := bot.Hints{Language: lang, User: names[lang][1], Relationship: state, Silence: 30 * time.Hour, Now: day,
				Recent: []bot.ChatMessage{{Role: "user", Content: said[lang], At: day.AddDate(0, 0, -1)}}}
			asks := 0
			for d := range 4 {
				// He answered the last check-in: nothing sent since he wrote.
				h.Now, h.CheckedIn = day.AddDate(0, 0, 3*d), false
				h.Recent = append(h.Recent, bot.ChatMessage{Role: "user", Content: later[lang], At: h.Now.Add(-30 * time.Hour)})
				_, msg := checkIn(t, o, h)
				if strings.Contains(msg, thing) {
					asks++
				}
				h.CheckIns = append(h.CheckIns, msg)
			}
			if asks != 1 {
				t.Errorf("%s %s: asked after %q %d times in %q", lang, state, thing, asks, h.CheckIns)
			}
		}
	}
}

// TestOfflineCheckInIsNotGladOfSomeoneElsesNews: "my grandson got into
// college!" is his grandson's news; a check-in does not ask him about
// "passing" as his own.
func TestOfflineCheckInIsNotGladOfSomeoneElsesNews(t *testing.T) {
	o := NewOffline()
	day := time.Date(2026, 3, 5, 19, 0, 0, 0, time.UTC)
	for _, state := range []string{"acquaintance", "friend"} {
		h := bot.Hints{Language: langEN, User: "Walt", Relationship: state, Silence: 30 * time.Hour, Now: day,
			Recent: []bot.ChatMessage{{Role: "user", Content: "my grandson got into college!", At: day.AddDate(0, 0, -1)}}}
		if _, msg := checkIn(t, o, h); strings.Contains(msg, "passing") {
			t.Errorf("%s: %q", state, msg)
		}
	}
}
