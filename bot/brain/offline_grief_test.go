package brain

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/bot"
)

// TestOfflineLossIsKeptWithTheMonthItWasTold: "my wife Ruth passed in
// January" is written to memory as someone lost, with the month it was
// told, in every language; told again later, the first month stays.
func TestOfflineLossIsKeptWithTheMonthItWasTold(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	now := time.Date(2026, 3, 2, 20, 30, 0, 0, time.UTC)
	for _, tt := range []struct{ lang, text, want string }{
		{"en", "my wife Ruth passed in January", "Lost and missed: Ruth (since 2026-03)"},
		{"en", "I lost my husband last year", "Lost and missed: husband (since 2026-03)"},
		{"zh", "我老伴去年走了", "离开了的亲人：老伴（2026-03起）"},
		{"ja", "妻を去年亡くしました", "亡くした大切な人：妻（2026-03から）"},
		{"zh", "我爸走了三个月了", "离开了的亲人：爸（2026-03起）"},
		{"ja", "母が亡くなって三ヶ月です", "亡くした大切な人：母（2026-03から）"},
	} {
		h := bot.Hints{Text: tt.text, Language: tt.lang, Now: now}
		var got []string
		for _, r := range k.remember(h, k.factsIn(tt.text, tt.lang)) {
			got = append(got, r.Content)
		}
		if !slices.Contains(got, tt.want) {
			t.Errorf("%s %q: remembered %q, want %q", tt.lang, tt.text, got, tt.want)
		}
	}
	h := bot.Hints{Text: "my wife Ruth passed in January", Language: "en", Now: now.AddDate(0, 2, 0),
		Memories: []string{"Lost and missed: Ruth (since 2026-03)"}}
	for _, r := range k.remember(h, k.factsIn(h.Text, "en")) {
		if strings.Contains(r.Content, "2026-05") {
			t.Errorf("told again: %q, want the first month kept", r.Content)
		}
	}
}

// TestOfflineGriefLastsPastTheTalk: three weeks after "my wife Ruth passed
// in January", with the telling long out of the recent talk, a widower's
// "not much" heard "Quiet ones are nice too." The kept loss keeps the
// quiet day gentle within griefSpanMonths, and Ruth named is someone lost.
func TestOfflineGriefLastsPastTheTalk(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	told := time.Date(2026, 3, 2, 20, 30, 0, 0, time.UTC)
	mem := []string{"Lost and missed: Ruth (since 2026-03)", "People: Ruth (wife)"}
	cheerful := k.book["sit.nothing_much"]["en"]
	for i := range 8 {
		h := bot.Hints{Text: "not much", Language: "en", Turn: i, Now: told.AddDate(0, 0, 21), Memories: mem}
		if got := reply(t, o, h).Text; slices.Contains(cheerful, got) {
			t.Errorf("three weeks on, turn %d: %q, a cheerful line to a widower", i, got)
		}
	}
	h := bot.Hints{Text: "made Ruth's soup today", Language: "en", Now: told.AddDate(0, 1, 0), Memories: mem}
	if v := o.view(h); !v.gone["Ruth"] || !slices.Contains(v.states, stateGone) {
		t.Errorf("a month on, Ruth named: gone %v states %v, want her spoken of as lost", v.gone, v.states)
	}
	h = bot.Hints{Text: "not much", Language: "en", Now: told.AddDate(0, griefSpanMonths+1, 0), Memories: mem}
	if v := o.view(h); v.grieving() {
		t.Errorf("past griefSpanMonths: still grieving, want the everyday back")
	}
}

// sitNames lists the situations the offline brain finds in a message.
func sitNames(o *Offline, lang, text string) []string {
	o.loaded()
	var out []string
	for _, s := range o.view(bot.Hints{Text: text, Language: lang, Now: eveningAt}).sits {
		out = append(out, s.Name)
	}
	return out
}

