package lifeloop

import (
	"time"

	"hearth/bot"
	"hearth/store"
)

// Relationship state names of seed 003 §3.1, lowest first. The life loop
// only compares them; heart owns their meaning.
const (
	StateStranger     = "stranger"
	StateAcquaintance = "acquaintance"
	StateFriend       = "friend"
	StateClose        = "close"
)

// Defaults applied when a persona leaves a life-loop key empty or zero.
const (
	// DefaultMinState: DESIGN §9 persona keys, "min_state … default acquaintance";
	// seed 003 §3.1 acquaintance is the first state that "偶尔主动关心".
	DefaultMinState = StateAcquaintance
	// DefaultMinSilence is chosen by us: a companion that checks in at most
	// every few hours after the last word either way.
	DefaultMinSilence = 4 * time.Hour
	// DefaultDailyCap is chosen by us: at most two unprompted messages per
	// user per local day.
	DefaultDailyCap = 2
)

// Backoff after unanswered proactive messages (brief §Gate, chosen by us):
// the wait since the last unanswered proactive message is BackoffFirst ×
// BackoffFactor^(streak-1) (at least MinSilence), never more than
// BackoffCap, so a user who stopped answering hears from the bot less and
// less, and at most once a week. BackoffFirst is two days: a friend whose
// message went unanswered does not write again the next day (a probe of
// the first rule, MinSilence × 2^streak, heard about a breakup on three
// days running and five times in eight days without a word back).
const (
	BackoffFirst  = 48 * time.Hour
	BackoffFactor = 2
	BackoffCap    = 7 * 24 * time.Hour
)

// DependencyBoundaryLevel is the first over-dependency level that stops
// proactive messages. 003_9b71f6486dad9aaa.txt §6.2 level 2 "明确边界" asks the
// bot to end conversations and bring in cool-down periods, so it must not
// pull the user back in on its own; level 1 (a gentle reminder) still allows
// the occasional check-in.
const DependencyBoundaryLevel = 2

// Gate reasons, stable strings stored in the proactive log and printed by
// `hearth simulate`. They are listed in the order Gate checks them.
const (
	ReasonQuiet         = "quiet"          // the user turned proactive messages off (/quiet)
	ReasonQuietUntil    = "quiet_until"    // a timed /quiet has not ended yet
	ReasonUnreachable   = "unreachable"    // the platform said the user blocked the bot
	ReasonWatch         = "watch"          // seed 003 §3.1: Watch stops proactive messages
	ReasonDependency    = "dependency"     // seed 003 §6.2 level ≥ 2
	ReasonResting       = "resting"        // today's talk limit was reached: "let's talk tomorrow" (seed 003 §6.2 冷却期)
	ReasonState         = "state"          // relationship below the persona's min_state
	ReasonQuietHours    = "quiet_hours"    // inside the persona's quiet hours (its time zone)
	ReasonMinSilence    = "min_silence"    // too soon after the last message either way
	ReasonBackoff       = "backoff"        // previous proactive message(s) unanswered
	ReasonRecentlyAsked = "recently_asked" // the model chose silence (or failed) less than min_silence ago
	ReasonDailyCap      = "daily_cap"      // the per-user daily cap is reached
)

// GateInput is everything the gate looks at. Tick builds it from the user row,
// heart's assessment and the proactive log; tests build it by hand.
type GateInput struct {
	Now        time.Time
	Loc        *time.Location // the persona's time zone; nil means UTC
	User       store.User
	Assessment Assessment
	Settings   bot.LifeLoop
	// LastMessageAt is the last message either way (user or bot, proactive
	// messages included).
	LastMessageAt time.Time
	// LastProactive is the last proactive message actually sent, nil if none.
	LastProactive *store.Proactive
	// ProactiveAnswered is true when the user wrote after LastProactive.
	ProactiveAnswered bool
	// UnansweredStreak counts the proactive messages sent since the user last
	// wrote (consecutive unanswered ones).
	UnansweredStreak int
	// SentToday counts proactive messages sent in the persona's local day of Now.
	SentToday int
	// LastAskedAt is the last time the model was asked and chose silence or
	// failed; zero if never (or not since the user last wrote).
	LastAskedAt time.Time
	// Resting is true when the user was told today that the day's talk is
	// over (a daily limit reached: "let's rest now and talk again
	// tomorrow"); she does not write first until their next day.
	Resting bool
}

