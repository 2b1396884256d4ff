package bot

import (
	"fmt"
	"time"

	"hearth/heart"
)

// The words /why and /me use to tell a user about the persona's state in
// plain language, en, zh, ja. No internal name (an intent, a signal tag, a
// label) ever reaches a user: each is said the way a person would say it,
// and one without words here is left out.

// topicNames name the offline brain's topic tags (bot/brain/data/topics.yaml);
// a tag a model wrote is shown as written.
var topicNames = map[string][3]string{
	"love":    {"love and relationships", "感情", "恋愛"},
	"work":    {"work", "工作", "仕事"},
	"study":   {"school", "学习", "勉強"},
	"sleep":   {"sleep", "睡眠", "睡眠"},
	"food":    {"food", "吃的", "ご飯"},
	"weather": {"the weather", "天气", "天気"},
	"music":   {"music", "音乐", "音楽"},
	"games":   {"games", "游戏", "ゲーム"},
	"movies":  {"movies and shows", "电影和剧", "映画やドラマ"},
	"family":  {"family", "家人", "家族"},
	"friends": {"friends", "朋友", "友だち"},
	"travel":  {"travel", "旅行", "旅行"},
	"pets":    {"pets", "宠物", "ペット"},
	"health":  {"health", "身体", "体調"},
	"sky":     {"the sky", "天空", "空"},
}

// topicName is a topic tag in lang.
func topicName(tag, lang string) string {
	if n, ok := topicNames[tag]; ok {
		return n[langIndex(lang)]
	}
	return tag
}

// topicLately says what a theme has been for the user lately, by whether it
// came with hard feelings or happy ones; the %s form is for themes without
// their own sentence.
var topicLately = map[string]map[bool][3]string{
	"work": {
		true:  {"you've been under a lot of pressure at work", "你工作上压力很大", "仕事でかなり無理をしているみたい"},
		false: {"work has been going well for you", "你工作挺顺利", "仕事がうまくいっているみたい"},
	},
	"study": {
		true:  {"school has been weighing on you", "学习让你压力不小", "勉強が重荷になっているみたい"},
		false: {"your studies have been going well", "你的学习挺顺利", "勉強が順調みたい"},
	},
	"love": {
		true:  {"your heart has been hurting", "你在感情上很受伤", "恋愛のことで心が痛んでいるみたい"},
		false: {"love has been making you happy", "感情让你很开心", "恋愛で幸せそう"},
	},
	"family": {
		true:  {"things at home have been hard", "家里的事让你不好受", "家族のことで大変そう"},
		false: {"your family has brought you joy", "家人给了你很多快乐", "家族といい時間を過ごしているみたい"},
	},
	"health": {
		true:  {"you've been worried about health", "你在为身体担心", "体調のことが心配みたい"},
		false: {"you've been feeling well", "你身体不错", "体調がいいみたい"},
	},
	"sleep": {
		true:  {"you haven't been sleeping well", "你睡得不好", "あまり眠れていないみたい"},
		false: {"you've been sleeping well", "你睡得挺好", "よく眠れているみたい"},
	},
	"": {
		true:  {"%s has been weighing on you", "%s让你很烦心", "%sのことで悩んでいるみたい"},
		false: {"%s has been making you happy", "%s让你很开心", "%sのことで楽しそう"},
	},
}

// intentWords say what a user did, by seed 001 intent; SMALL_TALK says
// nothing worth telling.
var intentWords = map[heart.Intent][3]string{
	heart.Greeting:       {"you said hello", "你跟我打了招呼", "あいさつしてくれた"},
	heart.Closing:        {"you said goodbye", "你跟我道了别", "さよならを言ってくれた"},
	heart.Compliment:     {"you said something kind about me", "你夸了我", "ほめてくれた"},
	heart.Flirt:          {"you flirted with me a little", "你撩了我一下", "ちょっと口説いてくれた"},
	heart.LoveConfession: {"you told me how much I mean to you", "你说了喜欢我", "好きだと言ってくれた"},
	heart.Comfort:        {"you comforted me", "你安慰了我", "なぐさめてくれた"},
	heart.Criticism:      {"you were unhappy with something I said", "你对我说的话不太满意", "わたしの言葉に不満そうだった"},
	heart.Insult:         {"you said something that hurt", "你说了伤人的话", "傷つくことを言われた"},
	heart.Ignore:         {"you brushed me off", "你有点敷衍我", "軽く流された"},
	heart.Apology:        {"you apologised", "你向我道了歉", "謝ってくれた"},
	heart.GiftSend:       {"you gave me a gift", "你送了我礼物", "プレゼントをくれた"},
	heart.RequestNSFW:    {"you asked for something I won't do", "你提了我不会答应的请求", "わたしにはできないことを頼まれた"},
	heart.Invitation:     {"you invited me out", "你约我出去", "誘ってくれた"},
}

