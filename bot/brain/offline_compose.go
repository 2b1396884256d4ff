package brain

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"hearth/bot"
	"hearth/heart"
)

// recentReplies is how many of its last replies to a user the offline brain
// avoids repeating a sentence of ("never the same opening within the last
// several replies", issue 13). The brain is stateless: it reads them from
// Hints.Recent, the conversation the prompt shows. Our choice: eight replies
// cover an evening's exchange, and the phrase pools are larger than that.
const recentReplies = 8

// reflectAgain is how many replies pass before a reflection may be said
// again: a situation's acknowledgement changes words each time, its
// reflection ("I hope Biscuit feels better soon") has few to change to and
// is better left out (our choice).
const reflectAgain = 3

// Part priorities: when a reply is over its seed 000 max_length, the lowest
// goes first.
const (
	prioAck      = 5
	prioReflect  = 4
	prioUnsensed = 4 // what she could not hear or see (DESIGN §12)
	prioFrame    = 3 // greeting and goodbye
	prioQuestion = 2
	prioCool     = 2
	// prioWelcome is seed 003 §7.1's greeting of a user back after a
	// while: the reason for the reply, the last part to go.
	prioWelcome = 6
)

// Parts of the day, as phrase-key suffixes (local time of Hints.Now).
const (
	partMorning   = "morning"   // 05:00-11:59
	partAfternoon = "afternoon" // 12:00-17:59
	partEvening   = "evening"   // 18:00-22:59
	partNight     = "night"     // 23:00-04:59
)

// Conversation states, as phrase-key suffixes, in the order they are tried.
const (
	stateWatch  = "watch"  // seed 003 Watch or a crisis turn: gentle, never "apology accepted"
	stateAway   = "away"   // a check-in after heart.ReturnAbsence of silence: "long time no see"
	stateGone   = "gone"   // the pet or person talked about is one the user lost
	stateEx     = "ex"     // the person talked about is the user's ex: never "How is Tom these days?"
	stateComing = "coming" // the day the message tells of is ahead ({due}): "tomorrow would have been Frank's birthday" is no "today"
	stateHurt   = "hurt"   // the persona's mood is low or anger lingers (seeds 001, 002)
	stateLow    = "low"    // sadness or fear lingers, or the talk is hard (hardLately)
	stateYoung  = "young"  // stranger or acquaintance (seed 003): romance held back
	stateClose  = "close"  // friend or close
	stateAsk    = "asking" // the message is a question: a reply may turn it back
	stateNamed  = "named"  // the pet talked about has a name she knows: never ask it
	stateGlad   = "glad"   // the news is good (gladLately): no night-owl question
	stateTold   = "told"   // a recent reply of hers said what she is (words.yaml told): not again in every answer
	stateKin    = "kin"    // the dated thing ahead is a person's of theirs ("my son has a test"): luck to them, not "you've got this"
	stateAgain  = "again"  // the dated thing ahead was told of before: "tomorrow already! Good luck"
	stateCare   = "care"   // the dated thing ahead is a doctor's (words.yaml care_events): never "looking forward to it?"
	stateHome   = "home"   // she knows where the user lives ({place}): "Is that Porto weather for you?"
	stateTheirs = "theirs" // the good news is someone else's ("my sister got promoted"): theirs to congratulate
	stateStory  = "story"  // a light message about a person she knows, no question ("he cheats at gin rummy"): a remark, not "How is Stan these days?"
)

// Fact kinds the offline brain reads by name (facts.yaml): the user's
// own name, and where they live.
const (
	factName = "name"
	factHome = "home"
)

// topicPets is the theme tag of pets (topics.yaml): the vet is the pet's.
const topicPets = "pets"

// partOfDay names the part of the day of t; "" for the zero time.
func partOfDay(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	switch h := t.Hour(); {
	case h >= 5 && h < 12:
		return partMorning
	case h >= 12 && h < 18:
		return partAfternoon
	case h >= 18 && h < 23:
		return partEvening
	default:
		return partNight
	}
}

// turnView is what the offline brain understood of one request: the
// situations, themes, facts and names in what was said, the state of the
// conversation, and what it said lately.
type turnView struct {
	k       *knowledge
	h       bot.Hints // Text read as its words (knowledge.plain)
	spoken  spoken    // the message as read and as written
	lang    string
	seed    uint64
	states  []string
	said    map[string]int // sentences of recent replies → replies ago (0: the last), and of this reply so far
	replied map[string]int // sentences of recent replies alone
	sits    []*situation   // found, in table order
	topics  []*topic
	before  map[string]bool // topic tags the user mentioned earlier
	facts   []fact          // stated in this message
	known   []fact          // all the user has told
	gone    map[string]bool // names of the pets and people the user lost
	vars    map[string]string
	read    *readCache // situationsOf's answers, the Offline's: earlier messages are read by several parts of every reply
	// aheadAbout is the dated thing ahead the message names ("exam"), ""
	// if none.
	aheadAbout string
	// aheadKin: the dated thing ahead is someone else's, told by a word
	// that points back ("her recital"); aheadOwned: ownAhead named them.
	aheadKin, aheadOwned bool
	// plain: the reply carries no emoji whatever the lead's feeling: it
	// quotes something hard the user said, or admits she was not told.
	plain bool
	// metLeads: what she remembers this message meets is the whole
	// answer (recall.yaml links leads): set by linked.
	metLeads bool
}

// situationsOf is k.situationsIn(text, "", false), read once per text
// while the cache keeps it: the history's messages are asked after by the
// lost names, the talk's mood and recall alike, on every reply. The slice
// is shared: read it, never change it.
func (t *turnView) situationsOf(text string) []*situation {
	return t.read.situations(t.k, text)
}

