package brain

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"hearth/heart"
)

// What the user says now that ties to something they told before
// (recall.yaml, the recall round's own tables): a plan that meets a fear,
// progress toward a goal, a hobby practised, news about a health matter
// told; and good news that is someone else's, not the user's.

// recallFile is recall.yaml.
type recallFile struct {
	FearMeets []fearMeet `yaml:"fear_meets"`
	CareMeets []careMeet `yaml:"care_meets"`
	Ahead     []string   `yaml:"ahead"`
	Links     []link     `yaml:"links"`
	Contrasts []contrast `yaml:"contrasts"` // offline_contrast.go
}

// fearMeet is one row of recall.yaml fear_meets.
type fearMeet struct {
	Fears []string `yaml:"fears"`
	MetBy []string `yaml:"met_by"`

	metBy *heart.PhraseSet
}

// careMeet is one row of recall.yaml care_meets: a moment (a party with
// snacks, a restaurant) that meets a health matter kept (facts.yaml kind
// Kind, a care kind), and what she says then (phrase key Say).
type careMeet struct {
	Kind  string   `yaml:"kind"`
	What  []string `yaml:"what"` // the kept values it is about (a food allergen); none: any
	MetBy []string `yaml:"met_by"`
	Say   string   `yaml:"say"`

	metBy *heart.PhraseSet
}

// link is one row of recall.yaml links.
type link struct {
	Told  []string `yaml:"told"`
	After []string `yaml:"after"`
	Now   []string `yaml:"now"`
	Say   string   `yaml:"say"`
	// Leads: what she says is the answer, whatever else the
	// message reads as ("老王回家了" after 老王住院了 is his homecoming,
	// never "欢迎回家！" to the user).
	Leads bool `yaml:"leads"`

	told *heart.PhraseSet
	now  []pattern
}

// recallData is recall.yaml compiled.
type recallData struct {
	fearMeets []fearMeet
	careMeets []careMeet
	ahead     *heart.PhraseSet
	links     []link
	contrasts []contrast
}

// compileRecall checks and indexes recall.yaml: every link's phrase key
// and situations exist, its patterns compile.
func (k *knowledge) compileRecall(r recallFile) error {
	d := &recallData{ahead: heart.NewPhraseSet(r.Ahead), fearMeets: r.FearMeets, careMeets: r.CareMeets, links: r.Links}
	for i := range d.careMeets {
		c := &d.careMeets[i]
		if !slices.ContainsFunc(k.facts, func(f factKind) bool { return f.Kind == c.Kind && f.Care }) {
			return fmt.Errorf("recall.yaml care_meets %d: %q is no care kind of facts.yaml", i, c.Kind)
		}
		if _, ok := k.book[c.Say]; !ok || len(c.MetBy) == 0 {
			return fmt.Errorf("recall.yaml care_meets %d: needs met_by and phrases %q", i, c.Say)
		}
		c.metBy = heart.NewPhraseSet(c.MetBy)
	}
	for i := range d.fearMeets {
		f := &d.fearMeets[i]
		if len(f.Fears) == 0 || len(f.MetBy) == 0 {
			return fmt.Errorf("recall.yaml fear_meets %d: needs fears and met_by", i)
		}
		f.metBy = heart.NewPhraseSet(f.MetBy)
	}
	for i := range d.links {
		l := &d.links[i]
		if _, ok := k.book[l.Say]; !ok {
			return fmt.Errorf("recall.yaml links %d: no phrases %q", i, l.Say)
		}
		for _, s := range l.After {
			if !slices.ContainsFunc(k.sits, func(x situation) bool { return x.Name == s }) {
				return fmt.Errorf("recall.yaml links %d: no situation %q", i, s)
			}
		}
		if len(l.Told) == 0 || len(l.Now) == 0 {
			return fmt.Errorf("recall.yaml links %d: needs told and now", i)
		}
		l.told = heart.NewPhraseSet(l.Told)
		var err error
		if l.now, err = compileAll(l.Now, ""); err != nil {
			return fmt.Errorf("recall.yaml links %d: %w", i, err)
		}
	}
	if err := k.compileContrasts(d, r.Contrasts); err != nil {
		return err
	}
	k.recall = d
	return nil
}

// fearMetBy reports whether text meets the kept fear feared by
// recall.yaml fear_meets: "hiking up a mountain" a fear of heights.
func (k *knowledge) fearMetBy(feared, text string) bool {
	feared = strings.ToLower(strings.TrimSpace(feared))
	for _, f := range k.recall.fearMeets {
		if slices.ContainsFunc(f.Fears, func(w string) bool {
			w = strings.ToLower(w)
			return w == feared || len([]rune(w)) >= 2 && strings.Contains(feared, w)
		}) && f.metBy.Has(text) {
			return true
		}
	}
	return false
}

// careMet is what she says when the message meets a health matter kept
// (recall.yaml care_meets): a birthday party with snacks, or dinner out,
// for someone whose daughter has a peanut allergy ("With Lily's peanut
// allergy, it might be worth asking what's in the snacks."); "" when it
// meets none, or tells the matter itself. The newest kept one is said,
// one a reply.
func (t *turnView) careMet() string {
	for _, c := range t.k.recall.careMeets {
		if slices.ContainsFunc(t.facts, func(f fact) bool { return f.kind.Kind == c.Kind }) || !c.metBy.Has(t.h.Text) {
			continue
		}
		for i := len(t.known) - 1; i >= 0; i-- {
			if f := t.known[i]; f.kind.Kind == c.Kind && c.about(f.fields["what"]) {
				return t.sayWith(c.Say, 3, t.k.spoken(f, t.lang))
			}
		}
	}
	return ""
}

