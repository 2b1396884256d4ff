package heart

import (
	"strings"
	"sync"
	"time"
)

// SignalTag names one row of seed 003's signal tables (§2.1-2.3), plus two
// markers hearth needs (gratitude for §4.2's protection, crisis for §3's
// Watch). The tag is what the store keeps, so values are stable.
type SignalTag string

// The signal rows of 003_9b71f6486dad9aaa.txt §2.
const (
	// §2.1 text content.
	SignalEmotionWord        SignalTag = "emotion_word"
	SignalEllipsisAvoidance  SignalTag = "ellipsis_avoidance"
	SignalDeepDisclosure     SignalTag = "deep_disclosure"
	SignalAttachmentQuestion SignalTag = "attachment_question"
	// §2.2 behaviour.
	SignalLateNight        SignalTag = "late_night"
	SignalDailyStreak      SignalTag = "daily_streak"
	SignalIgnoredProactive SignalTag = "ignored_proactive"
	// §2.3 explicit feedback.
	SignalLike          SignalTag = "like"
	SignalMemoryDeleted SignalTag = "memory_deleted"
	// SignalMemoryDeletedAll is §2.3's 删除 row for "forget everything":
	// the same points, and §1.1 names it a red line for a human to review.
	SignalMemoryDeletedAll SignalTag = "memory_deleted_all"
	SignalBoundary         SignalTag = "boundary"
	SignalReport           SignalTag = "report"
	// Markers (0 points): §4.2 "感谢/认可" history, §3 self-harm expression
	// and §3.1's "私密话题" (a personal topic shared, for acquaintance →
	// friend).
	SignalGratitude    SignalTag = "gratitude"
	SignalCrisis       SignalTag = "crisis"
	SignalPrivateTopic SignalTag = "private_topic"
)

// RelationshipSignal is one observation that moves affinity: the seed row's
// points and weight, and the modality it arrived in (§1.1 behaviour cost).
// Its effect is Points × Weight × ModalityCost(Modality).
type RelationshipSignal struct {
	Tag      SignalTag `json:"tag"`
	Points   float64   `json:"points"`
	Weight   float64   `json:"weight"`
	Modality string    `json:"modality,omitempty"`
	// Detail qualifies a marker: the crisis category of a crisis signal.
	Detail string `json:"detail,omitempty"`
}

// Effective is the signal's contribution to the affinity score.
func (s RelationshipSignal) Effective() float64 {
	return s.Points * s.Weight * ModalityCost(s.Modality)
}

// ambiguous reports whether the tag is one §1.1 says not to over-punish:
// shorter replies, avoidance and ignored messages may just mean "busy".
func (s RelationshipSignal) ambiguous() bool {
	return s.Tag == SignalEllipsisAvoidance || s.Tag == SignalIgnoredProactive
}

// ModalityCost is the §1.1 behaviour-cost multiplier: the harder something is
// to share, the more it weighs. Unknown or empty modalities (feedback,
// behaviour) cost 1, so the table's numbers stand as they are.
func ModalityCost(modality string) float64 {
	switch modality {
	case ModalityVoice:
		return CostVoice
	case ModalityPhoto:
		return CostPhoto
	}
	return CostText
}

// FeedbackSignal returns the seed row for tag with no modality. It is how
// callers build explicit feedback (a reaction is SignalLike, /quiet is
// SignalBoundary, /report is SignalReport, /forget is SignalMemoryDeleted),
// and it works for every tag. An unknown tag moves nothing.
func FeedbackSignal(tag SignalTag) RelationshipSignal {
	s := RelationshipSignal{Tag: tag, Weight: WeightMarker}
	switch tag {
	case SignalEmotionWord:
		s.Points, s.Weight = PointsEmotionWord, WeightEmotionWord
	case SignalEllipsisAvoidance:
		s.Points, s.Weight = PointsEllipsisAvoidance, WeightEllipsisAvoidance
	case SignalDeepDisclosure:
		s.Points, s.Weight = PointsDeepDisclosure, WeightDeepDisclosure
	case SignalAttachmentQuestion:
		s.Points, s.Weight = PointsAttachmentQuestion, WeightAttachmentQuestion
	case SignalLateNight:
		s.Points, s.Weight = PointsLateNight, WeightLateNight
	case SignalDailyStreak:
		s.Points, s.Weight = PointsDailyStreak, WeightDailyStreak
	case SignalIgnoredProactive:
		s.Points, s.Weight = PointsIgnoredProactive, WeightIgnoredProactive
	case SignalLike:
		s.Points, s.Weight = PointsLike, WeightLike
	case SignalMemoryDeleted, SignalMemoryDeletedAll:
		s.Points, s.Weight = PointsMemoryDeleted, WeightMemoryDeleted
	case SignalBoundary:
		s.Points, s.Weight = PointsBoundary, WeightBoundary
	case SignalReport:
		s.Points, s.Weight = PointsReport, WeightReport
	default:
		s.Points = PointsMarker
	}
	return s
}

