package heart

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestSplitTrailer: the reply is cut at the first delimiter (seed 002
// "最初に出現した区切りで分離する").
func TestSplitTrailer(t *testing.T) {
	tests := []struct {
		name, in, reply, trailer string
		found                    bool
	}{
		{"002 reply then trailer", "Hello!\n" + TrailerDelimiter + "\n{\"emotion_label\":\"joy\"}", "Hello!", "\n{\"emotion_label\":\"joy\"}", true},
		{"002 first delimiter wins", "a" + TrailerDelimiter + "b" + TrailerDelimiter + "c", "a", "b" + TrailerDelimiter + "c", true},
		{"002 no trailer: the whole text is the reply", "just text", "just text", "", false},
		{"delimiter at the start", TrailerDelimiter + "{}", "", "{}", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, tr, f := SplitTrailer(tc.in)
			if r != tc.reply || tr != tc.trailer || f != tc.found {
				t.Fatalf("%s: SplitTrailer(%q) = %q %q %v", seed002, tc.in, r, tr, f)
			}
			if strings.Contains(r, TrailerDelimiter) {
				t.Fatal("delimiter leaked into the reply")
			}
		})
	}
}

// TestParseTrailer covers validation and bounds of DESIGN §3 step 8.
func TestParseTrailer(t *testing.T) {
	full := `{"emotion_label":"Joy","emotion_intensity":0.7,"salience":0.4,"confidence":0.9,` +
		`"topic_tags":["cats"," work ","cats",""],"remember":[{"slot":0,"content":"Has a cat named Miso"},{"slot":20,"content":"likes gentle teasing"}],"scratch":"planning her trip"}`
	r, err := ParseTrailer([]byte("\n```json\n" + full + "\n```"))
	if err != nil {
		t.Fatal(err)
	}
	want := Reflection{Label: LabelJoy, Intensity: 0.7, Salience: 0.4, Confidence: 0.9,
		TopicTags:  []string{"cats", "work"},
		Remember:   []MemoryWrite{{0, "Has a cat named Miso"}, {20, "likes gentle teasing"}},
		Scratch:    "planning her trip",
		HasScratch: true,
		HasValues:  true}
	if fmt.Sprint(r) != fmt.Sprint(want) {
		t.Fatalf("got %+v\nwant %+v", r, want)
	}
	now := time.Unix(1e9, 0)
	if ep := r.Episode(now); ep.Label != LabelJoy || ep.Salience != 0.4 || !ep.At.Equal(now) {
		t.Fatalf("Episode: %+v", ep)
	}

	tests := []struct {
		name  string
		raw   string
		check func(Reflection) bool
	}{
		{"unknown label → neutral, no values", `{"emotion_label":"love"}`, func(r Reflection) bool { return r.Label == LabelNeutral && !r.HasValues }},
		{"explicit neutral has values", `{"emotion_label":"neutral"}`, func(r Reflection) bool { return r.Label == LabelNeutral && r.HasValues }},
		{"no label: no values", `{"remember":[{"slot":1,"content":"x"}]}`, func(r Reflection) bool { return !r.HasValues && len(r.Remember) == 1 }},
		{"numbers clamped", `{"emotion_intensity":3,"salience":-1,"confidence":"0.5"}`, func(r Reflection) bool {
			return r.Intensity == 1 && r.Salience == 0 && r.Confidence == 0.5
		}},
		{"slot out of range dropped", `{"remember":[{"slot":100,"content":"x"},{"slot":-1,"content":"y"},{"slot":1.5,"content":"z"},{"slot":99,"content":"ok"}]}`,
			func(r Reflection) bool { return slices.Equal(r.Remember, []MemoryWrite{{99, "ok"}}) }},
		{"blank content dropped", `{"remember":[{"slot":3,"content":"  "},{"slot":4}]}`, func(r Reflection) bool { return len(r.Remember) == 0 }},
		{"at most 5 writes", `{"remember":[` + strings.TrimSuffix(strings.Repeat(`{"slot":1,"content":"a"},{"slot":2,"content":"b"},{"slot":3,"content":"c"},{"slot":4,"content":"d"},{"slot":5,"content":"e"},{"slot":6,"content":"f"},`, 1), ",") + `]}`,
			func(r Reflection) bool { return len(r.Remember) == TrailerMaxRemember && r.Remember[4].Slot == 5 }},
		{"same slot twice: last wins", `{"remember":[{"slot":7,"content":"old"},{"slot":7,"content":"new"}]}`,
			func(r Reflection) bool { return slices.Equal(r.Remember, []MemoryWrite{{7, "new"}}) }},
		{"content cut to 500 runes", `{"remember":[{"slot":1,"content":"` + strings.Repeat("猫", 600) + `"}]}`,
			func(r Reflection) bool { return utf8.RuneCountInString(r.Remember[0].Content) == TrailerMaxContent }},
		{"at most 8 tags", `{"topic_tags":["a","b","c","d","e","f","g","h","i","j"]}`, func(r Reflection) bool { return len(r.TopicTags) == TrailerMaxTopicTags }},
		{"non-string tags skipped", `{"topic_tags":[1,"x",null]}`, func(r Reflection) bool { return slices.Equal(r.TopicTags, []string{"x"}) }},
		{"scratch cut to 500 runes", `{"scratch":"` + strings.Repeat("x", 900) + `"}`, func(r Reflection) bool { return len(r.Scratch) == TrailerMaxScratch && r.HasScratch }},
		{"no scratch key keeps the note", `{"emotion_label":"joy"}`, func(r Reflection) bool { return !r.HasScratch }},
		{"empty scratch clears the note", `{"scratch":""}`, func(r Reflection) bool { return r.HasScratch && r.Scratch == "" }},
		{"wrong types ignored", `{"remember":"slot 1","topic_tags":"cats","emotion_label":5}`, func(r Reflection) bool {
			return r.Remember == nil && r.TopicTags == nil && r.Label == LabelNeutral
		}},
		{"remember with a non-object entry", `{"remember":[1,{"slot":2,"content":"b"}]}`, func(r Reflection) bool { return len(r.Remember) == 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseTrailer([]byte(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(r) {
				t.Fatalf("ParseTrailer(%.80q) = %+v", tc.raw, r)
			}
		})
	}
	for _, raw := range []string{"", "no json", "[1,2]", "{broken"} {
		if _, err := ParseTrailer([]byte(raw)); err == nil {
			t.Errorf("ParseTrailer(%q): no error", raw)
		}
	}
}

// TestTrailerInstructions: the prompt section names the delimiter and every
// key ParseTrailer reads.
func TestTrailerInstructions(t *testing.T) {
	s := TrailerInstructions("ja")
	for _, k := range []string{TrailerDelimiter, "emotion_label", "emotion_intensity", "salience", "confidence", "topic_tags", "remember", "slot", "content", "scratch", "joy|sadness|anger|fear|neutral", "Japanese"} {
		if !strings.Contains(s, k) {
			t.Errorf("TrailerInstructions lacks %q", k)
		}
	}
}

func FuzzParseTrailer(f *testing.F) {
	for _, s := range []string{
		`{"emotion_label":"anger","emotion_intensity":0.9,"salience":1,"confidence":1,"topic_tags":["x"],"remember":[{"slot":5,"content":"c"}],"scratch":"s"}`,
		"```\n{\"remember\":[{\"slot\":1e300,\"content\":\"x\"}]}\n```", `{"salience":"NaN"}`, `{`, ``, "{\"scratch\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := ParseTrailer(raw)
		if err != nil {
			return
		}
		if !r.Label.Known() {
			t.Fatalf("label %q", r.Label)
		}
		for _, x := range []float64{r.Intensity, r.Salience, r.Confidence} {
			if math.IsNaN(x) || x < 0 || x > 1 {
				t.Fatalf("value %v", x)
			}
		}
		if len(r.TopicTags) > TrailerMaxTopicTags || len(r.Remember) > TrailerMaxRemember {
			t.Fatalf("too many: %+v", r)
		}
		for _, w := range r.Remember {
			if w.Slot < MemorySlotMin || w.Slot > MemorySlotMax || w.Content == "" || utf8.RuneCountInString(w.Content) > TrailerMaxContent || !utf8.ValidString(w.Content) {
				t.Fatalf("write %+v", w)
			}
		}
		if utf8.RuneCountInString(r.Scratch) > TrailerMaxScratch || !utf8.ValidString(r.Scratch) {
			t.Fatalf("scratch %q", r.Scratch)
		}
	})
}

func FuzzSplitTrailer(f *testing.F) {
	f.Add("hi\n" + TrailerDelimiter + "\n{}")
	f.Add("<<<HEARTH_KAIRO_JSON_v1>>")
	f.Fuzz(func(t *testing.T, s string) {
		r, tr, found := SplitTrailer(s)
		if strings.Contains(r, TrailerDelimiter) {
			t.Fatalf("delimiter in reply: %q", r)
		}
		if found != strings.Contains(s, TrailerDelimiter) || (!found && (r != s || tr != "")) {
			t.Fatalf("SplitTrailer(%q) = %q %q %v", s, r, tr, found)
		}
	})
}

// TestTrailerCutter: streamed in any chunking, the user sees exactly what
// SplitTrailer would show and never a byte of the delimiter or trailer.
func TestTrailerCutter(t *testing.T) {
	full := "Hello, 你好!\n" + TrailerDelimiter + "\n{\"emotion_label\":\"joy\"}"
	for size := 1; size <= len(full); size++ {
		var c TrailerCutter
		var seen strings.Builder
		for i := 0; i < len(full); i += size {
			v := c.Write(full[i:min(i+size, len(full))])
			if strings.Contains(v, "<") || strings.Contains(v, "emotion") {
				t.Fatalf("chunk size %d leaked %q", size, v)
			}
			seen.WriteString(v)
		}
		seen.WriteString(c.Close())
		tr, found := c.Trailer()
		if seen.String() != "Hello, 你好!\n" || tr != "\n{\"emotion_label\":\"joy\"}" || !found {
			t.Fatalf("chunk size %d: visible %q trailer %q %v", size, seen.String(), tr, found)
		}
	}
	var c TrailerCutter
	v := c.Write("a <<<HEARTH") + c.Write(" not a delimiter <<") + c.Close()
	if v != "a <<<HEARTH not a delimiter <<" {
		t.Fatalf("held text lost: %q", v)
	}
	if _, found := c.Trailer(); found {
		t.Fatal("found a delimiter that was not there")
	}
}

func FuzzTrailerCutter(f *testing.F) {
	f.Add("hi\n"+TrailerDelimiter+"\n{}", uint8(3))
	f.Add("<<<<HEARTH_KAIRO_JSON_v1>>><<<", uint8(1))
	f.Fuzz(func(t *testing.T, s string, size uint8) {
		n := int(size%16) + 1
		var c TrailerCutter
		var seen strings.Builder
		for i := 0; i < len(s); i += n {
			seen.WriteString(c.Write(s[i:min(i+n, len(s))]))
		}
		seen.WriteString(c.Close())
		tr, found := c.Trailer()
		i := strings.Index(s, TrailerDelimiter)
		wantVisible, wantTrailer := s, ""
		if i >= 0 {
			wantVisible, wantTrailer = s[:i], s[i+len(TrailerDelimiter):]
		}
		if seen.String() != wantVisible || tr != wantTrailer || found != (i >= 0) {
			t.Fatalf("chunk %d of %q: visible %q trailer %q found %v", n, s, seen.String(), tr, found)
		}
	})
}
