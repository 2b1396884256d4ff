package heart

import (
	"testing"
	"time"
)

// TestFollowUpOfSomeoneElseIsTheirs: a dated thing of a
// family member is theirs ("Lily's first day at kindergarten", "my son's
// test", 我女儿的入园第一天, 娘さんの入園), never the user's ("your
// kindergarten" was said); the user's own, or one they share with someone
// ("a date with my girlfriend"), stays theirs.
func TestFollowUpOfSomeoneElseIsTheirs(t *testing.T) {
	now := time.Date(2026, 2, 2, 20, 0, 0, 0, time.UTC) // a Monday
	for _, tt := range []struct{ text, about string }{
		{"my daughter Lily starts kindergarten next Monday", "Lily's first day at kindergarten"},
		{"My son has a big test on Friday", "my son's test"},
		{"my mom's surgery is on March 3", "my mom's surgery"},
		{"my sister, Anna, has a job interview tomorrow", "Anna's interview"},
		{"I have an exam on Friday", "exam"},
		{"I have a first date with my girlfriend on Friday", "first date"},
		{"我女儿莉莉下周一上幼儿园", "我女儿的入园第一天"},
		{"妈妈下周三手术", "我妈妈的手术"},
		{"我和女朋友下周五约会", "约会"},
		{"my friend invited me to a party on Saturday", "party"},
		{"朋友约我周六去聚会", "聚会"},
		{"娘のさくらが来週の月曜日から幼稚園に通い始める", "娘さんの入園"},
		{"母が来週手術を受ける", "お母さんの手術"},
		{"来週試験がある", "試験"},
	} {
		fus := ExtractFollowUps(tt.text, now)
		if len(fus) == 0 || fus[0].About != tt.about {
			t.Errorf("%q: follow-ups %+v, want one about %q", tt.text, fus, tt.about)
		}
	}
	if !FollowUpToldOf("Lily's first day at kindergarten", "she loved kindergarten!") {
		t.Error("an owned follow-up is not told of by its event's words")
	}
}

// TestFollowUpToldOfByItsAftermath: medicine prescribed and
// its side effects tell of the doctor's visit ("the new meds make me so
// nauseous" was met with "How did your appointment go, by the way?").
func TestFollowUpToldOfByItsAftermath(t *testing.T) {
	for _, tt := range []struct {
		about, text string
		want        bool
	}{
		{"appointment", "the new meds make me so nauseous", true},
		{"appointment", "she gave me a prescription for sertraline", true},
		{"doctor", "the side effects are rough", true},
		{"看医生", "医生给我开了药", true},
		{"看医生", "这个药吃了好困", true},
		{"病院", "新しい薬で気持ち悪い", true},
		{"appointment", "went to the seniors center today", false},
		// A test told of as done and gone badly is told of: no "对了，
		// 期末怎么样了？" the day after.
		{"期末", "考完了，感觉挂了", true},
		{"finals", "exam done. pretty sure i failed", true},
		{"テスト", "試験終わった…たぶん落ちた", true},
		{"期末", "今天去超市了", false},
	} {
		if got := FollowUpToldOf(tt.about, tt.text); got != tt.want {
			t.Errorf("FollowUpToldOf(%q, %q) = %v, want %v", tt.about, tt.text, got, tt.want)
		}
	}
}

// TestFollowUpOwnedByHerIsHers: "her recital is on friday",
// said after talk of a daughter, got "Oh, your recital is on Friday": a
// dated thing a word that points back owns is kept with that word ("her
// recital", 她的演出), for the brain to name her; the user's own and a
// relation's stay as they were.
func TestFollowUpOwnedByHerIsHers(t *testing.T) {
	now := time.Date(2026, 2, 2, 20, 0, 0, 0, time.UTC) // a Monday
	for _, tt := range []struct{ text, about string }{
		{"her recital is on friday", "her recital"},
		{"His piano recital is on Friday", "his recital"},
		{"their wedding is on March 3", "their wedding"},
		{"她的钢琴演出在周五", "她的演出"},
		{"他下周五有面试", "面试"},
		{"my son has his recital on Friday", "my son's recital"},
		{"I'm meeting her at the party on Friday", "meeting"},
		{"I have an exam on Friday", "exam"},
	} {
		fus := ExtractFollowUps(tt.text, now)
		if len(fus) == 0 || fus[0].About != tt.about {
			t.Errorf("%q: follow-ups %+v, want one about %q", tt.text, fus, tt.about)
		}
	}
}
