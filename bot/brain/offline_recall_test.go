package brain

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/bot"
)

// TestOfflineKeepsWhatTheUserIsAfraidOf: a fear told ("I'm terrified of
// flying", 我特别怕黑, 高いところが怖い) is kept in slot 8 in the user's
// words; a worry about one day, a polite "I'm afraid" and a question keep
// nothing.
func TestOfflineKeepsWhatTheUserIsAfraidOf(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text string
		mems       []string
		want       []rememberItem
	}{
		{"en", "I'm terrified of flying", nil, []rememberItem{{8, "Afraid of: flying"}}},
		{"en", "honestly I'm so scared of the dark, always have been", []string{"Afraid of: flying"}, []rememberItem{{8, "Afraid of: flying; the dark"}}},
		{"en", "I have a huge fear of needles", nil, []rememberItem{{8, "Afraid of: needles"}}},
		{"en", "I'm afraid of losing my job", nil, []rememberItem{{8, "Afraid of: losing my job"}}},
		{"zh", "我特别怕黑", nil, []rememberItem{{8, "害怕：黑"}}},
		{"zh", "我从小就怕狗", nil, []rememberItem{{8, "害怕：狗"}}},
		{"ja", "高いところが怖い", nil, []rememberItem{{8, "怖いもの：高いところ"}}},
		{"ja", "私、雷がすごく怖くて", nil, []rememberItem{{8, "怖いもの：雷"}}},
		// No fear to keep.
		{"en", "I'm afraid I can't come tonight", nil, nil},
		{"en", "I'm scared of what they'll say", nil, nil},
		{"en", "do you remember what I'm afraid of?", nil, nil},
		{"zh", "我怕考不好", nil, nil},
		{"zh", "我怕冷", nil, nil},
		{"zh", "你还记得我怕什么吗？", nil, nil},
		{"ja", "明日の面接が怖い", nil, nil},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Memories: tt.mems})
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: remember = %s, want %v (reply %q)", tt.text, b, tt.want, resp.Text)
		}
	}
}

// TestOfflineRecallsWhatTheUserIsAfraidOf: "do you remember what I'm
// afraid of?" is answered with the fears kept, said back as hers, never
// with the mother's diagnosis recalled beside them; with none kept, she
// says honestly that she was never told.
func TestOfflineRecallsWhatTheUserIsAfraidOf(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 10, 20, 0, 0, 0, time.UTC)
	diagnosis := map[string]string{
		"en": "my mum was diagnosed with breast cancer last week",
		"zh": "我妈妈上周被诊断出乳腺癌",
		"ja": "母が先週乳がんと診断された",
	}
	tests := []struct {
		lang, text string
		mems       []string
		want       []string // all of these
	}{
		{"en", "do you remember what I'm afraid of?", []string{"Afraid of: flying; the dark"}, []string{"flying", "the dark"}},
		{"en", "what am I scared of, do you remember?", []string{"Afraid of: losing my job"}, []string{"losing your job"}},
		{"zh", "你还记得我怕什么吗？", []string{"害怕：黑"}, []string{"黑"}},
		{"ja", "私が何を怖がってるか覚えてる？", []string{"怖いもの：高いところ"}, []string{"高いところ"}},
	}
	for _, tt := range tests {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Now: now, Memories: tt.mems,
			Recalled: []bot.Recollection{{Kind: "episode", At: now.AddDate(0, -2, 0), Text: diagnosis[tt.lang]}}}
		got := reply(t, o, h).Text
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q with %v: reply %q, want %q in it", tt.text, tt.mems, got, w)
			}
		}
		if strings.Contains(got, diagnosis[tt.lang]) {
			t.Errorf("%q: reply %q quotes the diagnosis", tt.text, got)
		}
		// None kept: an honest "you haven't told me", not the diagnosis.
		h.Memories = nil
		got = reply(t, o, h).Text
		if !slices.Contains(o.loaded().book["remember.unknown.fear"][tt.lang], got) {
			t.Errorf("%q with no fear kept: reply %q, want one of remember.unknown.fear", tt.text, got)
		}
	}
}