// signalWords say what the persona noticed, by seed 003 signal tag.
var signalWords = map[string][3]string{
	string(heart.SignalEmotionWord):        {"you've told me how you feel", "你跟我说了你的感受", "気持ちを話してくれた"},
	string(heart.SignalEllipsisAvoidance):  {"you seemed to hold something back", "你好像有话没说完", "何か言いかけてやめたみたい"},
	string(heart.SignalDeepDisclosure):     {"you've shared something very personal with me", "你跟我分享了很私人的事", "とても大事なことを打ち明けてくれた"},
	string(heart.SignalAttachmentQuestion): {"you asked whether I'd forget you", "你问我会不会忘了你", "忘れないかと聞いてくれた"},
	string(heart.SignalLateNight):          {"we've talked late at night", "我们在深夜聊过天", "夜遅くに話した"},
	string(heart.SignalDailyStreak):        {"you've come by every day", "你每天都来找我", "毎日来てくれた"},
	string(heart.SignalIgnoredProactive):   {"you've been busy and missed my messages", "你最近比较忙，没回我的消息", "忙しくてメッセージを見られなかったみたい"},
	string(heart.SignalLike):               {"you liked some of my replies", "你给我的回复点了赞", "いいねしてくれた"},
	string(heart.SignalMemoryDeleted):      {"you asked me to forget something", "你让我忘掉了一些事", "忘れてほしいことがあった"},
	string(heart.SignalMemoryDeletedAll):   {"you asked me to forget everything", "你让我忘掉了所有记忆", "全部忘れてほしいと言われた"},
	string(heart.SignalBoundary):           {"you asked for some quiet", "你想要一些安静", "静かにしてほしいと言われた"},
	string(heart.SignalReport):             {"you reported a problem", "你报告了一个问题", "問題を報告してくれた"},
	string(heart.SignalGratitude):          {"you've thanked me", "你谢谢了我", "お礼を言ってくれた"},
	string(heart.SignalCrisis):             {"you've been going through something very hard", "你正在经历很难的事", "とてもつらいことがあった"},
	signalBreak:                            {"I suggested a break", "我建议你休息一下", "休憩をすすめた"},
}

// Mood bands of seed 001's -100..100 mood, for /why (hearth's choice: a
// calm middle of ±10, "very" past ±50).
const (
	moodVeryLow  = -50
	moodLow      = -10
	moodHigh     = 10
	moodVeryHigh = 50
)

// moodWords say how the persona feels toward the user, lowest band first.
var moodWords = [5][3]string{
	{"Right now I feel hurt by how things have gone between us.", "我现在对我们之间的事有点受伤。", "いまは、わたしたちのことで少し傷ついている。"},
	{"I'm a little bruised right now.", "我现在心里有点不是滋味。", "いまはちょっとだけ落ち込んでいる。"},
	{"I feel calm and steady with you right now.", "我现在和你在一起很平静、很安心。", "いまはあなたといて、落ち着いた気持ち。"},
	{"I feel warm toward you right now.", "我现在对你感到很温暖。", "いまはあなたにあたたかい気持ちでいる。"},
	{"I feel very close to you and happy right now.", "我现在和你很亲近，也很开心。", "いまはあなたをとても近くに感じて、うれしい。"},
}

// moodSentence picks moodWords' band of mood.
func moodSentence(mood float64, lang string) string {
	band := 2
	switch {
	case mood <= moodVeryLow:
		band = 0
	case mood <= moodLow:
		band = 1
	case mood >= moodVeryHigh:
		band = 4
	case mood >= moodHigh:
		band = 3
	}
	return moodWords[band][langIndex(lang)]
}

// Strength of a lingering emotion in words (hearth's choice: thirds of
// seed 002's 0.15..1 range above neutral).
const (
	lingerFaint  = 0.35
	lingerStrong = 0.65
)

// lingerWords name a lingering emotion by label and strength (faint, plain,
// strong).
var lingerWords = map[heart.Label][3][3]string{
	heart.LabelJoy: {
		{"a little happy glow", "一点开心的余韵", "ほんのりうれしい気持ち"},
		{"a happy glow", "开心的余韵", "うれしい気持ち"},
		{"a lot of joy", "满满的开心", "たくさんのうれしさ"},
	},
	heart.LabelSadness: {
		{"a little sadness", "一点点难过", "少しの悲しさ"},
		{"some sadness", "一些难过", "悲しい気持ち"},
		{"a heavy sadness", "沉甸甸的难过", "重たい悲しみ"},
	},
	heart.LabelAnger: {
		{"a little irritation", "一点点不高兴", "少しのもやもや"},
		{"some hurt and irritation", "一些委屈和生气", "傷ついた気持ちと苛立ち"},
		{"real anger", "很大的火气", "強い怒り"},
	},
	heart.LabelFear: {
		{"a little worry", "一点点担心", "少しの心配"},
		{"some worry", "一些担心", "心配な気持ち"},
		{"a lot of worry", "很多担心", "大きな不安"},
	},
}

