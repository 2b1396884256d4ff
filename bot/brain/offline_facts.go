package brain

import (
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/bot"
	"hearth/heart"
)

// slotFactsLast is the last fact slot (DESIGN §5, seed 004 关系记忆:
// 0-9 facts); facts.yaml names the slot of each kind of fact.
const slotFactsLast = 9

// slotCareFirst and slotCareLast are seed 004's slots of how to act
// (004_dd92c72e713cef51.txt 关系记忆: 20-29 情感（什么时候该怎么做）): a
// health matter to mind, an allergy at a party or a restaurant, is kept
// there (facts.yaml care), since 0-9 each hold a kind of fact already.
const (
	slotCareFirst = 20
	slotCareLast  = 29
)

// maxFactRunes bounds a remembered value so a run-on sentence is not stored
// as a name (our choice).
const maxFactRunes = 24

// maxTopicTags bounds the trailer's topic_tags (our choice: a few keywords).
const maxTopicTags = 3

// factSep joins the values of a multi-valued fact in lang.
func factSep(lang string) string {
	switch lang {
	case langZH:
		return "；"
	case langJA:
		return "、"
	}
	return "; "
}

// fact is one thing the user told about themselves: its kind and fields
// ("name": "Miso", "kind": "cat").
type fact struct {
	kind   *factKind
	fields map[string]string
	told   bool        // said before this message too: no news
	change *factChange // news that changes a fact told: resolve reads whose
	answer bool        // told as the answer to her question (facts.yaml answers)
	was    string      // a correction: the name this fact's name replaces (facts.yaml corrects)
	// given: its dictionary fields are implied (facts.yaml given: "a
	// fellow named Stan"), so it never changes who someone already known
	// by that name is ("this guy Mark" of her boyfriend Mark).
	given bool
}

// value writes the fact as its kind's value template in lang.
func (f fact) value(lang string) string {
	v := f.kind.Value[lang]
	for k, x := range f.fields {
		v = strings.ReplaceAll(v, "{"+k+"}", x)
	}
	return v
}

// sameAs reports whether two facts of a kind say the same thing (for a
// multi-valued fact: the same name).
func (f fact) sameAs(g fact) bool {
	if f.kind != g.kind {
		return false
	}
	if len(f.kind.Same) > 0 {
		for _, field := range f.kind.Same {
			if !strings.EqualFold(f.fields[field], g.fields[field]) {
				return false
			}
		}
		return true
	}
	if n, ok := f.fields["name"]; ok {
		return strings.EqualFold(n, g.fields["name"])
	}
	return f.value(langEN) == g.value(langEN)
}

// replaces reports whether f corrects g: g is the fact of f's kind told
// by the name f's correction says was wrong.
func (f fact) replaces(g fact) bool {
	return f.was != "" && f.kind == g.kind && strings.EqualFold(g.fields["name"], f.was)
}

// rememberItem is one entry of the trailer's "remember" list (DESIGN §3 step 8).
type rememberItem struct {
	Slot    int    `json:"slot"`
	Content string `json:"content"`
}

// factsIn returns the facts clearly stated in text, in facts.yaml order,
// each field named in lang.
func (k *knowledge) factsIn(text, lang string) []fact {
	var out []fact
	for i := range k.facts {
		kind := &k.facts[i]
		for _, re := range kind.res {
			if !re.may(text) {
				continue
			}
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				f, ok := k.readFact(kind, re.SubexpNames(), m, lang)
				if ok && !slices.ContainsFunc(out, f.sameAs) {
					out = append(out, f)
				}
			}
		}
		// "a fellow named Stan": someone told of in passing, whose
		// dictionary fields the words imply (facts.yaml given).
		for _, g := range kind.Given {
			if !g.about(text) {
				continue
			}
			for _, re := range g.res {
				if !re.may(text) {
					continue
				}
				for _, m := range re.FindAllStringSubmatch(text, -1) {
					f, ok := k.readFact(kind, re.SubexpNames(), m, lang)
					if ok && k.setFields(&f, g.Set, lang) && !slices.ContainsFunc(out, f.sameAs) {
						f.given = true
						out = append(out, f)
					}
				}
			}
		}
		// "Ana, not Anna": the fact told of as Anna is Ana's.
		for _, re := range kind.corrects {
			if !re.may(text) {
				continue
			}
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				name, old := properName(strings.TrimSpace(m[re.SubexpIndex("name")])), strings.TrimSpace(m[re.SubexpIndex("old")])
				if name != "" && old != "" && !strings.EqualFold(name, old) && !rejected(kind.Reject, name) && utf8.RuneCountInString(name) <= maxFactRunes {
					out = append(out, fact{kind: kind, fields: map[string]string{"name": name}, was: old})
				}
			}
		}
		// A change comes after what the message tells: "my girlfriend
		// Emma broke up with me" tells of Emma, then makes her an ex.
		for j := range kind.Changes {
			c := &kind.Changes[j]
			for _, re := range c.res {
				if !re.may(text) {
					continue
				}
				for _, m := range re.FindAllStringSubmatch(text, -1) {
					name := ""
					if i := re.SubexpIndex("name"); i >= 0 {
						name = strings.TrimSpace(m[i])
					}
					if rejected(kind.Reject, name) && name != "" {
						continue
					}
					out = append(out, fact{kind: kind, fields: map[string]string{"name": name}, change: c})
				}
			}
		}
	}
	return out
}

