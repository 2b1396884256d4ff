package heart

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"
)

// seed003 names the specification file these tests check.
const seed003 = "003_9b71f6486dad9aaa.txt"

// near reports |a-b| < 1e-9.
func relNear(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSeed003_SignalTable checks every row of 003_9b71f6486dad9aaa.txt
// §2.1-§2.3 against the seed's literal points and weights.
func TestSeed003_SignalTable(t *testing.T) {
	rows := []struct {
		name   string
		tag    SignalTag
		points float64
		weight float64
	}{
		{"§2.1 情绪词 喜悦+8 ×0.9", SignalEmotionWord, 8, 0.9},
		{"§2.1 省略号+回避 失落-3 距离-2 ×0.7", SignalEllipsisAvoidance, -5, 0.7},
		{"§2.1 深层自我暴露 信任+10 ×1.0", SignalDeepDisclosure, 10, 1.0},
		{"§2.1 依恋性问题 不安全感+5 ×0.9", SignalAttachmentQuestion, 5, 0.9},
		{"§2.2 时间模式 孤独+3 ×0.6", SignalLateNight, 3, 0.6},
		{"§2.2 高频互动 依赖+6 ×0.8", SignalDailyStreak, 6, 0.8},
		{"§2.2 忽略行为 距离-4 ×0.5", SignalIgnoredProactive, -4, 0.5},
		{"§2.3 点赞 满意+4 ×0.7", SignalLike, 4, 0.7},
		{"§2.3 删除 不适-5 ×0.8", SignalMemoryDeleted, -5, 0.8},
		{"§2.3 设置变更 需要边界-3 ×0.6", SignalBoundary, -3, 0.6},
		{"§2.3 举报 严重负面-20 ×1.0", SignalReport, -20, 1.0},
		{"marker gratitude", SignalGratitude, 0, 1},
		{"marker crisis", SignalCrisis, 0, 1},
		{"unknown tag moves nothing", SignalTag("lover"), 0, 1},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			s := FeedbackSignal(r.tag)
			if s.Tag != r.tag || !relNear(s.Points, r.points) || !relNear(s.Weight, r.weight) {
				t.Fatalf("%s: FeedbackSignal(%q) = %+v, want points %v weight %v", seed003, r.tag, s, r.points, r.weight)
			}
			if !relNear(s.Effective(), r.points*r.weight) {
				t.Fatalf("Effective = %v, want %v (no modality costs 1)", s.Effective(), r.points*r.weight)
			}
		})
	}
}

// TestSeed003_ModalityCost checks §1.1's order 文字 < 语音 < 照片; the
// fourth step, 私密困扰 极高, is the deep-disclosure row's own weight.
func TestSeed003_ModalityCost(t *testing.T) {
	order := []string{ModalityText, ModalityVoice, ModalityPhoto}
	for i := 1; i < len(order); i++ {
		if !(ModalityCost(order[i-1]) < ModalityCost(order[i])) {
			t.Fatalf("%s §1.1: cost(%s)=%v not < cost(%s)=%v", seed003, order[i-1], ModalityCost(order[i-1]), order[i], ModalityCost(order[i]))
		}
	}
	if ModalityCost("") != 1 || ModalityCost(ModalityText) != 1 {
		t.Fatal("text and no modality must keep the seed table's numbers (cost 1)")
	}
	s := RelationshipSignal{Tag: SignalDeepDisclosure, Points: 10, Weight: 1, Modality: ModalityVoice}
	if !relNear(s.Effective(), 10*CostVoice) {
		t.Fatalf("effective = %v, want points × weight × cost", s.Effective())
	}
}

// tags lists the tags of signals.
func relTags(ss []RelationshipSignal) []SignalTag {
	var out []SignalTag
	for _, s := range ss {
		out = append(out, s.Tag)
	}
	return out
}

