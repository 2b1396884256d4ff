package heart

import (
	_ "embed"
	"fmt"
	"sync"
)

// What a message in a crisis talk says to the companion. The round-10
// probe heard, in every talk at risk, three fixed lines per language
// cycled word for word: a refusal of hotlines, "dont call anyone", a
// goodbye and a change of subject were all met with "How are you holding
// up, honestly?". data/crisis_cues.txt names the kinds of message a crisis
// counsellor answers each in its own way, in the crisis lexicon's syntax;
// ReadTalkCue says which one a message is, so the reply answers it.

// crisisCueData is data/crisis_cues.txt (its header documents the sets).
//
//go:embed data/crisis_cues.txt
var crisisCueData string

// TalkCue is what a message says to the companion in a crisis talk: the
// name of the first set of data/crisis_cues.txt it matched, CueNone for
// none. The reply kinds (the offline brain's safety.talk.<cue> and
// crisis.emergency.talk.<cue>, the model's context note) are keyed by it.
type TalkCue string

// The cues the crisis talk's state reads (ReadSafetyInTalk); the others
// only choose the reply's words. The values are the data file's set names.
const (
	CueNone TalkCue = ""
	// CueSafe: help is there, or they are safe ("ambulance is here", "i
	// called", 救护车来了, 救急車来た): an emergency talk ends.
	CueSafe TalkCue = "safe"
	// CueHelpGone: help was there and has gone again, or never came ("i
	// hung up", "they left", 挂了, 帰っちゃった): after an attempt the
	// person is alone with what they took, and the emergency is back.
	CueHelpGone TalkCue = "help_gone"
	// CueUnless: a retraction that takes itself back ("jk jk. unless") or
	// says it is meant: no retraction.
	CueUnless TalkCue = "unless"
	// CueRetract: the writer takes it back ("just kidding", 开玩笑的,
	// 冗談だよ).
	CueRetract TalkCue = "retract"
	// CueFarewell: a goodbye ("bye luna", "love u luna", ばいばい): in a
	// talk at risk she asks directly whether they are planning to end
	// their life tonight, and reads the answer.
	CueFarewell TalkCue = "farewell"
	// CueDecided: a decision or a time ("もう決めた", "tonight"): asked
	// about as a farewell is.
	CueDecided TalkCue = "decided"
	// CueRefuseHelp: hotlines or help refused ("dont tell me to call a
	// hotline", 热线没用): no card in that turn (CrisisTalkTurn).
	CueRefuseHelp TalkCue = "refuse_help"
	// CueParting is no set of the file: a goodbye or a decision in a talk
	// dark only by its feelings (no Watch, concern or sign), met with a
	// warm good night that leaves the door open and asks nothing.
	CueParting TalkCue = "parting"
)

// crisisCueLaughSet names the set that marks a line as said laughing; it
// is no cue.
const crisisCueLaughSet = "laugh"

// crisisCues is data/crisis_cues.txt compiled: the lexicon, and the index
// of its laugh set.
type crisisCues struct {
	l     *crisisLexicon
	laugh int
}

// crisisCueLex is the compiled cue lexicon. A malformed file is a build
// defect, caught by TestTalkCues, so compiling panics.
var crisisCueLex = sync.OnceValue(func() crisisCues {
	l, err := parseCrisisLexicon(crisisCueData)
	if err != nil {
		panic(fmt.Sprintf("heart: data/crisis_cues.txt: %v", err))
	}
	c := crisisCues{l: l, laugh: -1}
	for i, name := range l.sets {
		if name == crisisCueLaughSet {
			c.laugh = i
		}
	}
	return c
})

// ReadTalkCue is what text says to the companion in a crisis talk: the
// first set of data/crisis_cues.txt it matched, in file order (a "jk jk.
// unless" is CueUnless, not CueRetract), or CueNone.
func ReadTalkCue(text string) TalkCue {
	c := crisisCueLex()
	sets := c.l.readAll(text).sets
	for i, name := range c.l.sets {
		if i != c.laugh && sets.has(i) {
			return TalkCue(name)
		}
	}
	return CueNone
}

// saidLaughing reports whether text carries laughter (lol, 哈哈, ｗ): the
// cue lexicon's laugh set.
func saidLaughing(text string) bool {
	c := crisisCueLex()
	return c.l.readAll(text).sets.has(c.laugh)
}
