package heart

import "time"

// What a crisis talk remembers between messages, beyond Watch (which only
// an operator clears) and the talk's stored categories.
//
// An attempt under way. The round-10 probe took "30 of my sleeping pills"
// and got "call 911" once; "getting really sleepy", "its kinda nice
// actually" and "love u luna" then got "How are you holding up,
// honestly?". The state is Relationship.EmergencyAt, the time of the
// user's last message in an emergency talk: kept in the relationship, as
// ConcernAt and SafetyAsked are, because Watch's detail never expires (an
// attempt a week ago is no emergency now) and the talk's stored categories
// reach back only CrisisTalkMessages lines and only when the floor asks for
// them. It holds while each message follows the last within RiskTalkGap
// (the talk), and ends when the user says help is there (CueSafe); it
// comes back when they then say help has gone again or never came
// (CueHelpGone: "i hung up", "they left", 挂了, 帰っちゃった).
//
// A joke taken back. "老板再让我改方案我就从楼上跳下去哈哈哈" read as a method,
// then "开玩笑的，改就改呗": the probe heard the crisis block again on every
// later ordinary line. A retraction (CueRetract, not CueUnless) right after
// the one crisis line of a light talk, said laughing, with no other sign
// in the talk and none in the retraction, below an attempt, is taken at its
// word: Relationship.RetractedAt. Watch stays for the operator; the talk is
// no longer at risk for being in Watch, and the lines before it add nothing
// to later ones. The next warning sign ends it.

// inEmergency reports whether an attempt under way was read earlier in
// this talk and nobody has said help is there since.
func (r Relationship) inEmergency(now time.Time) bool {
	d := now.Sub(r.EmergencyAt)
	return !r.EmergencyAt.IsZero() && d >= 0 && d <= RiskTalkGap
}

// helpCame reports whether the user said help is there earlier in this
// talk (HelpAt, within RiskTalkGap).
func (r Relationship) helpCame(now time.Time) bool {
	d := now.Sub(r.HelpAt)
	return !r.HelpAt.IsZero() && d >= 0 && d <= RiskTalkGap
}

// watchAtRisk reports whether Watch makes the talk at risk: it does unless
// the user took back the crisis that started it as a joke.
func (r Relationship) watchAtRisk() bool {
	return r.Watch && r.RetractedAt.IsZero()
}

// sinceRetraction is earlier without the lines up to a retraction: a joke
// taken back adds nothing to what is said after it.
func (r Relationship) sinceRetraction(earlier []TalkLine) []TalkLine {
	if r.RetractedAt.IsZero() {
		return earlier
	}
	for i, ln := range earlier {
		if ln.At.After(r.RetractedAt) {
			return earlier[i:]
		}
	}
	return nil
}

// needsTalkState reports whether the crisis talk's state needs the earlier
// messages of the talk: a retraction in Watch is weighed against them.
func (r Relationship) needsTalkState(read CrisisReading) bool {
	return r.Watch && r.RetractedAt.IsZero() && read.Cue() == CueRetract
}

// Cue is what the message says to the companion in a crisis talk
// (ReadTalkCue).
func (c CrisisReading) Cue() TalkCue {
	if c.text == "" {
		return CueNone
	}
	return ReadTalkCue(c.text)
}

