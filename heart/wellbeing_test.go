package heart

import (
	"strings"
	"testing"
	"time"
)

// TestSeed003_LonelinessFormula checks §5.1's terms in hearth's normalised
// reading (Loneliness): shares, the distress gate, evidence by active days.
func TestSeed003_LonelinessFormula(t *testing.T) {
	week := func(in LonelinessInputs) LonelinessInputs {
		in.Messages, in.ActiveDays = 10, 7
		return in
	}
	rows := []struct {
		name string
		in   LonelinessInputs
		want float64
	}{
		{"负面情绪表达 ×0.4: all negative", week(LonelinessInputs{NegativeEmotion: 10, NoRealSocial: 0, RealFriends: 7}), 100 * (0.4 - 0.3) / 1.4},
		{"表达无助/绝望 ×0.5: every day", week(LonelinessInputs{Hopeless: 7, RealFriends: 7}), 100 * (0.5 - 0.3) / 1.4},
		{"深夜 ×0.3 and 缺乏现实社交 ×0.2 gated by distress: a cheerful night owl", week(LonelinessInputs{LateNight: 10, NoRealSocial: 7}), 0},
		{"half the messages negative gates half the behaviour terms", week(LonelinessInputs{LateNight: 10, NegativeEmotion: 5, NoRealSocial: 7}), 100 * (0.3*0.5 + 0.4*0.5 + 0.2*0.5) / 1.4},
		{"the loneliest talk is 100", week(LonelinessInputs{LateNight: 10, NegativeEmotion: 10, NoRealSocial: 7, Hopeless: 7}), 100},
		{"提到现实朋友/家人 −0.3 floors at 0", week(LonelinessInputs{RealFriends: 7}), 0},
		{"evidence: 2 active days of 7 weigh 2/7", LonelinessInputs{Messages: 4, ActiveDays: 2, LateNight: 4, NegativeEmotion: 4, NoRealSocial: 2, Hopeless: 2}, 100 * 2.0 / 7},
		{"no messages", LonelinessInputs{}, 0},
		{"volume alone changes nothing", LonelinessInputs{Messages: 3000, ActiveDays: 30, LateNight: 3000, NoRealSocial: 30}, 0},
	}
	for _, r := range rows {
		if got := Loneliness(r.in); !relNear(got, r.want) {
			t.Errorf("%s §5.1 %s: %v, want %v", seed003, r.name, got, r.want)
		}
	}
}

// TestSeed003_LonelinessBands checks §5.2's rows and their guidance.
func TestSeed003_LonelinessBands(t *testing.T) {
	rows := []struct {
		x    float64
		band int
	}{{0, 0}, {29.99, 0}, {30, 1}, {60, 1}, {60.01, 2}, {80, 2}, {80.01, 3}, {500, 3}}
	for _, r := range rows {
		if got := LonelinessBand(r.x); got != r.band {
			t.Errorf("%s §5.2: band(%v) = %d, want %d", seed003, r.x, got, r.band)
		}
	}
	if LonelinessGuidance(29, "zh") != nil {
		t.Fatal("<30: 无特殊调整")
	}
	for _, lang := range []string{"zh", "en", "ja"} {
		for _, x := range []float64{45, 70, 90} {
			if len(LonelinessGuidance(x, lang)) == 0 {
				t.Errorf("no guidance for %v in %s", x, lang)
			}
		}
	}
	if g := LonelinessGuidance(45, "zh"); !relContainsAny(g, "你最近和朋友聊天了吗？") {
		t.Fatalf("§5.2 30-60 copy missing: %v", g)
	}
	if g := LonelinessGuidance(70, "en"); !relContainsAny(g, "meditation app") {
		t.Fatalf("§5.2 60-80 resources missing: %v", g)
	}
	if g := LonelinessGuidance(90, "ja"); !relContainsAny(g, "カウンセリング") {
		t.Fatalf("§5.2 >80 professional help missing: %v", g)
	}
}

