package heart

import "testing"

// A group voice note is addressed to her when it says her name (DESIGN §12).
func TestNamesCompanion(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       bool
	}{
		{"Luna, are you there?", "Luna", true},
		{"hey luna", "Luna", true},
		{"ＬＵＮＡ？", "Luna", true},
		{"that was lunatic", "Luna", false},
		{"Luna's idea", "Luna", true},
		{"露娜你在吗", "露娜", true},
		{"ルナちゃん聞いて", "ルナ", true},
		{"我的朋友Luna说", "Luna", true},
		{"Mary Ann, listen", "Mary Ann", true},
		{"anything", "", false},
	} {
		if got := NamesCompanion(c.text, c.name); got != c.want {
			t.Errorf("NamesCompanion(%q, %q) = %v, want %v", c.text, c.name, got, c.want)
		}
	}
}
