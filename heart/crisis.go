package heart

import "strings"

// crisisPhrases is the built-in self-harm lexicon (seed 003 §1.1 "自杀倾向"
// and §3.1 Watch "出现自杀/自伤表达"). DESIGN §3 step 5: it never depends on
// the LLM, so a perception outage cannot hide a crisis. ASCII phrases match on
// word boundaries after folding ("want to die" does not match "want to
// diet"); Chinese and Japanese phrases match as substrings with punctuation
// and spaces removed. A function, not a variable: the package holds no
// mutable state.
func crisisPhrases() []string {
	return []string{
		// zh
		"想死", "不想活", "活不下去", "自杀", "自殺", "自残", "自殘", "割腕", "活着没意思", "活着没有意思",
		"活着没什么意思", "轻生", "寻死", "结束自己的生命", "结束我的生命", "了结自己", "跳楼", "不如死了",
		"死了算了", "伤害自己", "不想再活", "想结束这一切", "活着好累不如死",
		// en
		"kill myself", "killing myself", "want to die", "wanna die", "wish i was dead", "wish i were dead",
		"end my life", "ending my life", "end it all", "take my own life", "suicide", "suicidal",
		"self harm", "selfharm", "self harming", "hurt myself", "hurting myself", "cut myself", "cutting myself",
		"better off dead", "no reason to live", "dont want to live", "dont want to be alive",
		"unalive myself", "dont want to wake up",
		// ja
		"死にたい", "消えたい", "自殺", "自傷", "リストカット", "リスカ", "生きていたくない", "生きたくない",
		"命を絶", "死んでしまいたい", "いなくなりたい", "しにたい", "シニタイ", "死のうと思", "死んだほうがまし",
		"生きる意味がない",
	}
}

// crisisNegations are words that, right before an English phrase, make it
// say the opposite ("i dont want to die", "im not suicidal"). The guard is
// deliberately small: a false alarm costs the user a gentle message, a miss
// can cost much more.
func crisisNegations() []string {
	return []string{"dont", "not", "never", "wont", "wouldnt", "nobody", "no"}
}

// crisisNearMisses are fixed ASCII expressions that contain a phrase but are
// not about the speaker (titles and idioms).
func crisisNearMisses() []string {
	return []string{"suicide squad", "suicide doors", "suicide prevention month"}
}

// CrisisText reports whether text contains a self-harm expression in
// Chinese, English or Japanese. Text is folded (case, full width) first.
// Guards, each documented where it lives:
//   - negation: an English phrase directly after a negation word ("i dont want
//     to die", "not suicidal"); 想死 directly after 不 or 没 ("我不想死");
//   - 想死 directly followed by 你/您/他/她/它 is the idiom "miss you to death";
//   - 跳楼价 is shop slang for a clearance price;
//   - a phrase entirely inside the book-title marks 《…》 names a book, film
//     or song;
//   - a few fixed English titles ("suicide squad").
//
// Any unguarded occurrence makes the text a crisis.
func CrisisText(text string) bool {
	if text == "" {
		return false
	}
	for _, seg := range crisisSegments(text) {
		if crisisSegment(seg) {
			return true
		}
	}
	return false
}

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

// crisisSegment checks one title-free piece of text.
func crisisSegment(text string) bool {
	words := relWords(text)
	compact := relCompact(text)
	for _, n := range crisisNearMisses() {
		if strings.Contains(words, n) {
			words = strings.ReplaceAll(words, " "+n+" ", " ")
		}
	}
	for _, p := range crisisPhrases() {
		if relASCII(p) {
			if crisisWordHit(words, p) {
				return true
			}
			continue
		}
		if crisisCJKHit(compact, relCompactPhrase(p)) {
			return true
		}
	}
	return false
}

// crisisWordHit reports an unguarded occurrence of an ASCII phrase.
func crisisWordHit(words, phrase string) bool {
	w := relWordPhrase(phrase)
	if w == "" {
		return false
	}
	needle := " " + w + " "
	for off := 0; ; {
		i := strings.Index(words[off:], needle)
		if i < 0 {
			return false
		}
		pos := off + i
		prev := crisisLastWord(words[:pos+1])
		negated := false
		for _, n := range crisisNegations() {
			if prev == n {
				negated = true
				break
			}
		}
		if !negated {
			return true
		}
		off = pos + 1
	}
}

// lastWord is the last space-separated word of s.
func crisisLastWord(s string) string {
	s = strings.TrimRight(s, " ")
	if i := strings.LastIndexByte(s, ' '); i >= 0 {
		return s[i+1:]
	}
	return s
}

// crisisCJKHit reports an unguarded occurrence of a Chinese or Japanese
// phrase in the compact text.
func crisisCJKHit(compact, phrase string) bool {
	if phrase == "" {
		return false
	}
	for off := 0; ; {
		i := strings.Index(compact[off:], phrase)
		if i < 0 {
			return false
		}
		pos := off + i
		end := pos + len(phrase)
		guarded := crisisCJKGuard(phrase, compact[:pos], compact[end:])
		if !guarded {
			return true
		}
		off = end
	}
}

// crisisCJKGuard reports whether an occurrence of phrase between before and
// after is a known near miss: 不想死/没想死 (negated), 想死你 (the idiom
// "miss you to death"), 跳楼价/跳楼大甩卖 (shop slang for a clearance price).
func crisisCJKGuard(phrase, before, after string) bool {
	switch phrase {
	case "想死":
		if strings.HasSuffix(before, "不") || strings.HasSuffix(before, "没") {
			return true
		}
		for _, obj := range []string{"你", "您", "他", "她", "它"} {
			if strings.HasPrefix(after, obj) {
				return true
			}
		}
	case "跳楼":
		return strings.HasPrefix(after, "价") || strings.HasPrefix(after, "大甩卖")
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
