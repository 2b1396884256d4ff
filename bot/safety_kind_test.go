package bot

import (
	"strings"
	"testing"

	"hearth/heart"
)

// A crisis turn tells the model what its category calls for, as the
// offline brain's crisis.kind.* phrases do: lethal-means counselling after a
// method, intent, plan or preparation (C-SSRS 3-6), wound care after
// self-harm, nothing more for a wish to be dead.
func TestSafetyLinesFollowTheCrisisKind(t *testing.T) {
	for _, c := range []struct {
		kind heart.CrisisCategory
		want string
	}{
		{heart.CrisisPlan, "out of reach"},
		{heart.CrisisPreparation, "out of reach"},
		{heart.CrisisMethod, "out of reach"},
		{heart.CrisisSelfHarm, "medical help"},
		{heart.CrisisWishDead, ""},
		{heart.CrisisModel, ""},
	} {
		got := strings.Join(safetyLines(&moment{crisis: true, kind: c.kind}, heart.SmallTalk), "\n")
		for _, w := range []string{"out of reach", "medical help"} {
			if strings.Contains(got, w) != (w == c.want) {
				t.Errorf("%s: %q has %q = %v", c.kind, got, w, strings.Contains(got, w))
			}
		}
	}
}