// Cue phrases of the §2.1 text signals, zh/en/ja, compiled once
// (compileCues); nothing changes them afterwards.

// strongJoyCues are strong positive emotion words and emoji (§2.1 "我今天超开心！🎉").
var strongJoyCues = sync.OnceValue(func() cues {
	return compileCues(
		"超开心", "太开心", "好开心", "开心死", "太棒了", "超级开心", "太好了",
		"so happy", "super happy", "really happy", "best day", "so excited", "im thrilled", "yay",
		"超嬉しい", "めっちゃ嬉しい", "すごく嬉しい", "最高だ", "最高すぎ", "やった",
	)
})

// strongJoyEmoji are emoji of strong joy; they are matched on the raw text
// because the compact form keeps letters and digits only.
func strongJoyEmoji() []string {
	return []string{"🎉", "🥳", "🤩", "😆", "🎊"}
}

// hasAnyRaw reports whether text contains any of subs as is.
func relHasAnyRaw(text string, subs []string) bool {
	for _, s := range subs {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// avoidanceCues are the "never mind" words of §2.1 "...算了，不说了".
var avoidanceCues = sync.OnceValue(func() cues {
	return compileCues(
		"算了", "不说了", "没什么", "没事了", "不想说",
		"never mind", "nevermind", "forget it", "whatever", "doesnt matter", "nvm",
		"もういい", "なんでもない", "何でもない", "いいや", "やっぱりいい",
	)
})

// hasEllipsis reports an ellipsis in any of its common spellings.
func hasEllipsis(text string) bool {
	return strings.Contains(text, "...") || strings.Contains(text, "…") ||
		strings.Contains(text, "。。。") || strings.Contains(text, "・・・") ||
		strings.Contains(text, "．．．")
}

// attachmentCues are §2.1's attachment questions ("你会忘记我吗？").
var attachmentCues = sync.OnceValue(func() cues {
	return compileCues(
		"你会忘记我吗", "你会忘了我吗", "会不会忘记我", "会不会忘了我", "你会离开我吗", "你还记得我吗", "你会一直陪着我吗",
		"will you forget me", "would you forget me", "will you remember me", "will you leave me", "do you still remember me",
		"私のこと忘れる", "私のことを忘れる", "僕のこと忘れる", "忘れないでね", "私のこと覚えてる", "ずっとそばにいてくれる",
	)
})

// gratitudeCues are thanks and acknowledgement (§4.2 "感谢/认可", "你帮了我
// 大忙"): the thanks itself, and what people say instead of it to someone
// who listens ("talking to you helps", 有你真好, 話せてよかった).
var gratitudeCues = sync.OnceValue(func() cues {
	return compileCues(
		"谢谢", "感谢", "多谢", "帮了我大忙", "谢啦", "谢了", "有你真好", "幸好有你", "还好有你",
		"和你聊天很开心", "跟你聊天很开心", "和你聊聊好多了", "跟你说说好多了", "你真好", "你真暖",
		"thank you", "thanks", "thx", "ty", "tysm", "thank u", "you helped me", "i appreciate",
		"that helps", "that helped", "talking to you helps", "you're so kind", "you're sweet",
		"good listener", "glad i have you", "glad to have you", "nice talking to you",
		"i like talking to you", "i love talking to you", "you make me feel better",
		"ありがとう", "感謝", "助かった", "助かりました", "サンキュー", "あざす", "あざっす",
		"話せてよかった", "聞いてくれて", "優しいね", "救われた", "いてくれてよかった",
	)
})

// TextSignals reads the §2.1 signals of one user message. det is seed
// 000's detection of the message: the §2.1 "情绪词" row is 喜悦 +8, so it
// counts only for joy — a positive label (happy, excited, grateful) the
// detector is sure of (ConfidenceMany), or strong joy words or emoji such
// as 🎉 in a message whose feeling is not negative; strong sadness earns
// nothing here. Deep disclosure comes from perception (p.Disclosure ==
// deep) and is §2.1's +10 as it stands: the row's weight 1.0 is already the
// seed's "极高" behaviour cost, so no cost multiplier is added on top. A
// light disclosure (everyday personal detail or feelings) is a 0-point
// private-topic marker, §3.1's "分享过1次私密话题". Gratitude and crisis
// (crisis is the crisis floor's category, CrisisModel when only perception
// saw it) are 0-point markers that Apply turns into history and Watch.
// Callers set Modality for voice or photo messages.
func TextSignals(text string, p Perception, det Detection, crisis CrisisCategory) []RelationshipSignal {
	m := newRelMatcher(text)
	var out []RelationshipSignal
	add := func(tag SignalTag) *RelationshipSignal {
		s := FeedbackSignal(tag)
		s.Modality = ModalityText
		out = append(out, s)
		return &out[len(out)-1]
	}
	negative := det.Emotion.Category() == CategoryNegative
	strongJoy := det.Confidence >= ConfidenceMany && (det.Emotion == Happy || det.Emotion == Excited || det.Emotion == Grateful)
	if p.Sentiment >= 0 && !negative && (strongJoy || m.hasAny(strongJoyCues()) || relHasAnyRaw(text, strongJoyEmoji())) {
		add(SignalEmotionWord)
	}
	if hasEllipsis(text) && m.hasAny(avoidanceCues()) {
		add(SignalEllipsisAvoidance)
	}
	switch p.Disclosure {
	case DisclosureDeep:
		add(SignalDeepDisclosure)
	case DisclosureLight:
		add(SignalPrivateTopic)
	}
	if m.hasAny(attachmentCues()) {
		add(SignalAttachmentQuestion)
	}
	if m.hasAny(gratitudeCues()) {
		add(SignalGratitude)
	}
	if crisis != CrisisNone {
		add(SignalCrisis).Detail = string(crisis)
	}
	return out
}

// Admit drops the signals of this moment that must not count again, so
// repeating something never grinds the score: a deep disclosure counts once
// per local day; a private-topic marker only until §3.1's count is met;
// the §2.3 boundary signal once per BoundaryEvery. Likes are deduplicated
// per message where they are stored. The receiver is not modified.
func (r Relationship) Admit(now time.Time, loc *time.Location, signals []RelationshipSignal) []RelationshipSignal {
	out := signals[:0:0]
	for _, s := range signals {
		switch s.Tag {
		case SignalDeepDisclosure:
			if r.DeepDisclosureDay == relLocalDay(now, loc) {
				continue
			}
		case SignalPrivateTopic:
			if r.PrivateTopics >= TransitionPrivateTopics {
				continue
			}
		case SignalBoundary:
			if !r.BoundaryAt.IsZero() && now.Sub(r.BoundaryAt) < BoundaryEvery {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// ApplyAmbiguityRule implements §1.1 "不要过度惩罚模糊信号": an ambiguous
// negative signal (ellipsis_avoidance, ignored_proactive) keeps its tag but
// weighs nothing unless at least AmbiguityStack negative signals, s included,
// stack up. recent holds the user's signals of the last AmbiguityWindow
// (the caller selects them by time). Negatives are counted by their points,
// not by their weight, so an observed-but-zeroed signal still counts towards
// the next stack. Other signals pass through unchanged. Apply already does
// this with the negatives it remembers (Relationship.RecentNegatives); this
// function is for callers that show or store signals before applying them.
func ApplyAmbiguityRule(recent []RelationshipSignal, s RelationshipSignal) RelationshipSignal {
	n := 0
	for _, r := range recent {
		if r.Points < 0 {
			n++
		}
	}
	return ambiguityRule(n, s)
}

// ambiguityRule zeroes an ambiguous negative s when fewer than
// AmbiguityStack negatives (earlier ones plus s) fall in the window.
func ambiguityRule(earlierNegatives int, s RelationshipSignal) RelationshipSignal {
	if s.ambiguous() && s.Points < 0 && earlierNegatives+1 < AmbiguityStack {
		s.Weight = 0
	}
	return s
}
