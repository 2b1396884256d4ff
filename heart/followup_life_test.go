package heart

import (
	"testing"
	"time"
)

// TestAStudentsFinalIsAskedAfter: "my organic chemistry final on
// Thursday" is a dated thing to wish luck for and ask after, like "exam".
func TestAStudentsFinalIsAskedAfter(t *testing.T) {
	now := time.Date(2026, 3, 2, 21, 0, 0, 0, time.UTC) // Monday
	got := ExtractFollowUps("I have my organic chemistry final on Thursday", now)
	if len(got) != 1 || got[0].About != "final" || got[0].Due != "2026-03-05" {
		t.Errorf("follow-ups %+v, want the final on 2026-03-05", got)
	}
	if got := ExtractFollowUps("the final was brutal yesterday", now); len(got) != 0 {
		t.Errorf("a final told of in the past: %+v", got)
	}
}
