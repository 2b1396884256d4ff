package heart

import (
	"slices"
	"time"
)

// ActivityHistory is what the caller knows of one user's recent behaviour,
// for the §2.2 behaviour signals and the §6.1 dependency conditions. Times
// may come in any order; the caller passes at least the last
// LonelinessWindow (30 days).
type ActivityHistory struct {
	// UserMessageTimes are the times of the user's messages.
	UserMessageTimes []time.Time
	// ProactiveSent are the times of the bot's proactive messages to the user.
	ProactiveSent []time.Time
	// ProactiveAnswered, when it has an entry for a proactive message, says
	// whether the user answered it; without one, any user message after it
	// counts as an answer.
	ProactiveAnswered []bool
	// RealSocialTimes are the times of user messages that mention real
	// friends or family (LonelinessCue.RealSocial), for §6.1 (5).
	RealSocialTimes []time.Time
	// SaidOnlyYou is true when the user said "only you understand me" or
	// similar in the window (OnlyYouPhrase), §6.1 (4).
	SaidOnlyYou bool
}

// sortedTimes returns the user message times in ascending order.
func (h ActivityHistory) sortedTimes() []time.Time {
	ts := slices.Clone(h.UserMessageTimes)
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	return ts
}

// sessionStarts returns the first message of each conversation: a message
// after more than SessionGap of silence (hearth's reading of "发起对话").
func sessionStarts(ts []time.Time) []time.Time {
	var out []time.Time
	for i, t := range ts {
		if i == 0 || t.Sub(ts[i-1]) > SessionGap {
			out = append(out, t)
		}
	}
	return out
}

// streakEnding counts consecutive days present in set, ending at day.
func streakEnding(set map[string]bool, day string) int {
	n := 0
	for d := day; d != "" && set[d]; d = relAddDays(d, -1) {
		n++
	}
	return n
}

// BehaviourSignals derives the §2.2 behaviour signals from history at now
// (local days in loc; nil means UTC). It judges completed days, those before
// now's local day, and is meant to run once per local day (the daily job):
//   - late_night when the user started a conversation at or after 23:00 (or
//     before 05:00, counted for the night before) on 3 consecutive nights
//     ending yesterday — and again at 6, 9, … so a habit keeps registering;
//   - daily_streak when the user wrote on 7 consecutive days ending
//     yesterday (and again at 14, 21, …);
//   - ignored_proactive once for each unanswered proactive message whose
//     age is between 3 and 4 days.
func BehaviourSignals(h ActivityHistory, now time.Time, loc *time.Location) []RelationshipSignal {
	ts := h.sortedTimes()
	yesterday := relAddDays(relLocalDay(now, loc), -1)
	nights := map[string]bool{}
	days := map[string]bool{}
	for _, t := range ts {
		if !t.Before(now) {
			continue
		}
		days[relLocalDay(t, loc)] = true
	}
	for _, t := range sessionStarts(ts) {
		if !t.Before(now) {
			continue
		}
		lt := t.In(relLoc(loc))
		if lt.Hour() >= LateNightStartHour || lt.Hour() < LateNightToHour {
			nights[relLocalDay(t.Add(-time.Duration(LateNightToHour)*time.Hour), loc)] = true
		}
	}
	var out []RelationshipSignal
	if n := streakEnding(nights, yesterday); n > 0 && n%LateNightStreakDays == 0 {
		out = append(out, FeedbackSignal(SignalLateNight))
	}
	if n := streakEnding(days, yesterday); n > 0 && n%DailyStreakDays == 0 {
		out = append(out, FeedbackSignal(SignalDailyStreak))
	}
	for i, sent := range h.ProactiveSent {
		age := now.Sub(sent)
		if age < IgnoredProactiveAfter || age >= IgnoredProactiveAfter+IgnoredProactiveSpan {
			continue
		}
		if proactiveAnswered(h, i, ts) {
			continue
		}
		out = append(out, FeedbackSignal(SignalIgnoredProactive))
	}
	return out
}

