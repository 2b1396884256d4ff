package brain

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/bot"
	"hearth/heart"
)

// recall answers "do you remember…" from what the user told, as the
// situation's recall says (how): the fact asked about (a pet's name, their
// own name, where they live…) and what they said about the thing asked
// (recollections first), in that order for recallFact and the other way
// round for recallSaid, else an honest "I don't think you told me";
// recallAll sums up the facts she keeps.
func (t *turnView) recall(how string) string {
	if how == recallAll {
		return t.recallAll()
	}
	asked := t.askedFact()
	if asked == nil {
		// "你还记得豆豆吗": a name they told is asked after by itself.
		for i := len(t.known) - 1; i >= 0; i-- {
			if f := t.known[i]; len(f.kind.Dict) > 0 && t.mentions(t.h.Text, f) {
				asked = f.kind
				break
			}
		}
	}
	said := func() string {
		if quote, when, from, ok := t.recallSaid(asked); ok {
			// "my grandpa passed away" is said back without a smile.
			t.plain = t.plain || slices.ContainsFunc(t.situationsOf(quote), func(s *situation) bool {
				return s.Kind == kindContent && (negative(s.Feel.Label) || s.Gone)
			})
			// "who did I play cards with?": the one named in what was
			// said, by name (the quote may be cut before it).
			if name := t.namedIn(from); how == recallWho && name != "" {
				return t.sayWith("remember.who", 2, map[string]string{"name": name, "when": when})
			}
			return t.sayWith("remember.said", 2, map[string]string{"quote": quote, "when": when})
		}
		return ""
	}
	if how == recallSaid || how == recallWho {
		if s := said(); s != "" {
			return s
		}
	}
	if asked != nil {
		// A kind with no fact kept is answered by a kind near it ("where
		// do I work?" by the job when only the job was told).
		for _, kind := range t.nearKinds(asked) {
			match := t.knownAnswer(kind)
			if match == nil {
				continue
			}
			if s := t.sayWith(t.k.wordKey("remember.known."+kind.Kind, *match), 2, t.k.spoken(*match, t.lang)); s != "" {
				return s
			}
		}
	}
	// No fact of the kind asked: what they said about it, recalled or
	// recent, is the next best answer ("我生日是哪天来着？" → the day they
	// named it).
	if s := said(); s != "" {
		return s
	}
	t.plain = true // "I don't think you told me" is no occasion for sparkles
	if asked != nil {
		if s := t.say("remember.unknown."+asked.Kind, 2); s != "" {
			return s
		}
	}
	return t.say("remember.unknown", 2)
}

// nearKinds are the kinds whose fact may answer a question asking for
// kind asked: itself, then its near ones (facts.yaml near).
func (t *turnView) nearKinds(asked *factKind) []*factKind {
	out := []*factKind{asked}
	for _, n := range asked.Near {
		for i := range t.k.facts {
			if t.k.facts[i].Kind == n {
				out = append(out, &t.k.facts[i])
			}
		}
	}
	return out
}

// spoken is what f's fields are as she says them in lang: a dictionary
// word by its name, a value of a kind that keeps the user's words
// (facts.yaml say_back) turned to hers ("losing my job" → "losing your
// job").
func (k *knowledge) spoken(f fact, lang string) map[string]string {
	fields := map[string]string{}
	for name, v := range f.fields {
		fields[name] = v
		if d, ok := f.kind.Dict[name]; ok {
			if e, found := k.dictEntry(d, v); found {
				fields[name] = e.Name[lang]
			}
		} else if f.kind.SayBack {
			fields[name] = k.sayBack(v)
		}
	}
	if len(f.kind.Whose) > 0 {
		fields["whose"] = strings.ReplaceAll(f.kind.Whose[lang], "{name}", fields["name"])
		if fields["name"] == f.kind.Self[lang] {
			fields["whose"], fields["name"] = f.kind.SelfWhose[lang], f.kind.SelfSaid[lang]
		}
	}
	return fields
}

