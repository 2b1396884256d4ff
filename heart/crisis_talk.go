package heart

import (
	"math/bits"
	"time"
)

// A crisis told over several messages. The round-9 probe's conversations
// said no line alone that the floor could read, and together said a plan:
// debt, an insurance payout that would cover it, "I've decided", "Friday
// night, the river", "don't talk me out of it". The 988 Lifeline's warning
// signs come in clusters; so does this reading. The lexicon's [talk]
// section names what adds up (data/crisis.txt), and ReadTalk reads a
// message with the earlier messages of its talk the caller passes.

// TalkLine is one of the user's earlier messages: its text, when it was
// said, and the crisis category its turn was read as (the stored
// episode's), so what the talk added up to then counts now.
type TalkLine struct {
	Text   string
	At     time.Time
	Crisis CrisisCategory
}

// crisisTalkDark names, in a [talk] rule, a talk that was already at risk
// (talkAtRisk: Watch, a concern earlier in the talk, dark feelings).
const crisisTalkDark = "dark"

// crisisTalkRule is one [talk] line: when the message and the earlier ones
// of its talk matched every set of need between them, the message none of
// not, one of them was read at least atLeast (when given), the talk was
// already at risk (when dark), and the message itself adds to it, the
// message is of category cat.
type crisisTalkRule struct {
	cat       CrisisCategory
	need, not setMask
	atLeast   CrisisCategory
	dark      bool
}

// crisisSign is one "sign:" line of the [talk] section: a message that
// matched set and none of not says a warning sign of its own.
type crisisSign struct {
	set int
	not setMask
}

// TalkReading is what a message says read with the earlier messages of its
// talk (ReadTalk).
type TalkReading struct {
	// Kind is the most severe category the talk's rules give this
	// message, CrisisNone for none (CrisisConcern: a concern, as the
	// concern tier's words are).
	Kind CrisisCategory
	// Signs counts the different warning signs (the [talk] section's
	// "sign:" lines) said in the talk, this message included.
	Signs int
}

// signs are the warning signs (bits by "sign:" line) the message says.
func (c CrisisReading) signs() uint64 {
	var b uint64
	if c.l == nil || c.ordinary {
		return 0
	}
	for i, s := range c.l.signs {
		if c.sets.has(s.set) && !c.sets.any(s.not) {
			b |= 1 << i
		}
	}
	return b
}

// Sign reports whether the message says a warning sign of its own (a
// "sign:" line of the [talk] section): never met with cheer.
func (c CrisisReading) Sign() bool { return c.signs() != 0 }

// needsTalk reports whether the message could mean more with the earlier
// messages of its talk: the floor found something in it, it says a
// warning sign, or it matched a set a [talk] rule needs that could still
// hold (watch: the user is in Watch, so the talk may have held a crisis
// already; dark: the talk was already at risk). An ordinary message costs
// the caller no look back: "see you tomorrow" matters only after a plan.
func (c CrisisReading) needsTalk(watch, dark bool) bool {
	if c.l == nil || c.ordinary {
		return false
	}
	if c.found != CrisisNone || c.signs() != 0 {
		return true
	}
	for _, r := range c.l.talk {
		earlier := r.atLeast == CrisisNone || watch || r.atLeast == CrisisConcern && dark
		if (!r.dark || dark) && earlier && c.sets.any(r.need) {
			return true
		}
	}
	return false
}

// ReadTalk reads the message with the earlier messages of its talk:
// earlier is the user's messages before it, oldest first, of which those
// of the same talk count (talkOf); dark says the talk was already at risk
// (Relationship.talkAtRisk). Pure: the caller passes the lines and now.
func (c CrisisReading) ReadTalk(earlier []TalkLine, now time.Time, dark bool) TalkReading {
	if c.l == nil || c.ordinary {
		return TalkReading{}
	}
	sets, worst, signs := c.sets, c.found, c.signs()
	for _, ln := range talkOf(earlier, now) {
		worst = worst.MoreSevere(ln.Crisis)
		if r := c.l.reading(ln.Text); !r.ordinary {
			sets = sets.or(r.sets)
			worst = worst.MoreSevere(r.found)
			signs |= r.signs()
		}
	}
	out := TalkReading{Signs: bits.OnesCount64(signs)}
	for _, r := range c.l.talk {
		switch {
		case !sets.all(r.need) || c.sets.any(r.not) || r.dark && !dark:
		case r.atLeast != CrisisNone && worst.severity() < r.atLeast.severity():
		case c.sets.any(r.need) || r.atLeast != CrisisNone && c.found.severity() >= r.atLeast.severity():
			// The message adds a set the rule needs, or is itself as
			// severe as it asks: read now, not on every later line.
			out.Kind = out.Kind.MoreSevere(r.cat)
		}
	}
	return out
}

// talkOf is the tail of earlier (oldest first) that is the same talk as a
// message at now: at most CrisisTalkMessages lines, each within
// RiskTalkGap of the one after it.
func talkOf(earlier []TalkLine, now time.Time) []TalkLine {
	n, next := 0, now
	for i := len(earlier) - 1; i >= 0 && n < CrisisTalkMessages; i-- {
		if d := next.Sub(earlier[i].At); d > RiskTalkGap || d < 0 {
			break
		}
		next = earlier[i].At
		n++
	}
	return earlier[len(earlier)-n:]
}