// TestOfflineReturnGreetingLeavesTheMessageItsAnswer: a user back after a
// week who says something (a fear, or words no situation reads) gets the
// greeting without its question and an answer to what they said, never
// only "long time no see, how have you been?"; a bare hello still gets the
// whole greeting.
func TestOfflineReturnGreetingLeavesTheMessageItsAnswer(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 10, 20, 0, 0, 0, time.UTC)
	greetings := map[string]string{
		"en": "Hey, long time no see! How have you been?",
		"zh": "嘿，好久不见！最近过得怎么样？",
		"ja": "やあ、久しぶり！最近どうしてた？",
	}
	tests := []struct {
		lang, text, want string
		whole            bool // the greeting's question stays
	}{
		{"en", "I'm terrified of flying", "flying", false},
		{"zh", "我特别怕黑", "黑", false},
		{"ja", "高いところが怖い", "高いところ", false},
		{"en", "so yeah, that's where I've been", "", false},
		{"zh", "嗯，就是这么回事", "", false},
		{"en", "hi!", "", true},
		{"zh", "在吗", "", true},
	}
	for _, tt := range tests {
		h := bot.Hints{Language: tt.lang, User: "Ann", Text: tt.text, Turn: 1, Now: now, Relationship: "friend",
			Silence: 8 * 24 * time.Hour, MaxLength: 300, Greeting: greetings[tt.lang]}
		got := reply(t, o, h).Text
		asked := strings.Contains(got, greetings[tt.lang])
		if asked != tt.whole || !strings.Contains(got, tt.want) {
			t.Errorf("%q after a week: reply %q; want %q in it, the greeting's question asked: %v", tt.text, got, tt.want, tt.whole)
		}
	}
}

// TestOfflineKeepsWhereTheUserWorks: a new job's company ("I start at Acme
// next week", 我下周开始去腾讯上班, 来週からソニーで働くことになった) is kept
// in slot 9; a time, a workplace that names no employer and someone
// else's work are not.
func TestOfflineKeepsWhereTheUserWorks(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text string
		want       []rememberItem
	}{
		{"en", "I start at Acme next week", []rememberItem{{9, "Works at: Acme"}}},
		{"en", "I got a job offer from Google!!", []rememberItem{{9, "Works at: Google"}}},
		{"en", "I work for St Mary's Hospital as a nurse", []rememberItem{{9, "Works at: St Mary's Hospital"}}},
		{"zh", "我下周开始去腾讯上班", []rememberItem{{9, "工作单位：腾讯"}}},
		{"zh", "我拿到了字节的offer！", []rememberItem{{9, "工作单位：字节"}}},
		{"ja", "来週からソニーで働くことになった", []rememberItem{{9, "勤め先：ソニー"}}},
		{"en", "I start at 9 tomorrow", nil},
		{"en", "I start at Monday", nil},
		{"zh", "我今天在公司加班", nil},
		{"zh", "我在公司上班", nil},
		{"zh", "我妈在医院上班", nil},
		{"ja", "会社で働くのが辛い", nil},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1})
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: remember = %s, want %v (reply %q)", tt.text, b, tt.want, resp.Text)
		}
	}
}

// TestOfflineRecallsWhereTheUserWorks: weeks later "do you remember where
// I work?" names the company kept; asked for the work or the workplace
// when only the other was told, she answers with that one.
func TestOfflineRecallsWhereTheUserWorks(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text string
		mems       []string
		want       string
	}{
		{"en", "do you remember where I work?", []string{"Works at: Acme", "Work: nurse"}, "Acme"},
		{"en", "do you remember my job?", []string{"Works at: Acme", "Work: nurse"}, "nurse"},
		{"en", "where do I work again?", []string{"Work: nurse"}, "nurse"},
		{"en", "do you remember my job?", []string{"Works at: Acme"}, "Acme"},
		{"zh", "你还记得我在哪工作吗？", []string{"工作单位：腾讯"}, "腾讯"},
		{"ja", "私がどこで働いてるか覚えてる？", []string{"勤め先：ソニー"}, "ソニー"},
	}
	for _, tt := range tests {
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Memories: tt.mems}).Text
		if !strings.Contains(got, tt.want) {
			t.Errorf("%q with %v: reply %q, want %q in it", tt.text, tt.mems, got, tt.want)
		}
	}
}

