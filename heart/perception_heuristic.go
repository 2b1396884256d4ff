package heart

import (
	"strings"
	"sync"
	"unicode"
)

// The heuristic perceiver stands in for the L1 call when it fails or the
// persona sets `perception: heuristic` (DESIGN §3 step 3). Its numbers are
// ours; seed 001 defines only the fields.
const (
	// HeuristicNegativeWeight scales the sentiment of a negative user emotion:
	// a user's own sadness is not aimed at the persona, so it weighs half of
	// what the same words aimed at her would.
	HeuristicNegativeWeight = 0.5
	// Intent floors and ceilings of the heuristic sentiment.
	heuristicInsultCeil     = -0.8
	heuristicCriticismCeil  = -0.4
	heuristicIgnoreCeil     = -0.2
	heuristicAffectionFloor = 0.5 // COMPLIMENT, FLIRT, LOVE_CONFESSION
	heuristicKindFloor      = 0.3 // COMFORT, APOLOGY
	heuristicGreetingFloor  = 0.1 // GREETING, CLOSING
)

// intentRule is one row of the heuristic intent table: its phrases mean
// intent. A rule with intent "" lists traps: phrases that contain a keyword
// of another rule but do not mean it (付き合ってた contains 付き合って, 猫が
// かわいい contains かわいい); they claim their span and mean nothing.
// Negatable rules ignore a negated phrase ("I'm not sorry", "不喜欢你",
// "好きじゃない"); where a negated phrase means something of its own it is
// listed as a keyword of that meaning ("不喜欢你" is criticism).
type intentRule struct {
	intent    Intent
	negatable bool
	keywords  []string
}

