package heart

import "time"

// Limit reasons: which of seed 003's health boundaries sets a user's daily
// talk-time limit. The values are stable; hearth state and the logs show
// them.
const (
	LimitNone        = ""
	LimitWatch       = "watch"        // §3.1 观察期: 限制使用时长
	LimitDependency3 = "dependency_3" // §6.2 级别3: 设置每日使用时长上限
	LimitDependency2 = "dependency_2" // §6.2 级别2: 冷却期 after 2 hours
	LimitClose       = "close"        // §3.1 亲密: 每日对话上限2小时
)

// UsageLimit is a daily talk-time limit (TalkTime) and the boundary it
// comes from; Limit 0 means none.
type UsageLimit struct {
	Limit  time.Duration
	Reason string
}

// UsageLimitFor is the strictest of seed 003's daily limits that apply to
// r: Watch (WatchDailyLimit), dependency level 3 (DependencySuggestedLimit),
// level 2's cool-down after DependencyBreakAfter, and the close state's
// CloseDailyLimit. On a tie the first of that list names it. Once the
// user's talk time reaches the limit, hearth says so kindly once and
// answers further messages that day with a short boundary, never with
// silence, and always in full when a message is a crisis.
func UsageLimitFor(r Relationship) UsageLimit {
	var l UsageLimit
	consider := func(on bool, d time.Duration, reason string) {
		if on && (l.Limit == 0 || d < l.Limit) {
			l = UsageLimit{Limit: d, Reason: reason}
		}
	}
	consider(r.Watch, WatchDailyLimit, LimitWatch)
	consider(r.DependencyLevel >= DependencyLevel3Level, DependencySuggestedLimit, LimitDependency3)
	consider(r.DependencyLevel >= DependencyLevel2Level, DependencyBreakAfter, LimitDependency2)
	consider(r.State == Close, CloseDailyLimit, LimitClose)
	return l
}

// Reached reports whether talk time t has reached the limit.
func (l UsageLimit) Reached(t time.Duration) bool { return l.Limit > 0 && t >= l.Limit }