// TestOfflineKeepsNamesTypedInLowercase: "my dog is called biscuit", "her
// name is mochi" after her question about the kitten, "my sister's name
// is mia": a name typed in lowercase is a name all the same, kept
// capitalised; lowercase words after no naming word are none.
func TestOfflineKeepsNamesTypedInLowercase(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		before, asked, text string
		want                []rememberItem
	}{
		{"", "", "my dog is called biscuit", []rememberItem{{3, "Pets: Biscuit (dog)"}}},
		{"", "", "we adopted a cat named pumpkin", []rememberItem{{3, "Pets: Pumpkin (cat)"}}},
		{"we got a kitten!", "Oh, how lovely! What's their name?", "her name is mochi", []rememberItem{{3, "Pets: Mochi (cat)"}}},
		{"we got a kitten!", "Oh, how lovely! What's their name?", "mochi", []rememberItem{{3, "Pets: Mochi (cat)"}}},
		{"", "", "my sister's name is mia", []rememberItem{{5, "People: Mia (sister)"}}},
		{"", "", "my name is ann btw", []rememberItem{{0, "Name: Ann"}}},
		{"", "", "my dog is so cute", nil},
		{"", "", "my cat is named after my grandma", nil},
		{"", "", "my sister is sick", nil},
		{"we got a kitten!", "Oh, how lovely! What's their name?", "idk yet", nil},
		{"we got a kitten!", "Oh, how lovely! What's their name?", "lol", nil},
	}
	for _, tt := range tests {
		h := bot.Hints{Language: "en", Text: tt.text, Turn: 2}
		if tt.before != "" {
			h.Recent = []bot.ChatMessage{{Role: "user", Content: tt.before}, {Role: "assistant", Content: tt.asked}}
		}
		resp := reply(t, o, h)
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: remember = %s, want %v (reply %q)", tt.text, b, tt.want, resp.Text)
		}
	}
	// Weeks later the lowercase name is the one asked after.
	h := bot.Hints{Language: "en", Text: "do you remember my dog's name?", Turn: 1, Memories: []string{"Pets: Biscuit (dog)"}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "Biscuit") {
		t.Errorf("asked for the dog's name: %q", got)
	}
}

// TestOfflineAFriendsBabyIsNoNiece: the name of a friend's new baby, told
// as the answer to "What's the baby's name?", is kept as the friend's
// baby in every language; a sister's baby is still a niece in English.
func TestOfflineAFriendsBabyIsNoNiece(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, before, asked, text string
		want                      []rememberItem
	}{
		{"en", "my friend had a baby!", "A new baby! Oh, that's wonderful news. What's the baby's name?", "her name is Lily", []rememberItem{{5, "People: Lily (friend's baby)"}}},
		{"en", "my best friend just had a baby boy", "Oh, how lovely! A brand-new little person. What's the baby's name?", "Leo", []rememberItem{{5, "People: Leo (friend's baby)"}}},
		{"zh", "我朋友生了个宝宝！", "有小宝宝啦！真是天大的好消息。宝宝叫什么名字？", "叫朵朵", []rememberItem{{5, "身边的人：朵朵（朋友的宝宝）"}}},
		{"ja", "友達に赤ちゃんが生まれた！", "赤ちゃん！本当におめでとう。赤ちゃんの名前は？", "名前はさくらだよ", []rememberItem{{5, "身近な人：さくら（友だちの赤ちゃん）"}}},
		{"en", "my sister had her baby today!", "A new baby! Oh, that's wonderful news. What's the baby's name?", "her name is Lily", []rememberItem{{5, "People: Lily (niece)"}}},
	}
	for _, tt := range tests {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 2, Recent: []bot.ChatMessage{
			{Role: "user", Content: tt.before}, {Role: "assistant", Content: tt.asked}}}
		resp := reply(t, o, h)
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q after %q: remember = %s, want %v (reply %q)", tt.text, tt.before, b, tt.want, resp.Text)
		}
	}
}

// TestOfflineAMoveIsBigNews: "I moved to Porto" (我搬到杭州了, 大阪に引っ越
// した) is answered as a move, the city said back and asked after, not
// only "I'll remember that."; the city is kept for "where do I live?".
// A meeting moved to Friday and furniture moved are no move, nor is the
// new apartment talked about the day after.
func TestOfflineAMoveIsBigNews(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	tests := []struct {
		lang, text, city string
		want             []rememberItem
	}{
		{"en", "I moved to Porto", "Porto", []rememberItem{{1, "Lives in: Porto"}}},
		{"zh", "我搬到杭州了", "杭州", []rememberItem{{1, "住在：杭州"}}},
		{"ja", "大阪に引っ越した", "大阪", []rememberItem{{1, "住まい：大阪"}}},
		{"en", "we finally moved into our new flat!", "", nil},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, ProactiveQuestion: true, MaxLength: 300})
		got, b := remembered(t, resp)
		moved := slices.ContainsFunc(k.book["sit.moved"][tt.lang], func(v string) bool { return strings.Contains(resp.Text, v) })
		if !moved || !strings.Contains(resp.Text, tt.city) || !endsAsking(resp.Text) || fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: reply %q, remember %s; want the move answered, %q said back, a question, and %v kept", tt.text, resp.Text, b, tt.city, tt.want)
		}
	}
	for _, tt := range []struct{ lang, text string }{{"en", "my exam was moved to Friday"}, {"zh", "我把桌子搬到客厅了"}, {"en", "the new apartment is tiny but cute"}} {
		if got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1}).Text; slices.ContainsFunc(k.book["sit.moved"][tt.lang], func(v string) bool { return strings.Contains(got, v) }) {
			t.Errorf("%q: reply %q calls it a move", tt.text, got)
		}
	}
}

