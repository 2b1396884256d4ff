package heart

import (
	"math"
	"time"
)

// RelationshipState is the affinity state of seed 003 §3.1. There are four
// and only four: §3.1 "不设'恋人'状态" is an ethical red line, so no code path
// can produce a fifth.
type RelationshipState string

// The states of 003_9b71f6486dad9aaa.txt §3.1.
const (
	Stranger     RelationshipState = "stranger"
	Acquaintance RelationshipState = "acquaintance"
	Friend       RelationshipState = "friend"
	Close        RelationshipState = "close"
)

// rank orders the states; unknown states rank as stranger.
func (s RelationshipState) rank() int {
	switch s {
	case Acquaintance:
		return 1
	case Friend:
		return 2
	case Close:
		return 3
	}
	return 0
}

// Valid reports whether s is one of the four states; a stored document with
// anything else is treated as a stranger.
func (s RelationshipState) Valid() bool {
	return s == Stranger || s == Acquaintance || s == Friend || s == Close
}

// stateOfRank is the inverse of rank.
func stateOfRank(n int) RelationshipState {
	switch n {
	case 1:
		return Acquaintance
	case 2:
		return Friend
	case 3:
		return Close
	}
	return Stranger
}

// UpperBound is the highest score a state holds (§3.1 ranges); it caps the
// score while the state's transition conditions are unmet.
func UpperBound(s RelationshipState) float64 {
	switch s {
	case Acquaintance:
		return AcquaintanceTop
	case Friend:
		return FriendTop
	case Close:
		return CloseTop
	}
	return StrangerTop
}

// StateFor is the state a score falls in by §3.1's ranges alone.
func StateFor(score float64) RelationshipState {
	switch {
	case score > FriendTop:
		return Close
	case score > AcquaintanceTop:
		return Friend
	case score > StrangerTop:
		return Acquaintance
	}
	return Stranger
}

// Watch reasons (§3.1 观察期 triggers).
const (
	WatchReasonCrisis     = "crisis"     // a self-harm expression
	WatchReasonLoneliness = "loneliness" // loneliness index > WatchLoneliness
)

