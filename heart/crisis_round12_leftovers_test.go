package heart

import (
	"testing"
	"time"
)

// What the twelfth round left (/tmp/probe/round12.md): warning signs the
// round's fixes did not reach, each with the category a counsellor would
// file it under, and ordinary lines the floor read as alarms, each held by
// its look-alikes.

// crisisReadLimit is how long TestRound12ALineWhoseRuleSpansItsClausesIsAnswered
// waits for one read (hearth's choice: a read takes microseconds; ten
// seconds is far above any busy machine and far below the test timeout).
const crisisReadLimit = 10 * time.Second

// TestRound12ALineWhoseRuleSpansItsClausesIsAnswered: when an ordinary rule
// held only across clauses, the floor measured whether any clause was set
// aside by the length of what was left, which is the text folded and
// rejoined with spaces; a full-width mark or a space after a comma made it
// read the same message, a space longer, forever, and the person's turn
// was never answered.
func TestRound12ALineWhoseRuleSpansItsClausesIsAnswered(t *testing.T) {
	for _, text := range []string{
		"bought life, insurance. just in, case",
		"ODしたことある？って聞かれた",
	} {
		done := make(chan CrisisCategory, 1)
		go func() { done <- ReadCrisis(text).Floor() }()
		select {
		case got := <-done:
			if got != CrisisNone {
				t.Errorf("%q: floor %q, want ordinary", text, got)
			}
		case <-time.After(crisisReadLimit):
			t.Fatalf("%q: no reading after %v", text, crisisReadLimit)
		}
	}
}

// TestRound12ABungeeJumperStaysOrdinary: the idiom that masks "bungee
// jump" hid the sport from the sets that keep a height ordinary; a height
// with a stay or an aborted try and no sport is still heard.
func TestRound12ABungeeJumperStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"went bungee jumping, on the bridge rn!!", CrisisNone, false},
		{"about to bungee jump off the bridge rn", CrisisNone, false},
		{"standing on the bridge rn about to bungee jump. really windy up here", CrisisNone, false},
		{"went to the bridge to bungee jump. couldnt do it. next time i will", CrisisNone, false},
		{"standing on the bridge rn. its really windy up here", CrisisAttempt, false},
		{"stood on the overpass for an hour last night. couldnt do it. next time i will", CrisisPreparation, false},
		{"went to the bridge again. lost my nerve", CrisisPreparation, false},
	})
}

