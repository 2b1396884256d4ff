package heart

import (
	"slices"
	"testing"
	"time"
)

// TestFollowUpTablesParse: data/followups.txt compiles (a malformed table
// is a build defect) and has rules for the three languages.
func TestFollowUpTablesParse(t *testing.T) {
	l, err := parseFollowUps(followUpData)
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]bool{}
	for _, r := range l.rules {
		langs[r.lang] = true
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		if !langs[lang] {
			t.Errorf("no rules for %s", lang)
		}
	}
	for _, bad := range []string{"rule en nonsense today", "words event", "rule en offset today", "rule en in in (\\d) {unit}", "rule xx in in {unit}"} {
		if _, err := parseFollowUps(bad); err == nil {
			t.Errorf("parseFollowUps(%q) = nil error", bad)
		}
	}
}

// TestExtractFollowUps is issue 11 item 5's examples and their neighbours:
// relative and absolute dates in English, Chinese and Japanese against a
// Monday afternoon in Shanghai (seed 003 §8.1 重要日期).
// followUpCase is a text and the follow-ups ExtractFollowUps must find in
// it.
type followUpCase struct {
	text string
	want []FollowUp
}

// checkFollowUps checks ExtractFollowUps on every case against now.
func checkFollowUps(t *testing.T, now time.Time, cases []followUpCase) {
	t.Helper()
	for _, tt := range cases {
		if got := ExtractFollowUps(tt.text, now); !slices.Equal(got, tt.want) {
			t.Errorf("ExtractFollowUps(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// mondayInShanghai is Monday 9 March 2026, 15:00 in Shanghai: the day the
// date tables are read against.
func mondayInShanghai(t *testing.T) time.Time {
	t.Helper()
	sh, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return time.Date(2026, 3, 9, 15, 0, 0, 0, sh)
}

func TestExtractFollowUps(t *testing.T) {
	now := mondayInShanghai(t)
	checkFollowUps(t, now, []followUpCase{
		// Issue 11's own examples. A span ("来月") is rough: its last day
		// is when to ask, not a day to say back.
		{"I have an exam on Friday", []FollowUp{{"exam", "2026-03-13", ""}}},
		{"下周五是我生日", []FollowUp{{"生日", "2026-03-20", ""}}},
		{"来月試験", []FollowUp{{"試験", "2026-04-30", "monthend1"}}},
		{"my interview is tomorrow at 10", []FollowUp{{"interview", "2026-03-10", ""}}},
		{"来月、京都で茶道の試験を受ける", []FollowUp{{"試験", "2026-04-30", "monthend1"}}},
		// English.
		{"The dentist is today, wish me luck!", []FollowUp{{"dentist", "2026-03-09", ""}}},
		{"my flight is the day after tomorrow", []FollowUp{{"flight", "2026-03-11", ""}}},
		{"Next Friday I have a job interview", []FollowUp{{"interview", "2026-03-20", ""}}},
		{"big presentation this Thursday", []FollowUp{{"presentation", "2026-03-12", ""}}},
		{"the wedding is next weekend", []FollowUp{{"wedding", "2026-03-22", "sunday1"}}},
		{"finals are next week", []FollowUp{{"finals", "2026-03-22", "sunday1"}}},
		{"my surgery is in two weeks", []FollowUp{{"surgery", "2026-03-23", ""}}},
		{"My birthday is on March 28th.", []FollowUp{{"birthday", "2026-03-28", ""}}},
		{"the concert is on the 21st", []FollowUp{{"concert", "2026-03-21", ""}}},
		{"Driving TEST on Monday", []FollowUp{{"test", "2026-03-16", ""}}},
		{"a trip in a couple of days", []FollowUp{{"trip", "2026-03-11", ""}}},
		{"Exam tomorrow. Then a party on Saturday!", []FollowUp{{"exam", "2026-03-10", ""}, {"party", "2026-03-14", ""}}},
		// Chinese.
		{"明天有个面试，好紧张", []FollowUp{{"面试", "2026-03-10", ""}}},
		{"后天考试", []FollowUp{{"考试", "2026-03-11", ""}}},
		{"大后天做手术", []FollowUp{{"手术", "2026-03-12", ""}}},
		{"周三要去体检", []FollowUp{{"体检", "2026-03-11", ""}}},
		{"这周五有个会议", []FollowUp{{"会议", "2026-03-13", ""}}},
		{"下个月搬家", []FollowUp{{"搬家", "2026-04-30", "monthend1"}}},
		{"三天后答辩", []FollowUp{{"答辩", "2026-03-12", ""}}},
		{"两周后出差", []FollowUp{{"出差", "2026-03-23", ""}}},
		{"我的生日是四月二日", []FollowUp{{"生日", "2026-04-02", ""}}},
		{"15号考驾照", []FollowUp{{"考驾照", "2026-03-15", ""}}},
		{"周末有比赛", []FollowUp{{"比赛", "2026-03-15", "sunday0"}}},
		// Japanese.
		{"明日は面接がある", []FollowUp{{"面接", "2026-03-10", ""}}},
		{"あさって歯医者に行く", []FollowUp{{"歯医者", "2026-03-11", ""}}},
		{"来週の水曜日に手術", []FollowUp{{"手術", "2026-03-18", ""}}},
		{"金曜に発表がある", []FollowUp{{"発表", "2026-03-13", ""}}},
		{"3月20日が誕生日なんだ", []FollowUp{{"誕生日", "2026-03-20", ""}}},
		{"２週間後に試験", []FollowUp{{"試験", "2026-03-23", ""}}},
		{"来週、結婚式に出る", []FollowUp{{"結婚式", "2026-03-22", "sunday1"}}},
		{"木曜日に心臓の検査があります", []FollowUp{{"検査", "2026-03-12", ""}}},
		{"周四要去复查心脏", []FollowUp{{"复查", "2026-03-12", ""}}},
		// No follow-up: no event, no date, the past, beyond the horizon.
		{"I'm tired today", nil},
		{"I have an exam", nil},
		{"my exam was on Friday", nil},
		{"the interview went well yesterday", nil},
		{"我上个月在杭州被公司裁员了", nil},
		{"昨天考完了", nil},
		{"昨日の試験は難しかった", nil},
		{"my birthday is on March 3", nil}, // past this year; next year's is beyond the horizon
		{"the wedding is on February 30", nil},
		// A day that would have been, for someone gone (followups.txt):
		// remembered, never asked after as a party.
		{"it would have been Ruth's birthday today", nil},
		{"tomorrow would've been our 50th wedding anniversary", nil},
		{"今天本来是她的生日", nil},
		{"明天本来是我妈的生日", nil},
		{"今日は和子の誕生日だったはずです", nil},
		{"生きていたら明日で80歳の誕生日", nil},
		{"", nil},
	})
}

// TestFollowUpWhenToAsk: a follow-up is asked about after its day (in the
// persona's zone), not on it, and not once it is stale.
// TestFollowUpToldOf: what the user says once the day came tells of the
// follow-up in its own words or in words of the same thing
// (data/followups.txt told): a widower's simulation was asked "How did
// your appointment go, by the way?" two days after "back from the doctor".
func TestFollowUpToldOf(t *testing.T) {
	for _, tt := range []struct {
		about, text string
		want        bool
	}{
		{"appointment", "back from the doctor", true},
		{"appointment", "the appointment went fine", true},
		{"appointment", "he says my heart is ok for an old man", false},
		{"exam", "the test was brutal", true},
		{"exam", "I'm testing a new recipe", false},
		{"interview", "went to the seniors center today", false},
		{"体检", "从医院回来了，医生说心脏还行", true},
		{"体检", "今天去超市了", false},
		{"医院", "从医院回来了", true},
		{"検査", "病院から帰りました。先生は心臓は大丈夫だと", true},
		{"検査", "今日はスーパーに行った", false},
		{"", "anything", false},
	} {
		if got := FollowUpToldOf(tt.about, tt.text); got != tt.want {
			t.Errorf("FollowUpToldOf(%q, %q) = %v, want %v", tt.about, tt.text, got, tt.want)
		}
	}
}

func TestFollowUpWhenToAsk(t *testing.T) {
	sh, _ := time.LoadLocation("Asia/Shanghai")
	at := func(day string, hour int) time.Time {
		d, _ := time.ParseInLocation(time.DateOnly, day, sh)
		return d.Add(time.Duration(hour) * time.Hour)
	}
	for _, tt := range []struct {
		now  time.Time
		want bool
	}{
		{at("2026-03-13", 23), false}, // the day itself
		{at("2026-03-14", 0), true},
		{at("2026-03-27", 12), true},  // 14 days after
		{at("2026-03-28", 12), false}, // stale
		{at("2026-03-10", 9), false},
	} {
		if got := FollowUpAskable("2026-03-13", tt.now); got != tt.want {
			t.Errorf("FollowUpAskable(2026-03-13, %v) = %v", tt.now, got)
		}
	}
	// The same instant is still the 13th in Shanghai but the 14th in Tokyo.
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	inst := time.Date(2026, 3, 13, 23, 30, 0, 0, sh)
	if FollowUpAskable("2026-03-13", inst) || !FollowUpAskable("2026-03-13", inst.In(tokyo)) {
		t.Error("askable is not judged in now's zone")
	}
	if FollowUpAskable("not a date", inst) || FollowUpInRange("2026-13-01", inst) {
		t.Error("a bad date is askable or in range")
	}
	if !FollowUpInRange("2026-03-13", inst) || FollowUpInRange("2026-03-12", inst) || FollowUpInRange("2027-03-13", inst) {
		t.Error("FollowUpInRange")
	}
}

func TestCJKNumber(t *testing.T) {
	for s, want := range map[string]int{"三": 3, "十": 10, "十五": 15, "二十": 20, "二十三": 23, "两": 2, "〇": 0} {
		if got, ok := cjkNumber(s); !ok || got != want {
			t.Errorf("cjkNumber(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "三三", "十十", "百", "二十三四"} {
		if _, ok := cjkNumber(s); ok {
			t.Errorf("cjkNumber(%q) ok", s)
		}
	}
}

// FuzzExtractFollowUps: any text yields well-formed follow-ups in range.
func FuzzExtractFollowUps(f *testing.F) {
	for _, s := range []string{"exam on Friday", "下周五是我生日", "来月試験", "in 99 days a trip", "二十三号考试", "\xff明天面试"} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 9, 15, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got := ExtractFollowUps(s, now)
		if len(got) > FollowUpMaxPerTurn {
			t.Fatalf("%d follow-ups", len(got))
		}
		for _, fu := range got {
			if fu.About == "" || !FollowUpInRange(fu.Due, now) {
				t.Fatalf("bad follow-up %+v", fu)
			}
		}
	})
}
