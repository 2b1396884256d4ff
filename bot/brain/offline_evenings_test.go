package brain

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/bot"
)

// eveningAt is a weekday evening in the persona's time zone (UTC in the
// tests): the hour a person living alone writes a line about the day.
var eveningAt = time.Date(2026, 3, 4, 20, 30, 0, 0, time.UTC)

// listening is what she says when nothing better fits (phrases listen,
// listen.low, the themes' own reactions): an everyday line about the day
// is answered with none of these.
func listening(k *knowledge, lang string) []string {
	var out []string
	for _, key := range []string{"listen", "listen.low", "listen.topic.work", "listen.topic.food", "listen.topic.weather", "listen.topic.family", "listen.topic.food.sore"} {
		out = append(out, k.book[key][lang]...)
	}
	return out
}

// TestOfflineEverydayEveningIsAnsweredForWhatItIs: the lines a widower,
// an old woman in Japan, a student abroad and a night-shift worker write
// about their day are answered about that day (situations.yaml day_*),
// not with a listening noise ("I'm here.", "Mm-hm.") or a misread theme
// ("the garden needs work" got "Work takes up so much of us, doesn't
// it?", "ate dinner alone" "Missing a meal like that is a real letdown").
func TestOfflineEverydayEveningIsAnsweredForWhatItIs(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	for _, tt := range []struct{ lang, text, sit string }{
		{"en", "evening. made soup", "day_cooked"},
		{"en", "evening again. rained all day", "day_rain"},
		{"en", "went to the shop", "day_errand"},
		{"en", "went to the bank and the post office", "day_errand"},
		{"en", "quiet day", "day_quiet"},
		{"en", "another evening", "day_another"},
		{"en", "my son called", "day_family_call"},
		{"en", "grandkids called", "day_family_call"},
		{"en", "talked to my daughter on the phone for an hour", "day_family_call"},
		{"en", "the garden needs work", "day_garden_work"},
		{"en", "mowed the lawn", "day_garden_work"},
		{"en", "watched the news", "day_news"},
		{"en", "watched a western on tv", "day_tv"},
		{"en", "went for a walk", "day_walk"},
		{"en", "walked down to the river", "day_walk"},
		{"en", "nothing much today", "day_nothing"},
		{"en", "didn't do much", "day_nothing"},
		{"en", "fed the cat", "day_pet"},
		{"en", "ate dinner alone", "day_meal_alone"},
		{"en", "had toast for dinner", "day_meal"},
		{"en", "did the laundry", "day_housework"},
		{"en", "cold today", "day_chilly"},
		{"en", "sunny today", "day_sun"},
		{"en", "windy today", "day_wind"},
		{"en", "just got off shift", "day_shift_done"},
		{"en", "slept most of the day", "day_slept"},
		{"en", "my neighbour brought over a pie", "day_kindness"},
		{"en", "fixed the gate", "day_fixed"},
		{"en", "did a crossword", "day_puzzle"},
		{"en", "went to church", "day_church"},
		{"en", "sat in the garden for a bit", "day_sat_out"},
		{"en", "my son called, he can't come for Easter", "day_letdown"},
		{"en", "heading to work soon", "day_to_work"},
		{"en", "had a bath and went to bed", "day_rest"},
		{"en", "made myself some eggs", "day_cooked"},
		{"en", "took the bins out", "day_housework"},
		{"en", "got a text from my sister", "day_family_call"},
		{"en", "foggy this morning", "day_grey"},
		{"en", "day off today", "day_off"},
		{"en", "just had a cup of tea", "day_cuppa"},
		{"en", "read a book", "day_reading"},
		{"en", "listened to the radio", "day_radio"},
		{"en", "hot today", "day_hot"},
		{"en", "pretty boring day", "day_nothing"},
		{"en", "not much to say tonight", "day_nothing"},
		{"en", "anyway, night", "goodnight"},
		{"en", "ok night luna", "goodnight"},
		{"en", "the dog next door barked all day", "annoyance"},
		{"zh", "今天没什么好说的", "day_nothing"},
		{"ja", "今日は特に話すこともないです", "day_nothing"},
		{"en", "storm tonight", "day_wind"},
		{"en", "survived another one", "day_another"},
		{"en", "played cribbage with Stan", "day_played"},
		{"en", "went to the seniors center", "day_center"},
		{"en", "put flowers on her grave", "day_altar"},
		{"zh", "今天实验室待到很晚", "day_study"},
		{"zh", "下了一天的雪", "day_chilly"},
		{"zh", "晚饭吃了泡面", "day_meal"},
		{"zh", "收到了家里寄的快递", "day_parcel"},
		{"zh", "今天啥也没干，躺了一天", "day_nothing"},
		{"zh", "跟同学打了会儿球", "day_played"},
		{"zh", "刚洗完澡", "day_rest"},
		{"zh", "买了束花", "day_treat"},
		{"ja", "お昼はおうどんを食べました", "day_meal"},
		{"ja", "孫から手紙が届きました", "day_family_call"},
		{"ja", "今日は何もしませんでした", "day_nothing"},
		{"ja", "夕方、少し歩きました", "day_walk"},
		{"ja", "仏壇にお花をあげました", "day_altar"},
		{"ja", "ラジオを聴いていました", "day_radio"},
		{"ja", "今日はデイサービスの日でした", "day_center"},
		{"ja", "縁側でひなたぼっこをしました", "day_sat_out"},
		{"ja", "お隣さんがおすそ分けをくださいました", "day_kindness"},
		{"en", "made Ruth's favourite stew", "day_cooked_theirs"},
		{"en", "didn't talk to anyone today", "day_no_talk"},
		{"en", "had coffee with a friend", "day_friend"},
		{"en", "bit under the weather", "day_under_weather"},
		{"ja", "主人の好きだった煮物を作りました", "day_cooked_theirs"},
		{"ja", "お友達とお茶を飲みに行きました", "day_friend"},
		{"ja", "少し風邪気味です", "day_under_weather"},
		{"ja", "一日、家で過ごしました", "day_quiet"},
		{"zh", "今天没怎么说话", "day_no_talk"},
		{"zh", "食堂的饭好难吃", "day_bad_food"},
		{"zh", "今天做了红烧肉", "day_cooked"},
		{"en", "the heating broke", "day_house_trouble"},
		{"en", "the birds were singing this morning", "day_nature"},
		{"en", "did some knitting", "day_craft"},
		{"en", "looked at old photos", "day_photos"},
		{"en", "woke up at 4 again", "day_woke_early"},
		{"en", "went to the dentist", "day_appointment"},
		{"en", "went to the library", "day_reading"},
		{"en", "wrote a letter to my sister", "day_family_call"},
		{"en", "chatted with my neighbour", "day_neighbour"},
		{"zh", "停电了", "day_house_trouble"},
		{"zh", "又是四点就醒了", "day_woke_early"},
		{"zh", "去图书馆借了书", "day_reading"},
		{"ja", "また四時に目が覚めました", "day_woke_early"},
		{"ja", "古い写真を見ていました", "day_photos"},
		{"ja", "お隣さんとおしゃべりしました", "day_neighbour"},
		{"ja", "妹に手紙を書きました", "day_family_call"},
		{"ja", "お花に水をあげました", "day_garden_work"},
		{"en", "it's been a long week", "day_week_done"},
		{"en", "the washing machine broke", "day_house_trouble"},
		{"en", "had leftovers", "day_meal"},
		{"en", "went to the garden centre", "day_errand"},
		{"zh", "今天考完试了", "day_exam_done"},
		{"zh", "今天发工资了", "day_payday"},
		{"zh", "今天没出门", "day_quiet"},
		{"zh", "今天吃了食堂", "day_meal"},
		{"ja", "ご近所の方にみかんをいただきました", "day_kindness"},
		{"ja", "夕方から雨になりました", "day_rain"},
		{"ja", "風が冷たかったです", "day_chilly"},
		{"zh", "今天下了一天雨", "day_rain"},
		{"zh", "刚下课", "day_class_done"},
		{"zh", "去超市买了点菜", "day_errand"},
		{"zh", "今天自己做了番茄炒蛋", "day_cooked"},
		{"zh", "和我妈视频了", "day_family_call"},
		{"zh", "我爸给我打电话了", "day_family_call"},
		{"zh", "今天没干啥", "day_nothing"},
		{"zh", "一个人吃的晚饭", "day_meal_alone"},
		{"zh", "打扫了一下房间", "day_housework"},
		{"zh", "出去散了散步", "day_walk"},
		{"zh", "看了一晚上剧", "day_tv"},
		{"zh", "今天挺平静的", "day_quiet"},
		{"zh", "今天出太阳了", "day_sun"},
		{"zh", "今天好冷", "day_chilly"},
		{"zh", "在图书馆待了一天", "day_study"},
		{"zh", "包了饺子", "day_cooked"},
		{"ja", "今日は一日中雨でした", "day_rain"},
		{"ja", "スーパーに買い物に行きました", "day_errand"},
		{"ja", "お味噌汁を作りました", "day_cooked"},
		{"ja", "息子から電話がありました", "day_family_call"},
		{"ja", "庭の草むしりをしました", "day_garden_work"},
		{"ja", "テレビで時代劇を見ていました", "day_tv"},
		{"ja", "近所を散歩してきました", "day_walk"},
		{"ja", "特に何もない一日でした", "day_nothing"},
		{"ja", "猫にご飯をあげました", "day_pet"},
		{"ja", "一人で夕飯をいただきました", "day_meal_alone"},
		{"ja", "静かな一日でした", "day_quiet"},
		{"ja", "洗濯物を干しました", "day_housework"},
		{"ja", "今日は寒かったです", "day_chilly"},
		{"ja", "今日はいいお天気でした", "day_sun"},
		{"ja", "煮物を作りました", "day_cooked"},
	} {
		h := bot.Hints{Language: tt.lang, User: "Walt", Text: tt.text, Turn: 9, Now: eveningAt, Relationship: "friend", MaxLength: 300}
		lead := o.view(h).lead()
		got := reply(t, o, h).Text
		if lead == nil || lead.Name != tt.sit {
			name := "none"
			if lead != nil {
				name = lead.Name
			}
			t.Errorf("%s %q: read as %s, want %s (reply %q)", tt.lang, tt.text, name, tt.sit, got)
			continue
		}
		noise := map[string]bool{}
		for _, l := range listening(k, tt.lang) {
			for _, sent := range sentences(strings.ReplaceAll(l, "{user}", "Walt")) {
				noise[normSentence(sent)] = true
			}
		}
		if !slices.ContainsFunc(sentences(got), func(s string) bool { return !noise[normSentence(s)] }) {
			t.Errorf("%s %q: reply %q is only listening lines", tt.lang, tt.text, got)
		}
	}
}