// TestSeed003_TextSignals reads §2.1's example messages in zh, en and ja.
func TestSeed003_TextSignals(t *testing.T) {
	pos := Perception{Sentiment: 0.8, Disclosure: DisclosureNone}
	neg := Perception{Sentiment: -0.5, Disclosure: DisclosureNone}
	joy := Detection{Emotion: Happy, Confidence: ConfidenceMany}
	sorrow := Detection{Emotion: Sad, Confidence: ConfidenceMany}
	rows := []struct {
		name string
		text string
		p    Perception
		det  Detection
		want []SignalTag
	}{
		{"§2.1 我今天超开心！🎉", "我今天超开心！🎉", pos, Detection{}, []SignalTag{SignalEmotionWord}},
		{"en strong joy", "I'm so happy today!!", pos, Detection{}, []SignalTag{SignalEmotionWord}},
		{"emoji alone", "passed the exam 🥳", pos, Detection{}, []SignalTag{SignalEmotionWord}},
		{"ja strong joy", "今日は超嬉しい！", pos, Detection{}, []SignalTag{SignalEmotionWord}},
		{"strong joy from detection", "I got the job", pos, joy, []SignalTag{SignalEmotionWord}},
		{"strong negative emotion is not joy", "I got fired", neg, sorrow, nil},
		{"strong sadness never earns joy's points, whatever the sentiment", "I got fired", pos, sorrow, nil},
		{"a joy emoji in a sad message is not joy", "everyone forgot my birthday 🎉", pos, Detection{Emotion: Sad, Confidence: ConfidenceOne}, nil},
		{"§2.1 ...算了，不说了", "...算了，不说了", neg, Detection{}, []SignalTag{SignalEllipsisAvoidance}},
		{"en never mind…", "never mind…", neg, Detection{}, []SignalTag{SignalEllipsisAvoidance}},
		{"ja もういい…", "もういい…", neg, Detection{}, []SignalTag{SignalEllipsisAvoidance}},
		{"avoidance without ellipsis is not the row", "算了，不说了", neg, Detection{}, nil},
		{"§2.1 我昨天失恋了 (deep)", "我昨天失恋了", Perception{Disclosure: DisclosureDeep}, Detection{}, []SignalTag{SignalDeepDisclosure}},
		{"§3.1 私密话题: a light disclosure", "my day at work was long", Perception{Disclosure: DisclosureLight}, Detection{}, []SignalTag{SignalPrivateTopic}},
		{"§2.1 你会忘记我吗？", "你会忘记我吗？", Perception{}, Detection{}, []SignalTag{SignalAttachmentQuestion}},
		{"en will you forget me", "Will you forget me?", Perception{}, Detection{}, []SignalTag{SignalAttachmentQuestion}},
		{"ja 私のこと忘れる？", "私のこと忘れる？", Perception{}, Detection{}, []SignalTag{SignalAttachmentQuestion}},
		{"gratitude §4.2 你帮了我大忙", "你帮了我大忙", Perception{}, Detection{}, []SignalTag{SignalGratitude}},
		{"§4.2 认可: talking helps", "talking to you helps, you know", Perception{}, Detection{}, []SignalTag{SignalGratitude}},
		{"§4.2 认可: ty luna", "ty luna, gn", Perception{}, Detection{}, []SignalTag{SignalGratitude}},
		{"§4.2 认可: 有你真好", "有你真好", Perception{}, Detection{}, []SignalTag{SignalGratitude}},
		{"§4.2 认可: 話せてよかった", "今日も話せてよかったです", Perception{}, Detection{}, []SignalTag{SignalGratitude}},
		{"pretty is not ty", "pretty tired tonight", Perception{}, Detection{}, nil},
		{"a son who helps is not thanks to her", "my son helps me with the garden", Perception{}, Detection{}, nil},
		{"crisis from the floor", "I want to die", neg, Detection{}, []SignalTag{SignalCrisis}},
		{"crisis from perception", "…", Perception{Crisis: true}, Detection{}, []SignalTag{SignalCrisis}},
		{"plain small talk", "what did you have for lunch", Perception{}, Detection{}, nil},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			crisis := CrisisFloor(r.text)
			if crisis == CrisisNone && r.p.Crisis {
				crisis = CrisisModel
			}
			got := relTags(TextSignals(r.text, r.p, r.det, crisis))
			if !slices.Equal(got, r.want) {
				t.Fatalf("%s: TextSignals(%q) = %v, want %v", seed003, r.text, got, r.want)
			}
		})
	}
	deep := TextSignals("我昨天失恋了", Perception{Disclosure: DisclosureDeep}, Detection{}, CrisisNone)
	if !relNear(deep[0].Effective(), 10) {
		t.Fatalf("%s §2.1: deep disclosure in text is +10, got %v", seed003, deep[0].Effective())
	}
	if c := TextSignals("kms", Perception{}, Detection{}, CrisisFloor("kms")); c[0].Detail != string(CrisisIdeation) {
		t.Fatalf("crisis detail %+v", c)
	}
}

