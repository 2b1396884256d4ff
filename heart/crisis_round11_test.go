package heart

import (
	"testing"
	"time"
)

// The eleventh round: a seventh held-out prober (/tmp/probe/round11.md)
// found older adults, the bereaved, the discharged, the ill and the
// bereaved-by-suicide unheard. Each rule is held by the kind of sentence
// it reads (Structures: the prober's line and another of its kind) and by
// the everyday lines of the same words that must stay ordinary (Twins).

// TestCrisisFloorEleventhRoundStructures: the prober's lines and others of
// their kind.
func TestCrisisFloorEleventhRoundStructures(t *testing.T) {
	checkCrisisCategory(t, []crisisCatRow{
		// Older adults and the bereaved.
		{"71 this year. wife passed in march. dont see much point carrying on to be honest", CrisisWishDead, false},
		{"husband's been gone two years. no point going on", CrisisWishDead, false},
		{"wish the cancer would hurry up and take me", CrisisWishDead, false},
		{"i hope this illness will just take me", CrisisWishDead, false},
		{"八十過ぎて一人暮らし。早くお迎えが来てほしい", CrisisWishDead, false},
		{"早くお迎えが来てくれないかな", CrisisWishDead, false},
		{"gave my tools to the lad next door today. wont be needing them", CrisisPreparation, false},
		{"gave away my fishing rods to my nephew, wont need them", CrisisPreparation, false},
		{"At my age nobody would miss me. I've put by enough tablets to go quietly.", CrisisPreparation, false},
		{"i have enough tablets to never wake up", CrisisPreparation, false},
		{"sorted the will, cancelled the gym, gave Bob the keys. feels good to have it all squared away", CrisisPreparation, false},
		{"when i'm gone next week make sure someone tells my cat i loved her", CrisisPreparation, false},
		{"nobody would miss me", CrisisConcern, true},
		{"もう十分生きました", CrisisConcern, true},
		// Treatment stopped because one is done.
		{"told the hospice nurse i want to stop dialysis. she thinks its about the pain. its not, im just done", CrisisWishDead, false},
		{"透析我不想再做了，让我走吧，别告诉我女儿", CrisisWishDead, false},
		{"透析もうやめる。家族にこれ以上迷惑かけられないし、これで終わりにする", CrisisWishDead, false},
		// A plan kept through a discharge.
		{"got discharged from the psych ward tuesday. still got the same plan, they just dont know about it", CrisisPlan, false},
		{"退院したけど、計画は変わってない", CrisisPlan, false},
		{"刚出院，医生说我好多了，其实我早就想好怎么做了", CrisisPlan, false},
		// Means in hand, an aborted attempt, a relapse.
		{"had the gun out again tonight. put it back. for now", CrisisMethod, false},
		{"took the pistol out of the drawer again. for now", CrisisMethod, false},
		{"stood on the overpass for an hour last night. couldnt do it. next time i will", CrisisPreparation, false},
		{"went to the bridge again. lost my nerve", CrisisPreparation, false},
		{"飛び降りようと屋上まで行ったけど、怖くて戻った", CrisisPreparation, false},
		{"戒了半年又复吸了，这次想多打一点，打到再也醒不过来", CrisisMethod, false},
		{"今晚想去江边坐坐，可能就不回来了", CrisisPlan, false},
		{"想去海边坐坐，也许就不回来了", CrisisMethod, false},
		{"90 days sober til tonight. bottle and all my pills on the table and i honestly dont care what happens after", CrisisPreparation, false},
		{"996干了三年，每天下班都想从公司楼上跳下去一了百了", CrisisMethod, false},
		{"明天以后你就不会再收到我的消息了", CrisisPlan, false},
		{"分数出来了，对不起爸妈养我这么多年。天台的风好大", CrisisMethod, false},
		{"有时候在地铁站等车，会想如果往前迈一步就好了", CrisisMethod, false},
		// Contagion and money.
		{"ever since jake killed himself i keep thinking he had the right idea", CrisisIdeation, false},
		{"友達が自殺してから、自分もそっちに行きたいって思う", CrisisIdeation, false},
		{"我也想跟他一样跳下去", CrisisMethod, false},
		{"网贷输了二十万，还不上了，只剩这条命了", CrisisIdeation, false},
		{"パチンコで借金500万。生命保険で返せるかな", CrisisIdeation, false},
		{"要是高考前我不在了，他们是不是就不用失望了", CrisisWishDead, false},
		// Spellings and quotations.
		{"しにたぃ。。。", CrisisWishDead, false},
		{"きえたぃ", CrisisWishDead, false},
		{"mou ikitakunai, tsukareta", CrisisWishDead, false},
		{"「生きていたくない」って歌詞ずっと聞いてる、わかりすぎてつらい", CrisisWishDead, false},
		{"the song goes \"i want to die\" and its literally me", CrisisWishDead, false},
		{"been playing gloomy sunday on repeat all night. writing my own last letter now", CrisisPreparation, false},
		{"after what he did to me that night i just want to disappear for good", CrisisWishDead, false},
		{"有个人累了，他想去很远的地方，再也不回来了", CrisisWishDead, false},
		{"あの日のこと思い出すと、自分の体ごと消したくなる", CrisisWishDead, false},
		{"some ppl just arent meant to make it past 30. im 29 so", CrisisWishDead, false},
		// A professional's day beside the writer's own words.
		{"我是急诊科护士，今天抢救了一个喝农药的病人。我也想喝农药", CrisisMethod, false},
	})
}