// TestOfflineEverydayEveningIsNotMisread: lines that look like an
// everyday one and are not: a parent who called her names, a call that
// brought bad news, a film with a friend, "I'm cooked", a rain check.
func TestOfflineEverydayEveningIsNotMisread(t *testing.T) {
	o := NewOffline()
	o.loaded()
	for _, tt := range []struct{ lang, text, not string }{
		{"en", "my mom called me fat", "day_family_call"},
		{"en", "my son called, he can't come for Easter", "day_family_call"},
		{"en", "ugh I'm so cooked for this exam", "day_cooked"},
		{"en", "can I take a rain check on tonight", "day_rain"},
		{"en", "the garden needs work", "work"},
		{"ja", "友達と映画を見たよ", "day_tv"},
		{"zh", "我妈打电话来骂我", "day_family_call"},
		{"zh", "今天做了作业", "day_cooked"},
		{"zh", "老板把我炒了", "day_cooked"},
		{"zh", "做了个噩梦", "day_cooked"},
	} {
		h := bot.Hints{Language: tt.lang, User: "Walt", Text: tt.text, Turn: 9, Now: eveningAt}
		v := o.view(h)
		for _, s := range v.sits {
			if s.Name == tt.not {
				t.Errorf("%s %q: read as %s", tt.lang, tt.text, tt.not)
			}
		}
		for _, tp := range v.topics {
			if tp.Tag == tt.not {
				t.Errorf("%s %q: read as the theme %s", tt.lang, tt.text, tt.not)
			}
		}
	}
}

