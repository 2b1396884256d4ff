package heart

import (
	"strings"
	"testing"
)

// TestSeed003_CrisisText: 003_9b71f6486dad9aaa.txt §1.1 and §3.1 Watch
// "出现自杀/自伤表达", detected by the built-in lexicon in three languages.
func TestSeed003_CrisisText(t *testing.T) {
	crisis := []string{
		// zh
		"我想死", "我真的不想活了", "活着没意思", "我想自杀", "昨天又自残了", "想割腕", "我活不下去了", "不如死了算了",
		"我不是开玩笑，我想死", "《自杀》这本书我看了。我也想死",
		// en
		"I want to die", "I WANT TO DIE", "i just wanna die", "I'm going to kill myself", "I want to end my life",
		"thinking about suicide", "I feel suicidal", "I self-harm", "I hurt myself again", "I've been cutting myself",
		"Ｉ ｗａｎｔ ｔｏ ｄｉｅ", "I don't want to live anymore", "everyone would be better off if I was dead... better off dead",
		"I'm not ok. I want to die", "I don’t want to be alive", "I don't want to wake up tomorrow", "我不想再活下去了",
		// ja
		"死にたい", "もう消えたい", "自殺したい", "ｼﾆﾀｲ", "しにたい…", "生きる意味がない", "もう『死にたい』って思う", "リストカットしちゃった", "生きていたくない", "ｼﾆﾀｲ… 死にたい",
		// issue 12: missed before the crisis floor, answered cheerfully.
		"what's the point of living", "I don't want to be here anymore", "kms", "i want to kil myself",
		"i wish i could just disappear forever", "我想消失",
	}
	for _, s := range crisis {
		if !CrisisText(s) {
			t.Errorf("%s: CrisisText(%q) = false, want true", seed003, s)
		}
	}
	calm := []string{
		"this song is killer", "笑死我了", "想死你了！", "好久不见，想死你了", "我不想死", "I don't want to die",
		"I'm not suicidal, just tired", "I want to diet", "Suicide Squad was fun", "这家店跳楼价大甩卖",
		"我在看《自杀俱乐部》", "死にたくない", "killing it at work today", "she killed it", "",
		"I could eat a horse", "today was hard",
		// issue 12's everyday idioms.
		"笑死", "死ぬほど疲れた", "I'm dead tired", "this is killing me lol", "I could kill for a coffee",
	}
	for _, s := range calm {
		if CrisisText(s) {
			t.Errorf("%s: CrisisText(%q) = true, want false", seed003, s)
		}
	}
}

// TestSeed003_CrisisResources: every language names an emergency number and
// the documented lines.
func TestSeed003_CrisisResources(t *testing.T) {
	rows := map[string][]string{
		"zh": {"010-82951332", "400-161-9995", "120"},
		"en": {"988", "116 123", "findahelpline.com", "emergency"},
		"ja": {"0570-783-556", "119"},
		"fr": {"988"}, // unknown languages get English
	}
	for lang, want := range rows {
		got := DefaultCrisisResources(lang)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("DefaultCrisisResources(%q) lacks %q", lang, w)
			}
		}
	}
}

// FuzzCrisisText checks that no input panics and that the folding is
// stable: an input's verdict does not change when it is upper-cased ASCII.
func FuzzCrisisText(f *testing.F) {
	for _, s := range []string{"我想死", "I want to die", "死にたい", "《自杀》", "想死你", "don't want to die", "『", "《", "\xff\xfe", "Ｉ ｗａｎｔ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := CrisisText(s)
		if strings.ToValidUTF8(s, "") == s && relIsASCIIString(s) && CrisisText(strings.ToUpper(s)) != got {
			t.Fatalf("case changes the verdict for %q", s)
		}
	})
}

// isASCIIString reports whether s is ASCII.
func relIsASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// BenchmarkCrisisText measures the lexicon check that runs on every message.
func BenchmarkCrisisText(b *testing.B) {
	msg := "今天上班好累，老板又骂我了。I just want to go home and sleep… 疲れた"
	for b.Loop() {
		CrisisText(msg)
	}
}

// BenchmarkTextSignals measures all §2.1 cues of one message.
func BenchmarkTextSignals(b *testing.B) {
	msg := "今天上班好累，老板又骂我了。I just want to go home and sleep… 疲れた"
	for b.Loop() {
		TextSignals(msg, Perception{Sentiment: -0.3}, Detection{}, CrisisNone)
	}
}