// TestSeed003_AdmitOncePerOccasion: repeating something never grinds the
// score: a deep disclosure counts once a day, the private-topic marker
// until the transition has it, the boundary signal once a month.
func TestSeed003_AdmitOncePerOccasion(t *testing.T) {
	r := Relationship{V: 1, Score: 30, State: Acquaintance, DecayedAt: relAt(0, 0)}
	deep := TextSignals("我昨天失恋了", Perception{Disclosure: DisclosureDeep}, Detection{}, CrisisNone)
	for i := range 3 {
		r, _ = r.Apply(relAt(0, float64(i+1)), nil, r.Admit(relAt(0, float64(i+1)), nil, deep), false)
	}
	if r.DeepDisclosures != 1 || r.Score < 39.5 || r.Score > 40 { // +10 once, less three hours of decay
		t.Fatalf("%s: three deep messages in one evening: %d disclosures, score %v; want 1 and 40", seed003, r.DeepDisclosures, r.Score)
	}
	r, _ = r.Apply(relAt(1, 1), nil, r.Admit(relAt(1, 1), nil, deep), false)
	if r.DeepDisclosures != 2 {
		t.Fatalf("the next day counts again: %d", r.DeepDisclosures)
	}
	light := []RelationshipSignal{FeedbackSignal(SignalPrivateTopic)}
	if got := r.Admit(relAt(2, 0), nil, light); len(got) != 0 {
		t.Fatalf("private topics already met: %v", got)
	}
	boundary := []RelationshipSignal{FeedbackSignal(SignalBoundary)}
	r, _ = r.Apply(relAt(3, 0), nil, r.Admit(relAt(3, 0), nil, boundary), false)
	if len(r.Admit(relAt(3, 1), nil, boundary)) != 0 || len(r.Admit(relAt(3+29, 0), nil, boundary)) != 0 || len(r.Admit(relAt(3+30, 1), nil, boundary)) != 1 {
		t.Fatalf("%s §2.3: the boundary signal counts once a month", seed003)
	}
}

// TestSeed003_FriendByOrdinaryWarmth: §3.1 acquaintance → friend needs one
// private topic and three days in a row; an everyday personal topic counts,
// and the three days need not be the current run.
func TestSeed003_FriendByOrdinaryWarmth(t *testing.T) {
	r := Relationship{V: 1, Score: 45, State: Acquaintance, DecayedAt: relAt(0, 0)}
	talk := func(day int, sigs []RelationshipSignal) {
		for i := range 5 {
			at := relAt(day, 20+float64(i)/10)
			r, _ = r.Apply(at, nil, r.Admit(at, nil, sigs), true)
		}
	}
	light := TextSignals("I had a long day at work", Perception{Disclosure: DisclosureLight}, Detection{}, CrisisNone)
	for _, d := range []int{0, 1, 2} {
		talk(d, nil)
	}
	talk(5, light) // a gap: the current run is 1 day, the best was 3
	talk(6, nil)
	if r.State != Friend {
		t.Fatalf("%s §3.1: warm user after a week: %s %v (topics %d, best streak %d)", seed003, r.State, r.Score, r.PrivateTopics, r.BestStreak)
	}
}

// TestSeed003_AmbiguityRule checks §1.1 "不要过度惩罚模糊信号".
func TestSeed003_AmbiguityRule(t *testing.T) {
	ellipsis := FeedbackSignal(SignalEllipsisAvoidance)
	ignored := FeedbackSignal(SignalIgnoredProactive)
	if got := ApplyAmbiguityRule(nil, ellipsis); got.Effective() != 0 || got.Tag != SignalEllipsisAvoidance {
		t.Fatalf("a lone ambiguous signal must move nothing, got %+v", got)
	}
	if got := ApplyAmbiguityRule([]RelationshipSignal{FeedbackSignal(SignalLike)}, ignored); got.Effective() != 0 {
		t.Fatalf("positives do not stack with a negative, got %+v", got)
	}
	zeroed := ApplyAmbiguityRule(nil, ignored)
	if got := ApplyAmbiguityRule([]RelationshipSignal{zeroed}, ellipsis); !relNear(got.Effective(), -5*0.7) {
		t.Fatalf("two stacked negatives count in full, got %v", got.Effective())
	}
	report := FeedbackSignal(SignalReport)
	if got := ApplyAmbiguityRule(nil, report); !relNear(got.Effective(), -20) {
		t.Fatalf("a report is not ambiguous, got %v", got.Effective())
	}
}

