package telegram

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// checkParts fails t unless parts rejoin to text and each fits limit.
func checkParts(t testing.TB, text string, limit int, parts []string) {
	t.Helper()
	if got := strings.Join(parts, ""); got != text {
		t.Fatalf("parts do not rejoin losslessly: %d bytes in, %d bytes out", len(text), len(got))
	}
	for i, p := range parts {
		if p == "" {
			t.Fatalf("part %d is empty", i)
		}
		if n := utf16Len(p); n > limit {
			t.Fatalf("part %d has %d UTF-16 units, limit %d", i, n, limit)
		}
	}
}

func TestSplitPrefersNaturalBreaks(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		limit int
		want  []string
	}{
		{"fits", "hello", 10, []string{"hello"}},
		{"empty", "", 10, nil},
		{"paragraph over line", "aaaa\nbbbb\n\ncc\ndd", 14, []string{"aaaa\nbbbb\n\n", "cc\ndd"}},
		{"line over sentence", "aaa. bbb\ncc. dd", 13, []string{"aaa. bbb\n", "cc. dd"}},
		{"sentence over word", "one two. three four", 16, []string{"one two. ", "three four"}},
		{"cjk sentence needs no space", "今天很好。明天也好", 7, []string{"今天很好。", "明天也好"}},
		{"cjk exclamation", "太好了！真的吗？好", 6, []string{"太好了！", "真的吗？好"}},
		{"dot inside a number is no sentence end", "pi is 3.14159 ok", 10, []string{"pi is ", "3.14159 ok"}},
		{"word", "alpha beta gamma", 12, []string{"alpha beta ", "gamma"}},
		{"runes", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"early break ignored for fill", "a\nbcdefghijklmnop", 8, []string{"a\nbcdefg", "hijklmno", "p"}},
		{"surrogate pair kept whole", "abc😀d", 4, []string{"abc", "😀d"}},
		{"rune wider than limit one", "😀a", 1, []string{"😀", "a"}},
		{"variation selector stays", "abc❤️d", 4, []string{"abc", "❤️d"}},
		{"skin tone stays", "ab👍🏽cd", 5, []string{"ab", "👍🏽c", "d"}},
		{"zwj family stays", "xy👨‍👩‍👧z", 9, []string{"xy", "👨‍👩‍👧z"}},
		{"flags are pairs", "🇯🇵🇫🇷🇩🇪", 6, []string{"🇯🇵", "🇫🇷", "🇩🇪"}},
		{"flags pair split at even run", "a🇯🇵🇫🇷", 7, []string{"a🇯🇵", "🇫🇷"}},
		{"combining mark stays", "abce\u0301f", 4, []string{"abc", "e\u0301f"}},
		{"no limit", "abc", 0, []string{"abc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Split(tt.text, tt.limit)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Fatalf("Split(%q, %d) = %q, want %q", tt.text, tt.limit, got, tt.want)
			}
			if tt.limit >= 2 {
				checkParts(t, tt.text, tt.limit, got)
			}
		})
	}
}

// longEmojiText is a reply of about 9,000 characters mixing CJK, ASCII
// sentences, surrogate-pair emoji, ZWJ sequences, skin tones and flags, with
// no line breaks so the splitter must fall back to sentences and clusters.
func longEmojiText() string {
	pieces := []string{
		"今天我们聊了很多。", "That was lovely! ", "👨‍👩‍👧‍👦", "😀", "❤️", "👍🏽",
		"🇯🇵", "e\u0301", "we walked by the river ", "🧑🏾‍🚀", "？", "1️⃣",
	}
	var b strings.Builder
	for i := 0; utf8.RuneCountInString(b.String()) < 9000; i++ {
		b.WriteString(pieces[(i*7)%len(pieces)])
	}
	return b.String()
}

func TestSplitLongEmojiReply(t *testing.T) {
	text := longEmojiText()
	parts := Split(text, MaxMessageUTF16)
	if len(parts) < 3 {
		t.Fatalf("want at least 3 parts for %d units, got %d", utf16Len(text), len(parts))
	}
	checkParts(t, text, MaxMessageUTF16, parts)
	for i, p := range parts[:len(parts)-1] {
		if !clusterBoundary(text, len(strings.Join(parts[:i+1], ""))) {
			t.Errorf("part %d ends inside a grapheme cluster: ...%q", i, p[len(p)-12:])
		}
	}
}

func TestUTF16LenMatchesEncoder(t *testing.T) {
	for _, s := range []string{"", "abc", "😀", "👨‍👩‍👧", "今日は", longEmojiText()} {
		if got, want := utf16Len(s), len(utf16.Encode([]rune(s))); got != want {
			t.Errorf("utf16Len(%q...) = %d, want %d", s[:min(len(s), 8)], got, want)
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("hello world. this is a test\n\nnew paragraph", 7)
	f.Add("👨‍👩‍👧‍👦🇯🇵🇫🇷❤️👍🏽", 3)
	f.Add("今天很好。明天也好", 2)
	f.Add("\xff\xfe invalid", 2)
	f.Fuzz(func(t *testing.T, text string, limit int) {
		if limit < 2 || limit > 1<<16 {
			return
		}
		checkParts(t, text, limit, Split(text, limit))
	})
}

func BenchmarkSplit(b *testing.B) {
	text := longEmojiText()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if parts := Split(text, MaxMessageUTF16); len(parts) < 2 {
			b.Fatal("no split")
		}
	}
}
