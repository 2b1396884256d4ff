package heart

import "testing"

// TestAWidowerWhoThoughtAboutJumpingFromTheBridgeIsHeard: a lived evening
// helper's widower wrote "I walked to the bridge tonight and thought about
// jumping" and the floor heard nothing: a place to fall from that one
// keeps thinking about was read only in the present tense. The past tense
// and "thinking of" are the same rumination; a swim, a career move and a
// pool without a place to fall from stay ordinary.
func TestAWidowerWhoThoughtAboutJumpingFromTheBridgeIsHeard(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"I walked to the bridge tonight and thought about jumping", CrisisMethod, false},
		{"walked to the bridge tonight. thought about jumping", CrisisMethod, false},
		{"went up to the roof and thought about jumping off", CrisisMethod, false},
		{"stood on the overpass, thinking of jumping", CrisisMethod, false},
		{"thought about jumping into the pool but it was too cold", CrisisNone, false},
		{"walked over the bridge to work, thought about jumping ship to another company", CrisisNone, false},
		{"thought about jumping on a train to see my sister this weekend", CrisisNone, false},
		{"fixed the gutter on the roof, thought about jumping in the pool after", CrisisNone, false},
		{"on the balcony thinking about jumping in the lake tomorrow, its so hot", CrisisNone, false},
	})
}

// TestNotKnowingHowMuchMoreOneCanTakeIsAConcern: "I don't know how much
// more of this I can take" (a widower's hard evening) read nothing; it is
// the 988 Lifeline's "unbearable pain", asked about in a talk at risk. A
// project, shoes, a battery, the heat and "I can keep going" are not.
func TestNotKnowingHowMuchMoreOneCanTakeIsAConcern(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"I don't know how much more of this I can take", CrisisConcern, true},
		{"i dont know how much longer i can keep going", CrisisConcern, true},
		{"我不知道我还能撑多久", CrisisConcern, true},
		{"もうこれ以上耐えられるかわからない", CrisisConcern, true},
		{"i dont know how much more pizza i can take lol", CrisisNone, true},
		{"i don't know how much longer i can stand this heat", CrisisNone, true},
		{"这个项目还能坚持多久啊 老板说下个月结束", CrisisNone, true},
		{"我还能坚持下去，放心", CrisisNone, true},
		{"この靴あと何年もつかわからない", CrisisNone, true},
		{"このバッテリー、明日までもつかわからない", CrisisNone, true},
	})
}
