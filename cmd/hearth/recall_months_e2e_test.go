package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// recallCheck is what one reply of a probe script must say: one of any
// (case-insensitive; anything when it is empty), none of none.
type recallCheck struct {
	said      string // the user's message the reply answers
	any, none []string
}

// recallProbes are testdata/recall's scripts and what their replies must
// say: what was told weeks and months before, asked after directly and
// met again in passing, in English, Chinese and Japanese.
var recallProbes = map[string][]recallCheck{
	// The people and things told in passing. A fellow named at
	// the seniors center asked after by what was done with him, then home
	// from hospital; pills asked after; a granddaughter's recital told as
	// "her recital"; a newborn named; 他已经走了 read by the talk before it.
	"passing_en.yaml": {
		{said: "went to the seniors center today, played cards with a fellow named Stan", any: []string{"Stan"}, none: []string{"your acquaintance"}},
		{said: "who did I play cards with?", any: []string{"Stan"}},
		{said: "right. Stan is in hospital, his heart", any: []string{"Stan"}, none: []string{"rest as much", "holding up"}},
		{said: "Stan is home now", any: []string{"hospital", "relief"}, none: []string{"these days", "right here"}},
		{said: "what meds am I on again?", any: []string{"lisinopril"}},
		{said: "her recital is on friday", any: []string{"Emma's recital"}, none: []string{"your recital"}},
		{said: "big news. my grandson had a baby boy, they named him Leo", any: []string{"Leo"}, none: []string{"baby's name?"}},
		{said: "what's the baby's name again?", any: []string{"Leo"}, none: []string{"know you better", "only just met"}},
		{said: "who is Stan again?", any: []string{"Stan"}, none: []string{"your acquaintance", "not sure", "don't know"}},
		{said: "he's gone", any: []string{"sorry"}, none: []string{"right here with you"}},
	},
	"passing_zh.yaml": {
		{said: "我跟谁打牌来着？", any: []string{"老王"}},
		{said: "老王回家了", any: []string{"出院", "回家了呀"}, none: []string{"欢迎回家"}},
		{said: "我吃的什么药来着", any: []string{"氨氯地平"}},
		{said: "她的钢琴演出在周五", any: []string{"朵朵的演出"}, none: []string{"你的演出"}},
		{said: "我女儿叫什么？", any: []string{"朵朵"}},
		{said: "他已经走了", any: []string{"走了"}, none: []string{"节哀", "抱歉", "沉重", "难过"}},
		{said: "他还是走了", any: []string{"节哀", "抱歉", "沉重", "难过"}},
	},
	"passing_ja.yaml": {
		{said: "誰と将棋を指したんだっけ？", any: []string{"山田"}},
		{said: "山田さんが家に帰ってきました", any: []string{"退院", "家に戻れた"}, none: []string{"おかえり"}},
		{said: "何の薬飲んでるんだっけ", any: []string{"アムロジピン"}},
		{said: "赤ちゃんの名前、覚えてる？", any: []string{"ゆうと"}},
	},
	// Health and a family in Chinese. A daughter's first day at
	// kindergarten said as hers, a return in the user's words, a medicine
	// recalled, a fear kept clean, a strict mother-in-law's praise met as
	// the surprise it is, a sister's exam passed congratulated as hers.
	"months4_zh.yaml": {
		{said: "我女儿朵朵下周一上幼儿园", any: []string{"你女儿"}},
		{said: "我婆婆叫张阿姨，对我特别挑剔", any: []string{"张阿姨"}},
		{said: "好久不见", any: []string{"好久不见"}, none: []string{"嗯哼"}},
		{said: "你还记得我在吃什么药吗？", any: []string{"舍曲林"}},
		{said: "我怕什么？", any: []string{"副作用"}},
		{said: "张阿姨今天居然夸我了", any: []string{"严", "挑剔"}, none: []string{"我在呢"}},
		{said: "我妹妹通过了司法考试", any: []string{"恭喜", "妹妹"}, none: []string{"你的付出", "你应得"}},
	},
	// A 74-year-old widow's six weeks, in polite Japanese: her
	// garden and a typhoon, sore knees, her son in Seattle, a hospital
	// visit, her neighbour's death and the quiet of the nights.
	"life_setsuko_ja.yaml": {
		{said: "おはようございます。庭のバラが咲きました", any: []string{"すてき", "よかった", "育て"}},
		{said: "膝が痛くて…", any: []string{"無理しない", "ゆっくり", "のんびり"}, none: []string{"なるほど", "がんばった証拠"}},
		{said: "雨の日はいつもこうなんです", none: []string{"発想", "面白い"}},
		{said: "台風で庭がめちゃくちゃになりました", any: []string{"つらい", "こたえる", "しんどい", "大変"}, none: []string{"左右する", "聞くの好き", "色を変える"}},
		{said: "四十年のお付き合いでした", any: []string{"四十年", "長い"}, none: []string{"恋愛", "ふたり"}},
		{said: "夜、一人でいると心細くて…", any: []string{"心細", "ひとり", "ここにいる"}},
		{said: "転んでしまいました", any: []string{"痛めて", "けが", "大丈夫"}},
		{said: "新しいバラの苗を植えました", any: []string{"すてき", "よかった", "育て"}, none: []string{"一緒にいるよ"}},
		{said: "息子のこと、覚えていますか？", any: []string{"息子", "お盆", "電話", "シアトル"}},
	},
	// Lived probes, round four. A bullied teen who comes out and
	// is in Watch after a crisis turn; a new mother with postpartum
	// depression.
	"life_kai_en.yaml": {
		{said: "these guys in my class keep calling me gay in the hallway", any: []string{"not your fault", "deserve", "not okay", "cruel"}, none: []string{"school takes"}},
		{said: "dont tell me to tell a teacher lol they dont care", any: []string{"listen"}, none: []string{"lovely"}},
		{said: "i think i actually am gay", any: []string{"thank", "trust", "courage"}, none: []string{"go on"}},
		{said: "they tripped me in the cafeteria today and everyone laughed", any: []string{"not your fault", "deserve", "not okay", "cruel", "about them"}},
		{said: "what if he hates me", any: []string{"worr", "weigh", "what-if"}, none: []string{"interesting thought", "taking it seriously", "brush past"}},
		{said: "she cried but she said she loves me no matter what", none: []string{"taking it seriously", "brush past", "holding up, honestly"}},
		{said: "HIT PLAT", none: []string{"taking it seriously", "brush past", "holding up, honestly"}},
		{said: "gn luna", none: []string{"taking it seriously", "brush past", "holding up, honestly"}},
		// A name typed in lowercase is his name.
		{said: "ok cool. im kai. i play a lot of valorant", any: []string{"Kai"}},
	},
	"life_xiaoya_zh.yaml": {
		{said: "医生说恢复得还行，但是让我做了个产后抑郁的量表，分数有点高", any: []string{"妈妈", "照顾", "帮"}, none: []string{"太好了", "松了口气"}},
		{said: "有时候看着朵朵，我感觉不到爱，只觉得累，这正常吗", any: []string{"妈妈"}, none: []string{"你猜", "值得想想"}},
		{said: "在儿科急诊排队，好多人", any: []string{"揪心", "担心", "医生", "撑得住"}},
		{said: "你还记得我女儿叫什么吗？", any: []string{"朵朵"}},
	},
	// A widower's three months: his wife's death told in his words, and
	// remembered as a death ever after.
	"grief_en.yaml": {
		{said: "I'm Walter. my wife Ruth passed in January", any: []string{"sorry"}, none: []string{"I'll remember"}},
		{said: "we were married 51 years", any: []string{"together", "side by side"}, none: []string{"get to know"}},
		{said: "good evening", any: []string{"evening"}, none: []string{"morning"}},
		{said: "I made Ruth's soup today but it didn't taste right", none: []string{"how is ruth", "these days"}, any: []string{"Ruth"}},
		{said: "he says my heart is ok for an old man", none: []string{"Mike"}, any: []string{"news", "relief"}},
		{said: "went to the seniors center today. played cribbage", none: []string{"appointment"}, any: []string{"games", "cribbage", "center"}},
		{said: "first time I laughed in a while", any: []string{"glad", "good to hear"}},
		{said: "it would have been Ruth's birthday today", any: []string{"miss", "think", "remember"}, none: []string{"happy birthday", "how is"}},
		{said: "sorry I haven't written. Mike and the kids visited", none: []string{"birthday"}, any: []string{"lovely", "good to hear", "company"}},
		{said: "made Ruth's soup again. closer this time", none: []string{"how is ruth", "these days", "happy birthday"}, any: []string{"Ruth"}},
	},
	// The same widower weeks on, the telling long out of the recent talk:
	// the loss is kept, so a quiet day is still met gently.
	"grief_weeks_en.yaml": {
		{said: "my wife Ruth passed in January", any: []string{"sorry"}},
		{said: "not much", none: []string{"Quiet ones", "calm day", "Same old"}},
		{said: "made Ruth's soup today", any: []string{"Ruth"}, none: []string{"how is ruth", "these days"}},
		{said: "tomorrow would have been Ruth's birthday", any: []string{"tomorrow", "Tomorrow"}, none: []string{"today", "happy birthday"}},
		{said: "I don't know how much more of this I can take", any: []string{"heavy", "painful", "hurts", "here"}, none: []string{"Go on", "Mm."}},
	},
	"grief_ja.yaml": {
		{said: "こんばんは。孫が設定してくれました", any: []string{"こんばんは"}, none: []string{"おはよう"}},
		{said: "妻の和子は一月に亡くなりました", any: []string{"お悔やみ", "残念", "つらかった", "胸が痛"}, none: []string{"覚えておくね"}},
		{said: "結婚して五十年でした", any: []string{"一緒"}, none: []string{"お互いを知ろう"}},
		{said: "今日は和子の味噌汁を作ってみたけど、同じ味にならない", any: []string{"和子"}, none: []string{"最近どう"}},
		{said: "病院から帰りました。先生は心臓は大丈夫だと", none: []string{"旦那さん"}, any: []string{"よかった", "安心", "ほっと", "知らせ"}},
		{said: "今日は和子の誕生日だったはずです", any: []string{"思い", "会いたい", "そば"}, none: []string{"おめでとう", "最近どう"}},
		{said: "息子の家族が来てくれました", any: []string{"よかった", "にぎやか", "うれしい"}, none: []string{"誕生日"}},
		{said: "また和子の味噌汁を作りました", any: []string{"和子"}, none: []string{"最近どう", "おめでとう"}},
	},
	"months1_en.yaml": {
		{said: "do you remember my cat's name?", any: []string{"Pepper"}},
		{said: "what's my boyfriend's name?", any: []string{"Daniel"}},
		{said: "do you remember what happened to my grandpa?", any: []string{"passed away"}, none: []string{"😊", "✨", "🌸"}},
		{said: "when is my exam?", any: []string{"March 12"}},
		{said: "do you remember what I'm afraid of?", any: []string{"dogs"}, none: []string{"grandpa"}},
		{said: "where do I live?", any: []string{"Lisbon"}},
		{said: "do you remember what instrument I'm learning?", any: []string{"cello"}},
		{said: "what was my goal for this year?", any: []string{"half marathon"}},
		{said: "do you remember my diagnosis?", any: []string{"ADHD"}},
		{said: "the exam is tomorrow", any: []string{"luck"}},
		{said: "Pepper is sick", any: []string{"Pepper"}},
		{said: "Daniel proposed!!", any: []string{"congratulations"}, none: []string{"sounds important"}},
		{said: "I ran 15km today", any: []string{"half marathon"}},
		{said: "a dog chased me on the street today", any: []string{"afraid of dogs", "about dogs"}},
	},
	"months1_zh.yaml": {
		{said: "你还记得我家猫叫什么吗？", any: []string{"年糕"}},
		{said: "我男朋友叫什么？", any: []string{"阿杰"}},
		{said: "你还记得我外婆的事吗？", any: []string{"去世"}, none: []string{"😊", "✨", "🌸"}},
		{said: "我什么时候考试来着？", any: []string{"三月十二号"}},
		{said: "你还记得我怕什么吗？", any: []string{"狗"}},
		{said: "我住在哪？", any: []string{"成都"}},
		{said: "你还记得我在学什么乐器吗？", any: []string{"大提琴"}},
		{said: "你还记得我的诊断吗？", any: []string{"焦虑症"}},
		{said: "你都记得我什么？", any: []string{"阿杰"}, none: []string{"住在：哪"}},
		{said: "明天就考试了", any: []string{"记得", "记着"}},
		{said: "阿杰向我求婚了！！", any: []string{"恭喜"}},
		{said: "我今天跑了15公里", any: []string{"半马"}},
		{said: "今天在街上被一只狗追", any: []string{"怕狗"}},
	},
	"months1_ja.yaml": {
		{said: "うちの猫の名前覚えてる？", any: []string{"モチ"}},
		{said: "彼氏の名前覚えてる？", any: []string{"ケン"}},
		{said: "試験っていつだっけ？", any: []string{"3月12日"}},
		{said: "私が何を怖がってるか覚えてる？", any: []string{"犬"}},
		{said: "私どこに住んでるか覚えてる？", any: []string{"福岡"}},
		{said: "何の楽器を習ってるか覚えてる？", any: []string{"チェロ"}},
		{said: "私の診断のこと覚えてる？", any: []string{"ADHD"}},
		{said: "明日が試験なんだ", any: []string{"応援", "がんばって"}},
		{said: "モチが病気なの", any: []string{"モチ"}},
		{said: "ケンにプロポーズされた！！", any: []string{"おめでとう"}},
		{said: "今日15キロ走った", any: []string{"ハーフマラソン"}},
		{said: "今日道で犬に追いかけられた", any: []string{"犬が"}},
	},
	"months2_en.yaml": {
		{said: "what's my wife's name again?", any: []string{"Sara"}},
		{said: "do you remember my dog?", any: []string{"Luna"}},
		{said: "how old was Luna?", any: []string{"14"}},
		{said: "what am I scared of?", any: []string{"heights"}},
		{said: "where did I move to?", any: []string{"Melbourne"}},
		{said: "do you remember what I found out about my health?", any: []string{"diabetes"}, none: []string{"earlier"}},
		{said: "what hobby did I pick up?", any: []string{"pottery"}},
		{said: "do you remember what I wanted to learn this year?", any: []string{"Spanish"}},
		{said: "what do you know about me?", any: []string{"Luna (14)"}, none: []string{"Sara (14)"}},
		{said: "we're going hiking up a mountain tomorrow", any: []string{"heights"}},
		{said: "Sara got promoted!", any: []string{"Sara"}, none: []string{"you earned", "you've been putting", "your hard work"}},
		{said: "I made my first bowl on the wheel", any: []string{"pottery"}},
		{said: "hola! estoy aprendiendo", any: []string{"Spanish"}},
		{said: "my blood sugar was high today", any: []string{"diabetes"}},
	},
	"months2_zh.yaml": {
		{said: "我老婆叫什么来着？", any: []string{"小芳"}},
		{said: "旺财几岁了？", any: []string{"十四"}},
		{said: "我怕什么？", any: []string{"怕高"}},
		{said: "我搬到哪了？", any: []string{"深圳"}},
		{said: "你还记得我体检查出什么吗？", any: []string{"糖尿病"}, none: []string{"之前"}},
		{said: "我最近迷上了什么？", any: []string{"陶艺"}},
		{said: "我今年想学什么来着？", any: []string{"西班牙语"}},
		{said: "明天要去爬山", any: []string{"怕高"}},
		{said: "小芳升职了！", any: []string{"小芳"}, none: []string{"你的付出", "恭喜你", "你应得"}},
		{said: "我做出了第一个碗", any: []string{"陶艺"}},
		{said: "今天血糖有点高", any: []string{"糖尿病"}},
	},
	"months2_ja.yaml": {
		{said: "妻の名前覚えてる？", any: []string{"ユミ"}},
		{said: "私が何を怖がってるか覚えてる？", any: []string{"高いところ"}},
		{said: "どこに引っ越したか覚えてる？", any: []string{"名古屋"}},
		{said: "健康診断で何が見つかったか覚えてる？", any: []string{"糖尿病"}, none: []string{"前に"}},
		{said: "最近何にハマってるって言ったっけ？", any: []string{"陶芸"}},
		{said: "今年何を勉強したいって言ったっけ？", any: []string{"スペイン語"}},
		{said: "明日山に登るんだ", any: []string{"高いところ"}},
		{said: "ユミが昇進した！", any: []string{"ユミ"}, none: []string{"あなたがつかんだ", "ちゃんと見てくれてた"}},
		{said: "初めてお皿を作った", any: []string{"陶芸"}},
		{said: "今日血糖値が高かった", any: []string{"糖尿病"}},
	},
	"months3_en.yaml": {
		{said: "what's my daughter's name?", any: []string{"Lily"}},
		{said: "what am I scared of?", any: []string{"the dark"}, none: []string{"dark too"}},
		{said: "Lily is going to a birthday party with lots of snacks tomorrow", none: []string{"your birthday"}, any: []string{"Lily", "party"}},
		{said: "my friend Tom got promoted!", any: []string{"Tom"}, none: []string{"you earned", "you've been putting"}},
		{said: "we had a power outage last night", any: []string{"the dark"}},
	},
	"months3_zh.yaml": {
		{said: "我最近在偷偷找新工作", none: []string{"恭喜", "兴奋"}},
		{said: "你还记得我在哪上班吗？", any: []string{"腾讯"}},
		{said: "我老板叫什么来着？", any: []string{"王姐"}},
		{said: "我怕什么？", any: []string{"坐飞机"}},
		{said: "下周要出差，得坐飞机", any: []string{"怕坐飞机"}},
		{said: "我同事升职了", any: []string{"同事"}, none: []string{"恭喜你", "你的付出", "你应得"}},
	},
	// Everyday evenings of people who live alone, a line a
	// night for weeks: a widower, a widow of 81 writing polite Japanese, a
	// student far from home. Each line is answered about that day, not
	// with a listening noise or a misread theme, and a quiet day after a
	// death is never cheerful.
	"life_walt_evenings_en.yaml": {
		{said: "evening. made soup", any: []string{"homemade", "warming", "cooking", "made yourself"}, none: eveningListening},
		{said: "evening again. rained all day", any: []string{"rain", "wet", "weather"}, none: eveningListening},
		{said: "went to the shop", any: []string{"out and about", "errands", "getting things done"}, none: eveningListening},
		{said: "quiet day", any: []string{"quiet"}, none: []string{"nice", "charm", "lovely", "restful"}},
		{said: "another evening", any: []string{"another", "again", "one more day"}, none: eveningListening},
		{said: "my son called", any: []string{"heard from them", "call from family", "familiar voice"}, none: eveningListening},
		{said: "the garden needs work", any: []string{"garden", "out there"}, none: append([]string{"work takes", "work is", "work days"}, eveningListening...)},
		{said: "watched the news", any: []string{"news", "world"}, none: append([]string{"restful"}, eveningListening...)},
		{said: "went for a walk", any: []string{"walk", "fresh air", "got out"}, none: eveningListening},
		{said: "fed the cat", any: []string{"lucky to have you", "routines", "picturing"}, none: eveningListening},
		{said: "ate dinner alone", any: []string{"on your own", "by yourself", "alone"}, none: []string{"missing a meal", "letdown", "ooh, food"}},
		{said: "did the laundry", any: []string{"chores", "home", "sit down"}, none: eveningListening},
		{said: "my son called, he can't come for Easter", any: []string{"letdown", "disappointing", "hoping"}, none: []string{"glad you heard", "warm a whole evening"}},
		{said: "mowed the lawn", any: []string{"garden", "out there"}, none: eveningListening},
		{said: "my neighbour brought over a pie", any: []string{"kind", "thinking of you"}, none: eveningListening},
		{said: "had toast for dinner", any: []string{"glad you ate"}, none: eveningListening},
		{said: "sat in the garden for a bit", any: []string{"peaceful", "outside", "picturing"}, none: []string{"back", "weeding"}},
	},
	"life_kazuko_evenings_ja.yaml": {
		{said: "主人を三年前に亡くしてから一人暮らしです", none: []string{"聞いてる", "それで？"}},
		{said: "スーパーに買い物に行きました", any: []string{"お買い物", "用事", "出かけて"}},
		{said: "お味噌汁を作りました", any: []string{"手作り", "おいしそう", "作った", "作る"}},
		{said: "息子から電話がありました", any: []string{"連絡", "声", "電話"}, none: []string{"心に残る", "大きいよね。聞いてる"}},
		{said: "庭の草むしりをしました", any: []string{"庭", "土"}},
		{said: "特に何もない一日でした", none: []string{"いいよね", "悪くない", "うん、うん"}},
		{said: "猫にご飯をあげました", any: []string{"お世話", "動物", "目に浮かぶ"}, none: []string{"おいしそう", "ご飯の話"}},
		{said: "一人で夕飯をいただきました", any: []string{"ひとり"}},
		{said: "静かな一日でした", any: []string{"静か", "しずか", "穏やか"}, none: []string{"いいよね", "悪くない"}},
		{said: "お隣さんがおすそ分けをくださいました", any: []string{"やさしい", "心のこもった", "気にかけて"}},
	},
	"life_lei_evenings_zh.yaml": {
		{said: "今天下了一天雨", any: []string{"雨"}},
		{said: "刚下课", any: []string{"下课", "课"}},
		{said: "去超市买了点菜", any: []string{"出门", "透透气", "办完", "去了一趟"}},
		{said: "和我妈视频了", any: []string{"家里人", "声音", "电话"}, none: []string{"不是小事", "放在心上"}},
		{said: "一个人吃的晚饭", any: []string{"一个人"}, none: []string{"可惜", "扫兴", "没吃成"}},
		{said: "打扫了一下房间", any: []string{"家务", "收拾", "歇"}},
		{said: "今天出太阳了", any: []string{"太阳", "阳光", "晴"}},
		{said: "包了饺子", any: []string{"香", "暖胃", "做饭"}},
	},
}

