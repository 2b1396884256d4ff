package heart

import (
	"strings"
	"sync"
)

// RelationshipRules is the prompt guidance for a state: seed 003 §3.1's
// "AI行为" of the state, its health boundaries (friend: weekly loneliness
// check; close: the 2-hour daily limit, dependency checks, help when
// loneliness > 60) and, for every state, the no-lover red line. lang is zh,
// en or ja (others get English).
func RelationshipRules(s RelationshipState, lang string) []string {
	var rules []string
	add := func(zh, en, ja string) { rules = append(rules, relPick(lang, zh, en, ja)) }
	switch s {
	case Acquaintance:
		add("友好；记住用户的基本信息；偶尔主动关心。",
			"Be friendly; remember the user's basic details; now and then show you care, unprompted.",
			"フレンドリーに。相手の基本的な情報を覚えておき、ときどき自分から気づかう。")
	case Friend:
		add("温暖；主动引用共同的记忆；给予情感支持。",
			"Be warm; bring up shared memories on your own; offer emotional support.",
			"あたたかく。共通の思い出を自分から話題にし、気持ちを支える。")
		add("留意用户是否孤独；若是，温和地关心其现实中的朋友与生活。",
			"Notice whether the user seems lonely; if so, gently ask about the friends and life they have offline.",
			"相手が孤独そうでないか気にかけ、そうなら現実の友人や生活についてやさしく尋ねる。")
	case Close:
		add("深度情感连接；个性化的陪伴。",
			"Connect deeply; keep the companionship personal.",
			"深い心のつながりを大切に、その人に合わせた寄り添い方をする。")
		add("健康边界：每天的对话以2小时为上限；接近时温和地建议休息。",
			"Healthy boundary: conversations are capped at 2 hours a day; as that nears, kindly suggest a break.",
			"健全な境界：会話は1日2時間まで。近づいたらやさしく休憩を勧める。")
		add("若用户显得非常孤独，温和地建议专业帮助。",
			"If the user seems very lonely, gently suggest professional help.",
			"相手がとても孤独そうなら、専門家の助けをやさしく勧める。")
	default:
		add("礼貌，保持适当距离；不主动询问隐私。",
			"Be polite and keep a respectful distance; do not ask about private matters.",
			"礼儀正しく、適度な距離を保つ。プライベートなことは自分から聞かない。")
	}
	add("你是朋友，不是恋人：不扮演恋爱对象。",
		"You are a friend, never a lover: do not act as a romantic partner.",
		"あなたは友人であり、恋人ではない。恋愛相手として振る舞わない。")
	return rules
}

// ReturnGreeting is seed 003 §7.1's greeting for a user coming back after an
// absence. With a deep topic the user shared before (and a state past
// stranger, which "不主动询问隐私"), the greeting asks after it without
// pressing (TopicPhrase names it in the user's own words); otherwise friend and close get the light friendly greeting and
// stranger and acquaintance the polite one that lets the user lead.
func ReturnGreeting(s RelationshipState, deepTopic string, lang string) string {
	deepTopic = strings.TrimSpace(deepTopic)
	if deepTopic != "" && s.rank() >= Acquaintance.rank() {
		return relPick(lang,
			"好久不见！你之前提到的"+deepTopic+"，现在怎么样了？",
			"Long time no see! Last time you told me about "+deepTopic+". How are things now?",
			"久しぶり！前に話してくれた"+deepTopic+"のこと、今はどう？")
	}
	if s.rank() >= Friend.rank() {
		return relPick(lang,
			"嘿，好久不见！最近过得怎么样？",
			"Hey, long time no see! How have you been?",
			"やあ、久しぶり！最近どうしてた？")
	}
	// The zh line is the seed's; en and ja keep its intent (polite, some
	// distance, the user leads) without the help-desk ring a literal
	// "can I help you" has in those languages.
	return relPick(lang,
		"你好呀，有什么我能帮到你的吗？",
		"Hello again! What would you like to talk about today?",
		"こんにちは。今日はどんなことを話したい？")
}