// resolveChange reads whom a change is about (see facts.yaml changes) in
// what was told before (prior, oldest first) and returns them changed; a
// change that finds no one it applies to is no fact.
func (k *knowledge) resolveChange(f fact, prior []fact, lang string) (fact, bool) {
	name := f.fields["name"]
	pointing := name != "" && k.refer.Has(name) && utf8.RuneCountInString(name) <= maxReferRunes
	var kindWord *dictEntry
	for _, d := range f.kind.Dict {
		if e, found := k.dictEntry(d, name); found && name != "" && k.wholeWord(d, name) {
			kindWord = &e
		}
	}
	// was is what p's dictionary fields were, by English name.
	was := func(p fact) (langText, bool) {
		for field, d := range p.kind.Dict {
			if e, ok := k.dictEntry(d, p.fields[field]); ok {
				return e.Name, true
			}
		}
		return nil, false
	}
	applies := func(p fact) bool {
		w, ok := was(p)
		return ok && slices.Contains(f.change.Of, w[langEN])
	}
	var target *fact
	switch {
	case name == "" || pointing || kindWord != nil:
		for i := len(prior) - 1; i >= 0 && target == nil; i-- {
			if p := prior[i]; p.kind == f.kind && p.change == nil && applies(p) {
				if w, _ := was(p); kindWord == nil || w[langEN] == kindWord.Name[langEN] {
					target = &prior[i]
				}
			}
		}
	default:
		for i := len(prior) - 1; i >= 0 && target == nil; i-- {
			if p := prior[i]; p.kind == f.kind && strings.EqualFold(p.fields["name"], name) {
				if !applies(p) && p.change == nil {
					return fact{}, false // Mia is a sister: no breakup makes her an ex
				}
				target = &prior[i]
			}
		}
		if target == nil {
			target = &fact{kind: f.kind, fields: map[string]string{"name": name}}
		}
	}
	if target == nil || target.fields["name"] == "" {
		return fact{}, false
	}
	g := fact{kind: f.kind, fields: maps.Clone(target.fields)}
	for field, word := range f.change.Set {
		for _, e := range k.dicts[f.kind.Dict[field]] {
			if e.Name[langEN] == word {
				g.fields[field] = e.Name[lang]
			}
		}
	}
	return g, true
}

// readFact builds a fact from one pattern match; dictionary fields are
// named in lang, and a rejected or overlong value is no fact.
func (k *knowledge) readFact(kind *factKind, names, m []string, lang string) (fact, bool) {
	f := fact{kind: kind, fields: map[string]string{}}
	for i, n := range names {
		if n == "" || i >= len(m) {
			continue
		}
		v := withoutTails(strings.TrimSpace(m[i]), kind.Tails)
		if v == "" || utf8.RuneCountInString(v) > maxFactRunes {
			return fact{}, false
		}
		if n == "name" && slices.ContainsFunc(kind.SelfWords, func(w string) bool { return strings.EqualFold(w, v) }) {
			f.fields[n] = kind.Self[lang] // "I'm allergic to cats": the user
			continue
		}
		d, isDict := kind.Dict[n]
		if !isDict && (rejected(kind.Reject, v) || slices.ContainsFunc(kind.rejectShapes, func(p pattern) bool { return p.MatchString(v) })) {
			// A dictionary word is checked by its dictionary: 彼氏 is a
			// boyfriend, though no boyfriend's name.
			return fact{}, false
		}
		if isDict {
			e, found := k.dictEntry(d, v)
			if !found {
				return fact{}, false
			}
			v = e.Name[lang]
		}
		if n == "name" && (len(kind.Dict) > 0 || kind.Kind == factName) {
			v = properName(v) // an age's "he" or "my cat" is resolved, not a name
		}
		f.fields[n] = v
	}
	return f, true
}