// TestOfflineKeepsAPartnersName: "我男朋友阿杰今晚给我做饭", "彼氏のケンが
// 今夜ごはんを作ってくれる": a boyfriend's or girlfriend's name is kept in
// Chinese and Japanese too (the words for a partner are no name to
// reject, only no name themselves).
func TestOfflineKeepsAPartnersName(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text string
		want       []rememberItem
	}{
		{"zh", "我男朋友阿杰今晚给我做饭", []rememberItem{{5, "身边的人：阿杰（男朋友）"}}},
		{"zh", "我女朋友叫小美", []rememberItem{{5, "身边的人：小美（女朋友）"}}},
		{"ja", "彼氏のケンが今夜ごはんを作ってくれる", []rememberItem{{5, "身近な人：ケン（彼氏）"}}},
		{"ja", "妹の彼氏が来た", nil},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1})
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: remember = %s, want %v (reply %q)", tt.text, b, tt.want, resp.Text)
		}
	}
	h := bot.Hints{Language: "zh", Text: "我男朋友叫什么？", Turn: 1, Memories: []string{"身边的人：阿杰（男朋友）"}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "阿杰") {
		t.Errorf("asked for the boyfriend's name: %q", got)
	}
}

// TestOfflineKeepsFactsToldInPassing: facts a months-long probe told in
// passing and she kept nothing of: a kitten's name a sentence after the
// kitten (子猫を飼い始めたんだ。名前はモチ), a move with a time word
// (我上周搬到成都了), a name after a hello (こんにちは、ミナです). A
// question about where one lives keeps nothing.
func TestOfflineKeepsFactsToldInPassing(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text string
		want       []rememberItem
	}{
		{"ja", "子猫を飼い始めたんだ。名前はモチ", []rememberItem{{3, "ペット：モチ（猫）"}}},
		{"zh", "我上周搬到成都了", []rememberItem{{1, "住在：成都"}}},
		{"ja", "こんにちは、ミナです", []rememberItem{{0, "名前：ミナ"}}},
		{"ja", "はじめまして、田中です。", []rememberItem{{0, "名前：田中"}}},
		{"zh", "我住在哪？", nil},
		{"zh", "我住在哪儿来着", nil},
		{"ja", "こんにちは、元気です", nil},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1})
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: remember = %s, want %v (reply %q)", tt.text, b, tt.want, resp.Text)
		}
	}
}

// TestOfflineRecallsWhatWasSaidByItsTheme: months later a question names
// what was told by its kind ("my diagnosis", 考试 for 考研复试, 乐器 for
// 大提琴): the message that told it is quoted, not "you never told me".
func TestOfflineRecallsWhatWasSaidByItsTheme(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 10, 20, 0, 0, 0, time.UTC)
	said := map[string][]string{
		"en": {"my grandpa passed away last night", "I was diagnosed with ADHD today", "I've started learning the cello"},
		"zh": {"我外婆昨晚去世了", "我三月十二号考研复试", "我最近开始学大提琴"},
	}
	tests := []struct{ lang, text, want string }{
		{"en", "do you remember my diagnosis?", "ADHD"},
		{"en", "do you remember what instrument I'm learning?", "cello"},
		{"zh", "我什么时候考试来着？", "考研复试"},
		{"zh", "你还记得我在学什么乐器吗？", "大提琴"},
	}
	for _, tt := range tests {
		var rs []bot.Recollection
		for _, s := range said[tt.lang] {
			rs = append(rs, bot.Recollection{Kind: "episode", At: now.AddDate(0, -2, 0), Text: s})
		}
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Now: now, Recalled: rs}).Text
		if !strings.Contains(got, tt.want) {
			t.Errorf("%q: reply %q, want %q quoted", tt.text, got, tt.want)
		}
	}
}