// readCache keeps what situationsIn and factsIn found in texts a reply
// reads again. Every reply reads the user's last messages anew, so without
// it a long conversation was read whole on every turn (a 1 KB message with
// its history took about 28 ms). An answer depends on the text (and the
// language) alone. The cache is bounded by the bytes of the texts it keeps
// and emptied whole when full: a miss costs one read.
type readCache struct {
	mu    sync.Mutex
	m     map[string][]*situation
	facts map[string][]fact // by language, NUL, text
	bytes int
}

// readCacheBytes bounds the texts a readCache keeps (our choice: the
// recent talk of a few hundred users, a small part of the 20 MB idle
// footprint goal, issue 15).
const readCacheBytes = 256 << 10

// situations is k.situationsIn(text, "", false), from the cache if there.
func (c *readCache) situations(k *knowledge, text string) []*situation {
	c.mu.Lock()
	s, ok := c.m[text]
	c.mu.Unlock()
	if ok {
		return s
	}
	s = k.situationsIn(k.plain(text).text, "", false)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.room(len(text)) {
		if _, ok := c.m[text]; !ok {
			c.m[text] = s
			c.bytes += len(text)
		}
	}
	return s
}

// factsIn is k.factsIn(text, lang), from the cache if there. The slice is
// the caller's; the facts' fields are shared and never written (resolve
// and the answers copy before they change one).
func (c *readCache) factsIn(k *knowledge, text, lang string) []fact {
	key := lang + "\x00" + text
	c.mu.Lock()
	fs, ok := c.facts[key]
	c.mu.Unlock()
	if !ok {
		sp := k.plain(text)
		fs = sp.restoreFacts(k.factsIn(sp.text, lang))
		c.mu.Lock()
		if c.room(len(key)) {
			if _, ok := c.facts[key]; !ok {
				c.facts[key] = fs
				c.bytes += len(key)
			}
		}
		c.mu.Unlock()
	}
	return slices.Clone(fs)
}

// room makes room for n more bytes of text, emptying the cache when it is
// full; false if n alone is more than it keeps. c.mu is held.
func (c *readCache) room(n int) bool {
	if n > readCacheBytes {
		return false
	}
	if c.m == nil || c.bytes+n > readCacheBytes {
		c.m, c.facts, c.bytes = map[string][]*situation{}, map[string][]fact{}, 0
	}
	return true
}

// view reads a request.
func (o *Offline) view(h bot.Hints) *turnView {
	// Text-speak is read as its words ("r u ok" is "are you ok"), here
	// once for the message; the read cache does the same for the history.
	sp := o.k.plain(h.Text)
	h.Text = sp.text
	t := &turnView{k: o.k, h: h, spoken: sp, lang: h.Language, seed: variety(sp.raw, h.Turn), read: &o.read}
	t.vars = map[string]string{"user": h.User, "persona": h.Persona}
	t.replied = recentSentences(h.Recent)
	t.said = maps.Clone(t.replied)
	// The names the user gave are names, not words: a cat called 小雨 is
	// no weather, a dog called Sunny no forecast. Situations and themes
	// are read with every known name masked.
	t.known, t.facts = o.k.known(h, sp.restoreFacts(append(o.k.factsIn(h.Text, h.Language), t.answerFacts()...)), &o.read)
	text := maskNames(h.Text, t.known)
	intent := strings.ToUpper(h.Intent)
	if traps := o.k.intentTraps[intent]; traps != nil && traps.Has(text) {
		intent = "" // "ケーキを買ってあげた" for the dog is no flirting
	}
	var told []string
	for _, f := range t.facts {
		told = append(told, f.kind.Kind)
	}
	t.sits = t.asksOf(t.answered(o.k.situationsIn(text, intent, t.ahead(), told...)), text)
	t.sits = t.withoutDay(t.sits)
	t.captureGroups(h.Text, text)
	t.topics = o.k.topicsIn(text)
	t.before = map[string]bool{}
	for _, m := range h.Recent {
		if m.Role == "user" {
			for _, tp := range o.k.topicsIn(maskNames(m.Content, t.known)) {
				t.before[tp.Tag] = true
			}
		}
	}
	if l := t.lead(); l != nil && l.Recall != "" {
		// A question about what was said states nothing new.
		t.known, t.facts = o.k.known(h, nil, &o.read)
	}
	for _, f := range t.known {
		if f.kind.Kind == factName {
			t.vars["user"] = f.fields["name"] // what they asked to be called
		}
	}
	if h.Gift != "" {
		t.vars["item"], t.vars["the_item"] = giftForms(h.Gift, t.lang)
	}
	t.vars["favorite"] = t.favorite(text)
	t.gone = t.findGone()
	t.findNames()
	t.ownAhead()
	t.mourn()
	t.become()
	for i := len(t.known) - 1; i >= 0; i-- {
		if f := t.known[i]; f.kind.Kind == factHome {
			t.vars["place"] = f.fields["place"] // where they live: "How's Porto treating you?"
			break
		}
	}
	t.states = t.conversationStates()
	return t
}

// mourn puts the remembrance of a pet or person the user lost in place of
// a situation that would celebrate them (situations.yaml mourned): "today
// is Ruth's birthday" after "my wife Ruth passed in January" is a hard day,
// not a party.
func (t *turnView) mourn() {
	if !t.gone[t.vars["person_name"]] && !t.gone[t.vars["pet_name"]] {
		return
	}
	for i, s := range t.sits {
		if s.mourned != nil {
			t.sits[i] = s.mourned
		}
	}
}

