package heart

import "testing"

// The tenth round: false alarms and silences noticed in the ninth round's
// session, each beside the everyday twins that must stay ordinary.

// TestCrisisFloorSingleQuotes: a lyric in single quotes is a quotation,
// as in double quotes; an apostrophe ("i'm", "dogs'") opens none, and an
// unframed quotation still counts.
func TestCrisisFloorSingleQuotes(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"the song goes 'i wanna die'", CrisisNone, false},
		{"the song goes ‘i wanna die’", CrisisNone, false},
		{"that chorus, 'i want to die tonight', is stuck in my head", CrisisNone, false},
		{"the song goes \"i wanna die\"", CrisisNone, false},
		// Not a quotation: no frame, or apostrophes only.
		{"i'm gonna say 'i want to die' and mean it", CrisisWishDead, false},
		{"i want to die, that's what i'm feeling", CrisisWishDead, false},
		{"the dogs' bowls are empty and i want to die", CrisisWishDead, false},
		{"'til the song ends i'm fine but i want to die", CrisisWishDead, false},
	})
}

// TestCrisisFloorOrdinaryRulesReadTheRest: a rule of the ordinary section
// explains its own clauses (a past that is over, rope for the trip,
// insurance in case), not a warning sign in another clause of the same
// message, which is read as it would be alone.
func TestCrisisFloorOrdinaryRulesReadTheRest(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"I used to self-harm; six years now and I'm doing well. but i've been saving up my pills", CrisisPreparation, false},
		{"I used to self-harm, six years clean now, but I want to kill myself", CrisisIdeation, false},
		{"life insurance in case anything happens. i've been saving up my sleeping pills", CrisisPreparation, false},
		{"bought pills for the trip. i wrote letters to my family", CrisisPreparation, false},
		{"キャンプ用にロープ買った。睡眠薬も貯めてる", CrisisPreparation, false},
		{"我朋友的爸爸自杀了，不知道怎么安慰她。我也想死", CrisisWishDead, false},
		// The rule's own clauses stay ordinary, alone or beside chatter.
		{"I used to self-harm; six years now and I'm doing well", CrisisNone, false},
		{"I used to self-harm, six years now and I'm doing well. anyway, how was your day?", CrisisNone, false},
		{"bought a new rope for the climbing gym, best knot for top rope?", CrisisNone, false},
		{"life insurance in case anything happens. the agent was nice", CrisisNone, false},
		{"キャンプ用にロープ買った。明日は晴れるといいな", CrisisNone, false},
		{"我朋友的爸爸自杀了，不知道怎么安慰她。好难过", CrisisNone, false},
		{"pills for the trip, sunscreen and a hat. so ready", CrisisNone, false},
	})
}
