package lifeloop

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/bot"
	"hearth/heart"
	"hearth/store"
)

// MaxMessageRunes bounds a proactive message; chosen by us: a check-in is a
// few sentences, and a runaway model answer must not become a wall of text.
const MaxMessageRunes = 500

// Motivation returns seed 004's life-loop motivation (004_dd92c72e713cef51.txt
// "主动关怀的动机") in the persona's language: the zh text verbatim, en and ja
// faithful translations. Unknown languages get English.
func Motivation(lang string) string {
	switch lang {
	case "zh":
		return "你不是因为 timer 到了才说话。\n你是因为在乎用户，所以想知道他怎么样。\n如果你觉得现在不该打扰他，就什么都不说。\n主动沉默也是一种关心。"
	case "ja":
		return "タイマーが鳴ったから話すのではない。\nユーザーのことを大切に思っているから、元気にしているか知りたいのだ。\n今は邪魔をするべきではないと感じたら、何も言わなくていい。\n自分から黙っていることも、ひとつの思いやりだ。"
	default:
		return "You don't speak because a timer went off.\nYou speak because you care about the user and want to know how they are.\nIf you feel you shouldn't disturb them right now, say nothing.\nChoosing to stay silent is also a way of caring."
	}
}

// words holds one language's prompt vocabulary.
type words struct {
	about, state, silence, clock, greeting, inner, scratch, emotion, mood string
	followUp, heavy                                                       string
	late, last, recent, said, memories, care, ahead                       string
	never, answer, ask                                                    string
	them                                                                  string // {{user}} in the static persona text
	states                                                                map[string]string
	parts                                                                 [4]string // night, morning, afternoon, evening
	day, hour, minute                                                     string
}