// setFields gives f's dictionary fields its match did not name the
// words of set (English dictionary names) in lang, and reports whether
// every field of its kind is then known.
func (k *knowledge) setFields(f *fact, set map[string]string, lang string) bool {
	for field, d := range f.kind.Dict {
		if f.fields[field] != "" {
			continue
		}
		if e, found := k.dictEntry(d, set[field]); found {
			f.fields[field] = e.Name[lang]
		}
	}
	for field := range f.kind.Dict {
		if f.fields[field] == "" {
			return false
		}
	}
	return true
}

// properName is a name as it is written, whatever case it was typed in:
// "biscuit" is Biscuit.
func properName(v string) string {
	r, size := utf8.DecodeRuneInString(v)
	if unicode.IsLower(r) && unicode.Is(unicode.Latin, r) {
		return string(unicode.ToUpper(r)) + v[size:]
	}
	return v
}

// rejected reports whether v is no value at all: an English reject word
// equal to it or its first word ("what I might do" names no fear), or a
// Chinese or Japanese one inside it ("什么吗" asks, it names nothing).
func rejected(rejects []string, v string) bool {
	for _, r := range rejects {
		if strings.EqualFold(v, r) || r[0] >= utf8.RuneSelf && strings.Contains(v, r) {
			return true
		}
		if r[0] < utf8.RuneSelf && len(v) > len(r) && v[len(r)] == ' ' && strings.EqualFold(v[:len(r)], r) {
			return true
		}
	}
	return false
}

// dictEntry finds word in dictionary d.
func (k *knowledge) dictEntry(d, word string) (dictEntry, bool) {
	for _, h := range k.dictSet.Find(word) {
		if r := k.dictOwner[h.Index]; r.dict == d {
			return k.dicts[d][r.i], true
		}
	}
	return dictEntry{}, false
}

// factMemory is the kind of fact a memory holds, by its label; nil for a
// memory in the user's own words.
func (k *knowledge) factMemory(content string) *factKind {
	for i := range k.facts {
		for _, l := range languages() {
			if strings.HasPrefix(content, k.facts[i].Label[l]) {
				return &k.facts[i]
			}
		}
	}
	return nil
}

// factsInMemory reads a memory back: a memory written with a kind's label
// holds that kind's values; any other memory (a /remember in the user's own
// words) is read like something the user said.
func (k *knowledge) factsInMemory(content, lang string) []fact {
	for i := range k.facts {
		kind := &k.facts[i]
		for _, l := range languages() {
			rest, ok := strings.CutPrefix(content, kind.Label[l])
			if !ok {
				continue
			}
			var out []fact
			for _, v := range strings.Split(rest, factSep(l)) {
				m := kind.values[l].FindStringSubmatch(v)
				if m == nil {
					continue
				}
				f := fact{kind: kind, fields: map[string]string{}}
				for gi, n := range kind.values[l].SubexpNames() {
					if n != "" {
						f.fields[n] = m[gi]
					}
				}
				out = append(out, f)
			}
			return out
		}
	}
	return k.factsIn(content, lang)
}