// Gate decides, without any I/O or LLM call, whether the bot may reach out to
// one user now. The checks run in a fixed order and the first failing one is
// the reason: the user's own switches (quiet, quiet_until), reachability,
// safety overlays (watch, dependency, resting), the relationship (state), then the
// clock (quiet_hours, min_silence, backoff, recently_asked, daily_cap). It
// returns ok with reason "" when every check passes.
func Gate(in GateInput) (ok bool, reason string) {
	s := EffectiveSettings(in.Settings)
	loc := in.Loc
	if loc == nil {
		loc = time.UTC
	}
	switch {
	case !in.User.Proactive:
		return false, ReasonQuiet
	case in.User.QuietUntil.After(in.Now):
		return false, ReasonQuietUntil
	case in.User.Unreachable:
		return false, ReasonUnreachable
	case in.Assessment.Watch:
		return false, ReasonWatch
	case in.Assessment.DependencyLevel >= DependencyBoundaryLevel:
		return false, ReasonDependency
	case in.Resting:
		return false, ReasonResting
	case stateRank(in.Assessment.State) < stateRank(s.MinState):
		return false, ReasonState
	case InQuietHours(in.Now.In(loc), s.QuietStart, s.QuietEnd):
		return false, ReasonQuietHours
	case in.Now.Sub(in.LastMessageAt) < s.MinSilence:
		return false, ReasonMinSilence
	case in.LastProactive != nil && !in.ProactiveAnswered &&
		in.Now.Sub(in.LastProactive.At) < BackoffWait(s.MinSilence, max(in.UnansweredStreak, 1)):
		return false, ReasonBackoff
	case !in.LastAskedAt.IsZero() && in.Now.Sub(in.LastAskedAt) < s.MinSilence:
		return false, ReasonRecentlyAsked
	case in.SentToday >= s.DailyCap:
		return false, ReasonDailyCap
	}
	return true, ""
}

// EffectiveSettings fills the persona's empty life-loop keys with the
// defaults above, so an operator only writes what they want to change.
func EffectiveSettings(s bot.LifeLoop) bot.LifeLoop {
	if s.MinState == "" {
		s.MinState = DefaultMinState
	}
	if s.MinSilence <= 0 {
		s.MinSilence = DefaultMinSilence
	}
	if s.DailyCap <= 0 {
		s.DailyCap = DefaultDailyCap
	}
	return s
}

// BackoffWait is how long to wait after the last of streak consecutive
// unanswered proactive messages: BackoffFirst × 2^(streak-1), at least
// minSilence, capped at BackoffCap. streak ≤ 0 waits minSilence.
func BackoffWait(minSilence time.Duration, streak int) time.Duration {
	if streak <= 0 {
		return minSilence
	}
	w := BackoffFirst
	for i := 1; i < streak; i++ {
		if w >= BackoffCap/BackoffFactor {
			return BackoffCap
		}
		w *= BackoffFactor
	}
	return min(max(w, minSilence), BackoffCap)
}

// InQuietHours reports whether the wall-clock time of local (already in the
// persona's zone) falls in [start, end), both offsets from local midnight.
// A window with start > end wraps midnight (23:00-08:00); start == end means
// no quiet hours. Wall-clock offsets keep the window right across DST days.
func InQuietHours(local time.Time, start, end time.Duration) bool {
	if start == end {
		return false
	}
	h, m, sec := local.Clock()
	t := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second
	if start < end {
		return t >= start && t < end
	}
	return t >= start || t < end
}

// stateRank orders relationship states; an unknown state ranks as stranger
// so a bad value never lets a message through.
func stateRank(s string) int {
	switch s {
	case StateAcquaintance:
		return 1
	case StateFriend:
		return 2
	case StateClose:
		return 3
	default:
		return 0
	}
}

// validState reports whether s names one of the four states.
func validState(s string) bool {
	switch s {
	case StateStranger, StateAcquaintance, StateFriend, StateClose:
		return true
	}
	return false
}