// TestCrisisFloorEleventhRoundTwins: the same words in everyday lines.
func TestCrisisFloorEleventhRoundTwins(t *testing.T) {
	for _, text := range []string{
		"wife passed in march. the kids have been great",
		"dont see much point carrying on with the allotment this year",
		"wish the bus would hurry up and take me home",
		"wish the cancer would hurry up and go away",
		"延長保育の日は早くお迎えが来てほしいって子どもが言う",
		"雨だから駅まで早くお迎えが来てほしい",
		"gave my old tools to the lad next door, wont be needing them since i bought a new set",
		"gave my golf clubs to my son. wont be needing them after the knee surgery",
		"I've put by enough tablets for the cruise",
		"sorted the will with the lawyer. feels good to have it squared away",
		"when i'm gone next week for the conference make sure someone feeds my cat",
		"asked my doctor what happens if i stop dialysis and get the transplant",
		"医生说可以考虑停透析改做移植",
		"先生に、透析をやめたらどうなるか聞きました",
		"退院したけど、旅行の計画は変わってない",
		"got discharged from hospital after my knee op. still got the same plan for the holiday",
		"still got the same plan for the surprise party, they just dont know about it",
		"刚出院，医生说我好多了，其实我早就想好怎么做康复训练了",
		"had the gun out again tonight to clean it. put it back in the safe for now",
		"took the rifle out for deer season, put it back for now",
		"stood on the stage for an hour last night. couldnt do it. next time i will",
		"stood on the bridge for the sunset photos. couldnt do it, too windy. next time i will",
		"昨晚喝到断片了",
		"今晚想去江边散步，可能晚点回来",
		"明天以后你就不会再收到我的消息了，要去山里集训没信号",
		"对不起爸妈养我这么多年，以后一定好好孝顺",
		"天台的风好大，衣服都吹跑了",
		"排队的时候想往前迈一步就好了",
		"all my pills on the table to sort the weekly organiser",
		"ever since jake quit his job i keep thinking he had the right idea",
		"友達が引っ越してから、自分もそっちに行きたいって思う",
		"房子烧了，东西全没了，只剩这条命了",
		"借金500万。生命保険を解約して返せるかな",
		"gakkou ikitakunai",
		"mou gakkou ikitakunai",
		"「生きていたくない」って歌詞の曲、メロディーが明るくて好き",
		"writing my last letter to santa",
		"i want to disappear for good from social media",
		"有个人累了，他想去很远的地方旅行，一个月后回来",
		"自分の昔の投稿を消したくなる",
		"我是急诊科护士，今天抢救了一个喝农药的病人，还好救回来了",
		"we had a patient who overdosed on tylenol today, she made it",
		"搬送されてきた患者さんが薬を大量に飲んでいた。助かってよかった",
		"reckon i'll see Margaret again soon enough",
		"thanks for the chats. you've been decent company",
		"我给我爸妈的卡里转了五万，说是年终奖",
	} {
		for _, atRisk := range []bool{false, true} {
			read := ReadCrisis(text)
			got := read.Floor()
			if atRisk {
				got = read.AtRisk()
			}
			if got != CrisisNone && !(atRisk && got == CrisisConcern) {
				t.Errorf("%q (at risk %v): read %q, want ordinary", text, atRisk, got)
			}
		}
	}
}

