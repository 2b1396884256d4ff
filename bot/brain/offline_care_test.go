package brain

import (
	"strings"
	"testing"
	"time"

	"hearth/bot"
)

// TestOfflineAllergyIsKeptAndMet: an allergy of the user or their family
// is kept though slots 0-9 are each a kind's (seed 004's 20-29, how to
// act), recalled when asked ("what is Lily allergic to?" got "I'd be
// guessing"), and met at the moment it matters: a party with snacks, a
// restaurant. A cat allergy is no matter at dinner.
func TestOfflineAllergyIsKeptAndMet(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 1, 16, 19, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		lang, told, self, kept string
		asked, recalled        string
		party, met             string
	}{
		{"en", "Lily has a peanut allergy", "I'm allergic to cats", "Allergies to mind: Lily (peanut allergy); me (cat allergy)",
			"what is Lily allergic to?", "Lily's peanut allergy", "we're going to a birthday party on Saturday, there'll be lots of snacks", "Lily's peanut allergy"},
		{"zh", "莉莉对花生过敏", "我对猫毛过敏", "要留意的过敏：莉莉（花生过敏）；我（猫毛过敏）",
			"莉莉对什么过敏？", "莉莉的花生过敏", "今晚我们去餐厅吃饭", "莉莉的花生过敏"},
		{"ja", "リリーはピーナッツアレルギーなんだ", "私は猫アレルギー", "気をつけたいアレルギー：リリー（ピーナッツアレルギー）、私（猫アレルギー）",
			"リリーって何アレルギーだっけ？", "リリーのピーナッツアレルギー", "土曜日に誕生日会に行くんだ", "リリーのピーナッツアレルギー"},
	} {
		h := bot.Hints{Language: tt.lang, Turn: 3, Now: now, User: "Ann"}
		h.Text = tt.told
		first, _ := remembered(t, reply(t, o, h))
		if len(first) != 1 || first[0].Slot != slotCareFirst {
			t.Fatalf("%s %q kept %+v, want slot %d", tt.lang, tt.told, first, slotCareFirst)
		}
		h.Text, h.Memories = tt.self, []string{first[0].Content}
		second, _ := remembered(t, reply(t, o, h))
		if len(second) != 1 || second[0].Content != tt.kept {
			t.Fatalf("%s %q kept %+v, want %q", tt.lang, tt.self, second, tt.kept)
		}
		h.Memories = []string{tt.kept}
		h.Text = tt.asked
		if got := reply(t, o, h).Text; !strings.Contains(got, tt.recalled) {
			t.Errorf("%s %q: %q, want %q", tt.lang, tt.asked, got, tt.recalled)
		}
		h.Text = tt.party
		if got := reply(t, o, h).Text; !strings.Contains(got, tt.met) || strings.Contains(got, "猫") || strings.Contains(got, "cat") {
			t.Errorf("%s %q: %q, want %q met", tt.lang, tt.party, got, tt.met)
		}
	}
}

// TestOfflineAgeOfSomeoneToldWithMore: "Lily is 4" is an age, said alone
// or with more after it ("she's 4 and has a peanut allergy").
func TestOfflineAgeOfSomeoneToldWithMore(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 1, 16, 19, 0, 0, 0, time.UTC)
	for _, text := range []string{"Lily is 4", "Lily is 4 and she loves drawing", "she's 4 and she has a peanut allergy"} {
		h := bot.Hints{Language: "en", Turn: 3, Now: now, User: "Ann", Text: text, Memories: []string{"People: Lily (daughter)"}}
		var ages []string
		kept, _ := remembered(t, reply(t, o, h))
		for _, r := range kept {
			if strings.HasPrefix(r.Content, "Ages: ") {
				ages = append(ages, r.Content)
			}
		}
		if len(ages) != 1 || ages[0] != "Ages: Lily (4)" {
			t.Errorf("%q kept ages %q, want Lily (4)", text, ages)
		}
	}
}
