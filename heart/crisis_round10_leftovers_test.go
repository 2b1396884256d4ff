package heart

import (
	"strings"
	"testing"
	"time"
)

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

// TestCrisisFloorTenthRoundFalseAlarms: an idiom or a purpose the floor
// did not see. A prop noose, a trifle's jump laughed at, a device that
// "died" beside kms, leftover medicine; each beside the line that stays a
// warning sign. A trifle's hyperbole is of the concern tier in a talk
// already at risk (the downgrade), ordinary alone.
func TestCrisisFloorTenthRoundFalseAlarms(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		// English.
		{"tying a noose for halloween decorations", CrisisNone, false},
		{"tying a noose for halloween decorations", CrisisNone, true},
		{"the fake noose for the haunted house fell down again", CrisisNone, false},
		{"tying a noose tonight", CrisisMethod, false},
		{"tying a noose for halloween decorations. i want to die", CrisisWishDead, false},
		{"my laptop died kms", CrisisNone, false},
		{"my laptop died kms", CrisisConcern, true},
		{"my phone died on me kms", CrisisNone, false},
		{"my laptop died", CrisisNone, false},
		{"my laptop died kms. i hate my life", CrisisIdeation, false},
		{"kms", CrisisIdeation, false},
		// Chinese.
		{"这个bug要把我逼疯了 想跳楼 哈哈", CrisisNone, false},
		{"这个bug要把我逼疯了 想跳楼 哈哈", CrisisConcern, true},
		{"作业太多了 想跳楼 哈哈", CrisisNone, false},
		{"这个bug要把我逼疯了 想跳楼", CrisisMethod, false},
		{"工作压力太大了 想跳楼 哈哈", CrisisMethod, false},
		{"作业太多了 想跳楼 哈哈 不是开玩笑", CrisisMethod, false},
		{"医生开的止痛药攒了一些没吃完", CrisisNone, false},
		{"医生开的止痛药攒了一些没吃完", CrisisNone, true},
		{"感冒药剩了几盒没吃完 要不要扔", CrisisNone, false},
		{"安眠药攒了好多 够了", CrisisPreparation, false},
		{"药攒够了", CrisisPreparation, false},
		// Japanese: the device and the joke in Japanese were already read.
		{"課題終わらん死にたいw", CrisisNone, false},
	})
}

// TestCrisisFloorTenthRoundConcern: lines ambiguous alone that were read
// as nothing are the concern tier now (asked about in a talk at risk, met
// with care in a light one; ordinary for the floor), each beside everyday
// twins that stay ordinary even in a talk at risk.
func TestCrisisFloorTenthRoundConcern(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		// English: a late spouse, ready to go.
		{"time to join my wife", CrisisConcern, true},
		{"time to join my wife", CrisisNone, false},
		{"it's time to be with my husband again", CrisisConcern, true},
		{"I'm ready to go", CrisisConcern, true},
		{"i'm finally ready to go now", CrisisConcern, true},
		{"time to join my wife at the bridge club, she's already there", CrisisNone, true},
		{"time to join my family for dinner", CrisisNone, true},
		{"I'm ready to go to the airport", CrisisNone, true},
		{"ready to go! just waiting for my uber", CrisisNone, true},
		{"are you ready to go?", CrisisNone, true},
		// A gun, a rope.
		{"i have a gun", CrisisConcern, true},
		{"i've got a gun", CrisisConcern, true},
		{"i have a gun at home", CrisisConcern, true},
		{"theres rope in the garage", CrisisConcern, true},
		{"there's a rope in the shed", CrisisConcern, true},
		{"i have a gun license", CrisisNone, true},
		{"i have a glue gun", CrisisNone, true},
		{"i have a nerf gun", CrisisNone, true},
		{"i have a gun safe and a gun license, all legal", CrisisNone, true},
		{"theres rope in the garage if you need it for the tent", CrisisNone, true},
		{"there's rope in the garage for the tow", CrisisNone, true},
		{"she left. took the kids. theres rope in the garage", CrisisMethod, false},
		// Chinese: a roof with a time, dying together.
		{"明天就去天台", CrisisConcern, true},
		{"一起死", CrisisConcern, true},
		{"要不一起死吧", CrisisConcern, true},
		{"明天就去天台", CrisisNone, false},
		{"明天去天台晒被子", CrisisNone, true},
		{"我决定了 明天考完最后一科就去天台看星星", CrisisNone, true},
		{"要死一起死", CrisisNone, true},
		{"两盆花一起死了", CrisisNone, true},
		{"老师发现了 我们一起死定了", CrisisNone, true},
		{"和孩子一起死磕这道数学题", CrisisNone, true},
		// Japanese: an apology by death, the sea of trees.
		{"死んでお詫びします", CrisisConcern, true},
		{"樹海に行ってみたい", CrisisConcern, true},
		{"樹海に行ってみたい", CrisisNone, false},
		{"「死んでお詫びします」ってドラマのセリフ、重すぎ", CrisisNone, true},
		{"樹海の洞窟ツアーに行きたい", CrisisNone, true},
		{"富士山の樹海に行ってきた 写真いっぱい撮った", CrisisNone, true},
		{"寝坊して死ぬほど謝った", CrisisNone, true},
	})
}

// TestCrisisTalkJukaiIsAMethodAtRisk: 樹海 as a place to go is of the
// concern tier alone and a method in a talk already at risk.
func TestCrisisTalkJukaiIsAMethodAtRisk(t *testing.T) {
	now := time.Date(2026, 3, 10, 21, 0, 0, 0, time.UTC)
	dark := []EmotionRecord{{Emotion: Sad, Confidence: 0.7}, {Emotion: Sad, Confidence: 0.7}, {Emotion: Sad, Confidence: 0.7}}
	s, _ := NewRelationship(now).ReadSafety("樹海に行ってみたい", dark, time.Minute, now)
	if s.Kind != CrisisMethod {
		t.Errorf("樹海に行ってみたい in a sad talk: %+v; want a method", s)
	}
	s, _ = NewRelationship(now).ReadSafety("樹海に行ってみたい", nil, 0, now)
	if s.Kind != CrisisNone || !s.Concern {
		t.Errorf("樹海に行ってみたい alone: %+v; want a concern, no crisis", s)
	}
}

// TestConcernTierDocMatchesCode: the lexicon's [concern] header says what
// ReadSafety does with the tier in Watch (it asks directly; no crisis
// turn), which TestReadSafety's "in Watch, a concern asks too" pins.
func TestConcernTierDocMatchesCode(t *testing.T) {
	i := strings.Index(crisisData, "\n[concern]\n")
	if i < 0 {
		t.Fatal("no [concern] section")
	}
	var header []string
	for _, ln := range strings.Split(crisisData[i+len("\n[concern]\n"):], "\n") {
		if !strings.HasPrefix(ln, "#") {
			break
		}
		header = append(header, strings.TrimPrefix(ln, "# "))
	}
	doc := strings.Join(header, " ")
	if strings.Contains(doc, "Watch the message is a crisis turn") || !strings.Contains(doc, "in Watch or not, the companion asks") {
		t.Errorf("the [concern] header says %q; ReadSafety asks directly in Watch too", doc)
	}
	now := time.Date(2026, 3, 10, 21, 0, 0, 0, time.UTC)
	if s, _ := (Relationship{Watch: true}).ReadSafety("ベランダから下見てた", nil, time.Minute, now); !s.Ask || s.Kind != CrisisNone {
		t.Errorf("a concern in Watch: %+v; want the direct question, no crisis turn", s)
	}
}
