package heart

import (
	"strings"
	"testing"
)

// TestSeed003_ReturnGreeting: 003_9b71f6486dad9aaa.txt §7.1 by state, zh
// verbatim, plus en and ja.
func TestSeed003_ReturnGreeting(t *testing.T) {
	rows := []struct {
		name  string
		state RelationshipState
		topic string
		lang  string
		want  string
	}{
		{"§7.1 朋友", Friend, "", "zh", "嘿，好久不见！最近过得怎么样？"},
		{"§7.1 亲密 uses the friend greeting", Close, "", "zh", "嘿，好久不见！最近过得怎么样？"},
		{"§7.1 熟人", Acquaintance, "", "zh", "你好呀，有什么我能帮到你的吗？"},
		{"§7.1 陌生人 gets the polite one", Stranger, "", "zh", "你好呀，有什么我能帮到你的吗？"},
		{"§7.1 深层话题", Friend, "失恋的事", "zh", "好久不见！你之前提到的失恋的事，现在怎么样了？"},
		{"stranger never gets a private topic", Stranger, "失恋的事", "zh", "你好呀，有什么我能帮到你的吗？"},
		{"en friend", Friend, "", "en", "Hey, long time no see! How have you been?"},
		{"en acquaintance", Acquaintance, "", "en", "Hello again! What would you like to talk about today?"},
		{"en deep", Close, "the breakup", "en", "Long time no see! Last time you told me about the breakup. How are things now?"},
		{"en deep, quoted", Friend, TopicPhrase("We broke up. I can't stop crying", "en"), "en", "Long time no see! Last time you told me about “We broke up”. How are things now?"},
		{"§7.1 深层话题, quoted", Friend, TopicPhrase("唉，我失恋了，心里好难受", "zh"), "zh", "好久不见！你之前提到的“唉，我失恋了”那件事，现在怎么样了？"},
		{"ja deep, quoted", Friend, TopicPhrase("彼と別れた…", "ja"), "ja", "久しぶり！前に話してくれた「彼と別れた」のこと、今はどう？"},
		{"ja friend", Friend, "", "ja", "やあ、久しぶり！最近どうしてた？"},
		{"ja deep", Acquaintance, "引っ越し", "ja", "久しぶり！前に話してくれた引っ越しのこと、今はどう？"},
	}
	for _, r := range rows {
		if got := ReturnGreeting(r.state, r.topic, r.lang); got != r.want {
			t.Errorf("%s %s: %q, want %q", seed003, r.name, got, r.want)
		}
		if ContainsForbidden(ReturnGreeting(r.state, r.topic, r.lang)) {
			t.Errorf("greeting %q contains a §7.2 phrase", r.name)
		}
	}
}

// TestReturnHello: the greeting of a return that asks after a follow-up
// instead keeps seed 003 §7.1's tone by state and asks nothing itself.
func TestReturnHello(t *testing.T) {
	for _, s := range []RelationshipState{Stranger, Acquaintance, Friend, Close} {
		for _, lang := range []string{"zh", "en", "ja"} {
			got := ReturnHello(s, lang)
			if got == "" || strings.ContainsAny(got, "?？") || ContainsForbidden(got) {
				t.Errorf("%s %s: %q", s, lang, got)
			}
			if full := ReturnGreeting(s, "", lang); s.rank() >= Friend.rank() && !strings.HasPrefix(full, got) {
				t.Errorf("%s %s: %q is not the opening of %q", s, lang, got, full)
			}
			// A stranger or acquaintance back after nine days heard
			// "Hello again, welcome back!": polite, not effusive.
			if s.rank() >= Friend.rank() {
				continue
			}
			if strings.ContainsAny(got, "!！") {
				t.Errorf("%s %s: %q is not §7.1's polite distance", s, lang, got)
			}
			for _, warm := range []string{"welcome back", "欢迎回来", "おかえり"} {
				if strings.Contains(strings.ToLower(got), warm) {
					t.Errorf("%s %s: %q is not §7.1's polite distance", s, lang, got)
				}
			}
		}
	}
}