// TestOfflineGraveNewsIsWorryNotRelief: bad news from a doctor about
// someone close heard "I'm glad you know more now", 有了答案就好 and "Yay!
// What a relief" ("it doesn't look good" held "look good"); a serious
// diagnosis (我爸确诊了癌症，晚期) matched no situation. Each is grave
// news, met with care, and none is relief; a good word from the doctor
// still is. A tumour found, cancer back, a spouse with dementia ("Your
// love life, huh? I'm curious."), a dog put down ("Animals make a day
// better") and a grave visited ("Ah, okay.") are met likewise.
func TestOfflineGraveNewsIsWorryNotRelief(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct{ lang, text, want string }{
		{"en", "my dad was diagnosed with cancer, stage four", "grave_news"},
		{"en", "my friend is in the hospital, the doctor says it doesn't look good", "grave_news"},
		{"en", "mom is in hospice now", "grave_news"},
		{"zh", "我爸确诊了癌症，晚期", "grave_news"},
		{"zh", "我老同学住院了，医生说情况不太好", "grave_news"},
		{"ja", "父が末期がんと診断されました", "grave_news"},
		{"ja", "友達が入院して、医者はあまり良くないって", "grave_news"},
		{"en", "they found a tumor", "grave_news"},
		{"en", "the cancer is back", "grave_news"},
		{"en", "my husband has dementia and doesn't recognize me anymore", "grave_news"},
		{"zh", "我妈老年痴呆，认不出我了", "grave_news"},
		{"ja", "母が認知症で、私のことがわからない", "grave_news"},
		{"en", "we had to put our dog down today", "loss"},
		{"zh", "我们给狗狗安乐死了", "loss"},
		{"en", "I visited Ruth's grave today", "remembrance"},
		{"en", "went to mom's grave", "remembrance"},
		{"en", "the doctor says my heart is ok", "recovered"},
		{"zh", "医生说没事", "recovered"},
	} {
		got := sitNames(o, tt.lang, tt.text)
		if !slices.Contains(got, tt.want) {
			t.Errorf("%s %q: situations %v, want %s", tt.lang, tt.text, got, tt.want)
		}
		if tt.want == "grave_news" && slices.ContainsFunc(got, func(n string) bool { return n == "recovered" || n == "diagnosis" || n == "smalljoy" }) {
			t.Errorf("%s %q: situations %v, grave news met as relief", tt.lang, tt.text, got)
		}
	}
}

// TestOfflinePassedIsADeathWhenAPersonPassed: "my husband passed the other
// day" heard "Good for your husband! All that work paid off." (an exam's
// "passed the"). A person who passed the other day, peacefully or in
// their sleep died, and is kept as lost; one who passed an exam did not.
func TestOfflinePassedIsADeathWhenAPersonPassed(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	for _, tt := range []struct {
		text string
		died bool
	}{
		{"my husband passed the other day", true},
		{"mom passed the week before christmas", true},
		{"grandma passed peacefully", true},
		{"my sister passed her exam", false},
		{"my son passed the bar exam", false},
	} {
		got := sitNames(o, "en", tt.text)
		if died := slices.Contains(got, "loss") && !slices.Contains(got, "passed"); died != tt.died {
			t.Errorf("%q: situations %v, want a death %v", tt.text, got, tt.died)
		}
		kept := slices.ContainsFunc(k.factsIn(tt.text, "en"), func(f fact) bool { return f.kind.Kind == factLoss })
		if kept && !tt.died {
			t.Errorf("%q: kept as someone lost", tt.text)
		}
	}
}

// hasEmoji reports whether s holds one of the emoji the offline brain adds.
func hasEmoji(s string) bool {
	for _, l := range []string{"joy", "sadness", "neutral"} {
		for _, e := range emojiFor(l) {
			if strings.Contains(s, e) {
				return true
			}
		}
	}
	return false
}

// TestOfflineGriefIsNeverDecorated: with emoji allowed, "my wife passed
// away last night" heard "…There's no right way to feel about this. 🌙".
// A death, a day of remembrance, grave news, despair and a lost one
// named get no emoji, in any language, on any turn.
func TestOfflineGriefIsNeverDecorated(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct{ lang, text string }{
		{"en", "my wife passed away last night"},
		{"zh", "我奶奶昨晚去世了"},
		{"ja", "母が亡くなりました"},
		{"en", "it would have been Ruth's birthday today"},
		{"en", "my dad was diagnosed with cancer, stage four"},
		{"zh", "我不在的时候，大家都比较轻松吧 哈哈"},
	} {
		for turn := range 6 {
			h := bot.Hints{Text: tt.text, Language: tt.lang, Turn: turn, EmojiAllowed: true, Now: eveningAt}
			if got := reply(t, o, h).Text; hasEmoji(got) {
				t.Errorf("%s %q turn %d: %q, grief decorated", tt.lang, tt.text, turn, got)
			}
		}
	}
}