// knownAnswer is the kept fact that answers a question asking for kind
// asked, or nil: all the values of a kind that lists things in the user's
// words ("flying and the dark"), together; a fact about someone (an age) only for the one the
// question names ("how old is my cat?" → Biscuit); a name the question
// says ("Do you remember Tom?") before whoever was told of last; and asked
// after one kind of pet or person ("my sister"), only that kind, never
// another person in their place.
func (t *turnView) knownAnswer(asked *factKind) *fact {
	want := ""
	for _, d := range asked.Dict {
		if es := t.k.named(d, t.h.Text); len(es) > 0 {
			want = es[0].Name[langEN]
		}
	}
	someone := asked.Kind != factName && len(asked.Dict) == 0 && strings.Contains(asked.Value[langEN], "{name}")
	if asked.Multi && len(asked.Dict) == 0 && !someone {
		return t.allKnown(asked)
	}
	who := t.vars["pet_name"]
	if who == "" {
		who = t.vars["person_name"]
	}
	byName := ""
	for _, f := range t.known {
		if n := f.fields["name"]; f.kind == asked && (len(f.kind.Dict) > 0 || someone) && n != "" && strings.Contains(strings.ToLower(t.h.Text), strings.ToLower(n)) {
			byName = n
		}
	}
	if who == "" && someone {
		who = byName // "what is Lily allergic to?", Lily told of only there
	}
	if who == "" && len(asked.Self) > 0 {
		who = asked.Self[t.lang] // "what am I allergic to?"
	}
	for i := len(t.known) - 1; i >= 0; i-- {
		f := &t.known[i]
		if f.kind != asked || someone && (who == "" || !strings.EqualFold(f.fields["name"], who)) {
			continue
		}
		if byName != "" && !strings.EqualFold(f.fields["name"], byName) {
			continue
		}
		if want == "" || sameFieldWord(t.k, *f, want) {
			return f
		}
	}
	return nil
}

// allKnown is every kept fact of kind, oldest first, as one fact whose
// fields list their values ("flying, spiders and the dark"), or nil.
func (t *turnView) allKnown(kind *factKind) *fact {
	vals := map[string][]string{}
	for _, f := range t.known {
		if f.kind == kind {
			for name, v := range f.fields {
				vals[name] = append(vals[name], v)
			}
		}
	}
	if len(vals) == 0 {
		return nil
	}
	all := &fact{kind: kind, fields: map[string]string{}}
	for name, vs := range vals {
		all.fields[name] = listOf(vs, t.lang)
	}
	return all
}

// listOf writes a list of things in lang: "a, b and c", 甲、乙和丙, AとBとC.
func listOf(vs []string, lang string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	head, last := vs[:len(vs)-1], vs[len(vs)-1]
	switch lang {
	case langZH:
		return strings.Join(head, "、") + "和" + last
	case langJA:
		return strings.Join(vs, "と")
	}
	return strings.Join(head, ", ") + " and " + last
}

// sameFieldWord reports whether f's dictionary field is the word want (an
// English dictionary name).
func sameFieldWord(k *knowledge, f fact, want string) bool {
	for field, d := range f.kind.Dict {
		if e, ok := k.dictEntry(d, f.fields[field]); ok && e.Name[langEN] == want {
			return true
		}
	}
	return false
}

// askedFact is the kind of fact a "do you remember…" question asks for:
// one its own words ask for ("how old" → age) before one a dictionary
// word names ("my cat" → pet), the first in facts.yaml order.
func (t *turnView) askedFact() *factKind {
	best, own := -1, false
	for _, h := range t.k.askSet.Find(t.h.Text) {
		i, o := t.k.askOwner[h.Index], t.k.askOwn[h.Index]
		if i < 0 {
			continue // an ask trap
		}
		if best < 0 || o && !own || o == own && i < best {
			best, own = i, o
		}
	}
	if best < 0 {
		return nil
	}
	return &t.k.facts[best]
}

// asks reports whether text has a word that asks for fact kind f.
func (k *knowledge) asks(text string, f *factKind) bool {
	for _, h := range k.askSet.Find(text) {
		if i := k.askOwner[h.Index]; i >= 0 && &k.facts[i] == f {
			return true
		}
	}
	return false
}

// How a "do you remember…" situation is answered (situations.yaml recall).
const (
	recallFact = "fact" // the fact asked for, else what was said
	recallSaid = "said" // what was said about it, else the fact
	recallAll  = "all"  // the facts she keeps, summed up
	// recallWho: who was named in what was said about it ("who did I
	// play cards with?" → Stan), else what was said, else the fact.
	recallWho = "who"
)