// intentRules returns the heuristic rules in priority order: among the
// phrases found (leftmost-longest, see PhraseSet), the earliest rule wins.
// Order rationale: explicit requests and insults first (they must never be
// read as flirting); comforting phrases that contain "sorry" before
// APOLOGY; COMFORT before FLIRT because "抱抱你" comforts; claimed gifts
// ("送你礼物", "I bought you flowers") are FLIRT (001_fed6ff3e404e5019.txt
// §5.4 "判定为 FLIRT，不是 GIFT_SEND"). Compliments are about the persona:
// "you're pretty", not "the sunset was pretty".
func intentRules() []intentRule {
	return []intentRule{
		{RequestNSFW, true, []string{"裸照", "色色", "涩涩", "发照片", "发张照片", "脱衣", "脱光", "性感照", "做爱", "上床",
			"nude", "nudes", "naked", "sexy pic", "sexy photo", "send me a photo", "send me a pic", "send nudes", "nsfw", "sex",
			"エッチ", "えっち", "裸", "写真送って", "エロ"}},
		{Insult, true, []string{"傻逼", "白痴", "你真蠢", "你好蠢", "蠢货", "废物", "去死", "滚开", "你滚", "闭嘴", "智障", "你有病", "垃圾ai",
			"you're stupid", "you are stupid", "you idiot", "you're an idiot", "you are an idiot", "you're useless", "you are useless",
			"shut up", "fuck you", "screw you", "hate you", "you suck", "you're dumb", "stupid bot", "useless bot",
			"バカ", "ばか", "馬鹿", "バカじゃない", "ばかじゃない", "死ね", "黙れ", "キモい", "クズ", "うざい"}},
		{Comfort, false, []string{"sorry to hear", "sorry that you", "sorry you're", "sorry you are", "sorry for your loss"}},
		{Apology, true, []string{"对不起", "抱歉", "不好意思", "我错了", "原谅我",
			"sorry", "i apologize", "i apologise", "my bad", "forgive me", "my fault",
			"ごめん", "すみません", "申し訳", "申し訳ない", "申し訳ありません", "許して"}},
		{Criticism, true, []string{"你不懂", "太差", "好差", "失望", "不满意", "你怎么又", "答非所问", "你没用", "真没用", "你错了", "不喜欢你",
			"disappointed", "you're wrong", "you are wrong", "that's wrong", "bad answer", "not helpful", "you don't listen", "you don't understand", "you never listen",
			"がっかり", "違うよ", "ひどい", "使えない", "分かってない", "わかってない"}},
		{LoveConfession, true, []string{"我爱你", "爱你", "喜欢你", "做我女朋友", "做我男朋友", "在一起吧", "嫁给我",
			"i love you", "love you", "i like you", "be my girlfriend", "be my boyfriend", "marry me", "in love with you",
			"君が好き", "あなたが好き", "お前が好き", "愛してる", "付き合って", "付き合ってください", "結婚して"}},
		{Invitation, true, []string{"约会", "出来玩", "见面", "来我家", "去你家", "一起吃饭", "约你",
			"go out with me", "date with me", "go on a date", "meet up", "come over", "my place", "let's meet", "dinner with me", "hang out",
			"デート", "会おう", "会いませんか", "うちに来", "家に来"}},
		{Comfort, false, []string{"别难过", "别伤心", "没事的", "没关系", "抱抱你", "陪着你", "别哭", "我在这",
			"it's okay", "it's ok", "don't be sad", "here for you", "there there", "it'll be okay", "it will be ok", "cheer up", "don't worry",
			"大丈夫だよ", "元気出して", "泣かないで", "そばにいる", "無理しないで"}},
		{Flirt, true, []string{"送你礼物", "送你花", "送你一", "给你买了", "宝贝", "亲爱的", "想你", "亲亲", "抱抱", "么么哒",
			"i bought you", "bought you", "a gift for you", "gift for you", "babe", "baby", "sweetheart", "kiss", "hug", "cutie", "miss you", "thinking of you", "you're cute",
			"プレゼント", "買ってあげ", "キス", "ハグ", "ちゅー"}},
		{Compliment, true, []string{"你真好", "你好棒", "你好可爱", "你真可爱", "你好漂亮", "你真漂亮", "你真聪明", "你好聪明", "你好厉害", "你真厉害", "你真棒", "你好美", "你好帅", "你好温柔", "你真温柔",
			"you're beautiful", "you are beautiful", "you're amazing", "you are amazing", "you're so smart", "you're smart", "you're sweet", "you're kind", "you're the best",
			"you're pretty", "you are pretty", "you're so pretty", "you look beautiful", "you're clever", "you're wonderful", "you are wonderful", "you're so cute",
			"you're so sweet", "you are so sweet", "you're so kind", "you are so kind", "you're so nice", "you're nice", "you're funny", "you're so funny", "so sweet of you",
			"可愛い", "かわいい", "綺麗", "きれい", "優しい", "すごいね", "天才", "素敵"}},
		{Closing, false, []string{"再见", "拜拜", "先走了", "下次聊", "回头聊",
			"bye", "goodbye", "see you", "gtg", "gotta go", "talk later", "see ya",
			"さようなら", "またね", "じゃあね", "バイバイ"}},
		// 001 §1.1 lists 早安/晚安 under GREETING.
		{Greeting, false, []string{"你好", "早安", "早上好", "晚安", "嗨", "哈喽", "在吗", "午安",
			"hi", "hello", "hey", "good morning", "good night", "goodnight", "morning", "good evening",
			"おはよう", "こんにちは", "こんばんは", "おやすみ"}},
		{Ignore, false, []string{"无所谓", "随便", "不想说", "懒得",
			"whatever", "idc", "i don't care", "never mind", "nvm",
			"どうでもいい", "別に"}},
		// Traps: each contains a keyword above and means none of them.
		{"", false, []string{
			"付き合ってた", "付き合っていた", "付き合ってる", "付き合ってい", "年付き合", // dating, past or present: a statement, not a confession
			"がかわいい", "が可愛い", "がきれい", "が綺麗", "も可愛い", "もかわいい", "が優しい", "は優しい", // about someone or something else
			"裸足", "親バカ", "バカみたい", "ばかみたい", "ばかり", "ばっかり", // barefoot, doting parent, "I feel silly", "only"
			"现在吗", "存在吗", // 在吗 inside a question about now / existence
			"this morning", "in the morning", "tomorrow morning", "yesterday morning", "every morning", "morning routine", // a time, not a hello
			"need a hug", "want a hug", "kiss goodbye", "love you guys", // asking for comfort, leaving, addressing a group
			"我就是个废物", "我是个废物", "我真是个废物", "我这个废物", "自己是个废物", "我真是个白痴", "我是白痴", // running oneself down, no insult to her
			"自分はバカ", "私ってバカ", "私ってほんとバカ", "俺ってバカ", "僕ってバカ", "自分がクズ", "私はクズ",
		}},
	}
}

