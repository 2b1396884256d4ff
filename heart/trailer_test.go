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
		{"follow-ups", `{"follow_ups":[{"about":" the  exam ","due":"2026-03-13"},{"about":"x","due":"Friday"},{"about":"","due":"2026-03-14"},` +
			`{"about":"the exam","due":"2026-03-13"},3,{"about":"面试","due":"2026-03-10"}]}`,
			func(r Reflection) bool {
				return slices.Equal(r.FollowUps, []FollowUp{{About: "the exam", Due: "2026-03-13"}, {About: "面试", Due: "2026-03-10"}})
			}},
		{"at most 3 follow-ups, about cut", `{"follow_ups":[{"about":"` + strings.Repeat("試", 100) + `","due":"2026-01-01"},` +
			`{"about":"b","due":"2026-01-02"},{"about":"c","due":"2026-01-03"},{"about":"d","due":"2026-01-04"}]}`,
			func(r Reflection) bool {
				return len(r.FollowUps) == FollowUpMaxPerTurn && utf8.RuneCountInString(r.FollowUps[0].About) == FollowUpMaxAboutRunes
			}},
		{"follow_ups of the wrong type", `{"follow_ups":{"about":"x"}}`, func(r Reflection) bool { return r.FollowUps == nil }},
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
	for _, k := range []string{TrailerDelimiter, "emotion_label", "emotion_intensity", "salience", "confidence", "topic_tags", "remember", "slot", "content", "scratch", "follow_ups", "about", "due", "YYYY-MM-DD", "joy|sadness|anger|fear|neutral", "Japanese"} {
		if !strings.Contains(s, k) {
			t.Errorf("TrailerInstructions lacks %q", k)
		}
	}
}

func FuzzParseTrailer(f *testing.F) {
	for _, s := range []string{
		`{"emotion_label":"anger","emotion_intensity":0.9,"salience":1,"confidence":1,"topic_tags":["x"],"remember":[{"slot":5,"content":"c"}],"scratch":"s"}`,
		"```\n{\"remember\":[{\"slot\":1e300,\"content\":\"x\"}]}\n```", `{"salience":"NaN"}`, `{`, ``, "{\"scratch\":\"\xff\"}",
		`{"follow_ups":[{"about":"exam","due":"2026-03-13"},{"about":"\u0000","due":"2026-02-30"}]}`,
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
		if len(r.FollowUps) > FollowUpMaxPerTurn {
			t.Fatalf("%d follow-ups", len(r.FollowUps))
		}
		for _, f := range r.FollowUps {
			if _, err := time.Parse(time.DateOnly, f.Due); err != nil || f.About == "" ||
				utf8.RuneCountInString(f.About) > FollowUpMaxAboutRunes || !utf8.ValidString(f.About) {
				t.Fatalf("follow-up %+v", f)
			}
		}
	})
}

// BenchmarkParseTrailer reads a full trailer as a model writes it: every
// turn parses one.
func BenchmarkParseTrailer(b *testing.B) {
	raw := []byte(`{"emotion_label":"joy","emotion_intensity":0.6,"salience":0.7,"confidence":0.9,` +
		`"topic_tags":["exam","sister"],"remember":[{"slot":3,"content":"her sister Mei starts university in Osaka"}],` +
		`"scratch":"cheering her on before the exam","follow_ups":[{"about":"the exam","due":"2026-12-01"}]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseTrailer(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTrailerKeepsHealthInHowToAct: a model is told where a health matter
// goes (seed 004's 20-29, how to act), since 0-9 hold facts of their own
// kinds and "Lily has a peanut allergy" was kept nowhere.
func TestTrailerKeepsHealthInHowToAct(t *testing.T) {
	if !strings.Contains(trailerInstructSlots, "20-29 how to treat them (an allergy") {
		t.Fatalf("trailer slots: %q", trailerInstructSlots)
	}
}
