package heart

import (
	"slices"
	"strings"
	"testing"
)

// TestSelectLoreMatching: SillyTavern World Info semantics, one entry at a
// time, against the user's message (and the messages before it).
func TestSelectLoreMatching(t *testing.T) {
	tests := []struct {
		name   string
		entry  LoreEntry
		recent []string // newest first
		want   bool
	}{
		{"key in the message", LoreEntry{Keys: []string{"Biscuit"}}, []string{"Biscuit was sick all night"}, true},
		{"any of several keys", LoreEntry{Keys: []string{"dog", "cat"}}, []string{"my cat is twelve"}, true},
		{"no key", LoreEntry{Keys: []string{"dog"}}, []string{"my cat is twelve"}, false},
		{"case-insensitive by default", LoreEntry{Keys: []string{"biscuit"}}, []string{"BISCUIT!"}, true},
		{"full-width letters fold", LoreEntry{Keys: []string{"biscuit"}}, []string{"ＢＩＳＣＵＩＴ"}, true},
		{"case-sensitive key, other case", LoreEntry{Keys: []string{"Rose"}, CaseSensitive: true}, []string{"a rose garden"}, false},
		{"case-sensitive key, same case", LoreEntry{Keys: []string{"Rose"}, CaseSensitive: true}, []string{"Rose called"}, true},
		{"whole words: not inside a word", LoreEntry{Keys: []string{"king"}}, []string{"it's not to my liking"}, false},
		{"whole words: at a word", LoreEntry{Keys: []string{"king"}}, []string{"long live the king."}, true},
		{"whole words: a later occurrence counts", LoreEntry{Keys: []string{"king"}}, []string{"liking the king"}, true},
		{"possessive is a whole word", LoreEntry{Keys: []string{"Biscuit"}}, []string{"Biscuit's bowl"}, true},
		{"several words match as a phrase", LoreEntry{Keys: []string{"night sky"}}, []string{"the night sky tonight"}, true},
		{"Latin name beside Chinese", LoreEntry{Keys: []string{"Miso"}}, []string{"我的猫Miso病了"}, true},
		{"Chinese key inside a sentence", LoreEntry{Keys: []string{"杭州"}}, []string{"我上个月在杭州被裁员了"}, true},
		{"two-character Chinese key", LoreEntry{Keys: []string{"裁员"}}, []string{"公司裁员了"}, true},
		{"Japanese key inside a sentence", LoreEntry{Keys: []string{"茶道"}}, []string{"来月、京都で茶道の試験を受ける"}, true},
		{"half-width katakana fold", LoreEntry{Keys: []string{"ビスケット"}}, []string{"ﾋﾞｽｹｯﾄが元気"}, true},
		{"Chinese key absent", LoreEntry{Keys: []string{"杭州"}}, []string{"我在上海"}, false},
		{"older message within scan depth", LoreEntry{Keys: []string{"exam"}}, []string{"thanks", "good luck!", "my exam is Friday"}, true},
		{"older message beyond scan depth", LoreEntry{Keys: []string{"exam"}}, []string{"a", "b", "c", "d", "my exam is Friday"}, false},
		{"selective: needs a secondary key", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"vet", "sick"}, Selective: true}, []string{"my cat"}, false},
		{"selective: and any", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"vet", "sick"}, Selective: true}, []string{"my cat is sick"}, true},
		{"selective: secondary key in an older message", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"vet"}, Selective: true}, []string{"my cat", "the vet called"}, true},
		{"secondary keys ignored when not selective", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"vet"}}, []string{"my cat"}, true},
		{"selective without secondary keys", LoreEntry{Keys: []string{"cat"}, Selective: true}, []string{"my cat"}, true},
		{"secondary alone does not trigger", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"vet"}, Selective: true}, []string{"the vet"}, false},
		{"and all: all present", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"vet", "sick"}, Selective: true, Logic: LoreAndAll}, []string{"cat sick, vet now"}, true},
		{"and all: one missing", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"vet", "sick"}, Selective: true, Logic: LoreAndAll}, []string{"cat sick"}, false},
		{"not any: none present", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"dog"}, Selective: true, Logic: LoreNotAny}, []string{"cat"}, true},
		{"not any: one present", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"dog", "fish"}, Selective: true, Logic: LoreNotAny}, []string{"cat and dog"}, false},
		{"not all: some present", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"dog", "fish"}, Selective: true, Logic: LoreNotAll}, []string{"cat and dog"}, true},
		{"not all: all present", LoreEntry{Keys: []string{"cat"}, SecondaryKeys: []string{"dog", "fish"}, Selective: true, Logic: LoreNotAll}, []string{"cat, dog, fish"}, false},
		{"case-sensitive secondary key", LoreEntry{Keys: []string{"Mika"}, SecondaryKeys: []string{"Tokyo"}, Selective: true, CaseSensitive: true}, []string{"Mika in tokyo"}, false},
		{"blank key never matches", LoreEntry{Keys: []string{" "}}, []string{"anything"}, false},
		{"disabled entry", LoreEntry{Keys: []string{"cat"}, Disabled: true}, []string{"cat"}, false},
		{"empty content is never inserted", LoreEntry{Keys: []string{"cat"}, Content: " "}, []string{"cat"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.entry
			if e.Content == "" {
				e.Content = "the entry"
			}
			constant, matched := SelectLore(LoreBook{Entries: []LoreEntry{e}}, tt.recent)
			if len(constant) != 0 {
				t.Fatalf("a keyed entry came back constant: %v", constant)
			}
			if got := len(matched) == 1; got != tt.want {
				t.Fatalf("matched %v, want %v", matched, tt.want)
			}
		})
	}
}