// containsStr reports whether any of ss contains sub.
func relContainsAny(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestSeed003_LonelinessCues classifies single messages in three languages.
func TestSeed003_LonelinessCues(t *testing.T) {
	night := time.Date(2026, 5, 1, 23, 30, 0, 0, time.UTC)
	noon := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	rows := []struct {
		text string
		when time.Time
		want LonelinessCue
	}{
		{"今天和朋友吃饭了", noon, LonelinessCue{Day: "2026-05-01", RealSocial: true}},
		{"I talked to my mom", noon, LonelinessCue{Day: "2026-05-01", RealSocial: true}},
		{"家族と出かけた", noon, LonelinessCue{Day: "2026-05-01", RealSocial: true}},
		{"my son called", noon, LonelinessCue{Day: "2026-05-01", RealSocial: true}},
		{"had tea with the neighbour", noon, LonelinessCue{Day: "2026-05-01", RealSocial: true}},
		{"孙女帮我装的", noon, LonelinessCue{Day: "2026-05-01", RealSocial: true}},
		{"息子から電話がありました", noon, LonelinessCue{Day: "2026-05-01", RealSocial: true}},
		{"the sun came out", noon, LonelinessCue{Day: "2026-05-01"}},
		{"大丈夫です", noon, LonelinessCue{Day: "2026-05-01"}},
		{"稲妻がすごかった", noon, LonelinessCue{Day: "2026-05-01"}},
		{"这个对象没有初始化", noon, LonelinessCue{Day: "2026-05-01"}},
		{"我觉得好绝望", night, LonelinessCue{Day: "2026-05-01", LateNight: true, Hopeless: true}},
		{"I feel hopeless", noon, LonelinessCue{Day: "2026-05-01", Hopeless: true}},
		{"もう無理", noon, LonelinessCue{Day: "2026-05-01", Hopeless: true}},
		{"hello", time.Date(2026, 5, 1, 4, 59, 0, 0, time.UTC), LonelinessCue{Day: "2026-05-01", LateNight: true}},
		{"hello", time.Date(2026, 5, 1, 5, 0, 0, 0, time.UTC), LonelinessCue{Day: "2026-05-01"}},
		{"hello", time.Date(2026, 5, 1, 22, 0, 0, 0, time.UTC), LonelinessCue{Day: "2026-05-01", LateNight: true}},
		{"hello", time.Date(2026, 5, 1, 21, 59, 0, 0, time.UTC), LonelinessCue{Day: "2026-05-01"}},
	}
	for _, r := range rows {
		if got := LonelinessCues(r.text, r.when, nil, false, false); got != r.want {
			t.Errorf("LonelinessCues(%q, %s) = %+v, want %+v", r.text, r.when.Format(time.Kitchen), got, r.want)
		}
	}
	tokyo := time.FixedZone("JST", 9*3600)
	if c := LonelinessCues("hi", noon, tokyo, true, false); c.LateNight || !c.Negative {
		t.Fatalf("12:00 UTC is 21:00 JST: not late; want negative kept: %+v", c)
	}
	if c := LonelinessCues("hi", noon.Add(2*time.Hour), tokyo, false, false); !c.LateNight {
		t.Fatalf("14:00 UTC is 23:00 JST: late: %+v", c)
	}
	if c := LonelinessCues("kms", noon, nil, false, true); !c.Negative || !c.Hopeless {
		t.Fatalf("a crisis is negative and hopeless: %+v", c)
	}
}

// TestSeed003_LonelinessTally counts a month of cues.
func TestSeed003_LonelinessTally(t *testing.T) {
	var cues []LonelinessCue
	for d := range 30 {
		day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d)
		cues = append(cues, LonelinessCues("我好孤独，没有希望", day.Add(23*time.Hour), nil, true, false))
		if d%10 == 0 {
			cues = append(cues, LonelinessCues("和家人打了电话", day.Add(12*time.Hour), nil, false, false))
		}
	}
	in := LonelinessTally(cues)
	want := LonelinessInputs{Messages: 33, ActiveDays: 30, LateNight: 30, NegativeEmotion: 30, NoRealSocial: 27, Hopeless: 30, RealFriends: 3}
	if in != want {
		t.Fatalf("tally %+v, want %+v", in, want)
	}
	late, neg := 30.0/33, 30.0/33
	raw := 0.3*late*1 + 0.4*neg + 0.2*0.9*1 + 0.5*1 - 0.3*0.1
	if x := Loneliness(in); !relNear(x, 100*raw/1.4) || x <= WatchLoneliness {
		t.Fatalf("index %v, want %v (> 80: a month of hopeless nights is Watch)", x, 100*raw/1.4)
	}
}

