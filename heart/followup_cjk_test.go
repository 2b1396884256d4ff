package heart

import (
	"testing"
	"time"
)

// TestExtractFollowUpsCJKDateForms reads the Chinese and Japanese ways of
// dating a thing ahead, broadly (the recall round's leftover: "20日に運転
// 免許の試験がある" was no dated event): a day of the month with 日 or 号,
// month and day in digits or numerals, weekdays with 周, 星期, 礼拜 and
// 曜日, this and next week, 下周 and 来週, the day after tomorrow (后天,
// 明后天, 明後日), in N days or weeks, and the 考研 second round (复试)
// named whole. Against Monday 9 March 2026 in Shanghai.
func TestExtractFollowUpsCJKDateForms(t *testing.T) {
	now := mondayInShanghai(t)
	checkFollowUps(t, now, []followUpCase{
		// Japanese: a day of this month, else the next.
		{"20日に運転免許の試験がある", []FollowUp{{"試験", "2026-03-20", ""}}},
		{"２０日に面接", []FollowUp{{"面接", "2026-03-20", ""}}},
		{"5日は歯医者", []FollowUp{{"歯医者", "2026-04-05", ""}}},
		{"二十日の試合、がんばる", []FollowUp{{"試合", "2026-03-20", ""}}},
		{"3月12日に司法試験がある", []FollowUp{{"試験", "2026-03-12", ""}}},
		{"三月十二日に面接がある", []FollowUp{{"面接", "2026-03-12", ""}}},
		{"4/2に面接がある", []FollowUp{{"面接", "2026-04-02", ""}}},
		{"水曜日に面接がある", []FollowUp{{"面接", "2026-03-11", ""}}},
		{"今週の金曜日にテストがある", []FollowUp{{"テスト", "2026-03-13", ""}}},
		{"来週の月曜に手術", []FollowUp{{"手術", "2026-03-16", ""}}},
		{"明後日、面接なんだ", []FollowUp{{"面接", "2026-03-11", ""}}},
		{"3日後に試験", []FollowUp{{"試験", "2026-03-12", ""}}},
		{"再来週に引っ越し", []FollowUp{{"引っ越し", "2026-03-29", "sunday2"}}},
		// Chinese.
		{"我三月十二号考研复试", []FollowUp{{"考研复试", "2026-03-12", ""}}},
		{"3月12号复试", []FollowUp{{"复试", "2026-03-12", ""}}},
		{"3月12日考试", []FollowUp{{"考试", "2026-03-12", ""}}},
		{"我20号考驾照", []FollowUp{{"考驾照", "2026-03-20", ""}}},
		{"二十号面试", []FollowUp{{"面试", "2026-03-20", ""}}},
		{"20日有考试", []FollowUp{{"考试", "2026-03-20", ""}}},
		{"4/2面试", []FollowUp{{"面试", "2026-04-02", ""}}},
		{"下周三面试", []FollowUp{{"面试", "2026-03-18", ""}}},
		{"下星期五考试", []FollowUp{{"考试", "2026-03-20", ""}}},
		{"下礼拜一复诊", []FollowUp{{"复诊", "2026-03-16", ""}}},
		{"星期天是我生日", []FollowUp{{"生日", "2026-03-15", ""}}},
		{"周日有比赛", []FollowUp{{"比赛", "2026-03-15", ""}}},
		{"明后天要体检", []FollowUp{{"体检", "2026-03-11", ""}}},
		{"明後天面試", nil}, // traditional characters are not read (hearth speaks simplified)
		{"下下周答辩", []FollowUp{{"答辩", "2026-03-29", "sunday2"}}},
		{"月底要交论文，还要答辩", []FollowUp{{"答辩", "2026-03-31", "monthend0"}}},
		// No dated event: a span, a time since, the past, no event.
		{"20日間の旅行", nil},
		{"5日前に試験を受けた", nil},
		{"三天前考试了", nil},
		{"20号那天我很开心", nil},
	})
}

// TestExtractFollowUpsBirthdayPartyAndSchool: a birthday party is the
// party, never the user's birthday; a child's first day at kindergarten
// is a dated thing to ask after (recall round 3's parenting script).
func TestExtractFollowUpsBirthdayPartyAndSchool(t *testing.T) {
	now := time.Date(2026, 3, 9, 15, 0, 0, 0, time.UTC) // Monday
	checkFollowUps(t, now, []followUpCase{
		{"Lily is going to a birthday party with lots of snacks tomorrow", []FollowUp{{"birthday party", "2026-03-10", ""}}},
		{"my birthday is tomorrow", []FollowUp{{"birthday", "2026-03-10", ""}}},
		{"Lily starts kindergarten on March 12", []FollowUp{{"kindergarten", "2026-03-12", ""}}},
		{"明天女儿去参加生日聚会", []FollowUp{{"生日聚会", "2026-03-10", ""}}},
		{"4月1日から保育園", []FollowUp{{"保育園", "2026-04-01", ""}}},
	})
}