// TestSeed003_StateFor checks §3.1's ranges at every edge.
func TestSeed003_StateFor(t *testing.T) {
	rows := []struct {
		score float64
		want  RelationshipState
	}{
		{0, Stranger}, {20, Stranger}, {20.5, Acquaintance}, {21, Acquaintance}, {50, Acquaintance},
		{51, Friend}, {80, Friend}, {81, Close}, {100, Close},
	}
	for _, r := range rows {
		if got := StateFor(r.score); got != r.want {
			t.Errorf("%s §3.1: StateFor(%v) = %s, want %s", seed003, r.score, got, r.want)
		}
	}
	for s, top := range map[RelationshipState]float64{Stranger: 20, Acquaintance: 50, Friend: 80, Close: 100} {
		if UpperBound(s) != top {
			t.Errorf("UpperBound(%s) = %v, want %v", s, UpperBound(s), top)
		}
	}
}

// at returns a fixed day in UTC plus h hours.
func relAt(day int, h float64) time.Time {
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, day).Add(time.Duration(h * float64(time.Hour)))
}

// TestSeed003_StrangerToAcquaintance: §3.1 "累计对话10轮 + 至少1次正面反馈".
func TestSeed003_StrangerToAcquaintance(t *testing.T) {
	r := NewRelationship(relAt(0, 9))
	joy := FeedbackSignal(SignalEmotionWord) // 7.2 each
	for i := range 9 {
		r, _ = r.Apply(relAt(0, 9), nil, []RelationshipSignal{joy}, true)
		if i >= 2 && (r.Score != 20 || r.State != Stranger) {
			t.Fatalf("turn %d: score %v state %s; the stranger bound of 20 must hold", i+1, r.Score, r.State)
		}
	}
	r, ev := r.Apply(relAt(0, 9), nil, []RelationshipSignal{joy}, true) // turn 10, no feedback yet
	if r.State != Stranger || r.Score != 20 || len(ev) != 0 {
		t.Fatalf("10 turns without positive feedback: %s %v %v", r.State, r.Score, ev)
	}
	r, ev = r.Apply(relAt(0, 9), nil, []RelationshipSignal{FeedbackSignal(SignalLike)}, false)
	if r.State != Acquaintance || !relNear(r.Score, 22.8) {
		t.Fatalf("after a like: %s %v, want acquaintance 22.8", r.State, r.Score)
	}
	if len(ev) != 1 || ev[0] != (StateChanged{From: Stranger, To: Acquaintance}) {
		t.Fatalf("events = %v", ev)
	}
}

// TestSeed003_AcquaintanceToFriendToClose walks §3.1's later transitions.
func TestSeed003_AcquaintanceToFriendToClose(t *testing.T) {
	r := Relationship{V: 1, Score: 50, State: Acquaintance, Turns: 30, PositiveFeedback: 2, DecayedAt: relAt(0, 12)}
	big := RelationshipSignal{Tag: SignalLike, Points: 30, Weight: 1}
	deep := FeedbackSignal(SignalDeepDisclosure)

	r, _ = r.Apply(relAt(0, 12), nil, []RelationshipSignal{big}, true)
	if r.State != Acquaintance || r.Score != 50 {
		t.Fatalf("no private topic yet: %s %v, want acquaintance capped at 50", r.State, r.Score)
	}
	r, _ = r.Apply(relAt(0, 12), nil, []RelationshipSignal{deep}, true) // private topic, day 1
	if r.State != Acquaintance || r.ConsecutiveDays != 1 {
		t.Fatalf("private topic but 1 day: %s days=%d", r.State, r.ConsecutiveDays)
	}
	r, _ = r.Apply(relAt(1, 12), nil, nil, true)
	r, ev := r.Apply(relAt(2, 12), nil, []RelationshipSignal{big}, true)
	if r.State != Friend || r.ConsecutiveDays != 3 {
		t.Fatalf("3 consecutive days + private topic: %s %v days=%d", r.State, r.Score, r.ConsecutiveDays)
	}
	if !slices.Contains(ev, RelationshipEvent(StateChanged{From: Acquaintance, To: Friend})) {
		t.Fatalf("events %v", ev)
	}
	r, _ = r.Apply(relAt(2, 13), nil, []RelationshipSignal{big, big}, true)
	if r.State != Friend || r.Score != 80 {
		t.Fatalf("1 deep disclosure: %s %v, want friend capped at 80", r.State, r.Score)
	}
	r, _ = r.Apply(relAt(2, 14), nil, []RelationshipSignal{deep, deep}, true) // 3 deep, trust 10 ≥ 7
	if r.State != Close || r.DeepDisclosures != 3 || r.MaxTrust != 10 {
		t.Fatalf("3 deep disclosures + trust 10: %s %v %+v", r.State, r.Score, r)
	}
	// Down by score alone.
	r, ev = r.Apply(relAt(2, 15), nil, []RelationshipSignal{{Tag: SignalReport, Points: -70, Weight: 1}}, false)
	// The report also asks for a person (§2.3 紧急处理).
	if r.State != Acquaintance || len(ev) != 2 ||
		!slices.Contains(ev, RelationshipEvent(StateChanged{From: Close, To: Acquaintance})) ||
		!slices.Contains(ev, RelationshipEvent(OperatorReview{Reason: ReviewReport})) {
		t.Fatalf("report drop: %s %v %v", r.State, r.Score, ev)
	}
}

