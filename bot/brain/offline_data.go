package brain

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"hearth/heart"
)

// The offline brain's knowledge lives in data files, not code: its wording
// (phrases.yaml), the situations it recognises (situations.yaml), themes
// (topics.yaml), the people and pets it can name and the spans of time it
// reflects (words.yaml), and the facts it remembers (facts.yaml). Each file
// says how it is read; this file loads and checks them.
//
//go:embed data/*.yaml
var dataFiles embed.FS

// Languages the offline brain speaks (DESIGN §9 persona key language).
const (
	langEN = "en"
	langZH = "zh"
	langJA = "ja"
)

// languages are the ones every phrase and name must exist in (a function,
// so the package holds no mutable state).
func languages() [3]string { return [3]string{langEN, langZH, langJA} }

// langText is one text per language.
type langText map[string]string

// phrasebook holds the wording: key → language → variants.
type phrasebook map[string]map[string][]string

// feel is a situation's trailer values (seed 002).
type feel struct {
	Label      string  `yaml:"label"`
	Intensity  float64 `yaml:"intensity"`
	Salience   float64 `yaml:"salience"`
	Confidence float64 `yaml:"confidence"`
}

// Situation kinds: content leads a reply, social frames it.
const (
	kindContent = "content"
	kindSocial  = "social"
)

// Question policies of a situation.
const (
	askStrategy = "strategy"
	askAlways   = "always"
	askNever    = "never"
)

// tagNames maps a theme tag (topics.yaml) to a situation's name.
type tagNames map[string]string

// situation is one row of situations.yaml.
type situation struct {
	Name     string   `yaml:"name"`
	Kind     string   `yaml:"kind"`
	Intent   string   `yaml:"intent"`
	Keywords []string `yaml:"keywords"`
	Patterns []string `yaml:"patterns"`
	Traps    []string `yaml:"traps"`
	Feel     feel     `yaml:"feel"`
	Ask      string   `yaml:"ask"`
	Deep     bool     `yaml:"deep"`
	Lifts    bool     `yaml:"lifts"`
	Gone     bool     `yaml:"gone"`
	Dated    bool     `yaml:"dated"`
	Greets   bool     `yaml:"greets"`
	Agrees   bool     `yaml:"agrees"`
	Thing    langText `yaml:"thing"`
	Replaces []string `yaml:"replaces"`
	Recall   string   `yaml:"recall"`
	Answers  []string `yaml:"answers"` // situations whose turned-back question this answers
	Felt     string   `yaml:"felt"`    // the user's feeling, over seed 000's reading
	Leaves   bool     `yaml:"leaves"`  // the user is leaving: its phrases end the reply
	Told     string   `yaml:"told"`    // a fact kind (facts.yaml): found when the message tells one
	To       tagNames `yaml:"to"`      // theme tag → the situation a bare request for ideas means after it
	Alone    bool     `yaml:"alone"`   // its patterns match a whole, short message: tried on one of at most aloneMaxBytes
	Mourned  string   `yaml:"mourned"` // the situation it is when the pet or person it is about is one the user lost
	Day      bool     `yaml:"day"`     // a plain line about the user's day: not read in a question to her or about what she remembers
	// Becomes: the situation it is when one of the user's
	// last few messages has a word of BecomesAfter ("他已经走了" after
	// 他住院了 is a death; after a breakup, someone who left).
	Becomes      string   `yaml:"becomes"`
	BecomesAfter []string `yaml:"becomes_after"`
	Hushes       bool     `yaml:"hushes"` // the user asks not to talk about it: a check-in names nothing they said before
	// Bare: its reply carries no emoji: a death, a day of remembrance,
	// grave news or despair is never decorated ("I'm so sorry for your
	// loss. … 🌙").
	Bare bool `yaml:"bare"`

	mourned      *situation       // Mourned, found
	becomes      *situation       // Becomes, found
	becomesAfter *heart.PhraseSet // BecomesAfter, indexed

	res []pattern // Patterns, compiled
}

// topic is one row of topics.yaml; Tag "" lists traps.
type topic struct {
	Tag      string   `yaml:"tag"`
	Keywords []string `yaml:"keywords"`
	Name     langText `yaml:"name"`
	Passing  bool     `yaml:"passing"`
}

