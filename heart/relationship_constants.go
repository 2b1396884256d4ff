package heart

import "time"

// Every number of the relationship and wellbeing model (seed 003,
// 003_9b71f6486dad9aaa.txt) lives in this file. A constant cites the seed
// section it comes from; a number the seed does not give says it is hearth's
// choice and why.

// RelationshipVersion is the version of the Relationship JSON document. Hearth's
// choice: bump it when a field changes meaning so callers can migrate stored
// documents.
const RelationshipVersion = 1

// §2 signal table: points ("情感标签" values) and weights ("权重") per row.
const (
	// 003_9b71f6486dad9aaa.txt §2.1: 情绪词 "我今天超开心！🎉" 喜悦 +8, weight 0.9.
	PointsEmotionWord = 8.0
	WeightEmotionWord = 0.9
	// 003_9b71f6486dad9aaa.txt §2.1: 省略号+回避 失落 -3, 距离 -2 (summed: -5), weight 0.7.
	PointsEllipsisAvoidance = -3.0 + -2.0
	WeightEllipsisAvoidance = 0.7
	// 003_9b71f6486dad9aaa.txt §2.1: 深层自我暴露 信任 +10, weight 1.0.
	PointsDeepDisclosure = 10.0
	WeightDeepDisclosure = 1.0
	// 003_9b71f6486dad9aaa.txt §2.1: 依恋性问题 不安全感 +5, weight 0.9.
	PointsAttachmentQuestion = 5.0
	WeightAttachmentQuestion = 0.9

	// 003_9b71f6486dad9aaa.txt §2.2: 时间模式 孤独 +3, weight 0.6.
	PointsLateNight = 3.0
	WeightLateNight = 0.6
	// 003_9b71f6486dad9aaa.txt §2.2: 高频互动 依赖 +6, weight 0.8.
	PointsDailyStreak = 6.0
	WeightDailyStreak = 0.8
	// 003_9b71f6486dad9aaa.txt §2.2: 忽略行为 距离 -4, weight 0.5.
	PointsIgnoredProactive = -4.0
	WeightIgnoredProactive = 0.5

	// 003_9b71f6486dad9aaa.txt §2.3: 点赞 满意 +4, weight 0.7.
	PointsLike = 4.0
	WeightLike = 0.7
	// 003_9b71f6486dad9aaa.txt §2.3: 删除记忆 不适 -5, weight 0.8.
	PointsMemoryDeleted = -5.0
	WeightMemoryDeleted = 0.8
	// 003_9b71f6486dad9aaa.txt §2.3: 设置变更 需要边界 -3, weight 0.6.
	PointsBoundary = -3.0
	WeightBoundary = 0.6
	// 003_9b71f6486dad9aaa.txt §2.3: 举报 严重负面 -20, weight 1.0.
	PointsReport = -20.0
	WeightReport = 1.0

	// Hearth's choice: gratitude and crisis are markers, not scores. The seed
	// uses gratitude only for decay protection (§4.2) and crisis only for
	// Watch (§3), so both move the score by nothing.
	PointsMarker = 0.0
	WeightMarker = 1.0
)

// §2.2 behaviour windows.
const (
	// 003_9b71f6486dad9aaa.txt §2.2: 连续3天晚上11点后发起对话.
	LateNightStreakDays = 3
	// 003_9b71f6486dad9aaa.txt §2.2: "晚上11点后" — a conversation started at or after 23:00.
	LateNightStartHour = 23
	// 003_9b71f6486dad9aaa.txt §2.2: 连续7天每天主动发起对话.
	DailyStreakDays = 7
	// 003_9b71f6486dad9aaa.txt §2.2: 3天未回复AI的主动消息.
	IgnoredProactiveAfter = 3 * 24 * time.Hour
	// Hearth's choice: the ignored-proactive signal is emitted during the one
	// day after the 3-day mark, so a daily caller emits it once per message.
	IgnoredProactiveSpan = 24 * time.Hour
	// Hearth's choice: a new conversation starts after 30 minutes of silence
	// (the usual chat-session gap, as in web analytics); used for "发起对话"
	// and for talk time (TalkTime).
	SessionGap = 30 * time.Minute
)

// §1.1 modality cost ("行为成本") multipliers. The seed orders them
// (文字 低 < 语音 中 < 照片 高 < 私密困扰 极高) but gives no numbers; hearth
// chooses steps of 0.2 so plain text keeps the seed's table values exactly.
// "私密困扰 极高" is not a medium: it is §2.1's deep-disclosure row, whose
// weight 1.0 (the table's highest) already prices it, so it gets no
// multiplier of its own (a deep disclosure in text is +10, not +16).
const (
	ModalityText  = "text"
	ModalityVoice = "voice"
	ModalityPhoto = "photo"

	CostText  = 1.0 // hearth's choice: the table values of §2 are for text
	CostVoice = 1.2 // hearth's choice: §1.1 "中"
	CostPhoto = 1.4 // hearth's choice: §1.1 "高"
)

