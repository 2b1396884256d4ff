package brain

import (
	"strings"
	"testing"
	"time"

	"hearth/bot"
)

// misreadNow is an evening in the persona's zone (UTC in the tests), when
// these everyday lines were written in lived runs.
var misreadNow = time.Date(2026, 3, 4, 20, 30, 0, 0, time.UTC)

// misreadCase is one everyday line: the situation that should lead its
// reply, and words the reply must not say (the misreading heard).
type misreadCase struct {
	lang, text, sit string
	not             []string
}

// checkMisreads replies to each case as a friend would be answered and
// checks its lead and wording.
func checkMisreads(t *testing.T, cases []misreadCase) {
	t.Helper()
	o := NewOffline()
	o.loaded()
	for _, tt := range cases {
		h := bot.Hints{Language: tt.lang, User: "Walt", Text: tt.text, Turn: 9, Now: misreadNow, Relationship: "friend", MaxLength: 300, ProactiveQuestion: true}
		lead := o.view(h).lead()
		got := reply(t, o, h).Text
		if name := leadName(lead); name != tt.sit {
			t.Errorf("%s %q: read as %s, want %s (reply %q)", tt.lang, tt.text, name, tt.sit, got)
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("%s %q: reply %q says %q", tt.lang, tt.text, got, n)
			}
		}
	}
}

// leadName is the lead situation's name, "none" without one.
func leadName(s *situation) string {
	if s == nil {
		return "none"
	}
	return s.Name
}

// TestOfflineTheDaughtersBreakupIsHers: 朵朵说她男朋友跟她分手了, told by the
// parent, got "和你男朋友分开": someone else's news told with "X said" is X's.
func TestOfflineTheDaughtersBreakupIsHers(t *testing.T) {
	checkMisreads(t, []misreadCase{
		{"zh", "朵朵说她男朋友跟她分手了", "their_breakup", []string{"你男朋友", "分开", "最近还好吗"}},
		{"zh", "我女儿跟她男朋友分手了", "their_breakup", []string{"你男朋友"}},
		{"en", "My daughter said her boyfriend broke up with her", "their_breakup", []string{"your daughter changes", "Losing your"}},
		{"en", "my son split up with his girlfriend", "their_breakup", []string{"Losing your"}},
		{"en", "my granddaughter broke up with Liam", "their_breakup", []string{"Losing your"}},
		{"ja", "娘が彼氏と別れたって言ってました", "their_breakup", []string{"娘さんとの別れ"}},
		{"en", "my daughter said she's getting divorced", "their_breakup", []string{"Losing your"}},
		{"zh", "我女儿说她离婚了", "their_breakup", []string{"你一定很难受"}},
		{"ja", "息子が離婚しました", "their_breakup", []string{"息子さんとの別れ"}},
		{"en", "my husband said he wants a divorce", "breakup", nil},
		{"zh", "我离婚了", "breakup", nil},
		{"en", "my boyfriend broke up with me", "breakup", nil},
		{"en", "my friend Tom broke up with me", "breakup", nil},
		{"zh", "我男朋友跟我分手了", "breakup", nil},
	})
}

// TestOfflineTheDaughtersBreakupIsNoAskAfter: with 朵朵 known as the
// daughter, her breakup got "朵朵最近还好吗？", asked as if nothing was said.
func TestOfflineTheDaughtersBreakupIsNoAskAfter(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct{ lang, mem, text, not string }{
		{"zh", "身边的人：朵朵（女儿）", "朵朵说她男朋友跟她分手了", "朵朵最近还好吗"},
		{"en", "People: Lily (daughter)", "Lily said her boyfriend broke up with her", "How is Lily these days"},
	} {
		h := bot.Hints{Language: tt.lang, User: "Walt", Text: tt.text, Turn: 9, Now: misreadNow, Relationship: "friend", MaxLength: 300, Memories: []string{tt.mem}}
		if got := reply(t, o, h).Text; strings.Contains(got, tt.not) {
			t.Errorf("%s %q: reply %q", tt.lang, tt.text, got)
		}
	}
}