// favorite is her answer (words.yaml favorites) for the first thing text
// names that she has a favourite of, "" if none. Asked to choose between
// two, only a favourite whose answer picks one of the options answers
// (words.yaml picks): "cats or dogs?" is her cats, while "summer or
// winter?" gets no autumn and "a film or karaoke?" no favourite story.
// Asked whether she likes it (situations.yaml likes_it), her fond answer
// says yes first: "do you like cats?" got "Cats, I think."
func (t *turnView) favorite(text string) string {
	if a, b := t.vars["option_a"], t.vars["option_b"]; a != "" && b != "" {
		for _, s := range []string{a, b} {
			for _, hit := range t.k.pickSet.Find(s) {
				return t.k.favorites[t.k.pickOwner[hit.Index]].Answer[t.lang]
			}
		}
		return ""
	}
	for _, hit := range t.k.favSet.Find(text) {
		f := t.k.favorites[t.k.favOwner[hit.Index]]
		if fond := f.Fond[t.lang]; fond != "" && t.has(sitLikesIt) {
			return fond
		}
		return f.Answer[t.lang]
	}
	return ""
}

// sitLikesIt is the situation of a question whether she likes something
// ("do you like cats?", 你喜欢猫吗, 猫好き？): answered yes or no, with her
// favourite's fond answer where she has one.
const sitLikesIt = "likes_it"

// toldLately reports whether one of her last recentReplies replies said
// what she is (words.yaml told: "I'm an AI", 我是AI, AIだから): an everyday
// probe heard it in six answers running about her sleep, home, age,
// friends and feelings. She says it when it matters, then answers as
// herself.
func (t *turnView) toldLately() bool {
	for i, n := len(t.h.Recent)-1, 0; i >= 0 && n < recentReplies; i-- {
		if m := t.h.Recent[i]; m.Role == "assistant" {
			n++
			for _, w := range t.k.told {
				if strings.Contains(m.Content, w) {
					return true
				}
			}
		}
	}
	return false
}

// captureGroups fills the placeholders a found situation's patterns name
// as groups ("pizza or sushi?" → {option_a} pizza, {option_b} sushi), said
// back as the user's own words ("my red dress" → "your red dress"). The
// groups are read from what was said, else from the text with names masked,
// else from the user's message before ("city or countryside?", then "what
// would you pick?").
func (t *turnView) captureGroups(said, masked string) {
	texts := []string{said, masked}
	if before, _ := t.lastExchange(); before != "" {
		texts = append(texts, before)
	}
	for _, s := range t.sits {
		for _, text := range texts {
			if t.captureFrom(s, text) {
				break
			}
		}
	}
}

// captureFrom fills the placeholders of s's first pattern with groups that
// matches text, and reports whether one did.
func (t *turnView) captureFrom(s *situation, text string) bool {
	for _, re := range s.res {
		if re.NumSubexp() == 0 {
			continue
		}
		m := re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		for i, name := range re.SubexpNames() {
			if v := strings.TrimSpace(m[i]); name != "" && v != "" && t.vars[name] == "" {
				t.vars[name] = t.k.sayBack(t.spoken.restore(v))
			}
		}
		return true
	}
	return false
}

// conversationStates lists the states that hold, in the order phrase keys
// try them, then the part of the day.
func (t *turnView) conversationStates() []string {
	h := t.h
	var s []string
	if h.Watch || h.Crisis {
		s = append(s, stateWatch)
	}
	if h.Silence >= heart.ReturnAbsence {
		s = append(s, stateAway)
	}
	if t.gone[t.vars["pet_name"]] || t.gone[t.vars["person_name"]] {
		s = append(s, stateGone)
	}
	if t.vars["due"] != "" {
		s = append(s, stateComing)
	}
	if t.isEx(t.vars["person_name"]) {
		s = append(s, stateEx)
	}
	ling := strings.ToLower(h.Lingering)
	if h.Mood <= moodHurt || ling == string(heart.LabelAnger) {
		s = append(s, stateHurt)
	}
	// A sadness or fear of hers that lingers makes the talk low, but not
	// a message of plain joy: "楽しみ！" got "いちばん重くのしかかってるのは
	// 何？", a question about a weight the user never mentioned.
	lingers := (ling == string(heart.LabelSadness) || ling == string(heart.LabelFear)) && feltLabel(t.felt()) != string(heart.LabelJoy)
	grieving := t.grieving() && feltLabel(t.felt()) != string(heart.LabelJoy)
	if lingers || negative(feltLabel(t.felt())) || t.hardLately() || t.setback() || grieving {
		s = append(s, stateLow)
	}
	if t.toldLately() {
		s = append(s, stateTold)
	}
	switch strings.ToLower(h.Relationship) {
	case "stranger", "acquaintance":
		s = append(s, stateYoung)
	case "friend", "close":
		s = append(s, stateClose)
	}
	if t.vars["pet_name"] != "" || t.namedBaby() {
		s = append(s, stateNamed)
	}
	if t.isQuestion() {
		s = append(s, stateAsk)
	}
	if !slices.Contains(s, stateLow) && t.gladLately() {
		s = append(s, stateGlad)
	}
	if t.aheadAbout != "" && (t.aheadKin || len(t.k.named(dictPeople, t.aheadAbout)) > 0) {
		s = append(s, stateKin)
	}
	if t.aheadAbout != "" && t.toldBefore(t.aheadAbout) {
		s = append(s, stateAgain)
	}
	if t.aheadAbout != "" && t.k.careEvents.Has(t.aheadAbout) {
		s = append(s, stateCare)
	}
	if t.vars["place"] != "" {
		s = append(s, stateHome)
	}
	if t.theirs() {
		s = append(s, stateTheirs)
	}
	if t.vars["person_name"] != "" && !t.isQuestion() && !slices.Contains(s, stateLow) {
		s = append(s, stateStory)
	}
	if p := partOfDay(h.Now); p != "" {
		s = append(s, p)
	}
	return s
}

