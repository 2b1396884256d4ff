package heart

import (
	"testing"
	"time"
)

// TestRound12SomeoneAloneAgainAfterHelpCameIsAnEmergencyAgain: after an
// attempt, help was there ("ok i called 911", 打了120了, 母が来た) and the
// emergency ended; then "i hung up", "she left", 挂了, 帰っちゃった was read
// as nothing, and the person, alone again with what they took, got the
// care of an ordinary talk. Help gone again, or never come, brings the
// emergency back until help is there again.
func TestRound12SomeoneAloneAgainAfterHelpCameIsAnEmergencyAgain(t *testing.T) {
	const gap = 2 * time.Minute
	runStateTalk(t, "en: hung up", gap, []stateTurn{
		{text: "took like 30 of my sleeping pills about 20 min ago, feeling kinda floaty now", kind: CrisisAttempt},
		{text: "ok i called 911", safe: true},
		{text: "i hung up", emergency: true, kind: anyKind},
		{text: "getting really sleepy", emergency: true, kind: anyKind},
		{text: "ambulance is here", safe: true},
	})
	runStateTalk(t, "en: she left", gap, []stateTurn{
		{text: "took the whole bottle of my sleeping pills", kind: CrisisAttempt},
		{text: "my roommate is here", safe: true},
		{text: "she left", emergency: true, kind: anyKind},
	})
	runStateTalk(t, "en: nobody came", gap, []stateTurn{
		{text: "took the whole bottle of my sleeping pills", kind: CrisisAttempt},
		{text: "i called them", safe: true},
		{text: "nobody came", emergency: true, kind: anyKind},
	})
	runStateTalk(t, "zh", gap, []stateTurn{
		{text: "刚吃了一整瓶药，现在有点晕", kind: CrisisAttempt},
		{text: "打了120了", safe: true},
		{text: "挂了", emergency: true, kind: anyKind},
		{text: "救护车来了", safe: true},
	})
	runStateTalk(t, "ja", gap, []stateTurn{
		{text: "薬全部飲んだ。なんかふわふわする", kind: CrisisAttempt},
		{text: "母が来た", safe: true},
		{text: "帰っちゃった", emergency: true, kind: anyKind},
		{text: "救急車呼んだ", safe: true},
	})
}

// TestRound12SomeoneWhoseHelpLeftThemSafeIsNoEmergency: help gone is an
// emergency only after help came in an emergency talk: not a crew who
// checked them and said they are fine, not a hang-up in an ordinary talk.
func TestRound12SomeoneWhoseHelpLeftThemSafeIsNoEmergency(t *testing.T) {
	const gap = 2 * time.Minute
	runStateTalk(t, "cleared", gap, []stateTurn{
		{text: "took the whole bottle of my sleeping pills", kind: CrisisAttempt},
		{text: "ambulance is here", safe: true},
		{text: "the paramedics said im fine and left", risk: true},
	})
	runStateTalk(t, "home again (zh)", gap, []stateTurn{
		{text: "刚吃了一整瓶药，现在有点晕", kind: CrisisAttempt},
		{text: "救护车来了", safe: true},
		{text: "我回去了", risk: true},
	})
	runStateTalk(t, "home again (ja)", gap, []stateTurn{
		{text: "薬全部飲んだ。なんかふわふわする", kind: CrisisAttempt},
		{text: "救急車来た", safe: true},
		{text: "家に帰った", risk: true},
	})
	runStateTalk(t, "ordinary talk", gap, []stateTurn{
		{text: "my mum called about sunday"},
		{text: "i hung up"},
		{text: "they left"},
	})
}
