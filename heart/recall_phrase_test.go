package heart

import (
	"testing"
	"time"
	"unicode/utf8"
)

// TestRecallWhen: relative dates read as people say them, in the three
// languages, judged by calendar days in now's zone.
func TestRecallWhen(t *testing.T) {
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	now := time.Date(2026, 5, 20, 10, 0, 0, 0, tokyo)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 21, 0, 0, 0, tokyo) }
	for _, tt := range []struct {
		at         time.Time
		en, zh, ja string
	}{
		{now.Add(-2 * time.Hour), "earlier today", "今天早些时候", "今日"},
		{now.Add(time.Hour), "earlier today", "今天早些时候", "今日"},
		{day(2026, 5, 19), "yesterday", "昨天", "昨日"},
		{day(2026, 5, 17), "three days ago", "三天前", "3日前"},
		{day(2026, 5, 11), "about a week ago", "大约一周前", "1週間ほど前"},
		{day(2026, 4, 29), "about three weeks ago", "大约三周前", "3週間ほど前"},
		{day(2026, 5, 1), "about three weeks ago", "大约三周前", "3週間ほど前"},
		{day(2026, 5, 8), "about two weeks ago", "大约两周前", "2週間ほど前"},
		{day(2026, 4, 10), "last month", "上个月", "先月"},
		{day(2026, 3, 2), "in March", "今年三月", "3月"},
		{day(2025, 11, 30), "in November last year", "去年十一月", "去年の11月"},
		{day(2023, 7, 1), "in 2023", "2023年", "2023年"},
		// A Tokyo evening that is still the morning in UTC counts as Tokyo's day.
		{time.Date(2026, 5, 19, 16, 0, 0, 0, time.UTC), "earlier today", "今天早些时候", "今日"},
	} {
		for lang, want := range map[string]string{"en": tt.en, "zh": tt.zh, "ja": tt.ja} {
			if got := RecallWhen(tt.at, now, lang); got != want {
				t.Errorf("RecallWhen(%v, %s) = %q, want %q", tt.at, lang, got, want)
			}
		}
	}
}

// TestPhraseRecollection: a recollection is dated and attributed to its
// speaker, the companion's answer kept apart from the user's words; in a
// group it says where it was said.
func TestPhraseRecollection(t *testing.T) {
	now := time.Date(2026, 5, 20, 10, 0, 0, 0, time.UTC)
	ep := Recollection{RecallCandidate: RecallCandidate{Key: RecallKey{RecallEpisode, 7}, At: now.AddDate(0, 0, -21),
		Text: "my cat Biscuit turned twelve", Reply: "Happy birthday, Biscuit!"}}
	mem := Recollection{RecallCandidate: RecallCandidate{Key: RecallKey{RecallMemory, 3}, At: now.AddDate(0, -1, 0), Text: "Pets: Biscuit (cat)"}}
	for _, tt := range []struct {
		r     Recollection
		lang  string
		place RecallPlace
		want  string
	}{
		{ep, "en", SaidPrivately, "About three weeks ago, Ann said: “my cat Biscuit turned twelve” (you answered: “Happy birthday, Biscuit!”)"},
		{ep, "zh", SaidHere, "大约三周前，Ann在这个群里说：“my cat Biscuit turned twelve”（你回答：“Happy birthday, Biscuit!”）"},
		{ep, "ja", SaidInAGroup, "3週間ほど前、Annはグループで「my cat Biscuit turned twelve」と言っていた（あなたの返事：「Happy birthday, Biscuit!」）"},
		{mem, "en", SaidPrivately, "A memory you keep (last month): Pets: Biscuit (cat)"},
		{mem, "zh", SaidPrivately, "你记着的（上个月）：Pets: Biscuit (cat)"},
	} {
		if got := PhraseRecollection(tt.r, now, tt.lang, "Ann", tt.place); got != tt.want {
			t.Errorf("%s: %q\nwant %q", tt.lang, got, tt.want)
		}
	}
}