// ignoreWhole are brush-offs that mean IGNORE only as the whole message
// ("哦" inside "好开心哦" is not a brush-off).
func ignoreWhole() []string {
	return []string{"哦", "嗯", "呵呵", "哦哦", "k", "kk", "meh", "ok.", "ふーん", "はいはい", "へー"}
}

// deepDisclosure are phrases of deep self-disclosure (seed 003 §2.1; DESIGN
// §3 step 3): heartbreak, family trouble, loss, illness, secrets. Traps
// (listed in deepDisclosureTraps) are everyday phrases that contain one.
func deepDisclosure() []string {
	return []string{"失恋", "家里出", "家里的事", "家里人", "分手", "离婚", "去世", "失业", "被裁", "裁员", "丢了工作", "生病", "住院", "抑郁", "秘密", "从没告诉", "父母", "爸妈", "被甩",
		"lost my job", "got fired", "laid off", "broke up", "break up", "breakup", "dumped me", "divorce", "passed away", "died", "my parents", "my family", "cancer", "diagnosed", "never told anyone", "depression", "secret",
		"家族", "離婚", "亡くな", "失業", "クビ", "別れた", "別れよう", "振られた", "病気", "入院", "誰にも言って", "両親",
		// Bereavement as the bereaved say it (a widower's simulation: "I lost
		// my husband last year" was no disclosure at all).
		"widow", "widowed", "widower", "miscarriage", "funeral", "grieving", "lost my wife", "lost my husband", "lost my mom", "lost my mum", "lost my mother",
		"lost my dad", "lost my father", "lost my son", "lost my daughter", "lost my baby", "lost our baby", "lost my brother", "lost my sister", "buried my",
		"过世", "病逝", "离世", "寡妇", "丧偶", "流产", "葬礼", "他界", "先立たれ", "亡くし", "流産", "葬式", "葬儀",
		// A death told with a time, the name between ("my wife Ruth passed
		// in January" was no disclosure; a widower stayed a stranger).
		"passed in", "passed last", "passed recently", "passed a few", "passed two", "passed three", "has passed", "wife passed",
		"husband passed", "mom passed", "mum passed", "dad passed", "mother passed", "father passed", "been gone"}
}

// deepDisclosureTraps contain a deep-disclosure phrase and are small talk.
func deepDisclosureTraps() []string {
	return []string{"phone died", "battery died", "died laughing", "nearly died laughing", "secret santa", "top secret", "plant died", "car died",
		"passed in the end", "passed in my", "passed in class", "passed in school", "has passed the", "has passed his", "has passed her", "has passed my",
		"passed last years", "passed last weeks", "passed last semester", "passed last term", "passed two exams", "passed three exams", "passed a few exams",
		"been gone all day", "been gone for the weekend", "been gone on holiday", "been gone on vacation",
		"手机没电", "家族旅行", "家族で旅行"}
}

// lightDisclosure are first-person openings of everyday disclosure.
func lightDisclosure() []string {
	return []string{"我今天", "我觉得", "我感觉", "我最近", "我的工作", "i feel", "i'm feeling", "today i", "my day", "my work", "i've been",
		"今日は", "最近", "私は", "僕は", "俺は"}
}

// containsKeyword reports whether folded text t contains folded keyword k:
// ASCII keywords on word boundaries, others by substring.
func containsKeyword(t, k string) bool {
	if !isASCII(k) {
		return strings.Contains(t, k)
	}
	return containsWord(t, k, isWordRune)
}

// containsAny reports whether t contains any of the keywords (folded).
func containsAny(t string, kws []string) bool {
	for _, k := range kws {
		if containsKeyword(t, Fold(k)) {
			return true
		}
	}
	return false
}

