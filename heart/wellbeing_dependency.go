package heart

import "sync"

import "time"

// DependencyInputs are the measurements behind seed 003 §6.1's five
// over-dependency conditions (DependencyInputsFrom builds them from history).
type DependencyInputs struct {
	DaysOver2h               int     `json:"days_over_2h"`               // consecutive days with > 2 h of talk
	ConsecutiveDaysInitiated int     `json:"consecutive_days_initiated"` // consecutive days the user wrote first
	LateNightShare           float64 `json:"late_night_share"`           // 0..1 of messages at 22:00-05:00
	SaidOnlyYou              bool    `json:"said_only_you"`              // "只有你懂我" and the like
	RealSocialShare          float64 `json:"real_social_share"`          // 0..1 of active days mentioning real people
	Messages                 int     `json:"messages"`                   // user messages in the window
	// RecentlyActive says the user wrote within DependencyRecentDays: the
	// share conditions describe a habit only while there is one.
	RecentlyActive bool `json:"recently_active"`
	// ActiveDays are the local days (YYYY-MM-DD, ascending) with a user
	// message in the window; EvaluateDependency counts the warning by them.
	ActiveDays []string `json:"active_days,omitempty"`
}

// DependencyConditions counts how many of §6.1's five conditions hold:
// (1) 7 consecutive days over 2 h, (2) 14 consecutive days initiated,
// (3) late-night share > 60%, (4) "only you" said, (5) real-social share
// < 20%. The share conditions (3) and (5) need a recent habit
// (RecentlyActive): a few lines weeks ago are no pattern. As §5.1 subtracts
// mentions of real friends and family from loneliness, a real-social share
// of DependencySocialCounterShare or more counts one condition against the
// rest: a night owl who talks about friends and family every day is living
// the life §1.2 wants ("不需要时回归生活"). The warning (§6.1 "满足2条以上")
// is on at DependencyWarnConditions.
func DependencyConditions(in DependencyInputs) int {
	n := 0
	if in.DaysOver2h >= DependencyLongDays {
		n++
	}
	if in.ConsecutiveDaysInitiated >= DependencyInitiatedDays {
		n++
	}
	shares := in.Messages > 0 && in.RecentlyActive
	if shares && in.LateNightShare > DependencyLateNightShare {
		n++
	}
	if in.SaidOnlyYou {
		n++
	}
	if shares && in.RealSocialShare < DependencyRealSocialShare {
		n++
	}
	if shares && in.RealSocialShare >= DependencySocialCounterShare {
		n--
	}
	return max(n, 0)
}

// DependencyLevel is §6.2's intervention level. daysInWarning counts the
// active days (days the user wrote) the warning has held, the first being
// day 1 (EvaluateDependency keeps that count). Level 1 from day 7, level 2
// from day 14, level 3 from day 21; 0 while fewer than two conditions hold
// or before day 7 (the seed's first week is observation).
func DependencyLevel(conditionsMet int, daysInWarning int) int {
	if conditionsMet < DependencyWarnConditions {
		return 0
	}
	switch {
	case daysInWarning >= DependencyLevel3Day:
		return 3
	case daysInWarning >= DependencyLevel2Day:
		return 2
	case daysInWarning >= DependencyLevel1Day:
		return 1
	}
	return 0
}

// EvaluateDependency is the daily over-dependency check at now (local days in
// loc). The warning starts on the latest active day when a check finds two
// or more conditions, and ends on any check that finds fewer. Its length is
// counted in active days, each once however often the check runs, so the
// level never rises while the user is silent (§6.2's Day 7/14/21 are days
// of the pattern, and a pattern needs the user). A user who writes every
// night "只有你懂我" meets three conditions from the first night (late
// night, only you, no real people), so checks after each night give level
// 1 after the 7th night, 2 after the 14th and 3 after the 21st; one who
// wrote three nights and went silent stays at 0.
func (r Relationship) EvaluateDependency(in DependencyInputs, now time.Time, loc *time.Location) (Relationship, []RelationshipEvent) {
	r = r.normal()
	today := relLocalDay(now, loc)
	met := DependencyConditions(in)
	if met >= DependencyWarnConditions {
		if r.DependencySince == "" {
			r.DependencySince = lastDayUpTo(in.ActiveDays, today)
			r.DependencyDays, r.DependencyCounted = 0, ""
		}
		for _, d := range in.ActiveDays {
			if d > r.DependencyCounted && d >= r.DependencySince && d <= today {
				r.DependencyDays++
				r.DependencyCounted = d
			}
		}
	} else {
		r.DependencySince, r.DependencyDays, r.DependencyCounted = "", 0, ""
	}
	from := r.DependencyLevel
	r.DependencyLevel = DependencyLevel(met, r.DependencyDays)
	if r.DependencyLevel == from {
		return r, nil
	}
	events := []RelationshipEvent{DependencyChanged{From: from, To: r.DependencyLevel}}
	if r.DependencyLevel >= DependencyLevel3Level && from < DependencyLevel3Level {
		// §1.1: over-dependency at its strongest level needs a person.
		events = append(events, OperatorReview{Reason: ReviewDependency})
	}
	return r, events
}

// lastDayUpTo is the latest of days (ascending) not after today, or today.
func lastDayUpTo(days []string, today string) string {
	for i := len(days) - 1; i >= 0; i-- {
		if days[i] <= today {
			return days[i]
		}
	}
	return today
}

// onlyYouCues are §6.1 (4)'s exclusive-reliance phrases.
var onlyYouCues = sync.OnceValue(func() cues {
	return compileCues(
		"只有你懂我", "只有你理解我", "我只信任你", "我只有你", "只有你了", "只有你能理解", "除了你没人",
		"only you understand me", "only you get me", "you are the only one who understands",
		"youre the only one who understands", "you are the only one i have", "youre the only one i have",
		"i only trust you", "you are all i have", "youre all i have", "no one but you",
		"あなただけ", "君だけ", "あなたしかいない", "君しかいない", "あなたしか信じられない",
	)
})

// OnlyYouPhrase reports whether text says the bot is the only one who
// understands or is trusted (§6.1 (4) "只有你懂我""我只信任你").
func OnlyYouPhrase(text string) bool {
	return newRelMatcher(text).hasAny(onlyYouCues())
}