// kanaLead is the first byte of every hiragana and katakana in UTF-8
// (U+3040-U+30FF): a text without it has no polite Japanese to read as
// plain, and skips the replacer (English and most Chinese messages).
const kanaLead = 0xE3

// plainOf is text with its polite Japanese forms read as plain
// (words.yaml plain), text itself when there are none.
func (k *knowledge) plainOf(text string) string {
	if k.polite == nil || strings.IndexByte(text, kanaLead) < 0 {
		return text
	}
	return k.polite.Replace(text)
}

// aloneMaxBytes is the longest message a situation marked alone
// (situations.yaml: "ok", "idk", 哈哈, 😭 and nothing else) is looked for
// in; its patterns match nothing longer, and the recent messages read for
// every reply are mostly longer (our choice: "i don't know either lol!!"
// and 16 Chinese or Japanese characters fit).
const aloneMaxBytes = 48

// situationsIn returns the situations of text and intent in table order,
// without the ones another found situation replaces; dated: the message
// names a dated thing ahead; told: the kinds of fact it tells.
func (k *knowledge) situationsIn(text, intent string, dated bool, told ...string) []*situation {
	found := map[int]bool{}
	// Polite Japanese is read as said and as its plain form ("膝が痛くて
	// 眠れませんでした" finds what "眠れなかった" does): an older user
	// writing -ます/-です got bare listening lines.
	texts := []string{text}
	if p := k.plainOf(text); p != text {
		texts = append(texts, p)
	}
	for _, said := range texts {
		for _, hit := range k.sitSet.Find(said) {
			if i := k.sitOwner[hit.Index]; i >= 0 && !hit.Negated {
				found[i] = true
			}
		}
	}
	for i, s := range k.sits {
		if s.Intent != "" && strings.EqualFold(s.Intent, intent) {
			found[i] = true
		}
		if s.Alone && len(text) > aloneMaxBytes {
			continue // "ok" or "😭" alone: no longer message is one
		}
		for _, re := range s.res {
			for _, said := range texts {
				if re.may(said) && re.MatchString(said) {
					found[i] = true
				}
			}
		}
		if s.Dated && dated || s.Told != "" && slices.Contains(told, s.Told) {
			found[i] = true
		}
	}
	replaced := map[string]bool{}
	for i := range found {
		for _, r := range k.sits[i].Replaces {
			replaced[r] = true
		}
	}
	var out []*situation
	for i := range k.sits {
		if found[i] && !replaced[k.sits[i].Name] {
			out = append(out, &k.sits[i])
		}
	}
	return out
}

// withoutDay leaves out the everyday lines (situations.yaml day) of a
// message that asks her something or asks what she remembers: "is it
// raining where you are?" and "did you have a quiet day?" got a remark on
// the user's rain and quiet, "remind me who I played cards with" one on
// the game.
func (t *turnView) withoutDay(sits []*situation) []*situation {
	if !t.isQuestion() && !slices.ContainsFunc(sits, func(s *situation) bool { return s.Recall != "" }) {
		return sits
	}
	return slices.DeleteFunc(sits, func(s *situation) bool { return s.Day })
}

// answered keeps a situation that answers a turned-back question
// (situations.yaml answers) only right after that question, in a message
// that asks nothing and tells no new fact: "我最近在听周杰伦" after "你呢？"
// is the user's answer, "橘子三岁了" news of the cat and "I burned my
// tongue" no answer at all (its patterns find none).
func (t *turnView) answered(sits []*situation) []*situation {
	var asked map[string]bool
	// A fact told as the answer to her question ("her name is Mochi") is
	// the answer, not news beside it.
	if !t.isQuestion() && !slices.ContainsFunc(t.facts, func(f fact) bool { return !f.told && !f.answer }) {
		asked = t.lastAsked()
	}
	return slices.DeleteFunc(sits, func(s *situation) bool {
		return len(s.Answers) > 0 && !slices.ContainsFunc(s.Answers, func(a string) bool { return asked[a] })
	})
}

// asksOf turns a bare request for ideas (situations.yaml to: "any
// ideas?") into the request the theme talked about calls for, the
// message's own theme first, then the user's message before: after
// "gonna watch a movie", "any ideas?" asks for a film.
func (t *turnView) asksOf(sits []*situation, text string) []*situation {
	for i, s := range sits {
		if s.Kind != kindContent {
			continue
		}
		if len(s.To) == 0 {
			return sits // another content situation leads
		}
		before, _ := t.lastExchange()
		for _, said := range []string{text, maskNames(before, t.known)} {
			for _, tp := range t.k.topicsIn(said) {
				if name, ok := s.To[tp.Tag]; ok {
					if j := slices.IndexFunc(t.k.sits, func(x situation) bool { return x.Name == name }); j >= 0 {
						sits[i] = &t.k.sits[j]
						return sits
					}
				}
			}
		}
		return sits
	}
	return sits
}

// lastAsked lists the situations whose question (phrases "sit.<name>.ask")
// the last reply asked, of those some situation answers.
func (t *turnView) lastAsked() map[string]bool {
	_, last := t.lastExchange()
	if last == "" {
		return nil
	}
	asked := map[string]bool{}
	for _, s := range t.k.sits {
		for _, a := range s.Answers {
			if t.askedIn(last, a) != "" {
				asked[a] = true
			}
		}
	}
	return asked
}