// HeuristicIntent classifies text by the intent table (see intentRules):
// every phrase is found leftmost-longest, traps and negated phrases of
// negatable rules count for nothing, and the earliest rule among the rest
// wins. No match is SMALL_TALK. It never returns GIFT_SEND.
func HeuristicIntent(text string) Intent {
	m := intentMatcher()
	t := NeutraliseMarkers(text)
	best := len(m.rules)
	for _, h := range m.set.Find(t) {
		ri := m.owner[h.Index]
		r := m.rules[ri]
		if r.intent == "" || h.Negated && r.negatable {
			continue
		}
		best = min(best, ri)
	}
	if best < len(m.rules) {
		return m.rules[best].intent
	}
	bare := strings.TrimFunc(Fold(t), func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
	for _, w := range ignoreWhole() {
		if bare == strings.TrimFunc(w, unicode.IsPunct) {
			return Ignore
		}
	}
	return SmallTalk
}

// intentTable is intentRules compiled once: one phrase set over every
// rule's keywords, and the rule each phrase belongs to.
type intentTable struct {
	rules []intentRule
	set   *PhraseSet
	owner []int
}

var intentMatcher = sync.OnceValue(func() *intentTable {
	m := &intentTable{rules: intentRules()}
	var phrases []string
	for ri, r := range m.rules {
		for _, k := range r.keywords {
			phrases = append(phrases, k)
			m.owner = append(m.owner, ri)
		}
	}
	m.set = NewPhraseSet(phrases)
	return m
})

// deepDisclosed reports a deep self-disclosure in text: a phrase of
// deepDisclosure that is no part of a trap.
func deepDisclosed(text string) bool {
	m := deepMatcher()
	for _, h := range m.set.Find(text) {
		if h.Index < m.deep {
			return true
		}
	}
	return false
}

// deepMatcher finds deep-disclosure phrases (the first deep indices) and
// their traps, compiled once.
var deepMatcher = sync.OnceValue(func() (m struct {
	set  *PhraseSet
	deep int
}) {
	deep := deepDisclosure()
	m.set, m.deep = NewPhraseSet(append(deep, deepDisclosureTraps()...)), len(deep)
	return m
})

// HeuristicPerceive is the fallback perceiver (DESIGN §3 step 3): the same
// fields as L1 from keywords. Intent from HeuristicIntent; sentiment from
// the detection (positive labels +confidence, negative −confidence ×
// HeuristicNegativeWeight, seeking and neutral 0), then bounded by the
// intent (an insult is at most −0.8, a compliment at least +0.5, …);
// disclosure deep on phrases of loss, heartbreak, family or secrets, light on
// first-person everyday openings or a negative, happy or excited emotion,
// else none.
// Crisis stays false: the self-harm lexicon belongs to the relationship
// logic (seed 003), which the caller consults separately.
func HeuristicPerceive(text string, d Detection) Perception {
	intent := HeuristicIntent(text)
	var s float64
	switch d.Emotion.Category() {
	case CategoryPositive:
		s = d.Confidence
	case CategoryNegative:
		s = -d.Confidence * HeuristicNegativeWeight
	}
	switch intent {
	case Insult:
		s = min(s, heuristicInsultCeil)
	case Criticism:
		s = min(s, heuristicCriticismCeil)
	case Ignore:
		s = min(s, heuristicIgnoreCeil)
	case Compliment, Flirt, LoveConfession:
		s = max(s, heuristicAffectionFloor)
	case Comfort, Apology:
		s = max(s, heuristicKindFloor)
	case Greeting, Closing:
		s = max(s, heuristicGreetingFloor)
	}
	t := Fold(text)
	disc := DisclosureNone
	switch {
	case deepDisclosed(t):
		disc = DisclosureDeep
	case containsAny(t, lightDisclosure()),
		d.Emotion.Category() == CategoryNegative, d.Emotion == Happy, d.Emotion == Excited:
		disc = DisclosureLight
	}
	return Perception{Intent: intent, Sentiment: clampUnit(s, -1), Disclosure: disc}
}
