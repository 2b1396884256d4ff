package brain

import (
	"regexp"
	"slices"
	"strings"

	"hearth/heart"
)

// The people and things told in passing: someone named once
// ("played cards with a fellow named Stan") is kept and met again by
// name; whose a dated thing is when the words say it only by "her" or by
// a name told before; what "他已经走了" is, read by the talk before it.

// becomeTurns is how many of the user's earlier messages a situation's
// becomes_after words are looked for in (hearth's choice: the thread just
// before, as "他住院了" … "他已经走了" is told; a grandfather in hospital
// three messages back does not make the guests who went home a death).
const becomeTurns = 2

// become puts in place of a situation the one it becomes after what the
// user said just before (situations.yaml becomes): "他已经走了" after
// "他住院了，医生说不太好" is a death, met as one; with no such words it
// stays the gentle reading that assumes nothing.
func (t *turnView) become() {
	for i, s := range t.sits {
		if s.becomes == nil {
			continue
		}
		for j, seen := len(t.h.Recent)-1, 0; j >= 0 && seen < becomeTurns; j-- {
			// The message itself, when the history already holds it, is
			// not what was said before it; an earlier same words are.
			if m := t.h.Recent[j]; m.Role == "user" && !(j == len(t.h.Recent)-1 && m.Content == t.h.Text) {
				seen++
				if s.becomesAfter.Has(m.Content) {
					t.sits[i] = s.becomes
					break
				}
			}
		}
	}
}

// goneByTheTalk adds to gone the pet or person a word that points back
// told lost: "he's gone", read as a death by the hospital just before it
// (become), names the one that message named alone ("my old friend Frank
// is in the hospital", then "he's gone": Frank, so "tomorrow is Frank's
// birthday" is a day of remembrance, never "How is Frank these days?").
// A message that named two names no one.
func (t *turnView) goneByTheTalk(gone map[string]bool) {
	var said []string
	for _, m := range t.h.Recent {
		if m.Role == "user" {
			said = append(said, m.Content)
		}
	}
	if len(said) == 0 || said[len(said)-1] != t.h.Text {
		said = append(said, t.h.Text)
	}
	for i, text := range said {
		for _, s := range t.situationsOf(text) {
			if s.becomes == nil || !s.becomes.Gone {
				continue
			}
			for j := i - 1; j >= 0 && j >= i-becomeTurns; j-- {
				if !s.becomesAfter.Has(said[j]) {
					continue
				}
				var named []string
				for _, f := range t.known {
					if n := f.fields["name"]; len(f.kind.Dict) > 0 && t.mentions(said[j], f) && !slices.Contains(named, n) {
						named = append(named, n)
					}
				}
				if len(named) == 1 {
					gone[named[0]] = true
				}
				break
			}
		}
	}
}

// whoNewBaby is the English name of words.yaml's people entry for a new
// baby in the family.
const whoNewBaby = "family's new baby"

// namedBaby reports whether this message names a new baby ("they named
// him Leo"): she does not ask the name just told ("What's the
// baby's name?" right after it).
func (t *turnView) namedBaby() bool {
	return slices.ContainsFunc(t.facts, func(f fact) bool {
		e, ok := t.k.dictEntry(dictPeople, f.fields["who"])
		return ok && !f.told && e.Name[langEN] == whoNewBaby
	})
}

// reflectKey is the phrase key that reflects fact f just told (see
// wordKey).
func (k *knowledge) reflectKey(f fact) string {
	return k.wordKey("reflect.fact."+f.kind.Kind, f)
}

// wordKey is key, or, where phrases.yaml has one, key for the dictionary
// word fact f is ("reflect.fact.person.acquaintance": a fellow named Stan
// is no "Stan, your acquaintance").
func (k *knowledge) wordKey(key string, f fact) string {
	for field, d := range f.kind.Dict {
		if e, ok := k.dictEntry(d, f.fields[field]); ok {
			if _, has := k.book[key+"."+e.Name[langEN]]; has {
				return key + "." + e.Name[langEN]
			}
		}
	}
	return key
}

// ownAhead names whose the dated thing ahead is when heart's words
// cannot: a word that points back owns it ("her recital is
// on friday" after talk of Lily, heart.ExtractFollowUps's "her
// recital"), or the message is about a pet or person the user named
// before ("Stan has surgery on friday", 张姐下周五过生日). It is theirs,
// by name ("Lily's recital", "Stan's surgery", 张姐的生日), said so (the
// state kin) and kept so for the check-in (turnView.followUps), never
// "your surgery"; a pointing word that points at no one known is kept.
func (t *turnView) ownAhead() {
	about := t.aheadAbout
	if about == "" {
		return
	}
	who, pet := t.vars["person_name"], false
	word, rest, ok := strings.Cut(about, " ")
	if !ok {
		word, rest, ok = strings.Cut(about, "的")
	}
	switch {
	case ok && t.k.refer.Has(word) && !t.k.referPets.Has(word):
		t.aheadKin = true // hers, whoever she is: never "your recital"
	case !ownedAbout(about) && t.ownedBy(who):
		rest = about
	case !ownedAbout(about) && t.ownedBy(t.vars["pet_name"]):
		who, rest, pet = t.vars["pet_name"], about, true
	default:
		return
	}
	if who == "" {
		return
	}
	owner := who + "'s " + rest
	switch {
	case t.lang == langZH:
		owner = who + "的" + rest
	case t.lang == langJA && !pet:
		owner = who + "さんの" + rest // a person is said with さん, as phrases do
	case t.lang == langJA:
		owner = who + "の" + rest
	}
	t.aheadKin, t.aheadAbout, t.aheadOwned = true, owner, true
	t.vars["your_thing"] = t.k.yourThing(owner, t.lang)
}

// ownedAbout reports whether heart already said whose a follow-up's
// thing is ("my son's test", "Lily's first day", 我女儿的, 娘さんの).
func ownedAbout(about string) bool {
	return strings.Contains(about, "'s ") || strings.HasPrefix(about, "my ") || strings.HasPrefix(about, "我") || strings.Contains(about, "の")
}

// ownedBy reports whether the message is about name, a pet or person
// the user told of, and so is its dated thing about: it opens with them
// ("Stan has surgery…", "张姐下周五…", "山田さんは来週…") or says the thing
// is theirs ("tomorrow is Frank's birthday", 明天是老李的生日, 明日は山田
// さんの手術), not only names them ("my exam is at Frank's place").
func (t *turnView) ownedBy(name string) bool {
	if name == "" {
		return false
	}
	text := strings.TrimSpace(t.h.Text)
	if strings.HasPrefix(strings.ToLower(text), strings.ToLower(name)) {
		return true
	}
	n, about := regexp.QuoteMeta(name), regexp.QuoteMeta(t.aheadAbout)
	re, err := regexp.Compile(`(?i)\b` + n + `['’]s (?:\p{L}+ )?` + about + `|` + n + `的\p{Han}{0,3}` + about + `|` + n + `(?:さん|ちゃん|くん)?の\p{Han}{0,3}` + about)
	return err == nil && re.MatchString(text)
}

// followUps are the trailer's follow-ups: none (the handler reads them
// from the words, heart.ExtractFollowUps), unless ownAhead named whose the
// thing ahead is, which the words alone cannot say: then the words'
// follow-ups, the first as ownAhead named it.
func (t *turnView) followUps() []heart.FollowUp {
	if !t.aheadOwned {
		return nil
	}
	fus := heart.ExtractFollowUps(t.h.Text, t.h.Now)
	if len(fus) == 0 {
		return nil
	}
	fus[0].About = t.aheadAbout
	return fus
}