// TestOfflineBereavedQuietDayIsNeverCheerful: a widower's quiet, empty
// day a few evenings after telling her his wife died is met quietly (the
// low forms), never "Quiet ones are nice too." or "A calm day has its
// charm.".
func TestOfflineBereavedQuietDayIsNeverCheerful(t *testing.T) {
	o := NewOffline()
	recent := map[string][]bot.ChatMessage{
		"en": {{Role: "user", Content: "my wife Ruth died in January"}, {Role: "assistant", Content: "I'm so sorry, Walt."},
			{Role: "user", Content: "the house is quiet without her"}, {Role: "assistant", Content: "I'm here with you."}},
		"zh": {{Role: "user", Content: "我老伴今年一月走了，家里就剩我一个"}, {Role: "assistant", Content: "我很难过。"}},
		"ja": {{Role: "user", Content: "主人を三年前に亡くしてから一人暮らしです"}, {Role: "assistant", Content: "つらかったね。"}},
	}
	for _, tt := range []struct {
		lang, text string
		cheer      []string
	}{
		{"en", "quiet day", []string{"nice", "charm", "lovely", "restful"}},
		{"en", "not much", []string{"nice", "charm", "lovely", "allowed"}},
		{"en", "nothing much today", []string{"nice", "charm", "lovely", "story"}},
		{"zh", "今天挺平静的", []string{"挺好", "不错", "休息"}},
		{"zh", "今天没干啥", []string{"挺好", "不错", "故事"}},
		{"ja", "静かな一日でした", []string{"いいよね", "悪くない", "ほっと"}},
		{"ja", "特に何もない一日でした", []string{"いいよね", "悪くない", "何かなくても"}},
	} {
		h := bot.Hints{Language: tt.lang, User: "Walt", Text: tt.text, Turn: 3, Now: eveningAt, Recent: recent[tt.lang]}
		got := reply(t, o, h).Text
		for _, w := range tt.cheer {
			if strings.Contains(strings.ToLower(got), w) {
				t.Errorf("%s %q after a death: reply %q is cheerful (%q)", tt.lang, tt.text, got, w)
			}
		}
	}
}