// TestSeed003_DependencyConditions checks §6.1's five conditions one by
// one, the need for a recent habit and the real-life counterweight.
func TestSeed003_DependencyConditions(t *testing.T) {
	base := DependencyInputs{Messages: 100, LateNightShare: 0.1, RealSocialShare: 0.3, RecentlyActive: true}
	rows := []struct {
		name string
		mod  func(*DependencyInputs)
		want int
	}{
		{"none", func(*DependencyInputs) {}, 0},
		{"(1) 7 days > 2h", func(in *DependencyInputs) { in.DaysOver2h = 7 }, 1},
		{"(1) 6 days is not enough", func(in *DependencyInputs) { in.DaysOver2h = 6 }, 0},
		{"(2) 14 days initiated", func(in *DependencyInputs) { in.ConsecutiveDaysInitiated = 14 }, 1},
		{"(2) 13 days is not enough", func(in *DependencyInputs) { in.ConsecutiveDaysInitiated = 13 }, 0},
		{"(3) late night > 60%", func(in *DependencyInputs) { in.LateNightShare = 0.61 }, 1},
		{"(3) exactly 60% is not > 60%", func(in *DependencyInputs) { in.LateNightShare = 0.6 }, 0},
		{"(4) said only you", func(in *DependencyInputs) { in.SaidOnlyYou = true }, 1},
		{"(5) real social < 20%", func(in *DependencyInputs) { in.RealSocialShare = 0.19 }, 1},
		{"(5) exactly 20% is not < 20%", func(in *DependencyInputs) { in.RealSocialShare = 0.2 }, 0},
		{"all five", func(in *DependencyInputs) {
			*in = DependencyInputs{DaysOver2h: 7, ConsecutiveDaysInitiated: 14, LateNightShare: 0.9, SaidOnlyYou: true, Messages: 10, RecentlyActive: true}
		}, 5},
		{"no messages: shares do not count", func(in *DependencyInputs) { *in = DependencyInputs{RecentlyActive: true} }, 0},
		{"silent for a week: shares do not count", func(in *DependencyInputs) {
			in.LateNightShare, in.RealSocialShare, in.RecentlyActive = 1, 0, false
		}, 0},
		{"real people on half the days count against: the social night owl", func(in *DependencyInputs) {
			in.ConsecutiveDaysInitiated, in.LateNightShare, in.RealSocialShare = 30, 1, 0.5
		}, 1},
	}
	for _, r := range rows {
		in := base
		r.mod(&in)
		if got := DependencyConditions(in); got != r.want {
			t.Errorf("%s §6.1 %s: %d, want %d", seed003, r.name, got, r.want)
		}
	}
}

// TestSeed003_DependencyLevels checks §6.2's Day 7/14/21 levels.
func TestSeed003_DependencyLevels(t *testing.T) {
	rows := []struct{ met, days, want int }{
		{1, 30, 0}, {2, 1, 0}, {2, 6, 0}, {2, 7, 1}, {3, 13, 1}, {2, 14, 2}, {2, 20, 2}, {2, 21, 3}, {5, 90, 3},
	}
	for _, r := range rows {
		if got := DependencyLevel(r.met, r.days); got != r.want {
			t.Errorf("%s §6.2: DependencyLevel(%d, %d) = %d, want %d", seed003, r.met, r.days, got, r.want)
		}
	}
}

