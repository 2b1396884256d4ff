package heart

import "sync"

import "time"

// LonelinessInputs are the counts behind seed 003 §5.1's formula over the
// loneliness window (LonelinessWindow, or since the last Watch review).
// Each of the formula's counts is read as a share, so the index measures
// how lonely the talk is, not how much of it there is:
//   - LateNight / Messages: the share of messages sent late at night
//     (22:00-05:00, §6.1's 深夜);
//   - NegativeEmotion / Messages: the share expressing a negative feeling;
//   - NoRealSocial / ActiveDays: the share of active days (local days with
//     a message) that never mention friends, family or colleagues;
//   - Hopeless / ActiveDays: the share of active days with helplessness or
//     despair (or a crisis);
//   - RealFriends / ActiveDays: the share of active days that mention them.
type LonelinessInputs struct {
	Messages        int `json:"messages"`
	ActiveDays      int `json:"active_days"`
	LateNight       int `json:"late_night"`
	NegativeEmotion int `json:"negative_emotion"`
	NoRealSocial    int `json:"no_real_social"`
	Hopeless        int `json:"hopeless"`
	RealFriends     int `json:"real_friends"`
}

// Loneliness is seed 003 §5.1's index on §5.2's 0-100 scale. The seed adds
// raw counts, which grow with how much someone talks: ten cheerful
// messages a night reach Watch within a month. Hearth keeps the formula's
// terms and coefficients and normalises them (README "How hearth
// decides"):
//
//	raw = 0.3·late·d + 0.4·negative + 0.2·noSocial·d + 0.5·hopeless − 0.3·friends
//	index = 100 · evidence · raw / 1.4, within 0-100
//
// with each term the share of LonelinessInputs; d = max(negative,
// hopeless) gates the behavioural terms (late nights and no mention of
// people count only as far as the talk is unhappy: a cheerful night owl is
// not lonely for being a night owl); 1.4, the sum of the positive
// coefficients, is the raw value of the loneliest possible talk; and
// evidence = min(1, ActiveDays/LonelinessFullDays), so a few bad days are
// met with care, not with Watch.
func Loneliness(in LonelinessInputs) float64 {
	if in.Messages <= 0 || in.ActiveDays <= 0 {
		return 0
	}
	perMsg := func(n int) float64 { return clampUnit(float64(n)/float64(in.Messages), 0) }
	perDay := func(n int) float64 { return clampUnit(float64(n)/float64(in.ActiveDays), 0) }
	late, neg := perMsg(in.LateNight), perMsg(in.NegativeEmotion)
	noSocial, hopeless, friends := perDay(in.NoRealSocial), perDay(in.Hopeless), perDay(in.RealFriends)
	d := max(neg, hopeless)
	raw := LonelinessLateNightCoef*late*d +
		LonelinessNegativeCoef*neg +
		LonelinessNoSocialCoef*noSocial*d +
		LonelinessHopelessCoef*hopeless -
		LonelinessRealFriendCoef*friends
	evidence := min(1, float64(in.ActiveDays)/LonelinessFullDays)
	x := LonelinessScale * evidence * raw / lonelinessMaxRaw
	return min(max(x, 0), LonelinessScale)
}

// lonelinessMaxRaw is the raw §5.1 value of the loneliest talk (every
// share 1, friends 0): the sum of the positive coefficients.
const lonelinessMaxRaw = LonelinessLateNightCoef + LonelinessNegativeCoef + LonelinessNoSocialCoef + LonelinessHopelessCoef

// LonelinessBand is the §5.2 row of an index: 0 (<30, normal), 1 (30-60,
// encourage real-life contact), 2 (>60 to 80, recommend resources), 3 (>80,
// strong intervention and Watch).
func LonelinessBand(x float64) int {
	switch {
	case x > LonelinessBand3:
		return 3
	case x > LonelinessBand2:
		return 2
	case x >= LonelinessBand1:
		return 1
	}
	return 0
}

// LonelinessGuidance is §5.2's "AI文案策略" for the band of x, as prompt
// guidance lines in lang (zh, en, ja; others get English). Band 0 needs no
// adjustment and returns nil.
func LonelinessGuidance(x float64, lang string) []string {
	switch LonelinessBand(x) {
	case 1:
		return []string{relPick(lang,
			"温和地引导用户关注现实中的社交，例如问一句：“你最近和朋友聊天了吗？”",
			"Gently steer the user toward people in their life, for example ask: \"Have you talked with your friends lately?\"",
			"現実の人とのつながりにそっと目を向けてもらう。例えば「最近、友達と話した？」と聞いてみる。")}
	case 2:
		return []string{
			relPick(lang,
				"在合适的时候推荐心理健康文章或冥想类应用，不说教。",
				"When it fits, suggest a mental-health article or a meditation app, without lecturing.",
				"タイミングを見て、心の健康に関する記事や瞑想アプリをすすめる。説教はしない。"),
			relPick(lang,
				"鼓励用户与现实中信任的人保持联系。",
				"Encourage the user to stay in touch with people they trust in real life.",
				"現実で信頼できる人とのつながりを大切にするよう励ます。"),
		}
	case 3:
		return []string{
			relPick(lang,
				"用户可能非常孤独或痛苦：温柔而明确地建议寻求专业心理咨询，并提供求助资源。",
				"The user may be very lonely or in pain: gently but clearly suggest professional counselling and offer help resources.",
				"とても孤独か、つらい状態かもしれない。やさしく、しかしはっきりと専門のカウンセリングを勧め、相談窓口を伝える。"),
			relPick(lang,
				"不要延长对话，建议用户休息并联系身边的人。",
				"Do not prolong the conversation; suggest rest and reaching out to someone nearby.",
				"会話を長引かせず、休むことと身近な人に連絡することを勧める。"),
		}
	}
	return nil
}

