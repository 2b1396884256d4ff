package brain

import (
	"os"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestPatternNeeds: the literals a pattern is said to need are ones every
// match contains; a pattern whose needs cannot be told is always tried.
func TestPatternNeeds(t *testing.T) {
	for _, tt := range []struct {
		re   string
		want []string
	}{
		{`岁`, []string{"岁"}},
		{`(\d+)[岁歳]`, []string{"岁", "歳"}},
		{`my (?:cat|dog) (\w+)`, []string{"my "}},
		{`(?:cat|dog)s? named (\w+)`, []string{" named "}},
		{`(?i)\bmy cat\b`, []string{foldMark + "my cat"}}, // case-folded: found in any case
		{`(?i)straße`, nil},                               // case-folded beyond ASCII: cannot say
		{`(?:a|b*)c?`, nil},                               // a branch needs nothing
		{`[^和跟与]她`, []string{"她"}},                        // a negated class is no literal
		{`\p{Han}{2}`, nil},                               // a range, not a few runes
		{`(?:要结婚|结婚了|订婚)`, []string{"要结婚", "结婚了", "订婚"}}, // every branch's
	} {
		p, err := newPattern(tt.re)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.needs, tt.want) {
			t.Errorf("needs(%q) = %q, want %q", tt.re, p.needs, tt.want)
		}
	}
}

// TestFoldedNeeds: a case-insensitive pattern's literal is looked for in
// any ASCII case, and a text with a rune (?i) folds to ASCII (the Kelvin
// sign, the long s) is always tried.
func TestFoldedNeeds(t *testing.T) {
	p, err := newPattern(`(?i)\bmy (?:wife|husband) passed\b`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		text string
		may  bool
	}{
		{"my wife Ruth passed in January", true}, // " passed" in any case
		{"MY HUSBAND PASSED", true},
		{"My Wife PaSsEd", true},
		{"the weather is nice", false},
		{"my wife pa\u017f\u017fed", true}, // ſ folds to s
	} {
		if got := p.may(tt.text); got != tt.may {
			t.Errorf("may(%q) = %v, want %v (needs %q)", tt.text, got, tt.may, p.needs)
		}
		if p.MatchString(tt.text) && !p.may(tt.text) {
			t.Errorf("%q matches but the prefilter skips it", tt.text)
		}
	}
}

// TestPatternPrefilterNeverHidesAMatch: for every pattern of the offline
// brain's data and every message of the corpus, a text the pattern
// matches is one the prefilter lets through.
func TestPatternPrefilterNeverHidesAMatch(t *testing.T) {
	all := allPatterns(NewOffline().loaded())
	raw, err := os.ReadFile("testdata/corpus.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	matched := 0
	for _, c := range cases {
		for _, text := range append([]string{c.Text}, c.Before...) {
			for _, p := range all {
				if p.MatchString(text) {
					matched++
					if !p.may(text) {
						t.Errorf("%q matches %q, but its prefilter (needs %q) skips it", p.String(), text, p.needs)
					}
				}
			}
		}
	}
	if matched == 0 {
		t.Fatal("no pattern matched any corpus message; the test checks nothing")
	}
}

// FuzzPatternPrefilter: whatever the text, a match is never filtered out.
func FuzzPatternPrefilter(f *testing.F) {
	for _, s := range []string{"my cat Miso", "小雨今年三岁了", "ミソは12歳", "I'm flying to Tokyo next month", ""} {
		f.Add(s)
	}
	all := allPatterns(NewOffline().loaded())
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range all {
			if p.MatchString(text) && !p.may(text) {
				t.Fatalf("%q matches %q, but its prefilter (needs %q) skips it", p.String(), text, p.needs)
			}
		}
	})
}

// allPatterns is every prefiltered pattern of the offline brain's data.
func allPatterns(k *knowledge) []pattern {
	var all []pattern
	for _, s := range k.sits {
		all = append(all, s.res...)
	}
	for _, f := range k.facts {
		all = append(all, f.res...)
	}
	return append(append(append(all, k.durations...), k.about...), k.subjects...)
}

// TestSituationNamesAreUnique: phrases, replaces and mourned find a
// situation by its name, so two of one name would answer with one's words
// and the other's keywords (two branches once each wrote a "bullied").
func TestSituationNamesAreUnique(t *testing.T) {
	k := &knowledge{sits: []situation{
		{Name: "bullied", Kind: kindContent, Ask: askNever, Feel: feel{Label: "sadness"}},
		{Name: "bullied", Kind: kindContent, Ask: askNever, Feel: feel{Label: "sadness"}},
	}}
	if err := k.compileSituations(); err == nil {
		t.Fatal("two situations named bullied compiled")
	}
}