// lastExchange is the user's message before her last reply, and that reply;
// "" where there is none.
func (t *turnView) lastExchange() (user, reply string) {
	i := len(t.h.Recent) - 1
	for ; i >= 0 && reply == ""; i-- {
		if t.h.Recent[i].Role == "assistant" {
			reply = t.h.Recent[i].Content
		}
	}
	for ; i >= 0; i-- {
		if t.h.Recent[i].Role == "user" {
			return t.h.Recent[i].Content, reply
		}
	}
	return "", reply
}

// askedIn is the question of situation sit (phrases "sit.<sit>.ask") that
// reply asked, "" if none.
func (t *turnView) askedIn(reply, sit string) string {
	said := map[string]bool{}
	for _, s := range sentences(reply) {
		said[normSentence(s)] = true
	}
	for _, v := range t.k.book["sit."+sit+".ask"][t.lang] {
		// A question of two sentences ("What's a movie you've loved
		// lately? Then I can aim better.") was asked when both were said.
		q, ok := fill(v, func(n string) string { return t.vars[n] })
		if ok && !slices.ContainsFunc(sentences(q), func(s string) bool { return !said[normSentence(s)] }) {
			return q
		}
	}
	return ""
}

// lead is the situation that leads the reply: the first content situation,
// else the first social one, else nil.
func (t *turnView) lead() *situation {
	for _, s := range t.sits {
		if s.Kind == kindContent {
			return s
		}
	}
	if len(t.sits) > 0 {
		return t.sits[0]
	}
	return nil
}

// firstTopic is the first theme of the message worth a question, nil if
// none (passing themes ask nothing).
func (t *turnView) firstTopic() *topic {
	for _, tp := range t.topics {
		if !tp.Passing {
			return tp
		}
	}
	return nil
}

// greetsBeside is a situation that greets (situations.yaml greets: good
// evening, good morning) found beside a lead of other news, nil if none.
func (t *turnView) greetsBeside(lead *situation) *situation {
	if lead == nil || lead.Greets {
		return nil
	}
	for _, s := range t.sits {
		if s != lead && s.Kind == kindContent && s.Greets {
			return s
		}
	}
	return nil
}

// hardBeside is a hard situation found beside lead, nil if none.
func (t *turnView) hardBeside(lead *situation) *situation {
	for _, s := range t.sits {
		if s != lead && s.Kind == kindContent && negative(s.Feel.Label) {
			return s
		}
	}
	return nil
}

// otherNews is news found beside lead that pulls the other way, good news
// beside hard or hard beside good, and that has a name to say it by
// (situations.yaml thing); nil if none.
func (t *turnView) otherNews(lead *situation) *situation {
	glad := lead.Feel.Label == string(heart.LabelJoy)
	for _, s := range t.sits {
		if s == lead || s.Kind != kindContent || s.Thing[t.lang] == "" {
			continue
		}
		if glad && negative(s.Feel.Label) || negative(lead.Feel.Label) && s.Feel.Label == string(heart.LabelJoy) {
			return s
		}
	}
	return nil
}

// in reports whether a conversation state holds.
func (t *turnView) in(state string) bool { return slices.Contains(t.states, state) }

// has reports whether a situation of that name was found.
func (t *turnView) has(name string) bool {
	for _, s := range t.sits {
		if s.Name == name {
			return true
		}
	}
	return false
}

// part is one sentence group of a reply.
type part struct {
	text string
	prio int
}

// helloWithNews greets a hello that says more, before the answer. Hard
// news needs no hello, and a hello to someone who says their name now
// leaves the name to the answer ("Hi! Nice to meet you, Ann.", not "Hi
// Ann! Nice to meet you, Ann.").
func (t *turnView) helloWithNews() string {
	var unnamed map[string]string
	if t.introduces() {
		unnamed = map[string]string{"user": ""}
	}
	return t.sayWith("greet", 1, unnamed)
}

// returnGreeting is seed 003 §7.1's greeting of a user back after a while
// as this reply says it: only its statements when the message has news of
// its own, in the user's words when it is only a hello; welcome is false
// when there is none or the message is hard (hard news is answered first).
func (t *turnView) returnGreeting(lead *situation, news, hard, hello bool) (greeting string, welcome bool) {
	greeting = t.h.Greeting
	if news {
		greeting = statements(greeting, t.lang)
	}
	welcome = greeting != "" && !hard
	if welcome && hello {
		greeting = t.inTheirWords(lead, greeting)
	}
	return greeting, welcome
}

// memoryMet is what she remembers that this message meets, "" if nothing
// or when the message asks what she remembers: a fear ("a dog chased me"),
// a health matter to mind (a party with snacks, and Lily's peanut
// allergy), what was told of someone ("王姐今天居然夸我了": the strict
// one), a goal a deed moves towards ("I ran 15km": the half marathon).
func (t *turnView) memoryMet(lead *situation) string {
	if lead != nil && lead.Recall != "" {
		return ""
	}
	for _, met := range []func() string{t.fearMet, t.careMet, t.contrasted, t.linked} {
		if s := met(); s != "" {
			return s
		}
	}
	return ""
}

// withoutQuestions is parts with their questions taken out, and a part
// left empty by that dropped.
func (t *turnView) withoutQuestions(parts []part) []part {
	for i := range parts {
		parts[i].text = statements(parts[i].text, t.lang)
	}
	return slices.DeleteFunc(parts, func(p part) bool { return p.text == "" })
}