// namedIn is the name of the first pet or person the user told of that
// text names, "" if none.
func (t *turnView) namedIn(text string) string {
	low, at, name := strings.ToLower(text), -1, ""
	for _, f := range t.known {
		n := f.fields["name"]
		if len(f.kind.Dict) == 0 || n == "" {
			continue
		}
		if i := strings.Index(low, strings.ToLower(n)); i >= 0 && (at < 0 || i < at) {
			at, name = i, n
		}
	}
	return name
}

// maxQuoteRunes bounds a quoted earlier message (our choice: one line).
const maxQuoteRunes = 60

// recallSaid finds something the user said before about what the question
// names: recollections first (most relevant first, DESIGN §12), then
// memories, then the recent conversation, newest first. When the question
// asks for a kind of fact, only words that speak of it answer ("what's my
// name?" is not answered with "my sister's name is Mia"), unless both tell
// of the same event; see notSaid for what is never quoted.
func (t *turnView) recallSaid(asked *factKind) (quote, when, from string, ok bool) {
	q := t.recallQueryOf(asked)
	if q.needle == "" && len(q.tags) == 0 && q.feel == "" && len(q.sits) == 0 && len(q.names) == 0 {
		return t.recallShared(asked)
	}
	// Where several answer ("今年何を勉強したいって言ったっけ？": the goal
	// and the driving test are both study), the first that also shares a
	// word with the question ("今年", "勉強したい") is the one.
	subject := t.k.withoutAsking(t.h.Text)
	type said struct {
		text string
		at   time.Time // zero: undated (a memory, or history without dates)
	}
	var cands []said
	for _, r := range t.h.Recalled {
		cands = append(cands, said{r.Text, r.At})
	}
	for _, m := range t.h.Memories {
		cands = append(cands, said{text: m})
	}
	for i := len(t.h.Recent) - 1; i >= 0; i-- {
		if m := t.h.Recent[i]; m.Role == "user" {
			cands = append(cands, said{m.Content, m.At})
		}
	}
	for _, q.loose = range []bool{false, true} {
		if q.loose && q.needle == "" {
			break // nothing looser to try
		}
		first := -1
		for i, c := range cands {
			if !q.answers(c.text) {
				continue
			}
			if sharesWord(subject, c.text) {
				first = i
				break
			}
			if first < 0 {
				first = i
			}
		}
		if first >= 0 {
			c := cands[first]
			return quoteOf(c.text, q.answers), t.when(c.at), c.text, true
		}
	}
	return "", "", "", false
}

// recallQuery is what a recall question asks about (recallSaid).
type recallQuery struct {
	t      *turnView
	asked  *factKind       // the fact kind asked for, or nil
	needle string          // the words asked about ("my interview")
	tags   []string        // the question's themes
	feel   string          // "what I was worried about": what they said worried
	sits   map[string]bool // "你还记得我被裁员的事吗": the event asked about
	names  []string        // "when is Clara's wedding?": a known name asked about
	kinds  []dictEntry     // "how's my mum doing?": the pets and people asked after, by kind
	// loose lets a theme or a word of the needle's answer where nothing
	// says the words asked about themselves.
	loose bool
}

// recallQueryOf reads the recall question of this turn.
func (t *turnView) recallQueryOf(asked *factKind) *recallQuery {
	q := &recallQuery{t: t, asked: asked, needle: strings.ToLower(firstGroup(t.k.about, "about", t.h.Text)),
		feel: t.k.feelingIn(t.h.Text), sits: subjects(t.situationsOf(t.h.Text))}
	for _, tp := range t.topics {
		q.tags = append(q.tags, tp.Tag)
	}
	for _, f := range t.known {
		if n := f.fields["name"]; len(f.kind.Dict) > 0 && n != "" && strings.Contains(strings.ToLower(t.h.Text), strings.ToLower(n)) {
			q.names = append(q.names, strings.ToLower(n))
		}
	}
	if asked != nil {
		for _, d := range asked.Dict {
			q.kinds = append(q.kinds, t.k.named(d, t.h.Text)...)
		}
	}
	return q
}