// TestSeed003_HeavyTopic: seed 003 §7.1's third greeting asks after the
// deep topic shared before the absence: a deep disclosure outweighs a
// salient everyday moment, salience alone counts from ReturnTopicSalience,
// and crisis words are never quoted back.
func TestSeed003_HeavyTopic(t *testing.T) {
	now := time.Date(2026, 5, 20, 10, 0, 0, 0, time.UTC)
	c := func(id int64, text string, sal float64, d Disclosure, ago int) RecallCandidate {
		return RecallCandidate{Key: RecallKey{RecallEpisode, id}, Text: text, Salience: sal, HasValues: true, Disclosure: d, At: now.AddDate(0, 0, -ago)}
	}
	cands := []RecallCandidate{
		c(1, "we broke up last night", 0.6, DisclosureDeep, 14),
		c(2, "I got a new phone!", 0.8, DisclosureNone, 13),
		c(3, "nice weather", 0.2, DisclosureNone, 12),
	}
	if got, ok := HeavyTopic(cands); !ok || got.Key.ID != 1 {
		t.Fatalf("HeavyTopic = %+v, %v; want the breakup", got, ok)
	}
	if got, ok := HeavyTopic(cands[1:]); !ok || got.Key.ID != 2 {
		t.Fatalf("salience alone: %+v, %v", got, ok)
	}
	if _, ok := HeavyTopic(cands[2:]); ok {
		t.Fatal("small talk is no heavy topic")
	}
	if _, ok := HeavyTopic([]RecallCandidate{c(4, "I want to kill myself", 1, DisclosureDeep, 3)}); ok {
		t.Fatal("crisis words quoted back")
	}
	if got, _ := HeavyTopic([]RecallCandidate{c(5, "my father is in hospital", 0.9, DisclosureDeep, 20), c(6, "we broke up", 0.9, DisclosureDeep, 15)}); got.Key.ID != 6 {
		t.Fatalf("equal weight: want the newest, got %d", got.Key.ID)
	}
}

func TestReturning(t *testing.T) {
	now := time.Date(2026, 5, 20, 10, 0, 0, 0, time.UTC)
	if Returning(time.Time{}, now) || Returning(now.Add(-ReturnAbsence+time.Minute), now) || !Returning(now.Add(-12*24*time.Hour), now) {
		t.Fatal("Returning")
	}
}

func TestTopicPhrase(t *testing.T) {
	for _, tt := range []struct{ text, lang, want string }{
		{"Well, we broke up last night. I can't stop crying", "en", "“Well, we broke up last night”"},
		{"我失恋了，心里好难受", "zh", "“我失恋了”那件事"},
		{"会社をクビになった", "ja", "「会社をクビになった」"},
		{"my grandmother passed away this morning after a long illness and I am lost", "en", "“my grandmother passed away this morning after…”"},
		{"...", "en", ""},
	} {
		if got := TopicPhrase(tt.text, tt.lang); got != tt.want {
			t.Errorf("TopicPhrase(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestClipRunesCutsAtAWord: a clipped quote ends at a word ("His name is
// Bisc…" was /why's and the offline brain's), a run of Chinese where it
// ends, and never past n runes with its ellipsis.
func TestClipRunesCutsAtAWord(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"I just adopted a puppy. His name is Biscuit", 40, "I just adopted a puppy. His name is…"},
		{"I have a job interview at Stripe, I'm so nervous", 36, "I have a job interview at Stripe…"},
		{"我刚领养了一只小狗是金毛它叫豆豆", 10, "我刚领养了一只小狗…"},
		{"supercalifragilisticexpialidocious", 10, "supercali…"},
	} {
		got := ClipRunes(c.s, c.n)
		if got != c.want || utf8.RuneCountInString(got) > c.n {
			t.Errorf("ClipRunes(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
