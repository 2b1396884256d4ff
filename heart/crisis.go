package heart

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CrisisCategory is what the crisis floor found in a message, in the frame
// of the Columbia Suicide Severity Rating Scale (data/crisis.txt names the
// sources), plus non-suicidal self-harm and CrisisModel for a crisis only
// the model's perception saw. Every category puts the user in Watch (seed
// 003 §3.1 "出现自杀/自伤表达"); the category tells the reviewer what kind.
type CrisisCategory string

// The crisis categories, least to most severe by the C-SSRS screener's
// order. The values are stable: the store keeps them.
const (
	CrisisNone CrisisCategory = ""
	// CrisisConcern is the floor's second tier: words ambiguous alone ("I
	// just want it all to stop", "I know what I'd use", a goodbye with
	// thanks) that are a warning sign in a talk already at risk
	// (CrisisReading.AtRisk). CrisisFloor never returns it.
	CrisisConcern     CrisisCategory = "concern"
	CrisisModel       CrisisCategory = "model"       // only the model's perception flagged it
	CrisisWishDead    CrisisCategory = "wish_dead"   // C-SSRS 1: wish to be dead, passive ideation
	CrisisSelfHarm    CrisisCategory = "self_harm"   // non-suicidal self-injury (seed 003 "自伤")
	CrisisIdeation    CrisisCategory = "ideation"    // C-SSRS 2: active thoughts of suicide
	CrisisMethod      CrisisCategory = "method"      // C-SSRS 3: thinking about how
	CrisisIntent      CrisisCategory = "intent"      // C-SSRS 4: some intention to act
	CrisisPlan        CrisisCategory = "plan"        // C-SSRS 5: details worked out
	CrisisPreparation CrisisCategory = "preparation" // C-SSRS 6: preparatory behaviour
	// CrisisAttempt is the C-SSRS "actual attempt": an attempt made or
	// under way ("took the whole bottle", 炭已经点了, 薬全部飲んだ). The
	// most severe category, and an emergency: the reply asks first for the
	// emergency number and a person nearby (bot.safetyLines, the offline
	// brain's crisis.kind.attempt).
	CrisisAttempt CrisisCategory = "attempt"
)

// severity orders the categories; 0 is none or unknown.
func (c CrisisCategory) severity() int {
	switch c {
	case CrisisConcern:
		return 1
	case CrisisModel:
		return 2
	case CrisisWishDead:
		return 3
	case CrisisSelfHarm:
		return 4
	case CrisisIdeation:
		return 5
	case CrisisMethod:
		return 6
	case CrisisIntent:
		return 7
	case CrisisPlan:
		return 8
	case CrisisPreparation:
		return 9
	case CrisisAttempt:
		return 10
	}
	return 0
}

// MoreSevere returns whichever of c and d is more severe.
func (c CrisisCategory) MoreSevere(d CrisisCategory) CrisisCategory {
	if d.severity() > c.severity() {
		return d
	}
	return c
}

// Emergency reports whether c calls for emergency help now, before
// anything else: an attempt made or under way.
func (c CrisisCategory) Emergency() bool { return c == CrisisAttempt }

// CrisisFloor is the crisis floor (DESIGN §3 step 5): the most severe
// category of self-harm expression in text, in Chinese, English or
// Japanese, or CrisisNone. It never depends on a model, so a perception
// outage or a spent budget cannot hide a crisis; the model's flag only adds
// to it. The lexicon (data/crisis.txt) holds everything it knows: word and
// phrase structures by category, named sets combined by rules ("a farewell
// and a sign of finality, and no promise to come back"), everyday idioms
// masked first, and the guards (negations and other people before a
// phrase, Japanese negations after it, quotations framed as lyrics). A
// phrase inside the book-title marks 《…》 never counts.
func CrisisFloor(text string) CrisisCategory { return ReadCrisis(text).Floor() }

