package heart

import "testing"

// TestCrisisFloorEighthRoundLeftovers holds what the eighth round left: the
// prober's lines the round's fixes did not reach, each with the category a
// counsellor would file it under. Suicide as a documentary's subject turned
// on oneself in Chinese and Japanese, as the English line already was.
func TestCrisisFloorEighthRoundLeftovers(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		// The cue 讲 kept 自杀 a topic even when the writer turned it on
		// themselves.
		{"看了那部讲自杀的纪录片，我也动过这个念头", CrisisIdeation, false},
		{"看了一部讲自杀的纪录片，很沉重", CrisisNone, false},
		{"自殺のドキュメンタリーを見て、自分も考えたことがある…", CrisisIdeation, false},
		{"自殺のドキュメンタリーを見た、重かった", CrisisNone, false},
	})
}

// TestCrisisFloorEighthRoundLeftoversStructures: each leftover's structure
// on sentences that are in no probe, beside the everyday line that must stay
// ordinary.
func TestCrisisFloorEighthRoundLeftoversStructures(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		// A work that tells of suicide (讲, 关于 … 纪录片), turned on oneself.
		{"看了关于自杀的纪录片，我以前也有过这种念头", CrisisIdeation, false},
		{"看了关于自杀的纪录片，我以前也去过那座桥", CrisisNone, false},
		{"那部讲轻生的电影，我自己也起过这样的念头", CrisisIdeation, false},
		{"那部讲轻生的电影，我自己也拍过类似的题材", CrisisNone, false},
		{"自殺のドキュメンタリーを見て、私も考えたことがある", CrisisIdeation, false},
		{"自殺のドキュメンタリーを見て、私も家族のことを考えた", CrisisNone, false},
		// ... not when what was thought about is how the work told it.
		{"that documentary about suicide made me think about doing it myself", CrisisIdeation, false},
		{"that documentary about suicide made me think about doing it myself, how it was filmed was so good", CrisisNone, false},
	})
}

// TestCrisisFloorEighthRoundLeftoversTwins: everyday lines written with
// the leftovers' new words, which must stay ordinary.
func TestCrisisFloorEighthRoundLeftoversTwins(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"看了那部讲自杀的纪录片，我也动过去日本留学的念头", CrisisNone, false},
		{"看了一部讲自杀的纪录片，想给妈妈打个电话", CrisisNone, false},
		{"这部纪录片讲自杀者家属，我哭了", CrisisNone, false},
		{"这篇关于自杀的报道写得很克制，我也动过写类似文章的念头", CrisisNone, false},
		{"自殺の報道を見て、僕も考えたことがある、報道のあり方について", CrisisNone, false},
	})
}