// BoundaryEvery is how often the §2.3 "设置变更 → 需要边界 -3" signal can
// count (hearth's choice: LonelinessWindow, a month). The seed means one
// real change of mind; switching proactive messages off, on and off again
// in an afternoon is still one.
const BoundaryEvery = LonelinessWindow

// §1.1 "不要过度惩罚模糊信号": ambiguous negative signals count only when stacked.
const (
	// Hearth's choice: "多个负面信号叠加" read as at least two negatives
	// (the ambiguous one included) within AmbiguityWindow.
	AmbiguityStack = 2
	// Hearth's choice: a week, the longest behaviour pattern of §2.2.
	AmbiguityWindow = 7 * 24 * time.Hour
	// Hearth's choice: the relationship document remembers at most this many
	// recent negatives; only AmbiguityStack-1 are ever needed.
	maxRecentNegatives = 16
)

// Familiarity from conversation itself. Seed 003's signal tables score
// feelings (joy, trust, insecurity) but nothing for simply talking, so a
// user who chats warmly without strong emotion words would stay a stranger
// forever and never meet the §3.1 transitions. Hearth's choice: each user
// turn adds TurnPoints, at most DailyTurnPoints per local day, so a
// relationship grows over days of conversation and cannot be ground out in
// one sitting; the §3.1 caps and transition conditions still apply.
const (
	TurnPoints      = 1.0
	DailyTurnPoints = 5.0
)

// §3.1 affinity ranges.
const (
	// 003_9b71f6486dad9aaa.txt §3.1: scores are 0-100.
	ScoreMin = 0.0
	ScoreMax = 100.0
	// 003_9b71f6486dad9aaa.txt §3.1: 陌生人 0-20, 熟人 21-50, 朋友 51-80, 亲密 81-100.
	// Scores are real numbers, so hearth reads the ranges as (20, 50],
	// (50, 80], (80, 100]: a state holds up to and including its top, and
	// 20.5 is already an acquaintance's score.
	StrangerTop     = 20.0
	AcquaintanceTop = 50.0
	FriendTop       = 80.0
	CloseTop        = 100.0
)

// §3.1 transition conditions.
const (
	// 003_9b71f6486dad9aaa.txt §3.1: stranger→acquaintance 累计对话10轮.
	TransitionTurns = 10
	// 003_9b71f6486dad9aaa.txt §3.1: + 至少1次正面反馈.
	TransitionPositiveFeedback = 1
	// 003_9b71f6486dad9aaa.txt §3.1: acquaintance→friend 分享过1次私密话题.
	// Hearth reads 私密话题 as a personal topic, not a trauma: any
	// disclosure perception calls light (everyday personal detail or
	// feelings) or deep counts.
	TransitionPrivateTopics = 1
	// 003_9b71f6486dad9aaa.txt §3.1: + 连续3天互动, read as "has talked on
	// three days in a row" (Relationship.BestStreak), not "is on the third
	// day of a run right now".
	TransitionConsecutiveDays = 3
	// 003_9b71f6486dad9aaa.txt §3.1: friend→close 深度自我暴露3次+.
	TransitionDeepDisclosures = 3
	// 003_9b71f6486dad9aaa.txt §3.1: + 信任+7的信号出现 (points × weight of a trust signal).
	TransitionTrust = 7.0
)

// §3.1 health boundaries.
const (
	// 003_9b71f6486dad9aaa.txt §3.1 亲密: 每日对话上限2小时.
	CloseDailyLimit = 2 * time.Hour
	// 003_9b71f6486dad9aaa.txt §3.1 also asks for a weekly loneliness check
	// for friends and help guidance above 60 for close friends. Both are
	// covered by something stricter: the daily job checks every user's
	// loneliness every day, and §5.2's 60-80 band (LonelinessGuidance)
	// recommends resources whatever the state.
	// 003_9b71f6486dad9aaa.txt §3.1 观察期: 孤独指数>80.
	WatchLoneliness = 80.0
)

// §4 decay.
const (
	// 003_9b71f6486dad9aaa.txt §4.1: 0-50分 每天-2分.
	DecayLowRate = 2.0
	// 003_9b71f6486dad9aaa.txt §4.1: 51-80分 每天-0.8分. The seed says "指数"
	// but its worked example (§4.3) is linear, so hearth follows the example.
	DecayFriendRate = 0.8
	// 003_9b71f6486dad9aaa.txt §4.1: 81-100分 每天-0.5分.
	DecayCloseRate = 0.5
	// 003_9b71f6486dad9aaa.txt §4.2: 深层自我暴露 → 衰减率 × 0.5.
	DecayDeepProtection = 0.5
	// 003_9b71f6486dad9aaa.txt §4.2: 感谢/认可 → 衰减率 × 0.7. Hearth's
	// choice: both protections stack by multiplying (× 0.35), since they are
	// independent reasons a relationship fades slowly.
	DecayGratitudeProtection = 0.7
	// DecayUnit is the unit of the decay rates: the seed's "每天".
	DecayUnit = 24 * time.Hour
)

// calendarDay is the length of a UTC calendar day, for counting days
// between YYYY-MM-DD dates.
const calendarDay = 24 * time.Hour