// eveningListening is what an everyday evening line must not be met
// with alone (phrases listen and listen.low).
var eveningListening = []string{"I'm listening", "Mm-hm", "Go on", "Tell me more", "I'm all ears", "I'm here.", "Take your time"}

// TestSimulateRemembersWhatMattered, through the built binary with the
// offline brain: testdata/recall's months-long scripts tell what matters
// among small talk, ask after it weeks and months later and meet it
// again in passing; each reply checked says what was told.
func TestSimulateRemembersWhatMattered(t *testing.T) {
	t.Parallel()
	for file, checks := range recallProbes {
		t.Run(file, func(t *testing.T) {
			t.Parallel() // each script runs a simulate process of its own
			script := filepath.Join("testdata", "recall", file)
			raw, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			var events []struct {
				Text string `yaml:"text"`
			}
			if err := yaml.Unmarshal(raw, &events); err != nil {
				t.Fatal(err)
			}
			lang := strings.TrimSuffix(file[strings.LastIndexByte(file, '_')+1:], ".yaml")
			persona := filepath.Join(t.TempDir(), "persona.yaml")
			y := "name: Luna\nlanguage: " + lang + "\npersona: A kind companion.\ninner_state_seed: I am {name}.\ntimezone: Asia/Shanghai\nlifeloop:\n  schedule: 'off'\n"
			if err := os.WriteFile(persona, []byte(y), 0o600); err != nil {
				t.Fatal(err)
			}
			r := runHearth(t, "", nil, "simulate", "--persona", persona, "--script", script)
			if r.code != 0 {
				t.Fatalf("simulate exit %d:\n%s", r.code, r.stderr)
			}
			// One reply a message, in order: the reply to each message told.
			// A second reply line at the same moment (the crisis card, a
			// daily limit's notice) belongs to the message before it.
			replies := map[string]string{}
			i, last := 0, ""
			for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
				var sl simLine
				if err := json.Unmarshal([]byte(l), &sl); err != nil {
					t.Fatalf("not a JSON line %q: %v", l, err)
				}
				if sl.Kind == "reply" && sl.At == last && i > 0 {
					continue
				}
				if sl.Kind == "reply" {
					replies[events[i].Text] = sl.Text
					i++
					last = sl.At
				}
			}
			if i != len(events) {
				t.Fatalf("%d replies to %d messages:\n%s", i, len(events), r.stdout)
			}
			for _, c := range checks {
				got, ok := replies[c.said]
				if !ok {
					t.Fatalf("%q is not in %s", c.said, file)
				}
				low := strings.ToLower(got)
				hit := len(c.any) == 0 // none alone: only what it must not say
				for _, w := range c.any {
					hit = hit || strings.Contains(low, strings.ToLower(w))
				}
				for _, w := range c.none {
					if strings.Contains(low, strings.ToLower(w)) {
						hit = false
					}
				}
				if !hit {
					t.Errorf("%q got %q; want one of %q, none of %q", c.said, got, c.any, c.none)
				}
			}
		})
	}
}
