package brain

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/bot"
	"hearth/heart"
)

// How the offline brain reads a message in its conversation: the names the
// user gave are names, not words; "he" and "the vet" point back at the pet
// or person just talked about; a hard talk stays hard for a few messages;
// and a pet or person the user lost is spoken of as lost.

// minMaskRunes is the shortest name masked in what the user says: a
// one-letter name would mask words (our choice).
const minMaskRunes = 2

// nameMark stands for a masked name: a mark, no letter, so no keyword
// matches it or across it.
const nameMark = "·"

// maskNames replaces each name the user gave (a pet, a person, their own)
// with a mark that is no word. A Latin name is masked where it is written
// as a name, capitalised and whole ("Sunny is sick", not "it's sunny"); a
// Chinese or Japanese one wherever it appears.
func maskNames(text string, known []fact) string {
	for _, f := range known {
		name := f.fields["name"]
		if utf8.RuneCountInString(name) < minMaskRunes || f.kind.Care {
			continue // a care kind's name may be the user ("me") or a kin word ("son")
		}
		r, _ := utf8.DecodeRuneInString(name)
		if r >= utf8.RuneSelf {
			text = strings.ReplaceAll(text, name, nameMark)
			continue
		}
		var b strings.Builder
		rest := text
		for {
			i := strings.Index(rest, name)
			if i < 0 {
				break
			}
			end := i + len(name)
			whole := (i == 0 || !isWordByte(rest[i-1])) && (end == len(rest) || !isWordByte(rest[end]))
			b.WriteString(rest[:i])
			if whole {
				b.WriteString(nameMark)
			} else {
				b.WriteString(name)
			}
			rest = rest[end:]
		}
		b.WriteString(rest)
		text = b.String()
	}
	return text
}

// isWordByte reports whether an ASCII byte continues a Latin word.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}

// How many of the user's last messages may still make the conversation a
// hard one ("low"): a loss, an illness, a breakup told earlier this
// evening is still what the talk is about; a worry or a bad mood, a few
// messages on, may have passed (our choice: an evening's worth of short
// messages, and a few).
const (
	recentDeepTurns = 8
	recentHardTurns = 3
)

// hardIntensity is the least intensity of a hard situation that makes the
// talk hard: "never mind" (0.25) does not (our choice, with
// situations.yaml's values).
const hardIntensity = 0.4

// hardLately reports whether the conversation is about something hard:
// of this message and the user's last recentDeepTurns (recentHardTurns
// for what is not deep), the newest that says something hard or something
// that lifts it ("I feel better", "I passed") decides; a happy message is
// no hard talk.
func (t *turnView) hardLately() bool {
	if feltLabel(t.felt()) == string(heart.LabelJoy) {
		return false // "my boss said I did great today"
	}
	sits := t.sits
	for i, seen := len(t.h.Recent), 0; ; {
		for _, s := range sits {
			switch {
			case s.Kind != kindContent:
			case negative(s.Feel.Label) && s.Feel.Intensity >= hardIntensity && (s.Deep || seen <= recentHardTurns):
				return true
			case s.Lifts:
				return false
			}
		}
		for i--; i >= 0 && t.h.Recent[i].Role != "user"; i-- {
		}
		if i < 0 || seen == recentDeepTurns {
			return false
		}
		seen++
		sits = t.situationsOf(maskNames(t.h.Recent[i].Content, t.known))
	}
}

// gladLately reports whether the talk is about good news: this message is
// a joyful one (its feeling, or a joyful situation leads it), or, of it
// and the user's last recentDeepTurns, the newest that says something
// hard or something that lifts ("I got the promotion!") lifts: good news
// colours the evening until something hard is said. A night
// owl's question ("What's keeping you up?") does not follow good news.
func (t *turnView) gladLately() bool {
	if feltLabel(t.felt()) == string(heart.LabelJoy) {
		return true
	}
	if l := t.lead(); l != nil && l.Kind == kindContent && l.Feel.Label == string(heart.LabelJoy) {
		return true
	}
	sits := t.sits
	for i, seen := len(t.h.Recent), 0; ; {
		for _, s := range sits {
			switch {
			case s.Kind != kindContent:
			case negative(s.Feel.Label) && s.Feel.Intensity >= hardIntensity:
				return false
			case s.Lifts:
				return true
			}
		}
		for i--; i >= 0 && t.h.Recent[i].Role != "user"; i-- {
		}
		if i < 0 || seen == recentDeepTurns {
			return false
		}
		seen++
		sits = t.situationsOf(maskNames(t.h.Recent[i].Content, t.known))
	}
}