// TestSeed003_NightlyUserThirtyDays simulates a user who writes every night
// at 23:00 for 30 days, with the daily check right after each message:
// level 1 on day 7, level 2 on day 14, level 3 on day 21 (§6.2); the
// behaviour signals register the late-night pattern every 3 nights and the
// daily streak every 7 days (§2.2).
func TestSeed003_NightlyUserThirtyDays(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	start := time.Date(2026, 7, 1, 23, 0, 0, 0, loc)
	r := NewRelationship(start)
	var h ActivityHistory
	levels := map[int]int{}
	var changes []DependencyChanged
	lateSignals, streakSignals, reviews := 0, 0, 0
	for day := 1; day <= 30; day++ {
		msg := start.AddDate(0, 0, day-1)
		h.UserMessageTimes = append(h.UserMessageTimes, msg)
		r, _ = r.Apply(msg, loc, TextSignals("今天也好累", Perception{Sentiment: -0.2}, Detection{}, CrisisNone), true)
		// The daily job of the next morning judges completed days.
		for _, s := range BehaviourSignals(h, msg.Add(10*time.Hour), loc) {
			switch s.Tag {
			case SignalLateNight:
				lateSignals++
			case SignalDailyStreak:
				streakSignals++
			}
		}
		in := DependencyInputsFrom(h, msg.Add(30*time.Minute), loc)
		var ev []RelationshipEvent
		r, ev = r.EvaluateDependency(in, msg.Add(30*time.Minute), loc)
		for _, e := range ev {
			switch e := e.(type) {
			case DependencyChanged:
				changes = append(changes, e)
			case OperatorReview:
				if e.Reason != ReviewDependency || day != 21 {
					t.Errorf("day %d: review %+v", day, e)
				}
				reviews++
			}
		}
		levels[day] = r.DependencyLevel
	}
	want := map[int]int{1: 0, 6: 0, 7: 1, 13: 1, 14: 2, 20: 2, 21: 3, 30: 3}
	for d, l := range want {
		if levels[d] != l {
			t.Errorf("%s §6.2: day %d level %d, want %d", seed003, d, levels[d], l)
		}
	}
	if reviews != 1 {
		t.Errorf("%s §1.1: level 3 asks for one operator review, got %d", seed003, reviews)
	}
	if len(changes) != 3 || changes[0] != (DependencyChanged{0, 1}) || changes[2] != (DependencyChanged{2, 3}) {
		t.Fatalf("changes %v", changes)
	}
	if lateSignals != 10 || streakSignals != 4 {
		t.Fatalf("behaviour signals: late %d (want 10), streak %d (want 4)", lateSignals, streakSignals)
	}
	// A normal week ends the warning.
	var calm ActivityHistory
	for d := range 10 {
		calm.UserMessageTimes = append(calm.UserMessageTimes, time.Date(2026, 8, 1+d, 12, 0, 0, 0, loc))
		calm.RealSocialTimes = append(calm.RealSocialTimes, time.Date(2026, 8, 1+d, 12, 0, 0, 0, loc))
	}
	r, ev := r.EvaluateDependency(DependencyInputsFrom(calm, time.Date(2026, 8, 11, 13, 0, 0, 0, loc), loc), time.Date(2026, 8, 11, 13, 0, 0, 0, loc), loc)
	if r.DependencyLevel != 0 || r.DependencySince != "" || len(ev) != 1 {
		t.Fatalf("calm user: level %d since %q ev %v", r.DependencyLevel, r.DependencySince, ev)
	}
}

// TestSeed003_DependencyInputsFrom measures talk time, streaks and shares.
func TestSeed003_DependencyInputsFrom(t *testing.T) {
	loc := time.UTC
	var h ActivityHistory
	// 8 days, each with a message every 10 minutes from 20:00 to 23:00 (3 h).
	for d := range 8 {
		for m := 0; m <= 180; m += 10 {
			h.UserMessageTimes = append(h.UserMessageTimes, time.Date(2026, 9, 1+d, 20, m, 0, 0, loc))
		}
	}
	h.SaidOnlyYou = OnlyYouPhrase("只有你懂我")
	h.RealSocialTimes = []time.Time{time.Date(2026, 9, 3, 20, 10, 0, 0, loc), time.Date(2026, 9, 3, 20, 20, 0, 0, loc)}
	now := time.Date(2026, 9, 9, 9, 0, 0, 0, loc) // next morning, nothing yet today
	in := DependencyInputsFrom(h, now, loc)
	if in.DaysOver2h != 8 || in.ConsecutiveDaysInitiated != 8 || in.Messages != 8*19 || !in.SaidOnlyYou {
		t.Fatalf("inputs %+v", in)
	}
	// 20:00-21:59 are not late; 22:00-23:00 are: 7 of 19 per day.
	// Real people came up on 1 of 8 days (twice that day).
	if !relNear(in.LateNightShare, 7.0/19) || !relNear(in.RealSocialShare, 1.0/8) {
		t.Fatalf("shares %+v", in)
	}
	if got := DependencyConditions(in); got != 3 || !in.RecentlyActive || len(in.ActiveDays) != 8 { // (1), (4), (5)
		t.Fatalf("conditions %d, want 3; %+v", got, in)
	}
	// Messages 31 days old are outside the window.
	old := ActivityHistory{UserMessageTimes: []time.Time{now.Add(-31 * 24 * time.Hour)}}
	if in := DependencyInputsFrom(old, now, loc); in.Messages != 0 || DependencyConditions(in) != 0 {
		t.Fatalf("old messages counted: %+v", in)
	}
}

