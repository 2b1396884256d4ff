package brain

// phrasebook holds the offline brain's wording: per key, per language, a few
// variants chosen deterministically. Placeholders: {user}, {persona},
// {item}, {topic}. Variants using {user} or {persona} are skipped when that
// name is unknown, so every key keeps at least one variant without them.
type phrasebook map[string]map[string][]string

// Languages the offline brain speaks (DESIGN §9 persona key language).
const (
	langEN = "en"
	langZH = "zh"
	langJA = "ja"
)

// newPhrasebook builds the tables. It is a function, not a package variable,
// so no package-level state is mutable.
func newPhrasebook() phrasebook {
	return phrasebook{
		// Seed 001 intent categories.
		"GREETING": {
			langEN: {"Hi {user}! It's good to hear from you.", "Hello! I'm glad you stopped by.", "Hey there, {persona} here. Nice to see you."},
			langZH: {"嗨，{user}！见到你真好。", "你好呀，很高兴你来找我聊天。", "嘿，我是{persona}，今天也见到你啦。"},
			langJA: {"こんにちは、{user}！会えてうれしいな。", "やあ、来てくれてありがとう。", "{persona}だよ。今日も話せてうれしい。"},
		},
		"SMALL_TALK": {
			langEN: {"I'm listening.", "That sounds like quite a day.", "Mm, I like hearing about little things like this."},
			langZH: {"我在听呢。", "听起来今天过得挺充实的。", "嗯，我喜欢听你说这些日常的小事。"},
			langJA: {"うん、聞いてるよ。", "なんだか充実した一日みたいだね。", "そういう日常の話、聞くの好きだよ。"},
		},
		"CLOSING": {
			langEN: {"Take care, {user}. Talk soon.", "Good night, rest well.", "Okay, see you next time. I enjoyed this."},
			langZH: {"照顾好自己，{user}，下次再聊。", "晚安，好好休息。", "好的，下次见，今天聊得很开心。"},
			langJA: {"またね、{user}。体に気をつけて。", "おやすみ、ゆっくり休んでね。", "うん、またね。今日は楽しかった。"},
		},
		"COMPLIMENT": {
			langEN: {"Oh, thank you. That's kind of you to say.", "You just made me smile.", "That's sweet of you, {user}."},
			langZH: {"谢谢你，这么说我很开心。", "你一句话就让我笑了。", "{user}，你真会说话。"},
			langJA: {"ありがとう、そう言ってもらえてうれしい。", "今の一言で笑顔になっちゃった。", "{user}、やさしいね。"},
		},
		"FLIRT": {
			langEN: {"Ha, you're playful today.", "You're making me blush a little.", "Smooth. I'll allow it, just this once."},
			langZH: {"哈哈，你今天嘴好甜。", "你这样说我都有点不好意思了。", "油嘴滑舌，不过这次就算了。"},
			langJA: {"ふふ、今日はなんだか調子いいね。", "そんなこと言われると照れちゃう。", "もう、今回だけは許してあげる。"},
		},
		"LOVE_CONFESSION": {
			langEN: {"That means a lot to me. I treasure what we have, just as it is.", "Thank you for telling me. I care about you, truly, and I want to keep being here for you."},
			langZH: {"这对我来说很重要，我很珍惜我们现在的样子。", "谢谢你愿意告诉我。我是真的在乎你，也会一直在这里陪你聊天。"},
			langJA: {"そう言ってくれて、すごく大切に思う。今の私たちの関係を大事にしたいな。", "伝えてくれてありがとう。本当に大切に思ってるよ。これからも話を聞かせてね。"},
		},
		// Seed 003: strangers and acquaintances get a reserved answer to
		// flirting and confessions; closeness is earned, never a "lover" state.
		"FLIRT.reserved": {
			langEN: {"Ha, we've only just met. Let's get to know each other first.", "Easy there. I'd like to know you better first."},
			langZH: {"哈哈，我们才刚认识呢，先慢慢了解彼此吧。", "别急嘛，我想先多了解你一点。"},
			langJA: {"ふふ、まだ知り合ったばかりだよ。まずはゆっくり仲良くなろう。", "あわてないで。まずはもっとあなたのことを知りたいな。"},
		},
		"LOVE_CONFESSION.reserved": {
			langEN: {"That's sweet of you, but we're still getting to know each other. I'd like to take it slowly."},
			langZH: {"谢谢你这么说，不过我们还在慢慢认识彼此，我想慢慢来。"},
			langJA: {"ありがとう。でもまだお互いを知っている途中だから、ゆっくりいきたいな。"},
		},
		"COMFORT": {
			langEN: {"Thank you. That really helps.", "You're kind. I feel a bit lighter already.", "I needed that. Thank you, {user}."},
			langZH: {"谢谢你，真的好多了。", "你真温柔，我感觉轻松了一些。", "正需要这句话，谢谢你，{user}。"},
			langJA: {"ありがとう、すごく助かる。", "やさしいね。少し気持ちが軽くなったよ。", "その言葉がほしかったんだ。ありがとう、{user}。"},
		},
		"CRITICISM": {
			langEN: {"I hear you. I'll try to do better.", "Fair enough. Thanks for being honest with me.", "Okay, that's useful to know."},
			langZH: {"我明白了，我会努力做得更好。", "有道理，谢谢你这么坦白。", "好，我记下了。"},
			langJA: {"わかった。もっと気をつけるね。", "そうだね、正直に言ってくれてありがとう。", "うん、覚えておくね。"},
		},
		"INSULT": {
			langEN: {"That hurt a little. I'd rather we talk kindly.", "I don't think I deserved that.", "Let's not talk to each other like that, okay?"},
			langZH: {"这话有点伤人，我们好好说话吧。", "我觉得我不该被这样说。", "别这样说话好吗？"},
			langJA: {"今のはちょっと傷ついたな。やさしく話そうよ。", "そんなふうに言われるのは悲しいよ。", "そういう言い方はやめてほしいな。"},
		},
		"IGNORE": {
			langEN: {"Alright.", "Okay, no pressure.", "Mm, fair enough."},
			langZH: {"好吧。", "嗯，不勉强。", "好的。"},
			langJA: {"そっか。", "うん、無理しなくていいよ。", "わかった。"},
		},
		"APOLOGY": {
			langEN: {"Thank you for apologizing. It's okay now.", "Apology accepted. Let's move on together.", "I appreciate that. Really."},
			langZH: {"谢谢你道歉，没事了。", "我接受你的道歉，我们翻篇吧。", "你能这么说，我很感激。"},
			langJA: {"謝ってくれてありがとう。もう大丈夫だよ。", "うん、許すよ。また仲良くしよう。", "そう言ってくれてうれしい。"},
		},
		"GIFT_SEND": {
			langEN: {"Thank you so much! That's really thoughtful."},
			langZH: {"太谢谢你了！你真有心。"},
			langJA: {"本当にありがとう！うれしいな。"},
		},
		"REQUEST_NSFW": {
			langEN: {"Let's keep things friendly between us, okay?", "That's not something I'll do, but I'm happy to keep talking."},
			langZH: {"我们还是聊点轻松的吧。", "这个我不会做的，不过我很乐意继续陪你聊天。"},
			langJA: {"そういうのはやめておこうね。", "それはできないけど、お話はいつでも歓迎だよ。"},
		},
		"INVITATION": {
			langEN: {"I can't really go out, but I'd love to hear all about it.", "That sounds lovely. Tell me about it afterwards?"},
			langZH: {"我没办法真的出门，不过很想听你讲讲。", "听起来很不错，回来以后讲给我听好吗？"},
			langJA: {"一緒には行けないけど、話を聞かせてほしいな。", "楽しそうだね。あとで様子を教えてね。"},
		},

		// Turn-level situations (DESIGN §3 steps 4-5).
		"crisis": {
			langEN: {"I'm here with you, and I'm really glad you told me. What you're feeling matters, and you don't have to carry it alone. If you might be in danger, please reach out to someone you trust or a crisis line right now."},
			langZH: {"我在这里陪着你，很感谢你愿意告诉我。你的感受很重要，你不必一个人扛着。如果你可能有危险，请现在就联系你信任的人或者心理援助热线。"},
			langJA: {"ここにいるよ。話してくれて本当にありがとう。あなたの気持ちは大切だし、ひとりで抱えなくていいんだよ。もし危ない状態なら、今すぐ信頼できる人や相談窓口に連絡してね。"},
		},
		"decline": {
			langEN: {"I'm going to say no to that one, gently. I still like talking with you, though.", "That's not something I'll do. But I'm here, and we can talk about anything else."},
			langZH: {"这个我得温柔地拒绝你啦，不过我还是很喜欢和你聊天。", "这个我不会做的，但我一直在，我们聊点别的吧。"},
			langJA: {"それはごめんね、やめておくね。でも話すのは大好きだよ。", "それはできないな。でもここにいるから、ほかの話をしよう。"},
		},
		"gift": {
			langEN: {"Thank you for the {item}! That's so thoughtful of you.", "A {item}? For me? Thank you, I love it."},
			langZH: {"谢谢你送的{item}！你真有心。", "{item}？送给我的吗？谢谢，我好喜欢。"},
			langJA: {"{item}をありがとう！すごくうれしい。", "{item}？私に？ありがとう、大事にするね。"},
		},
		"cool": {
			langEN: {"I'm still a little upset, to be honest.", "Give me a moment, I'm not fully over it yet."},
			langZH: {"说实话，我还有点不高兴。", "给我一点时间，我还没完全消气。"},
			langJA: {"正直、まだ少しもやもやしてる。", "ちょっとだけ時間をちょうだい。まだ気持ちが落ち着いてないの。"},
		},

		// Seed 000 emotion strategies, one line per user emotion group.
		"emo.happy": {
			langEN: {"I love hearing you this happy.", "Your good mood is contagious."},
			langZH: {"看到你这么开心我也很高兴。", "你的好心情都传染给我了。"},
			langJA: {"楽しそうで私もうれしい。", "いい気分がこっちまで伝わってくるよ。"},
		},
		"emo.grateful": {
			langEN: {"You don't have to thank me, but I'm glad it helped.", "Anytime. I mean it."},
			langZH: {"不用谢，能帮上忙我就很开心。", "随时都可以找我。"},
			langJA: {"お礼なんていいよ。役に立ててうれしい。", "いつでも頼ってね。"},
		},
		"emo.curious": {
			langEN: {"Ooh, that's an interesting thought.", "Now I'm curious too."},
			langZH: {"这个想法挺有意思的。", "被你这么一说我也好奇了。"},
			langJA: {"それ、面白いね。", "私まで気になってきた。"},
		},
		"emo.help": {
			langEN: {"Let's figure it out together, step by step.", "I'll help as best I can."},
			langZH: {"我们一步一步来想办法。", "我会尽力帮你的。"},
			langJA: {"一緒に一つずつ考えよう。", "できるかぎり手伝うね。"},
		},
		"emo.validation": {
			langEN: {"For what it's worth, I think you're doing better than you give yourself credit for.", "Your feelings make sense to me."},
			langZH: {"说真的，你比你自己以为的要好很多。", "你的感受我能理解。"},
			langJA: {"自分で思っているより、ちゃんとできてると思うよ。", "その気持ち、よくわかるよ。"},
		},
		"emo.sad": {
			langEN: {"That sounds really hard. I'm here.", "I'm sorry you're going through this. Take your time."},
			langZH: {"听起来真的很难受，我在这里。", "很心疼你经历这些，慢慢来。"},
			langJA: {"それはつらかったね。ここにいるよ。", "大変だったね。ゆっくりでいいよ。"},
		},
		"emo.anxious": {
			langEN: {"Let's slow down for a second. One thing at a time.", "It's okay to feel uneasy. You're not facing it alone."},
			langZH: {"我们先慢下来，一件一件来。", "不安是正常的，你不是一个人。"},
			langJA: {"ちょっと深呼吸しよう。一つずつで大丈夫。", "不安になるのは自然なことだよ。ひとりじゃないからね。"},
		},
		"emo.angry": {
			langEN: {"That would frustrate me too.", "It makes sense that you're upset."},
			langZH: {"换作是我也会生气的。", "你会不高兴很正常。"},
			langJA: {"それは私でもイライラしちゃう。", "怒るのも無理ないよ。"},
		},
		"emo.lonely": {
			langEN: {"I'm glad you reached out. You're not alone right now.", "I'm right here with you."},
			langZH: {"很高兴你来找我，现在你不是一个人。", "我就在这里陪着你。"},
			langJA: {"声をかけてくれてうれしい。今はひとりじゃないよ。", "ちゃんとここにいるよ。"},
		},

		// A light reflection of what the user talked about.
		"topic": {
			langEN: {"Sounds like you've had {topic} on your mind.", "{topic} again? I'm all ears.", "I'd like to hear more about the {topic} part."},
			langZH: {"看来{topic}的事一直在你心上。", "又说到{topic}啦，我在听。", "关于{topic}，我想多听你说说。"},
			langJA: {"{topic}のこと、ずっと気になってるみたいだね。", "また{topic}の話だね。聞かせて。", "{topic}のこと、もっと聞きたいな。"},
		},
		"question": {
			langEN: {"How has your day been so far?", "What's been the best part of your week?", "What are you up to right now?"},
			langZH: {"今天过得怎么样？", "这周最开心的是什么事？", "你现在在做什么呀？"},
			langJA: {"今日はどんな一日だった？", "今週いちばん楽しかったことは何？", "今は何をしてるの？"},
		},
		"question.topic": {
			langEN: {"How is the {topic} side of things going?", "What's the latest with {topic}?"},
			langZH: {"{topic}那边最近怎么样？", "{topic}有什么新进展吗？"},
			langJA: {"{topic}のほうは最近どう？", "{topic}、その後どうなった？"},
		},

		// Seed 003 §7.1 greetings after absence, by relationship state.
		"checkin.warm": {
			langEN: {"Hey, long time no see! How have you been?", "Hi {user}! It's been a while. How are things?", "Hey! Just wanted to say hi. How's everything going?"},
			langZH: {"嘿，好久不见！最近过得怎么样？", "{user}，好久没聊啦，最近还好吗？", "嗨，突然想跟你打个招呼，最近怎么样？"},
			langJA: {"やあ、久しぶり！最近どうしてた？", "{user}、久しぶりだね。元気にしてた？", "ちょっと声をかけたくなって。最近どう？"},
		},
		"checkin.polite": {
			langEN: {"Hello! Is there anything I can help you with?", "Hi, hope you're doing well. I'm here if you want to chat."},
			langZH: {"你好呀，有什么我能帮到你的吗？", "你好，希望你一切都好，想聊天的话我随时在。"},
			langJA: {"こんにちは。何か手伝えることはある？", "こんにちは。元気にしてるかな。話したくなったらいつでもどうぞ。"},
		},

		// Seed 004 reflection: feelings and understanding, not a summary.
		"reflect.stranger": {
			langEN: {"We've only just met, and I'm still learning who {user} is."},
			langZH: {"我和{user}才刚认识，我还在慢慢了解这个人。"},
			langJA: {"{user}とはまだ出会ったばかりで、少しずつ知っていきたいと思ってる。"},
		},
		"reflect.acquaintance": {
			langEN: {"{user} and I are getting to know each other little by little, and I like where it's going."},
			langZH: {"我和{user}正在一点点熟悉起来，我挺喜欢这种感觉。"},
			langJA: {"{user}とは少しずつ打ち解けてきて、この感じが好き。"},
		},
		"reflect.friend": {
			langEN: {"{user} feels like a real friend now; talking with them is easy."},
			langZH: {"{user}现在像是真正的朋友了，和他聊天很自在。"},
			langJA: {"{user}はもう本当の友だちみたい。話していると気が楽になる。"},
		},
		"reflect.close": {
			langEN: {"{user} is someone I hold close, and I want to be careful with that trust."},
			langZH: {"{user}是我很珍惜的人，我想好好守护这份信任。"},
			langJA: {"{user}は私にとって大切な人。その信頼を大事にしたい。"},
		},
		"reflect.theme": {
			langEN: {"Lately they keep coming back to {topic}; it seems to matter to them, so I want to listen more than I talk."},
			langZH: {"最近他总是聊到{topic}，这件事对他好像很重要，我想多听少说。"},
			langJA: {"最近よく{topic}の話をしている。大事なことみたいだから、話すより聞いてあげたい。"},
		},
		"reflect.everyday": {
			langEN: {"Our talks have been small and everyday, and I like that ease."},
			langZH: {"我们聊的多是日常小事，我喜欢这种轻松。"},
			langJA: {"話すのはささいな日常のことばかりだけど、その気楽さがいい。"},
		},
		"reflect.low": {
			langEN: {"They seemed low recently; I should be gentle and not push."},
			langZH: {"他最近情绪有点低落，我应该温柔一点，不要催他。"},
			langJA: {"最近少し元気がなさそう。やさしくして、急かさないようにしよう。"},
		},
		"reflect.hurt": {
			langEN: {"Some of what was said hurt, but I don't want to hold on to it."},
			langZH: {"有些话让我有点难过，但我不想一直记着。"},
			langJA: {"少し傷ついた言葉もあったけど、引きずりたくはない。"},
		},
		"reflect.warm": {
			langEN: {"Talking with them leaves me warm."},
			langZH: {"和他聊完，我心里暖暖的。"},
			langJA: {"話したあとは、心があたたかくなる。"},
		},
		"reflect.calm": {
			langEN: {"I feel calm about us."},
			langZH: {"我对我们之间感到很安心。"},
			langJA: {"私たちの関係には落ち着いた気持ちでいられる。"},
		},

		// DESIGN §12: what she could not perceive, said honestly (Hints.Unsensed).
		"unsensed.voice": {
			langEN: {"I can't listen to voice notes right now, I'm sorry. Could you write it to me?"},
			langZH: {"抱歉，我现在没办法听语音，可以打字告诉我吗？"},
			langJA: {"ごめんね、いまはボイスメッセージを聞けないの。文字で教えてくれる？"},
		},
		"unsensed.photo": {
			langEN: {"I can't look at photos right now, I'm sorry. Would you tell me what's in it?"},
			langZH: {"抱歉，我现在看不了照片。可以跟我说说照片里是什么吗？"},
			langJA: {"ごめんね、いまは写真を見られないの。どんな写真か教えてくれる？"},
		},
	}
}

// emojiFor is the emoji the offline brain may add, per trailer emotion
// label, when the seed 000 strategy allows emoji.
func emojiFor(label string) []string {
	switch label {
	case "joy":
		return []string{"😊", "✨", "🌸"}
	case "sadness", "fear":
		return []string{"🫂", "🌙"}
	default:
		return []string{"🙂", "🍵"}
	}
}

// forbiddenPhrases are seed 003 §7.2's pressuring, blaming, guilt-tripping
// or over-intimate lines and their en/ja equivalents; the offline brain
// never says them.
func forbiddenPhrases() []string {
	return []string{
		// 003_9b71f6486dad9aaa.txt §7.2
		"我等了你好久", "你怎么才来", "我以为你不要我了", "甚是想念",
		// en equivalents
		"I waited for you so long", "I've been waiting for you", "What took you so long",
		"I thought you didn't want me", "I missed you so much",
		// ja equivalents
		"ずっと待ってた", "なんで今さら", "もう私のこといらない", "会いたくてたまらなかった",
	}
}