// TestSeed003_ForbiddenPhrases: every §7.2 phrase, in every language, is
// caught by ContainsForbidden inside a sentence and after case, width and
// punctuation changes.
func TestSeed003_ForbiddenPhrases(t *testing.T) {
	seed := []string{"我等了你好久", "你怎么才来", "我以为你不要我了", "甚是想念"}
	zh := ForbiddenPhrases("zh")
	for _, s := range seed {
		if !relContainsAny(zh, s) {
			t.Errorf("%s §7.2 %q missing from the zh list", seed003, s)
		}
	}
	if len(ForbiddenPhrases("en")) < 4 || len(ForbiddenPhrases("ja")) < 4 {
		t.Fatal("each language needs the four §7.2 equivalents")
	}
	all := ForbiddenPhrases("")
	if len(all) != len(zh)+len(ForbiddenPhrases("en"))+len(ForbiddenPhrases("ja")) {
		t.Fatal("ForbiddenPhrases(\"\") is not every language")
	}
	for _, p := range all {
		for _, s := range []string{p, "嗯，" + p + "。", "Well... " + strings.ToUpper(p) + "!!", strings.ReplaceAll(p, "'", "’")} {
			if !ContainsForbidden(s) {
				t.Errorf("ContainsForbidden(%q) = false", s)
			}
		}
	}
	for _, s := range []string{"Ｉ ＷＡＩＴＥＤ ＦＯＲ ＹＯＵ ＳＯ ＬＯＮＧ", "我 等了你，好久", "I thought you didn’t want me anymore"} {
		if !ContainsForbidden(s) {
			t.Errorf("ContainsForbidden(%q) = false", s)
		}
	}
	for _, s := range []string{"好久不见！", "Hey, long time no see!", "久しぶり！", "I waited for the bus", "我等了一会儿"} {
		if ContainsForbidden(s) {
			t.Errorf("ContainsForbidden(%q) = true", s)
		}
	}
}

// TestSeed003_RelationshipRules: §3.1 "AI行为" per state and the health
// boundaries, in three languages, and the no-lover line for every state.
func TestSeed003_RelationshipRules(t *testing.T) {
	must := map[RelationshipState]string{
		Stranger:     "不主动询问隐私",
		Acquaintance: "偶尔主动关心",
		Friend:       "情感支持",
		Close:        "2小时",
	}
	for s, w := range must {
		if r := RelationshipRules(s, "zh"); !relContainsAny(r, w) || !relContainsAny(r, "不是恋人") {
			t.Errorf("%s §3.1 %s zh rules %v lack %q or the no-lover line", seed003, s, r, w)
		}
		for _, lang := range []string{"en", "ja"} {
			r := RelationshipRules(s, lang)
			if len(r) < 2 || strings.Join(r, "") == strings.Join(RelationshipRules(s, "zh"), "") {
				t.Errorf("%s rules in %s: %v", s, lang, r)
			}
		}
	}
	if !relContainsAny(RelationshipRules(Close, "en"), "2 hours") || !relContainsAny(RelationshipRules(Friend, "en"), "lonely") {
		t.Fatal("close needs the 2-hour limit, friend the loneliness check")
	}
	if !relContainsAny(RelationshipRules(Stranger, "en"), "never a lover") {
		t.Fatal("no-lover line missing")
	}
}

// TestSeed003_DependencyMessages: §6.2 level texts, zh verbatim.
func TestSeed003_DependencyMessages(t *testing.T) {
	l1 := "我发现你最近经常找我聊天，我很高兴能陪伴你😊\n不过我也想提醒你，现实生活中的朋友和家人同样重要。\n有没有想过，这周末和朋友见个面？"
	l3 := "我们注意到你最近频繁使用AI陪伴功能。\n虽然我们很高兴陪伴你，但长期过度依赖可能影响现实社交。\n\n建议：\n□ 设置每日使用时长上限（如1小时）\n□ 查看心理健康资源\n□ 如果感到持续的孤独或抑郁，建议咨询专业心理咨询师"
	if DependencyMessage(1, "zh") != l1 {
		t.Errorf("%s §6.2 level 1: %q", seed003, DependencyMessage(1, "zh"))
	}
	if m := DependencyMessage(3, "zh"); !strings.HasPrefix(m, l3) || !strings.Contains(m, "每天1小时") {
		t.Errorf("%s §6.2 level 3: the seed's text and the limit hearth sets: %q", seed003, m)
	}
	// Level 2 announces the cool-down; "我们已经聊了2小时了" waits for two
	// hours of talk (LimitReachedMessage).
	if m := DependencyMessage(2, "zh"); !strings.Contains(m, "2小时") || strings.Contains(m, "已经聊了") {
		t.Errorf("§6.2 level 2: %q", m)
	}
	for _, lang := range []string{"en", "ja"} {
		for l := 1; l <= 3; l++ {
			m := DependencyMessage(l, lang)
			if m == "" || m == DependencyMessage(l, "zh") || ContainsForbidden(m) {
				t.Errorf("level %d in %s: %q", l, lang, m)
			}
		}
	}
	if DependencyMessage(0, "en") != "" || DependencyMessage(4, "en") != "" {
		t.Fatal("levels 0 and 4 have no message")
	}
	if DependencyGuidance(0, "zh") != nil {
		t.Fatal("level 0 has no guidance")
	}
	g2 := DependencyGuidance(2, "zh")
	for _, w := range []string{"我理解你的感受", "明天再聊"} {
		if !relContainsAny(g2, w) {
			t.Errorf("§6.2 level 2 guidance lacks %q: %v", w, g2)
		}
	}
	if relContainsAny(g2, "2小时") {
		t.Errorf("the model is not asked to tell two hours: %v", g2)
	}
	if len(DependencyGuidance(3, "en")) <= len(DependencyGuidance(2, "en")) || len(DependencyGuidance(1, "ja")) != 1 {
		t.Fatal("guidance grows with the level")
	}
}