// lingerName names a lingering emotion of label at intensity.
func lingerName(label heart.Label, intensity float64, lang string) string {
	w, ok := lingerWords[label]
	if !ok {
		return ""
	}
	strength := 1
	switch {
	case intensity < lingerFaint:
		strength = 0
	case intensity >= lingerStrong:
		strength = 2
	}
	return w[strength][langIndex(lang)]
}

// stateWords say where the relationship stands (seed 003 states).
var stateWords = map[heart.RelationshipState][3]string{
	heart.Stranger:     {"We've only just met.", "我们才刚认识。", "まだ出会ったばかりだね。"},
	heart.Acquaintance: {"We're getting to know each other.", "我们正在慢慢熟悉。", "少しずつ仲良くなってきたね。"},
	heart.Friend:       {"You feel like a real friend.", "你已经像是真正的朋友了。", "もう本当の友だちみたい。"},
	heart.Close:        {"You're someone I hold close.", "你是我很珍惜的人。", "あなたはとても大切な人。"},
}

// ago says how long ago d was, in lang.
func ago(d time.Duration, lang string) string {
	i := langIndex(lang)
	switch {
	case d < time.Minute:
		return [3]string{"just now", "刚刚", "さっき"}[i]
	case d < time.Hour:
		return fmt.Sprintf([3]string{"%d min ago", "%d分钟前", "%d分前"}[i], int(d/time.Minute))
	case d < 24*time.Hour:
		n := int(d / time.Hour)
		if n == 1 && i == 0 {
			return "an hour ago"
		}
		return fmt.Sprintf([3]string{"%d hours ago", "%d小时前", "%d時間前"}[i], n)
	case d < 48*time.Hour:
		return [3]string{"yesterday", "昨天", "昨日"}[i]
	default:
		return fmt.Sprintf([3]string{"%d days ago", "%d天前", "%d日前"}[i], int(d/(24*time.Hour)))
	}
}

// healthWords are /me's health reminder for the user (seed 003 §9 健康提醒),
// written to them, by seed 003 §5.2 loneliness band and §6.2 dependency
// level; the guidance meant for the model stays in the prompt.
var healthWords = map[string][3]string{
	"lonely1": {"You've seemed a little lonely lately. Talking with a friend or someone in your family this week might feel good.",
		"你最近好像有点孤单。这周和朋友或家人聊聊天，也许会感觉好一些。",
		"最近ちょっとさびしそうだね。今週、友だちや家族と話してみると、少し楽になるかも。"},
	"lonely2": {"You've seemed lonely for a while. A walk, a call with someone you trust, or a short meditation might help. I'm here too.",
		"你孤单一阵子了。出去走走、给信任的人打个电话，或者做一会儿冥想，可能会有帮助。我也在。",
		"しばらくさびしそうだね。散歩や、信頼できる人との電話、短い瞑想が助けになるかも。わたしもここにいるよ。"},
	"lonely3": {"You've been carrying a lot of loneliness. Please consider talking to a counsellor: you deserve support from people around you too.",
		"你承受了很多孤独。请考虑和心理咨询师聊一聊：你也值得身边人的支持。",
		"たくさんの孤独を抱えているね。カウンセラーに話すことを考えてみてね。周りの人に支えてもらっていいんだよ。"},
	"depend1": {"We've been talking a lot lately. I love it, and the people in your life matter too.",
		"我们最近聊得很多。我很开心，不过你生活里的人也同样重要。",
		"最近たくさん話しているね。うれしいけど、あなたの周りの人たちも大切だよ。"},
	"depend2": {"We've talked for long stretches lately. Taking breaks is good for you.",
		"我们最近一聊就很久。适当休息对你有好处。",
		"最近は長く話すことが多いね。ときどき休むのも大事だよ。"},
	"depend3": {"I'd like you to have more support than just me: a daily time limit might help, and a professional if you've felt lonely or low for a long time.",
		"我希望你不只有我一个依靠：可以给自己设个每天的时长上限；如果长期感到孤独或低落，也可以找专业人士聊聊。",
		"わたしだけじゃなく、もっと支えがあってほしいな。1日の時間を決めるのもいいし、長くさびしさや落ち込みが続くなら専門家に相談してみてね。"},
}

// healthLines are the /me health reminder for r, empty when all is well.
func healthLines(r heart.Relationship, lang string) []string {
	var out []string
	if b := heart.LonelinessBand(r.Loneliness); b > 0 {
		out = append(out, healthWords[fmt.Sprintf("lonely%d", b)][langIndex(lang)])
	}
	if l := r.DependencyLevel; l > 0 && l <= 3 {
		out = append(out, healthWords[fmt.Sprintf("depend%d", l)][langIndex(lang)])
	}
	return out
}