// fittingLead is the lead situation (lead) unless the feeling rules it
// out: "I got home and cried all night" wants no "welcome home", and
// "maybe I should just drop out" after "I feel so lost" no "good idea".
func (t *turnView) fittingLead() *situation {
	lead := t.lead()
	switch {
	case lead == nil:
		return nil
	case lead.Greets && negative(feltLabel(t.felt())):
		return nil
	case lead.Agrees && (negative(feltLabel(t.felt())) || t.in(stateLow) && t.k.resigned.Has(t.h.Text)):
		return nil
	case lead.Feel.Label == string(heart.LabelJoy) && t.setback():
		// "朋友的生日饭又去不了了" got "祝你朋友生日快乐！": the occasion
		// missed is the news, not the occasion.
		return nil
	}
	return lead
}

// compose builds the reply's parts: a greeting when the user greeted and
// said more; an acknowledgement of the feeling or situation; a reflection
// of what was said (names, pets, spans of time, themes, facts); a gentle
// question when the situation or the seed 000 strategy asks for one; a
// goodbye or good night when the user is leaving.
func (t *turnView) compose() []part {
	var parts []part
	add := func(text string, prio int) {
		if text == "" || slices.ContainsFunc(parts, func(p part) bool { return p.text == text }) {
			return // "ハナに会いたいよね。ハナに会いたいよね。" says it once
		}
		if age := ageIn(t.replied, text); prio == prioReflect && age >= 0 && age < reflectAgain {
			return // "I hope Biscuit feels better soon" once, not every reply
		}
		parts = append(parts, part{text, prio})
	}
	lead := t.fittingLead()
	leaving := t.leaving()
	content := lead != nil && lead.Kind == kindContent
	feeling := emotionKey(t.felt())
	hard := content && negative(lead.Feel.Label) || negative(feltLabel(t.felt()))
	hello := content && lead.Greets // "I'm back" says nothing more than hi
	// A message no situation reads ("我最近在准备考研") says something all
	// the same: only a hello, a goodbye and the like say nothing more.
	news := lead == nil || content && !hello || feeling != "" || len(t.topics) > 0 || len(t.facts) > 0
	// Seed 003 §7.1: a user back after a while is greeted by the state of
	// the relationship, asked after what they shared before (the greeting
	// asks, so no other question follows). Hard news is answered first;
	// other news makes the greeting's question moot ("Hello again! What
	// would you like to talk about?" to "I got a new job!", "How have you
	// been?" to what they are already telling).
	greeting, welcome := t.returnGreeting(lead, news, hard, hello)
	if welcome {
		add(greeting, prioWelcome)
		if hello {
			// Back after a while, the day after the driving test: greeted
			// and asked how it went (Handler.askAfter gave the greeting
			// without its own question).
			if len(t.h.FollowUps) > 0 {
				add(t.followUpQuestion(), prioQuestion)
			}
			return parts
		}
	}
	if t.has("greeting") && !hard && !welcome && news {
		add(t.helloWithNews(), prioFrame)
	} else if g := t.greetsBeside(lead); g != nil && !hard && !welcome {
		// "こんばんは。孫が設定してくれました": the news leads, and her
		// good evening is still said back, without its question.
		add(statements(t.say("sit."+g.Name, 1), t.lang), prioFrame)
	}
	// "a dog chased me today" from someone afraid of dogs: she remembers,
	// and asks how they are; with nothing else read in the message, that
	// is the answer.
	fear := t.memoryMet(lead)
	if fear != "" && (lead == nil || t.metLeads) {
		add(fear, prioAck)
		return parts
	}
	answered, done := t.answer(lead, feeling, leaving != "" || welcome, add)
	if done {
		return parts
	}
	add(fear, prioReflect)
	if len(t.h.FollowUps) > 0 && leaving == "" && !hard {
		// A dated thing whose day has passed, the first reply of a new
		// talk (Handler.askAfter): how did it go? That is the question, the
		// only one ("Did you sleep all right?" goes).
		parts = t.withoutQuestions(parts)
		add(t.followUpQuestion(), prioQuestion)
		return parts
	}
	if strings.EqualFold(t.h.Lingering, string(heart.LabelAnger)) && t.h.RefusalAllowed {
		// Seed 002 refusal knobs: still upset, so the reply says so.
		add(t.say("cool", 4), prioCool)
	}
	if leaving == "" && !welcome && !answered && !asks(parts) && !t.questionOpen() {
		// One question a reply: a reflection that asks ("How is Mia these
		// days?") is it.
		add(t.question(lead), prioQuestion)
	} else if leaving != "" {
		add(t.say(leaving, 6), prioFrame)
	}
	return parts
}

// inTheirWords is the return greeting said back in the user's own words
// of return: "long time no see" is answered "Long time no see! …", not
// a stranger's "Hello again! …". A greeting that already says them (a
// friend's "Hey, long time no see!") stays, as does one for a situation
// with no welcome form (phrases.yaml sit.<name>.welcome).
func (t *turnView) inTheirWords(lead *situation, greeting string) string {
	if slices.Contains(t.situationsOf(greeting), lead) {
		return greeting
	}
	if s := t.say("sit."+lead.Name+".welcome", 6); s != "" {
		return s
	}
	return greeting
}