// referBackTurns is how many of the user's earlier messages "he", "它" or
// "the vet" may point back to (our choice: the thread of the last few).
const referBackTurns = 3

// nameSlot is one kind of name a reply may use: a pet or a person.
type nameSlot struct {
	dict, yours, name, field string
}

// nameSlots are the pets and people a reply may name.
func nameSlots() [2]nameSlot {
	return [2]nameSlot{{dictPets, "pet", "pet_name", "kind"}, {dictPeople, "person", "person_name", "who"}}
}

// findNames fills the placeholders for the pets, people and spans of time
// in what was said: a pet or person named now, or one the user told about
// before and mentions now by name or by kind ("my cat is sick" → Miso).
// A message that only points at them ("he loved it", "我带它去看了兽医",
// "動物病院に連れて行った") means the one of the user's last few messages
// that named one, unless someone of no name comes between ("back from the
// doctor", then "he says my heart is ok": the doctor, never the son named
// before); the vet means the user's pet, unless the message names a kind
// of pet the user told of none of.
func (t *turnView) findNames() {
	found := t.namesIn(t.h.Text)
	pointing := t.k.refer.Has(t.h.Text)
	vet := t.topicTagged(topicPets)
	if len(found) == 0 && (pointing || vet) && !t.k.referOthers.Has(t.h.Text) {
		for i, seen := len(t.h.Recent)-1, 0; i >= 0 && seen < referBackTurns && len(found) == 0; i-- {
			if m := t.h.Recent[i]; m.Role == "user" {
				seen++
				if t.k.referOthers.Has(m.Content) {
					break // "back from the doctor", then "he says…": the doctor
				}
				found = t.namesIn(m.Content)
			}
		}
	}
	for k, v := range found {
		t.vars[k] = v
	}
	// A kind of pet she knows none of ("we got a kitten!" beside the dog
	// Pepper) is a new one: never called by the dog's name.
	if vet && t.vars["pet_name"] == "" && t.vars["pet"] == "" {
		for i := len(t.known) - 1; i >= 0; i-- {
			if f := t.known[i]; f.kind.Dict["kind"] == dictPets && !t.gone[f.fields["name"]] {
				t.vars["pet_name"] = f.fields["name"]
				break
			}
		}
	}
	t.vars["duration"] = spanIn(t.k.durations, t.h.Text)
	if who := firstGroup(t.k.subjects, "someone", t.h.Text); !rejected(t.k.notSubjects, who) {
		t.vars["someone"] = who
	}
}

// namesIn finds the pets and people text names, as placeholder values:
// the kind as the persona says it ("your cat") and the name of the one the
// user told about, by name or by kind.
func (t *turnView) namesIn(text string) map[string]string {
	out := map[string]string{}
	for _, d := range nameSlots() {
		if kinds := t.k.named(d.dict, text); len(kinds) > 0 {
			out[d.yours] = kinds[0].Yours[t.lang]
		}
		for i := len(t.known) - 1; i >= 0; i-- {
			if f := t.known[i]; f.kind.Dict[d.field] == d.dict && t.mentions(text, f) {
				out[d.name] = f.fields["name"]
				break
			}
		}
	}
	return out
}

// mentions reports whether text names fact f's pet or person: by name, or
// by its kind ("my cat" → the cat the user told about).
func (t *turnView) mentions(text string, f fact) bool {
	name := f.fields["name"]
	if name == "" {
		return false
	}
	if strings.Contains(strings.ToLower(text), strings.ToLower(name)) {
		return true
	}
	for field, d := range f.kind.Dict {
		for _, e := range t.k.named(d, text) {
			if sameWord(e.Name, f.fields[field]) {
				return true
			}
		}
	}
	return false
}