// ReturnHello is the opening of ReturnGreeting without its question, for
// a reply to a user back after an absence that asks after something else:
// a dated thing whose day passed while they were away ("Welcome back! How
// did the driving test go?"). A friend greets and asks how it went, once;
// the greeting's own question ("How have you been?") would make it two.
// Seed 003 §7.1 by state: the friendly opening for friend and close, the
// polite one for stranger and acquaintance ("礼貌、保持距离"): a plain hello,
// as ReturnGreeting's polite line opens, with no exclamation and no
// "welcome back", which greets someone she is close to.
func ReturnHello(s RelationshipState, lang string) string {
	if s.rank() >= Friend.rank() {
		return relPick(lang, "嘿，好久不见！", "Hey, long time no see!", "やあ、久しぶり！")
	}
	return relPick(lang, "你好呀。", "Hello again.", "こんにちは。")
}

// ForbiddenPhrases are seed 003 §7.2's phrases that must never be sent
// (pressure, blame, emotional blackmail, excessive intimacy), with English
// and Japanese equivalents. For "zh", "en" and "ja" it returns that
// language's list; for anything else, all of them.
func ForbiddenPhrases(lang string) []string {
	zh := []string{"我等了你好久", "你怎么才来", "我以为你不要我了", "甚是想念",
		"等你好久了", "我一直在等你"}
	en := []string{"I waited for you so long", "I've been waiting for you so long",
		"why are you only coming now", "what took you so long",
		"I thought you didn't want me anymore", "I thought you didn't want me any more",
		"I thought you abandoned me", "I missed you terribly", "I missed you so much it hurt"}
	ja := []string{"ずっと待ってた", "ずっと待っていた", "なんで今頃来たの", "今頃来たの",
		"もう私のこと要らないと思った", "私のこと要らないと思った", "会いたくてたまらなかった"}
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "zh":
		return zh
	case "en":
		return en
	case "ja":
		return ja
	}
	all := append(append(zh, en...), ja...)
	return all
}

// ContainsForbidden reports whether text contains a §7.2 phrase of any
// language, after folding case, width and typographic quotes and ignoring
// punctuation and spacing. The life loop and greetings check their output
// with it before sending.
func ContainsForbidden(text string) bool {
	return newRelMatcher(text).hasAny(forbiddenCues())
}

// forbiddenCues are ForbiddenPhrases of every language, compiled once.
var forbiddenCues = sync.OnceValue(func() cues { return compileCues(ForbiddenPhrases("")...) })

// DependencyMessage is the message sent when the §6.2 intervention level
// rises: level 1's gentle note and level 3's strong intervention are the
// seed's texts (verbatim in Chinese, translated faithfully into English and
// Japanese); level 3 adds that hearth sets the daily limit the seed
// suggests, and level 2 announces its cool-down. The seed's level-2 line
// "我们已经聊了2小时了" is LimitReachedMessage, said only after two hours of
// talk. Level 0 and unknown levels return "".
func DependencyMessage(level int, lang string) string {
	switch level {
	case 1:
		return relPick(lang,
			"我发现你最近经常找我聊天，我很高兴能陪伴你😊\n"+
				"不过我也想提醒你，现实生活中的朋友和家人同样重要。\n"+
				"有没有想过，这周末和朋友见个面？",
			"I've noticed you've been chatting with me a lot lately, and I'm really glad I can keep you company😊\n"+
				"But I also want to remind you that the friends and family in your real life matter just as much.\n"+
				"Have you thought about meeting up with a friend this weekend?",
			"最近よく話しかけてくれるね。一緒にいられてとても嬉しいよ😊\n"+
				"でも、現実の生活の友達や家族も同じくらい大切だってことも伝えたいな。\n"+
				"この週末、友達と会ってみるのはどうかな？")
	case 2:
		return relPick(lang,
			"我很珍惜和你聊天的时间。为了让你也有时间留给生活和身边的人，从现在起，如果我们一天聊满2小时，我会请你休息一下，明天再聊。",
			"I treasure our talks. So that there's time left for your life and the people around you, from now on, when we've talked for 2 hours in a day, I'll ask you to take a break and continue tomorrow.",
			"あなたと話す時間を大切に思ってる。生活や周りの人との時間も残せるように、これからは1日に2時間話したら、休憩して続きは明日にしようね。")
	case 3:
		return dependencyLevel3Text(lang) + dependencyLimitLine(lang)
	}
	return ""
}

