package heart

import "testing"

// categoryRow is a message and the category the floor must read in it.
type categoryRow struct {
	text string
	want CrisisCategory
}

// checkCategory reads every row with the crisis floor.
func checkCategory(t *testing.T, rows []categoryRow) {
	t.Helper()
	for _, r := range rows {
		if got := CrisisFloor(r.text); got != r.want {
			t.Errorf("CrisisFloor(%q) = %q, want %q", r.text, got, r.want)
		}
	}
}

// TestCrisisFloorAttempt: an attempt made or under way is the C-SSRS
// "actual attempt", the most severe category (003_9b71f6486dad9aaa.txt §1.1
// "自杀倾向" and §3.1: Watch, resources, a person). The round-9 probe
// (round9.md finding 1) found none of these read in any language; each
// stands beside its everyday twin, which must stay ordinary (or keep the
// lower category it had).
func TestCrisisFloorAttempt(t *testing.T) {
	checkCategory(t, []categoryRow{
		// The probe's lines.
		{"took the whole bottle", CrisisAttempt},
		{"took the whole bottle of my moms sleeping pills lol", CrisisAttempt},
		{"swallowed the whole bottle of my sleeping pills", CrisisAttempt},
		{"i took 40 tylenol", CrisisAttempt},
		{"i overdosed", CrisisAttempt},
		{"cut too deep, cant stop the bleeding", CrisisAttempt},
		{"just took everything in the medicine cabinet", CrisisAttempt},
		{"i took all my pills", CrisisAttempt},
		{"药已经吃了 整瓶", CrisisAttempt},
		{"炭已经点了", CrisisAttempt},
		{"薬全部飲んだ", CrisisAttempt},
		{"睡眠薬一瓶飲んだ", CrisisAttempt},
		// More of the same structures.
		{"i think i just overdosed", CrisisAttempt},
		{"downed like 30 of my sleeping pills with vodka", CrisisAttempt},
		{"took a handful of my antidepressants, im sorry", CrisisAttempt},
		{"took the whole bottle. its done", CrisisAttempt},
		{"i drank bleach", CrisisAttempt},
		{"the rope is around my neck", CrisisAttempt},
		{"cut my wrist and it wont stop bleeding", CrisisAttempt},
		{"I'm on the bridge now. goodbye everyone", CrisisAttempt},
		{"我吃了一整瓶安眠药", CrisisAttempt},
		{"安眠药全吞了", CrisisAttempt},
		{"刚吃了40片安眠药", CrisisAttempt},
		{"割得太深了 血止不住", CrisisAttempt},
		{"我喝了农药", CrisisAttempt},
		{"睡眠薬40錠飲んだ", CrisisAttempt},
		{"さっきODした", CrisisAttempt},
		{"練炭に火をつけた", CrisisAttempt},
		{"深く切りすぎて血が止まらない", CrisisAttempt},
		// Their everyday twins.
		{"took the whole bottle of vitamins?", CrisisNone},
		{"took 2 tylenol for my headache", CrisisNone},
		{"i took 20 mg of melatonin, still awake", CrisisNone},
		{"took 12 photos of the sunset", CrisisNone},
		{"drank the whole bottle of wine lol", CrisisNone},
		{"took the whole bottle to the party", CrisisNone},
		{"overdosed on netflix this weekend ngl", CrisisNone},
		{"that is literally odd", CrisisNone},
		{"cut my finger chopping onions and it wont stop bleeding", CrisisNone},
		{"took all my pills for today, feeling good", CrisisNone},
		{"the nurse said he overdosed last night", CrisisNone},
		{"I'm on the bridge now, traffic is terrible", CrisisNone},
		{"炭火已经点了 准备烤肉", CrisisNone},
		{"吃了两片布洛芬 头疼", CrisisNone},
		{"今天的药全部吃了", CrisisNone},
		{"感冒药吃完了 得再去开", CrisisNone},
		{"切菜切到手 血止不住", CrisisNone},
		{"喝了一整瓶可乐", CrisisNone},
		{"农药喷完了 明天下雨", CrisisNone},
		{"薬飲んだ", CrisisNone},
		{"風邪薬飲んだから寝る", CrisisNone},
		{"抗生物質、全部飲み終わった", CrisisNone},
		{"包丁で指切っちゃった 血が止まらない", CrisisNone},
		{"キャンプで炭に火をつけた", CrisisNone},
		{"サプリ10粒飲んだ", CrisisNone},
		{"吃了20片薯片", CrisisNone},
		// Kept at the category they had: "too many" may be a mistake,
		// and an overdose in the past is a history, not an emergency.
		{"took too many sleeping pills last night", CrisisMethod},
		{"ODしたことある", CrisisMethod},
	})
}

// TestCrisisAttemptIsMostSevere: the attempt outranks every category and
// is the only emergency.
func TestCrisisAttemptIsMostSevere(t *testing.T) {
	for _, c := range []CrisisCategory{CrisisConcern, CrisisModel, CrisisWishDead, CrisisSelfHarm, CrisisIdeation, CrisisMethod, CrisisIntent, CrisisPlan, CrisisPreparation} {
		if c.MoreSevere(CrisisAttempt) != CrisisAttempt || CrisisAttempt.MoreSevere(c) != CrisisAttempt {
			t.Errorf("%q outranks the attempt", c)
		}
		if c.Emergency() {
			t.Errorf("%q is an emergency", c)
		}
	}
	if !CrisisAttempt.Emergency() {
		t.Error("the attempt is no emergency")
	}
}