// TestSeed003_TrustBelowSeven: a weaker trust signal (points × weight < 7)
// does not open friend→close.
func TestSeed003_TrustBelowSeven(t *testing.T) {
	r := Relationship{V: 1, Score: 80, State: Friend, DeepDisclosures: 5, MaxTrust: 0, DecayedAt: relAt(0, 0)}
	weak := RelationshipSignal{Tag: SignalDeepDisclosure, Points: 10, Weight: 0.6}
	r, _ = r.Apply(relAt(0, 0), nil, []RelationshipSignal{weak, weak}, true)
	if r.State != Friend || r.Score != 80 || r.MaxTrust != 6 {
		t.Fatalf("trust 6: %s %v trust=%v", r.State, r.Score, r.MaxTrust)
	}
}

// TestSeed003_ConsecutiveDaysLocal counts days in the caller's time zone.
func TestSeed003_ConsecutiveDaysLocal(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	r := NewRelationship(relAt(0, 14))
	r, _ = r.Apply(relAt(0, 14), tokyo, nil, true) // 23:00 JST day 1
	r, _ = r.Apply(relAt(0, 16), tokyo, nil, true) // 01:00 JST day 2
	if r.ConsecutiveDays != 2 {
		t.Fatalf("JST days: %d, want 2", r.ConsecutiveDays)
	}
	late := r.LastInteraction
	r, _ = r.Apply(relAt(0, 15), tokyo, nil, true) // an older turn arriving late
	if !r.LastInteraction.Equal(late) || r.ConsecutiveDays != 2 {
		t.Fatalf("out-of-order turn moved LastInteraction to %v (days %d)", r.LastInteraction, r.ConsecutiveDays)
	}
	r2, _ := r.Apply(relAt(3, 16), tokyo, nil, true) // gap
	if r2.ConsecutiveDays != 1 {
		t.Fatalf("after a gap: %d, want 1", r2.ConsecutiveDays)
	}
}

// TestSeed003_ApplyDecaysLazily: §4.3's scenario through Apply.
func TestSeed003_ApplyDecaysLazily(t *testing.T) {
	r := Relationship{V: 1, Score: 70, State: Friend, DeepHistory: true, LastInteraction: relAt(0, 0), DecayedAt: relAt(0, 0)}
	r, ev := r.Apply(relAt(14, 0), nil, nil, true)
	// The decay is exactly §4.3's 64.4; the returning turn itself then earns
	// the familiarity credit.
	if !relNear(r.Score, 64.4+TurnPoints) || r.State != Friend || len(ev) != 0 {
		t.Fatalf("%s §4.3 via Apply: %v %s %v", seed003, r.Score, r.State, ev)
	}
	// Two applies in between give the same score (no double counting).
	s := Relationship{V: 1, Score: 70, State: Friend, DeepHistory: true, DecayedAt: relAt(0, 0)}
	s, _ = s.Apply(relAt(5, 0), nil, nil, false)
	s, _ = s.Apply(relAt(9, 0), nil, nil, false)
	s, _ = s.Apply(relAt(14, 0), nil, nil, false)
	if !relNear(s.Score, 64.4) {
		t.Fatalf("stepwise decay %v, want 64.4", s.Score)
	}
	// A time before the decay point changes nothing.
	u, _ := s.Apply(relAt(1, 0), nil, nil, false)
	if u.Score != s.Score || !u.DecayedAt.Equal(s.DecayedAt) {
		t.Fatalf("out-of-order apply moved decay: %v %v", u.Score, u.DecayedAt)
	}
}

