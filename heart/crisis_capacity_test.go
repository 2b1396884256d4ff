package heart

import (
	"fmt"
	"strings"
	"testing"
)

// TestCrisisLexiconHasRoomForMoreSets: the named sets are not bounded by a
// constant. A lexicon with several times the sets of data/crisis.txt
// parses, and rules, downgrades and talk rules over its last sets, past any
// fixed bitmap the floor has had, read as they do over its first.
func TestCrisisLexiconHasRoomForMoreSets(t *testing.T) {
	var b strings.Builder
	b.WriteString("[ideation]\nen: kill myself\nzh: 自杀\n")
	const n = 2000
	for i := range n {
		fmt.Fprintf(&b, "[set s%d]\nen: %s\n", i, setWordOf(i))
	}
	last, prev := fmt.Sprintf("s%d", n-1), fmt.Sprintf("s%d", n-2)
	fmt.Fprintf(&b, "[plan]\nall: s0 %s !%s\n", last, prev)
	fmt.Fprintf(&b, "[concern]\nall: s1 %s\n", last)
	l, err := parseCrisisLexicon(b.String())
	if err != nil {
		t.Fatalf("a lexicon of %d sets: %v", n, err)
	}
	if len(l.sets) != n || l.setWords*64 < n {
		t.Fatalf("%d sets in %d words, want %d sets and room for them", len(l.sets), l.setWords, n)
	}
	for _, c := range []struct {
		text string
		want CrisisCategory
	}{
		{setWordOf(0) + " and " + setWordOf(n-1), CrisisPlan},
		{setWordOf(0) + " and " + setWordOf(n-1) + " and " + setWordOf(n-2), CrisisNone},
		{setWordOf(1) + " and " + setWordOf(n-1), CrisisConcern},
		{setWordOf(n-1) + " alone", CrisisNone},
	} {
		r := l.reading(c.text)
		if got := r.AtRisk(); got != c.want {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
		if !r.sets.has(n - 1) {
			t.Errorf("%q: the last set did not match", c.text)
		}
	}
}

// setWordOf is a word of letters only, one for each i below 26³, that
// the floor reads as written (no digits, no runs of a letter).
func setWordOf(i int) string {
	return fmt.Sprintf("q%cx%cy%c", 'a'+i/676%26, 'a'+i/26%26, 'a'+i%26)
}

// TestSetMaskIsSparse: a rule's sets keep only the words they are in, in
// order, and test a message's sets as the dense bits would.
func TestSetMaskIsSparse(t *testing.T) {
	var m setMask
	for _, i := range []int{700, 3, 64, 5, 130, 701} {
		m = m.with(i)
	}
	want := setMask{{0, 1<<3 | 1<<5}, {1, 1}, {2, 1 << 2}, {10, 1<<60 | 1<<61}}
	if fmt.Sprint(m) != fmt.Sprint(want) {
		t.Fatalf("mask %v, want %v", m, want)
	}
	b := make(setBits, 11)
	for _, i := range []int{3, 5, 64, 130, 700} {
		b.add(i)
	}
	if b.all(m) || !b.any(m) {
		t.Errorf("all of %v without 701, or none", m)
	}
	b.add(701)
	if !b.all(m) {
		t.Errorf("not all of %v with every set", m)
	}
	if setBits(nil).any(m) || setBits(nil).all(m) || setBits(nil).has(3) {
		t.Errorf("an empty reading holds a set")
	}
	if o := b[:1].or(setBits{0, 1 << 9}); !o.has(73) || !o.has(3) || b.has(73) {
		t.Errorf("or: %v from %v", o, b)
	}
}
