package heart

import "testing"

// Round 13's known leftovers: false alarms the floor still raised after
// the round (a roof reached for a parked car, a pool's edge, homework or a
// break-up tonight) and misses (a misspelt denial to a clinician, a plan
// admitted after a denial, a burden and a decision, an overdose had). Each
// fix stands beside its twins, which keep the reading they had.

// TestRound13LeftoversARoofForACarOrAPoolStaysOrdinary: standing on a
// parking garage's roof looking for the car, or on the edge of a pool, is
// no height; the roof, the garage or the edge alone still are, and so is a
// wish to drown at the pool.
func TestRound13LeftoversARoofForACarOrAPoolStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"standing on the roof of the parking garage rn looking for my car", CrisisNone, false},
		{"standing on the roof of the car park rn, cant find my car anywhere", CrisisNone, false},
		{"standing on the roof rn taking photos of the sunset", CrisisNone, false},
		{"standing on the edge of the pool rn", CrisisNone, false},
		{"standing on the edge of the hotel pool rn, water looks cold", CrisisNone, false},
		{"standing on the roof of the parking garage rn", CrisisMethod, false},
		{"drove to the parking garage. standing on the edge of the roof rn", CrisisMethod, false},
		{"standing on the roof rn", CrisisMethod, false},
		{"standing on the edge rn", CrisisMethod, false},
		{"standing on the edge of the pool rn and i want to drown myself", CrisisMethod, false},
	})
}

// TestRound13LeftoversFinishedTonightStaysOrdinary: a decision and
// tonight about homework (決めた。今夜中に課題終わらせる) or a partner (i'm
// ending it with him tonight) is no plan; ending it tonight, with pills,
// or after the homework still is.
func TestRound13LeftoversFinishedTonightStaysOrdinary(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"決めた。今夜中に課題終わらせる", CrisisNone, false},
		{"決めた。課題を今日中に終わらせる", CrisisNone, false},
		{"i've decided, i'm ending it with him tonight", CrisisNone, false},
		{"im ending things with my bf tonight, ive decided", CrisisNone, false},
		{"決めた。今夜終わらせる", CrisisPlan, false},
		{"課題終わらせたら、今夜終わらせる", CrisisPlan, false},
		{"i've decided, i'm ending it tonight", CrisisPlan, false},
		{"im ending it with pills tonight", CrisisPlan, false},
		{"i'm ending it with him tonight and then i'm ending it all", CrisisPlan, false},
	})
}

// TestRound13LeftoversAMisspeltDenialToAClinician: asked if suicidal,
// misspelt, and a plain no is a denial, as the spelt one is; the no taken
// back is still heard.
func TestRound13LeftoversAMisspeltDenialToAClinician(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"asked if i was sucidal, i said no", CrisisNone, false},
		{"the nurse asked if i was suicdal, i said no", CrisisNone, false},
		{"my therapist asked if i had any sucidal thoughts and i said no", CrisisNone, false},
		{"asked if i was suicidal, i said no", CrisisNone, false},
		{"asked if i was sucidal, i said no, but i am", CrisisIdeation, false},
		{"the nurse asked if i was suicdal, i said no but i lied", CrisisIdeation, false},
		{"asked if i was sucidal, i said yes", CrisisIdeation, false},
		{"i am sucidal", CrisisIdeation, false},
	})
}

// TestRound13LeftoversAPlanAdmittedAfterADenial: a clinician asked about
// a plan, and the no is taken back or the answer was yes; not a plan for
// the holidays, a boss's question, or a no that stands.
func TestRound13LeftoversAPlanAdmittedAfterADenial(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"my therapist asked if i had a plan and i said no, but i do", CrisisPlan, false},
		{"the psychiatrist asked if i had a plan, i said yes", CrisisPlan, false},
		{"my therapist asked if i had a plan to kill myself and i said no but i do", CrisisPlan, false},
		{"my therapist asked if i had a plan and i said no", CrisisNone, false},
		{"my therapist asked if i had a plan but i said no", CrisisNone, false},
		{"my therapist asked if i had a plan for the holidays and i said no, but i do", CrisisNone, false},
		{"my boss asked if i had a plan and i said no, but i do", CrisisNone, false},
		{"the nurse asked if i had a plan and i said no, but i do", CrisisPlan, false},
		{"my doctor asked if i had a plan and i said yes, physio twice a week", CrisisNone, false},
	})
}

// TestRound13LeftoversABurdenAndADecision: not wanting to be a burden any
// more, and decided, is a warning sign with or without an illness; not a
// decision about a job, or the wish alone.
func TestRound13LeftoversABurdenAndADecision(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"i dont want to be a burden anymore. ive decided", CrisisIntent, false},
		{"i don't want to be a burden to my family anymore. my mind is made up", CrisisIntent, false},
		{"i have cancer and i dont want to be a burden anymore. ive decided", CrisisIntent, false},
		{"i dont want to be a burden anymore. ive decided to get a job", CrisisNone, false},
		{"im getting a job, i dont want to be a burden anymore. ive decided", CrisisNone, false},
		{"i dont want to be a burden anymore", CrisisNone, false},
	})
}

// TestRound13LeftoversAnOverdoseHadOrAsked: an overdose said as had is an
// attempt, one before a method (as ODしたことある is); someone's question
// about it is theirs (as ODしたことある？って聞かれた is), unless answered
// yes.
func TestRound13LeftoversAnOverdoseHadOrAsked(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		{"someone asked me if i ever od'd", CrisisNone, false},
		{"someone asked me if i've od'd before", CrisisNone, false},
		{"my friend asked if i'd ever overdosed lol no", CrisisNone, false},
		{"ODしたことある？って聞かれた", CrisisNone, false},
		{"someone asked me if i ever od'd and i said yes", CrisisMethod, false},
		{"my friend asked if i'd ever overdosed, i told her i did", CrisisMethod, false},
		{"i've od'd before", CrisisMethod, false},
		{"ive overdosed twice", CrisisMethod, false},
		{"i've od'd 3 times in the past", CrisisMethod, false},
		{"ODしたことある", CrisisMethod, false},
		{"i've overdosed", CrisisAttempt, false},
		{"i've od'd", CrisisAttempt, false},
		{"i've overdosed, im so scared, i was only a kid once", CrisisAttempt, false},
		{"i have odd and annoying neighbours", CrisisNone, false},
		{"ive od'd on caffeine before lol", CrisisNone, false},
		{"i od'd on caffeine lol", CrisisNone, false},
		{"i od'd on my meds", CrisisAttempt, false},
		{"i have odd socks on today", CrisisNone, false},
		{"i have odd feelings about this", CrisisNone, false},
	})
}
