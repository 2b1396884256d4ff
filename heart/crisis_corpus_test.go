package heart

import (
	_ "embed"
	"fmt"
	"strings"
	"testing"
)

// The crisis floor is measured on two labelled corpora (issue 12):
// testdata/crisis_corpus.tsv, which the lexicon was tuned on, and
// testdata/crisis_heldout.tsv, written before its authors read the
// lexicon, of which only the first two thirds were ever tuned on.
var (
	//go:embed testdata/crisis_corpus.tsv
	crisisCorpus string
	//go:embed testdata/crisis_heldout.tsv
	crisisHeldOut string
)

// Quality bars on the tuning corpus (issue 12): the floor must find at
// least this share of crises and raise at most this share of false alarms.
const (
	crisisMinRecall      = 0.95
	crisisMaxFalseAlarms = 0.02
	// crisisMinCorpus is how many labelled lines the corpus must keep, so
	// the figures stay meaningful.
	crisisMinCorpus = 400
)

// Bars on the whole held-out corpus: what the floor reached when the
// generalisation work ended (93.0% recall, 1.2% false alarms), less a
// small margin, and never looser than the 90% and 3%.
const (
	crisisHeldOutMinRecall      = 0.91
	crisisHeldOutMaxFalseAlarms = 0.025
	// crisisHeldOutMinLines keeps the held-out corpus as large as the
	// brief asked: 120 crises and 150 hard ordinary lines at least.
	crisisHeldOutMinCrises, crisisHeldOutMinOrdinary = 120, 150
)

// Regression floors on the held-out corpus's final block, which was never
// tuned on: where it stood when the work ended (38/47 recall, 2/56 false
// alarms) with a margin. They catch a change that makes the floor worse on
// text nobody tuned for; they are no target to tune towards.
const (
	crisisFinalMinRecall      = 0.75
	crisisFinalMaxFalseAlarms = 0.05
)

// crisisFinalMarker starts the held-out block that is never tuned on.
const crisisFinalMarker = "# Final block"

type crisisCase struct {
	crisis         bool
	lang, text     string
	category, note string // the held-out corpus's C-SSRS category and comment
	final          bool   // from the held-out corpus's untouched final block
}

