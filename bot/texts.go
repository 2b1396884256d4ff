package bot

import (
	"fmt"
	"strings"
)

// msg keys the user-facing texts below; every text ships in en, zh and ja
// and is picked by the persona's language.
type msg int

const (
	msgSorry msg = iota
	msgStart
	msgHelp
	msgUnknownCommand
	msgMemoriesEmpty
	msgMemoriesHeader
	msgRemembered
	msgRememberUsage
	msgMemoriesFull
	msgForgotOne
	msgForgotAll
	msgForgotAllOne
	msgForgotAllSaid
	msgForgotNone
	msgForgetUsage
	msgForgotWords
	msgForgotWordsOne
	msgQuietOn
	msgQuietUntil
	msgQuietOff
	msgQuietUsage
	msgFirstOff
	msgFirstOn
	msgReported
	msgExport
	msgOperatorAlert
	msgOperatorReview
	msgFallbackName
)

var texts = map[msg][3]string{ // en, zh, ja
	msgSorry: {
		"Sorry, my thoughts got tangled for a moment. Could you say that again?",
		"抱歉，我刚才走神了一下。你能再说一遍吗？",
		"ごめんね、少し考えがまとまらなかったみたい。もう一度言ってくれる？",
	},
	msgStart: {
		"Hi, I'm %s. I'm glad you're here. Talk to me about anything; /help shows what else I can do.",
		"你好，我是%s。很高兴认识你。想聊什么都可以；/help 可以看看我还能做什么。",
		"こんにちは、%sです。来てくれてうれしいな。なんでも話してね。/help でできることが見られるよ。",
	},
	msgHelp: {
		"What you can do:\n/me – our relationship and your mood over 30 days\n/why – why I feel and act as I do right now\n/memories – what I remember about you\n/remember TEXT – ask me to remember something\n/forget N|all – delete a memory and what you told me about it, or everything, for real\n/export – everything stored about you, as a file\n/quiet [DURATION|off] – no messages from me first (e.g. /quiet 8h)\n/privacy – privacy settings\n/contact – an emergency contact, only with your consent\n/report – tell the operator something went wrong",
		"你可以：\n/me – 我们的关系和你最近30天的心情\n/why – 我现在为什么是这样的心情和表现\n/memories – 我记得的关于你的事\n/remember 内容 – 让我记住一件事\n/forget 编号|all – 真正删除一条记忆及相关的话，或全部\n/export – 以文件导出关于你的全部数据\n/quiet [时长|off] – 我不主动发消息（例如 /quiet 8h）\n/privacy – 隐私设置\n/contact – 紧急联系人（只在你同意时使用）\n/report – 向运营者报告问题",
		"できること：\n/me – わたしたちの関係と30日間の気分\n/why – いまのわたしの気持ちと振る舞いの理由\n/memories – あなたについて覚えていること\n/remember 内容 – 覚えてほしいこと\n/forget 番号|all – 記憶とそれについて話したこと、または全部を本当に削除する\n/export – あなたについての全データをファイルで\n/quiet [期間|off] – わたしから話しかけない（例：/quiet 8h）\n/privacy – プライバシー設定\n/contact – 緊急連絡先（同意したときだけ使う）\n/report – 運営者に問題を知らせる",
	},
	msgUnknownCommand: {
		"I don't know that command. /help lists the ones I know.",
		"我不认识这个命令。/help 里有我会的命令。",
		"そのコマンドはわからないな。/help で使えるものが見られるよ。",
	},
	msgMemoriesEmpty: {
		"I don't have any saved memories about you yet.",
		"我还没有保存关于你的记忆。",
		"まだあなたについての記憶は保存していないよ。",
	},
	msgMemoriesHeader: {
		"What I remember (delete one with /forget N):",
		"我记得的事（用 /forget 编号 删除）：",
		"覚えていること（/forget 番号 で削除できるよ）：",
	},
	msgRemembered: {
		"I'll remember that. (memory %d)",
		"我会记住的。（记忆 %d）",
		"覚えておくね。（記憶 %d）",
	},
	msgRememberUsage: {
		"Tell me what to remember, e.g. /remember I'm allergic to cats.",
		"告诉我要记住什么，例如：/remember 我对猫过敏。",
		"覚えてほしいことを書いてね。例：/remember 猫アレルギーがある。",
	},
	msgMemoriesFull: {
		"My memory slots for you are full; /forget one first.",
		"给你的记忆位已经满了，先用 /forget 删掉一条吧。",
		"あなた用の記憶がいっぱいなの。先に /forget で一つ消してね。",
	},
	msgForgotOne: {
		"Deleted memory %d, and everything you told me about it. It's gone for good.",
		"已删除记忆 %d，以及你跟我说过的相关内容，彻底删掉了。",
		"記憶 %d と、それについて話してくれたことを削除したよ。もう残っていない。",
	},
	msgForgotAll: {
		"I deleted all %d memories about you and everything you told me before. It's gone for good.",
		"已删除关于你的全部 %d 条记忆，以及你之前跟我说过的一切，彻底删掉了。",
		"あなたについての記憶 %d 件と、これまでに話してくれたことをすべて削除したよ。もう残っていない。",
	},
	msgForgotAllOne: {
		"I deleted the one memory I had about you and everything you told me before. It's gone for good.",
		"已删除关于你的全部 %d 条记忆，以及你之前跟我说过的一切，彻底删掉了。",
		"あなたについての記憶 %d 件と、これまでに話してくれたことをすべて削除したよ。もう残っていない。",
	},
	msgForgotAllSaid: {
		"I had no memories saved about you; everything you told me before is deleted now. It's gone for good.",
		"我没有保存关于你的记忆；你之前跟我说过的一切现在都删除了，彻底删掉了。",
		"あなたについて保存した記憶はなかったけど、これまでに話してくれたことはすべて削除したよ。もう残っていない。",
	},
	msgForgotNone: {
		"There was nothing like that to forget.",
		"没有找到需要忘记的内容。",
		"忘れるものは見つからなかったよ。",
	},
	msgForgetUsage: {
		"Use /forget N (see /memories) or /forget all.",
		"用法：/forget 编号（见 /memories）或 /forget all。",
		"使い方：/forget 番号（/memories を見てね）か /forget all。",
	},
	msgForgotWords: {
		"Okay. I've forgotten it, for real: %d stored traces deleted.",
		"好的，我已经真正忘掉了：删除了 %d 处记录。",
		"わかった。本当に忘れたよ：%d 件の記録を削除した。",
	},
	msgForgotWordsOne: {
		"Okay. I've forgotten it, for real: 1 stored trace deleted.",
		"好的，我已经真正忘掉了：删除了 %d 处记录。",
		"わかった。本当に忘れたよ：%d 件の記録を削除した。",
	},
	msgQuietOn: {
		"Okay, I won't message you first until you say /quiet off.",
		"好的，在你说 /quiet off 之前，我不会主动发消息。",
		"わかった。/quiet off と言うまで、わたしからは話しかけないね。",
	},
	msgQuietUntil: {
		"Okay, I won't message you first until %s.",
		"好的，在 %s 之前我不会主动发消息。",
		"わかった。%s まではわたしから話しかけないね。",
	},
	msgQuietOff: {
		"Okay, I may say hello now and then again.",
		"好的，我偶尔会主动来打个招呼。",
		"わかった。またときどき声をかけるね。",
	},
	msgQuietUsage: {
		"Use /quiet, /quiet 8h (or 30m, 2d), or /quiet off.",
		"用法：/quiet、/quiet 8h（或 30m、2d）、/quiet off。",
		"使い方：/quiet、/quiet 8h（30m、2d も可）、/quiet off。",
	},
	msgReported: {
		"Thank you for telling me. I've passed it on to the people who run me.",
		"谢谢你告诉我，我已经转告给运营者了。",
		"教えてくれてありがとう。運営している人に伝えたよ。",
	},
	msgExport: {
		"Here is everything stored about you.",
		"这是关于你存储的全部数据。",
		"あなたについて保存しているすべてのデータです。",
	},
	msgOperatorReview: {
		"[hearth] Review: user %s (%s): %s. Their messages: hearth export --user ID.",
		"[hearth] 需要人工查看：用户 %s（%s）：%s。TA 的数据：hearth export --user ID。",
		"[hearth] 確認が必要です：ユーザー %s（%s）：%s。データ：hearth export --user ID。",
	},
	msgOperatorAlert: {
		"[hearth] Watch: user %s (%s) needs a person's review: %s. Clear with: hearth watch clear --user %s",
		"[hearth] 观察期：用户 %s（%s）需要人工审核：%s。解除：hearth watch clear --user %s",
		"[hearth] 観察期間：ユーザー %s（%s）に人の確認が必要です：%s。解除：hearth watch clear --user %s",
	},
	msgFallbackName: {"friend", "朋友", "あなた"},
	// A user who asked in their own words (heart.ReadFirstMessages): what
	// changed, and the command that changes it back.
	msgFirstOff: {
		"I won't message you first; I'll be here whenever you want to talk. (If you change your mind: /quiet off.)",
		"我不会主动给你发消息了；你想聊的时候，我一直都在。（改主意的话：/quiet off）",
		"わたしからは話しかけないね。話したくなったら、いつでもここにいるよ。（気が変わったら：/quiet off）",
	},
	msgFirstOn: {
		"I may say hello now and then again. (/quiet turns it off.)",
		"我偶尔会主动来打个招呼。（/quiet 可以关掉）",
		"またときどき声をかけるね。（/quiet で止められるよ）",
	},
}

// FallbackUserName is how the companion calls a user whose name nobody
// knows (the console without $USER), in the persona's language.
func FallbackUserName(lang string) string { return text0(lang, msgFallbackName) }

// text0 renders a user-facing text in lang ("en", "zh", "ja"; others → en).
func text0(lang string, m msg, args ...any) string {
	t := texts[m]
	s := t[0]
	switch lang {
	case "zh":
		s = t[1]
	case "ja":
		s = t[2]
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// textN renders a counted text: one when n is 1 (English needs a singular;
// Chinese and Japanese count with the same words either way), else many.
func textN(lang string, one, many msg, n int) string {
	m := many
	if n == 1 {
		m = one
	}
	s := text0(lang, m)
	if strings.Contains(s, "%d") {
		return fmt.Sprintf(s, n)
	}
	return s
}