// sameWord reports whether w is the entry's name in any language.
func sameWord(names langText, w string) bool {
	for _, n := range names {
		if strings.EqualFold(n, w) {
			return true
		}
	}
	return false
}

// findGone lists the pets and people the user lost: those named in a
// message that tells of a loss (a situation marked gone), in what they
// said lately or what recall brought back.
func (t *turnView) findGone() map[string]bool {
	gone := map[string]bool{}
	texts := []string{t.h.Text, t.h.Heavy}
	for _, m := range t.h.Recent {
		if m.Role == "user" {
			texts = append(texts, m.Content)
		}
	}
	for _, r := range t.h.Recalled {
		texts = append(texts, r.Text)
	}
	for _, text := range texts {
		lost := false
		for _, s := range t.situationsOf(text) {
			lost = lost || s.Gone
		}
		if !lost {
			continue
		}
		for _, f := range t.known {
			if len(f.kind.Dict) > 0 && t.mentions(text, f) {
				gone[f.fields["name"]] = true
			}
		}
	}
	t.goneByTheTalk(gone)
	return gone
}

// isEx reports whether name is a person the user keeps as their ex
// (facts.yaml's breakup change, words.yaml's people entry "ex").
func (t *turnView) isEx(name string) bool {
	if name == "" {
		return false
	}
	ex, ok := t.k.dictEntry("people", "ex")
	if !ok {
		return false
	}
	for _, f := range t.known {
		if f.fields["name"] == name && f.fields["who"] == ex.Name[t.lang] {
			return true
		}
	}
	return false
}

// topicTagged reports whether the message has the theme tag.
func (t *turnView) topicTagged(tag string) bool {
	for _, tp := range t.topics {
		if tp.Tag == tag {
			return true
		}
	}
	return false
}

// Days ahead from which a dated thing, past tomorrow and named by its
// weekday, is named as next week's, then by its date (our choice, as
// people say them).
const (
	dueNextWeekDays = 7
	dueDateDays     = 14
)

// ahead reads a dated thing ahead in the message ("I have an exam on
// Friday", "下周五有考试"), as heart.ExtractFollowUps finds it for the
// life loop's check-in: it fills {your_thing} and {due} ("on Friday",
// "下周五", "来週の金曜日") and reports whether there was one.
func (t *turnView) ahead() bool {
	if t.h.Now.IsZero() {
		return false
	}
	fus := heart.ExtractFollowUps(t.h.Text, t.h.Now)
	if len(fus) == 0 {
		return false
	}
	due, err := time.ParseInLocation(time.DateOnly, fus[0].Due, t.h.Now.Location())
	if err != nil {
		return false
	}
	// Rounded: a day across a clock change has 23 or 25 hours.
	days := int(due.Sub(bot.StartOfDay(t.h.Now, t.h.Now.Location())).Hours()/24 + 0.5)
	vars := map[string]string{
		"weekday": t.k.book["weekdays"][t.lang][due.Weekday()],
		"month":   due.Month().String(),
		"m":       strconv.Itoa(int(due.Month())),
		"d":       strconv.Itoa(due.Day()),
	}
	key := "due.date"
	switch {
	case days <= 0:
		return false // today's is happening, not ahead
	case fus[0].Rough != "":
		// "next month" is said back as a month, never as the day the
		// check-in waits for.
		key = "due." + fus[0].Rough
	case days == 1:
		key = "due.tomorrow"
	case days < dueNextWeekDays:
		key = "due.weekday"
	case days < dueDateDays:
		key = "due.nextweek"
	}
	t.vars["due"] = t.sayWith(key, 8, vars)
	t.vars["your_thing"] = t.k.yourThing(fus[0].About, t.lang)
	t.aheadAbout = fus[0].About
	return t.vars["due"] != ""
}