// known gathers what the user has told: memories, recollections, the recent
// conversation and now (this message's facts), newest last, one fact per
// distinct value. It returns now's facts as read in that light: a fact
// about "he", "它" or "my cat" is about the pet or person it points at
// (see resolve); one that points at nobody known is dropped.
func (k *knowledge) known(h bot.Hints, now []fact, c *readCache) (all, said []fact) {
	add := func(fs []fact) []fact {
		var kept []fact
		for _, f := range aboutSomeoneLast(fs) {
			f, ok := k.resolve(f, all, h.Language)
			if !ok {
				continue
			}
			if i := slices.IndexFunc(all, f.sameAs); i >= 0 && f.given {
				f = all[i] // "this guy Mark" is the boyfriend Mark still
			}
			if i := slices.IndexFunc(all, f.sameAs); i >= 0 {
				all = append(all[:i], all[i+1:]...)
			}
			all = slices.DeleteFunc(all, f.replaces)
			all = append(all, f)
			if j := slices.IndexFunc(kept, f.sameAs); j >= 0 {
				kept[j] = f // "my sister's name is Ana, not Anna" tells Ana once
				continue
			}
			kept = append(kept, f)
		}
		// Told in facts.yaml order again: "Biscuit turned twelve" is
		// reflected as an age before the cat's name.
		slices.SortStableFunc(kept, func(a, b fact) int { return k.kindIndex(a.kind) - k.kindIndex(b.kind) })
		return kept
	}
	for _, m := range h.Memories {
		add(k.factsInMemory(m, h.Language))
	}
	for _, r := range h.Recalled {
		if r.Kind == "memory" {
			add(k.factsInMemory(r.Text, h.Language))
		} else {
			add(c.factsIn(k, r.Text, h.Language))
		}
	}
	for _, m := range h.Recent {
		if m.Role == "user" {
			add(c.factsIn(k, m.Content, h.Language))
			all = mentionedLast(all, m.Content)
		}
	}
	before := slices.Clone(all)
	said = add(now)
	for i, f := range said {
		said[i].told = slices.ContainsFunc(before, func(g fact) bool { return g.sameAs(f) && g.value(langEN) == f.value(langEN) })
	}
	return all, said
}

// kindIndex is kind's place in facts.yaml.
func (k *knowledge) kindIndex(kind *factKind) int {
	for i := range k.facts {
		if &k.facts[i] == kind {
			return i
		}
	}
	return len(k.facts)
}

// aboutSomeoneLast orders the facts of one message so that a fact about
// someone named by a word that points back (an age: "our dog Luna died
// this morning. she was 14") comes after the pets and people the message
// itself introduces: "she" is Luna, not the wife told of last week.
func aboutSomeoneLast(fs []fact) []fact {
	about := func(f fact) bool {
		_, named := f.fields["name"]
		return named && len(f.kind.Dict) == 0 && f.change == nil && f.was == "" && f.kind.Kind != factName
	}
	out := slices.DeleteFunc(slices.Clone(fs), about)
	for _, f := range fs {
		if about(f) {
			out = append(out, f)
		}
	}
	return out
}

// resolve reads the "name" of a fact that has no dictionary of its own (an
// age): a word that points back ("he", "它", "この子") means the pet or
// person told about most recently, a pet's or person's kind ("my cat")
// the newest of that kind; anything else is a name as given.
func (k *knowledge) resolve(f fact, prior []fact, lang string) (fact, bool) {
	if f.change != nil {
		return k.resolveChange(f, prior, lang)
	}
	if f.was != "" {
		// A correction of a name never told of corrects nothing.
		for i := len(prior) - 1; i >= 0; i-- {
			if p := prior[i]; p.kind == f.kind && p.change == nil && strings.EqualFold(p.fields["name"], f.was) {
				g := fact{kind: f.kind, fields: maps.Clone(p.fields), was: f.was}
				g.fields["name"] = f.fields["name"]
				return g, true
			}
		}
		return fact{}, false
	}
	name, ok := f.fields["name"]
	if !ok || len(f.kind.Dict) > 0 {
		return f, true
	}
	entry, isKind := dictEntry{}, false
	for _, d := range []string{dictPets, dictPeople} {
		if e, found := k.dictEntry(d, name); found && k.wholeWord(d, name) {
			entry, isKind = e, true
		}
	}
	pointing := k.refer.Has(name) && utf8.RuneCountInString(name) <= maxReferRunes
	petOnly := pointing && k.referPets.Has(name)
	if !pointing && !isKind {
		return f, true
	}
	for i := len(prior) - 1; i >= 0; i-- {
		p := prior[i]
		if len(p.kind.Dict) == 0 || p.fields["name"] == "" {
			continue
		}
		fits := pointing
		for field, d := range p.kind.Dict {
			fits = fits && (!petOnly || d == dictPets) || isKind && sameWord(entry.Name, p.fields[field])
		}
		if fits {
			g := fact{kind: f.kind, fields: maps.Clone(f.fields)}
			g.fields["name"] = p.fields["name"]
			return g, true
		}
	}
	// A health matter of "my son", whose name was never told, is kept
	// as his all the same: it matters more than the name.
	return f, isKind && f.kind.Care
}