// TestOfflineAnExamGoneBadlyIsNoRelief: 考完了，感觉挂了 got "搞定！一定松了口
// 气吧。" and "How did it go?" right after being told how.
func TestOfflineAnExamGoneBadlyIsNoRelief(t *testing.T) {
	checkMisreads(t, []misreadCase{
		{"zh", "考完了，感觉挂了", "exam_went_badly", []string{"松了口气", "搞定", "发挥得如何", "怎么样"}},
		{"en", "exam done. pretty sure i failed", "exam_went_badly", []string{"must feel good", "How did it go"}},
		{"ja", "試験終わった…たぶん落ちた", "exam_went_badly", []string{"ほっとした", "どうだった", "またなの"}},
		{"zh", "考完了！", "finished", nil},
	})
}

// TestOfflineBlossomsAreTheSeason: 桜が咲き始めました got "手をかけた庭が応
// えてくれる": blossoms seen are spring, not the user's garden.
func TestOfflineBlossomsAreTheSeason(t *testing.T) {
	checkMisreads(t, []misreadCase{
		{"ja", "桜が咲き始めました", "blossom_season", []string{"庭"}},
		{"en", "the cherry trees are blooming", "blossom_season", []string{"care, paying off"}},
		{"zh", "樱花开了", "blossom_season", []string{"园子"}},
		{"en", "my roses bloomed", "garden", nil},
	})
}

// TestOfflinePoliteAchesAreAches: 膝が少し痛みます was no ache.
func TestOfflinePoliteAchesAreAches(t *testing.T) {
	checkMisreads(t, []misreadCase{
		{"ja", "膝が少し痛みます", "ache", nil},
		{"ja", "腰が痛みます", "ache", nil},
		{"ja", "頭が痛いです", "ache", nil},
		{"en", "my knee's been playing up", "ache", nil},
		{"en", "my back's been playing up again", "ache", nil},
		{"en", "the car has been playing up", "none", nil},
	})
}

// TestOfflineSortingHerThingsIsTender: a widower "sorted through her
// things" and heard "Go on, I'm here.": heavy, tender work.
func TestOfflineSortingHerThingsIsTender(t *testing.T) {
	checkMisreads(t, []misreadCase{
		{"en", "I sorted through her things today", "sorting_her_things", []string{"Go on"}},
		{"zh", "今天整理了她的遗物", "sorting_her_things", []string{"我在听"}},
		{"ja", "妻の遺品を整理しました", "sorting_her_things", nil},
		{"ja", "少しずつ片付けています", "sorting_things", nil},
	})
}

// TestOfflineASmallBeautyIsMetWarmly: "the sky was beautiful tonight" was
// asked "How does it feel?".
func TestOfflineASmallBeautyIsMetWarmly(t *testing.T) {
	checkMisreads(t, []misreadCase{
		{"en", "the sky was beautiful tonight", "small_beauty", []string{"How does it feel"}},
		{"zh", "今晚的天空好美", "small_beauty", []string{"什么感觉"}},
		{"ja", "今日は夕焼けがきれいでした", "small_beauty", []string{"どんな気持ち"}},
	})
}