// answers reports whether text answers the question: a name asked about,
// the event asked about (whatever fact kind the words ask), else words of
// the asked kind that say the needle, a theme, or the feeling asked about.
func (q *recallQuery) answers(text string) bool {
	k := q.t.k
	ss := q.t.situationsOf(text)
	if k.notSaid(text, q.t.h.Text, ss) {
		return false
	}
	for _, n := range q.names {
		if strings.Contains(strings.ToLower(text), n) {
			return true
		}
	}
	for s := range subjects(ss) {
		if q.sits[s] {
			return true
		}
	}
	if q.asked != nil && !k.asks(text, q.asked) {
		return false
	}
	// Asked after one kind of person or pet ("my mum"), only words about
	// that kind answer, never "my sister's name is Ana" said since.
	if len(q.kinds) > 0 && !slices.ContainsFunc(q.kinds, func(e dictEntry) bool { return q.t.names(text, e) }) {
		return false
	}
	if q.needle != "" {
		if q.loose {
			return k.saysOf(text, q.needle)
		}
		return strings.Contains(strings.ToLower(text), q.needle)
	}
	for _, tp := range k.topicsIn(text) {
		if slices.Contains(q.tags, tp.Tag) {
			return true
		}
	}
	if q.feel != "" && len(q.tags) == 0 {
		if k.feelingIn(text) == q.feel {
			return true
		}
		for _, s := range ss {
			if s.Kind == kindContent && s.Feel.Label == q.feel {
				return true
			}
		}
	}
	return false
}

// names reports whether text names dictionary entry e: by one of its
// words, or by the name of a pet or person the user told of as one
// ("Mochi" for "my cat").
func (t *turnView) names(text string, e dictEntry) bool {
	for _, d := range []string{dictPets, dictPeople} {
		for _, x := range t.k.named(d, text) {
			if x.Name[langEN] == e.Name[langEN] {
				return true
			}
		}
	}
	for _, f := range t.known {
		if n := f.fields["name"]; n != "" && strings.Contains(strings.ToLower(text), strings.ToLower(n)) && sameFieldWord(t.k, f, e.Name[langEN]) {
			return true
		}
	}
	return false
}

// saysOf reports whether text tells of what a question is about (the
// words after its "about"), loosely: the words themselves, a theme of theirs
// ("my health" and a doctor's appointment), or, in Chinese and Japanese,
// a word of theirs (结婚式 and 結婚する).
func (k *knowledge) saysOf(text, about string) bool {
	if strings.Contains(strings.ToLower(text), about) {
		return true
	}
	for _, a := range k.topicsIn(about) {
		for _, b := range k.topicsIn(text) {
			if a.Tag == b.Tag {
				return true
			}
		}
	}
	if r, _ := utf8.DecodeRuneInString(about); unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
		return sharesWord(about, text)
	}
	return false
}

// recallShared answers a question with nothing to match by: the recall
// stage's episodes are what it was about, the first sharing a word with
// it, else the most relevant; without those, the newest thing the user
// said in the conversation that shares a word with the question beyond
// its "do you remember" ("上个月" in "你记得我上个月发生了什么吗").
func (t *turnView) recallShared(asked *factKind) (quote, when, from string, ok bool) {
	subject := t.k.withoutAsking(t.h.Text)
	answers := func(text string) bool {
		return !t.k.notSaid(text, t.h.Text, t.situationsOf(text)) && (asked == nil || t.k.asks(text, asked))
	}
	shares := func(text string) bool { return sharesWord(subject, text) }
	var best *bot.Recollection
	for i := range t.h.Recalled {
		r := &t.h.Recalled[i]
		if r.Kind != "episode" || !answers(r.Text) {
			continue
		}
		if sharesWord(subject, r.Text) {
			best = r
			break
		}
		if best == nil {
			best = r
		}
	}
	if best != nil {
		return quoteOf(best.Text, shares), t.when(best.At), best.Text, true
	}
	for i := len(t.h.Recent) - 1; i >= 0; i-- {
		if m := t.h.Recent[i]; m.Role == "user" && answers(m.Content) && sharesWord(subject, m.Content) {
			return quoteOf(m.Content, shares), t.when(m.At), m.Content, true
		}
	}
	return "", "", "", false
}