// about reports whether a kept value what is one care_meets row c is
// about: one of its words, or holding one ("tree nut" holds "nut").
func (c careMeet) about(what string) bool {
	what = strings.ToLower(what)
	return len(c.What) == 0 || slices.ContainsFunc(c.What, func(w string) bool { return strings.Contains(what, strings.ToLower(w)) })
}

// fearKey is the phrase key of a fear met: about a plan ahead ("we're
// going hiking tomorrow"), "will you be okay?", else "are you okay?".
func (t *turnView) fearKey() string {
	if t.k.recall.ahead.Has(t.h.Text) {
		return "reflect.fear.ahead"
	}
	return "reflect.fear"
}

// linked is what she says when the message ties to a goal, a hobby or
// health news told before (recall.yaml links): the newest earlier message
// or memory that tells of it; "" when none does.
func (t *turnView) linked() string {
	var earlier []string
	for i := len(t.h.Recent) - 1; i >= 0; i-- {
		if m := t.h.Recent[i]; m.Role == "user" && m.Content != t.h.Text {
			earlier = append(earlier, m.Content)
		}
	}
	for _, r := range t.h.Recalled {
		earlier = append(earlier, r.Text)
	}
	earlier = append(earlier, t.h.Memories...)
	for _, l := range t.k.recall.links {
		if !slices.ContainsFunc(l.now, func(p pattern) bool { return p.MatchString(t.h.Text) }) {
			continue
		}
		who := linkWho(l, t.h.Text)
		for _, text := range earlier {
			told := ""
			for _, h := range l.told.Find(text) {
				if !h.Negated {
					told = l.Told[h.Index]
					break
				}
			}
			if told == "" {
				continue
			}
			if len(l.After) > 0 && !slices.ContainsFunc(t.situationsOf(text), func(s *situation) bool { return slices.Contains(l.After, s.Name) }) {
				continue
			}
			vars := map[string]string{"thing": told}
			if who != "" {
				if !t.namesWho(text, who) {
					continue // "Stan is home now" after Mary's hospital stay is not Stan's
				}
				vars["who"] = t.k.sayBack(who)
			}
			t.metLeads = l.Leads
			return t.sayWith(l.Say, 3, vars)
		}
	}
	return ""
}

// linkWho is the group "who" of the first of l's now patterns that
// matches text ("Stan" of "Stan is home now"), "" if it names
// no one or the pattern has no such group.
func linkWho(l link, text string) string {
	for _, p := range l.now {
		if m := p.FindStringSubmatch(text); m != nil {
			if i := p.SubexpIndex("who"); i >= 0 {
				return strings.TrimSpace(m[i])
			}
			return ""
		}
	}
	return ""
}

// namesWho reports whether an earlier message text names who, the one a
// link's news is about: a word that points back ("he", 他) names whoever
// it was; a name or "my dad" must be in it as a word of its own ("It" is
// not in "hospital").
func (t *turnView) namesWho(text, who string) bool {
	if t.k.refer.Has(who) && utf8.RuneCountInString(who) <= maxReferRunes {
		return true
	}
	if !strings.Contains(who, " ") && rejected(t.k.notSubjects, who) {
		return false // "It" is no one ("my dad" is)
	}
	if r, _ := utf8.DecodeRuneInString(who); r >= utf8.RuneSelf {
		return strings.Contains(text, who)
	}
	re, err := regexp.Compile(`(?i)\b` + regexp.QuoteMeta(who) + `\b`)
	return err == nil && re.MatchString(text)
}

// theirs reports whether the good news of the message is someone else's
// ("my sister got promoted", 小芳升职了, ユミが昇進した): a person, by a word
// for them or a name, comes before the first glad news word, with no word
// of the user's own self between (not "Sara said I got promoted").
func (t *turnView) theirs() bool {
	folded := strings.ToLower(heart.Fold(t.h.Text))
	news := -1
	for _, h := range t.k.sitSet.Find(t.h.Text) {
		if i := t.k.sitOwner[h.Index]; i >= 0 && !h.Negated && t.k.sits[i].Kind == kindContent && t.k.sits[i].Feel.Label == string(heart.LabelJoy) {
			news = h.Start
			break
		}
	}
	if news < 0 {
		news = t.gladPatternAt(folded) // "my sister passed her bar exam"
	}
	if news < 0 {
		return false
	}
	whoEnd := -1
	for _, h := range t.k.dictSet.Find(t.h.Text) {
		if r := t.k.dictOwner[h.Index]; r.dict == dictPeople && !h.Negated && h.End <= news {
			whoEnd = max(whoEnd, h.End)
		}
	}
	names := []string{t.vars["someone"]}
	for _, f := range t.known {
		if f.kind.Dict["who"] == dictPeople {
			names = append(names, f.fields["name"])
		}
	}
	for _, n := range names {
		if n == "" {
			continue
		}
		if i := strings.Index(folded, strings.ToLower(heart.Fold(n))); i >= 0 && i+len(n) <= news {
			whoEnd = max(whoEnd, i+len(heart.Fold(n)))
		}
	}
	return whoEnd >= 0 && !t.k.self.Has(folded[whoEnd:news])
}

// gladPatternAt is where the first glad news found by a situation's
// pattern starts in folded, the message as theirs reads it, or -1: news
// no keyword says ("my sister passed her bar exam").
func (t *turnView) gladPatternAt(folded string) int {
	at := -1
	for _, s := range t.sits {
		if s.Kind != kindContent || s.Feel.Label != string(heart.LabelJoy) {
			continue
		}
		for _, re := range s.res {
			if m := re.FindStringIndex(folded); m != nil && (at < 0 || m[0] < at) {
				at = m[0]
			}
		}
	}
	return at
}
