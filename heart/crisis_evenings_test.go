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