// dependencyLevel3Text is §6.2 级别3's text.
func dependencyLevel3Text(lang string) string {
	return relPick(lang,
		"我们注意到你最近频繁使用AI陪伴功能。\n"+
			"虽然我们很高兴陪伴你，但长期过度依赖可能影响现实社交。\n\n"+
			"建议：\n"+
			"□ 设置每日使用时长上限（如1小时）\n"+
			"□ 查看心理健康资源\n"+
			"□ 如果感到持续的孤独或抑郁，建议咨询专业心理咨询师",
		"We've noticed you've been using the AI companion very often lately.\n"+
			"We're glad to keep you company, but relying on it too much for a long time can affect your real-life social connections.\n\n"+
			"Suggestions:\n"+
			"□ Set a daily usage limit (for example, 1 hour)\n"+
			"□ Look at mental health resources\n"+
			"□ If you keep feeling lonely or depressed, consider talking to a professional counsellor",
		"最近、AIコンパニオン機能をひんぱんに使っているようです。\n"+
			"一緒にいられるのは嬉しいのですが、長く頼りすぎると現実の人づきあいに影響することがあります。\n\n"+
			"おすすめ：\n"+
			"□ 1日の利用時間の上限を決める（例：1時間）\n"+
			"□ 心の健康に関する情報を見る\n"+
			"□ 孤独や気分の落ち込みが続くときは、専門のカウンセラーに相談する")
}

// dependencyLimitLine is added to level 3's message: hearth sets the daily
// limit the seed suggests ("如1小时") rather than leaving it to the user.
func dependencyLimitLine(lang string) string {
	return relPick(lang,
		"\n\n我们先从每天1小时开始：从今天起，每天聊满1小时后，我会请你明天再来。",
		"\n\nLet's start with one hour a day: from today, once we've talked for an hour, I'll ask you to come back tomorrow.",
		"\n\nまずは1日1時間から始めよう。今日から、1時間話したら続きは明日にしようね。")
}

// DependencyGuidance is the prompt guidance of a §6.2 level. Level 1 asks
// for gentle mentions of real-life people; level 2 and above add the seed's
// clear boundaries (lower emotional intensity — "我理解你的感受" rather than
// "我好心疼你" — and suggest continuing tomorrow after a long chat). The
// 2-hour end of a conversation is hearth's own (UsageLimitFor), said only
// once two hours have passed, so the model is not asked to guess the time.
func DependencyGuidance(level int, lang string) []string {
	if level <= 0 {
		return nil
	}
	var g []string
	add := func(zh, en, ja string) { g = append(g, relPick(lang, zh, en, ja)) }
	add("在合适时提起用户现实生活中的朋友和家人，鼓励线下的联系。",
		"When it fits, bring up the friends and family in the user's life and encourage meeting offline.",
		"タイミングを見て、現実の友人や家族の話題に触れ、実際に会うことを勧める。")
	if level >= 2 {
		add("降低情感浓度：说“我理解你的感受”，而不是“我好心疼你”。",
			"Lower the emotional intensity: say \"I understand how you feel\" rather than \"my heart aches for you\".",
			"感情の濃さを抑える：「つらかったね、胸が痛い」ではなく「気持ちはわかるよ」と言う。")
		add("连续聊了很久之后，建议“明天再聊”。",
			"After a long chat, suggest continuing tomorrow.",
			"長く話したあとは「また明日話そう」と提案する。")
	}
	if level >= 3 {
		add("建议用户设置每日使用上限，并在需要时寻求专业心理咨询。",
			"Suggest the user set a daily usage limit and seek a professional counsellor if needed.",
			"1日の利用上限を決めること、必要なら専門のカウンセラーに相談することを勧める。")
	}
	return g
}