// vocabulary returns the prompt words for lang (en for unknown languages).
func vocabulary(lang string) words {
	switch lang {
	case "zh":
		return words{
			about: "关于 %s：", state: "你们的关系：%s", silence: "距离你们上一次说话：%s",
			clock: "现在的时间：%s（%s）", greeting: "如果他有一阵子没来，合适的问候可以像这样：「%s」",
			inner: "你对他的内心感受：%s", scratch: "你手头在想的事：%s", emotion: "他最近的情绪：%s",
			followUp: "他提到过的「%s」在 %s，那天已经过去了：如果你要联系他，可以问问怎么样了。", heavy: "他沉默之前（%s）说过：“%s”。打招呼时可以温和地问问现在怎么样，不要追问。",
			late:   "现在是他那边的深夜或清晨：这时发消息可能会吵醒他。除非真的等不了，就保持沉默。",
			ahead:  "他说过的「%s」就在明天（%s）：如果你要联系他，可以祝他顺利。",
			recent: "他最近跟你说过的话（按时间先后）：", said: "  - %s：“%s”", memories: "你记得的关于他的事：%s",
			care:   "要说就说他真正告诉过你的事。如果他最近说起离世、失去或难过的事，语气要轻，不要提轻松的话题，也不要劝他出去见朋友。",
			last:   "你上一次主动发给他的是：“%s”。不要再发一样的话。",
			mood:   "你现在的心情值（-100 到 100）：%.0f",
			never:  "绝不施压、埋怨或情感勒索：不要说「我等了你好久」「你怎么才来」「我以为你不要我了」「甚是想念」这类话。",
			answer: `只回答一个 JSON 对象：{"speak": true 或 false, "message": "要发给他的话"}。不说话时 speak 为 false、message 为空。消息要简短自然，用中文。`,
			ask:    "现在要不要主动找%s说点什么？只回答 JSON。", them: "对方",
			states: map[string]string{StateStranger: "陌生人", StateAcquaintance: "熟人", StateFriend: "朋友", StateClose: "亲密"},
			parts:  [4]string{"深夜", "早上", "下午", "晚上"},
			day:    "%d天", hour: "%d小时", minute: "%d分钟",
		}
	case "ja":
		return words{
			about: "%s について：", state: "ふたりの関係：%s", silence: "最後に言葉を交わしてから：%s",
			clock: "今の時刻：%s（%s）", greeting: "しばらく来ていなかったなら、こんな挨拶が合う：「%s」",
			inner: "その人への今の気持ち：%s", scratch: "いま考えかけていること：%s", emotion: "その人の最近の感情：%s",
			followUp: "その人が話していた「%s」は %s で、もう過ぎた。話しかけるなら、どうだったか聞いてみてもいい。", heavy: "しばらく話さなくなる前（%s）に「%s」と話していた。声をかけるなら、今はどうかそっと聞いてもいい。無理に聞き出さないこと。",
			late:   "その人のところは今、深夜か早朝だ。今送ると起こしてしまうかもしれない。どうしても待てないことでなければ、黙っていること。",
			ahead:  "その人が話していた「%s」は明日（%s）だ。話しかけるなら、うまくいくよう応援してもいい。",
			recent: "最近その人が話してくれたこと（古い順）：", said: "  - %s：「%s」", memories: "その人について覚えていること：%s",
			care:   "話すなら、その人が本当に話してくれたことについて。最近、誰かの死や喪失、つらい知らせを話していたなら、やさしく静かに。軽い話題や「友達と会ってみたら」は言わないこと。",
			last:   "前に自分から送ったのは「%s」だった。同じ言葉をもう一度送らないこと。",
			mood:   "あなたの今の気分（-100〜100）：%.0f",
			never:  "責めたり、圧をかけたり、感情で縛ったりしないこと。「ずっと待ってた」「なんで今頃来たの」「もう私のこと要らないと思った」「会いたくてたまらなかった」のようなことは言わない。",
			answer: `JSON オブジェクトひとつだけで答えること：{"speak": true か false, "message": "送る言葉"}。話さないときは speak を false、message を空にする。メッセージは短く自然に、日本語で。`,
			ask:    "今、%sに自分から話しかけたい？JSON だけで答えて。", them: "相手",
			states: map[string]string{StateStranger: "他人", StateAcquaintance: "知り合い", StateFriend: "友達", StateClose: "親しい友達"},
			parts:  [4]string{"深夜", "朝", "午後", "夜"},
			day:    "%d日", hour: "%d時間", minute: "%d分",
		}
	default:
		return words{
			about: "About %s:", state: "Your relationship: %s", silence: "Time since you last talked: %s",
			clock: "Time now: %s (%s)", greeting: "If they have been away a while, a fitting greeting is like: \"%s\"",
			inner: "How you feel about them: %s", scratch: "What you were in the middle of: %s", emotion: "Their recent emotion: %s",
			followUp: "They mentioned \"%s\" for %s, and that day has passed: if you reach out, you could ask how it went.", heavy: "Before they went quiet (%s) they shared: \"%s\". If you greet them, you may ask gently how it is now; never press.",
			late:   "It is late at night or early morning for them: a message now could wake them. Unless it cannot wait, stay silent.",
			ahead:  "They mentioned \"%s\", and it is tomorrow (%s): if you reach out, you could wish them well.",
			recent: "What they told you lately (oldest first):", said: "  - %s: \"%s\"", memories: "What you remember about them: %s",
			care:   "If you speak, speak of what they really told you. If they recently told of a death, a loss or hard news, be gentle and quiet: no light topics, and do not suggest going out or seeing friends.",
			last:   "The last time you wrote first, you said: \"%s\". Never send the same words again.",
			mood:   "Your mood now (-100 to 100): %.0f",
			never:  "Never pressure, blame or guilt-trip: do not say things like \"I waited for you so long\", \"why are you only coming now\", \"I thought you didn't want me anymore\" or \"I missed you terribly\".",
			answer: `Answer with one JSON object only: {"speak": true or false, "message": "what you would send"}. When you stay silent, speak is false and message is empty. Keep the message short and natural, in English.`,
			ask:    "Do you want to reach out to %s now? Answer with JSON only.", them: "the person you talk with",
			states: map[string]string{StateStranger: "stranger", StateAcquaintance: "acquaintance", StateFriend: "friend", StateClose: "close friend"},
			parts:  [4]string{"night", "morning", "afternoon", "evening"},
			day:    "%dd", hour: "%dh", minute: "%dm",
		}
	}
}

