package heart

import "time"

// DependencyInputs are the measurements behind seed 003 §6.1's five
// over-dependency conditions (DependencyInputsFrom builds them from history).
// The share conditions only count when Messages > 0: without messages
// there is nothing to be a share of.
type DependencyInputs struct {
	DaysOver2h               int     `json:"days_over_2h"`               // consecutive days with > 2 h of talk
	ConsecutiveDaysInitiated int     `json:"consecutive_days_initiated"` // consecutive days the user wrote first
	LateNightShare           float64 `json:"late_night_share"`           // 0..1 of messages at 22:00-05:00
	SaidOnlyYou              bool    `json:"said_only_you"`              // "只有你懂我" and the like
	RealSocialShare          float64 `json:"real_social_share"`          // 0..1 of active days mentioning real people
	Messages                 int     `json:"messages"`                   // user messages in the window
}

// DependencyConditions counts how many of §6.1's five conditions hold:
// (1) 7 consecutive days over 2 h, (2) 14 consecutive days initiated,
// (3) late-night share > 60%, (4) "only you" said, (5) real-social share
// < 20%. The warning (§6.1 "满足2条以上") is on at DependencyWarnConditions.
func DependencyConditions(in DependencyInputs) int {
	n := 0
	if in.DaysOver2h >= DependencyLongDays {
		n++
	}
	if in.ConsecutiveDaysInitiated >= DependencyInitiatedDays {
		n++
	}
	if in.Messages > 0 && in.LateNightShare > DependencyLateNightShare {
		n++
	}
	if in.SaidOnlyYou {
		n++
	}
	if in.Messages > 0 && in.RealSocialShare < DependencyRealSocialShare {
		n++
	}
	return n
}

// DependencyLevel is §6.2's intervention level. daysInWarning counts the
// local days the warning has held without a break, the first day being day
// 1 (EvaluateDependency keeps that count). Level 1 from day 7, level 2 from
// day 14, level 3 from day 21; 0 while fewer than two conditions hold or
// before day 7 (the seed's first week is observation).
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
// loc). The warning streak starts on the first local day the check finds two
// or more conditions and ends on any check that finds fewer; its length in
// days, counting the first as day 1, gives the level. A user who writes every
// night at 23:00 meets two conditions from the first night (late-night share
// and real-social share), so checks after each night's message give level 1
// on the 7th night, 2 on the 14th and 3 on the 21st.
func (r Relationship) EvaluateDependency(in DependencyInputs, now time.Time, loc *time.Location) (Relationship, []RelationshipEvent) {
	r = r.normal()
	today := relLocalDay(now, loc)
	met := DependencyConditions(in)
	days := 0
	if met >= DependencyWarnConditions {
		if r.DependencySince == "" || r.DependencySince > today {
			r.DependencySince = today
		}
		if d, ok := relDaysBetween(r.DependencySince, today); ok {
			days = d + 1
		} else {
			r.DependencySince = today
			days = 1
		}
	} else {
		r.DependencySince = ""
	}
	from := r.DependencyLevel
	r.DependencyLevel = DependencyLevel(met, days)
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

// onlyYouCues are §6.1 (4)'s exclusive-reliance phrases.
func onlyYouCues() []string {
	return []string{
		"只有你懂我", "只有你理解我", "我只信任你", "我只有你", "只有你了", "只有你能理解", "除了你没人",
		"only you understand me", "only you get me", "you are the only one who understands",
		"youre the only one who understands", "you are the only one i have", "youre the only one i have",
		"i only trust you", "you are all i have", "youre all i have", "no one but you",
		"あなただけ", "君だけ", "あなたしかいない", "君しかいない", "あなたしか信じられない",
	}
}

// OnlyYouPhrase reports whether text says the bot is the only one who
// understands or is trusted (§6.1 (4) "只有你懂我""我只信任你").
func OnlyYouPhrase(text string) bool {
	return newRelMatcher(text).hasAny(onlyYouCues())
}