// mentionedLast moves the pets and people text names by name to the end
// of facts: what "he" or "它" points at is who was talked about last, not
// who was introduced last.
func mentionedLast(facts []fact, text string) []fact {
	var named []fact
	rest := facts[:0:0]
	for _, f := range facts {
		if n := f.fields["name"]; len(f.kind.Dict) > 0 && n != "" && strings.Contains(strings.ToLower(text), strings.ToLower(n)) {
			named = append(named, f)
		} else {
			rest = append(rest, f)
		}
	}
	return append(rest, named...)
}

// maxReferRunes bounds a pointing word taken as a whole name ("he",
// "この子"); a longer capture holds more than the word.
const maxReferRunes = 3

// wholeWord reports whether word is, whole, a word of dictionary d.
func (k *knowledge) wholeWord(d, word string) bool {
	hits := k.dictSet.Find(word)
	return len(hits) == 1 && hits[0].Start == 0 && hits[0].End == len(heart.Fold(word)) && k.dictOwner[hits[0].Index].dict == d
}

// sinceLayout writes the month a fact was first told (facts.yaml since):
// a month is fine enough for a span counted in months, and reads the same
// in every language.
const sinceLayout = "2006-01"

// toldSince gives a fact of a kind that keeps when it was told the month
// it was first told: the one kept (all[i], when i >= 0) if it has one,
// else now's. Told again, a loss keeps its first month.
func (f fact) toldSince(now time.Time, all []fact, i int) fact {
	since := ""
	if i >= 0 {
		since = all[i].fields["since"]
	}
	if since == "" && !now.IsZero() {
		since = now.Format(sinceLayout)
	}
	if since == "" {
		return f
	}
	fields := maps.Clone(f.fields)
	fields["since"] = since
	f.fields = fields
	return f
}

// remember turns the facts of this message into the trailer's memory
// writes: one slot per kind; a multi-valued kind keeps what the slot held
// (read from the memories) and adds the new values.
func (k *knowledge) remember(h bot.Hints, said []fact) []rememberItem {
	out := []rememberItem{}
	for i := range k.facts {
		kind := &k.facts[i]
		var vals []fact
		for _, f := range said {
			if f.kind == kind {
				vals = append(vals, f)
			}
		}
		if len(vals) == 0 {
			continue
		}
		if !kind.Multi {
			out = append(out, rememberItem{Slot: kind.Slot, Content: kind.Label[h.Language] + vals[0].value(h.Language)})
			continue
		}
		var all []fact
		for _, m := range h.Memories {
			if strings.HasPrefix(m, kind.Label[h.Language]) {
				all = k.factsInMemory(m, h.Language)
			}
		}
		fresh := false
		for _, v := range vals {
			if n := len(all); v.was != "" {
				all = slices.DeleteFunc(all, v.replaces)
				fresh = fresh || len(all) < n
			}
			i := slices.IndexFunc(all, v.sameAs)
			if kind.Since {
				v = v.toldSince(h.Now, all, i)
			}
			switch {
			case i < 0:
				all, fresh = append(all, v), true
			case all[i].value(h.Language) != v.value(h.Language):
				all[i], fresh = v, true // Biscuit turned thirteen
			}
		}
		if !fresh {
			continue // nothing new to write
		}
		parts := make([]string, len(all))
		for j, f := range all {
			parts[j] = f.value(h.Language)
		}
		out = append(out, rememberItem{Slot: kind.Slot, Content: kind.Label[h.Language] + strings.Join(parts, factSep(h.Language))})
	}
	return out
}

// topicsIn returns the themes of text in topics.yaml order, at most
// maxTopicTags.
func (k *knowledge) topicsIn(text string) []*topic {
	seen := map[int]bool{}
	for _, hit := range k.topicSet.Find(text) {
		if i := k.topicOwner[hit.Index]; k.topics[i].Tag != "" {
			seen[i] = true
		}
	}
	var out []*topic
	for i := range k.topics {
		if seen[i] && len(out) < maxTopicTags {
			out = append(out, &k.topics[i])
		}
	}
	return out
}

// named returns the dictionary entries of d mentioned in text, in order.
func (k *knowledge) named(d, text string) []dictEntry {
	var out []dictEntry
	for _, h := range k.dictSet.Find(text) {
		if r := k.dictOwner[h.Index]; r.dict == d && !h.Negated {
			out = append(out, k.dicts[d][r.i])
		}
	}
	return out
}