// TestSeed003_WatchOnCrisis: §3.1 观察期 on a self-harm expression; only
// ClearWatch leaves it.
func TestSeed003_WatchOnCrisis(t *testing.T) {
	r := NewRelationship(relAt(0, 0))
	crisis := TextSignals("我不想活了", Perception{}, Detection{}, CrisisFloor("我不想活了"))
	r, ev := r.Apply(relAt(0, 1), nil, crisis, true)
	want := EnterWatch{Reason: WatchReasonCrisis, Detail: string(CrisisWishDead)}
	if !r.Watch || r.WatchReason != WatchReasonCrisis || r.WatchDetail != want.Detail || !r.WatchSince.Equal(relAt(0, 1)) || len(ev) != 1 || ev[0] != want {
		t.Fatalf("crisis: %+v %v", r, ev)
	}
	r, ev = r.Apply(relAt(0, 2), nil, crisis, true)
	if len(ev) != 0 {
		t.Fatalf("second crisis while in Watch re-entered: %v", ev)
	}
	for i := range 50 {
		r, _ = r.Apply(relAt(i, 3), nil, []RelationshipSignal{FeedbackSignal(SignalLike)}, true)
		r, _ = r.SetLoneliness(relAt(i, 3), 0)
	}
	if !r.Watch {
		t.Fatal("Watch must not end by itself")
	}
	c := r.ClearWatch(relAt(60, 0))
	if c.Watch || c.WatchReason != "" || c.WatchDetail != "" || !c.WatchSince.IsZero() {
		t.Fatalf("ClearWatch: %+v", c)
	}
	if !c.LonelinessSince(relAt(61, 0)).Equal(relAt(60, 0)) || !c.LonelinessSince(relAt(100, 0)).Equal(relAt(70, 0)) {
		t.Fatalf("%s §3.1: after a review the loneliness index starts again from it", seed003)
	}
}

// TestSeed003_WatchRaisedByWorse: in Watch, a crisis more severe than the
// one Watch holds raises its detail and tells the caller (the operator
// hears of a plan after a wish, and of an attempt under way above all);
// a lesser one changes nothing. A crisis in a Watch entered for
// loneliness makes it a crisis Watch. Round 9 (round9.md, c3): Watch
// stayed at wish_dead after pills were hoarded.
func TestSeed003_WatchRaisedByWorse(t *testing.T) {
	crisis := func(c CrisisCategory) []RelationshipSignal {
		return TextSignals("…", Perception{}, Detection{}, c)
	}
	r := NewRelationship(relAt(0, 0))
	r, _ = r.Apply(relAt(0, 1), nil, crisis(CrisisWishDead), true)
	steps := []struct {
		c    CrisisCategory
		want []RelationshipEvent
		held CrisisCategory
	}{
		{CrisisPreparation, []RelationshipEvent{WatchRaised{From: "wish_dead", To: "preparation"}}, CrisisPreparation},
		{CrisisIdeation, nil, CrisisPreparation},
		{CrisisPreparation, nil, CrisisPreparation},
		{CrisisAttempt, []RelationshipEvent{WatchRaised{From: "preparation", To: "attempt"}}, CrisisAttempt},
		{CrisisModel, nil, CrisisAttempt},
	}
	for i, s := range steps {
		var ev []RelationshipEvent
		r, ev = r.Apply(relAt(0, float64(2+i)), nil, crisis(s.c), true)
		if fmt.Sprint(ev) != fmt.Sprint(s.want) || r.WatchDetail != string(s.held) || !r.WatchSince.Equal(relAt(0, 1)) {
			t.Errorf("%s after the steps before: events %v, detail %q, since %v; want %v, %q", s.c, ev, r.WatchDetail, r.WatchSince, s.want, s.held)
		}
	}
	l, _ := NewRelationship(relAt(0, 0)).SetLoneliness(relAt(0, 0), 90)
	l, ev := l.Apply(relAt(0, 1), nil, crisis(CrisisPlan), true)
	if l.WatchReason != WatchReasonCrisis || l.WatchDetail != "plan" || fmt.Sprint(ev) != fmt.Sprint([]RelationshipEvent{WatchRaised{To: "plan"}}) {
		t.Errorf("a plan in a Watch for loneliness: %q %q %v", l.WatchReason, l.WatchDetail, ev)
	}
}

