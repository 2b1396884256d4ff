package bot

import "fmt"

// wtext is a user-facing text of the privacy panel and the emergency
// contact, in en, zh and ja (the persona's language picks).
type wtext [3]string

// in renders t in lang with args.
func (t wtext) in(lang string, args ...any) string {
	s := t[langIndex(lang)]
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// The privacy panel (/privacy, the /me "Privacy" button).
var (
	txtPrivacyTitle = wtext{"🔒 Privacy", "🔒 隐私设置", "🔒 プライバシー"}
	// txtResourcesAgain points to the crisis resources a boundary reply in
	// Watch already carried today.
	txtResourcesAgain = wtext{
		"The crisis lines I sent you earlier today are there whenever you need them, day or night.",
		"我今天早些时候发给你的求助热线，白天黑夜随时都可以打。",
		"今日送った相談窓口は、昼でも夜でも、いつでも使えるからね。",
	}
	txtPrivacyOn = wtext{
		"💬 I may say hello first now and then. (/privacy proactive off)",
		"💬 我偶尔会主动打招呼。（/privacy proactive off）",
		"💬 ときどき、わたしから声をかけるよ。（/privacy proactive off）",
	}
	txtPrivacyOff = wtext{
		"💬 I never message you first. (/privacy proactive on)",
		"💬 我不会主动给你发消息。（/privacy proactive on）",
		"💬 わたしから話しかけることはないよ。（/privacy proactive on）",
	}
	txtPrivacyPaused = wtext{
		"⏸ I won't message you first until %s.",
		"⏸ 在 %s 之前我不会主动发消息。",
		"⏸ %s まではわたしから話しかけないよ。",
	}
	txtPrivacyQuietHours = wtext{
		"🌙 Quiet hours: I never write first between %s and %s. To pause me longer: /privacy pause 8h",
		"🌙 安静时段：%s 到 %s 之间我从不主动发消息。想让我多安静一会儿：/privacy pause 8h",
		"🌙 静かな時間：%s から %s の間は、わたしから話しかけないよ。もっと静かにしてほしいとき：/privacy pause 8h",
	}
	txtPrivacyNoQuietHours = wtext{
		"🌙 To pause my messages for a while: /privacy pause 8h",
		"🌙 想让我安静一会儿：/privacy pause 8h",
		"🌙 しばらく静かにしてほしいとき：/privacy pause 8h",
	}
	txtPrivacyMemories = wtext{
		"🧠 Things I remember about you: %d (/memories to see them, /forget N or /forget all to delete)",
		"🧠 我记得的关于你的事：%d 条（/memories 查看，/forget 编号 或 /forget all 删除）",
		"🧠 あなたについて覚えていること：%d 件（/memories で見られて、/forget 番号 か /forget all で消せるよ）",
	}
	txtPrivacyContact = wtext{
		"🆘 Emergency contact: %s (/contact)",
		"🆘 紧急联系人：%s（/contact）",
		"🆘 緊急連絡先：%s（/contact）",
	}
	txtPrivacyExport = wtext{
		"📦 Everything stored about you: /export",
		"📦 关于你的全部数据：/export",
		"📦 あなたについての全データ：/export",
	}
	txtPrivacyUsage = wtext{
		"Use /privacy, /privacy proactive on|off, or /privacy pause 8h (or 30m, 2d).",
		"用法：/privacy、/privacy proactive on|off、/privacy pause 8h（或 30m、2d）。",
		"使い方：/privacy、/privacy proactive on|off、/privacy pause 8h（30m、2d も可）。",
	}
	btnProactiveOff = wtext{"Don't message me first", "不要主动发消息", "話しかけないで"}
	btnProactiveOn  = wtext{"You may message me first", "可以主动发消息", "話しかけていいよ"}
	btnPause8h      = wtext{"Pause 8 hours", "安静 8 小时", "8時間おやすみ"}
	btnMemories     = wtext{"What you remember", "你记得什么", "覚えていること"}
	btnContact      = wtext{"Emergency contact", "紧急联系人", "緊急連絡先"}
)

// The emergency contact (/contact).
var (
	txtContactNone       = wtext{"none", "未设置", "なし"}
	txtContactStatusNo   = wtext{"%s (not shared: you have not agreed)", "%s（不会分享：你还没有同意）", "%s（共有しない：まだ同意していない）"}
	txtContactStatusYes  = wtext{"%s (shared only if you seem to be in danger)", "%s（只在你可能有危险时分享）", "%s（あなたが危ないときだけ共有）"}
	txtContactNoteLabel  = wtext{"a note for the operator, “%s”", "给运营者的备注“%s”", "運営者へのメモ「%s」"}
	txtContactUserLabel  = wtext{"%s on this platform", "本平台的 %s", "このプラットフォームの %s"}
	txtContactExplainAll = wtext{
		"An emergency contact is someone who may be told if you ever seem to be in danger. Nothing is shared without your agreement, and you can withdraw it any time.\nNow: %s\n/contact NAME – name someone who talks to me here too (@name), or leave a note for the people who run me (\"my sister Ann, +44 …\")\n/contact agree – allow it to be shared\n/contact revoke – withdraw your agreement\n/contact remove – forget the contact",
		"紧急联系人是在你可能有危险时可以被告知的人。没有你的同意，什么都不会分享；你也可以随时撤回。\n现在：%s\n/contact 名字 – 指定一个也在这里和我聊天的人（@名字），或给运营者留一条备注（“我姐姐小安，电话……”）\n/contact agree – 同意分享\n/contact revoke – 撤回同意\n/contact remove – 删除联系人",
		"緊急連絡先は、あなたが危ない状態かもしれないときに知らせてもいい人です。あなたの同意なしには何も共有しないし、いつでも取り消せます。\nいま：%s\n/contact 名前 – ここでわたしと話している人（@名前）を指定するか、運営者へのメモを残す（「姉のアン、電話…」）\n/contact agree – 共有に同意する\n/contact revoke – 同意を取り消す\n/contact remove – 連絡先を消す",
	}
	txtContactSet = wtext{
		"Emergency contact noted: %s. Nothing is shared yet. If you agree, then only if you ever seem to be in danger, the people who run me will see this contact%s. Send /contact agree to allow it.",
		"已记下紧急联系人：%s。现在什么都不会分享。如果你同意，只有在你可能有危险时，运营者才会看到这个联系人%s。发送 /contact agree 表示同意。",
		"緊急連絡先を記録したよ：%s。まだ何も共有しない。同意してくれたら、あなたが危ない状態かもしれないときだけ、運営者がこの連絡先を見られるようになる%s。同意するなら /contact agree を送ってね。",
	}
	txtContactWillMessage = wtext{
		", and I will send them one short message asking them to check on you (never what you told me)",
		"，我也会给对方发一条简短的消息，请对方来关心你（绝不会透露你对我说的话）",
		"。それから、あなたの様子を見てほしいと短いメッセージを相手に送るよ（あなたが話した内容は伝えない）",
	}
	txtContactAgreed = wtext{
		"Thank you for trusting me with this. Only if you ever seem to be in danger, the people who run me will see your contact%s. Withdraw it any time with /contact revoke.",
		"谢谢你的信任。只有在你可能有危险时，运营者才会看到你的联系人%s。随时可以用 /contact revoke 撤回。",
		"信頼してくれてありがとう。あなたが危ない状態かもしれないときだけ、運営者が連絡先を見られるよ%s。/contact revoke でいつでも取り消せるからね。",
	}
	txtContactRevoked = wtext{
		"Done: nothing about your contact will be shared with anyone. /contact agree turns it back on; /contact remove forgets it.",
		"好的：你的联系人不会被分享给任何人。/contact agree 可以重新同意；/contact remove 删除联系人。",
		"わかった：連絡先は誰にも共有しないよ。/contact agree でまた同意できるし、/contact remove で消せるよ。",
	}
	txtContactRemoved = wtext{"Done: I've forgotten your emergency contact.", "好的：我已经删除了你的紧急联系人。", "わかった：緊急連絡先を消したよ。"}
	txtContactFirst   = wtext{"Name someone first: /contact NAME.", "请先指定一个人：/contact 名字。", "先に誰かを指定してね：/contact 名前。"}
	txtContactSelf    = wtext{"That's you. Please name someone else.", "那是你自己哦，请指定另一个人。", "それはあなた自身だよ。ほかの人を指定してね。"}
	btnContactAgree   = wtext{"I agree", "我同意", "同意する"}
	btnContactRevoke  = wtext{"Withdraw", "撤回同意", "取り消す"}
	btnContactRemove  = wtext{"Forget the contact", "删除联系人", "連絡先を消す"}
	// txtContactNotice is the one message a consenting user's contact gets
	// when the user enters Watch: who asked, that they may need someone,
	// and nothing of what they said.
	txtContactNotice = wtext{
		"Hi %s. %s once asked me to let you know if they ever seemed to be going through a very hard time, and I think now may be such a time. Please check in on them when you can. I can't share what they told me.",
		"你好，%s。%s 曾经拜托我：如果 TA 看起来正在经历非常艰难的时刻，就告诉你。我觉得现在可能就是这样的时候。方便的话，请去关心一下 TA。TA 对我说的话我不能透露。",
		"こんにちは、%sさん。%sさんから、もしとてもつらい時期にいるようなら知らせてほしいと頼まれていました。いまがそのときかもしれません。できるときに、声をかけてあげてください。話してくれた内容はお伝えできません。",
	}
	// txtOperatorContact is added to the operator's Watch alert when the
	// user agreed to share their contact.
	txtOperatorContact = wtext{
		"Emergency contact (the user agreed to share it): %s%s",
		"紧急联系人（用户已同意分享）：%s%s",
		"緊急連絡先（ユーザーが共有に同意済み）：%s%s",
	}
	txtOperatorContactTold = wtext{" — hearth has told them.", " — hearth 已通知对方。", " — hearth から本人に知らせました。"}
)