// spanIn is the first span of time text names (words.yaml durations),
// skipping a span followed by its group "ago": a time since, not a span.
func spanIn(res []pattern, text string) string {
	for _, re := range res {
		if !re.may(text) {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if i := re.SubexpIndex("ago"); i >= 0 && m[i] != "" {
				continue
			}
			if v := strings.TrimSpace(m[re.SubexpIndex("duration")]); v != "" {
				return v
			}
		}
	}
	return ""
}

// firstGroup returns the first match of any pattern's group name in text.
func firstGroup(res []pattern, name, text string) string {
	for _, re := range res {
		if !re.may(text) {
			continue
		}
		if m := re.FindStringSubmatch(text); m != nil {
			if v := strings.TrimSpace(m[re.SubexpIndex(name)]); v != "" {
				return v
			}
		}
	}
	return ""
}

// answerFacts returns the facts this message tells as the answer to the
// question her last reply asked (facts.yaml answers): "her name is Mochi"
// after "What's their name?" about the kitten the user had just told of.
// A dictionary field the answer does not say is the answer's `set`, else
// the first word of that dictionary in the user's message before her
// question ("we got a kitten!": a cat); a fact missing a field is none.
func (t *turnView) answerFacts() []fact {
	before, last := t.lastExchange()
	if last == "" {
		return nil
	}
	var out []fact
	for i := range t.k.facts {
		kind := &t.k.facts[i]
		for _, a := range kind.Answers {
			if !t.askedAbout(last, a) || !t.k.namesAnyOf(before, a.Of) {
				continue
			}
			for _, re := range a.res {
				if !re.may(t.h.Text) {
					continue
				}
				m := re.FindStringSubmatch(t.h.Text)
				if m == nil {
					continue
				}
				f, ok := t.k.readFact(kind, re.SubexpNames(), m, t.lang)
				if ok && t.k.fillAnswer(&f, a, before, t.lang) {
					f.answer = true
					out = append(out, f)
				}
				break
			}
			if len(out) > 0 && out[len(out)-1].kind == kind {
				break // the first answer that reads one is the kind's
			}
		}
	}
	return out
}

// namesAnyOf reports whether text names one of the people whose English
// names are in of ("my friend had a baby": a friend); with none listed,
// any text does.
func (k *knowledge) namesAnyOf(text string, of []string) bool {
	if len(of) == 0 {
		return true
	}
	return slices.ContainsFunc(k.named(dictPeople, text), func(e dictEntry) bool { return slices.Contains(of, e.Name[langEN]) })
}

// askedAbout reports whether reply asked a question answer a is an answer
// to: one of its situations' questions, holding one of its asked words
// when it lists some.
func (t *turnView) askedAbout(reply string, a factAnswer) bool {
	for _, s := range a.After {
		q := strings.ToLower(t.askedIn(reply, s))
		if q != "" && (len(a.Asked) == 0 || slices.ContainsFunc(a.Asked, func(w string) bool { return strings.Contains(q, strings.ToLower(w)) })) {
			return true
		}
	}
	return false
}

// fillAnswer completes f, read from an answer, with the dictionary fields
// the answer did not say (see answerFacts) and reports whether every field
// of its value is known.
func (k *knowledge) fillAnswer(f *fact, a factAnswer, before, lang string) bool {
	for field, d := range f.kind.Dict {
		if f.fields[field] != "" {
			continue
		}
		if word, ok := a.Set[field]; ok {
			if e, found := k.dictEntry(d, word); found {
				f.fields[field] = e.Name[lang]
			}
			continue
		}
		if es := k.named(d, before); len(es) > 0 {
			f.fields[field] = es[0].Name[lang]
		}
	}
	for _, n := range f.kind.values[langEN].SubexpNames() {
		if n != "" && f.fields[n] == "" {
			return false
		}
	}
	return true
}

// withoutTails is v without the words of tails at its end, as often as
// they come ("the side effects though" → "the side effects"; facts.yaml
// tails): a value is kept and said back as a clean noun phrase.
func withoutTails(v string, tails []string) string {
	for trimmed := true; trimmed; {
		trimmed = false
		for _, t := range tails {
			low := strings.ToLower(v)
			rest, ok := strings.CutSuffix(low, " "+t)
			if ok && rest != "" && len(low) == len(v) {
				v, trimmed = strings.TrimSpace(v[:len(rest)]), true
			}
		}
	}
	return v
}
