package heart

import "strings"

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
	// Markers (0 points): §4.2 "感谢/认可" history and §3 self-harm expression.
	SignalGratitude SignalTag = "gratitude"
	SignalCrisis    SignalTag = "crisis"
)

// RelationshipSignal is one observation that moves affinity: the seed row's
// points and weight, and the modality it arrived in (§1.1 behaviour cost).
// Its effect is Points × Weight × ModalityCost(Modality).
type RelationshipSignal struct {
	Tag      SignalTag `json:"tag"`
	Points   float64   `json:"points"`
	Weight   float64   `json:"weight"`
	Modality string    `json:"modality,omitempty"`
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
	case ModalityPrivate:
		return CostPrivate
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

// Cue phrases of the §2.1 text signals, zh/en/ja. They are functions, not
// package variables, so the package holds no mutable state.

// strongJoyCues are strong positive emotion words and emoji (§2.1 "我今天超开心！🎉").
func strongJoyCues() []string {
	return []string{
		"超开心", "太开心", "好开心", "开心死", "太棒了", "超级开心", "太好了",
		"so happy", "super happy", "really happy", "best day", "so excited", "im thrilled", "yay",
		"超嬉しい", "めっちゃ嬉しい", "すごく嬉しい", "最高だ", "最高すぎ", "やった",
	}
}

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
func avoidanceCues() []string {
	return []string{
		"算了", "不说了", "没什么", "没事了", "不想说",
		"never mind", "nevermind", "forget it", "whatever", "doesnt matter", "nvm",
		"もういい", "なんでもない", "何でもない", "いいや", "やっぱりいい",
	}
}

// hasEllipsis reports an ellipsis in any of its common spellings.
func hasEllipsis(text string) bool {
	return strings.Contains(text, "...") || strings.Contains(text, "…") ||
		strings.Contains(text, "。。。") || strings.Contains(text, "・・・") ||
		strings.Contains(text, "．．．")
}

// attachmentCues are §2.1's attachment questions ("你会忘记我吗？").
func attachmentCues() []string {
	return []string{
		"你会忘记我吗", "你会忘了我吗", "会不会忘记我", "会不会忘了我", "你会离开我吗", "你还记得我吗", "你会一直陪着我吗",
		"will you forget me", "would you forget me", "will you remember me", "will you leave me", "do you still remember me",
		"私のこと忘れる", "私のことを忘れる", "僕のこと忘れる", "忘れないでね", "私のこと覚えてる", "ずっとそばにいてくれる",
	}
}

// gratitudeCues are thanks and acknowledgement (§4.2 "你帮了我大忙").
func gratitudeCues() []string {
	return []string{
		"谢谢", "感谢", "多谢", "帮了我大忙", "谢啦",
		"thank you", "thanks", "thx", "you helped me", "i appreciate",
		"ありがとう", "感謝", "助かった", "助かりました",
	}
}

// TextSignals reads the §2.1 signals of one user message. strongEmotion is
// the caller's verdict that seed 000 detection found a strong emotion (for
// example confidence ≥ 0.7); a strong emotion counts as the §2.1 "情绪词"
// row (joy +8) only when the message is not negative, and strong joy words or
// emoji such as 🎉 count on their own. Deep disclosure comes from perception
// (p.Disclosure == deep) with the private modality; the others are text
// signals. Gratitude and crisis (built-in lexicon or p.Crisis) are 0-point
// markers that Apply turns into history and Watch. Callers override Modality
// for voice or photo messages.
func TextSignals(text string, p Perception, strongEmotion bool) []RelationshipSignal {
	m := newRelMatcher(text)
	var out []RelationshipSignal
	add := func(tag SignalTag, modality string) {
		s := FeedbackSignal(tag)
		s.Modality = modality
		out = append(out, s)
	}
	if p.Sentiment >= 0 && (strongEmotion || m.hasAny(strongJoyCues()) || relHasAnyRaw(text, strongJoyEmoji())) {
		add(SignalEmotionWord, ModalityText)
	}
	if hasEllipsis(text) && m.hasAny(avoidanceCues()) {
		add(SignalEllipsisAvoidance, ModalityText)
	}
	if p.Disclosure == DisclosureDeep {
		add(SignalDeepDisclosure, ModalityPrivate)
	}
	if m.hasAny(attachmentCues()) {
		add(SignalAttachmentQuestion, ModalityText)
	}
	if m.hasAny(gratitudeCues()) {
		add(SignalGratitude, ModalityText)
	}
	if p.Crisis || CrisisText(text) {
		add(SignalCrisis, ModalityText)
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