// crisisTalk moves the crisis talk's state on after readSafety read the
// message as s (r is before, next after it): an emergency kept, ended or
// begun; a retraction taken; a goodbye or a decision asked about. It fills
// s.Cue where the reply answers the message (a talk in Watch or an
// emergency, or a guarded reading).
func (r Relationship) crisisTalk(read CrisisReading, earlier []TalkLine, history []EmotionRecord, s SafetyReading, next Relationship, now time.Time) (SafetyReading, Relationship) {
	emergency := r.inEmergency(now)
	if !emergency {
		next.EmergencyAt = time.Time{}
	}
	if !r.helpCame(now) {
		next.HelpAt = time.Time{}
	} else {
		next.HelpAt = now // the talk goes on: help came in it
	}
	if !emergency && !r.Watch && !s.Guarded() {
		return s, next
	}
	s.Cue = read.Cue()
	if s.Kind.Emergency() && s.Talk && !emergency && !read.Floor().Emergency() && r.helpCame(now) {
		// The attempt is the earlier one, read again from the talk, and
		// help is there: this message is read as its own words say.
		s.Kind, s.Talk = read.Floor(), false
		s.Risk = s.Kind == CrisisNone && r.signedTalk(read, now)
	}
	switch {
	case s.Kind.Emergency() && !emergency:
		next.EmergencyAt, next.HelpAt, next.RetractedAt, next.RetractedTurn = now, time.Time{}, time.Time{}, 0
	case !emergency && r.helpCame(now) && s.Cue == CueHelpGone:
		// Help came and is gone again ("i hung up", "they left", 挂了,
		// 帰っちゃった), or never came: they are alone again with what they
		// took, so the emergency is back until help is there again.
		next.EmergencyAt, next.HelpAt, next.SafetyAsked, next.RetractedAt, next.RetractedTurn = now, time.Time{}, time.Time{}, time.Time{}, 0
		s.Emergency, s.Ask, s.Why, s.Relief, s.Concern, s.Risk = true, false, false, false, false, false
	case emergency && s.Cue == CueSafe:
		// Help is there: relief, and she stays; no question yet.
		next.EmergencyAt, next.HelpAt, next.SafetyAsked = time.Time{}, now, time.Time{}
		s.Safe, s.Ask, s.Why, s.Relief, s.Concern, s.Risk = true, false, false, false, false, false
	case emergency:
		// Whatever they say, the reply stays an emergency reply: short,
		// the number to call and a person nearby, and no question about
		// feelings. A category read now still counts for Watch (s.Kind:
		// "don't tell anyone" after the pills is the attempt again).
		next.EmergencyAt, next.SafetyAsked, next.RetractedAt, next.RetractedTurn = now, time.Time{}, time.Time{}, 0
		s.Emergency, s.Ask, s.Why, s.Relief, s.Concern, s.Risk = true, false, false, false, false, false
	case s.Cue == CueRetract && r.watchAtRisk() && s.Kind == CrisisNone && !s.Ask && !s.Concern && !read.Sign() && lightCrisis(earlier, now):
		next.RetractedAt, next.ConcernAt, next.SafetyAsked = now, time.Time{}, time.Time{}
		if len(history) > 0 {
			next.RetractedTurn = history[len(history)-1].Turn // the crisis line's
		}
		s = SafetyReading{Retracted: true, Cue: s.Cue}
	case s.Kind != CrisisNone || s.Ask || s.Concern || read.Sign():
		next.RetractedAt, next.RetractedTurn = time.Time{}, 0 // a new warning sign: the talk is at risk again
	case s.Risk && (s.Cue == CueFarewell || s.Cue == CueDecided) && !r.signedTalk(read, now):
		// A talk dark only by its feelings (a sad drama, a long day):
		// a warm good night that leaves the door open, no question.
		s.Cue = CueParting
	case s.Risk && (s.Cue == CueFarewell || s.Cue == CueDecided):
		// A goodbye or a decision in a talk at risk: she asks directly
		// whether they are planning to end their life tonight, and the
		// next message is read as the answer (a goodbye again is a
		// crisis turn).
		next.SafetyAsked = now
	}
	return s, next
}

// signedTalk reports whether the talk is at risk by more than its
// feelings: Watch (no joke taken back), a concern said in it, or a
// warning sign in the message.
func (r Relationship) signedTalk(read CrisisReading, now time.Time) bool {
	concern := !r.ConcernAt.IsZero() && now.Sub(r.ConcernAt) <= RiskTalkGap
	return r.watchAtRisk() || concern || read.Sign()
}

// retractable are the categories a joke may take back: a wish or a
// thought of suicide, with or without a method, said laughing. Self-harm,
// preparation and an attempt are things done, not said; a concern or the
// model's flag was never the line's own words.
var retractable = map[CrisisCategory]bool{
	CrisisWishDead: true, CrisisIdeation: true, CrisisMethod: true, CrisisIntent: true, CrisisPlan: true,
}

// lightCrisis reports whether the talk's only crisis was its last line
// (the message before a retraction), said laughing, of a retractable
// category, and no earlier line of the talk said a warning sign.
func lightCrisis(earlier []TalkLine, now time.Time) bool {
	talk := talkOf(earlier, now)
	if len(talk) == 0 {
		return false
	}
	last := talk[len(talk)-1]
	if !retractable[last.Crisis] || !saidLaughing(last.Text) {
		return false
	}
	for _, ln := range talk[:len(talk)-1] {
		if ln.Crisis != CrisisNone {
			return false
		}
		if rd := crisisLex().reading(ln.Text); rd.found != CrisisNone || rd.signs() != 0 {
			return false
		}
	}
	return true
}
