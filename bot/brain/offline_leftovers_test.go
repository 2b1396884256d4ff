package brain

import (
	"strings"
	"testing"
)

// TestOfflineLastStrawPastTheFloor: the Chinese and Japanese twins of "if
// this build fails one more time I'll jump out the window lol" are read by
// the crisis floor as a method today, and its answer comes first (the
// corpus checks that). Were the floor to read them as the hyperbole they
// usually are, the reply meets the frustration (situations.yaml
// last_straw), never a cheer: the turn here is built as the floor's
// ordinary reading would leave it.
func TestOfflineLastStrawPastTheFloor(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text string
		any        []string
	}{
		{langZH, "这个编译再失败一次我就跳楼哈哈", []string{"逼疯", "抓狂", "火大"}},
		{langZH, "代码再报错我就从窗户跳下去了", []string{"逼疯", "抓狂", "火大"}},
		{langJA, "このビルドもう一回失敗したら窓から飛び降りるw", []string{"イライラ", "腹が立", "ムカムカ"}},
		{langJA, "また会議長引いたら飛び降りるわw", []string{"イライラ", "腹が立", "ムカムカ"}},
	}
	for _, tt := range tests {
		cv := newConvo(t, o, corpusCase{Lang: tt.lang})
		h := cv.hints(tt.text)
		h.Crisis, h.CrisisKind, h.Watch = false, "", false
		resp := reply(t, o, h)
		hit := false
		for _, a := range tt.any {
			hit = hit || strings.Contains(resp.Text, a)
		}
		if !hit || !strings.Contains(resp.Trailer, `"emotion_label":"anger"`) {
			t.Errorf("%s %q → %q %s: want the frustration (one of %q), label anger", tt.lang, tt.text, resp.Text, resp.Trailer, tt.any)
		}
	}
}
