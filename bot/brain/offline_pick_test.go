package brain

import (
	"strings"
	"testing"
)

// TestOfflinePickOneVaries: asked to choose between two, she names one of
// them, not "the second one", and which one depends on the message: over a
// few questions both the first and the second are picked, in every
// language, and the same message always gets the same pick.
func TestOfflinePickOneVaries(t *testing.T) {
	o := NewOffline()
	cases := map[string][][3]string{
		langEN: {{"pizza or sushi?", "pizza", "sushi"}, {"coffee or tea?", "coffee", "tea"}, {"cats or dogs?", "cats", "dogs"},
			{"beach or mountains?", "beach", "mountains"}, {"should I text him or wait?", "text him", "wait"},
			{"hmm, my red dress or my blue one?", "your red dress", "your blue one"}},
		langZH: {{"咖啡还是茶？", "咖啡", "茶"}, {"今晚吃火锅还是烧烤？", "火锅", "烧烤"}, {"你觉得红色还是蓝色好看？", "红色", "蓝色"},
			{"猫还是狗呢", "猫", "狗"}, {"周末去海边还是爬山？", "海边", "爬山"}},
		langJA: {{"犬派？猫派？", "犬", "猫"}, {"コーヒーと紅茶どっちがいい？", "コーヒー", "紅茶"}, {"夜ご飯はカレーとラーメン、どっち？", "カレー", "ラーメン"},
			{"きのこ派？たけのこ派？", "きのこ", "たけのこ"}, {"映画とカラオケ、どっちにする？", "映画", "カラオケ"}},
	}
	for lang, cs := range cases {
		picked := map[int]bool{}
		for _, c := range cs {
			var first string
			for range 2 {
				_, resp, _ := newConvo(t, o, corpusCase{Lang: lang}).say(c[0])
				got := strings.ToLower(resp.Text)
				a, b := strings.Contains(got, c[1]), strings.Contains(got, c[2])
				switch {
				case a == b:
					t.Errorf("%s %q → %q: names neither or both of %q, %q", lang, c[0], resp.Text, c[1], c[2])
				case a:
					picked[0] = true
				default:
					picked[1] = true
				}
				if first != "" && resp.Text != first {
					t.Errorf("%s %q: %q, then %q", lang, c[0], first, resp.Text)
				}
				first = resp.Text
			}
		}
		if !picked[0] || !picked[1] {
			t.Errorf("%s: picked only one side (%v) over %d questions", lang, picked, len(cs))
		}
	}
}
