package heart

import "time"

// The crisis resources and the daily limits in a crisis talk. A card of
// phone numbers after every crisis turn reads as a script: one talk in the
// ninth round's session got it four times in six minutes, each time after
// a caring reply. A counsellor offers the lines once, stays with the
// person, and offers them again when things get worse, when an attempt
// is under way, when the person asks, or when they come back another
// time; and nobody in crisis is told "let's rest now, talk tomorrow".

// InCrisisTalk reports whether a message at now belongs to a talk that
// held a crisis turn or the direct question about suicide: the talk's
// last message was within RiskTalkGap (the same gap that ends a talk for
// talkAtRisk and talkOf).
func (r Relationship) InCrisisTalk(now time.Time) bool {
	if r.CrisisTalkAt.IsZero() {
		return false
	}
	d := now.Sub(r.CrisisTalkAt)
	return d >= 0 && d <= RiskTalkGap
}

// CrisisTurn is what one turn means for its crisis talk (CrisisTalkTurn).
type CrisisTurn struct {
	// Card: the crisis resources follow this turn's reply.
	Card bool
	// Ordinary: no crisis turn, no direct question, and no crisis talk
	// going on: a daily limit's notice held back (NoticeDue) may be said.
	Ordinary bool
}

// CrisisTalkTurn moves the talk's crisis state on by one turn at now, of
// crisis category kind (CrisisNone for none; the model's flag included),
// ask when the reply asks the direct question, read the message as the
// crisis floor read it. The reply is caring on every crisis turn; the
// crisis resources go with it:
//   - on the first crisis turn of a talk (a talk after a gap of
//     RiskTalkGap is a new one);
//   - when the category is more severe than any carded in the talk (a
//     plan after a wish);
//   - always with an attempt's emergency reply;
//   - when the message asks for the numbers (the lexicon's set
//     help_numbers), or for help (help_me) in a crisis talk or in Watch;
//
// but never in the turn that refuses hotlines (cue, CueRefuseHelp), short
// of an attempt: a sixth held-out prober's "dont tell me to call a
// hotline" got the card in that very turn. It waits for the next crisis
// turn, as if none had been carded.
func (r Relationship) CrisisTalkTurn(read CrisisReading, kind CrisisCategory, ask bool, cue TalkCue, now time.Time) (CrisisTurn, Relationship) {
	in := r.InCrisisTalk(now)
	if !in {
		r.CardKind = ""
	}
	crisis := kind != CrisisNone
	var t CrisisTurn
	switch {
	case cue == CueRefuseHelp && !kind.Emergency():
	case crisis && (kind.Emergency() || r.CardKind == "" || kind.severity() > CrisisCategory(r.CardKind).severity()):
		t.Card = true
	case read.asksNumbers(), read.asksHelp() && (crisis || ask || in || r.Watch):
		t.Card = true
	}
	if t.Card && crisis {
		r.CardKind = string(kind.MoreSevere(CrisisCategory(r.CardKind)))
	}
	if crisis || ask || in {
		r.CrisisTalkAt = now
	}
	t.Ordinary = !crisis && !ask && !in
	return t, r
}

// LimitPaused reports whether the daily limits hold back at now: during a
// crisis talk, and for the rest of a local day (in loc) that held one.
// Someone in crisis, or just through one, is never told the day's talk is
// over; the limit counts again the next day.
func (r Relationship) LimitPaused(now time.Time, loc *time.Location) bool {
	if r.CrisisTalkAt.IsZero() {
		return false
	}
	return r.InCrisisTalk(now) || relLocalDay(r.CrisisTalkAt, loc) == relLocalDay(now, loc)
}