// answer adds the reply's body: the acknowledgement of what was said and
// its reflection. answered: what they said answers the question we would
// ask; done: the reply is complete (a question turned back). framed: a
// welcome or a goodbye already answers a bare hello.
func (t *turnView) answer(lead *situation, feeling string, framed bool, add func(string, int)) (answered, done bool) {
	content := lead != nil && lead.Kind == kindContent
	var hard *situation
	if content {
		hard = t.hardBeside(lead)
	}
	asking := lead == nil && t.isQuestion() && !negative(feltLabel(t.felt())) && (feeling == "" || feeling == "emo.curious" || feeling == "emo.help" && t.felt() == string(heart.InfoSeeking))
	switch {
	case asking:
		// A question the offline brain cannot look up: say so honestly
		// and turn it back (situation-less, so no situations.yaml row).
		add(t.say("sit.question", 2), prioAck)
		if !t.questionOpen() {
			add(t.say("sit.question.ask", 5), prioQuestion)
		}
		return false, true
	case content && lead.Recall != "":
		add(t.recall(lead.Recall), prioAck)
	case content && lead.Feel.Label == string(heart.LabelNeutral) && (feeling != "" && negative(feltLabel(t.felt())) || hard != nil):
		// A plain matter told with a hard feeling ("明日の面接が不安で",
		// "what if I fail my exam on Friday"): the feeling first, then the
		// matter; what they feel answers any question about it.
		if hard != nil {
			add(t.say("sit."+hard.Name, 2), prioAck)
		} else {
			add(t.say(feeling, 2), prioAck)
		}
		add(t.say("sit."+lead.Name, 2), prioReflect)
		return true, false
	case content:
		add(t.say("sit."+lead.Name, 2), prioAck)
		if r := t.say("sit."+lead.Name+".reflect", 3); r != "" {
			add(r, prioReflect)
		} else if lead.Intent == "" {
			add(t.reflectNames(1), prioReflect)
		}
		if o := t.otherNews(lead); o != nil {
			// "I got the job but my cat is sick": the lead, first in
			// situations.yaml's order, which puts hard news before good,
			// is answered in full; the other news gets its sentence.
			key := "beside.glad"
			if negative(o.Feel.Label) {
				key = "beside.hard"
			}
			add(t.sayWith(key, 4, map[string]string{"news": o.Thing[t.lang]}), prioReflect)
		}
	case feeling != "":
		ack := t.say(feeling, 2)
		add(ack, prioAck)
		if !endsAsking(ack) { // a question turned back ends the reply
			add(t.reflectWhat(), prioReflect)
		}
	default:
		what := t.reflectWhat()
		switch {
		case what != "":
			add(what, prioAck)
		case lead != nil:
			// Only a hello, a goodbye or a good night: answer it.
			if !framed {
				add(t.say("greet", 1), prioAck)
			}
		default:
			add(t.say("listen", 2), prioAck)
		}
	}
	return false, false
}

// questionOpen reports whether her last reply asked something and the
// user, instead of answering, asks her in turn: she answers, and stacks no
// question of her own on the one still open (an everyday probe heard a
// question back after almost every one of a dozen questions about her).
// In Watch her question stands whatever was asked.
func (t *turnView) questionOpen() bool {
	if !t.isQuestion() || t.in(stateWatch) {
		return false
	}
	_, last := t.lastExchange()
	return slices.ContainsFunc(sentences(last), endsAsking)
}

// introduces reports whether this message tells the user's name for the
// first time: the reply then says it while acknowledging it.
func (t *turnView) introduces() bool {
	for _, f := range t.facts {
		if f.kind.Kind == factName && !f.told {
			return true
		}
	}
	return false
}

// leaving is the situation of a user leaving ("goodnight", "goodbye",
// "away": situations.yaml leaves), the first in table order, or "".
func (t *turnView) leaving() string {
	for _, s := range t.sits {
		if s.Leaves {
			return s.Name
		}
	}
	return ""
}

// asks reports whether a part ends in a question.
func asks(parts []part) bool {
	for _, p := range parts {
		if endsAsking(p.text) {
			return true
		}
	}
	return false
}

// endsAsking reports whether s ends in a question mark, Latin or CJK.
func endsAsking(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasSuffix(s, "?") || strings.HasSuffix(s, "？")
}

// statements keeps the sentences of s that ask nothing.
func statements(s, lang string) string {
	var keep []string
	for _, sent := range sentences(s) {
		if !endsAsking(sent) {
			keep = append(keep, sent)
		}
	}
	return joinSentences(keep, lang)
}

// isQuestion reports whether the user asked something: the text ends as a
// question does in the three languages.
func (t *turnView) isQuestion() bool {
	s := strings.TrimRight(strings.TrimSpace(t.h.Text), "!！。.~～ ")
	for _, e := range [...]string{"?", "？", "吗", "么", "ですか", "ますか"} {
		if strings.HasSuffix(s, e) {
			return true
		}
	}
	return false
}

// felt is the user's feeling in this very message: the lead situation's
// own (situations.yaml felt), else Hints.Felt, or the strategy's emotion
// when the caller gave no Felt. A seeking feeling is
// read in context: a message that tells a fact asks nothing ("妹のユキが
// 手伝ってくれた" is no plea for help), and a request for reassurance is
// about the user ("am I wrong?"), a question of what to do asks for help
// ("what do you think I should bring?"), else it is a plain question ("do
// you think dogs know they are loved?").
func (t *turnView) felt() string {
	if l := t.lead(); l != nil && l.Felt != "" {
		return l.Felt // happy tears are no sadness (situations.yaml felt)
	}
	e := t.h.Felt
	if e == "" {
		e = t.h.Emotion
	}
	switch em := heart.Emotion(strings.ToLower(e)); em {
	case heart.HelpSeeking, heart.InfoSeeking, heart.ValidationSeeking, heart.Curious:
		if len(t.facts) > 0 {
			return string(heart.Neutral)
		}
		if em == heart.ValidationSeeking && t.k.advice.Has(t.h.Text) {
			return string(heart.HelpSeeking)
		}
		if em == heart.ValidationSeeking && !t.k.self.Has(t.h.Text) {
			return string(heart.Curious)
		}
	}
	return e
}