// readCrisisCases reads a corpus: LABEL<TAB>LANG<TAB>TEXT, then for the
// held-out corpus <TAB>CATEGORY[<TAB>COMMENT].
func readCrisisCases(t *testing.T, name, data string, columns int) []crisisCase {
	t.Helper()
	var out []crisisCase
	final := false
	for n, line := range strings.Split(data, "\n") {
		if strings.HasPrefix(line, crisisFinalMarker) {
			final = true
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < columns || len(f) > columns+1 || (f[0] != "crisis" && f[0] != "ordinary") || f[2] == "" {
			t.Fatalf("%s line %d: want LABEL<TAB>LANG<TAB>TEXT and %d more columns: %q", name, n+1, columns-3, line)
		}
		c := crisisCase{crisis: f[0] == "crisis", lang: f[1], text: f[2], final: final}
		if columns > 3 {
			c.category = f[3]
		}
		if len(f) > columns {
			c.note = f[columns]
		}
		out = append(out, c)
	}
	return out
}

// crisisTally counts a floor's verdicts on labelled lines.
type crisisTally struct{ crises, caught, ordinary, alarms int }

func (x *crisisTally) add(crisis, got bool) {
	if crisis {
		x.crises++
		if got {
			x.caught++
		}
		return
	}
	x.ordinary++
	if got {
		x.alarms++
	}
}

func (x *crisisTally) recall() float64      { return float64(x.caught) / float64(x.crises) }
func (x *crisisTally) falseAlarms() float64 { return float64(x.alarms) / float64(x.ordinary) }

func (x *crisisTally) String() string {
	return fmt.Sprintf("recall %.1f%% (%d/%d), false alarms %.1f%% (%d/%d)",
		100*x.recall(), x.caught, x.crises, 100*x.falseAlarms(), x.alarms, x.ordinary)
}

// measureCrisisFloor runs the floor over cases, logs every miss and false
// alarm of the cases show allows and the figures per language, and returns
// the tally of all cases.
func measureCrisisFloor(t *testing.T, label string, cases []crisisCase, show func(crisisCase) bool) *crisisTally {
	t.Helper()
	all, by := &crisisTally{}, map[string]*crisisTally{}
	for _, c := range cases {
		got := CrisisFloor(c.text)
		if by[c.lang] == nil {
			by[c.lang] = &crisisTally{}
		}
		all.add(c.crisis, got != CrisisNone)
		by[c.lang].add(c.crisis, got != CrisisNone)
		switch {
		case !show(c):
		case c.crisis && got == CrisisNone:
			t.Logf("%s missed (%s, %s): %q %s", label, c.lang, c.category, c.text, c.note)
		case !c.crisis && got != CrisisNone:
			t.Logf("%s false alarm (%s, %s): %q → %s", label, c.lang, c.category, c.text, got)
		}
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		x := by[lang]
		if x == nil || x.crises == 0 || x.ordinary == 0 {
			t.Fatalf("%s lacks %s crises or ordinary lines", label, lang)
		}
		t.Logf("%s %s: %s", label, lang, x)
	}
	return all
}

// TestCrisisFloorCorpus measures the crisis floor on the corpus it was
// tuned on (testdata/crisis_corpus.tsv, en/zh/ja), logs every miss, false
// alarm and the figures, and holds the bars.
func TestCrisisFloorCorpus(t *testing.T) {
	cases := readCrisisCases(t, "crisis_corpus.tsv", crisisCorpus, 3)
	if len(cases) < crisisMinCorpus {
		t.Fatalf("corpus has %d lines, want at least %d", len(cases), crisisMinCorpus)
	}
	all := measureCrisisFloor(t, "tuning corpus", cases, func(crisisCase) bool { return true })
	// Printed on every run (go test -v shows it; make test's log keeps it on
	// failure), the figures the README quotes.
	t.Logf("crisis floor, tuning corpus: %s", all)
	if all.recall() < crisisMinRecall {
		t.Errorf("recall %.3f < %.2f", all.recall(), crisisMinRecall)
	}
	if all.falseAlarms() > crisisMaxFalseAlarms {
		t.Errorf("false alarms %.3f > %.2f", all.falseAlarms(), crisisMaxFalseAlarms)
	}
}

// TestCrisisFloorHeldOut measures the crisis floor on the held-out corpus
// (testdata/crisis_heldout.tsv): its first two thirds, tuned on, with
// every miss and false alarm logged, and its final block, never tuned on,
// of which only the figures are logged, so that reading a test log cannot
// tune the lexicon to it either.
func TestCrisisFloorHeldOut(t *testing.T) {
	cases := readCrisisCases(t, "crisis_heldout.tsv", crisisHeldOut, 4)
	var tuned, final []crisisCase
	whole := &crisisTally{}
	for _, c := range cases {
		if c.final {
			final = append(final, c)
		} else {
			tuned = append(tuned, c)
		}
		whole.add(c.crisis, false)
	}
	if whole.crises < crisisHeldOutMinCrises || whole.ordinary < crisisHeldOutMinOrdinary {
		t.Fatalf("held-out corpus has %d crises and %d ordinary lines, want %d and %d",
			whole.crises, whole.ordinary, crisisHeldOutMinCrises, crisisHeldOutMinOrdinary)
	}
	if len(final) < len(cases)/4 {
		t.Fatalf("held-out corpus lost its final block (%d of %d lines)", len(final), len(cases))
	}
	a := measureCrisisFloor(t, "held-out (tuned part)", tuned, func(crisisCase) bool { return true })
	b := measureCrisisFloor(t, "held-out (final block)", final, func(crisisCase) bool { return false })
	all := &crisisTally{crises: a.crises + b.crises, caught: a.caught + b.caught, ordinary: a.ordinary + b.ordinary, alarms: a.alarms + b.alarms}
	t.Logf("crisis floor, held-out tuned part: %s", a)
	t.Logf("crisis floor, held-out final block (never tuned on): %s", b)
	t.Logf("crisis floor, held-out corpus: %s", all)
	if all.recall() < crisisHeldOutMinRecall {
		t.Errorf("held-out recall %.3f < %.2f", all.recall(), crisisHeldOutMinRecall)
	}
	if all.falseAlarms() > crisisHeldOutMaxFalseAlarms {
		t.Errorf("held-out false alarms %.3f > %.3f", all.falseAlarms(), crisisHeldOutMaxFalseAlarms)
	}
	if b.recall() < crisisFinalMinRecall {
		t.Errorf("final block recall %.3f < %.2f", b.recall(), crisisFinalMinRecall)
	}
	if b.falseAlarms() > crisisFinalMaxFalseAlarms {
		t.Errorf("final block false alarms %.3f > %.2f", b.falseAlarms(), crisisFinalMaxFalseAlarms)
	}
}
