package bot

import (
	"strings"
	"testing"

	"hearth/heart"
)

// TestSafetyLinesInACrisisTalk: a model hears the crisis talk's state as
// the offline brain does (round10.md F1, F7, F9): every message of a talk
// with an attempt under way is an emergency, with the number and no
// question; help there is relief; a joke taken back is relief with no
// resources again; a talk at risk answers what the message says.
func TestSafetyLinesInACrisisTalk(t *testing.T) {
	em := strings.Join(safetyLines(&moment{emergency: true, cue: "subject"}, heart.SmallTalk), "\n")
	for _, w := range []string{"still a medical emergency", "911", "120", "119", "unlock the door", "ask no question"} {
		if !strings.Contains(em, w) {
			t.Errorf("emergency: %q lacks %q", em, w)
		}
	}
	if strings.Contains(em, "follow gently") {
		t.Errorf("emergency: %q follows a change of subject", em)
	}
	gone := strings.Join(safetyLines(&moment{emergency: true, cue: heart.CueHelpGone}, heart.SmallTalk), "\n")
	for _, w := range []string{"medical emergency again", "call emergency services back", "911", "120", "119", "ask no question"} {
		if !strings.Contains(gone, w) {
			t.Errorf("help gone again: %q lacks %q", gone, w)
		}
	}
	if got := strings.Join(safetyLines(&moment{safe: true}, heart.SmallTalk), "\n"); !strings.Contains(got, "relieved") {
		t.Errorf("help there: %q", got)
	}
	if got := strings.Join(safetyLines(&moment{retracted: true}, heart.SmallTalk), "\n"); !strings.Contains(got, "do not repeat crisis resources") {
		t.Errorf("a joke taken back: %q", got)
	}
	for cue, want := range map[heart.TalkCue]string{
		"refuse_help":     "Do not argue",
		"no_contact":      "cannot call anyone yourself",
		heart.CueFarewell: "planning to end their life tonight",
		"subject":         "follow gently",
	} {
		if got := strings.Join(safetyLines(&moment{risk: true, cue: cue}, heart.SmallTalk), "\n"); !strings.Contains(got, want) {
			t.Errorf("%s in a talk at risk: %q lacks %q", cue, got, want)
		}
	}
	if got := strings.Join(safetyLines(&moment{cue: "subject"}, heart.SmallTalk), "\n"); got != "" {
		t.Errorf("a change of subject in a light talk: %q", got)
	}
}
