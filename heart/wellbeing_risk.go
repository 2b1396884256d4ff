package heart

import "time"

// talkAtRisk reports whether a message is read with the crisis floor's
// concern tier (CrisisReading.AtRisk): the user is in Watch; or a concern was
// said earlier in this talk (within RiskTalkGap); or the talk is dark right
// now (RiskDarkFeelings of the feelings detected in the user's last
// RiskRecentFeelings messages were sad, lonely or anxious, the last of them
// within RiskTalkGap). Words like "I just want it all to stop" or a goodbye
// with thanks are ordinary in a cheerful talk and a warning sign after
// "everyone's tired of me": the 988 Lifeline's warning signs come in
// clusters, not single lines.
func (r Relationship) talkAtRisk(history []EmotionRecord, sinceLast time.Duration, now time.Time) bool {
	if r.watchAtRisk() || (!r.ConcernAt.IsZero() && now.Sub(r.ConcernAt) <= RiskTalkGap) {
		return true
	}
	if sinceLast > RiskTalkGap {
		return false
	}
	dark := 0
	for i := len(history) - 1; i >= 0 && i >= len(history)-RiskRecentFeelings; i-- {
		if !r.RetractedAt.IsZero() && history[i].Turn <= r.RetractedTurn {
			continue // a joke taken back, and what came before it
		}
		switch history[i].Emotion {
		case Sad, Lonely, Anxious:
			if history[i].Confidence > 0 {
				dark++
			}
		}
	}
	return dark >= RiskDarkFeelings
}

// awaitsSafetyAnswer reports whether the companion asked directly about
// suicide within SafetyAnswerWindow and has had no answer yet.
func (r Relationship) awaitsSafetyAnswer(now time.Time) bool {
	return !r.SafetyAsked.IsZero() && now.Sub(r.SafetyAsked) <= SafetyAnswerWindow
}

// SafetyReading is what the crisis floor makes of a message in its talk
// (ReadSafety).
type SafetyReading struct {
	Kind CrisisCategory // the crisis category, CrisisNone for none
	// Ask: no crisis, but a concern in a talk at risk: ask directly
	// whether the user is thinking about suicide before anything else (the
	// C-SSRS screener's first step; asking does not plant the idea).
	Ask bool
	// Why: the user asked why instead of answering; she says why (what
	// they said worried her) and asks again (Ask is set too).
	Why bool
	// Relief: the answer to that question was no.
	Relief bool
	// Concern: words of the concern tier in a talk not (yet) at risk:
	// met with care, never brushed off, and remembered for the talk.
	Concern bool
	// Talk: Kind, Ask or Concern came from the message read with the
	// earlier messages of its talk (ReadSafetyInTalk), not from its words
	// alone: the reply answers what they add up to.
	Talk bool
	// Risk: none of the above, but the message or its talk carries a
	// warning sign (the talk at risk, a sign of the lexicon's [talk]
	// section in the message): never met with cheer, praise or agreement
	// ("樹海でも行こうかな笑" is no "素敵だね！"), always with care.
	Risk bool

	// The crisis talk's state (crisis_talk_state.go).
	// Emergency: an attempt under way was read earlier in this talk and
	// nobody has said help is there: the reply is an emergency reply
	// (short: call the emergency number now, a person nearby, the door
	// unlocked), whatever the message says, and asks nothing about
	// feelings. Safe: the message ends such a talk ("ambulance is here",
	// "i called", 救护车来了): relief, and she stays. Retracted: the
	// message took back, as a joke, the one crisis line of a light talk:
	// relief, one gentle door left open, and no crisis block after it.
	Emergency, Safe, Retracted bool
	// Cue is what the message says to the companion in a talk in Watch,
	// an emergency or a guarded reading (ReadTalkCue): a refusal of
	// hotlines, a goodbye, a change of subject…, so the reply answers it.
	Cue TalkCue
}

// Guarded reports whether the reply must hold back cheer, praise and
// agreement: a crisis, the direct question, a concern or a warning sign.
func (s SafetyReading) Guarded() bool {
	return s.Kind != CrisisNone || s.Ask || s.Concern || s.Risk || s.Emergency || s.Safe
}

// ReadSafety is the crisis floor in its talk, for a message after history
// (the user's detected feelings, oldest first), sinceLast after their
// previous one: the words alone (CrisisFloor); the concern tier in a talk
// at risk (talkAtRisk), where a death wish said of a trifle as hyperbole
// counts too (CrisisReading.Hyperbole); and the answer to a direct
// question asked before.
// A yes to "are you thinking about ending your life?" is C-SSRS 2, active
// ideation, whatever its words; a goodbye instead of an answer is a crisis
// turn of its own (CrisisConcern). It returns the relationship with the
// talk's safety state moved on: a concern remembered for the talk, the
// question marked as asked (Ask), answered, or still open after a message
// that answers nothing.
func (r Relationship) ReadSafety(text string, history []EmotionRecord, sinceLast time.Duration, now time.Time) (SafetyReading, Relationship) {
	return r.ReadSafetyInTalk(ReadCrisis(text), nil, history, sinceLast, now)
}