// TestCrisisTalkEleventhRound: the prober's talks, which no line alone
// said: a widower's spouse gone and seeing her again soon; money given to
// parents "for later" after a platform thought.
func TestCrisisTalkEleventhRound(t *testing.T) {
	now := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	cases := []struct {
		earlier []string
		text    string
		want    CrisisCategory
	}{
		{[]string{"wife's been gone 8 months now. house is too big"}, "reckon i'll see Margaret again soon enough", CrisisWishDead},
		{[]string{"my friend from the pub moved away"}, "reckon i'll see Margaret again soon enough", CrisisNone},
		{[]string{"有时候在地铁站等车，会想如果往前迈一步就好了", "我给我爸妈的卡里转了五万"}, "以后他们应该用得上", CrisisPreparation},
		{[]string{"我给我爸妈的卡里转了五万，说是年终奖"}, "以后他们应该用得上", CrisisNone},
		{[]string{"我们宿舍楼顶可以上去，晚上风很大"}, "上去站了一会儿，感觉挺平静的", CrisisMethod},
		{[]string{"lost 4k on the apps this week. that was the rent"}, "i keep doing the maths on the life insurance", CrisisIdeation},
		// A retraction after a method is no intent (c7: the card came twice).
		{[]string{"最近、駅のホームで一歩前に出たらどうなるかなって考える"}, "べつに本気じゃないけど", CrisisNone},
		{[]string{"最近、駅のホームで一歩前に出たらどうなるかなって考える"}, "本気で考えてる", CrisisIntent},
	}
	for _, c := range cases {
		var lines []TalkLine
		for i, e := range c.earlier {
			lines = append(lines, TalkLine{Text: e, At: now.Add(time.Duration(i-len(c.earlier)) * time.Minute)})
		}
		got := ReadCrisis(c.text).ReadTalk(lines, now, false).Kind
		if got != c.want {
			t.Errorf("%q after %q: talk %q, want %q", c.text, c.earlier, got, c.want)
		}
	}
	// Thanks for the company after the talk was read as a wish to be dead
	// (the stored episode's category): a goodbye, preparation.
	wished := []TalkLine{
		{Text: "wife's been gone 8 months now", At: now.Add(-2 * time.Minute)},
		{Text: "reckon i'll see Margaret again soon enough", At: now.Add(-time.Minute), Crisis: CrisisWishDead},
	}
	if got := ReadCrisis("anyway. thanks for the chats. you've been decent company").ReadTalk(wished, now, false).Kind; got != CrisisPreparation {
		t.Errorf("thanks after a wish: talk %q, want preparation", got)
	}
	if got := ReadCrisis("anyway. thanks for the chats. you've been decent company").ReadTalk(wished[:1], now, false).Kind; got != CrisisNone {
		t.Errorf("thanks after a loss alone: talk %q, want none", got)
	}
}