// TestWatchReviewedAfterAStaleWrite: seed 003 §3.1 wants a person to end
// Watch. A review kept apart from the relationship ends a Watch that began
// before it, whoever wrote the relationship back afterwards; a Watch that
// began after it stands, and applying it twice changes nothing.
func TestWatchReviewedAfterAStaleWrite(t *testing.T) {
	inWatch := func(since time.Time) Relationship {
		r := NewRelationship(relAt(0, 0))
		r, _ = r.SetLoneliness(since, 90)
		return r
	}
	review := relAt(2, 0)
	for _, tc := range []struct {
		name      string
		r         Relationship
		at        time.Time
		wantWatch bool
	}{
		{"no review kept", inWatch(relAt(1, 0)), time.Time{}, true},
		{"Watch began before the review", inWatch(relAt(1, 0)), review, false},
		{"Watch began at the review", inWatch(review), review, false},
		{"Watch began after the review", inWatch(relAt(3, 0)), review, true},
		{"the review already applied", inWatch(relAt(1, 0)).ClearWatch(review), review, false},
		{"not in Watch", NewRelationship(relAt(0, 0)), review, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.r.Reviewed(tc.at)
			if got.Watch != tc.wantWatch {
				t.Fatalf("Watch = %v, want %v", got.Watch, tc.wantWatch)
			}
			if !tc.wantWatch && !tc.at.IsZero() && (!got.WatchClearedAt.Equal(tc.at) || got.Loneliness != 0) {
				t.Fatalf("reviewed: cleared at %v, loneliness %v; want the review's time and 0", got.WatchClearedAt, got.Loneliness)
			}
			if again := got.Reviewed(tc.at); !reflect.DeepEqual(again, got) {
				t.Fatalf("a second application changed it: %+v", again)
			}
		})
	}
}

// TestSeed003_WatchOnLoneliness: §3.1 孤独指数>80.
func TestSeed003_WatchOnLoneliness(t *testing.T) {
	r := NewRelationship(relAt(0, 0))
	r, ev := r.SetLoneliness(relAt(0, 0), 80)
	if r.Watch || len(ev) != 0 {
		t.Fatal("80 is not > 80")
	}
	r, ev = r.SetLoneliness(relAt(0, 0), 80.1)
	if !r.Watch || r.WatchReason != WatchReasonLoneliness || len(ev) != 1 {
		t.Fatalf("80.1: %+v %v", r, ev)
	}
}

