package brain

import (
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/heart"
)

// The recall round's fourth set, as the user reads them.

// TestOfflineReturnInTheirWords: a user back after months who says so in
// their own words (好久不见, 久しぶり, "long time no see", "it's been a
// while", "I'm back") is greeted back as someone returning, in every
// language, never "嗯哼。" or "Mm, and then?"; a stranger's greeting
// answers in the words of return they used.
func TestOfflineReturnInTheirWords(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 5, 20, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		lang, text string
		state      heart.RelationshipState
		any, none  []string
	}{
		{"zh", "好久不见", heart.Stranger, []string{"好久不见"}, []string{"嗯哼", "我在听"}},
		{"zh", "好久不见！", heart.Friend, []string{"好久不见"}, []string{"嗯哼"}},
		{"zh", "好久没聊了", heart.Acquaintance, []string{"好久不见"}, []string{"嗯哼"}},
		{"ja", "久しぶり", heart.Stranger, []string{"久しぶり"}, []string{"うんうん"}},
		{"ja", "お久しぶりです", heart.Acquaintance, []string{"久しぶり"}, nil},
		{"en", "long time no see", heart.Stranger, []string{"long time no see"}, []string{"and then", "Hello again! Mm"}},
		{"en", "hey, it's been a while", heart.Acquaintance, []string{"long time no see"}, []string{"and then"}},
		{"en", "I'm back", heart.Stranger, []string{"hello again"}, []string{"and then"}},
	} {
		greeting := heart.ReturnGreeting(tt.state, "", tt.lang)
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 12, Now: now, User: "Ann",
			Relationship: string(tt.state), Silence: 60 * 24 * time.Hour, Greeting: greeting}).Text
		if !containsAny(got, tt.any) || containsAny(got, tt.none) {
			t.Errorf("%s %q after 60 days: reply %q; want one of %q, none of %q", tt.lang, tt.text, got, tt.any, tt.none)
		}
	}
	// Not a return: what was long ago is something else.
	got := reply(t, o, bot.Hints{Language: "en", Text: "it's been a while since I slept well", Turn: 3, Now: now, User: "Ann"}).Text
	if containsAny(got, []string{"long time no see"}) {
		t.Errorf("a long while since sleep: reply %q greets a return", got)
	}
}

// TestOfflineDatedThingOfFamilyIsTheirs: "my daughter Lily starts
// kindergarten next Monday" is Lily's first day; she said "I'll remember
// your kindergarten". In every language the dated thing is said as the
// family member's, and so is the check-in's question afterwards.
func TestOfflineDatedThingOfFamilyIsTheirs(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 2, 2, 20, 0, 0, 0, time.UTC) // a Monday
	for _, tt := range []struct {
		lang, text string
		any, none  []string
	}{
		{"en", "my daughter Lily starts kindergarten next Monday", []string{"Lily's first day at kindergarten"}, []string{"your kindergarten"}},
		{"en", "my son has his recital on Friday", []string{"your son's recital"}, []string{"your recital"}},
		{"zh", "我女儿莉莉下周一上幼儿园", []string{"你女儿的入园第一天"}, nil},
		{"ja", "娘のさくらが来週の月曜日から幼稚園に通い始める", []string{"娘さんの入園"}, nil},
	} {
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 5, Now: now, User: "Ann"}).Text
		if !containsAny(got, tt.any) || containsAny(got, tt.none) {
			t.Errorf("%s %q: reply %q; want one of %q, none of %q", tt.lang, tt.text, got, tt.any, tt.none)
		}
	}
	later := now.AddDate(0, 0, 8)
	fus := heart.ExtractFollowUps("my daughter Lily starts kindergarten next Monday", now)
	if len(fus) != 1 {
		t.Fatalf("follow-ups %+v", fus)
	}
	h := bot.Hints{Language: "en", User: "Ann", Relationship: "friend", Silence: 30 * time.Hour, Now: later,
		FollowUps: []bot.FollowUp{{ID: 1, About: fus[0].About, Due: fus[0].Due}}}
	if speak, msg := checkIn(t, o, h); !speak || !strings.Contains(msg, "Lily's first day at kindergarten") || strings.Contains(msg, "your Lily") {
		t.Errorf("check-in after the first day: %v %q; want it asked after as Lily's", speak, msg)
	}
}

// TestOfflineSomeoneElsesExamPassed: "my sister passed her bar exam" got
// "School takes so much out of you."; someone else's exam passed is theirs
// to congratulate (the state theirs), never the user's.
func TestOfflineSomeoneElsesExamPassed(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 2, 2, 20, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		lang, text string
		any, none  []string
	}{
		{"en", "my sister passed her bar exam", []string{"congratulat", "great news", "wonderful", "proud"}, []string{"school takes", "you earned", "you did it", "your hard work"}},
		{"en", "my son passed his driving test today!", []string{"congratulat", "great news", "wonderful", "proud"}, []string{"you earned", "you did it"}},
		{"zh", "我妹妹通过了司法考试", []string{"恭喜", "好消息", "替"}, []string{"你的付出", "你应得"}},
		{"ja", "妹が司法試験に合格した", []string{"おめでとう", "よかった", "妹さん"}, []string{"がんばった成果"}},
	} {
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 5, Now: now, User: "Ann"}).Text
		if !containsAny(got, tt.any) || containsAny(got, tt.none) {
			t.Errorf("%s %q: reply %q; want one of %q, none of %q", tt.lang, tt.text, got, tt.any, tt.none)
		}
	}
}