// TestOfflineAnAnecdoteAboutStanIsNoAskAfter: "he cheats at gin rummy but
// I let him", after talk of a friend Stan, got "How is Stan these days?"
// or "Stan sounds important to you.": a small story about him wants a
// remark about him.
func TestOfflineAnAnecdoteAboutStanIsNoAskAfter(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct{ lang, told, mem, text, name string }{
		{"en", "My friend Stan came over for cards today.", "People: Stan (friend)", "he cheats at gin rummy but I let him", "Stan"},
		{"en", "My friend Stan came over for cards today.", "People: Stan (friend)", "Stan cheats at gin rummy but I let him", "Stan"},
		{"zh", "我朋友老王今天来打牌了", "身边的人：老王（朋友）", "他打牌老耍赖，我就让着他", "老王"},
		{"ja", "友達のケンさんがトランプしに来ました", "身近な人：ケン（友だち）", "彼はいつもずるをするけど、許してあげてます", "ケン"},
	} {
		h := bot.Hints{Language: tt.lang, User: "Walt", Text: tt.text, Turn: 9, Now: misreadNow, Relationship: "friend", MaxLength: 300,
			Memories: []string{tt.mem}, Recent: []bot.ChatMessage{{Role: "user", Content: tt.told, At: misreadNow.Add(-time.Hour)}, {Role: "assistant", Content: "Mm.", At: misreadNow.Add(-time.Hour)}}}
		got := reply(t, o, h).Text
		k := o.loaded()
		for _, key := range []string{"reflect.person"} {
			for _, l := range k.book[key][tt.lang] {
				if strings.Contains(got, strings.ReplaceAll(l, "{person_name}", tt.name)) {
					t.Errorf("%s %q: reply %q asks after %s", tt.lang, tt.text, got, tt.name)
				}
			}
		}
	}
}

// TestOfflineSomeoneInAFilmIsNoAcquaintance: "a man named Otto in the
// film" and "this guy Tom Hanks played him" were kept as people the user
// knows.
func TestOfflineSomeoneInAFilmIsNoAcquaintance(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct{ lang, text, name string }{
		{"en", "watched a film about a man named Otto in the film", "Otto"},
		{"en", "this guy Tom Hanks is in the movie", "Tom"},
		{"en", "there was a lady named Agatha in the book I'm reading", "Agatha"},
		{"zh", "电影里有一个叫老王的人", "老王"},
		{"ja", "映画に出てくる山田さんという人がおもしろかった", "山田"},
	} {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 3, Now: misreadNow, User: "Walt"})
		if got := rememberedPeople(t, resp); strings.Contains(got, tt.name) {
			t.Errorf("%s %q: kept %q as someone they know", tt.lang, tt.text, got)
		}
	}
}

// TestOfflineAVisitIsSaidToTheUser: sit.visit's Japanese line said
// "和子にお客さんがあって": the user's own name, in the third person.
func TestOfflineAVisitIsSaidToTheUser(t *testing.T) {
	k := NewOffline().loaded()
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, l := range k.book["sit.visit"][lang] {
			for _, third := range []string{"{user}に", "{user}が", "{user}は", "{user}'s", "{user}的"} {
				if strings.Contains(l, third) {
					t.Errorf("sit.visit %s: %q speaks of the user in the third person", lang, l)
				}
			}
		}
	}
}

// TestOfflineForgivingAFriendIsNoApology: "彼はいつもずるをするけど、許して
// あげてます" of a friend at cards was read as an apology to her (seed
// 001's 許して) and heard "気にしないで、本当に。".
func TestOfflineForgivingAFriendIsNoApology(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	for _, text := range []string{"彼はいつもずるをするけど、許してあげてます", "まあ、許してやってます"} {
		h := bot.Hints{Language: "ja", User: "Walt", Text: text, Turn: 9, Now: misreadNow, Relationship: "friend", MaxLength: 300, Intent: "APOLOGY"}
		got := reply(t, o, h).Text
		for _, l := range k.book["sit.apology"]["ja"] {
			if strings.Contains(got, strings.ReplaceAll(l, "{user}", "Walt")) {
				t.Errorf("%q: reply %q takes it for an apology", text, got)
			}
		}
	}
}

// TestOfflineAnActorsPartIsNoGame: "this guy Tom Hanks played him", of a
// film, heard "Games, huh? I'm curious.".
func TestOfflineAnActorsPartIsNoGame(t *testing.T) {
	o := NewOffline()
	o.loaded()
	for _, text := range []string{"this guy Tom Hanks played him", "she played the part of his wife"} {
		h := bot.Hints{Language: "en", User: "Walt", Text: text, Turn: 9, Now: misreadNow, Relationship: "friend", MaxLength: 300}
		if got := reply(t, o, h).Text; strings.Contains(got, "Games") || strings.Contains(got, "game") {
			t.Errorf("%q: reply %q takes it for a game", text, got)
		}
	}
}