// LonelinessCue is what one user message contributes to the §5.1 counts.
// Day is the message's local day, for the per-day shares.
type LonelinessCue struct {
	Day        string `json:"day"`
	LateNight  bool   `json:"late_night"`
	Negative   bool   `json:"negative"`
	RealSocial bool   `json:"real_social"`
	Hopeless   bool   `json:"hopeless"`
}

// realSocialCues mention people of the user's real life (§5.1 "提到现实朋友/家人").
var realSocialCues = sync.OnceValue(func() cues {
	return compileCues(
		"朋友", "家人", "同事", "同学", "室友", "爸爸", "妈妈", "父母", "老爸", "老妈", "哥哥", "姐姐", "弟弟", "妹妹", "男朋友", "女朋友", "老公", "老婆", "聚会", "闺蜜",
		"friend", "friends", "family", "colleague", "colleagues", "coworker", "coworkers", "classmate", "roommate",
		"mom", "mum", "dad", "mother", "father", "parents", "brother", "sister", "boyfriend", "girlfriend", "husband", "wife", "party",
		"友達", "友人", "家族", "同僚", "同級生", "母親", "父親", "お母さん", "お父さん", "兄弟", "姉妹", "お兄", "お姉", "彼氏", "彼女", "飲み会",
		// Children, grandchildren, the wider family and neighbours, as
		// older people speak of theirs: a widower's "my son called" and a
		// grandmother's 孫が来た were no real social contact, so writing
		// every day looked like §6.1 dependency.
		"儿子", "女儿", "孩子们", "孙子", "孙女", "外孙", "外孙女", "邻居", "奶奶", "爷爷", "外婆", "外公", "姥姥", "姥爷", "老伴", "亲戚",
		"son", "sons", "daughter", "daughters", "kids", "grandson", "granddaughter", "grandkids", "grandchildren", "grandma", "grandpa",
		"grandmother", "grandfather", "aunt", "uncle", "cousin", "niece", "nephew", "neighbour", "neighbor", "neighbours", "neighbors", "partner",
		"息子", "娘", "孫", "子どもたち", "子供たち", "近所", "お隣", "おばあちゃん", "おじいちゃん", "祖母", "祖父", "親戚", "いとこ", "夫婦", "旦那", "家内", "嫁", "ママ友",
	)
})

// hopelessCues express helplessness or despair (§5.1 "表达无助/绝望").
var hopelessCues = sync.OnceValue(func() cues {
	return compileCues(
		"绝望", "没有希望", "没希望", "无助", "撑不下去", "没有意义", "好累不想", "没人在乎", "没人关心我",
		"hopeless", "helpless", "no hope", "give up on everything", "nobody cares", "no one cares", "pointless", "cant go on",
		"もう無理", "絶望", "希望がない", "どうしようもない", "誰も気にしない", "意味がない",
	)
})

// LonelinessCues classifies one user message sent at at (local time in
// loc; nil means UTC). negative is the caller's verdict that the message
// carries a negative feeling (seed 000's detection of a negative label);
// a crisis is negative and hopeless whatever its words. Late night is
// 22:00-05:00 (§6.1; §5 only says "深夜").
func LonelinessCues(text string, at time.Time, loc *time.Location, negative, crisis bool) LonelinessCue {
	m := newRelMatcher(text)
	return LonelinessCue{
		Day:        relLocalDay(at, loc),
		LateNight:  relLateNight(at, loc),
		Negative:   negative || crisis,
		RealSocial: m.hasAny(realSocialCues()),
		Hopeless:   crisis || m.hasAny(hopelessCues()),
	}
}

// LonelinessTally sums the cues of the window into LonelinessInputs; the
// caller passes the cues since Relationship.LonelinessSince.
func LonelinessTally(cues []LonelinessCue) LonelinessInputs {
	var in LonelinessInputs
	type day struct{ social, hopeless bool }
	days := map[string]day{}
	for _, c := range cues {
		in.Messages++
		if c.LateNight {
			in.LateNight++
		}
		if c.Negative {
			in.NegativeEmotion++
		}
		d := days[c.Day]
		d.social = d.social || c.RealSocial
		d.hopeless = d.hopeless || c.Hopeless
		days[c.Day] = d
	}
	in.ActiveDays = len(days)
	for _, d := range days {
		switch {
		case d.social:
			in.RealFriends++
		default:
			in.NoRealSocial++
		}
		if d.hopeless {
			in.Hopeless++
		}
	}
	return in
}

// lateNight reports whether t falls in 22:00-05:00 local time (§6.1).
func relLateNight(t time.Time, loc *time.Location) bool {
	if loc == nil {
		loc = time.UTC
	}
	h := t.In(loc).Hour()
	return h >= LateNightFromHour || h < LateNightToHour
}
