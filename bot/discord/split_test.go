package discord

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	para := strings.Repeat("a", 6) + "\n\n" + strings.Repeat("b", 6)
	tests := []struct {
		name  string
		text  string
		limit int
		want  []string
	}{
		{"empty", "", 10, nil},
		{"fits", "hello", 10, []string{"hello"}},
		{"exactly the limit", "hello", 5, []string{"hello"}},
		{"paragraph first", para, 10, []string{"aaaaaa\n\n", "bbbbbb"}},
		{"line before sentence", "one. two\nthree four", 12, []string{"one. two\n", "three four"}},
		{"sentence before space", "aaaa bbbb. cccc dd", 14, []string{"aaaa bbbb. ", "cccc dd"}},
		{"cjk sentence", "今日は晴れ。明日は雨です", 8, []string{"今日は晴れ。", "明日は雨です"}},
		{"space before rune", "aaaa bbbb cccc", 12, []string{"aaaa bbbb ", "cccc"}},
		{"rune when no boundary", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"early boundary ignored", "a\n" + strings.Repeat("x", 10), 8, []string{"a\nxxxxxx", "xxxx"}},
		{"counts runes not bytes", "ééééé", 2, []string{"éé", "éé", "é"}},
		{"combining mark stays", "abcde\u0301fg", 5, []string{"abcd", "e\u0301fg"}},
		{"zwj family stays", "ab👩\u200d👧cd", 4, []string{"ab", "👩\u200d👧c", "d"}},
		{"skin tone stays", "abc👋🏽d", 4, []string{"abc", "👋🏽d"}},
		{"flag pairs stay", "a🇯🇵🇫🇷", 4, []string{"a🇯🇵", "🇫🇷"}},
		{"crlf stays", "abc\r\ndef", 4, []string{"abc", "\r\nde", "f"}},
		{"oversized cluster cut", "e\u0301\u0301\u0301\u0301", 2, []string{"e\u0301", "\u0301\u0301", "\u0301"}},
		{"limit below one", "abc", 0, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Split(tt.text, tt.limit)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("Split(%q, %d) = %q, want %q", tt.text, tt.limit, got, tt.want)
			}
			checkSplit(t, tt.text, max(tt.limit, 1), got)
		})
	}
}

// checkSplit asserts the two promises every split keeps: lossless, and no
// part longer than limit.
func checkSplit(t *testing.T, text string, limit int, parts []string) {
	t.Helper()
	if strings.Join(parts, "") != text {
		t.Fatalf("parts %q do not rejoin to %q", parts, text)
	}
	for _, p := range parts {
		if p == "" {
			t.Fatalf("empty part in %q", parts)
		}
		if n := utf8.RuneCountInString(p); n > limit {
			t.Fatalf("part %q has %d runes, limit %d", p, n, limit)
		}
	}
}

func TestSplitLongReplyNeverBreaksClusters(t *testing.T) {
	text := longReply()
	parts := Split(text, MessageLimit)
	checkSplit(t, text, MessageLimit, parts)
	for i := 1; i < len(parts); i++ {
		cut := len(strings.Join(parts[:i], ""))
		if !safeBoundary(text, cut) {
			t.Errorf("part %d starts inside a grapheme cluster: %q", i, parts[i][:12])
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("hello world. how are you?\n\nfine", 7)
	f.Add("👩\u200d👩\u200d👧🇯🇵🇯🇵e\u0301", 2)
	f.Add(strings.Repeat("今日は。", 40), 9)
	f.Add("\xff\xfe broken utf8", 3)
	f.Fuzz(func(t *testing.T, text string, limit int) {
		limit = limit%64 + 1
		if limit < 1 {
			limit = -limit + 1
		}
		checkSplit(t, text, limit, Split(text, limit))
	})
}

func BenchmarkSplit(b *testing.B) {
	text := longReply()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Split(text, MessageLimit)
	}
}