// TestOfflineRecallOfALossHasNoSmile: "do you remember what happened to
// my grandpa?" quotes his death without a 😊, and "I don't think you
// told me" comes without sparkles; a pet's name remembered may smile.
func TestOfflineRecallOfALossHasNoSmile(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 10, 20, 0, 0, 0, time.UTC)
	tests := []struct {
		lang, text, recalled string
		mems                 []string
		smile                bool
	}{
		{"en", "do you remember what happened to my grandpa?", "my grandpa passed away last night", nil, false},
		{"zh", "你还记得我外婆的事吗？", "我外婆昨晚去世了", nil, false},
		{"en", "when is my exam?", "", nil, false},
		{"zh", "我住在哪？", "", nil, false},
		{"en", "do you remember my cat's name?", "", []string{"Pets: Pepper (cat)"}, true},
	}
	for _, tt := range tests {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Now: now, EmojiAllowed: true, Memories: tt.mems}
		if tt.recalled != "" {
			h.Recalled = []bot.Recollection{{Kind: "episode", At: now.AddDate(0, -2, 0), Text: tt.recalled}}
		}
		got := reply(t, o, h).Text
		if smiles := strings.IndexFunc(got, isEmoji) >= 0; smiles != tt.smile {
			t.Errorf("%q: reply %q, emoji %v, want %v", tt.text, got, smiles, tt.smile)
		}
	}
}

// TestOfflineRemembersAFearWhenItComesUp: weeks after "I'm terrified of
// dogs", "a dog chased me on the street today" (被一只狗追, 犬に追いかけら
// れた) is met with the fear remembered and a gentle how-are-you, not
// "your pets, go on"; a black coat is no darkness, and the fear told
// again is answered as told.
func TestOfflineRemembersAFearWhenItComesUp(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text, fear string
		met              bool
	}{
		{"en", "a dog chased me on the street today", "Afraid of: dogs", true},
		{"en", "I have to fly to Berlin tomorrow", "Afraid of: flying", true},
		{"zh", "今天在街上被一只狗追", "害怕：狗", true},
		{"ja", "今日道で犬に追いかけられた", "怖いもの：犬", true},
		{"ja", "今日、高いところに登った", "怖いもの：高いところ", true},
		{"zh", "我买了一件黑色外套", "害怕：黑", false},
		{"en", "I'm terrified of dogs", "Afraid of: dogs", false},
	}
	for _, tt := range tests {
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Memories: []string{tt.fear}}).Text
		_, what, _ := strings.Cut(strings.Replace(tt.fear, "：", ": ", 1), ": ")
		// A plan ahead ("I have to fly tomorrow") is asked "will you be
		// okay?" (reflect.fear.ahead).
		book := o.loaded().book
		met := slices.ContainsFunc(append(slices.Clone(book["reflect.fear"][tt.lang]), book["reflect.fear.ahead"][tt.lang]...), func(v string) bool {
			return strings.Contains(got, strings.ReplaceAll(v, "{what}", what))
		})
		if met != tt.met || tt.met && !endsAsking(got) {
			t.Errorf("%q with %q: reply %q; want the fear remembered and asked after: %v", tt.text, tt.fear, got, tt.met)
		}
	}
}

// TestOfflineAProposalIsJoyWithThePartnerNamed: months after "my
// boyfriend Daniel", "Daniel proposed!!" (阿杰向我求婚了) is congratulated
// with his name, not met with "Daniel sounds important to you"; a plan a
// boss proposed is no proposal.
func TestOfflineAProposalIsJoyWithThePartnerNamed(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	tests := []struct {
		lang, text, mem string
		proposal        bool
	}{
		{"en", "Daniel proposed!!", "People: Daniel (boyfriend)", true},
		{"en", "he proposed last night and I said yes", "People: Daniel (boyfriend)", true},
		{"zh", "阿杰向我求婚了！！", "身边的人：阿杰（男朋友）", true},
		{"en", "my boss proposed a new plan", "", false},
	}
	for _, tt := range tests {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1}
		if tt.mem != "" {
			h.Memories = []string{tt.mem}
		}
		got := reply(t, o, h).Text
		said := slices.ContainsFunc(k.book["sit.proposal"][tt.lang], func(v string) bool {
			s, ok := fill(v, func(n string) string { return map[string]string{"person_name": "Daniel"}[n] })
			if tt.lang == langZH {
				s, ok = fill(v, func(n string) string { return map[string]string{"person_name": "阿杰"}[n] })
			}
			return ok && strings.Contains(got, s)
		})
		if said != tt.proposal || strings.Contains(got, "sounds important") || strings.Contains(got, "好像对你很重要") {
			t.Errorf("%q: reply %q; want a proposal congratulated: %v", tt.text, got, tt.proposal)
		}
	}
}

