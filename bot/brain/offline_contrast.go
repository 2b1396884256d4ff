package brain

import (
	"fmt"
	"strings"

	"hearth/heart"
)

// News about a known person met in the light of what was told of them
// (recall.yaml contrasts): "王姐今天居然夸我了" after "my boss
// 王姐 is so strict" got "王姐好像对你很重要。"; she remembers the strict
// one and is surprised with them ("the strict one? that's big!").

// contrast is one row of recall.yaml contrasts: what was told of a person
// (Told, in an earlier message naming them), news of them now that goes
// against it (Now), and what she says (phrase key Say, {who} their name).
type contrast struct {
	Told []string `yaml:"told"`
	Now  []string `yaml:"now"`
	Say  string   `yaml:"say"`

	told, now *heart.PhraseSet
}

// compileContrasts checks recall.yaml contrasts: words on both sides and
// the phrase key.
func (k *knowledge) compileContrasts(d *recallData, cs []contrast) error {
	for i := range cs {
		c := &cs[i]
		if len(c.Told) == 0 || len(c.Now) == 0 {
			return fmt.Errorf("recall.yaml contrasts %d: needs told and now", i)
		}
		if _, ok := k.book[c.Say]; !ok {
			return fmt.Errorf("recall.yaml contrasts %d: no phrases %q", i, c.Say)
		}
		c.told, c.now = heart.NewPhraseSet(c.Told), heart.NewPhraseSet(c.Now)
	}
	d.contrasts = cs
	return nil
}

// contrasted is what she says when the message brings news of a person
// she knows (facts.yaml people) that goes against what the user told of
// them before: the earlier message (the talk, a recollection) that names
// them with the told words; "" when none does.
func (t *turnView) contrasted() string {
	folded := strings.ToLower(heart.Fold(t.h.Text))
	var who []string
	for _, f := range t.known {
		if n := f.fields["name"]; f.kind.Dict["who"] == dictPeople && n != "" && strings.Contains(folded, strings.ToLower(heart.Fold(n))) {
			who = append(who, n)
		}
	}
	if len(who) == 0 {
		return ""
	}
	var earlier []string
	for _, m := range t.h.Recent {
		if m.Role == "user" && m.Content != t.h.Text {
			earlier = append(earlier, m.Content)
		}
	}
	for _, r := range t.h.Recalled {
		earlier = append(earlier, r.Text)
	}
	for _, c := range t.k.recall.contrasts {
		if !found(c.now, t.h.Text) {
			continue
		}
		for _, name := range who {
			for _, text := range earlier {
				if strings.Contains(strings.ToLower(heart.Fold(text)), strings.ToLower(heart.Fold(name))) && found(c.told, text) {
					return t.sayWith(c.Say, 3, map[string]string{"who": name})
				}
			}
		}
	}
	return ""
}

// found reports whether set has a word of text that is not negated.
func found(set *heart.PhraseSet, text string) bool {
	for _, h := range set.Find(text) {
		if !h.Negated {
			return true
		}
	}
	return false
}