// TestSeed003_IgnoredProactive: §2.2 "3天未回复AI的主动消息".
func TestSeed003_IgnoredProactive(t *testing.T) {
	sent := time.Date(2026, 10, 1, 10, 0, 0, 0, time.UTC)
	h := ActivityHistory{ProactiveSent: []time.Time{sent}}
	count := func(now time.Time, h ActivityHistory) int {
		n := 0
		for _, s := range BehaviourSignals(h, now, nil) {
			if s.Tag == SignalIgnoredProactive {
				n++
			}
		}
		return n
	}
	if count(sent.Add(71*time.Hour), h) != 0 {
		t.Fatal("before 3 days")
	}
	if count(sent.Add(72*time.Hour), h) != 1 || count(sent.Add(95*time.Hour), h) != 1 {
		t.Fatal("at 3 days: one signal")
	}
	if count(sent.Add(96*time.Hour), h) != 0 {
		t.Fatal("only during the day after the 3-day mark")
	}
	proactiveAnswered := h
	proactiveAnswered.UserMessageTimes = []time.Time{sent.Add(time.Hour)}
	if count(sent.Add(80*time.Hour), proactiveAnswered) != 0 {
		t.Fatal("answered proactive counted")
	}
	explicit := h
	explicit.ProactiveAnswered = []bool{true}
	if count(sent.Add(80*time.Hour), explicit) != 0 {
		t.Fatal("ProactiveAnswered ignored")
	}
}

// TestSeed003_LateNightStart: only conversations started at or after 23:00
// (or before 05:00) count for §2.2's time pattern; 22:30 does not.
func TestSeed003_LateNightStart(t *testing.T) {
	var h ActivityHistory
	for d := range 3 {
		h.UserMessageTimes = append(h.UserMessageTimes, time.Date(2026, 11, 1+d, 22, 30, 0, 0, time.UTC))
		// A message at 23:10 continues the 22:30 conversation: not a new start.
		h.UserMessageTimes = append(h.UserMessageTimes, time.Date(2026, 11, 1+d, 22, 55, 0, 0, time.UTC))
		h.UserMessageTimes = append(h.UserMessageTimes, time.Date(2026, 11, 1+d, 23, 10, 0, 0, time.UTC))
	}
	now := time.Date(2026, 11, 4, 10, 0, 0, 0, time.UTC)
	for _, s := range BehaviourSignals(h, now, nil) {
		if s.Tag == SignalLateNight {
			t.Fatal("22:30 starts counted as after 23:00")
		}
	}
	var g ActivityHistory
	for d := range 3 {
		g.UserMessageTimes = append(g.UserMessageTimes, time.Date(2026, 11, 2+d, 1, 30, 0, 0, time.UTC)) // nights of 1st-3rd
	}
	found := false
	for _, s := range BehaviourSignals(g, now, nil) {
		found = found || s.Tag == SignalLateNight
	}
	if !found {
		t.Fatal("01:30 starts on 3 nights ending yesterday not counted")
	}
}

// TestSeed003_OnlyYouPhrase: §6.1 (4) in three languages.
func TestSeed003_OnlyYouPhrase(t *testing.T) {
	for _, s := range []string{"只有你懂我", "我只信任你", "Only you understand me", "you're the only one who understands me", "あなただけが分かってくれる", "あなたしかいない"} {
		if !OnlyYouPhrase(s) {
			t.Errorf("OnlyYouPhrase(%q) = false", s)
		}
	}
	for _, s := range []string{"你懂我的意思吗", "only you and I went", "あなたは優しい"} {
		if OnlyYouPhrase(s) {
			t.Errorf("OnlyYouPhrase(%q) = true", s)
		}
	}
}

