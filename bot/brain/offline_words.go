package brain

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"hearth/bot"
)

// How the offline brain words a reply: it picks a variant of a phrase key
// (phrases.yaml) for the conversation's states, fills its placeholders, and
// avoids what it said in its last replies; English gets its articles and
// capitals right.

// say picks a variant of key (or of its conditional forms) and fills it.
func (t *turnView) say(key string, slot uint64) string { return t.sayWith(key, slot, nil) }

// sayOnly is say restricted to the conditional forms of key.
func (t *turnView) sayOnly(key string, slot uint64) string {
	for _, k := range t.keys(key) {
		if k != key {
			if s := t.pick(k, slot, nil); s != "" {
				return s
			}
		}
	}
	return ""
}

// sayWith is say with extra placeholder values.
func (t *turnView) sayWith(key string, slot uint64, extra map[string]string) string {
	for _, k := range t.keys(key) {
		if s := t.pick(k, slot, extra); s != "" {
			return s
		}
	}
	return ""
}

// keys lists key's conditional forms for the states that hold, then key.
// A form said at most once a talk (words.yaml once) is left out once any
// reply of the talk has said it.
func (t *turnView) keys(key string) []string {
	var out []string
	for _, s := range t.states {
		k := key + "." + s
		if _, ok := t.k.book[k]; ok && !(t.k.once[k] && t.saidInTalk(k)) {
			out = append(out, k)
		}
	}
	return append(out, key)
}

// saidInTalk reports whether a reply of the talk (Hints.Recent, however
// far back) said a variant of key.
func (t *turnView) saidInTalk(key string) bool {
	said := map[string]bool{}
	for _, m := range t.h.Recent {
		if m.Role == "assistant" {
			for _, s := range sentences(m.Content) {
				said[normSentence(s)] = true
			}
		}
	}
	for _, v := range t.k.book[key][t.lang] {
		if s, ok := fill(v, func(n string) string { return t.vars[n] }); ok && slices.ContainsFunc(sentences(s), func(x string) bool { return said[normSentence(x)] }) {
			return true
		}
	}
	return false
}

// pick chooses a variant of key whose placeholders can all be filled,
// starting at a deterministic place and skipping variants said in the
// recent replies; when every usable variant was said lately, the one said
// longest ago.
func (t *turnView) pick(key string, slot uint64, extra map[string]string) string {
	vs := t.k.book[key][t.lang]
	if len(vs) == 0 {
		return ""
	}
	lookup := func(name string) string {
		if v, ok := extra[name]; ok {
			return v
		}
		return t.vars[name]
	}
	start := pick(t.seed, slot, len(vs))
	asking := strings.HasPrefix(key, "ask") || strings.Contains(key, ".ask")
	best, bestAge, bestSpec, bestStale := "", -1, -1, true
	for i := range vs {
		v := vs[(start+i)%len(vs)]
		s, ok := fill(v, lookup)
		if !ok {
			continue
		}
		// The most specific wording wins: a variant that names what was
		// said ("I hope Miso feels better soon") over a general one; but
		// a question is not asked word for word again right after it was
		// asked: 她腰疼 after 我妈最近身体不太好 heard "你妈妈现在怎么样
		// 了？" twice in a row. (A reflection said lately is left out
		// instead: compose, reflectAgain.)
		spec := specificity(v)
		age := t.lastSaid(s)
		stale := asking && age >= 0 && age < specificAgain
		switch {
		case stale && !bestStale:
		case !stale && bestStale && best != "":
			best, bestAge, bestSpec, bestStale = s, age, spec, stale
		case spec < bestSpec:
		case spec > bestSpec:
			best, bestAge, bestSpec, bestStale = s, age, spec, stale
		case bestAge >= 0 && (age < 0 || age > bestAge):
			best, bestAge, bestStale = s, age, stale
		}
	}
	return best
}

// specificAgain is how many replies pass before a specific question may win
// over a fresh general one again (our choice: one, the reply just before,
// so a name is not asked after in the same words twice in a row).
const specificAgain = 1

// specificity counts a variant's placeholders that carry what the user
// said (the names of user and persona carry nothing new); a name counts
// twice ("happy birthday to Biscuit" over "happy birthday to your cat"),
// and so does her own favourite of what was named: "cats or dogs?" is
// answered with the cats she always names, not a pick by chance.
func specificity(v string) int {
	n := strings.Count(v, "{") - strings.Count(v, "{user}") - strings.Count(v, "{persona}")
	for _, name := range []string{"{pet_name}", "{person_name}", "{someone}", "{favorite}"} {
		n += strings.Count(v, name)
	}
	return n
}

// fill replaces every {name} with its value; ok is false when one is empty.
func fill(v string, lookup func(string) string) (string, bool) {
	var b strings.Builder
	for {
		i := strings.IndexByte(v, '{')
		if i < 0 {
			b.WriteString(v)
			return b.String(), true
		}
		j := strings.IndexByte(v[i:], '}')
		if j < 0 {
			b.WriteString(v)
			return b.String(), true
		}
		val := lookup(v[i+1 : i+j])
		if val == "" {
			return "", false
		}
		b.WriteString(v[:i])
		b.WriteString(val)
		v = v[i+j+1:]
	}
}