// Relationship is one user's affinity state (seed 003). The caller stores it
// as JSON (store.User.Relationship); V versions the document. All changes go
// through methods that take the time as an argument.
type Relationship struct {
	V     int               `json:"v"`
	Score float64           `json:"score"`
	State RelationshipState `json:"state"`

	// LastInteraction is the user's last message; DecayedAt is the instant
	// Score was last decayed to, so lazy decay never counts a span twice.
	LastInteraction time.Time `json:"last_interaction"`
	DecayedAt       time.Time `json:"decayed_at"`

	// Counters of the §3.1 transition conditions.
	Turns            int    `json:"turns"`
	PositiveFeedback int    `json:"positive_feedback"`
	PrivateTopics    int    `json:"private_topics"`
	ConsecutiveDays  int    `json:"consecutive_days"`
	LastActiveDay    string `json:"last_active_day"` // YYYY-MM-DD, caller's time zone
	// BestStreak is the longest run of ConsecutiveDays so far: §3.1's
	// "连续3天互动" is met once three days in a row happened, not only while
	// the current run lasts (README "How hearth decides").
	BestStreak      int     `json:"best_streak,omitempty"`
	DeepDisclosures int     `json:"deep_disclosures"`
	MaxTrust        float64 `json:"max_trust"` // largest trust signal, points × weight
	// DeepDisclosureDay is the local day of the last deep disclosure that
	// counted: one a day, so one conversation about a breakup is one
	// disclosure, not three (§3.1 "深度自我暴露3次+" reads as occasions).
	DeepDisclosureDay string `json:"deep_disclosure_day,omitempty"`
	// BoundaryAt is when the last §2.3 "需要边界" signal counted; the next
	// counts only BoundaryEvery later, so toggling a setting is no grind.
	BoundaryAt time.Time `json:"boundary_at,omitzero"`

	// TurnPointsDay and TurnPointsToday track the daily cap of the
	// familiarity credit (TurnPoints, DailyTurnPoints).
	TurnPointsDay   string  `json:"turn_points_day,omitempty"`
	TurnPointsToday float64 `json:"turn_points_today,omitempty"`

	// RecentNegatives are the times of negative signals within
	// AmbiguityWindow, for §1.1's ambiguity rule.
	RecentNegatives []time.Time `json:"recent_negatives,omitempty"`

	// §4.2 decay protections.
	DeepHistory      bool `json:"deep_history"`
	GratitudeHistory bool `json:"gratitude_history"`

	// §3.1 Watch overlay; only an operator clears it (ClearWatch).
	// WatchDetail is the crisis floor's category (CrisisCategory) for a
	// crisis, for the reviewer. WatchClearedAt is the last review: the
	// loneliness index that re-enters Watch counts only what came after it.
	Watch          bool      `json:"watch"`
	WatchReason    string    `json:"watch_reason,omitempty"`
	WatchDetail    string    `json:"watch_detail,omitempty"`
	WatchSince     time.Time `json:"watch_since,omitzero"`
	WatchClearedAt time.Time `json:"watch_cleared_at,omitzero"`
	// SafetyAsked is when the companion last asked directly about suicide
	// (a concern in a talk at risk) and still awaits the answer; zero once
	// answered (awaitsSafetyAnswer).
	SafetyAsked time.Time `json:"safety_asked,omitzero"`
	// ConcernAt is when the user last said words of the crisis floor's
	// concern tier, for talkAtRisk: a second one in the same talk is asked
	// about.
	ConcernAt time.Time `json:"concern_at,omitzero"`
	// EmergencyAt is when the user last wrote in a talk where an attempt
	// under way was read (CrisisAttempt) and nobody has yet said help is
	// there: while the talk lasts (RiskTalkGap between messages), every
	// reply stays an emergency reply (SafetyReading.Emergency). Zero once
	// they say help is there or they are safe (CueSafe); set again when
	// they then say help has gone or never came (CueHelpGone).
	EmergencyAt time.Time `json:"emergency_at,omitzero"`
	// HelpAt is when the user said help is there (CueSafe) in an
	// emergency talk: until the talk ends, the earlier attempt the talk's
	// rules read again into later lines ("thank you for staying" after
	// the pills) starts no new emergency.
	HelpAt time.Time `json:"help_at,omitzero"`
	// RetractedAt is when the user took back, as a joke, the one crisis
	// line of a light talk ("老板再让我改方案我就从楼上跳下去哈哈哈", then
	// "开玩笑的"): Watch stays for the operator, but the talk is no longer
	// read as at risk and the lines before it add nothing to later ones.
	// Zero again at the next warning sign.
	RetractedAt time.Time `json:"retracted_at,omitzero"`
	// RetractedTurn is the turn of the crisis line taken back: its
	// feeling (a crisis turn is recorded sad) no longer darkens the talk.
	RetractedTurn int `json:"retracted_turn,omitempty"`
	// CrisisTalkAt is the last message of a talk that held a crisis turn
	// or the direct question (InCrisisTalk); CardKind is the most severe
	// category whose crisis resources went out in that talk (CrisisTalkTurn).
	// NoticeDue is a daily limit's notice (LimitWatch, LimitClose) that
	// a crisis turn held back, said at the next ordinary turn.
	CrisisTalkAt time.Time `json:"crisis_talk_at,omitzero"`
	CardKind     string    `json:"card_kind,omitempty"`
	NoticeDue    string    `json:"notice_due,omitempty"`

	// §5 and §6 wellbeing, refreshed by the daily checks.
	Loneliness      float64 `json:"loneliness"`
	DependencyLevel int     `json:"dependency_level"`
	DependencySince string  `json:"dependency_since,omitempty"` // first day of the current warning streak
	// DependencyDays counts the active days of the warning streak (days the
	// user wrote); DependencyCounted is the last day counted, so a check
	// that runs twice a day counts the day once (EvaluateDependency).
	DependencyDays    int    `json:"dependency_days,omitempty"`
	DependencyCounted string `json:"dependency_counted,omitempty"`
}

// RelationshipEvent is a decision Apply and the wellbeing checks return for
// the caller to act on (tell the operator, send resources, log).
type RelationshipEvent interface{ relationshipEvent() }

// StateChanged says the state moved during one call.
type StateChanged struct{ From, To RelationshipState }