// TestOfflineADatedThingToldBeforeIsRemembered: "the exam is tomorrow"
// weeks after "I have my bar exam on March 12" (明天就考试了 after 我三月十二
// 号考研复试) is met as something she knew of, with good luck, not "Got
// it: your exam, tomorrow" as news; told for the first time, it is news.
func TestOfflineADatedThingToldBeforeIsRemembered(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	now := time.Date(2026, 3, 11, 20, 0, 0, 0, time.UTC)
	tests := []struct {
		lang, text, before string
		told               bool
	}{
		{"en", "the exam is tomorrow", "I have my bar exam on March 12", true},
		{"zh", "明天就考试了", "我三月十二号考研复试", true},
		{"ja", "明日が試験なんだ", "3月12日に司法試験がある", true},
		{"en", "the exam is tomorrow", "", false},
		{"en", "my interview is on Friday", "I have my bar exam on March 12", false},
	}
	for _, tt := range tests {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Now: now}
		if tt.before != "" {
			h.Recalled = []bot.Recollection{{Kind: "episode", At: now.AddDate(0, -2, 0), Text: tt.before}}
		}
		got := reply(t, o, h).Text
		told := false
		for _, v := range k.book["sit.ahead.again"][tt.lang] {
			prefix, _, _ := strings.Cut(v, "{")
			rest := v[strings.LastIndex(v, "}")+1:]
			told = told || strings.Contains(got, rest) && strings.HasPrefix(got, prefix)
		}
		if told != tt.told {
			t.Errorf("%q after %q: reply %q; want it met as told before: %v", tt.text, tt.before, got, tt.told)
		}
	}
}

// TestOfflineMeetsANewHobbyAndAGoal: "I've started learning the cello" and
// "my goal this year is to run a half marathon" (and in Chinese and
// Japanese) are met with interest and a question, not a listening noise;
// "learning the ropes" at work is no hobby.
func TestOfflineMeetsANewHobbyAndAGoal(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	tests := []struct{ lang, text, sit string }{
		{"en", "I've started learning the cello", "new_hobby"},
		{"zh", "我最近开始学大提琴", "new_hobby"},
		{"ja", "最近チェロを習い始めた", "new_hobby"},
		{"en", "my goal this year is to run a half marathon", "goal"},
		{"zh", "我今年的目标是跑一个半马", "goal"},
		{"ja", "今年の目標はハーフマラソンを走ること", "goal"},
		{"en", "still learning the ropes at the new job", ""},
	}
	for _, tt := range tests {
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1}).Text
		met := ""
		for _, s := range []string{"new_hobby", "goal"} {
			if slices.ContainsFunc(k.book["sit."+s][tt.lang], func(v string) bool { return strings.Contains(got, v) }) {
				met = s
			}
		}
		if met != tt.sit || tt.sit != "" && !endsAsking(got) {
			t.Errorf("%q: reply %q; want it met as %q with a question", tt.text, got, tt.sit)
		}
	}
}

// TestOfflineAnAgeIsOfTheOneTheMessageIntroduces: "our dog Luna died this
// morning. she was 14" from someone whose wife Sara she knows keeps Luna's
// age, not Sara's; "how old was Luna?" later names it.
func TestOfflineAnAgeIsOfTheOneTheMessageIntroduces(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text, mem string
		want            []rememberItem
	}{
		{"en", "our dog Luna died this morning. she was 14", "People: Sara (wife)", []rememberItem{{6, "Ages: Luna (14)"}, {3, "Pets: Luna (dog)"}}},
		{"zh", "我家的狗豆豆今天走了，它十四岁了", "身边的人：小美（老婆）", []rememberItem{{6, "年龄：豆豆（十四岁）"}, {3, "宠物：豆豆（狗）"}}},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Memories: []string{tt.mem}})
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q: remember = %s, want %v", tt.text, b, tt.want)
		}
	}
	h := bot.Hints{Language: "en", Text: "how old was Luna?", Turn: 1, Memories: []string{"Pets: Luna (dog)", "People: Sara (wife)", "Ages: Luna (14)"}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "14") {
		t.Errorf("how old was Luna: %q", got)
	}
}