// mark counts s as just said, so the rest of this reply avoids it.
func (t *turnView) mark(s string) {
	for _, sent := range sentences(s) {
		t.said[normSentence(sent)] = 0
	}
}

// lastSaid is how many replies ago a sentence of s was said, -1 if none
// of the recent replies said any.
func (t *turnView) lastSaid(s string) int { return ageIn(t.said, s) }

// ageIn is how many replies ago a sentence of s was said by said's count,
// -1 if none was.
func ageIn(said map[string]int, s string) int {
	age := -1
	for _, sent := range sentences(s) {
		if a, ok := said[normSentence(sent)]; ok && (age < 0 || a < age) {
			age = a
		}
	}
	return age
}

// recentSentences indexes the sentences of the last recentReplies
// assistant messages by how many replies ago they were said.
func recentSentences(recent []bot.ChatMessage) map[string]int {
	out := map[string]int{}
	age := 0
	for i := len(recent) - 1; i >= 0 && age < recentReplies; i-- {
		if recent[i].Role != "assistant" {
			continue
		}
		for _, s := range sentences(recent[i].Content) {
			if n := normSentence(s); n != "" {
				if _, ok := out[n]; !ok {
					out[n] = age
				}
			}
		}
		age++
	}
	return out
}

// sentences splits text after sentence-ending punctuation.
func sentences(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if strings.ContainsRune(".!?。！？", r) {
			end := i + utf8.RuneLen(r)
			if s := strings.TrimSpace(text[start:end]); s != "" {
				out = append(out, s)
			}
			start = end
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// normSentence folds a sentence for comparison: lower case, letters and
// digits only.
func normSentence(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// giftForms names a gift with an indefinite and a definite article in
// English ("a bouquet of roses" → "a bouquet of roses", "the bouquet of
// roses"; "flowers" → "flowers", "the flowers"); other languages use it as
// given.
func giftForms(item, lang string) (indefinite, definite string) {
	item = strings.TrimSpace(item)
	if lang != langEN {
		return item, item
	}
	lower := strings.ToLower(item)
	bare := item
	for _, det := range []string{"a ", "an ", "the ", "some ", "my ", "your ", "one "} {
		if strings.HasPrefix(lower, det) {
			bare = strings.TrimSpace(item[len(det):])
			break
		}
	}
	head := strings.ToLower(bare)
	if i := strings.Index(head, " of "); i > 0 {
		head = head[:i]
	}
	if head == "" {
		return item, item
	}
	plural := strings.HasSuffix(head, "s") && !strings.HasSuffix(head, "ss")
	switch {
	case bare != item:
		indefinite = item
	case plural:
		indefinite = bare
	case strings.ContainsRune("aeiou", rune(head[0])):
		indefinite = "an " + bare
	default:
		indefinite = "a " + bare
	}
	return indefinite, "the " + bare
}

// capitalise upper-cases the first letter of every English sentence.
func capitalise(s, lang string) string {
	if lang != langEN {
		return s
	}
	rs := []rune(s)
	start := true
	for i, r := range rs {
		switch {
		case start && unicode.IsLetter(r):
			rs[i] = unicode.ToUpper(r)
			start = false
		case strings.ContainsRune(".!?", r):
			start = true
		case start && !unicode.IsSpace(r) && r != '"':
			start = false
		}
	}
	return string(rs)
}

// yourThing is what a follow-up is about, as the companion names it to
// the user: "exam" → "your exam", "my interview" → "your interview", "the
// trip" stays, and a shared event is "the party" (words.yaml
// shared_events); in Chinese and Japanese the user's 我的/私の becomes 你的
// or goes.
func (k *knowledge) yourThing(about, lang string) string {
	about = strings.TrimSpace(about)
	switch lang {
	case langZH:
		if rest, ok := strings.CutPrefix(about, "我"); ok && !strings.HasPrefix(rest, "的") {
			return "你" + rest // 我女儿的入园第一天 (heart's owned follow-up)
		}
		return strings.Replace(about, "我的", "你的", 1)
	case langJA:
		return strings.TrimPrefix(strings.TrimPrefix(about, "私の"), "僕の")
	}
	lower := strings.ToLower(about)
	if first, _, _ := strings.Cut(about, " "); strings.HasSuffix(first, "'s") {
		return about // Lily's first day at kindergarten: hers, not the user's
	}
	if strings.HasPrefix(lower, "my ") {
		return "your " + about[3:]
	}
	for _, det := range []string{"the ", "a ", "an ", "your ", "his ", "her ", "their ", "our "} {
		if strings.HasPrefix(lower, det) {
			return about
		}
	}
	if k.sharedEvents.Has(about) {
		return "the " + about
	}
	return "your " + about
}