// TestSelectLoreBook: constant entries, insertion order, the budget and the
// book's scan depth.
func TestSelectLoreBook(t *testing.T) {
	entry := func(content string, order int, keys ...string) LoreEntry {
		return LoreEntry{Keys: keys, Content: content, Order: order}
	}
	t.Run("constant entries always, apart from matched ones", func(t *testing.T) {
		b := LoreBook{Entries: []LoreEntry{
			{Content: "the world", Constant: true, Order: 5},
			entry("cat lore", 1, "cat"),
			{Content: "off", Constant: true, Disabled: true},
		}}
		c, m := SelectLore(b, []string{"hello"})
		if !slices.Equal(c, []string{"the world"}) || m != nil {
			t.Fatalf("constant %v matched %v", c, m)
		}
		c, m = SelectLore(b, []string{"my cat"})
		if !slices.Equal(c, []string{"the world"}) || !slices.Equal(m, []string{"cat lore"}) {
			t.Fatalf("constant %v matched %v", c, m)
		}
	})
	t.Run("lower insertion order first in the prompt", func(t *testing.T) {
		b := LoreBook{Entries: []LoreEntry{entry("C", 30, "x"), entry("A", 10, "x"), entry("B", 20, "x"), entry("B2", 20, "x")}}
		if _, m := SelectLore(b, []string{"x"}); !slices.Equal(m, []string{"A", "B", "B2", "C"}) {
			t.Fatalf("order %v", m)
		}
	})
	t.Run("budget: constants first, then higher orders, stop at the first that does not fit", func(t *testing.T) {
		word := func(n int) string { return strings.TrimSpace(strings.Repeat("word ", n)) } // ~n+ tokens
		b := LoreBook{BudgetTokens: 60, Entries: []LoreEntry{
			{Content: word(20), Constant: true, Order: 0}, // 25 tokens
			entry("low "+word(4), 1, "x"),                 // fits, but comes after the one that does not
			entry("high "+word(20), 9, "x"),               // 26 tokens: fits
			entry("mid "+word(20), 5, "x"),                // 26 tokens: over budget, stops here
		}}
		c, m := SelectLore(b, []string{"x"})
		if len(c) != 1 || len(m) != 1 || !strings.HasPrefix(m[0], "high") {
			t.Fatalf("constant %d, matched %q", len(c), m)
		}
	})
	t.Run("default and capped budget", func(t *testing.T) {
		if (LoreBook{}).Budget() != DefaultLoreBudgetTokens || (LoreBook{BudgetTokens: 1 << 20}).Budget() != MaxLoreBudgetTokens || (LoreBook{BudgetTokens: 50}).Budget() != 50 {
			t.Fatal("budget defaults")
		}
	})
	t.Run("scan depth of the book", func(t *testing.T) {
		b := LoreBook{ScanDepth: 1, Entries: []LoreEntry{entry("cat lore", 0, "cat")}}
		if _, m := SelectLore(b, []string{"yes", "my cat"}); m != nil {
			t.Fatalf("depth 1 scanned the previous message: %v", m)
		}
		b.ScanDepth = 2
		if _, m := SelectLore(b, []string{"yes", "my cat"}); m == nil {
			t.Fatal("depth 2 missed the previous message")
		}
		if (LoreBook{}).Depth() != DefaultLoreScanDepth || (LoreBook{ScanDepth: 999}).Depth() != MaxLoreScanDepth {
			t.Fatal("depth defaults")
		}
	})
	t.Run("empty book", func(t *testing.T) {
		if c, m := SelectLore(LoreBook{}, []string{"x"}); c != nil || m != nil {
			t.Fatal("empty book inserted something")
		}
	})
}

// FuzzSelectLore: any key and text; a key written between spaces is always
// found, and one entry is inserted at most once.
func FuzzSelectLore(f *testing.F) {
	f.Add("Biscuit", "my cat Biscuit", false)
	f.Add("猫", "我的猫", true)
	f.Add("ｷﾝｸﾞ", "ｷﾝｸﾞ\xff", false)
	f.Add("@", "@0", false)
	f.Fuzz(func(t *testing.T, key, text string, caseSensitive bool) {
		b := LoreBook{Entries: []LoreEntry{{Keys: []string{key}, Content: "c", CaseSensitive: caseSensitive}}}
		if _, m := SelectLore(b, []string{text}); len(m) > 1 {
			t.Fatalf("one entry inserted %d times", len(m))
		}
		if strings.TrimSpace(key) == "" {
			return
		}
		if _, m := SelectLore(b, []string{text + " " + strings.TrimSpace(key) + " " + text}); len(m) != 1 {
			t.Fatalf("key %q between spaces not found", key)
		}
	})
}