// dictEntry is one word of a dictionary in words.yaml.
type dictEntry struct {
	Words []string `yaml:"words"`
	Name  langText `yaml:"name"`
	Yours langText `yaml:"yours"`
}

// wordsFile is words.yaml.
type wordsFile struct {
	Pets         []dictEntry         `yaml:"pets"`
	People       []dictEntry         `yaml:"people"`
	Traps        []string            `yaml:"traps"`
	Durations    []string            `yaml:"durations"`
	About        []string            `yaml:"about"`
	Subjects     []string            `yaml:"subjects"`
	NotSubjects  []string            `yaml:"not_subjects"`
	Intensifiers []string            `yaml:"intensifiers"`
	Self         []string            `yaml:"self"`
	Advice       []string            `yaml:"advice"`
	Resigned     []string            `yaml:"resigned"`
	Feelings     []feelWords         `yaml:"feelings"`
	Favorites    []favorite          `yaml:"favorites"`
	IntentTraps  map[string][]string `yaml:"intent_traps"`
	SharedEvents []string            `yaml:"shared_events"`
	CareEvents   []string            `yaml:"care_events"`
	Once         []string            `yaml:"once"`
	Told         []string            `yaml:"told"`
	Yours        [][2]string         `yaml:"yours"`
	Speak        map[string]string   `yaml:"speak"` // text-speak → the words it stands for (offline_speak.go)
	Refer        struct {
		Any    []string `yaml:"any"`
		Pets   []string `yaml:"pets"`
		Others []string `yaml:"others"`
	} `yaml:"refer"`
	Plain    [][2]string `yaml:"plain"`
	Setbacks []string    `yaml:"setbacks"`
}

// feelWords is one row of words.yaml's feelings: words that name a feeling
// of one trailer label.
type feelWords struct {
	Label string   `yaml:"label"`
	Words []string `yaml:"words"`
}

// favorite is one row of words.yaml's favorites: what she answers when
// asked her favourite of the thing the words name, what she answers when
// asked whether she likes it (fond; the answer where none is given), and
// the options her answer picks when she is asked to choose between two.
type favorite struct {
	Words  []string `yaml:"words"`
	Answer langText `yaml:"answer"`
	Fond   langText `yaml:"fond"`
	Picks  []string `yaml:"picks"`
}

// factKind is one row of facts.yaml.
type factKind struct {
	Kind     string            `yaml:"kind"`
	Slot     int               `yaml:"slot"`
	Multi    bool              `yaml:"multi"`
	Label    langText          `yaml:"label"`
	Value    langText          `yaml:"value"`
	Dict     map[string]string `yaml:"dict"`
	Ask      []string          `yaml:"ask"`
	AskTraps []string          `yaml:"ask_traps"`
	Reject   []string          `yaml:"reject"`
	Patterns []string          `yaml:"patterns"`
	Changes  []factChange      `yaml:"changes"`
	Answers  []factAnswer      `yaml:"answers"`
	Given    []factGiven       `yaml:"given"` // told in passing, the dictionary field implied
	Corrects []string          `yaml:"corrects"`
	SayBack  bool              `yaml:"say_back"` // values in the user's words, said back as hers ("losing my job" → "losing your job")
	Near     []string          `yaml:"near"`     // kinds whose fact answers a question for this one when it has none
	// Care: kept in seed 004's 20-29 (什么时候该怎么做, how to act), not
	// among the facts of 0-9: a health matter to mind (an allergy at a
	// party), whoever it is about.
	Care bool `yaml:"care"`
	// Since: a value carries the month it was first told ({since},
	// sinceLayout), filled when it is written: a loss is met gently for
	// griefSpan after, and only the memory knows when it was told.
	Since bool `yaml:"since"`
	// Same: the fields that make two values of a multi-valued kind one
	// (default: the name); "Lily (peanut allergy)" and "Lily (egg
	// allergy)" are two.
	Same []string `yaml:"same"`
	// Self: how a value about the user is written (a name of "I", 我, 私
	// among SelfWords); Whose and SelfWhose: the {whose} of phrases, for
	// someone named and for the user ("Lily's", "your").
	Self      langText `yaml:"self"`
	SelfWords []string `yaml:"self_words"`
	Whose     langText `yaml:"whose"`
	SelfWhose langText `yaml:"self_whose"`
	SelfSaid  langText `yaml:"self_said"` // the user, as she says it in a summary ("you (cat allergy)")
	// Tails: words that end a value without belonging to it, trimmed off
	// ("the side effects though" is kept as "the side effects").
	Tails []string `yaml:"tails"`
	// RejectShapes: patterns a value that is no such fact
	// matches, where a word list cannot reach ("okayyy", "vibing": no
	// name).
	RejectShapes []string `yaml:"reject_shapes"`

	corrects     []pattern
	rejectShapes []pattern
	res          []pattern
	values       map[string]*regexp.Regexp // language → the value template as a pattern
}

