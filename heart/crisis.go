package heart

import "strings"

// CrisisCategory is what the crisis floor found in a message, in the frame
// of the Columbia Suicide Severity Rating Scale (data/crisis.txt names the
// sources), plus non-suicidal self-harm and CrisisModel for a crisis only
// the model's perception saw. Every category puts the user in Watch (seed
// 003 §3.1 "出现自杀/自伤表达"); the category tells the reviewer what kind.
type CrisisCategory string

// The crisis categories, least to most severe by the C-SSRS screener's
// order. The values are stable: the store keeps them.
const (
	CrisisNone        CrisisCategory = ""
	CrisisModel       CrisisCategory = "model"       // only the model's perception flagged it
	CrisisWishDead    CrisisCategory = "wish_dead"   // C-SSRS 1: wish to be dead, passive ideation
	CrisisSelfHarm    CrisisCategory = "self_harm"   // non-suicidal self-injury (seed 003 "自伤")
	CrisisIdeation    CrisisCategory = "ideation"    // C-SSRS 2: active thoughts of suicide
	CrisisMethod      CrisisCategory = "method"      // C-SSRS 3: thinking about how
	CrisisIntent      CrisisCategory = "intent"      // C-SSRS 4: some intention to act
	CrisisPlan        CrisisCategory = "plan"        // C-SSRS 5: details worked out
	CrisisPreparation CrisisCategory = "preparation" // C-SSRS 6: preparatory behaviour
)

// severity orders the categories; 0 is none or unknown.
func (c CrisisCategory) severity() int {
	switch c {
	case CrisisModel:
		return 1
	case CrisisWishDead:
		return 2
	case CrisisSelfHarm:
		return 3
	case CrisisIdeation:
		return 4
	case CrisisMethod:
		return 5
	case CrisisIntent:
		return 6
	case CrisisPlan:
		return 7
	case CrisisPreparation:
		return 8
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

// CrisisFloor is the crisis floor (DESIGN §3 step 5): the most severe
// category of self-harm expression in text, in Chinese, English or
// Japanese, or CrisisNone. It never depends on a model, so a perception
// outage or a spent budget cannot hide a crisis; the model's flag only adds
// to it. The lexicon (data/crisis.txt) covers passive and indirect ideation,
// methods, plans and preparation, slang and common misspellings; everyday
// idioms ("dead tired", 笑死, 死ぬほど) are masked first. Guards, each
// documented where it lives: an English phrase right after a negation ("i
// dont want to die") or about someone else ("do you want to die"); a
// Chinese 想… phrase after 不/没/别 or 你/他/她; a phrase inside the book
// title marks 《…》.
func CrisisFloor(text string) CrisisCategory {
	if text == "" {
		return CrisisNone
	}
	l := crisisLex()
	found := CrisisNone
	for _, seg := range crisisSegments(text) {
		ws := l.crisisWordsOf(seg)
		for i, w := range ws {
			l.en.at(w, func(p crisisPattern) {
				if p.cat.severity() > found.severity() && crisisWordHit(ws, i, p) {
					found = p.cat
				}
			})
		}
		compact := l.compactOf(seg)
		l.cjk.in(compact, func(p cjkPattern) {
			if p.cat.severity() > found.severity() && p.find(compact) {
				found = p.cat
			}
		})
	}
	return found
}

// CrisisText reports whether the crisis floor finds anything in text.
func CrisisText(text string) bool { return CrisisFloor(text) != CrisisNone }

// crisisSegments removes title-marked spans (《…》) from text and returns
// the remaining pieces, so a title never reads as an expression while
// everything around it still does. Only the Chinese book-title marks count:
// Japanese 『』 also quote the speaker's own words, so they guard nothing.
func crisisSegments(text string) []string {
	var out []string
	rest := text
	for {
		i := strings.Index(rest, "《")
		if i < 0 {
			return append(out, rest)
		}
		const closer = "》"
		j := strings.Index(rest[i:], closer)
		if j < 0 {
			return append(out, rest)
		}
		out = append(out, rest[:i])
		rest = rest[i+j+len(closer):]
	}
}

// crisisWordHit reports an unguarded occurrence of p at word i of ws.
func crisisWordHit(ws []string, i int, p crisisPattern) bool {
	_, ok := p.match(ws, i, 0)
	return ok && !crisisWordGuarded(ws, i)
}

// crisisWordGuarded reports whether the words before position i turn a
// match into its opposite or make it about someone else. Going back over
// glue words ("going to", "really", "ever"; crisisGlue), it looks at the
// first other word: a negation ("i dont want to die", "im not going to
// kill myself", "not suicidal") or another person ("do you ever want to
// die"; "he wants to kill himself" matches nothing to begin with). "i dont
// know, i want to die" stays a crisis: "know" is no glue. The guard is
// deliberately small: a false alarm costs the user a gentle message, a miss
// can cost much more.
func crisisWordGuarded(ws []string, i int) bool {
	k := i - 1
	for skipped := 0; k >= 0 && skipped < CrisisGlueWords && crisisGlue(ws[k]); skipped++ {
		k--
	}
	return k >= 0 && (crisisNegation(ws[k]) || crisisOtherPerson(ws[k]))
}

// crisisGlue are words between a negation or subject and the phrase it
// governs.
func crisisGlue(w string) bool {
	switch w {
	case "going", "to", "want", "really", "ever", "even", "actually", "just", "trying", "try",
		"planning", "think", "thinking", "about", "be", "feel", "feeling", "am", "is", "will", "would", "do", "does":
		return true
	}
	return false
}

func crisisNegation(w string) bool {
	switch w {
	case "dont", "not", "never", "wont", "wouldnt", "no", "nobody":
		return true
	}
	return false
}

func crisisOtherPerson(w string) bool {
	switch w {
	case "you", "u", "he", "she", "they":
		return true
	}
	return false
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