// TestOfflineThanksAfterALossIsNotDecorated: "thanks for listening" the
// message after "my grandma passed last week" heard "No need to thank me.
// I like talking with you. 🌸"; while a loss is kept within
// griefSpanMonths no reply is decorated, and a year on the emoji are back.
func TestOfflineThanksAfterALossIsNotDecorated(t *testing.T) {
	o := NewOffline()
	o.loaded()
	told := time.Date(2026, 3, 2, 20, 30, 0, 0, time.UTC)
	mem := []string{"Lost and missed: grandma (since 2026-03)"}
	for turn := range 6 {
		h := bot.Hints{Text: "thanks for listening", Language: "en", Turn: turn, EmojiAllowed: true, Now: told.Add(5 * time.Minute), Memories: mem}
		if !o.view(h).bare() {
			t.Errorf("turn %d: a thanks after a loss may be decorated", turn)
		}
		if got := reply(t, o, h).Text; hasEmoji(got) {
			t.Errorf("turn %d: %q, a thanks after a loss decorated", turn, got)
		}
	}
	later := bot.Hints{Text: "not much", Language: "en", EmojiAllowed: true, Now: told.AddDate(0, griefSpanMonths+1, 0), Memories: mem}
	if o.view(later).bare() {
		t.Errorf("past griefSpanMonths: still bare, want her own voice back")
	}
}

// TestOfflineHardMomentsAreMetWithCare: "I don't know how much more of this
// I can take" heard "Mm. Go on, I'm here." (the "don't" read the words as
// negated), and 我不在的时候，大家都比较轻松吧 哈哈 "看得我也笑了…😊" (the
// 哈哈 a small joy). Both are the care of a hard moment (hopeless), never
// a laugh along.
func TestOfflineHardMomentsAreMetWithCare(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct{ lang, text string }{
		{"en", "I don't know how much more of this I can take"},
		{"en", "I can't take it anymore"},
		{"zh", "我不知道我还能撑多久"},
		{"zh", "我不在的时候，大家都比较轻松吧 哈哈"},
		{"ja", "もうこれ以上耐えられるかわからない"},
	} {
		got := sitNames(o, tt.lang, tt.text)
		if !slices.Contains(got, "hopeless") || slices.Contains(got, "smalljoy") {
			t.Errorf("%s %q: situations %v, want hopeless and no small joy", tt.lang, tt.text, got)
		}
	}
}

// TestOfflineRemembranceMatchesTheDay: "tomorrow would have been Frank's
// birthday" heard "You must be missing Frank so much today."; a day of
// remembrance still ahead is met for the day it is, never as today.
func TestOfflineRemembranceMatchesTheDay(t *testing.T) {
	o := NewOffline()
	mem := []string{"Lost and missed: Frank (since 2025-06)", "People: Frank (husband)"}
	today := map[string]string{"en": "today", "zh": "今天", "ja": "今日"}
	for _, tt := range []struct{ lang, text string }{
		{"en", "tomorrow would have been Frank's birthday"},
		{"en", "tomorrow is Frank's birthday"},
		{"zh", "明天本来是他的生日"},
		{"zh", "明天是他的忌日"},
		{"ja", "明日は夫の命日です"},
	} {
		for turn := range 4 {
			h := bot.Hints{Text: tt.text, Language: tt.lang, Turn: turn, Now: eveningAt, Memories: mem}
			if got := reply(t, o, h).Text; strings.Contains(strings.ToLower(got), today[tt.lang]) {
				t.Errorf("%s %q turn %d: %q, a day ahead met as today", tt.lang, tt.text, turn, got)
			}
		}
	}
}

// TestOfflineLossIsKeptOnlyForADeath: the words of a death are everyday
// too (a walk, an exam passed, a phone dead); none is kept as someone lost.
func TestOfflineLossIsKeptOnlyForADeath(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	for _, tt := range []struct{ lang, text string }{
		{"zh", "我妈出去走了走"},
		{"zh", "我爸走了，去上班了"},
		{"en", "my sister passed her exam"},
		{"en", "my dad died laughing at that"},
		{"en", "my mom passed me the salt"},
	} {
		for _, f := range k.factsIn(tt.text, tt.lang) {
			if f.kind.Kind == factLoss {
				t.Errorf("%s %q: kept %v as someone lost", tt.lang, tt.text, f.fields)
			}
		}
	}
}