// answered reports whether proactive message i was answered.
func proactiveAnswered(h ActivityHistory, i int, ts []time.Time) bool {
	if i < len(h.ProactiveAnswered) {
		return h.ProactiveAnswered[i]
	}
	sent := h.ProactiveSent[i]
	for _, t := range ts {
		if t.After(sent) {
			return true
		}
	}
	return false
}

// locOrUTC is loc, or UTC when loc is nil.
func relLoc(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// DependencyInputsFrom measures the §6.1 conditions from history at now
// (local days in loc) over the last LonelinessWindow. Streaks end today when
// today already qualifies, else yesterday, so an evaluation early in the day
// does not break them. Talk time is TalkTime's. The late-night share is
// over user messages (a night owl writes most of them at night); the
// real-social share ("现实社交话题占比") is over active days — the share of
// days on which real people came up at all — because a topic is not
// repeated in every message, and counting messages would flag any chatty
// user.
func DependencyInputsFrom(h ActivityHistory, now time.Time, loc *time.Location) DependencyInputs {
	ts := h.sortedTimes()
	from := now.Add(-LonelinessWindow)
	talk := dailyTalk(ts, from, now, loc)
	active := map[string]bool{}
	in := DependencyInputs{SaidOnlyYou: h.SaidOnlyYou}
	late := 0
	for _, t := range ts {
		if t.Before(from) || t.After(now) {
			continue
		}
		d := relLocalDay(t, loc)
		if !active[d] {
			in.ActiveDays = append(in.ActiveDays, d)
		}
		active[d] = true
		in.Messages++
		if relLateNight(t, loc) {
			late++
		}
		if now.Sub(t) <= DependencyRecentDays {
			in.RecentlyActive = true
		}
	}
	long := map[string]bool{}
	for d, dur := range talk {
		long[d] = dur > DependencyDailyTalk
	}
	today := relLocalDay(now, loc)
	in.DaysOver2h = streakToday(long, today)
	in.ConsecutiveDaysInitiated = streakToday(active, today)
	if in.Messages > 0 {
		in.LateNightShare = float64(late) / float64(in.Messages)
		social := map[string]bool{}
		for _, t := range h.RealSocialTimes {
			if !t.Before(from) && !t.After(now) {
				if d := relLocalDay(t, loc); active[d] {
					social[d] = true
				}
			}
		}
		in.RealSocialShare = float64(len(social)) / float64(len(active))
	}
	return in
}

// streakToday is the streak ending today if today counts, else yesterday.
func streakToday(set map[string]bool, today string) int {
	if set[today] {
		return streakEnding(set, today)
	}
	return streakEnding(set, relAddDays(today, -1))
}

// dailyTalk is TalkTime per local day for the sorted message times in
// [from, now].
func dailyTalk(ts []time.Time, from, now time.Time, loc *time.Location) map[string]time.Duration {
	talk := map[string]time.Duration{}
	for i := 1; i < len(ts); i++ {
		prev, t := ts[i-1], ts[i]
		if prev.Before(from) || t.After(now) {
			continue
		}
		day := relLocalDay(t, loc)
		if gap := t.Sub(prev); gap <= SessionGap && relLocalDay(prev, loc) == day {
			talk[day] += gap
		}
	}
	return talk
}

// TalkTime is hearth's measure of "对话时长" (seed 003 §3.1's 每日对话上限,
// §6.1 (1), §6.2's 2 hours) on now's local day: the user's messages form
// sessions, a new one starting after more than SessionGap of silence, and
// a session lasts from its first message to its last; talk time is the sum
// of the day's sessions (a session crossing midnight counts on each day
// from that day's first message).
// A single message is no talk time; an hour of messages every few minutes
// is an hour. userMessageTimes are the user's message times of the day,
// now's included, in any order.
func TalkTime(userMessageTimes []time.Time, now time.Time, loc *time.Location) time.Duration {
	ts := ActivityHistory{UserMessageTimes: userMessageTimes}.sortedTimes()
	return dailyTalk(ts, now.Add(-calendarDay), now, loc)[relLocalDay(now, loc)]
}