// factChange is one of a fact kind's changes in facts.yaml: news that
// changes a fact already told ("Emma dumped me": Emma is an ex).
type factChange struct {
	Set      map[string]string `yaml:"set"` // field → a word of its dictionary (English name)
	Of       []string          `yaml:"of"`  // what the field was (English names) for the change to apply
	Patterns []string          `yaml:"patterns"`

	res []pattern
}

// factAnswer is one of a fact kind's answers in facts.yaml: the fact told
// as the answer to her question ("What's their name?" after "we got a
// kitten!", then "her name is Mochi").
type factAnswer struct {
	After    []string          `yaml:"after"` // situations whose question (phrases sit.<name>.ask) her last reply asked
	Asked    []string          `yaml:"asked"` // words that question must hold; none: any of its questions
	Set      map[string]string `yaml:"set"`   // field → a word of its dictionary (English name)
	Of       []string          `yaml:"of"`    // people (English names) the user's message before her question must name; none: anyone
	Patterns []string          `yaml:"patterns"`

	res []pattern
}

// factGiven is one of a fact kind's given in facts.yaml: patterns that
// name someone without a word of the kind's dictionary ("a fellow named
// Stan", 山田さんという人, a newborn's "名前はさくら"), whose dictionary
// fields are Set's. A message Unless matches tells of someone the user
// does not know ("a man named Otto in the film"): no fact.
type factGiven struct {
	Set      map[string]string `yaml:"set"` // field → a word of its dictionary (English name)
	Patterns []string          `yaml:"patterns"`
	Unless   []string          `yaml:"unless"`

	res, unless []pattern
}

// about reports whether text may name someone the user knows by g: no
// pattern of g.Unless matches it.
func (g *factGiven) about(text string) bool {
	return !slices.ContainsFunc(g.unless, func(re pattern) bool { return re.may(text) && re.MatchString(text) })
}

// Dictionaries a fact field may name (factKind.Dict).
const (
	dictPets   = "pets"
	dictPeople = "people"
)

// knowledge is the compiled data of one Offline.
type knowledge struct {
	book phrasebook

	sits     []situation
	sitSet   *heart.PhraseSet
	sitOwner []int // phrase index → situation index, -1 for a trap

	topics     []topic
	topicSet   *heart.PhraseSet
	topicOwner []int // phrase index → topic index (traps have Tag "")

	dicts     map[string][]dictEntry
	dictSet   *heart.PhraseSet
	dictOwner []dictRef

	durations    []pattern
	about        []pattern
	subjects     []pattern
	notSubjects  []string
	intensifiers *heart.PhraseSet
	self         *heart.PhraseSet // the user speaking of themselves
	advice       *heart.PhraseSet // a question asking what to do
	resigned     *heart.PhraseSet // a plan said in resignation
	feelSet      *heart.PhraseSet // words that name a feeling
	feelOwner    []string         // phrase index → trailer label
	favorites    []favorite
	favSet       *heart.PhraseSet
	favOwner     []int                       // phrase index → favorites index
	pickSet      *heart.PhraseSet            // favorites' picks
	pickOwner    []int                       // phrase index → favorites index
	intentTraps  map[string]*heart.PhraseSet // seed 001 intent → phrases that are not it
	sharedEvents *heart.PhraseSet            // events that are not the user's own ("the party")
	careEvents   *heart.PhraseSet            // events at a doctor's: met with care, not anticipation
	refer        *heart.PhraseSet            // words that point back at a pet or person
	referPets    *heart.PhraseSet            // the ones that point at a pet only
	referOthers  *heart.PhraseSet            // people of no name the user gave, whom "he" may mean
	once         map[string]bool             // conditional phrase keys said at most once a talk
	told         []string                    // words of hers that say what she is (state "told")
	yoursLatin   *regexp.Regexp              // the user's own English words ("my", "I") as whole words
	yours        map[string]string           // the user's own word → the same said back to them ("my" → "your")
	speak        speakTable                  // text-speak read as its words ("ur" → "your")

	// polite reads polite Japanese as plain (words.yaml plain): "寂しいです"
	// is "寂しい" to the situations' keywords.
	polite *strings.Replacer
	// setbacks: something gone wrong (words.yaml setbacks), which a
	// theme is met with sympathy for.
	setbacks *heart.PhraseSet

	facts    []factKind
	askSet   *heart.PhraseSet
	askOwner []int  // phrase index → fact index, -1 for an ask trap
	askOwn   []bool // phrase index → one of the fact's own ask words (not a dictionary word)

	recall *recallData // recall.yaml: ties to what was told before (offline_links.go)
}