// EnterWatch says the user entered Watch: the caller sends the crisis
// resources at once, alerts the operator and stops proactive messages.
// Detail is the crisis category, empty for loneliness.
type EnterWatch struct{ Reason, Detail string }

// WatchRaised says a user already in Watch said something more severe
// than the crisis category Watch holds (From, empty when Watch was entered
// for loneliness): WatchDetail is To now, and the caller tells the
// operator again, an attempt under way (CrisisCategory.Emergency) above
// all.
type WatchRaised struct{ From, To string }

// DependencyChanged says the §6.2 intervention level changed.
type DependencyChanged struct{ From, To int }

// OperatorReview says a person should look at this user: seed 003 §1.1's
// circuit breaker ("删除所有记忆、自杀倾向、过度依赖 → 不只是扣分，要人工介入").
// Crisis is covered by EnterWatch and WatchRaised; this event carries the
// other two.
type OperatorReview struct{ Reason string }

// Review reasons (§1.1, and §2.3's report: 举报/投诉 "紧急处理").
const (
	ReviewMemoryDeletedAll = "memory_deleted_all"
	ReviewDependency       = "dependency"
	ReviewReport           = "report"
)

// The event markers keep RelationshipEvent a closed set.
func (StateChanged) relationshipEvent()      {}
func (OperatorReview) relationshipEvent()    {}
func (EnterWatch) relationshipEvent()        {}
func (DependencyChanged) relationshipEvent() {}
func (WatchRaised) relationshipEvent()       {}

// NewRelationship is a stranger at score 0, met at now.
func NewRelationship(now time.Time) Relationship {
	return Relationship{V: RelationshipVersion, State: Stranger, DecayedAt: now}
}

// CanAdvance reports whether the current state's §3.1 transition conditions
// are met, so the score may rise past the state's upper bound.
func (r Relationship) CanAdvance() bool {
	switch r.State {
	case Acquaintance:
		return r.PrivateTopics >= TransitionPrivateTopics && max(r.BestStreak, r.ConsecutiveDays) >= TransitionConsecutiveDays
	case Friend:
		return r.DeepDisclosures >= TransitionDeepDisclosures && r.MaxTrust >= TransitionTrust
	case Close:
		return false
	}
	return r.Turns >= TransitionTurns && r.PositiveFeedback >= TransitionPositiveFeedback
}

// Apply is one step of the affinity model at now: lazy decay up to now
// (§4), then the counters (a userTurn is one turn of conversation on the
// local day of now in loc; nil loc means UTC), then the signals' effective
// points, clamped to 0-100, then the state (§3.1). An ambiguous negative
// signal counts only when it stacks with another negative of the last
// AmbiguityWindow (§1.1, see ApplyAmbiguityRule). A state's upper bound holds
// until its transition conditions are met; the state falls by score alone.
// A crisis signal enters Watch. The receiver is not modified.
func (r Relationship) Apply(now time.Time, loc *time.Location, signals []RelationshipSignal, userTurn bool) (Relationship, []RelationshipEvent) {
	r = r.normal()
	from := r.State
	var events []RelationshipEvent

	r = r.decayTo(now, loc)
	delta := 0.0
	if userTurn {
		r.Turns++
		if now.After(r.LastInteraction) {
			r.LastInteraction = now
		}
		r.countDay(now, loc)
		delta += r.turnCredit(now, loc)
	}
	r.RecentNegatives = pruneBefore(r.RecentNegatives, now.Add(-AmbiguityWindow))
	for _, s := range signals {
		if s.Points < 0 {
			s = ambiguityRule(len(r.RecentNegatives), s)
			r.RecentNegatives = append(r.RecentNegatives, now)
		}
		switch s.Tag {
		case SignalLike:
			r.PositiveFeedback++
		case SignalGratitude:
			r.PositiveFeedback++
			r.GratitudeHistory = true
		case SignalPrivateTopic:
			r.PrivateTopics++
		case SignalBoundary:
			r.BoundaryAt = now
		case SignalDeepDisclosure:
			r.DeepDisclosures++
			r.PrivateTopics++
			r.DeepHistory = true
			r.DeepDisclosureDay = relLocalDay(now, loc)
			if t := s.Points * s.Weight; t > r.MaxTrust {
				r.MaxTrust = t
			}
		case SignalMemoryDeletedAll:
			events = append(events, OperatorReview{Reason: ReviewMemoryDeletedAll})
		case SignalReport:
			// 003_9b71f6486dad9aaa.txt §2.3: a report needs urgent handling.
			events = append(events, OperatorReview{Reason: ReviewReport})
		case SignalCrisis:
			if !r.Watch {
				r = r.enterWatch(now, WatchReasonCrisis)
				r.WatchDetail = s.Detail
				events = append(events, EnterWatch{Reason: WatchReasonCrisis, Detail: s.Detail})
			} else if from := r.WatchDetail; CrisisCategory(s.Detail).severity() > CrisisCategory(from).severity() {
				// Worse than what Watch was entered for (a plan after a
				// wish, an attempt under way, a crisis after loneliness):
				// the reviewer sees the worst, and hears of it now.
				r.WatchReason, r.WatchDetail = WatchReasonCrisis, s.Detail
				events = append(events, WatchRaised{From: from, To: s.Detail})
			}
		}
		if e := s.Effective(); !math.IsNaN(e) && !math.IsInf(e, 0) {
			delta += e
		}
	}
	r.Score = clampScore(r.Score + delta)
	r.settle()
	if r.State != from {
		events = append([]RelationshipEvent{StateChanged{From: from, To: r.State}}, events...)
	}
	return r, events
}