// Situation is what the default prompt tells the model about one user.
type Situation struct {
	User       store.User
	Assessment Assessment
	Now        time.Time     // in the persona's zone
	Silence    time.Duration // since the last message either way
	// FollowUp is a dated thing they mentioned whose day has passed, nil
	// when none (bot.CheckIn.FollowUps).
	FollowUp *bot.FollowUp
	// Heavy is what they shared before a long silence, in their words, and
	// HeavyAt when (seed 003 §7.1); "" when none.
	Heavy   string
	HeavyAt time.Time
	// Ahead is a dated thing they mentioned that is due tomorrow, nil when
	// none (bot.CheckIn.Ahead).
	Ahead *bot.FollowUp
	// Recent are the user's latest messages (bot.CheckIn.Recent, oldest
	// first) and Memories what the bot may bring up (bot.CheckIn.Memories),
	// so a model's check-in can be about what they told, and gentle after
	// a loss.
	Recent   []bot.ChatMessage
	Memories []string
	// CheckIns are the last messages the bot sent first to this user,
	// newest last: a check-in never repeats one word for word. The prompt
	// shows the newest.
	CheckIns []string
}

// BuildPrompt is the default life-loop conversation, static first (DESIGN
// §12 "Prompt order"): one system message that starts with the
// [[hearth:lifeloop]] marker line, then seed 004's motivation, the persona,
// what never to say and the answer format, the same for every user and
// every tick, so a provider's prefix cache keeps it across the whole
// tick; then one user message with this user's situation (relationship,
// silence, time, greeting, inner state, scratch, emotion, mood) and the
// question (some OpenAI-compatible servers refuse a conversation without a
// user message).
func BuildPrompt(p bot.Persona, s Situation) []bot.ChatMessage {
	w := vocabulary(p.Language)
	var sys strings.Builder
	sys.WriteString(bot.KindLifeLoop.Marker() + "\n" + Motivation(p.Language) + "\n\n")
	// The persona text is the same for every user of a tick (the prefix
	// cache): a card's {{user}} names them generically; their name is in
	// the situation.
	if t := strings.TrimSpace(bot.WithUser(p.Text, w.them)); t != "" {
		sys.WriteString(t + "\n\n")
	}
	sys.WriteString(w.never + "\n" + w.care + "\n" + w.answer)
	return []bot.ChatMessage{
		{Role: "system", Content: sys.String()},
		{Role: "user", Content: situation(w, s, p.Language)},
	}
}

// situation is the per-call part of the life-loop prompt: what the model
// knows about this user now, and the question.
func situation(w words, s Situation, lang string) string {
	name := userName(s.User)
	var b strings.Builder
	line := func(format string, a ...any) {
		b.WriteString("- ")
		fmt.Fprintf(&b, format, a...)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, w.about, name)
	b.WriteString("\n")
	line(w.state, stateLabel(w, s.Assessment.State))
	line(w.silence, humanDuration(w, s.Silence))
	line(w.clock, s.Now.Format("15:04"), w.parts[partOfDay(s.Now)])
	if bot.AsleepHour(s.Now) {
		b.WriteString("- " + w.late + "\n")
	}
	if n := len(s.CheckIns); n > 0 && strings.TrimSpace(s.CheckIns[n-1]) != "" {
		line(w.last, strings.TrimSpace(s.CheckIns[n-1]))
	}
	if g := strings.TrimSpace(s.Assessment.Greeting); g != "" {
		line(w.greeting, g)
	}
	if s.Heavy != "" {
		line(w.heavy, heart.RecallWhen(s.HeavyAt, s.Now, lang), s.Heavy)
	}
	if s.FollowUp != nil {
		line(w.followUp, s.FollowUp.About, s.FollowUp.Due)
	}
	if s.Ahead != nil {
		line(w.ahead, s.Ahead.About, s.Ahead.Due)
	}
	if len(s.Memories) > 0 {
		line(w.memories, strings.Join(s.Memories, "; "))
	}
	if said := recentSaid(w, s, lang); said != "" {
		b.WriteString("- " + w.recent + "\n" + said)
	}
	if v := strings.TrimSpace(s.User.InnerState); v != "" {
		line(w.inner, v)
	}
	if v := strings.TrimSpace(s.User.Scratch); v != "" {
		line(w.scratch, v)
	}
	if v := strings.TrimSpace(s.User.LastEmotion); v != "" {
		line(w.emotion, v)
	}
	line(w.mood, s.User.Mood)
	b.WriteString("\n")
	fmt.Fprintf(&b, w.ask, name)
	return b.String()
}

