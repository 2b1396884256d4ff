package heart

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Whose dated thing it is (data/followups.txt): "my
// daughter Lily starts kindergarten next Monday" is Lily's first day, and
// the companion says it as hers ("Lily's first day at kindergarten"), never
// "your kindergarten". A relation (the kin table) that is the sentence's
// subject or the event's owner, before the event word, owns it.

// followUpOwners are the compiled kin expressions of one language.
type followUpOwners struct {
	// subject finds the relation as the sentence's subject or owner:
	// "my daughter", "my mom's"; 我女儿, 妈妈 at the start; 娘の, 母が.
	subject *regexp.Regexp
	// notOwner finds the words before a subject that make the user the
	// one who does it ("with my girlfriend"), English only.
	notOwner *regexp.Regexp
	// withMe finds the words between the subject and the event that make
	// the event the user's too ("my friend invited me to a party").
	withMe *regexp.Regexp
	// pointing finds a word that points back owning the event, just
	// before it: "her (piano) recital", 她的(钢琴)演出.
	pointing *regexp.Regexp
}

// compileOwners builds the kin expressions of each language that has a
// kin table.
func (l *followUpLexicon) compileOwners() error {
	l.owners = map[string]followUpOwners{}
	for lang, kin := range l.words["kin"] {
		var expr string
		switch lang {
		case "en":
			expr = `\bmy (` + alternation(kin) + `)('s)?\b`
		case "zh":
			expr = `(?:^|[，,\s]|我的?|我家)(` + alternation(kin) + `)`
		case "ja":
			expr = `(?:^|[、,\s]|私の|僕の|うちの)(` + alternation(kin) + `)(?:の|が|は|も)`
		default:
			return fmt.Errorf("kin words of %s: no expression for the language", lang)
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return fmt.Errorf("kin words of %s: %w", lang, err)
		}
		o := followUpOwners{subject: re}
		if words := l.words["notowner"][lang]; len(words) > 0 {
			if o.notOwner, err = regexp.Compile(bounded(lang, alternation(words))); err != nil {
				return fmt.Errorf("notowner words of %s: %w", lang, err)
			}
		}
		if words := l.words["withme"][lang]; len(words) > 0 {
			if o.withMe, err = regexp.Compile(bounded(lang, alternation(words))); err != nil {
				return fmt.Errorf("withme words of %s: %w", lang, err)
			}
		}
		l.owners[lang] = o
	}
	for lang, words := range l.words["pointing"] {
		var expr string
		switch lang {
		case "en":
			expr = `\b(` + alternation(words) + `) (?:[a-z]+ )?$`
		case "zh":
			expr = `(` + alternation(words) + `)的\p{Han}{0,3}$`
		default:
			return fmt.Errorf("pointing words of %s: no expression for the language", lang)
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return fmt.Errorf("pointing words of %s: %w", lang, err)
		}
		o := l.owners[lang]
		o.pointing = re
		l.owners[lang] = o
	}
	return nil
}

// owned is what a follow-up is about when someone else owns the event
// found at ev in the lowered sentence s (cased: the same sentence before
// lowering, for a name): "Lily's first day at kindergarten", "my son's
// test", 我女儿的入园第一天, 娘さんの入園; about itself when the user owns it.
func (l *followUpLexicon) owned(s, cased, about string, ev int) string {
	for _, lang := range []string{"en", "zh", "ja"} {
		o, ok := l.owners[lang]
		if !ok {
			continue
		}
		m := o.subject.FindStringSubmatchIndex(s)
		if m == nil || m[1] > ev {
			if p := pointedOwner(o, lang, s[:ev], about); p != "" {
				return p
			}
			continue
		}
		if o.notOwner != nil && o.notOwner.MatchString(s[:m[0]]) {
			continue
		}
		if o.withMe != nil && o.withMe.MatchString(s[m[1]:ev]) {
			continue
		}
		kin := s[m[2]:m[3]]
		thing := about
		if v, ok := l.words["thing"][lang][about]; ok {
			thing = strings.ReplaceAll(v, "_", " ")
		}
		switch lang {
		case "en":
			if name := l.nameAfter(cased, s, m[1]); name != "" {
				return name + "'s " + thing
			}
			return "my " + kin + "'s " + thing
		case "zh":
			return "我" + kin + "的" + thing
		default:
			if said := l.words["kin"][lang][kin]; said != "" && said != "-" {
				kin = said
			}
			return kin + "の" + thing
		}
	}
	return about
}

// nameAfter is the name that follows a relation in the cased sentence
// ("my daughter Lily starts…"), or "": a capitalised word that is no date
// word. cased and s are the same sentence, s lowered; a sentence whose
// lowering changed its length has no name read.
func (l *followUpLexicon) nameAfter(cased, s string, at int) string {
	if len(cased) != len(s) {
		return ""
	}
	rest := strings.TrimLeft(cased[at:], ", ")
	end := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	if end < 0 {
		end = len(rest)
	}
	word := rest[:end]
	first, _ := utf8.DecodeRuneInString(word)
	low := strings.ToLower(word)
	if word == "" || !unicode.IsUpper(first) || word == "I" {
		return ""
	}
	for _, table := range []string{"weekday", "month", "notowner"} {
		if _, ok := l.words[table]["en"][low]; ok {
			return ""
		}
	}
	return word
}

// pointedOwner is what a follow-up is about when a word that points back
// owns its event (before: the sentence up to the event word): "her
// recital", 她的演出; "" when none does.
func pointedOwner(o followUpOwners, lang, before, about string) string {
	if o.pointing == nil {
		return ""
	}
	m := o.pointing.FindStringSubmatch(before)
	if m == nil {
		return ""
	}
	if lang == "zh" {
		return m[1] + "的" + about
	}
	return m[1] + " " + about
}