// dictRef names one dictionary entry; dict "" is a trap.
type dictRef struct {
	dict string
	i    int
}

// loadKnowledge reads and checks the embedded data. The files are part of
// the binary, so an error is a bug caught by the package's tests.
func loadKnowledge() (*knowledge, error) {
	k := &knowledge{}
	var (
		w wordsFile
		r recallFile
	)
	for _, f := range []struct {
		name string
		into any
	}{
		{"phrases.yaml", &k.book}, {"situations.yaml", &k.sits}, {"topics.yaml", &k.topics},
		{"words.yaml", &w}, {"facts.yaml", &k.facts}, {"recall.yaml", &r},
	} {
		raw, err := dataFiles.ReadFile("data/" + f.name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.name, err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		if err := dec.Decode(f.into); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	if err := k.checkPhrases(); err != nil {
		return nil, err
	}
	if err := k.compileSituations(); err != nil {
		return nil, err
	}
	k.compileTopics()
	if err := k.compileWords(w); err != nil {
		return nil, err
	}
	if err := k.compileFacts(); err != nil {
		return nil, err
	}
	if err := k.compileRecall(r); err != nil {
		return nil, err
	}
	return k, nil
}

// compileWords indexes words.yaml: the pet and people dictionaries, the
// patterns that find durations, what a question is about and who a
// message is about, and the phrase sets of feelings, favourites and the
// rest.
func (k *knowledge) compileWords(w wordsFile) error {
	k.compileDicts(w)
	var err error
	if k.durations, err = compileAll(w.Durations, "duration"); err != nil {
		return fmt.Errorf("words.yaml durations: %w", err)
	}
	if k.about, err = compileAll(w.About, "about"); err != nil {
		return fmt.Errorf("words.yaml about: %w", err)
	}
	if k.subjects, err = compileAll(w.Subjects, "someone"); err != nil {
		return fmt.Errorf("words.yaml subjects: %w", err)
	}
	k.notSubjects = w.NotSubjects
	k.intensifiers = heart.NewPhraseSet(w.Intensifiers)
	k.self = heart.NewPhraseSet(w.Self)
	k.advice = heart.NewPhraseSet(w.Advice)
	k.resigned = heart.NewPhraseSet(w.Resigned)
	var feelings []string
	for _, f := range w.Feelings {
		if !heart.Label(f.Label).Known() {
			return fmt.Errorf("words.yaml feelings: label %q", f.Label)
		}
		for _, word := range f.Words {
			feelings = append(feelings, word)
			k.feelOwner = append(k.feelOwner, f.Label)
		}
	}
	k.feelSet = heart.NewPhraseSet(feelings)
	if err := k.compileFavorites(w.Favorites); err != nil {
		return err
	}
	k.sharedEvents = heart.NewPhraseSet(w.SharedEvents)
	k.careEvents = heart.NewPhraseSet(w.CareEvents)
	k.intentTraps = map[string]*heart.PhraseSet{}
	for intent, traps := range w.IntentTraps {
		k.intentTraps[strings.ToUpper(intent)] = heart.NewPhraseSet(traps)
	}
	k.refer = heart.NewPhraseSet(append(slices.Clone(w.Refer.Any), w.Refer.Pets...))
	k.referPets = heart.NewPhraseSet(w.Refer.Pets)
	k.referOthers = heart.NewPhraseSet(w.Refer.Others)
	if k.polite, err = compilePolite(w.Plain); err != nil {
		return err
	}
	k.setbacks = heart.NewPhraseSet(w.Setbacks)
	k.once = map[string]bool{}
	for _, key := range w.Once {
		if _, ok := k.book[key]; !ok {
			return fmt.Errorf("words.yaml once: no phrases %s", key)
		}
		k.once[key] = true
	}
	k.told = w.Told
	if k.speak, err = compileSpeak(w.Speak); err != nil {
		return err
	}
	return k.compileYours(w.Yours)
}

// compileDicts reads words.yaml's pets and people, and the traps that hold
// one of their words and are none of them, into one phrase set.
func (k *knowledge) compileDicts(w wordsFile) {
	k.dicts = map[string][]dictEntry{dictPets: w.Pets, dictPeople: w.People}
	var phrases []string
	for _, name := range []string{dictPets, dictPeople} {
		for i, e := range k.dicts[name] {
			for _, word := range e.Words {
				phrases = append(phrases, word)
				k.dictOwner = append(k.dictOwner, dictRef{name, i})
			}
		}
	}
	for _, t := range w.Traps {
		phrases = append(phrases, t)
		k.dictOwner = append(k.dictOwner, dictRef{})
	}
	k.dictSet = heart.NewPhraseSet(phrases)
}

// compileFavorites reads words.yaml favorites: the words that ask for one,
// and the options of a choice that pick it.
func (k *knowledge) compileFavorites(favorites []favorite) error {
	k.favorites = favorites
	var favs, picks []string
	for i, f := range favorites {
		if len(f.Answer) < len(languages()) || len(f.Fond) > 0 && len(f.Fond) < len(languages()) {
			return fmt.Errorf("words.yaml favorites: %v needs an answer (and a fond one, if any) in every language", f.Words)
		}
		for _, word := range f.Words {
			favs = append(favs, word)
			k.favOwner = append(k.favOwner, i)
		}
		for _, word := range f.Picks {
			picks = append(picks, word)
			k.pickOwner = append(k.pickOwner, i)
		}
	}
	k.favSet = heart.NewPhraseSet(favs)
	k.pickSet = heart.NewPhraseSet(picks)
	return nil
}

// compilePolite reads words.yaml plain: polite Japanese forms and the
// plain ones they are read as.
func compilePolite(plain [][2]string) (*strings.Replacer, error) {
	var pairs []string
	for _, p := range plain {
		if p[0] == "" {
			return nil, fmt.Errorf("words.yaml plain: an empty polite form (plain %q)", p[1])
		}
		pairs = append(pairs, p[0], p[1])
	}
	return strings.NewReplacer(pairs...), nil
}

// compileYours reads words.yaml yours, the user's words as said back to
// them ("my" → "your", 我的 → 你的); the Latin ones are matched as whole
// words (sayBack).
func (k *knowledge) compileYours(pairs [][2]string) error {
	k.yours = map[string]string{}
	var latin []string
	for _, pair := range pairs {
		if pair[0] == "" || pair[1] == "" {
			return fmt.Errorf("words.yaml yours: %v needs two words", pair)
		}
		k.yours[strings.ToLower(pair[0])] = pair[1]
		if pair[0][0] < utf8.RuneSelf {
			latin = append(latin, regexp.QuoteMeta(strings.ToLower(pair[0])))
		}
	}
	if len(latin) > 0 {
		k.yoursLatin = regexp.MustCompile(`(?i)\b(?:` + strings.Join(latin, "|") + `)\b`)
	}
	return nil
}

// sayBack turns words of the user's into the same said back to them
// (words.yaml yours): "my red dress" → "your red dress", 我的 → 你的.
func (k *knowledge) sayBack(s string) string {
	if k.yoursLatin != nil {
		s = k.yoursLatin.ReplaceAllStringFunc(s, func(w string) string { return k.yours[strings.ToLower(w)] })
	}
	for from, to := range k.yours {
		if from[0] >= utf8.RuneSelf {
			s = strings.ReplaceAll(s, from, to)
		}
	}
	return s
}

// daysOfWeek is the length of phrases.yaml's weekdays table.
const daysOfWeek = 7

// checkPhrases requires every key in every language, and the names of
// all the days.
func (k *knowledge) checkPhrases() error {
	for key, byLang := range k.book {
		for _, l := range languages() {
			if len(byLang[l]) == 0 {
				return fmt.Errorf("phrases.yaml: %s has no %s variants", key, l)
			}
			if key == "weekdays" && len(byLang[l]) != daysOfWeek {
				return fmt.Errorf("phrases.yaml: weekdays has %d %s days", len(byLang[l]), l)
			}
		}
	}
	return nil
}

func (k *knowledge) compileSituations() error {
	var phrases []string
	names := map[string]bool{}
	for i, s := range k.sits {
		if names[s.Name] {
			return fmt.Errorf("situations.yaml: %s: a second situation of that name", s.Name)
		}
		names[s.Name] = true
		switch {
		case s.Kind != kindContent && s.Kind != kindSocial:
			return fmt.Errorf("situations.yaml: %s: kind %q", s.Name, s.Kind)
		case s.Ask != askStrategy && s.Ask != askAlways && s.Ask != askNever:
			return fmt.Errorf("situations.yaml: %s: ask %q", s.Name, s.Ask)
		case !heart.Label(s.Feel.Label).Known():
			return fmt.Errorf("situations.yaml: %s: feel label %q", s.Name, s.Feel.Label)
		case s.Recall != "" && s.Recall != recallFact && s.Recall != recallSaid && s.Recall != recallAll && s.Recall != recallWho:
			return fmt.Errorf("situations.yaml: %s: recall %q", s.Name, s.Recall)
		case s.Deep && len(s.Thing) < len(languages()):
			return fmt.Errorf("situations.yaml: %s: a deep situation needs a thing in every language", s.Name)
		case s.Felt != "" && feltLabel(s.Felt) == "":
			return fmt.Errorf("situations.yaml: %s: felt %q is no seed 000 feeling", s.Name, s.Felt)
		}
		var err error
		if k.sits[i].res, err = compileAll(s.Patterns, ""); err != nil {
			return fmt.Errorf("situations.yaml: %s: %w", s.Name, err)
		}
		for _, kw := range s.Keywords {
			for _, v := range spellings(kw) {
				phrases = append(phrases, v)
				k.sitOwner = append(k.sitOwner, i)
			}
		}
		for _, t := range s.Traps {
			for _, v := range spellings(t) {
				phrases = append(phrases, v)
				k.sitOwner = append(k.sitOwner, -1)
			}
		}
	}
	k.sitSet = heart.NewPhraseSet(phrases)
	for i, s := range k.sits {
		if s.Mourned != "" {
			j := slices.IndexFunc(k.sits, func(x situation) bool { return x.Name == s.Mourned })
			if j < 0 {
				return fmt.Errorf("situations.yaml: %s: mourned: no situation %q", s.Name, s.Mourned)
			}
			k.sits[i].mourned = &k.sits[j]
		}
		if s.Becomes != "" {
			j := slices.IndexFunc(k.sits, func(x situation) bool { return x.Name == s.Becomes })
			if j < 0 || len(s.BecomesAfter) == 0 {
				return fmt.Errorf("situations.yaml: %s: becomes: no situation %q, or no becomes_after", s.Name, s.Becomes)
			}
			k.sits[i].becomes = &k.sits[j]
			k.sits[i].becomesAfter = heart.NewPhraseSet(s.BecomesAfter)
		}
		for tag, name := range s.To {
			if !slices.ContainsFunc(k.sits, func(x situation) bool { return x.Name == name }) {
				return fmt.Errorf("situations.yaml: %s: to %s: no situation %q", s.Name, tag, name)
			}
		}
	}
	return nil
}

// spellings is a keyword as written and, where it has an apostrophe, as
// people type it without one ("can't sleep", "cant sleep"; "i'm home", "im
// home"), so a message typed in a hurry is read like a careful one.
func spellings(kw string) []string {
	if !strings.Contains(kw, "'") {
		return []string{kw}
	}
	return []string{kw, strings.ReplaceAll(kw, "'", "")}
}

func (k *knowledge) compileTopics() {
	var phrases []string
	for i, t := range k.topics {
		for _, kw := range t.Keywords {
			phrases = append(phrases, kw)
			k.topicOwner = append(k.topicOwner, i)
		}
	}
	k.topicSet = heart.NewPhraseSet(phrases)
}

func (k *knowledge) compileFacts() error {
	var asks []string
	for i := range k.facts {
		f := &k.facts[i]
		if f.Care && (f.Slot < slotCareFirst || f.Slot > slotCareLast) {
			return fmt.Errorf("facts.yaml: %s: slot %d is not a slot of how to act (%d-%d)", f.Kind, f.Slot, slotCareFirst, slotCareLast)
		}
		if !f.Care && (f.Slot < 0 || f.Slot > slotFactsLast) {
			return fmt.Errorf("facts.yaml: %s: slot %d is not a fact slot (0-%d)", f.Kind, f.Slot, slotFactsLast)
		}
		if len(f.Self) > 0 && (len(f.SelfWords) == 0 || len(f.Whose) == 0 || len(f.SelfWhose) == 0 || len(f.SelfSaid) == 0) {
			return fmt.Errorf("facts.yaml: %s: self needs self_words, whose, self_whose and self_said", f.Kind)
		}
		var err error
		if f.res, err = compileAll(f.Patterns, ""); err != nil {
			return fmt.Errorf("facts.yaml: %s: %w", f.Kind, err)
		}
		for j := range f.Changes {
			c := &f.Changes[j]
			if c.res, err = compileAll(c.Patterns, ""); err != nil {
				return fmt.Errorf("facts.yaml: %s changes: %w", f.Kind, err)
			}
			for field, word := range c.Set {
				d, ok := f.Dict[field]
				if !ok {
					return fmt.Errorf("facts.yaml: %s changes: %s is no dictionary field", f.Kind, field)
				}
				for _, w := range append([]string{word}, c.Of...) {
					if !slices.ContainsFunc(k.dicts[d], func(e dictEntry) bool { return e.Name[langEN] == w }) {
						return fmt.Errorf("facts.yaml: %s changes: %q is no %s word", f.Kind, w, d)
					}
				}
			}
		}
		if f.corrects, err = compileAll(f.Corrects, "old"); err != nil {
			return fmt.Errorf("facts.yaml: %s corrects: %w", f.Kind, err)
		}
		if err := k.compileAnswers(f); err != nil {
			return err
		}
		if err := k.compileGiven(f); err != nil {
			return err
		}
		if f.rejectShapes, err = compileAll(f.RejectShapes, ""); err != nil {
			return fmt.Errorf("facts.yaml: %s reject_shapes: %w", f.Kind, err)
		}
		f.values = map[string]*regexp.Regexp{}
		for _, l := range languages() {
			if f.Label[l] == "" || f.Value[l] == "" {
				return fmt.Errorf("facts.yaml: %s: label and value need %s", f.Kind, l)
			}
			f.values[l] = templatePattern(f.Value[l])
		}
		for _, a := range f.Ask {
			asks = append(asks, a)
			k.askOwner = append(k.askOwner, i)
			k.askOwn = append(k.askOwn, true)
		}
		for _, a := range f.AskTraps {
			asks = append(asks, a)
			k.askOwner = append(k.askOwner, -1)
			k.askOwn = append(k.askOwn, true)
		}
		// A fact naming a dictionary word is asked about by that word too:
		// "my cat's name", "do you remember my sister?".
		for _, d := range f.Dict {
			for _, e := range k.dicts[d] {
				for _, word := range e.Words {
					asks = append(asks, word)
					k.askOwner = append(k.askOwner, i)
					k.askOwn = append(k.askOwn, false)
				}
			}
		}
	}
	k.askSet = heart.NewPhraseSet(asks)
	return k.checkFactNames()
}

// checkFactNames requires every fact kind a situation's told or a kind's
// near names to exist.
func (k *knowledge) checkFactNames() error {
	kinds := map[string]bool{}
	for _, f := range k.facts {
		kinds[f.Kind] = true
	}
	for _, s := range k.sits {
		if s.Told != "" && !kinds[s.Told] {
			return fmt.Errorf("situations.yaml: %s: told %q is no fact kind", s.Name, s.Told)
		}
	}
	for _, f := range k.facts {
		for _, n := range f.Near {
			if !kinds[n] || n == f.Kind {
				return fmt.Errorf("facts.yaml: %s: near %q is no other fact kind", f.Kind, n)
			}
		}
	}
	return nil
}

// compileGiven compiles a fact kind's given and checks that each sets
// every dictionary field its patterns do not name, with a word that
// exists.
func (k *knowledge) compileGiven(f *factKind) error {
	for j := range f.Given {
		g := &f.Given[j]
		var err error
		if g.res, err = compileAll(g.Patterns, "name"); err != nil {
			return fmt.Errorf("facts.yaml: %s given: %w", f.Kind, err)
		}
		if g.unless, err = compileAll(g.Unless, ""); err != nil {
			return fmt.Errorf("facts.yaml: %s given unless: %w", f.Kind, err)
		}
		for field, word := range g.Set {
			d, ok := f.Dict[field]
			if !ok {
				return fmt.Errorf("facts.yaml: %s given: %s is no dictionary field", f.Kind, field)
			}
			if !slices.ContainsFunc(k.dicts[d], func(e dictEntry) bool { return e.Name[langEN] == word }) {
				return fmt.Errorf("facts.yaml: %s given: %q is no %s word", f.Kind, word, d)
			}
		}
		for field := range f.Dict {
			for _, re := range g.res {
				if _, ok := g.Set[field]; !ok && re.SubexpIndex(field) < 0 {
					return fmt.Errorf("facts.yaml: %s given: pattern %q neither names nor sets %s", f.Kind, re.String(), field)
				}
			}
		}
	}
	return nil
}

// compileAnswers compiles a fact kind's answers and checks that each
// names situations that ask something and dictionary words that exist.
func (k *knowledge) compileAnswers(f *factKind) error {
	for j := range f.Answers {
		a := &f.Answers[j]
		var err error
		if a.res, err = compileAll(a.Patterns, ""); err != nil {
			return fmt.Errorf("facts.yaml: %s answers: %w", f.Kind, err)
		}
		if len(a.After) == 0 {
			return fmt.Errorf("facts.yaml: %s answers: no situation in after", f.Kind)
		}
		for _, s := range a.After {
			if _, ok := k.book["sit."+s+".ask"]; !ok {
				return fmt.Errorf("facts.yaml: %s answers: situation %q asks nothing (no phrases sit.%s.ask)", f.Kind, s, s)
			}
		}
		for field, word := range a.Set {
			d, ok := f.Dict[field]
			if !ok {
				return fmt.Errorf("facts.yaml: %s answers: %s is no dictionary field", f.Kind, field)
			}
			if !slices.ContainsFunc(k.dicts[d], func(e dictEntry) bool { return e.Name[langEN] == word }) {
				return fmt.Errorf("facts.yaml: %s answers: %q is no %s word", f.Kind, word, d)
			}
		}
		for _, who := range a.Of {
			if !slices.ContainsFunc(k.dicts[dictPeople], func(e dictEntry) bool { return e.Name[langEN] == who }) {
				return fmt.Errorf("facts.yaml: %s answers: of %q is no people word", f.Kind, who)
			}
		}
	}
	return nil
}

// compileAll compiles patterns; group, when set, must be a named group of
// each.
func compileAll(patterns []string, group string) ([]pattern, error) {
	out := make([]pattern, 0, len(patterns))
	for _, p := range patterns {
		re, err := newPattern(p)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", p, err)
		}
		if group != "" && re.SubexpIndex(group) < 0 {
			return nil, fmt.Errorf("pattern %q has no group %q", p, group)
		}
		out = append(out, re)
	}
	return out, nil
}

// templatePattern turns a value template ("{name} ({kind})") into a pattern
// that reads such a value back, one named group per field.
func templatePattern(tmpl string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for tmpl != "" {
		i := strings.IndexByte(tmpl, '{')
		j := strings.IndexByte(tmpl, '}')
		if i < 0 || j < i {
			b.WriteString(regexp.QuoteMeta(tmpl))
			break
		}
		b.WriteString(regexp.QuoteMeta(tmpl[:i]))
		b.WriteString("(?P<" + tmpl[i+1:j] + ">.+?)")
		tmpl = tmpl[j+1:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