// ReadSafetyInTalk is ReadSafety for a message already read (ReadCrisis)
// and the user's earlier messages, oldest first, of which those of the
// same talk count (at most CrisisTalkMessages, each within RiskTalkGap of
// the next): warning signs that add up over them make the message what
// they add up to (TalkReading.Kind: a decision after debt and an insurance
// payout is intent, a place and a time after it a plan), and CrisisTalkSigns
// of them put the talk at risk, so the concern tier is asked about. The
// caller need pass earlier only when NeedsTalk.
func (r Relationship) ReadSafetyInTalk(read CrisisReading, earlier []TalkLine, history []EmotionRecord, sinceLast time.Duration, now time.Time) (SafetyReading, Relationship) {
	s, next := r.readSafety(read, r.sinceRetraction(earlier), history, sinceLast, now)
	if !s.Guarded() && read.Sign() {
		s.Risk = true
	}
	return r.crisisTalk(read, earlier, history, s, next, now)
}

// NeedsTalk reports whether ReadSafetyInTalk reads this message with the
// earlier ones of its talk (CrisisReading.needsTalk): the caller fetches
// them only then.
func (r Relationship) NeedsTalk(read CrisisReading, history []EmotionRecord, sinceLast time.Duration, now time.Time) bool {
	return read.needsTalk(r.watchAtRisk(), r.talkAtRisk(history, sinceLast, now)) || r.needsTalkState(read)
}

// readSafety is ReadSafetyInTalk before Risk is settled for what none of
// the other answers says.
func (r Relationship) readSafety(read CrisisReading, earlier []TalkLine, history []EmotionRecord, sinceLast time.Duration, now time.Time) (SafetyReading, Relationship) {
	dark := r.talkAtRisk(history, sinceLast, now)
	var talk TalkReading
	if read.needsTalk(r.watchAtRisk(), dark) {
		talk = read.ReadTalk(earlier, now, dark)
	}
	// The talk is at risk as it was, or by the warning signs said in it.
	atRisk := dark || talk.Signs >= CrisisTalkSigns
	awaits, asked := r.awaitsSafetyAnswer(now), r.SafetyAsked
	r.SafetyAsked = time.Time{}
	kind := read.Floor()
	lifted := talk.Kind != CrisisConcern && talk.Kind.severity() > kind.severity()
	if lifted {
		kind = talk.Kind
	}
	// The concern tier's words, or a concern the talk adds up to. A
	// trifle's hyperbole ("kms this printer") counts only in a talk already
	// at risk: in a light talk it is a joke, neither met with the concern's
	// care nor remembered.
	words := read.AtRisk() == CrisisConcern && (atRisk || !read.Hyperbole())
	concern := kind == CrisisNone && (words || talk.Kind == CrisisConcern)
	byTalk := lifted || concern && (!words || atRisk && !dark)
	if concern {
		r.ConcernAt = now
		if atRisk {
			kind = CrisisConcern
		}
	}
	if awaits {
		switch yes, no := read.Answer(); {
		case yes:
			return SafetyReading{Kind: kind.MoreSevere(CrisisIdeation)}, r
		case no && kind == CrisisNone:
			return SafetyReading{Relief: true}, r
		case kind == CrisisNone && read.AsksWhy():
			r.SafetyAsked = now
			return SafetyReading{Ask: true, Why: true}, r
		case kind.severity() <= CrisisConcern.severity() && read.Leaving():
			// Leaving without an answer: a goodbye is itself a warning
			// sign there, and nothing rules the question out. A crisis
			// turn, Watch's detail "concern".
			return SafetyReading{Kind: CrisisConcern}, r
		}
	}
	if kind == CrisisConcern {
		r.SafetyAsked = now
		return SafetyReading{Ask: true, Talk: byTalk}, r
	}
	if awaits && kind == CrisisNone {
		r.SafetyAsked = asked // no answer yet: a goodbye after it still counts
	}
	guarded := atRisk && !r.watchAlone(history, sinceLast, now, talk)
	return SafetyReading{Kind: kind, Concern: concern, Talk: byTalk, Risk: kind == CrisisNone && !concern && guarded}, r
}

// WatchGuardWindow is how long after its last crisis Watch alone keeps an
// ordinary message guarded (Risk: no cheer, a gentle question). Our
// choice: the first days after a crisis (the morning after an attempt)
// are when a gentle check matters most; after them Watch keeps the
// concern tier asked about and the operator's review, and an ordinary
// message is answered as one.
const WatchGuardWindow = 72 * time.Hour

// lastCrisisAt is the latest moment of a crisis: entering Watch, the last
// message of a crisis talk, the last of an emergency.
func (r Relationship) lastCrisisAt() time.Time {
	t := r.WatchSince
	for _, at := range []time.Time{r.CrisisTalkAt, r.EmergencyAt} {
		if at.After(t) {
			t = at
		}
	}
	return t
}

// watchAlone reports whether the talk is at risk only because the user is
// in Watch, WatchGuardWindow after the last crisis and outside the talk
// that held it: no concern earlier in
// it, no dark run of feelings, no warning signs adding up. Watch lasts
// until a person reviews it, often weeks; it keeps the concern tier asked
// about, but an ordinary message days later ("HIT PLAT", "gn luna") is no
// warning sign, and guarding it (Risk) met every one with the same three
// lines of safety.risk for weeks (the fourth round of lived probes: a
// teen's "she said she loves me no matter what").
func (r Relationship) watchAlone(history []EmotionRecord, sinceLast time.Duration, now time.Time, talk TalkReading) bool {
	if !r.Watch || r.InCrisisTalk(now) || talk.Signs >= CrisisTalkSigns || now.Sub(r.lastCrisisAt()) < WatchGuardWindow {
		return false
	}
	r.Watch = false
	return !r.talkAtRisk(history, sinceLast, now)
}