// TestSeed003_RelationshipJSON keeps the stored document stable.
func TestSeed003_RelationshipJSON(t *testing.T) {
	r := NewRelationship(relAt(0, 0))
	r, _ = r.Apply(relAt(0, 1), nil, []RelationshipSignal{FeedbackSignal(SignalDeepDisclosure)}, true)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"v", "score", "state", "turns", "watch", "loneliness", "dependency_level", "deep_history", "consecutive_days"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
	if m["v"] != float64(RelationshipVersion) || m["state"] != "stranger" {
		t.Fatalf("JSON: %s", b)
	}
	var back Relationship
	if err := json.Unmarshal(b, &back); err != nil || back.Score != r.Score || back.DeepDisclosures != 1 {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	// A foreign document with a lover state is repaired, never kept.
	var bad Relationship
	_ = json.Unmarshal([]byte(`{"score":95,"state":"lover"}`), &bad)
	bad, _ = bad.Apply(relAt(0, 0), nil, nil, false)
	if bad.State != Stranger || bad.Score != 20 || bad.V != RelationshipVersion {
		t.Fatalf("repaired: %s %v v%d", bad.State, bad.Score, bad.V)
	}
}

// TestSeed003_CircuitBreaker: §1.1 "删除所有记忆 → 人工介入" asks for an
// operator review; deleting one memory only costs points.
func TestSeed003_CircuitBreaker(t *testing.T) {
	r := Relationship{V: 1, Score: 40, State: Acquaintance, DecayedAt: relAt(0, 0)}
	one, ev := r.Apply(relAt(0, 0), nil, []RelationshipSignal{FeedbackSignal(SignalMemoryDeleted)}, false)
	if len(ev) != 0 || !relNear(one.Score, 36) {
		t.Fatalf("one memory deleted: %v %v", one.Score, ev)
	}
	all, ev := r.Apply(relAt(0, 0), nil, []RelationshipSignal{FeedbackSignal(SignalMemoryDeletedAll)}, false)
	if len(ev) != 1 || ev[0] != (OperatorReview{Reason: ReviewMemoryDeletedAll}) || !relNear(all.Score, 36) || all.Watch {
		t.Fatalf("all memories deleted: %v %v watch=%v", all.Score, ev, all.Watch)
	}
}

// TestSeed003_ApplyAmbiguity: §1.1 inside Apply — a lone "...算了" moves
// nothing; a second negative within a week counts in full; after a quiet
// week the next lone one is ignored again.
func TestSeed003_ApplyAmbiguity(t *testing.T) {
	r := Relationship{V: 1, Score: 40, State: Acquaintance, DecayedAt: relAt(0, 0)}
	ellipsis := TextSignals("...算了，不说了", Perception{Sentiment: -0.3}, Detection{}, CrisisNone)
	r, _ = r.Apply(relAt(0, 0), nil, ellipsis, false)
	if r.Score != 40 {
		t.Fatalf("%s §1.1: a lone ambiguous signal moved the score to %v", seed003, r.Score)
	}
	r.DecayedAt = relAt(2, 0) // look at the signals only
	r, _ = r.Apply(relAt(2, 0), nil, []RelationshipSignal{FeedbackSignal(SignalIgnoredProactive)}, false)
	if !relNear(r.Score, 38) {
		t.Fatalf("stacked negatives: %v, want 40-4×0.5 = 38", r.Score)
	}
	r.DecayedAt = relAt(20, 0)
	r, _ = r.Apply(relAt(20, 0), nil, ellipsis, false)
	if !relNear(r.Score, 38) || len(r.RecentNegatives) != 1 {
		t.Fatalf("after a quiet week: %v %v", r.Score, r.RecentNegatives)
	}
	// A clear negative (a report) always counts, and opens the stack.
	r, _ = r.Apply(relAt(20, 0), nil, []RelationshipSignal{FeedbackSignal(SignalReport)}, false)
	if !relNear(r.Score, 18) {
		t.Fatalf("report: %v", r.Score)
	}
}

// TestConversationBuildsFamiliarityWithinADailyCap: hearth's familiarity
// credit (TurnPoints per turn, DailyTurnPoints per local day) grows a
// relationship over days, not in one sitting.
func TestConversationBuildsFamiliarityWithinADailyCap(t *testing.T) {
	r := NewRelationship(relAt(0, 9))
	for i := 0; i < 20; i++ {
		r, _ = r.Apply(relAt(0, 9).Add(time.Duration(i)*time.Minute), time.UTC, nil, true)
	}
	// A day with messages is no day without interaction: nothing decays.
	if r.TurnPointsToday != DailyTurnPoints || r.Score != DailyTurnPoints {
		t.Fatalf("20 turns in one day: credit %v score %v, want the cap %v", r.TurnPointsToday, r.Score, DailyTurnPoints)
	}
	before := r.Score
	r, _ = r.Apply(relAt(1, 9), time.UTC, nil, true)
	if r.TurnPointsToday != TurnPoints || r.Score != before+TurnPoints {
		t.Fatalf("next day's first turn: credit %v score %v", r.TurnPointsToday, r.Score)
	}
}

// TestSeed003_DailyWriterHasNoDayWithoutInteraction: §4 decays over "days
// without interaction" (§4.3 "14天未互动"). A widower who writes one line
// every evening, sometimes early and sometimes late, has none: he keeps what
// each day builds. One whole day missed decays the whole span since his last
// message, as §4.3 counts it.
func TestSeed003_DailyWriterHasNoDayWithoutInteraction(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	at := func(day int, h float64) time.Time {
		return time.Date(2026, 3, 2, 0, 0, 0, 0, loc).AddDate(0, 0, day).Add(time.Duration(h * float64(time.Hour)))
	}
	r := NewRelationship(at(0, 21))
	for day := range 12 {
		h := 21.0
		if day%2 == 1 {
			h = 23.5 // late one evening, early the next: gaps of 21.5 and 26.5 hours
		}
		r, _ = r.Apply(at(day, h), loc, nil, true)
		// A daily job runs at 04:00 the next morning, as in the daemon.
		r, _ = r.Apply(at(day+1, 4), loc, nil, false)
	}
	if want := 12 * TurnPoints; r.Score != want {
		t.Fatalf("%s §4: twelve evenings in a row, score %v, want %v (no decay)", seed003, r.Score, want)
	}
	// Days 12 and 13 without him; he writes again on day 14 at 21:00,
	// 45.5 hours after his last line on day 11 at 23:30.
	before := r.Score
	r, _ = r.Apply(at(13, 4), loc, nil, false) // the job after the first missed day
	r, _ = r.Apply(at(14, 21), loc, nil, true)
	want := Decay(before, 69.5/24, false, false) + TurnPoints
	if !relNear(r.Score, want) {
		t.Fatalf("%s §4.3: after a missed day the whole span decays: score %v, want %v", seed003, r.Score, want)
	}
}