// CrisisReading is one read of a message by the crisis floor's lexicon:
// the most severe category found (the concern tier included) and the named
// sets that matched, which the questions below are asked of, so a turn
// reads its message once.
type CrisisReading struct {
	found CrisisCategory
	sets  setBits
	// joke: a downgrade of the concern tier read the message's death wish
	// as hyperbole about a trifle ("kms this printer"); found is what the
	// rest of the message says.
	joke bool
	// ordinary: a rule of the lexicon's ordinary section made the whole
	// message ordinary ("I used to self-harm; six years now and I'm doing
	// well"): it adds nothing to its talk either (ReadTalk).
	ordinary bool
	l        *crisisLexicon
	// text is the message read, for what it says to the companion in a
	// crisis talk (Cue), read only when a talk needs it.
	text string
}

// ReadCrisis reads text with the crisis floor's lexicon (twice when a
// downgrade's sets hold, see readAll).
func ReadCrisis(text string) CrisisReading { return crisisLex().reading(text) }

// reading reads text with l.
func (l *crisisLexicon) reading(text string) CrisisReading {
	r := l.readAll(text)
	r.l, r.text = l, text
	return r
}

// Floor is CrisisFloor's answer: the concern tier does not count.
func (c CrisisReading) Floor() CrisisCategory {
	if c.found == CrisisConcern {
		return CrisisNone
	}
	return c.found
}

// AtRisk is the floor for a talk already at risk
// (Relationship.talkAtRisk): the lexicon's [concern] tier counts too, as
// CrisisConcern, and so does a death wish read as hyperbole about a trifle.
func (c CrisisReading) AtRisk() CrisisCategory {
	if c.joke {
		return c.found.MoreSevere(CrisisConcern)
	}
	return c.found
}

// Hyperbole reports whether the message's only warning sign is a death
// wish said of a trifle and marked as hyperbole ("kms this printer", 这个
// 会开得我想死, そのギャグ寒すぎて死にたいw): ordinary in a light talk, it
// counts as the concern tier only in a talk already at risk, and starts
// none.
func (c CrisisReading) Hyperbole() bool {
	return c.joke && c.found.severity() < CrisisConcern.severity()
}

// Answer reads the message as a reply to the companion's direct question
// about suicide (DESIGN §3 step 5, "asked directly"): yes says it affirms
// ("yeah", "kind of", 嗯, うん), no that it denies ("no, not like that",
// 不是的, ううん). Both false: neither, or both at once ("yes… no, I
// don't know"). The words are the lexicon's sets "affirm" and "deny".
func (c CrisisReading) Answer() (yes, no bool) {
	yes, no = c.sets.has(c.l.affirm), c.sets.has(c.l.deny)
	if yes && no {
		return false, false
	}
	return yes, no
}

// asksNumbers reports whether the message asks for the crisis lines or
// a number to call (the set "help_numbers").
func (c CrisisReading) asksNumbers() bool { return c.sets.has(c.l.numbers) }

// asksHelp reports whether the message asks for help ("please help me",
// 救救我, 助けて: the set "help_me").
func (c CrisisReading) asksHelp() bool { return c.sets.has(c.l.helpMe) }

// Leaving reports whether the message says goodbye (the set "bye").
func (c CrisisReading) Leaving() bool { return c.sets.has(c.l.bye) }

// AsksWhy reports whether the message asks why, or what was meant (the
// set "deflect"): no answer to the direct question about suicide.
func (c CrisisReading) AsksWhy() bool { return c.sets.has(c.l.why) }

// readAll reads text: the most severe category the patterns and rules
// find and the sets that matched (readText). When a downgrade's sets hold,
// the text is read again with what its first set matched masked, and that
// reading stands if it is milder: the hyperbole's own words no longer
// count, the rest of the message does.
func (l *crisisLexicon) readAll(text string) CrisisReading {
	if text == "" {
		return CrisisReading{}
	}
	m := l.readText(text, nil)
	for i := range l.downgrades {
		d := &l.downgrades[i]
		if !m.sets.all(d.need) || m.sets.any(d.not) {
			continue
		}
		if again := l.readText(text, d); again.found.severity() < m.found.severity() {
			return CrisisReading{found: again.found, sets: again.sets, joke: true, ordinary: again.ordinary}
		}
	}
	return CrisisReading{found: m.found, sets: m.sets, ordinary: m.ordinary}
}

