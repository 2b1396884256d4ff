package bot

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/heart"
	"hearth/store"
)

var update = flag.Bool("update", false, "rewrite the golden files of /why and /me")

// Golden lets the package's external tests use golden (the export_test
// idiom).
var Golden = golden

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// internalName finds words a user must never see: intents (SMALL_TALK),
// signal tags (deep_disclosure), raw labels of the models.
var internalName = regexp.MustCompile(`[A-Z]{2,}_[A-Z]|[a-z]+_[a-z]+|\b(GREETING|APOLOGY|COMPLIMENT|boundary|neutral|joy)\b`)

// TestWhyInPlainWords: /why in en, zh and ja (golden files): the mood, what
// moved it, what lingers and the moment behind it, the relationship, what
// was noticed lately ("you've been under a lot of pressure at work
// lately"), with no internal name anywhere.
func TestWhyInPlainWords(t *testing.T) {
	now := time.Date(2026, 3, 10, 21, 0, 0, 0, time.UTC)
	u := store.User{Mood: 23.4, LastIntents: []string{"GREETING", "SMALL_TALK", "APOLOGY", "SMALL_TALK", "COMPLIMENT"}}
	ling := heart.Lingering{Label: heart.LabelSadness, Intensity: 0.52}
	rel := heart.Relationship{State: heart.Friend}
	ep := func(ago time.Duration, text, label string, tags ...string) store.Episode {
		return store.Episode{At: now.Add(-ago), UserText: text, HasValues: true, Label: label, Intensity: 0.7, Salience: 0.8, Confidence: 0.7, TopicTags: tags}
	}
	eps := []store.Episode{
		ep(50*time.Hour, "my boss wants the report by Friday", "fear", "work"),
		ep(26*time.Hour, "the meeting went badly", "sadness", "work"),
		ep(2*time.Hour, "my boss yelled at me in front of everyone again", "sadness", "work"),
		ep(time.Hour, "hi", "joy"),
	}
	sigs := []store.Signal{{Tag: "deep_disclosure"}, {Tag: "gratitude"}, {Tag: "some_new_tag"}, {Tag: "gratitude"}}
	for _, lang := range []string{"en", "zh", "ja"} {
		got := explainWhy(lang, u, ling, rel, eps, sigs, now)
		if m := internalName.FindString(got); m != "" {
			t.Errorf("%s: /why shows %q:\n%s", lang, m, got)
		}
		golden(t, "why_"+lang+".golden", got+"\n")
	}
	calm := explainWhy("en", store.User{}, heart.Lingering{Label: heart.LabelNeutral}, heart.Relationship{State: heart.Stranger, Watch: true}, nil, nil, now)
	for _, want := range []string{"calm and steady", "settled", "only just met", "gentle eye"} {
		if !strings.Contains(calm, want) {
			t.Errorf("calm /why lacks %q:\n%s", want, calm)
		}
	}
}

// TestHealthLinesSpeakToTheUser: /me's health reminder is written for the
// user, by loneliness band and dependency level, never the model's
// guidance (heart.LonelinessGuidance).
func TestHealthLinesSpeakToTheUser(t *testing.T) {
	if got := healthLines(heart.Relationship{}, "en"); len(got) != 0 {
		t.Errorf("all is well, yet: %q", got)
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, r := range []heart.Relationship{{Loneliness: 35}, {Loneliness: 70}, {Loneliness: 90}, {DependencyLevel: 1}, {DependencyLevel: 3}} {
			got := healthLines(r, lang)
			guidance := append(heart.LonelinessGuidance(r.Loneliness, lang), heart.DependencyGuidance(r.DependencyLevel, lang)...)
			if len(got) != 1 || got[0] == "" {
				t.Fatalf("%s %+v: %q", lang, r, got)
			}
			for _, g := range guidance {
				if got[0] == g {
					t.Errorf("%s %+v: the model's guidance shown to the user: %q", lang, r, g)
				}
			}
		}
	}
}