// ClearWatch is the operator's way out of Watch at now (DESIGN §9 `hearth
// watch clear`): seed 003 wants a person to review, so heart never clears
// it. The review covers what happened before now, so the loneliness index
// starts again from now (LonelinessSince) and cannot put the user straight
// back into Watch the next morning.
func (r Relationship) ClearWatch(now time.Time) Relationship {
	r.Watch = false
	r.WatchReason = ""
	r.WatchDetail = ""
	r.WatchSince = time.Time{}
	r.WatchClearedAt = now
	r.Loneliness = 0
	return r
}

// Reviewed applies an operator's review of Watch at `at` (the time of
// `hearth watch clear`, kept apart from the relationship) to r, which may
// have been computed from a copy read before the review: a turn that read
// the user in Watch, waited for the model and wrote after the review must
// not put the user back. A Watch that began after the review stands, and a
// review r already carries changes nothing.
func (r Relationship) Reviewed(at time.Time) Relationship {
	if at.IsZero() || !at.After(r.WatchClearedAt) || (r.Watch && r.WatchSince.After(at)) {
		return r
	}
	return r.ClearWatch(at)
}

// LonelinessSince is where the loneliness index's window starts at now:
// LonelinessWindow back, or the last Watch review if that is later.
func (r Relationship) LonelinessSince(now time.Time) time.Time {
	from := now.Add(-LonelinessWindow)
	if r.WatchClearedAt.After(from) {
		return r.WatchClearedAt
	}
	return from
}

// SetLoneliness records the §5 loneliness index of the daily check and
// enters Watch when it exceeds WatchLoneliness (§3.1 观察期).
func (r Relationship) SetLoneliness(now time.Time, x float64) (Relationship, []RelationshipEvent) {
	r = r.normal()
	if math.IsNaN(x) || x < 0 {
		x = 0
	}
	r.Loneliness = x
	if x > WatchLoneliness && !r.Watch {
		r = r.enterWatch(now, WatchReasonLoneliness)
		return r, []RelationshipEvent{EnterWatch{Reason: WatchReasonLoneliness}}
	}
	return r, nil
}

// enterWatch sets the Watch overlay.
func (r Relationship) enterWatch(now time.Time, reason string) Relationship {
	r.Watch = true
	r.WatchReason = reason
	r.WatchSince = now
	return r
}

// normal repairs a document from an older or foreign writer: the version is
// set, an unknown state becomes the state of its score, and the score is
// clamped, so the invariants hold for everything Apply returns.
func (r Relationship) normal() Relationship {
	if r.V == 0 {
		r.V = RelationshipVersion
	}
	r.Score = clampScore(r.Score)
	if !r.State.Valid() {
		r.State = Stranger
	}
	r.settle()
	return r
}