// readText reads text with the downgrade d's masks (none when nil). When a
// rule of the ordinary section holds, its own words are set aside and the
// rest is read (restOf): "rope for the trip" explains the rope, not "i've
// been saving up my pills" after it. Only when the rule's clauses are the
// whole message is the message ordinary; and when no clause is the rule's
// (a set that matched only across two clauses), the whole message is
// ordinary, as it was before rules read clauses. (Whether a clause was set
// aside is asked of restOf, not read off the rest's length: the rest is
// the text folded and its clauses joined by spaces, so its length says
// nothing, and "bought life, insurance. just in, case" once grew a space a
// turn forever.)
func (l *crisisLexicon) readText(text string, d *crisisDowngrade) crisisMatch {
	m := l.readWith(text, d)
	for m.rule != nil {
		rest, dropped := l.restOf(text, d, m.rule)
		if rest == "" || !dropped {
			return crisisMatch{ordinary: true}
		}
		text = rest
		m = l.readWith(text, d)
	}
	return m
}

// restOf is text without the ordinary rule r's clauses (crisisClauses),
// each read alone: those where r holds by itself ("キャンプ用にロープ買った"),
// or if there are none, those where a set r needs matched ("I used to
// self-harm; six years now and I'm doing well" says its past in one
// clause and its recovery in the next). dropped reports whether any
// clause was set aside.
func (l *crisisLexicon) restOf(text string, d *crisisDowngrade, r *crisisRule) (rest string, dropped bool) {
	clauses := crisisClauses(text)
	sets := make([]setBits, len(clauses))
	whole := false
	for i, c := range clauses {
		sets[i] = l.readPatterns(c, d).sets
		whole = whole || sets[i].all(r.need) && !sets[i].any(r.not)
	}
	var b strings.Builder
	for i, c := range clauses {
		if whole && sets[i].all(r.need) && !sets[i].any(r.not) || !whole && sets[i].any(r.need) {
			dropped = true
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c)
	}
	return b.String(), dropped
}

