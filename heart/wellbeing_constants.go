package heart

import "time"

// Numbers of hearth's wellbeing safeguards that seed 003 does not give:
// the crisis floor's matching. Each says why it is what it is.
const (
	// CrisisGapWords is how many words a "*" in an English crisis pattern
	// skips (hearth's choice: room for "i want to just jump off the roof"
	// without reaching into the next sentence).
	CrisisGapWords = 3
	// CrisisGapRunes is the same for Chinese and Japanese patterns, in runes.
	CrisisGapRunes = 4
	// CrisisGlueWords is how many glue words ("going to", "really") may
	// stand between a negation or another person and a crisis phrase
	// (hearth's choice: "im not really going to kill myself").
	CrisisGlueWords = 4
	// CrisisFuzzyMinLen is the shortest key word matched with a typo
	// (hearth's choice: "kil", "suicde", "myslef"; below four letters one
	// edit reaches too many ordinary words: "die" → "dye", "due", "tie").
	CrisisFuzzyMinLen = 4
	// CrisisFuzzyEdits is how many edits a key word of CrisisFuzzyMinLen
	// letters or more may be off.
	CrisisFuzzyEdits = 1
	// CrisisFuzzyLongLen and CrisisFuzzyEditsLong allow two edits in long
	// key words ("unalivng" for "unaliving"); from nine letters, so that
	// "suicidal" and "suicide", two edits apart, stay different words.
	CrisisFuzzyLongLen   = 9
	CrisisFuzzyEditsLong = 2
	// CrisisManyPills is the least number a "<many>" in a crisis pattern
	// stands for: tablets taken at once that no label asks for (hearth's
	// choice from the NHS's paracetamol dose, one or two 500 mg tablets at
	// a time and at most eight a day), so "i took 40 tylenol" is an
	// overdose and "took 2 tylenol for my headache" a dose.
	CrisisManyPills = 10
)

// Numbers of the crisis floor's generalising structures.
const (
	// CrisisGuardRunes is how many runes may stand between a Chinese or
	// Japanese guard cue marked "*" and the phrase it guards (hearth's
	// choice: 我不会去自杀, 主角最后自杀了, 傷つけるなんて絶対しない; two
	// runes, so 不开心想死 is no negation of 想死).
	CrisisGuardRunes = 2
	// CrisisJoinedMinLen is the shortest word read as words typed without
	// spaces ("iwanttodie"; hearth's choice: shorter joins are too often
	// ordinary words).
	CrisisJoinedMinLen = 6
)

// Numbers of the talk at risk (talkAtRisk) and the direct question about
// suicide (DESIGN §3 step 5).
const (
	// RiskRecentFeelings and RiskDarkFeelings: a talk is dark when at
	// least RiskDarkFeelings of the feelings detected in the user's last
	// RiskRecentFeelings messages were sad, lonely or anxious (hearth's
	// choice: two of three, so one sad line in a cheerful talk is no
	// pattern, and a venting talk of anger is not read as despair).
	RiskRecentFeelings = 3
	RiskDarkFeelings   = 2
	// RiskTalkGap is how long after the last message a dark talk is still
	// the same talk (hearth's choice: an evening; the next day is a new one).
	RiskTalkGap = 2 * time.Hour
	// SafetyAnswerWindow is how long the companion's direct question about
	// suicide waits for its answer (hearth's choice: the same talk).
	SafetyAnswerWindow = 2 * time.Hour
	// CrisisTalkMessages is how many of the user's earlier messages a
	// message is read with (Relationship.ReadSafetyInTalk), those within
	// RiskTalkGap of each other (hearth's choice: an evening's worth; the
	// round-9 widower spread his warning signs over six messages, the
	// indebted man his plan over five).
	CrisisTalkMessages = 8
	// CrisisTalkSigns is how many different warning signs said in one talk
	// put it at risk (hearth's choice, as RiskDarkFeelings: two, a
	// cluster, as the 988 Lifeline's warning signs come; one alone is a
	// bad day).
	CrisisTalkSigns = 2
)