// TestOfflineEveningsDifferFromDayToDay: the same line on evenings in a
// row ("rained all day", "fed the cat") is not met with the same words
// each time.
func TestOfflineEveningsDifferFromDayToDay(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct{ lang, text string }{
		{"en", "rained all day"},
		{"en", "fed the cat"},
		{"en", "went for a walk"},
		{"zh", "又下雨了"},
		{"ja", "息子から電話がありました"},
	} {
		var recent []bot.ChatMessage
		seen := map[string]bool{}
		for day := range 3 {
			h := bot.Hints{Language: tt.lang, User: "Walt", Text: tt.text, Turn: 2*day + 1, Now: eveningAt.AddDate(0, 0, day), Recent: recent}
			got := reply(t, o, h).Text
			first := sentences(got)[0]
			if seen[first] {
				t.Errorf("%s %q on day %d: %q again", tt.lang, tt.text, day+1, first)
			}
			seen[first] = true
			recent = append(recent, bot.ChatMessage{Role: "user", Content: tt.text}, bot.ChatMessage{Role: "assistant", Content: got})
		}
	}
}

// TestOfflineEverydayLineGivesWayToWhatIsHard: an everyday line carrying
// something hard, or asking her, is not met with the everyday remark: "I
// walked to the bridge tonight and thought about jumping" got "Good.
// Fresh air does something for a day.", "is it raining where you are?"
// a remark on his rain, "went for a walk but I still feel awful" cheer.
func TestOfflineEverydayLineGivesWayToWhatIsHard(t *testing.T) {
	o := NewOffline()
	for _, tt := range []struct {
		lang, text, felt string
		risk             bool
		not              []string
	}{
		{"en", "I walked to the bridge tonight and thought about jumping", "", false, []string{"fresh air", "walk"}},
		{"en", "walked to the river", "", true, []string{"fresh air", "walk is good", "got out"}},
		{"en", "is it raining where you are?", "", false, []string{"rainy weather", "wet weather", "house feel small"}},
		{"en", "did you have a quiet day?", "", false, []string{"a quiet one", "quiet days have"}},
		{"en", "went for a walk but I still feel awful", "sad", false, []string{"fresh air", "walk is good", "got out"}},
		{"en", "went for a walk. I feel awful", "sad", false, []string{"fresh air", "walk is good", "got out"}},
		{"en", "fed the cat. so tired of everything", "sad", false, []string{"lucky to have you", "routines", "picturing"}},
		{"en", "had pills for dinner", "", false, []string{"glad you ate"}},
		{"en", "slept all day again, can't get out of bed", "", false, []string{"rested", "body needed"}},
		{"en", "I'm so baked lol", "", false, []string{"homemade", "cooking"}},
		{"zh", "出去散了散步，还是很难受", "sad", false, []string{"吹吹风", "换换脑子", "真好"}},
		{"ja", "散歩しましたが、やっぱりつらいです", "sad", false, []string{"すっきり", "元気が出る"}},
	} {
		h := bot.Hints{Language: tt.lang, User: "Sam", Text: tt.text, Felt: tt.felt, Risk: tt.risk, Turn: 9, Now: eveningAt}
		got := strings.ToLower(reply(t, o, h).Text)
		for _, w := range tt.not {
			if strings.Contains(got, strings.ToLower(w)) {
				t.Errorf("%s %q: reply %q says %q", tt.lang, tt.text, got, w)
			}
		}
	}
}

// TestOfflineSadEverydayLineKeepsItsWords: a sad everyday line told with
// its feeling ("ate alone again, nobody ever eats with me") is answered
// as that line, not as a meal missed ("Oh, that's a shame. You were
// looking forward to it.").
func TestOfflineSadEverydayLineKeepsItsWords(t *testing.T) {
	o := NewOffline()
	h := bot.Hints{Language: "en", User: "Sam", Text: "ate alone again, nobody ever eats with me", Felt: "lonely", Turn: 9, Now: eveningAt}
	got := reply(t, o, h).Text
	if strings.Contains(got, "looking forward") || !strings.Contains(strings.ToLower(got), "yourself") && !strings.Contains(strings.ToLower(got), "alone") && !strings.Contains(strings.ToLower(got), "on your own") {
		t.Errorf("%q: reply %q", h.Text, got)
	}
}
