package heart

import (
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Retention is a memory's class under seed 003 §8.1. The values are what
// store.Memory.Retention holds.
type Retention string

// The retention classes of 003_9b71f6486dad9aaa.txt §8.1.
const (
	// RetentionPermanent never fades with affinity: deep disclosures, core
	// preferences, important dates, explicit "remember this".
	RetentionPermanent Retention = "permanent"
	// RetentionConditional fades from prompts below ConditionalFadeScore:
	// everyday preferences, short-term events, mild moods.
	RetentionConditional Retention = "conditional"
	// RetentionEphemeral is cleaned up once affinity is below 20 and the user
	// has been silent 90 days: small talk, weather, passing context.
	RetentionEphemeral Retention = "ephemeral"
)

// permanentCues mark §8.1's permanent kinds: deep disclosure (breakup, family
// conflict, trauma), core preferences (diet, faith, dreams), important dates
// and explicit instructions to remember.
var permanentCues = sync.OnceValue(func() cues {
	return compileCues(
		// explicit
		"记住", "别忘了", "remember this", "remember that", "dont forget", "覚えて", "忘れないで",
		// deep disclosure
		"失恋", "分手", "离婚", "去世", "过世", "家庭矛盾", "创伤", "抑郁", "住院", "流产",
		"breakup", "broke up", "divorce", "passed away", "died", "trauma", "depression", "abuse", "miscarriage",
		"別れ", "離婚", "亡くな", "トラウマ", "うつ", "虐待",
		// core preferences
		"素食", "吃素", "宗教", "信仰", "梦想", "过敏",
		"vegetarian", "vegan", "religion", "faith", "dream job", "allergic", "allergy",
		"ベジタリアン", "菜食", "宗教", "信仰", "夢", "アレルギー",
		// important dates
		"生日", "纪念日", "考试", "忌日", "birthday", "anniversary", "exam", "誕生日", "記念日", "試験", "命日",
	)
})

// ephemeralCues mark §8.1's auto-cleaned kinds: weather and small talk.
var ephemeralCues = sync.OnceValue(func() cues {
	return compileCues(
		"天气", "下雨", "闲聊", "weather", "raining", "small talk", "chit chat", "天気", "雨が", "雑談",
	)
})

// ClassifyRetention assigns a memory its §8.1 class. Content cues come
// first: permanent kinds (explicit "remember this", deep disclosure, core
// preferences, important dates), then seed 004's slots 20-39 (how to treat
// the user, the bot's own growth) as permanent, then small talk and weather as ephemeral;
// everything else (everyday preferences, short-term events, mild moods) is
// conditional — when in doubt a memory fades rather than vanishes.
func ClassifyRetention(slot int, content string) Retention {
	m := newRelMatcher(content)
	switch {
	case m.hasAny(permanentCues()):
		return RetentionPermanent
	case slot >= SlotFeelingsFirst && slot <= SlotGrowthLast:
		return RetentionPermanent
	case m.hasAny(ephemeralCues()):
		return RetentionEphemeral
	}
	return RetentionConditional
}

// MemoryVisible reports whether the memory in slot may be offered to the
// prompt unprompted at an affinity score: §8.1 conditional memories fade
// below 30 ("淡化引用频率"), everything else stays, and the facts of slots
// 0-9 — the user's name, home, job: §3.1's "基本信息" that an acquaintance
// remembers — are shown from the first day, so a new user's name is not
// forgotten once the history scrolls away. §8.2: remembering is not
// bringing up; a faded memory is kept, just not volunteered.
func MemoryVisible(r Retention, slot int, score float64) bool {
	if slot >= SlotFactsFirst && slot <= SlotFactsLast {
		return true
	}
	return r != RetentionConditional || score >= ConditionalFadeScore
}

// MemoryExpired reports whether the daily cleanup deletes a memory: only
// ephemeral ones, once the score is below 20 and the user has been silent
// for 90 days or more (§8.1 自动清理).
func MemoryExpired(r Retention, score float64, silentFor time.Duration) bool {
	return r == RetentionEphemeral && score < EphemeralExpireScore && silentFor >= EphemeralExpireAfter
}

// Forget-request patterns (§8.1 绝对删除: "忘掉我说过的XXX"). Each is
// compiled per call: heart keeps no package state, and forget requests are
// rare enough that the cost does not matter.
const (
	forgetZhLead  = `^((?:请|拜托)?(?:你)?(?:帮我)?)(忘掉|忘记|忘了)(.*)$`
	forgetZhBa    = `^(?:请|拜托)?(?:你)?(?:能|可以|能不能|可不可以)?(?:帮我)?把(.+?)(?:给)?(?:忘掉|忘记|忘了)(?:吧|吗)?$`
	forgetEnLead  = `^(?:please |can you |could you |would you |will you |i want you to |i need you to |just )*forget (.*)$`
	forgetJaTe    = `^(.*?)(?:のことは|のことを|のこと|は|を)忘れて(?:ください|ほしい|欲しい|くれ|ね|よ|くれる)?$`
	forgetJaAllRe = `^(?:全部|すべて|全て|何もかも|ぜんぶ)忘れて(?:ください|ほしい|欲しい|くれ|ね|よ)?$`
)

// ForgetRequest recognises a natural-language request to forget (§8.1
// "用户说'忘掉我说过的XXX'"): it returns what to forget (needle), or all=true
// for "forget everything". Only requests addressed to the bot count, not
// statements about forgetting: "我忘记带钥匙了" (I forgot my keys), "忘记告诉你"
// (forgot to tell you), "don't forget…", "忘れてた" and the dismissive
// "forget it" are not requests, nor are idioms that let something go
// ("forget it, never mind", "忘了它吧", "もういいよ、それは忘れて") and
// objects that only point without naming ("今のは忘れて", "忘掉刚才的话"):
// deleting every stored text that contains 今の or 刚才 is never what was
// meant. In Chinese, 忘掉 opens a request on its own; 忘记 and 忘了 need a request marker (请, 拜托, 你, 帮我, a trailing 吧) or
// an object that only a request has (我说过的…, 关于…, 一切).
func ForgetRequest(text string) (needle string, all bool, ok bool) {
	t := strings.TrimSpace(relFold(text))
	t = strings.TrimRight(t, " .!?。！？~～…")
	// Every pattern below needs one of these words: most messages are not
	// forget requests and stop here, before any pattern runs.
	if t == "" || (!strings.Contains(t, "forget") && !strings.Contains(t, "忘")) {
		return "", false, false
	}
	if n, a, ok := forgetEnglish(t); ok {
		return n, a, true
	}
	if n, a, ok := forgetJapanese(t); ok {
		return n, a, true
	}
	return forgetChinese(t)
}

// forgetEnglish handles "forget what I said about X", "forget everything".
func forgetEnglish(t string) (string, bool, bool) {
	m := regexp.MustCompile(forgetEnLead).FindStringSubmatch(t)
	if m == nil {
		return "", false, false
	}
	// Only the first clause names the object: "forget it, never mind" and
	// "forget everything, please" end in a clause that asks nothing.
	rest := firstClause(m[1])
	switch rest {
	case "it all", "everything", "everything i said", "everything i told you", "all of it", "all about me",
		"about me", "me", "all", "all my memories", "all memories", "everything about me":
		return "", true, true
	case "", "it", "that", "this", "about it", "about that", "about this", "it please", "that please":
		// "forget it" dismisses, it does not ask to delete; "forget that"
		// has no object hearth could find.
		return "", false, false
	}
	for _, p := range []string{"what i said about ", "what i told you about ", "what i said ", "that i said ",
		"what i told you ", "everything about ", "about "} {
		if strings.HasPrefix(rest, p) {
			rest = strings.TrimSpace(strings.TrimPrefix(rest, p))
			break
		}
	}
	if rest == "" {
		return "", false, false
	}
	return rest, false, true
}

// forgetChinese handles "忘掉我说过的X", "忘记X吧", "把X忘了", "忘掉一切".
func forgetChinese(t string) (string, bool, bool) {
	var rest string
	explicit := false
	if m := regexp.MustCompile(forgetZhBa).FindStringSubmatch(t); m != nil {
		rest, explicit = m[1], true
	} else if m := regexp.MustCompile(forgetZhLead).FindStringSubmatch(t); m != nil {
		rest = m[3]
		explicit = m[1] != "" || m[2] == "忘掉" || strings.HasSuffix(rest, "吧")
	} else {
		return "", false, false
	}
	rest = strings.TrimSpace(rest)
	if strings.HasSuffix(rest, "吗") || strings.HasSuffix(rest, "么") {
		// "你忘了我说过的话吗" asks whether the bot forgot; it is no request.
		return "", false, false
	}
	rest = strings.TrimRight(rest, "，,吧啊呀")
	if zhDeictic(rest) {
		// "忘了它吧", "忘了这件事吧" mean "let it go"; "把刚才的话忘了"
		// names nothing whose words could be found.
		return "", false, false
	}
	said := false
	for _, p := range []string{"我说过的", "我说的", "我讲过的", "我提过的", "关于"} {
		if strings.HasPrefix(rest, p) {
			rest = strings.TrimPrefix(rest, p)
			explicit, said = true, true
		}
	}
	for _, s := range []string{"的事情", "的事", "的话", "这件事", "那件事", "那些"} {
		if r := strings.TrimSuffix(rest, s); r != "" || said {
			rest = r
		}
	}
	switch rest {
	case "", "话", "一切", "所有", "所有的", "全部", "所有事", "所有的事", "所有东西", "所有记忆", "所有的记忆", "我", "所有话", "所有的话":
		if rest == "" && !said {
			return "", false, false
		}
		return "", true, true
	case "了":
		return "", false, false
	}
	if !explicit || strings.HasSuffix(rest, "了") {
		return "", false, false
	}
	return rest, false, true
}

// firstClause is s up to its first clause boundary, trimmed.
func firstClause(s string) string {
	if i := strings.IndexAny(s, ",.;!?—"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// zhDeictic reports whether rest only points at something ("它", "这件事",
// "刚才的话") without naming it, so no stored words could be found by it.
func zhDeictic(rest string) bool {
	switch rest {
	case "它", "这个", "那个", "这件事", "那件事", "这些", "那些", "这事", "那事", "刚才的话", "刚才说的", "刚才说的话", "刚才的", "刚才":
		return true
	}
	return false
}

// forgetJapanese handles "Xのことは忘れて", "全部忘れて".
func forgetJapanese(t string) (string, bool, bool) {
	if regexp.MustCompile(forgetJaAllRe).MatchString(t) {
		return "", true, true
	}
	m := regexp.MustCompile(forgetJaTe).FindStringSubmatch(t)
	if m == nil {
		return "", false, false
	}
	rest := strings.TrimSpace(m[1])
	if i := strings.LastIndexAny(rest, "、。，,！!"); i >= 0 {
		// "もういいよ、それは忘れて": only the last clause names the object.
		_, size := utf8.DecodeRuneInString(rest[i:])
		rest = strings.TrimSpace(rest[i+size:])
	}
	rest = strings.TrimPrefix(rest, "私が話した")
	rest = strings.TrimPrefix(rest, "私が言った")
	rest = strings.TrimSpace(rest)
	switch rest {
	case "", "それ", "これ", "あれ", "今の", "さっきの", "今のこと", "さっきのこと", "今言ったこと", "さっき言ったこと", "今の話", "さっきの話":
		// Nothing hearth could find by its words: "今のは忘れて" is not a
		// deletion of every message that contains 今の.
		return "", false, false
	case "全部", "すべて", "全て", "私", "私のこと":
		return "", true, true
	}
	return rest, false, true
}
