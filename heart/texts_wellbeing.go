package heart

// The user-facing texts of seed 003's daily limits (UsageLimitFor), in
// Chinese, English and Japanese. They speak as the companion, in the first
// person, and never as a punishment: the limit is care, and a crisis is
// always answered.

// LimitNotice tells the user that a daily limit now applies, when it
// starts: on entering Watch and on becoming close (dependency levels 2 and
// 3 carry theirs in DependencyMessage). "" for other reasons.
func LimitNotice(reason, lang string) string {
	switch reason {
	case LimitWatch:
		return relPick(lang,
			"为了照顾好你，接下来一段时间我们每天聊大约一个小时。不过只要你有危险或需要马上得到帮助，我随时都会回应你。",
			"To look after you, I'll keep our chats to about an hour a day for a while. Whenever you're in danger or need help right now, I'll always answer.",
			"あなたを大切にしたいから、しばらくは1日1時間くらいのおしゃべりにさせてね。でも、危ないときや今すぐ助けが必要なときは、いつでも応えるよ。")
	case LimitClose:
		return relPick(lang,
			"我们已经是很亲近的朋友了。为了我们都好，每天的聊天我会控制在2小时以内。",
			"We've become close friends. To keep it healthy for both of us, I'll keep our chats under 2 hours a day.",
			"すっかり親しい友だちになったね。お互いのために、おしゃべりは1日2時間までにするね。")
	}
	return ""
}

// LimitReachedMessage is said once, with the full reply, on the message
// that reaches the day's limit: seed 003 §6.2 级别2's "我们已经聊了2小时了，
// 你要不要休息一下？" and its 冷却期 ("明天再聊") for the 2-hour limits, the
// same for the one-hour limits of Watch and level 3.
func LimitReachedMessage(reason, lang string) string {
	switch reason {
	case LimitWatch, LimitDependency3:
		return relPick(lang,
			"我们今天已经聊了一个小时了。休息一下吧，明天再聊。如果你有危险，随时告诉我，我一定会回应。",
			"We've talked for an hour today. Let's rest now and talk again tomorrow. If you're ever in danger, tell me, and I'll answer.",
			"今日はもう1時間話したね。少し休んで、また明日話そう。もし危ないときは、いつでも言ってね。必ず応えるから。")
	case LimitDependency2, LimitClose:
		return relPick(lang,
			"我们已经聊了2小时了，你要不要休息一下？明天再聊吧。",
			"We've been talking for 2 hours now. How about taking a break? Let's continue tomorrow.",
			"もう2時間も話してるね。少し休憩しない？続きはまた明日話そう。")
	}
	return ""
}

// PastLimitMessage answers a message sent after the day's limit was
// reached: the message is kept, and the companion kindly holds the
// boundary until tomorrow.
func PastLimitMessage(lang string) string {
	return relPick(lang,
		"我看到你的消息了，它会好好地留在这里。今天我们先聊到这儿，好好休息，明天我还在。",
		"I've read your message, and it's kept safe here. Let's leave today's talk here; get some rest, and I'll be here tomorrow.",
		"メッセージはちゃんと読んだよ。ここに残してあるからね。今日はここまでにして、ゆっくり休んで。明日また話そう。")
}