// notSaid reports whether text (whose situations are ss) cannot answer
// the question q as something the user said: empty, q itself, a memory of
// facts ("Work: nurse", whose facts answered already if anything could),
// or an earlier "do you remember…" of theirs (a question tells nothing).
func (k *knowledge) notSaid(text, q string, ss []*situation) bool {
	if strings.TrimSpace(text) == "" || text == q || k.factMemory(text) != nil {
		return true
	}
	for _, s := range ss {
		if s.Recall != "" {
			return true
		}
	}
	return false
}

// subjects are the content situations of ss by name, the "do you
// remember" situation itself left out.
func subjects(ss []*situation) map[string]bool {
	out := map[string]bool{}
	for _, s := range ss {
		if s.Kind == kindContent && s.Recall == "" {
			out[s.Name] = true
		}
	}
	return out
}

// withoutAsking is text folded with the words that ask "do you remember"
// blanked, so that only what the question is about is left to match.
func (k *knowledge) withoutAsking(text string) string {
	folded := []byte(heart.Fold(text))
	for _, h := range k.sitSet.Find(text) {
		if i := k.sitOwner[h.Index]; i >= 0 && k.sits[i].Recall != "" {
			for j := h.Start; j < h.End; j++ {
				folded[j] = ' '
			}
		}
	}
	return string(folded)
}

// when says how long ago at was, relative to Hints.Now, as the reply
// prompt's recollections do (heart.RecallWhen: "about three weeks ago",
// "in January", never only "a while ago" months later).
func (t *turnView) when(at time.Time) string {
	if at.IsZero() || t.h.Now.IsZero() {
		return t.say("when.before", 7)
	}
	return heart.RecallWhen(at, t.h.Now, t.lang)
}

// quoteOf is what to quote of an earlier message: all of it when it
// fits maxQuoteRunes, else from the first sentence that answers (the one
// with the words asked about; the first sentence if none does) as many
// whole sentences as fit, a sentence too long for it cut at a word.
func quoteOf(text string, answers func(string) bool) string {
	text = strings.TrimSpace(text)
	if utf8.RuneCountInString(text) <= maxQuoteRunes {
		return text
	}
	ss := sentences(text)
	from := 0
	for i, s := range ss {
		if answers(s) {
			from = i
			break
		}
	}
	quote := ss[from]
	for _, s := range ss[from+1:] {
		if r, _ := utf8.DecodeLastRuneInString(quote); r < utf8.RuneSelf {
			s = " " + s // an English sentence's space
		}
		if utf8.RuneCountInString(quote+s) > maxQuoteRunes {
			break
		}
		quote += s
	}
	return heart.ClipRunes(quote, maxQuoteRunes+1) // the ellipsis beyond the quote
}

// sharesWord reports whether b holds a word of a: an English word of four
// letters or more, or two Chinese or Japanese characters in a row, one of
// them a kanji or katakana.
func sharesWord(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	for _, w := range strings.FieldsFunc(a, func(r rune) bool { return !unicode.IsLetter(r) }) {
		rs := []rune(w)
		if !unicode.Is(unicode.Han, rs[0]) && !unicode.In(rs[0], unicode.Hiragana, unicode.Katakana) {
			if len(rs) >= 4 && strings.Contains(b, w) {
				return true
			}
			continue
		}
		for i := 0; i+1 < len(rs); i++ {
			// Hiragana pairs ("って", "いつ") are grammar, not words.
			content := unicode.In(rs[i], unicode.Han, unicode.Katakana) || unicode.In(rs[i+1], unicode.Han, unicode.Katakana)
			if content && strings.Contains(b, string(rs[i:i+2])) {
				return true
			}
		}
	}
	return false
}

// feelingIn is the trailer label of the first feeling word in text
// (words.yaml feelings), "" if none.
func (k *knowledge) feelingIn(text string) string {
	for _, h := range k.feelSet.Find(text) {
		if !h.Negated {
			return k.feelOwner[h.Index]
		}
	}
	return ""
}