// TestRound12RawPatternsSeeWhatAnIdiomMasks: a set's "raw:" line reads
// the words an ordinary idiom masks before it masks them, so the sport in
// "bungee jump" still rules a height out; an "en:" line of the same set
// does not see it.
func TestRound12RawPatternsSeeWhatAnIdiomMasks(t *testing.T) {
	l, err := parseCrisisLexicon(`
[guard]
negation: not
[ordinary]
en: bungee jump|jumping
[set height]
en: on the bridge
[set sport_raw]
raw: bungee
[set sport_masked]
en: bungee
[attempt]
all: height !sport_raw
[plan]
all: height !sport_masked
[ideation]
zh: 自杀
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		text string
		want CrisisCategory
	}{
		{"on the bridge now", CrisisAttempt},
		{"bungee jumping, on the bridge now", CrisisPlan},
		{"not bungee jumping, on the bridge now", CrisisAttempt}, // a raw line is guarded as any other
		{"bungee cord, on the bridge now", CrisisAttempt},        // read only where an idiom is masked
	} {
		if got := l.readAll(r.text).found; got != r.want {
			t.Errorf("floor(%q) = %q, want %q", r.text, got, r.want)
		}
	}
	if _, err := parseCrisisLexicon("[ideation]\nen: kill myself\nzh: 自杀\nraw: bungee\n"); err == nil {
		t.Error(`a "raw:" line outside a set parsed without an error`)
	}
}

// TestRound12SomeoneOnARoofForAPhotoStaysOrdinary: standing on a roof or a
// pier's edge for a photo, fishing or a speech; standing on the edge alone,
// or for one last photo, is still a method.
func TestRound12SomeoneOnARoofForAPhotoStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"standing on the roof rn taking photos", CrisisNone, false},
		{"standing on the edge of the pier right now fishing", CrisisNone, false},
		{"standing on the edge of the stage rn, speech in 5 min", CrisisNone, false},
		{"standing on the edge", CrisisMethod, false},
		{"standing on the edge of the roof, taking one last photo of the city", CrisisMethod, false},
	})
}

// TestRound12SomeoneAskedAboutAnOverdoseStaysOrdinary: a question someone
// asked (ODしたことある？って聞かれた), quoted or not; asked and answered yes,
// it is the writer's own again.
func TestRound12SomeoneAskedAboutAnOverdoseStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"ODしたことある？って聞かれた", CrisisNone, false},
		{"「ODしたことある？」って友達に聞かれた", CrisisNone, false},
		{"友達に「死にたいの？」って聞かれた", CrisisNone, false},
		{"ODしたことある？って聞かれて、あるって答えた", CrisisMethod, false},
		{"「ODしたことある？」って聞かれて、あるって答えた", CrisisMethod, false},
	})
}

// TestRound12SomeoneAwayOnHolidayStaysOrdinary: 我不在的时候 is while I'm
// away; 我不在了 (with 了), when I'm gone, is still a wish.
func TestRound12SomeoneAwayOnHolidayStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"我不在的时候，大家都比较轻松吧 哈哈", CrisisNone, false},
		{"我不在的时候，你们玩得开心点", CrisisNone, false},
		{"我不在了的話，大家應該都會比較輕鬆吧", CrisisWishDead, false},
		{"我不在了的时候，大家都会轻松吧", CrisisWishDead, false},
	})
}

// TestRound12AStudentBeforeTheResultsIsHeard: a student who failed, cannot
// face their parents and would rather not exist by results day; not someone
// who would rather not exist on social media.
func TestRound12AStudentBeforeTheResultsIsHeard(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"failed my finals. cant face my parents. i'd rather not exist by the time results come out", CrisisWishDead, false},
		{"got fired today. i'd rather not exist anymore", CrisisWishDead, false},
		{"i'd rather not exist", CrisisWishDead, false},
		{"i'd rather not exist on social media tbh", CrisisNone, false},
		{"i'd rather not exist in the group chat today", CrisisNone, false},
	})
}

// TestRound12SomeoneAskingWhetherAnOverdoseHurtsIsHeard: how an overdose
// feels, asked, is thinking about how; not a pet's vet visit, caffeine or
// an exam.
func TestRound12SomeoneAskingWhetherAnOverdoseHurtsIsHeard(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"do u know if a paracetamol od hurts or do u just fall asleep", CrisisMethod, false},
		{"if you od on sleeping pills do you just drift off", CrisisMethod, false},
		{"does an overdose hurt", CrisisMethod, false},
		{"my dog ate a paracetamol, does an od hurt him? calling the vet", CrisisNone, false},
		{"caffeine od hurts so bad, never drinking 4 energy drinks again", CrisisNone, false},
		{"do u know if a flu shot hurts or do u just feel a pinch", CrisisNone, false},
		{"my headache hurts so i took a paracetamol and fell asleep", CrisisNone, false},
		{"pharmacology exam tmrw: does a paracetamol od hurt or is it silent", CrisisNone, false},
	})
}

// TestRound12SomeoneWhoWishesNotToWakeIsHeard: 朝起きなければいいのに in
// Japanese; not having to get up at six, or a child who wakes at five.
func TestRound12SomeoneWhoWishesNotToWakeIsHeard(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"朝起きなければいいのにって毎晩思う", CrisisWishDead, false},
		{"このまま目が覚めなければいいのに", CrisisWishDead, false},
		{"明日は6時に起きなければいけない", CrisisNone, false},
		{"子どもが朝5時に起きなければいいのに", CrisisNone, false},
		{"日曜は朝起きなくていいから最高", CrisisNone, false},
	})
}

// TestRound12AnIllParentsDecisionIsHeard: treatment too much, not wanting
// to burden the children, and a decision taken, in the three languages;
// not a decision that names a hospital, a hospice or a move, nor a mother's
// decision told by her child.
func TestRound12AnIllParentsDecisionIsHeard(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"化疗太痛苦了，不想再拖累孩子们，我已经决定了", CrisisIntent, false},
		{"病了这么多年，不想再连累家里，我想好了", CrisisIntent, false},
		{"chemo is too much, I don't want to burden the kids, I've decided", CrisisIntent, false},
		{"the cancer is back. i dont want to be a burden on my family. my mind is made up", CrisisIntent, false},
		{"抗がん剤もう嫌だ。子どもたちの負担になりたくないから、自分で決める", CrisisIntent, false},
		{"透析もう疲れた。家族に迷惑かけたくないし、もう決めた", CrisisIntent, false},
		{"化疗太痛苦了，不想再拖累孩子们，我已经决定了，换一家医院继续治", CrisisNone, false},
		{"我妈说化疗太痛苦了，不想再拖累我们，她已经决定了", CrisisNone, false},
		{"chemo is too much, I don't want to burden the kids, I've decided to move in with my sister", CrisisNone, false},
		{"chemo is too much, i dont want to burden the kids, so i've decided on hospice at home", CrisisNone, false},
		{"抗がん剤もう嫌だ。子どもたちの負担になりたくないから、緩和ケアに移るって自分で決めた", CrisisNone, false},
	})
}

// TestRound12AHabitualOverdoseIsHeard: thirty tablets "gone down" today is
// an overdose taken, as 睡眠薬40錠飲んだ is; unable to sleep without one is
// a habit of harm. Not a pack of thirty bought, sweets, nuts, or a report
// of other people.
func TestRound12AHabitualOverdoseIsHeard(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"ODしないと眠れない、今日も市販薬30錠いった", CrisisAttempt, false},
		{"ブロン40錠いっちゃった", CrisisAttempt, false},
		{"ODしないと眠れない", CrisisSelfHarm, false},
		{"市販薬30錠入りのやつ買いにいった", CrisisNone, false},
		{"ラムネ30粒いった", CrisisNone, false},
		{"ナッツ30粒いった", CrisisNone, false},
		{"ODしないと眠れないって子が増えてるらしい", CrisisNone, false},
	})
}

// TestRound12AVeiledGoodbyeIsHeard: "if I stop coming tomorrow, don't mind
// it"; not a busy week at work or a trip.
func TestRound12AVeiledGoodbyeIsHeard(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"もし明日私が来なくなっても、気にしないでね", CrisisWishDead, false},
		{"いつか私がいなくなっても、探さないでね", CrisisWishDead, false},
		{"もし明日私が来なくなっても、バイトが忙しいだけだから気にしないでね", CrisisNone, false},
		{"もし明日私が来なくなっても、旅行中だから心配しないで", CrisisNone, false},
	})
}

// TestRound12SomeoneThinkingEveryDayOfHowToVanishIsHeard: round 12's one
// Chinese line still missed, thinking every day of how to disappear and
// not holding on any more; not vanishing from the boss's sight, a group
// chat, or a belly.
func TestRound12SomeoneThinkingEveryDayOfHowToVanishIsHeard(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"真的好累 每天都在想怎么消失 不想再撑了", CrisisWishDead, false},
		{"每天都在想怎么消失", CrisisWishDead, false},
		{"活着好累，一直在想怎么消失", CrisisWishDead, false},
		{"每天都在想怎么消失在老板的视线里 哈哈", CrisisNone, false},
		{"每天都在想怎么从这个群里消失，好累", CrisisNone, false},
		{"每天都在想怎么让小肚子消失", CrisisNone, false},
	})
}