// TestOfflineAnswersQuestionsThatSayNoRemember: "what am I scared of?",
// "where did I move to?", "what hobby did I pick up?", 我怕什么？, 何が怖い
// んだっけ？ ask what she keeps without a "do you remember": they are
// answered from it, not met with "breathe with me" or "what's your guess?".
func TestOfflineAnswersQuestionsThatSayNoRemember(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 4, 10, 20, 0, 0, 0, time.UTC)
	recalled := []string{"our dog Luna died this morning. she was 14", "I've been getting into pottery lately", "I found out I have type 2 diabetes"}
	tests := []struct {
		lang, text string
		mems       []string
		want       string
	}{
		{"en", "what am I scared of?", []string{"Afraid of: heights"}, "heights"},
		{"en", "where did I move to?", []string{"Lives in: Melbourne"}, "Melbourne"},
		{"en", "what hobby did I pick up?", nil, "pottery"},
		{"en", "do you remember what I found out about my health?", nil, "diabetes"},
		{"zh", "我怕什么？", []string{"害怕：狗"}, "狗"},
		{"zh", "我之前搬到哪了？", []string{"住在：成都"}, "成都"},
		{"ja", "何が怖いんだっけ？", []string{"怖いもの：犬"}, "犬"},
	}
	for _, tt := range tests {
		var rs []bot.Recollection
		if tt.lang == "en" {
			for _, s := range recalled {
				rs = append(rs, bot.Recollection{Kind: "episode", At: now.AddDate(0, -2, 0), Text: s})
			}
		}
		got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Now: now, Memories: tt.mems, Recalled: rs}).Text
		if !strings.Contains(strings.ToLower(got), strings.ToLower(tt.want)) {
			t.Errorf("%q: reply %q, want %q in it", tt.text, got, tt.want)
		}
	}
	// Told: a move by "we", and health news, met as such.
	resp := reply(t, o, bot.Hints{Language: "en", Text: "so we just moved to Melbourne for Sara's work", Turn: 1})
	if got, b := remembered(t, resp); fmt.Sprint(got) != fmt.Sprint([]rememberItem{{1, "Lives in: Melbourne"}}) {
		t.Errorf("we moved to Melbourne: remember = %s", b)
	}
	got := reply(t, o, bot.Hints{Language: "en", Text: "I found out I have type 2 diabetes", Turn: 1}).Text
	if !slices.ContainsFunc(o.loaded().book["sit.health_news"]["en"], func(v string) bool { return strings.Contains(got, v) }) {
		t.Errorf("health news: %q", got)
	}
}

// TestOfflineSecondProbeInChineseAndJapanese: what the second probe told
// in Chinese and Japanese and she lost or misread: a name after 叫我, a
// fear of heights said as 恐高, a wife's name in a sentence about the
// marriage (no proposal to her), a hobby one is hooked on (迷上了, ハマっ
// てる), health news from a check-up (no "glad to know the cause").
func TestOfflineSecondProbeInChineseAndJapanese(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	tests := []struct {
		lang, text string
		want       []rememberItem
		sit        string // the situation whose words answer, "" for any
	}{
		{"zh", "嗨，叫我阿明就好", []rememberItem{{0, "名字：阿明"}}, ""},
		{"zh", "我恐高，特别严重", []rememberItem{{8, "害怕：高"}}, "afraid_of"},
		{"ja", "妻のユミとは結婚して6年になる", []rememberItem{{5, "身近な人：ユミ（妻）"}}, ""},
		{"zh", "最近迷上了陶艺", nil, "new_hobby"},
		{"ja", "最近陶芸にハマってる", nil, "new_hobby"},
		{"ja", "健康診断で糖尿病が見つかった", nil, "health_news"},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Relationship: "stranger"})
		got, b := remembered(t, resp)
		said := tt.sit == "" || slices.ContainsFunc(k.book["sit."+tt.sit][tt.lang], func(v string) bool { return strings.Contains(resp.Text, v) })
		if fmt.Sprint(got) != fmt.Sprint(tt.want) || !said || strings.Contains(resp.Text, "お互いを知ろう") {
			t.Errorf("%q: reply %q, remember %s; want %v kept and sit.%s said", tt.text, resp.Text, b, tt.want, tt.sit)
		}
	}
	// Asked months later: the one that shares the question's words, and a
	// missing said once.
	h := bot.Hints{Language: "ja", Text: "今年何を勉強したいって言ったっけ？", Turn: 1, Recent: []bot.ChatMessage{
		{Role: "user", Content: "今年はスペイン語を勉強したい"}, {Role: "assistant", Content: "素敵な目標。"},
		{Role: "user", Content: "20日に運転免許の試験がある"}, {Role: "assistant", Content: "覚えておくね。"}}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "スペイン語") {
		t.Errorf("%q: reply %q, want the Spanish goal", h.Text, got)
	}
	h = bot.Hints{Language: "zh", Text: "我最近迷上了什么？", Turn: 1, Recent: []bot.ChatMessage{
		{Role: "user", Content: "最近迷上了陶艺"}, {Role: "assistant", Content: "学新东西真好！"}}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "陶艺") {
		t.Errorf("%q: reply %q, want the pottery", h.Text, got)
	}
	h = bot.Hints{Language: "ja", Text: "今日はハナに会いたい", Turn: 2, Felt: "lonely", Emotion: "lonely", MaxLength: 400, ProactiveQuestion: true,
		Memories: []string{"ペット：ハナ（犬）"}, Recent: []bot.ChatMessage{
			{Role: "user", Content: "うちの犬のハナが今朝死んじゃった。14歳だった"}, {Role: "assistant", Content: "つらいね。"}}}
	if got := reply(t, o, h).Text; len(sentences(got)) != len(slices.Compact(slices.Clone(sentences(got)))) {
		t.Errorf("%q: reply %q says a sentence twice", h.Text, got)
	}
}