// TestOfflineNewsOfAKnownPersonInTheLightOfWhatWasTold: "王姐今天居然夸我
// 了" after "我老板叫王姐，对我特别严" got "王姐好像对你很重要。"; the news is
// met as the surprise it is, the strict one praising ("the strict one?
// that's big!"), whether the telling is in the talk or recalled months on.
func TestOfflineNewsOfAKnownPersonInTheLightOfWhatWasTold(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 5, 2, 20, 0, 0, 0, time.UTC)
	before := now.AddDate(0, -3, 0)
	for _, tt := range []struct {
		lang, told, text string
		recalled         bool
		any, none        []string
	}{
		{"zh", "我老板叫王姐，对我特别严", "王姐今天居然夸我了", true, []string{"严", "挑剔"}, []string{"对你很重要"}},
		{"zh", "我老板叫王姐，对我特别严", "王姐今天居然夸我了", false, []string{"严", "挑剔"}, []string{"对你很重要"}},
		{"en", "my boss Karen is so strict", "Karen praised me today!", true, []string{"strict", "hard on you"}, nil},
		{"ja", "上司の田中さんがすごく厳しい", "今日、田中さんに褒められた！", true, []string{"厳しい"}, nil},
		{"zh", "我老板叫王姐，人挺好的", "王姐今天夸我了", true, nil, []string{"严"}},
	} {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 30, Now: now, User: "Ann"}
		if tt.recalled {
			h.Recalled = []bot.Recollection{{Kind: "episode", At: before, Text: tt.told}}
			h.Recent = []bot.ChatMessage{{Role: "user", Content: tt.told, At: before}, {Role: "assistant", Content: "…", At: before}}
		} else {
			h.Recent = []bot.ChatMessage{{Role: "user", Content: tt.told, At: now.Add(-time.Hour)}, {Role: "assistant", Content: "…", At: now.Add(-time.Hour)}}
		}
		got := reply(t, o, h).Text
		if len(tt.any) > 0 && !containsAny(got, tt.any) || containsAny(got, tt.none) {
			t.Errorf("%s %q after %q: reply %q; want one of %q, none of %q", tt.lang, tt.text, tt.told, got, tt.any, tt.none)
		}
	}
}

// TestOfflineFearIsACleanNounPhrase: "I'm scared of the side effects
// though" was kept as "the side effects though" and said back weeks later
// in those words; what is kept, and said back, is the noun phrase alone.
func TestOfflineFearIsACleanNounPhrase(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 2, 20, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ text, want string }{
		{"I'm scared of the side effects though", "the side effects"},
		{"I'm terrified of needles honestly", "needles"},
		{"I'm afraid of the dark right now", "the dark"},
	} {
		resp := reply(t, o, bot.Hints{Language: "en", Text: tt.text, Turn: 4, Now: now, User: "Ann"})
		items, raw := remembered(t, resp)
		kept := false
		for _, it := range items {
			kept = kept || it.Content == "Afraid of: "+tt.want
		}
		if !kept || strings.Contains(resp.Text, tt.want+" ") && !strings.Contains(resp.Text, tt.want+".") {
			t.Errorf("%q: kept %s, said %q; want %q alone", tt.text, raw, resp.Text, tt.want)
		}
	}
}

// TestOfflineMedicationIsRecalled: "do you remember what medication I'm
// on?" quoted the wrong message; a medication told ("I'm on sertraline",
// 我在吃舍曲林, セルトラリンを飲んでる) is kept among what to mind and
// named when asked weeks later; "I'm on vacation" and 在吃饭 are none.
func TestOfflineMedicationIsRecalled(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 2, 20, 0, 0, 0, time.UTC)
	before := now.AddDate(0, 0, -24)
	for _, tt := range []struct{ lang, told, asked, want string }{
		{"en", "I'm on sertraline now, the doctor prescribed it", "do you remember what medication I'm on?", "sertraline"},
		{"en", "the doctor put me on Lexapro", "do you remember which meds I take?", "Lexapro"},
		{"zh", "我在吃舍曲林", "你还记得我在吃什么药吗？", "舍曲林"},
		{"ja", "セルトラリンを飲んでる", "私が飲んでる薬、覚えてる？", "セルトラリン"},
	} {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.told, Turn: 4, Now: before, User: "Ann"})
		items, raw := remembered(t, resp)
		var memory string
		for _, it := range items {
			if it.Slot == 21 && strings.Contains(it.Content, tt.want) {
				memory = it.Content
			}
		}
		if memory == "" {
			t.Errorf("%s %q: kept %s; want the medication %q in slot 21", tt.lang, tt.told, raw, tt.want)
			continue
		}
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.asked, Turn: 40, Now: now, User: "Ann", Memories: []string{memory},
			Recent: []bot.ChatMessage{{Role: "user", Content: "I have a doctor's appointment tomorrow", At: before.Add(-time.Hour)}, {Role: "assistant", Content: "…", At: before.Add(-time.Hour)}}}).Text
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s %q: reply %q; want %q", tt.lang, tt.asked, got, tt.want)
		}
	}
	for _, text := range []string{"I'm on vacation", "I'm on my way", "我在吃饭", "コーヒーを飲んでる"} {
		items, raw := remembered(t, reply(t, o, bot.Hints{Language: "en", Text: text, Turn: 4, Now: now, User: "Ann"}))
		for _, it := range items {
			if it.Slot == 21 {
				t.Errorf("%q kept as a medication: %s", text, raw)
			}
		}
	}
}