// recallAll sums up what she keeps of the user ("what do you remember
// about me?"): the facts they told, kind by kind in facts.yaml order, as
// /memories lists them; without any, what was recalled, else an honest
// "not much yet".
func (t *turnView) recallAll() string {
	var parts []string
	for i := range t.k.facts {
		kind := &t.k.facts[i]
		var vals []string
		for _, f := range t.known {
			if f.kind == kind {
				vals = append(vals, fact{kind: kind, fields: t.k.spoken(f, t.lang)}.value(t.lang))
			}
		}
		if len(vals) > 0 {
			parts = append(parts, kind.Label[t.lang]+strings.Join(vals, factSep(t.lang)))
		}
	}
	if len(parts) == 0 {
		if quote, when, _, ok := t.recallShared(nil); ok {
			return t.sayWith("remember.said", 2, map[string]string{"quote": quote, "when": when})
		}
		return t.say("remember.all.none", 2)
	}
	return t.sayWith("remember.all", 2, map[string]string{"facts": strings.Join(parts, factListSep(t.lang))})
}

// factListSep joins the kinds of fact in a summary in lang.
func factListSep(lang string) string {
	if lang == langEN {
		return ". "
	}
	return "。"
}

// factFear is the fact kind of what the user is afraid of (facts.yaml).
const factFear = "fear"

// fearMet is what she says when the message meets something the user
// told her they fear ("a dog chased me" from someone afraid of dogs,
// 被一只狗追, 犬に追いかけられた): that she remembers it, and a gentle
// how-are-you (phrases reflect.fear); "" when it meets none, or tells the
// fear itself.
func (t *turnView) fearMet() string {
	if slices.ContainsFunc(t.facts, func(f fact) bool { return f.kind.Kind == factFear }) {
		return ""
	}
	for i := len(t.known) - 1; i >= 0; i-- {
		if f := t.known[i]; f.kind.Kind == factFear && (t.meets(t.h.Text, f.fields["what"]) || t.k.fearMetBy(f.fields["what"], t.h.Text)) {
			return t.sayWith(t.fearKey(), 3, t.k.spoken(f, t.lang))
		}
	}
	return ""
}

// meets reports whether text names the thing feared: a Chinese or
// Japanese fear as written (高いところ; one character only when it is a
// pet's or person's word, 狗 or 犬: 黑 is in 黑色 too), an English one by
// the stem of its last word ("dogs" in "a dog chased me", "flying" in "I
// fly tomorrow").
func (t *turnView) meets(text, feared string) bool {
	if feared == "" {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(feared); r >= utf8.RuneSelf {
		if utf8.RuneCountInString(feared) == 1 && !t.k.wholeWord(dictPets, feared) && !t.k.wholeWord(dictPeople, feared) {
			return false
		}
		return strings.Contains(text, feared)
	}
	ws := strings.Fields(strings.ToLower(feared))
	stem := ws[len(ws)-1]
	if s, ok := strings.CutSuffix(stem, "ing"); ok && len(s) >= minStemLetters {
		stem = s
	} else if s, ok := strings.CutSuffix(stem, "s"); ok && len(s) >= minStemLetters {
		stem = s
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if strings.HasPrefix(w, stem) {
			return true
		}
	}
	return false
}

// minStemLetters is the shortest English stem a feared thing is met by
// (our choice: "fly" of "flying"; a shorter one is in too many words).
const minStemLetters = 3

// toldBefore reports whether the user told of the thing about before this
// message ("the exam is tomorrow" after "I have my bar exam on March 12"
// weeks ago): a recollection or an earlier message of theirs names it, by
// its words or by a theme worth asking after (考试 and 考研复试).
func (t *turnView) toldBefore(about string) bool {
	themes := map[string]bool{}
	for _, tp := range t.k.topicsIn(about) {
		if !tp.Passing {
			themes[tp.Tag] = true
		}
	}
	names := func(text string) bool {
		if strings.Contains(strings.ToLower(text), strings.ToLower(about)) || sharesWord(about, text) {
			return true
		}
		return slices.ContainsFunc(t.k.topicsIn(text), func(tp *topic) bool { return themes[tp.Tag] })
	}
	for _, r := range t.h.Recalled {
		if r.Kind == "episode" && names(r.Text) {
			return true
		}
	}
	for _, m := range t.h.Recent {
		if m.Role == "user" && m.Content != t.h.Text && names(m.Content) {
			return true
		}
	}
	return false
}