// reflectWhat reflects the names, facts or theme of what was said; "" when
// there is nothing specific.
func (t *turnView) reflectWhat() string {
	if r := t.reflectNames(maxFactReflections); r != "" {
		return r
	}
	// In a hard talk a theme is not met with curiosity ("Work, huh? I'm
	// curious" to "I cried at work today"), nor is one mentioned on the
	// way out ("I'd like to hear more about work. Sleep well"). Her own
	// sadness lingering on is no hard talk: after one "しんどい" an everyday
	// probe heard ten bare "ここにいるよ"s in a row, to a guitar, a box of
	// vegetables from mum and a curry planned.
	if len(t.topics) > 0 && t.leaving() == "" && t.soreTheme() {
		// A theme in a message that tells of something gone wrong is met
		// with sympathy, never delight: "台風で庭がめちゃくちゃ" got "天気って
		// 一日の気分を左右するよね。 🍵", a cancelled birthday dinner "Ooh,
		// food!". Its own sore form (phrases.yaml listen.topic.<tag>.sore),
		// else the general one where no feeling was answered already.
		tp := t.topics[0]
		key := "listen.topic." + tp.Tag + ".sore"
		if _, own := t.k.book[key]; !own || tp.Tag == "" {
			if t.hardTalk() {
				return "" // the feeling's own words answered it
			}
			key = "listen.topic.sore"
		}
		return t.sayWith(key, 3, map[string]string{"topic": tp.Name[t.lang]})
	}
	if len(t.topics) > 0 && !t.hardTalk() && t.leaving() == "" {
		tp := t.topics[0]
		key := "listen.topic.first"
		if t.before[tp.Tag] {
			key = "listen.topic.again"
		}
		if _, own := t.k.book["listen.topic."+tp.Tag]; own && tp.Tag != "" {
			key = "listen.topic." + tp.Tag // the theme's own reaction
		}
		return t.sayWith(key, 3, map[string]string{"topic": tp.Name[t.lang]})
	}
	return ""
}

// setback reports whether the message tells of something gone wrong
// (words.yaml setbacks: "had to cancel", 台無し, 泡汤), whatever feeling
// its words name.
func (t *turnView) setback() bool {
	return t.k.setbacks.Has(t.h.Text) || t.k.setbacks.Has(t.k.plainOf(t.h.Text))
}

// soreTheme reports whether a theme of this message is to be met with
// sympathy: the message itself is hard (a setback, or a hard feeling),
// not only the talk before it.
func (t *turnView) soreTheme() bool {
	return t.in(stateLow) && (t.setback() || negative(feltLabel(t.felt())))
}

// hardTalk reports whether this message or the talk of the user's last
// few is a hard one (state low without her own lingering feeling alone).
func (t *turnView) hardTalk() bool {
	return negative(feltLabel(t.felt())) || t.hardLately()
}

// maxFactReflections bounds how many facts one reply echoes (our choice:
// two keep it a reply, not a list; one beside a situation's own words).
const maxFactReflections = 2

// reflectNames reflects up to most facts the user just stated (news, not
// what they told before), or a pet or person they named.
func (t *turnView) reflectNames(most int) string {
	// Up to two facts just told, their own name first ("Nice to meet
	// you, Ann. Miso, what a good name for a cat.").
	var said []string
	for _, first := range []bool{true, false} {
		for _, f := range t.facts {
			if f.told || (f.kind.Kind == factName) != first || len(said) == most {
				continue
			}
			key, fields := t.k.reflectKey(f), t.k.spoken(f, t.lang)
			if f.was != "" {
				// A name put right is acknowledged as put right.
				key, fields = "reflect.fact.corrected", maps.Clone(f.fields)
				fields["was"] = f.was
			}
			if r := t.sayWith(key, 3, fields); r != "" {
				said = append(said, r)
				t.mark(r) // the second fact is not met with the same words
			}
		}
	}
	if len(said) > 0 {
		return joinSentences(said, t.lang)
	}
	if t.vars["pet_name"] != "" {
		return t.say("reflect.pet", 3)
	}
	if t.vars["person_name"] != "" {
		return t.say("reflect.person", 3)
	}
	if slices.ContainsFunc(t.facts, func(f fact) bool { return !f.told }) {
		return t.say("reflect.fact", 3)
	}
	return ""
}

// question is the gentle question at the end, or "". The lead situation
// decides (ask: always, never, or the seed 000 strategy's
// proactive_question); a conversation state may ask its own ("are you
// somewhere safe right now?" after a crisis).
func (t *turnView) question(lead *situation) string {
	policy := askStrategy
	if lead != nil {
		policy = lead.Ask
		if q := t.sayOnly("sit."+lead.Name+".ask", 5); q != "" && policy == askNever {
			return q // only a state-specific question overrides "never"
		}
	}
	if policy == askNever || policy == askStrategy && !t.h.ProactiveQuestion {
		return ""
	}
	if lead != nil {
		if q := t.say("sit."+lead.Name+".ask", 5); q != "" {
			return q
		}
	}
	if tp := t.firstTopic(); tp != nil && !t.in(stateLow) {
		if q := t.say("ask.topic."+tp.Tag, 5); q != "" {
			return q
		}
		return t.sayWith("ask.topic", 5, map[string]string{"topic": tp.Name[t.lang]})
	}
	return t.say("ask", 5)
}

// followUpQuestion asks how the first due follow-up went (phrases.yaml
// ask.followup).
func (t *turnView) followUpQuestion() string {
	return t.sayWith("ask.followup", 3, map[string]string{"your_thing": t.k.yourThing(t.h.FollowUps[0].About, t.lang)})
}