// TestOfflineSmallTalkKnowsWhereTheUserLives: after "I moved to Porto",
// weather talk is Porto's ("Is that typical Porto weather?"), once a
// talk, and a friend's check-ins may ask how life in Porto is.
func TestOfflineSmallTalkKnowsWhereTheUserLives(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct{ lang, text, mem, city string }{
		{"en", "it's raining again", "Lives in: Porto", "Porto"},
		{"zh", "今天又下雨了", "住在：杭州", "杭州"},
		{"ja", "今日も雨だ", "住まい：大阪", "大阪"},
	} {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Memories: []string{tt.mem}}
		got := reply(t, o, h)
		if !strings.Contains(got.Text, tt.city) {
			t.Errorf("%q living in %s: reply %q", tt.text, tt.city, got.Text)
		}
		h.Recent = []bot.ChatMessage{{Role: "user", Content: tt.text}, {Role: "assistant", Content: got.Text}}
		if again := reply(t, o, h).Text; strings.Contains(again, tt.city) {
			t.Errorf("%q again in the same talk: %q names %s again", tt.text, again, tt.city)
		}
	}
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	named := false
	for d := range 7 {
		h := bot.Hints{Language: "en", User: "Jo", Relationship: "friend", Silence: 30 * time.Hour, Now: now.AddDate(0, 0, d),
			Memories: []string{"Lives in: Porto"}}
		if _, msg := checkIn(t, o, h); strings.Contains(msg, "Porto") {
			named = true
		}
	}
	if !named {
		t.Error("a week of a friend's check-ins never asked after life in Porto")
	}
}

// TestOfflineRecallBlockReadsNothingIntoEverydayWords: the recall block's
// situations stay out of everyday words that hold theirs: a day a task
// took up, learning to accept something, a week at school, a child's
// lessons, a dream of the night, a bug found in the code, a plan a boss
// proposed, furniture and a meeting moved, a mother's diagnosis.
func TestOfflineRecallBlockReadsNothingIntoEverydayWords(t *testing.T) {
	o := NewOffline()
	o.loaded()
	mine := []string{"afraid_of", "moved", "proposal", "new_hobby", "goal", "health_news", "recall_asked"}
	for _, tt := range []struct{ lang, text string }{
		{"en", "the report took up my whole day"},
		{"en", "my boss proposed a new plan"},
		{"en", "we moved the meeting to Friday"},
		{"zh", "我开始学着接受这件事"},
		{"zh", "最近在学校好累"},
		{"zh", "代码里的bug终于查出来了"},
		{"ja", "子供がピアノを習ってる"},
		{"ja", "昨日の夢は怖かった"},
		{"ja", "母が先週乳がんと診断された"},
	} {
		for _, s := range o.view(bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1}).sits {
			if slices.Contains(mine, s.Name) {
				t.Errorf("%q read as %s", tt.text, s.Name)
			}
		}
	}
}
