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

// An attempt made or under way (heart.CrisisAttempt, round9.md finding 1)
// is an emergency in the model's prompt too: emergency services and a
// person nearby first, no question before them, no emoji, no secrecy; the
// strategy asks nothing and allows no emoji.
func TestSafetyLinesForAnAttemptAreAnEmergency(t *testing.T) {
	got := strings.Join(safetyLines(&moment{crisis: true, kind: heart.CrisisAttempt}, heart.SmallTalk), "\n")
	for _, w := range []string{"emergency services now", "911", "120", "119", "poison control", "nearby", "Ask no question", "no emoji", "secrecy"} {
		if !strings.Contains(got, w) {
			t.Errorf("attempt: %q lacks %q", got, w)
		}
	}
	if strings.Contains(got, "ask if they are safe") {
		t.Errorf("attempt: %q asks before the emergency", got)
	}
	if s := crisisStrategy(heart.CrisisAttempt); s.EmojiAllowed || s.ProactiveQuestion {
		t.Errorf("attempt strategy: %+v", s)
	}
	if plain := strings.Join(safetyLines(&moment{crisis: true, kind: heart.CrisisPlan}, heart.SmallTalk), "\n"); strings.Contains(plain, "poison control") {
		t.Errorf("a plan is no emergency: %q", plain)
	}
}

// A warning sign short of a crisis (heart.SafetyReading.Risk) tells the
// model to hold back cheer and agreement and to answer with care; a crisis
// the talk added up to tells it to answer the whole talk (round9.md
// findings 2 and 3).
func TestSafetyLinesForARiskAndATalk(t *testing.T) {
	risk := strings.Join(safetyLines(&moment{risk: true}, heart.SmallTalk), "\n")
	if !strings.Contains(risk, "Do not cheer, praise, joke or agree") {
		t.Errorf("risk: %q", risk)
	}
	talk := strings.Join(safetyLines(&moment{crisis: true, talk: true, kind: heart.CrisisPlan}, heart.SmallTalk), "\n")
	if !strings.Contains(talk, "recent messages say together") || !strings.Contains(talk, "out of reach") {
		t.Errorf("a plan told over the talk: %q", talk)
	}
	if plain := strings.Join(safetyLines(&moment{}, heart.SmallTalk), "\n"); plain != "" {
		t.Errorf("an ordinary turn: %q", plain)
	}
}

// Without the card this turn (it went out earlier in the talk), the
// model is told the lines were shared and not to list them again, rather
// than that they will be shown after its reply.
func TestSafetyLinesWithoutTheCard(t *testing.T) {
	with := strings.Join(safetyLines(&moment{crisis: true, kind: heart.CrisisWishDead, card: true}, heart.SmallTalk), "\n")
	without := strings.Join(safetyLines(&moment{crisis: true, kind: heart.CrisisWishDead}, heart.SmallTalk), "\n")
	if !strings.Contains(with, "will be shown after your reply") {
		t.Errorf("with the card: %q", with)
	}
	if strings.Contains(without, "will be shown") || !strings.Contains(without, "shared earlier") {
		t.Errorf("without the card: %q", without)
	}
}