// decayTo applies lazy decay up to now over §4's "days without
// interaction" (§4.3 "14天未互动"). A user who wrote today or on the local
// day before (in loc; nil means UTC) has had no such day, so nothing decays
// and a daily writer keeps what they build. Once a whole local day has
// passed without a message, the whole span since the last message (or the
// last decay point, if later) decays, so §4.3's 14 days are 14 × the rate.
// A relationship without a message yet decays from DecayedAt. A now before
// the last decay point (clock skew, out-of-order events) decays nothing and
// does not move the decay point back.
func (r Relationship) decayTo(now time.Time, loc *time.Location) Relationship {
	since := r.DecayedAt
	if r.LastInteraction.After(since) {
		since = r.LastInteraction
	}
	if since.IsZero() {
		r.DecayedAt = now
		return r
	}
	if !now.After(since) {
		return r
	}
	if last := r.LastInteraction; !last.IsZero() && !r.missedADay(last, now, loc) {
		return r
	}
	days := float64(now.Sub(since)) / float64(DecayUnit)
	r.Score = Decay(r.Score, days, r.DeepHistory, r.GratitudeHistory)
	r.DecayedAt = now
	return r
}

// missedADay reports whether a whole local day lies between last and now:
// now's local day is later than the day after last's.
func (r Relationship) missedADay(last, now time.Time, loc *time.Location) bool {
	return relLocalDay(now, loc) > relNextDay(relLocalDay(last, loc))
}

// turnCredit is the familiarity credit of one user turn, within the
// local day's cap.
func (r *Relationship) turnCredit(now time.Time, loc *time.Location) float64 {
	if loc == nil {
		loc = time.UTC
	}
	day := now.In(loc).Format(time.DateOnly)
	if day != r.TurnPointsDay {
		r.TurnPointsDay, r.TurnPointsToday = day, 0
	}
	credit := min(TurnPoints, DailyTurnPoints-r.TurnPointsToday)
	if credit <= 0 {
		return 0
	}
	r.TurnPointsToday += credit
	return credit
}

// countDay updates the consecutive-days counter with the local day of now.
func (r *Relationship) countDay(now time.Time, loc *time.Location) {
	day := relLocalDay(now, loc)
	switch {
	case r.LastActiveDay == day:
	case r.LastActiveDay != "" && day < r.LastActiveDay:
		// An event from the past: the counter already covers it.
	case r.LastActiveDay != "" && relNextDay(r.LastActiveDay) == day:
		r.ConsecutiveDays++
		r.LastActiveDay = day
	default:
		r.ConsecutiveDays = 1
		r.LastActiveDay = day
	}
	r.BestStreak = max(r.BestStreak, r.ConsecutiveDays)
}

// settle moves the state to match the score: up one state at a time while
// the transition conditions allow, capping the score at the state's upper
// bound where they do not; down by score alone.
func (r *Relationship) settle() {
	for {
		target := StateFor(r.Score)
		switch {
		case target.rank() > r.State.rank():
			if r.CanAdvance() {
				r.State = stateOfRank(r.State.rank() + 1)
				continue
			}
			r.Score = UpperBound(r.State)
		case target.rank() < r.State.rank():
			r.State = target
		}
		return
	}
}

// pruneBefore drops times before cut, keeping the newest
// maxRecentNegatives so a stream of negatives cannot grow the document.
func pruneBefore(ts []time.Time, cut time.Time) []time.Time {
	out := ts[:0:0]
	for _, t := range ts {
		if !t.Before(cut) {
			out = append(out, t)
		}
	}
	if len(out) > maxRecentNegatives {
		out = out[len(out)-maxRecentNegatives:]
	}
	return out
}

// clampScore keeps a score within 0-100 (§3.1); NaN becomes 0.
func clampScore(x float64) float64 {
	switch {
	case math.IsNaN(x), x < ScoreMin:
		return ScoreMin
	case x > ScoreMax:
		return ScoreMax
	}
	return x
}

// localDay is the YYYY-MM-DD of t in loc (UTC when loc is nil).
func relLocalDay(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format(time.DateOnly)
}

// nextDay is the calendar day after a YYYY-MM-DD day ("" if day is malformed).
func relNextDay(day string) string {
	return relAddDays(day, 1)
}

// addDays shifts a YYYY-MM-DD day by n calendar days ("" if malformed).
func relAddDays(day string, n int) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return ""
	}
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}