// §5 loneliness index.
const (
	// 003_9b71f6486dad9aaa.txt §5.1 coefficients.
	LonelinessLateNightCoef  = 0.3
	LonelinessNegativeCoef   = 0.4
	LonelinessNoSocialCoef   = 0.2
	LonelinessHopelessCoef   = 0.5
	LonelinessRealFriendCoef = 0.3
	// DESIGN §6: the loneliness and dependency counts cover a rolling 30 days.
	LonelinessWindow = 30 * 24 * time.Hour
	// LonelinessScale is the top of §5.2's scale (its bands run <30 to >80):
	// Loneliness maps the normalised formula onto 0-100.
	LonelinessScale = 100.0
	// LonelinessFullDays is how many active days of evidence the index
	// needs to speak at full strength (hearth's choice: a week, §3.1 朋友's
	// "每周检测孤独指数"); fewer days weigh proportionally less.
	LonelinessFullDays = 7.0
	// 003_9b71f6486dad9aaa.txt §5.2 band edges: <30, 30-60, 60-80, >80. Hearth
	// reads the overlapping edges so that 60 and 80 are in the lower band,
	// which agrees with §3.1's ">60" and ">80" triggers.
	LonelinessBand1 = 30.0
	LonelinessBand2 = 60.0
	LonelinessBand3 = 80.0
)

// §6 late night: 003_9b71f6486dad9aaa.txt §6.1 深夜（22:00-5:00）.
const (
	LateNightFromHour = 22
	LateNightToHour   = 5
)

// §6 over-dependency.
const (
	// 003_9b71f6486dad9aaa.txt §6.1 (1): 连续7天, 每天对话时长>2小时.
	DependencyLongDays  = 7
	DependencyDailyTalk = 2 * time.Hour
	// 003_9b71f6486dad9aaa.txt §6.1 (2): 连续14天, 每天至少发起对话1次.
	DependencyInitiatedDays = 14
	// 003_9b71f6486dad9aaa.txt §6.1 (3): 深夜对话占比>60%.
	DependencyLateNightShare = 0.6
	// 003_9b71f6486dad9aaa.txt §6.1 (5): 现实社交话题占比<20%.
	DependencyRealSocialShare = 0.2
	// 003_9b71f6486dad9aaa.txt §6.1: 满足2条以上 (read as "at least 2").
	DependencyWarnConditions = 2
	// DependencySocialCounterShare: a real-social share at or above it
	// counts one §6.1 condition against the others (hearth's choice,
	// mirroring §5.1's "− 提到现实朋友/家人"): real people on at least half
	// of the active days.
	DependencySocialCounterShare = 0.5
	// DependencyRecentDays: the share conditions (3) and (5) need a message
	// this recent (hearth's choice: a week, the shortest pattern of §6.1;
	// a week without hearth is the opposite of dependency).
	DependencyRecentDays = 7 * 24 * time.Hour
	// 003_9b71f6486dad9aaa.txt §6.2: 级别1 Day 7, 级别2 Day 14, 级别3 Day 21+.
	DependencyLevel1Day = 7
	DependencyLevel2Day = 14
	DependencyLevel3Day = 21
	// 003_9b71f6486dad9aaa.txt §6.2: 级别3 强干预, the level §1.1's "过度依赖 →
	// 人工介入" asks a person to review.
	DependencyLevel3Level = 3
	// 003_9b71f6486dad9aaa.txt §6.2 级别2 明确边界: from level 2 the bot ends a
	// conversation at 2 hours ("我们已经聊了2小时了").
	DependencyLevel2Level = 2
	DependencyBreakAfter  = 2 * time.Hour
	// 003_9b71f6486dad9aaa.txt §6.2 级别3: 设置每日使用时长上限（如1小时）;
	// hearth sets it (UsageLimitFor) and tells the user.
	DependencySuggestedLimit = time.Hour
	// WatchDailyLimit is Watch's "限制使用时长" (§3.1). The seed gives no
	// number; hearth's choice follows level 3's example, one hour a day.
	// Crisis messages are always answered in full, past any limit.
	WatchDailyLimit = time.Hour
)

// §8 memory retention.
const (
	// 003_9b71f6486dad9aaa.txt §8.1: 条件保留 - 好感度<30时淡化引用频率.
	ConditionalFadeScore = 30.0
	// 003_9b71f6486dad9aaa.txt §8.1: 自动清理 - 好感度<20且90天未互动.
	EphemeralExpireScore = 20.0
	EphemeralExpireAfter = 90 * 24 * time.Hour
	// 004_dd92c72e713cef51.txt 关系记忆 slots: 0-9 facts (位置、偏好、习惯),
	// 20-29 feelings (什么时候该怎么做) and 30-39 the bot's own growth
	// (bot 自己的进步). Facts are the user's basic information, which §3.1
	// says an acquaintance remembers ("记住基本信息"), so they are shown from
	// the first day whatever their retention (MemoryVisible); 20-39 are
	// how the bot should act and who it is becoming, kept permanently like
	// §8.1's core preferences.
	SlotFactsFirst    = 0
	SlotFactsLast     = 9
	SlotFeelingsFirst = 20
	SlotGrowthFirst   = 30
	SlotGrowthLast    = 39
)