// TestSeed003_TalkTime: hearth's "对话时长" is the span of sessions of
// messages with gaps of at most SessionGap, per local day.
func TestSeed003_TalkTime(t *testing.T) {
	loc := time.UTC
	var ts []time.Time
	for m := 0; m <= 130; m += 5 { // 10:00 to 12:10, every 5 minutes
		ts = append(ts, time.Date(2026, 12, 1, 10, m, 0, 0, loc))
	}
	ts = append(ts, time.Date(2026, 11, 30, 9, 0, 0, 0, loc)) // yesterday, out of order
	// A second session after a 40-minute pause adds its own span only.
	ts = append(ts, time.Date(2026, 12, 1, 12, 50, 0, 0, loc), time.Date(2026, 12, 1, 13, 0, 0, 0, loc))
	when := func(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, loc) }
	if got := TalkTime(ts, when(11, 0), loc); got != time.Hour {
		t.Fatalf("talk at 11:00 = %v, want 1h", got)
	}
	if got := TalkTime(ts, when(13, 30), loc); got != 140*time.Minute {
		t.Fatalf("talk at 13:30 = %v, want 2h10m + 10m", got)
	}
	if got := TalkTime([]time.Time{when(9, 0)}, when(9, 0), loc); got != 0 {
		t.Fatalf("one message is no talk: %v", got)
	}
}

// TestSeed003_UsageLimits: §3.1 close 每日对话上限2小时, Watch 限制使用时长,
// §6.2 level 2's cool-down after 2 hours and level 3's 1-hour limit; the
// strictest applies.
func TestSeed003_UsageLimits(t *testing.T) {
	rows := []struct {
		r    Relationship
		want UsageLimit
	}{
		{Relationship{State: Friend}, UsageLimit{}},
		{Relationship{State: Friend, DependencyLevel: 1}, UsageLimit{}},
		{Relationship{State: Close}, UsageLimit{2 * time.Hour, LimitClose}},
		{Relationship{State: Acquaintance, DependencyLevel: 2}, UsageLimit{2 * time.Hour, LimitDependency2}},
		{Relationship{State: Close, DependencyLevel: 2}, UsageLimit{2 * time.Hour, LimitDependency2}},
		{Relationship{State: Stranger, DependencyLevel: 3}, UsageLimit{time.Hour, LimitDependency3}},
		{Relationship{State: Close, Watch: true}, UsageLimit{time.Hour, LimitWatch}},
		{Relationship{Watch: true, DependencyLevel: 3}, UsageLimit{time.Hour, LimitWatch}},
	}
	for _, r := range rows {
		got := UsageLimitFor(r.r)
		if got != r.want {
			t.Errorf("%s: UsageLimitFor(%s, level %d, watch %v) = %+v, want %+v", seed003, r.r.State, r.r.DependencyLevel, r.r.Watch, got, r.want)
		}
		if got.Limit > 0 && (got.Reached(got.Limit-time.Minute) || !got.Reached(got.Limit)) {
			t.Errorf("Reached around %v", got.Limit)
		}
	}
	if (UsageLimit{}).Reached(24 * time.Hour) {
		t.Error("no limit was reached")
	}
	for _, lang := range []string{"zh", "en", "ja"} {
		if !strings.Contains(LimitReachedMessage(LimitDependency2, lang), "2") || LimitReachedMessage(LimitWatch, lang) == "" ||
			LimitNotice(LimitWatch, lang) == "" || LimitNotice(LimitClose, lang) == "" || PastLimitMessage(lang) == "" {
			t.Errorf("%s: a limit text is missing", lang)
		}
	}
	if !strings.Contains(LimitReachedMessage(LimitDependency2, "zh"), "我们已经聊了2小时了") {
		t.Errorf("%s §6.2 级别2: the seed's line", seed003)
	}
}

// TestSeed003_SilentUserStaysAtZero: one line a night for three nights,
// then four weeks of silence, with the daily check every morning: the
// warning may start, but it counts active days, so silence never escalates
// it, and after a week the share conditions lapse.
func TestSeed003_SilentUserStaysAtZero(t *testing.T) {
	loc := time.UTC
	start := time.Date(2026, 3, 2, 23, 0, 0, 0, loc)
	r := NewRelationship(start)
	var h ActivityHistory
	for d := range 31 {
		if d < 3 {
			h.UserMessageTimes = append(h.UserMessageTimes, start.AddDate(0, 0, d))
		}
		check := start.AddDate(0, 0, d).Add(5 * time.Hour)
		r, _ = r.EvaluateDependency(DependencyInputsFrom(h, check, loc), check, loc)
		if r.DependencyLevel != 0 {
			t.Fatalf("%s §6: day %d level %d (days %d)", seed003, d+1, r.DependencyLevel, r.DependencyDays)
		}
	}
	if r.DependencySince != "" {
		t.Fatalf("the warning outlived the habit: %+v", r)
	}
}