// MaxSaidRunes bounds each of the user's recent messages in the prompt;
// hearth's choice: enough for what a message tells, while ten of them
// stay a short paragraph.
const MaxSaidRunes = 200

// recentSaid lists the user's recent messages, each with when they said
// it (heart.RecallWhen), one a line; "" when none.
func recentSaid(w words, s Situation, lang string) string {
	var b strings.Builder
	for _, m := range s.Recent {
		text := strings.Join(strings.Fields(m.Content), " ")
		if m.Role != "user" || text == "" {
			continue
		}
		when := "-"
		if !m.At.IsZero() && !s.Now.IsZero() {
			when = heart.RecallWhen(m.At, s.Now, lang)
		}
		fmt.Fprintf(&b, w.said, when, clip(text, MaxSaidRunes))
		b.WriteString("\n")
	}
	return b.String()
}

// ensureMarker makes a caller-supplied conversation honour DESIGN §9: the
// marker is the very first line of the first system message, alone.
func ensureMarker(msgs []bot.ChatMessage, lang string) []bot.ChatMessage {
	marker := bot.KindLifeLoop.Marker()
	if len(msgs) > 0 && msgs[0].Role == "system" {
		if msgs[0].Content == marker || strings.HasPrefix(msgs[0].Content, marker+"\n") {
			return msgs
		}
		out := append([]bot.ChatMessage(nil), msgs...)
		out[0].Content = marker + "\n" + out[0].Content
		return out
	}
	head := bot.ChatMessage{Role: "system", Content: marker + "\n" + Motivation(lang)}
	return append([]bot.ChatMessage{head}, msgs...)
}

// userName is the name prompts use for u.
func userName(u store.User) string {
	if n := strings.TrimSpace(u.Name); n != "" {
		return n
	}
	return u.ID
}

// stateLabel translates a state name, keeping unknown names as they are.
func stateLabel(w words, s string) string {
	if l, ok := w.states[s]; ok {
		return l
	}
	return s
}

// partOfDay maps a wall-clock hour to night (0-5), morning (6-11),
// afternoon (12-17) and evening (18-23).
func partOfDay(t time.Time) int {
	return t.Hour() / 6
}

// humanDuration renders d as days and hours, or minutes under an hour.
func humanDuration(w words, d time.Duration) string {
	if d < 0 {
		d = 0
	}
	days := int(d / (24 * time.Hour))
	hours := int(d % (24 * time.Hour) / time.Hour)
	var parts []string
	if days > 0 {
		parts = append(parts, fmt.Sprintf(w.day, days))
	}
	if hours > 0 {
		parts = append(parts, fmt.Sprintf(w.hour, hours))
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf(w.minute, int(d/time.Minute)))
	}
	return strings.Join(parts, " ")
}

// ParseSpeak reads the model's life-loop answer leniently: it takes the first
// JSON object anywhere in text (code fences and chatter around it are
// ignored), accepts "speak" as a bool or a "true"/"false" string, and, when
// "speak" is missing, speaks exactly when there is a message. It fails only
// when no JSON object can be found.
func ParseSpeak(text string) (speak bool, message string, err error) {
	var obj map[string]json.RawMessage
	if raw, ok := heart.FirstJSONObject(text); ok && json.Unmarshal([]byte(raw), &obj) == nil {
		return interpretSpeak(obj)
	}
	return false, "", fmt.Errorf("parse lifeloop answer: no JSON object in %q", clip(text, 80))
}

// interpretSpeak turns a decoded object into speak and message.
func interpretSpeak(obj map[string]json.RawMessage) (bool, string, error) {
	var msg string
	if raw, ok := obj["message"]; ok {
		if json.Unmarshal(raw, &msg) != nil {
			msg = ""
		}
	}
	msg = strings.TrimSpace(msg)
	raw, ok := obj["speak"]
	if !ok {
		return msg != "", msg, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, msg, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true", "yes", "1":
			return true, msg, nil
		}
	}
	return false, msg, nil
}

// trimMessage bounds a message to MaxMessageRunes runes, cutting at a rune
// boundary and marking the cut with an ellipsis.
func trimMessage(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= MaxMessageRunes {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:MaxMessageRunes-1])) + "…"
}

// clip shortens s for error messages.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
