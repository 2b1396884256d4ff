package bot

import (
	"slices"
	"testing"
)

// TestMemoryNeedles: what /forget N looks for, by how memories are
// written: the offline brain's labelled facts (facts.yaml) in the three
// languages, single and multi-valued, a model's or /remember's free words.
func TestMemoryNeedles(t *testing.T) {
	for _, c := range []struct {
		content string
		want    []string
	}{
		{"Pets: Biscuit (dog)", []string{"Pets: Biscuit (dog)", "Biscuit"}},
		{"Pets: Miso (cat); Rex (dog)", []string{"Pets: Miso (cat); Rex (dog)", "Miso", "Rex"}},
		{"Ages: Biscuit (twelve)", []string{"Ages: Biscuit (twelve)", "Biscuit"}},
		{"People: Jo (friend)", []string{"People: Jo (friend)", "Jo"}},
		{"Lives in: New York", []string{"Lives in: New York", "New York"}},
		{"Work: nurse", []string{"Work: nurse", "nurse"}},
		{"宠物：旺财（狗）", []string{"宠物：旺财（狗）", "旺财"}},
		{"身边的人：小雨（好朋友）；阿明（同事）", []string{"身边的人：小雨（好朋友）；阿明（同事）", "小雨", "阿明"}},
		{"ペット：ミソ（猫）、ポチ（犬）", []string{"ペット：ミソ（猫）、ポチ（犬）", "ミソ", "ポチ"}},
		{"住まい：東京", []string{"住まい：東京", "東京"}},
		// A one-character value would match nearly every Chinese message.
		{"宠物：喵（猫）", []string{"宠物：喵（猫）"}},
		// Free words: proper names that do not start a sentence, not the
		// user's or persona's name, a weekday or "I".
		{"Ann's dog is called Biscuit. She walks Biscuit with Luna on Friday", []string{"Ann's dog is called Biscuit. She walks Biscuit with Luna on Friday", "Biscuit"}},
		{"my sister Mia lives in Oslo and I visit her", []string{"my sister Mia lives in Oslo and I visit her", "Mia", "Oslo"}},
		{"我妹妹叫小雨", []string{"我妹妹叫小雨"}},
		{"  ", nil},
	} {
		if got := memoryNeedles(c.content, "Ann", "Luna"); !slices.Equal(got, c.want) {
			t.Errorf("memoryNeedles(%q) = %q, want %q", c.content, got, c.want)
		}
	}
}