// crisisClauses splits text after each run of the marks that end a
// clause (crisisClauseEnd), outside quotation marks; each clause keeps its
// marks, so clauses put back together read as the text did.
func crisisClauses(text string) []string {
	text = relFold(text)
	var out []string
	start, closer, ended := 0, rune(0), false
	prev := ' '
	for i, r := range text {
		next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
		switch {
		case closer != 0:
			if r == closer && (r != '\'' || singleQuoteCloses(prev, next)) {
				closer = 0
			}
		case crisisCloser(r) != 0 && (r != '\'' || singleQuoteOpens(prev, next)):
			if ended {
				out, start, ended = append(out, text[start:i]), i, false
			}
			closer = crisisCloser(r)
		case crisisClauseEnd(r, prev, next):
			ended = true
		case ended && !unicode.IsSpace(r):
			out, start, ended = append(out, text[start:i]), i, false
		}
		prev = r
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// crisisClauseEnd reports whether r ends a clause: a sentence's end, a
// semicolon, a comma or a line break, in English, Chinese or Japanese
// (relFold has made full-width marks ASCII); a point between digits
// ("2.5") ends nothing.
func crisisClauseEnd(r, prev, next rune) bool {
	switch r {
	case '.':
		return !unicode.IsDigit(prev) || !unicode.IsDigit(next)
	case '!', '?', ';', ',', '\n', '。', '、', '…':
		return true
	}
	return false
}

// readWith reads text with the downgrade d's masks (none when nil): the
// patterns, then the rules. When a rule of the ordinary section holds, the
// match is ordinary and names the rule (readText reads the rest).
func (l *crisisLexicon) readWith(text string, d *crisisDowngrade) crisisMatch {
	m := l.readPatterns(text, d)
	for i := range l.rules {
		r := &l.rules[i]
		if !m.sets.all(r.need) || m.sets.any(r.not) {
			continue
		}
		if r.cat == CrisisNone {
			m.found, m.ordinary, m.rule = CrisisNone, true, r
			return m
		}
		m.found = m.found.MoreSevere(r.cat)
	}
	return m
}

// readPatterns runs the patterns over text, with the downgrade d's masks:
// the writer's own words, and what stands in quotation marks unless the
// message frames it as a quotation and does not own it ("literally me").
func (l *crisisLexicon) readPatterns(text string, d *crisisDowngrade) crisisMatch {
	m := crisisMatch{sets: l.newSets()}
	plain, quoted := crisisSegments(text)
	for _, seg := range plain {
		l.read(seg, &m, d)
	}
	if !m.sets.has(l.frame) || m.sets.has(l.own) {
		for _, seg := range quoted {
			l.read(seg, &m, d)
		}
	}
	return m
}

// CrisisText reports whether the crisis floor finds anything in text.
func CrisisText(text string) bool { return CrisisFloor(text) != CrisisNone }

// crisisMatch is what the patterns found in a message so far: the most
// severe category and the named sets that matched (bits by set index).
type crisisMatch struct {
	found CrisisCategory
	sets  setBits
	// ordinary: a rule of the ordinary section held (CrisisReading.ordinary).
	ordinary bool
	// rule is the ordinary rule that held, whose clauses readText sets
	// aside, or nil.
	rule *crisisRule
}

// wants reports whether a match of a pattern of category cat or set set
// could still change m.
func (m *crisisMatch) wants(cat CrisisCategory, set int) bool {
	if set >= 0 {
		return !m.sets.has(set)
	}
	return cat.severity() > m.found.severity()
}

// hit records a match.
func (m *crisisMatch) hit(cat CrisisCategory, set int) {
	if set >= 0 {
		m.sets.add(set)
		return
	}
	m.found = m.found.MoreSevere(cat)
}

// read runs every category and set pattern over one segment of text, with
// the downgrade d's masks if given.
func (l *crisisLexicon) read(seg string, m *crisisMatch, d *crisisDowngrade) {
	ws, joined := l.crisisWordsOf(seg, d, m)
	l.readWords(&l.en, ws, m)
	if joined != nil {
		l.readWords(&l.en, joined, m)
	}
	l.readCJK(l.compactOf(seg, d), m)
}

// readWords runs the English patterns of pats over one reading of a
// segment.
func (l *crisisLexicon) readWords(pats *crisisPatternSet, ws []string, m *crisisMatch) {
	for i := range ws {
		l.readAt(pats, ws, i, m)
	}
}

// readAt runs the English patterns of pats that start at word i.
func (l *crisisLexicon) readAt(pats *crisisPatternSet, ws []string, i int, m *crisisMatch) {
	pats.at(ws[i], func(p *crisisPattern) {
		if m.wants(p.cat, p.set) {
			if _, ok := l.match(p, ws, i, 0); ok && (p.self || !l.wordGuarded(ws, i)) {
				m.hit(p.cat, p.set)
			}
		}
	})
}

// crisisSegments splits text into what the floor reads as the writer's own
// words (plain) and what stands in quotation marks ("…", “…”, 「…」, 『…』),
// which counts unless the message frames it as a quotation (a lyric, a
// line of a film: the lexicon's quotation set). Spans inside the Chinese
// book-title marks 《…》 are dropped: a title never reads as an expression.
func crisisSegments(text string) (plain, quoted []string) {
	text = relFold(text)
	var cur strings.Builder
	closer := rune(0) // the mark that ends the span being read
	flush := func() {
		if cur.Len() == 0 {
			return
		}
		if closer == 0 {
			plain = append(plain, cur.String())
		} else if closer != '》' {
			quoted = append(quoted, cur.String())
		}
		cur.Reset()
	}
	prev := ' ' // the rune before r; the start of the text reads as a space
	for i, r := range text {
		next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
		switch {
		case closer != 0 && r == closer && (r != '\'' || singleQuoteCloses(prev, next)):
			flush()
			closer = 0
			prev = r
			continue
		case closer == 0 && crisisCloser(r) != 0 && (r != '\'' || singleQuoteOpens(prev, next)):
			flush()
			closer = crisisCloser(r)
			prev = r
			continue
		}
		cur.WriteRune(r)
		prev = r
	}
	closer = 0 // an unclosed mark quotes nothing: the rest is plain text
	flush()
	return plain, quoted
}

// crisisCloser returns the mark that closes the opening mark r, or 0
// (relFold has made typographic quotes ASCII). A single quote is also an
// apostrophe: see singleQuoteOpens.
func crisisCloser(r rune) rune {
	switch r {
	case '"', '\'':
		return r
	case '「':
		return '」'
	case '『':
		return '』'
	case '《':
		return '》'
	}
	return 0
}

// singleQuoteOpens reports whether a single quote between prev and next
// opens a quotation ("the song goes 'i wanna die'"): it starts a word
// rather than standing inside one, as the apostrophe of "i'm" or "dogs'"
// does. An opening quote that never closes ('til, 'cause) quotes nothing.
func singleQuoteOpens(prev, next rune) bool {
	return !crisisWordRune(prev) && crisisWordRune(next)
}

// singleQuoteCloses reports whether a single quote between prev and next
// closes a quotation: it ends a word and no word goes on after it, so the
// apostrophe of "i'm" inside a quotation closes nothing.
func singleQuoteCloses(prev, next rune) bool {
	return !unicode.IsSpace(prev) && !crisisWordRune(next)
}

func crisisWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordGuarded reports whether the words before position i turn a match
// into its opposite or make it about someone else. Going back over glue
// words ("going to", "really", "ever"), it looks at the first other word:
// a negation ("i dont want to die", "im not going to kill myself") or
// another person ("do you ever want to die"). "i dont know, i want to die"
// stays a crisis: "know" is no glue. The word lists live in the lexicon's
// [guard] section. The guard is deliberately small: a false alarm costs the
// user a gentle message, a miss can cost much more.
func (l *crisisLexicon) wordGuarded(ws []string, i int) bool {
	g := &l.guard
	k := i - 1
	for skipped := 0; k >= 0 && skipped < CrisisGlueWords && g.glue[ws[k]]; skipped++ {
		k--
	}
	return k >= 0 && (g.negation[ws[k]] || g.other[ws[k]])
}

// DefaultCrisisResources is the message sent at once when a user enters
// Watch and the persona names no crisis_resources of its own. Hearth's
// choice of lines, all free and widely published: 988 Suicide & Crisis
// Lifeline (US, call or text), Samaritans 116 123 (UK and Ireland),
// findahelpline.com (other countries); 北京心理危机研究与干预中心
// 010-82951332 and 希望24热线 400-161-9995 (mainland China); いのちの電話
// 0570-783-556 (Japan). Each text starts with the local emergency number,
// because immediate danger comes first.
func DefaultCrisisResources(lang string) string {
	return relPick(lang,
		"我很在意你现在的感受，你不必一个人扛着。\n"+
			"如果你有危险，请马上拨打 120 或 110。\n"+
			"你也可以随时打给愿意倾听的人：\n"+
			"· 北京心理危机研究与干预中心 010-82951332（24小时）\n"+
			"· 希望24热线 400-161-9995（24小时）\n"+
			"如果愿意的话，也可以告诉一个你信任的人。我会在这里陪着你。",
		"I care about how you're feeling, and you don't have to carry this alone.\n"+
			"If you are in danger right now, please call your local emergency number (911 in the US, 999 or 112 in the UK and Europe).\n"+
			"You can also talk to someone who wants to listen, any time:\n"+
			"· US: call or text 988 (Suicide & Crisis Lifeline)\n"+
			"· UK and Ireland: Samaritans, 116 123\n"+
			"· Elsewhere: findahelpline.com lists free, confidential lines in your country\n"+
			"If you can, let someone you trust know how you feel. I'm here with you.",
		"あなたの気持ちをとても大切に思っています。ひとりで抱え込まなくて大丈夫です。\n"+
			"いま危険な状態なら、すぐに119（救急）か110に電話してください。\n"+
			"話を聴いてくれる窓口もあります：\n"+
			"・いのちの電話 0570-783-556\n"+
			"もしよければ、信頼できる人にも今の気持ちを伝えてみてください。私はここにいます。")
}
