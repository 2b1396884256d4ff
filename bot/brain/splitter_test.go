package brain

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// splitAll runs text through a Splitter in the given chunks and returns the
// emitted pieces and Close's results.
func splitAll(chunks []string) (emitted []string, visible, trailer string) {
	sp := NewSplitter(func(s string) { emitted = append(emitted, s) })
	for _, c := range chunks {
		sp.Write(c)
	}
	visible, trailer = sp.Close()
	return emitted, visible, trailer
}

func TestSplitterCases(t *testing.T) {
	tests := []struct {
		name            string
		chunks          []string
		visible, trailr string
	}{
		{"no delimiter", []string{"Hello ", "world"}, "Hello world", ""},
		{"delimiter whole", []string{"Hi!\n" + Delimiter + "\n{\"a\":1}"}, "Hi!", `{"a":1}`},
		{"delimiter split per byte", append(append([]string{"Hi there"}, strings.Split("\n"+Delimiter, "")...), `{"a":1}`), "Hi there", `{"a":1}`},
		{"delimiter split mid", []string{"ok <<<HEART", "H_KAIRO_JS", "ON_v1>>> {\"x\":\"}\"}"}, "ok", `{"x":"}"}`},
		{"partial prefix never completes", []string{"a <<<HEARTH_", "KAIRO"}, "a <<<HEARTH_KAIRO", ""},
		{"prefix at end of stream", []string{"look <<<"}, "look <<<", ""},
		{"garbage after json", []string{"x" + Delimiter + "```json\n{\"a\":{\"b\":2}}\n```\nthanks"}, "x", `{"a":{"b":2}}`},
		{"only first delimiter counts", []string{"v" + Delimiter + `{"a":"` + Delimiter + `"}`}, "v", `{"a":"` + Delimiter + `"}`},
		{"no json after delimiter", []string{"v" + Delimiter + "  not json  "}, "v", "not json"},
		{"empty trailer", []string{"v" + Delimiter}, "v", ""},
		{"trailing whitespace trimmed", []string{"hello  \n\n", "  "}, "hello", ""},
		{"cjk split runes", []string{"你好\xe4", "\xb8\x96界" + Delimiter + "{}"}, "你好世界", "{}"},
		{"escaped quote in json", []string{"a" + Delimiter + `{"s":"q\"}"} tail`}, "a", `{"s":"q\"}"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emitted, visible, trailer := splitAll(tt.chunks)
			if visible != tt.visible {
				t.Errorf("visible = %q, want %q", visible, tt.visible)
			}
			if trailer != tt.trailr {
				t.Errorf("trailer = %q, want %q", trailer, tt.trailr)
			}
			if got := strings.Join(emitted, ""); got != visible {
				t.Errorf("emitted %q != visible %q", got, visible)
			}
			for _, e := range emitted {
				if !utf8.ValidString(e) {
					t.Errorf("emitted invalid UTF-8 chunk %q", e)
				}
			}
		})
	}
}

func TestSplitterEmitsEarly(t *testing.T) {
	// Text that cannot be part of the delimiter must reach the user at once,
	// not at Close: that is the point of streaming.
	var got []string
	sp := NewSplitter(func(s string) { got = append(got, s) })
	sp.Write("Hello, ")
	sp.Write("world")
	if strings.Join(got, "") != "Hello, world" {
		t.Fatalf("before Close emitted %q, want all of it", got)
	}
	sp.Write(" <<<HEA")
	if strings.Join(got, "") != "Hello, world" {
		t.Fatalf("emitted a delimiter prefix: %q", got)
	}
	sp.Write("RT")
	sp.Write("H is not it")
	if j := strings.Join(got, ""); j != "Hello, world <<<HEARTH is not it" {
		t.Fatalf("held-back false prefix not released: %q", j)
	}
}

// randomReply builds a reply from pieces that stress the splitter: parts of
// the delimiter, whitespace, CJK and JSON with braces in strings.
func randomReply(r *rand.Rand) (text string, wantVisible string, wantTrailer string) {
	pieces := []string{"hi", " ", "\n", "<", "<<<", "<<<HEARTH", "<<<HEARTH_KAIRO_JSON_v1>", ">>>", "你好", "こんにちは", "😊", "{", "}", "\"", "JSON", "\t", "a b c", "\u3000"}
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	vis := b.String()
	if strings.Contains(vis, Delimiter) {
		vis = strings.ReplaceAll(vis, Delimiter, "")
	}
	// Removing one delimiter can create another; avoid that case.
	if strings.Contains(vis, Delimiter) {
		vis = "plain"
	}
	if r.IntN(4) == 0 {
		return vis, strings.TrimRight(strings.TrimRightFunc(vis, isSpace), ""), ""
	}
	obj := map[string]any{"emotion_label": "joy", "topic_tags": []string{"{x}", "\"q\""}, "n": r.IntN(100)}
	js, _ := json.Marshal(obj)
	garbage := []string{"", "\n", "\n```", " trailing words {"}[r.IntN(4)]
	return vis + "\n" + Delimiter + "\n" + string(js) + garbage, strings.TrimRightFunc(vis, isSpace), string(js)
}

func isSpace(r rune) bool {
	return strings.ContainsRune(" \t\n\r\v\f\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000", r)
}

// randomChunks cuts s at random byte offsets (possibly mid-rune).
func randomChunks(r *rand.Rand, s string) []string {
	var out []string
	for len(s) > 0 {
		n := 1 + r.IntN(min(len(s), 9))
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func TestSplitterChunkingInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		text, wantVis, wantTr := randomReply(r)
		_, v1, t1 := splitAll([]string{text})
		if v1 != wantVis || t1 != wantTr {
			t.Fatalf("case %d %q: unchunked = (%q, %q), want (%q, %q)", i, text, v1, t1, wantVis, wantTr)
		}
		emitted, v2, t2 := splitAll(randomChunks(r, text))
		if v2 != v1 || t2 != t1 {
			t.Fatalf("case %d %q: chunked = (%q, %q), unchunked (%q, %q)", i, text, v2, t2, v1, t1)
		}
		joined := strings.Join(emitted, "")
		if joined != v2 {
			t.Fatalf("case %d: emitted %q != visible %q", i, joined, v2)
		}
		if strings.Contains(joined, Delimiter) || (wantTr != "" && strings.Contains(joined, wantTr)) {
			t.Fatalf("case %d: trailer leaked into %q", i, joined)
		}
		for _, e := range emitted {
			if !utf8.ValidString(e) {
				t.Fatalf("case %d: emitted split rune %q", i, e)
			}
		}
	}
}

func FuzzSplitter(f *testing.F) {
	f.Add("Hello\n"+Delimiter+"\n{\"a\":1}", uint64(3))
	f.Add("你好<<<HEARTH_KAIRO", uint64(7))
	f.Add("<<<<<<HEARTH_KAIRO_JSON_v1>>>>{}", uint64(1))
	f.Add("a\xe4\xb8", uint64(2))
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		_, v1, t1 := splitAll([]string{text})
		r := rand.New(rand.NewPCG(seed, seed>>1))
		emitted, v2, t2 := splitAll(randomChunks(r, text))
		if v1 != v2 || t1 != t2 {
			t.Fatalf("chunking changed result: (%q,%q) vs (%q,%q)", v1, t1, v2, t2)
		}
		joined := strings.Join(emitted, "")
		if joined != v2 {
			t.Fatalf("emitted %q != visible %q", joined, v2)
		}
		if strings.Contains(joined, Delimiter) {
			t.Fatalf("delimiter emitted: %q", joined)
		}
		if i := strings.Index(text, Delimiter); i >= 0 && !strings.HasPrefix(text, joined) {
			t.Fatalf("emitted %q is not text before the delimiter of %q", joined, text)
		}
		if utf8.ValidString(text) {
			for _, e := range emitted {
				if !utf8.ValidString(e) {
					t.Fatalf("split a rune: %q", e)
				}
			}
		}
	})
}

func BenchmarkSplitter(b *testing.B) {
	reply := strings.Repeat("I'm glad you told me about your day. 今天也辛苦了。", 8) +
		"\n" + Delimiter + "\n" + `{"emotion_label":"joy","emotion_intensity":0.5,"salience":0.4,"confidence":0.6,"topic_tags":["work"],"remember":[],"scratch":""}`
	// Tokens of a typical stream are a few bytes each.
	var chunks []string
	for s := reply; len(s) > 0; {
		n := min(len(s), 4)
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		chunks = append(chunks, s[:n])
		s = s[n:]
	}
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		sp := NewSplitter(func(string) {})
		for _, c := range chunks {
			sp.Write(c)
		}
		sp.Close()
	}
}
