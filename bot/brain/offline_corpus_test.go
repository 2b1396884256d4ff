package brain

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"hearth/bot"
	"hearth/heart"
)

// corpusCase is one message of testdata/corpus.yaml (its header says what
// each field means).
type corpusCase struct {
	Lang         string   `yaml:"lang"`
	Text         string   `yaml:"text"`
	At           string   `yaml:"at"`
	Before       []string `yaml:"before"`
	Earlier      []string `yaml:"earlier"`
	Recalled     []string `yaml:"recalled"`
	Memories     []string `yaml:"memories"`
	Mood         float64  `yaml:"mood"`
	Lingering    string   `yaml:"lingering"`
	Relationship string   `yaml:"relationship"`
	Watch        bool     `yaml:"watch"`
	Name         string   `yaml:"name"`
	Greeting     string   `yaml:"greeting"`
	Any          []string `yaml:"any"`
	None         []string `yaml:"none"`
	Label        string   `yaml:"label"`
	Remember     string   `yaml:"remember"`
	Slot         *int     `yaml:"slot"`
}

// convo plays a conversation through the offline brain the way the
// Handler does: seed 000 detection, the heuristic perceiver, the strategy
// with last_emotion, the history as Recent and the trailer's memories kept.
type convo struct {
	t        testing.TB
	o        *Offline
	lex      *heart.Lexicon
	c        corpusCase
	now      time.Time
	turn     int
	last     heart.Emotion
	recent   []bot.ChatMessage
	memories map[int]string
	recalled []bot.Recollection
}

// earlierGap is how long before the corpus message its `earlier` messages
// were said (our choice: weeks, well out of the history window).
const earlierGap = 21 * 24 * time.Hour

// recallEarlier answers c.Earlier (their memory writes kept), then moves
// them out of the history window, weeks back, and hands the recall stage's
// findings (c.Recalled) to the next turns as dated episodes.
func (cv *convo) recallEarlier() {
	if len(cv.c.Earlier) == 0 && len(cv.c.Recalled) == 0 {
		return
	}
	then := cv.now
	for _, e := range cv.c.Earlier {
		cv.say(e)
	}
	cv.recent = nil
	cv.now = then.Add(earlierGap)
	for _, r := range cv.c.Recalled {
		cv.recalled = append(cv.recalled, bot.Recollection{Kind: "episode", At: then, Text: r})
	}
}

func newConvo(t testing.TB, o *Offline, c corpusCase) *convo {
	lex, err := heart.NewLexicon(nil)
	if err != nil {
		t.Fatal(err)
	}
	at := c.At
	if at == "" {
		at = "15:00"
	}
	now, err := time.Parse("2006-01-02 15:04", "2026-03-10 "+at)
	if err != nil {
		t.Fatalf("%q: at %q: %v", c.Text, c.At, err)
	}
	cv := &convo{t: t, o: o, lex: lex, c: c, now: now, memories: map[int]string{}}
	for i, m := range c.Memories {
		cv.memories[40+i] = m
	}
	return cv
}

// hints builds what Handler.compose would for text.
func (cv *convo) hints(text string) bot.Hints {
	det := cv.lex.Detect(text)
	perc := heart.HeuristicPerceive(text, det)
	chosen := heart.ChooseEmotion(det, cv.last)
	s := heart.StrategyFor(chosen)
	kind := heart.CrisisFloor(text)
	crisis := kind != heart.CrisisNone
	rel := cv.c.Relationship
	if rel == "" {
		rel = "acquaintance"
	}
	user := cv.c.Name
	if user == "" {
		user = names[cv.c.Lang][1]
	}
	var mems []string
	for slot := 0; slot < 100; slot++ {
		if m, ok := cv.memories[slot]; ok {
			mems = append(mems, m)
		}
	}
	return bot.Hints{
		Language: cv.c.Lang, Persona: names[cv.c.Lang][0], User: user, Text: text, Turn: cv.turn,
		Emotion: string(chosen), Felt: string(det.Emotion), Tone: s.Tone, MaxLength: s.MaxLength,
		EmojiAllowed: s.EmojiAllowed, ProactiveQuestion: s.ProactiveQuestion, Formality: s.Formality,
		Intent: string(perc.Intent), Sentiment: perc.Sentiment, Disclosure: string(perc.Disclosure),
		Mood: cv.c.Mood, Lingering: cv.c.Lingering, Relationship: rel, Watch: cv.c.Watch || crisis,
		Crisis: crisis, CrisisKind: string(kind), Memories: mems, Recent: append([]bot.ChatMessage(nil), cv.recent...), Now: cv.now,
		Recalled: cv.recalled,
		Greeting: cv.c.Greeting,
	}
}

// say answers text and keeps the conversation going.
func (cv *convo) say(text string) (bot.Hints, bot.Response, map[string]any) {
	cv.t.Helper()
	cv.turn++
	h := cv.hints(text)
	resp, err := cv.o.Complete(context.Background(), bot.Request{Kind: bot.KindReply, Hints: h})
	if err != nil {
		cv.t.Fatalf("%q: %v", text, err)
	}
	var tr map[string]any
	if err := json.Unmarshal([]byte(resp.Trailer), &tr); err != nil {
		cv.t.Fatalf("%q: trailer %q: %v", text, resp.Trailer, err)
	}
	for _, r := range tr["remember"].([]any) {
		m := r.(map[string]any)
		cv.memories[int(m["slot"].(float64))] = m["content"].(string)
	}
	det := cv.lex.Detect(text)
	cv.last = heart.ChooseEmotion(det, cv.last)
	cv.recent = append(cv.recent, bot.ChatMessage{Role: "user", Content: text}, bot.ChatMessage{Role: "assistant", Content: resp.Text})
	cv.now = cv.now.Add(2 * time.Minute)
	return h, resp, tr
}

// stockOnly reports whether reply is nothing but listening noises: a
// sentence of the "listen" pool and nothing else.
func stockOnly(o *Offline, reply, lang string) bool {
	for _, v := range o.loaded().book["listen"][lang] {
		if strings.TrimSpace(reply) == v {
			return true
		}
	}
	return false
}

// doubledRe finds a doubled or stacked English article ("the the", "the a").
var doubledRe = regexp.MustCompile(`(?i)\b(the|a|an) (the|a|an)\b`)

func doubled(s string) bool { return doubledRe.MatchString(s) }

// scriptOK reports whether reply is written in lang's script.
func scriptOK(reply, lang string) bool {
	switch lang {
	case langZH:
		return hasHan(reply) && !hasKana(reply)
	case langJA:
		return hasKana(reply)
	}
	for _, r := range reply {
		if r >= utf8.RuneSelf && !isEmoji(r) && r != '’' && r != '…' && !strings.ContainsRune("“”", r) {
			return false
		}
	}
	return true
}

// TestOfflineCorpus runs testdata/corpus.yaml through the offline brain:
// every message gets a relevant reply in the persona's language, never a
// bare stock line, with the right greeting for the time, answers from what
// it was told, and honest trailer values (issue 13).
func TestOfflineCorpus(t *testing.T) {
	raw, err := os.ReadFile("testdata/corpus.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&cases); err != nil {
		t.Fatal(err)
	}
	perLang := map[string]int{}
	for _, c := range cases {
		perLang[c.Lang]++
	}
	if len(cases) < 150 || perLang[langEN] < 45 || perLang[langZH] < 45 || perLang[langJA] < 45 {
		t.Fatalf("corpus has %d messages (%v); issue 13 asks for at least 150 in en, zh and ja", len(cases), perLang)
	}
	o := NewOffline()
	failed := 0
	for i, c := range cases {
		cv := newConvo(t, o, c)
		cv.recallEarlier()
		for _, b := range c.Before {
			cv.say(b)
		}
		h, resp, tr := cv.say(c.Text)
		got := resp.Text
		var problems []string
		if !scriptOK(got, c.Lang) {
			problems = append(problems, "not in the persona's language")
		}
		if stockOnly(o, got, c.Lang) {
			problems = append(problems, "a stock line alone")
		}
		if doubled(got) || strings.ContainsAny(got, "{}") || strings.Contains(got, "  ") {
			problems = append(problems, "broken grammar or an unfilled placeholder")
		}
		if heart.ContainsForbidden(got) {
			problems = append(problems, "a seed 003 §7.2 phrase")
		}
		if n := utf8.RuneCountInString(got); n > maxLen(h) {
			problems = append(problems, fmt.Sprintf("%d runes, over max_length %d", n, maxLen(h)))
		}
		lower := strings.ToLower(got)
		if len(c.Any) > 0 {
			hit := false
			for _, a := range c.Any {
				hit = hit || strings.Contains(lower, strings.ToLower(a))
			}
			if !hit {
				problems = append(problems, fmt.Sprintf("none of %q", c.Any))
			}
		}
		for _, n := range c.None {
			if strings.Contains(lower, strings.ToLower(n)) {
				problems = append(problems, fmt.Sprintf("says %q", n))
			}
		}
		if c.Label != "" && tr["emotion_label"] != c.Label {
			problems = append(problems, fmt.Sprintf("trailer label %v, want %s", tr["emotion_label"], c.Label))
		}
		if c.Remember != "" {
			found := false
			for _, r := range tr["remember"].([]any) {
				m := r.(map[string]any)
				found = found || strings.Contains(m["content"].(string), c.Remember) && (c.Slot == nil || int(m["slot"].(float64)) == *c.Slot)
			}
			if !found {
				problems = append(problems, fmt.Sprintf("remember %v lacks %q", tr["remember"], c.Remember))
			}
		}
		if len(problems) > 0 {
			failed++
			t.Errorf("corpus #%d %s %q → %q: %s", i+1, c.Lang, c.Text, got, strings.Join(problems, "; "))
		}
	}
	t.Logf("corpus: %d messages (%v), %d failed", len(cases), perLang, failed)
}

// conversation40 reads testdata/conversation40.yaml: a 40-message evening
// per language.
func conversation40(t testing.TB, path string) map[string][]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c map[string][]string
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	for _, lang := range languages() {
		if len(c[lang]) != 40 {
			t.Fatalf("%s: %s has %d messages, want 40", path, lang, len(c[lang]))
		}
	}
	return c
}

// openingOf is the first sentence of a reply, folded: what the repetition
// rule compares.
func openingOf(reply string) string {
	if ss := sentences(reply); len(ss) > 0 {
		return normSentence(ss[0])
	}
	return ""
}

// TestOfflineOpeningsVary is issue 13's repetition metric through the brain
// alone: over a 40-message conversation at least 80% of the replies open
// differently, and no opening repeats within the last recentReplies
// replies. TestOfflineConversationThroughTheHandler measures the same
// through the Handler.
func TestOfflineOpeningsVary(t *testing.T) {
	o := NewOffline()
	convs := conversation40(t, "testdata/conversation40.yaml")
	for _, lang := range languages() {
		cv := newConvo(t, o, corpusCase{Lang: lang, At: "19:00"})
		seen := map[string]int{}
		var openings []string
		for i, text := range convs[lang] {
			_, resp, _ := cv.say(text)
			op := openingOf(resp.Text)
			if j, ok := seen[op]; ok && i-j <= recentReplies {
				t.Errorf("%s: reply %d %q opens like reply %d", lang, i+1, resp.Text, j+1)
			}
			seen[op] = i
			openings = append(openings, op)
		}
		distinct := map[string]bool{}
		for _, op := range openings {
			distinct[op] = true
		}
		ratio := float64(len(distinct)) / float64(len(openings))
		t.Logf("%s: %d of %d openings distinct (%.0f%%)", lang, len(distinct), len(openings), 100*ratio)
		if ratio < 0.8 {
			t.Errorf("%s: only %.0f%% distinct openings over %d replies", lang, 100*ratio, len(openings))
		}
	}
}

// TestOfflineNoAgainOnFirstMention: "X again?" only when X came up before.
func TestOfflineNoAgainOnFirstMention(t *testing.T) {
	o := NewOffline()
	again := o.loaded().book["listen.topic.again"]
	for _, lang := range languages() {
		text := map[string]string{langEN: "the weather is grey", langZH: "今天天气好差", langJA: "今日の天気はどんより"}[lang]
		for turn := range 20 {
			cv := newConvo(t, o, corpusCase{Lang: lang})
			cv.turn = turn
			_, first, _ := cv.say(text)
			name := map[string]string{langEN: "the weather", langZH: "天气", langJA: "天気"}[lang]
			for _, v := range again[lang] {
				if a, _ := fill(v, func(string) string { return name }); strings.Contains(strings.ToLower(first.Text), strings.ToLower(a)) {
					t.Errorf("%s: first mention answered %q", lang, first.Text)
				}
			}
		}
	}
}

// TestOfflineOneQuestion: news told of someone named before ("Mia is
// getting married in June") is met with at most one question, and never
// with "How is Mia these days?", which asks after her as if nothing had
// been said (state story).
func TestOfflineOneQuestion(t *testing.T) {
	o := NewOffline()
	for turn := range 20 {
		cv := newConvo(t, o, corpusCase{Lang: langEN})
		cv.say("my sister Mia called")
		cv.turn = turn
		for _, text := range []string{"Mia is getting married in June", "she's getting married in June"} {
			_, got, _ := cv.say(text)
			if strings.Contains(got.Text, "these days?") || strings.Count(got.Text, "?") > 1 {
				t.Errorf("turn %d %q: %q", turn, text, got.Text)
			}
		}
	}
}

// TestOfflineLifeLoop: seed 003 §7.1 by state, after a day of silence, never
// in a crisis; the check-in names something real when there is something,
// changes from one day to the next, and never sounds like a help desk or
// uses a §7.2 phrase.
func TestOfflineLifeLoop(t *testing.T) {
	o := NewOffline()
	type answer struct {
		Speak   bool   `json:"speak"`
		Message string `json:"message"`
	}
	ask := func(h bot.Hints) answer {
		t.Helper()
		resp, err := o.Complete(context.Background(), bot.Request{Kind: bot.KindLifeLoop, JSON: true, Hints: h})
		if err != nil {
			t.Fatal(err)
		}
		var a answer
		if err := json.Unmarshal([]byte(resp.Text), &a); err != nil {
			t.Fatalf("%q: %v", resp.Text, err)
		}
		return a
	}
	day := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	helpDesk := regexp.MustCompile(`(?i)help you|assist|anything I can do|帮到你|帮你|帮忙|手伝|お手伝い`)
	longAgo := regexp.MustCompile(`(?i)long time no see|been a while|好久|久しぶり`)
	for _, lang := range languages() {
		base := bot.Hints{Language: lang, User: names[lang][1], Persona: names[lang][0], Relationship: "friend", Silence: 3 * 24 * time.Hour, Now: day}
		short := base
		short.Silence = checkinSilence - time.Minute
		if a := ask(short); a.Speak || a.Message != "" {
			t.Errorf("%s: spoke after less than a day: %+v", lang, a)
		}
		crisis := base
		crisis.Crisis = true
		if a := ask(crisis); a.Speak {
			t.Errorf("%s: spoke during a crisis: %+v", lang, a)
		}
		for _, state := range []string{"stranger", "acquaintance", "friend", "close"} {
			var prev string
			for d := range 7 {
				h := base
				h.Relationship, h.Now = state, day.AddDate(0, 0, d)
				a := ask(h)
				if !a.Speak || a.Message == "" {
					t.Fatalf("%s %s: no check-in after 3 days: %+v", lang, state, a)
				}
				if a.Message == prev {
					t.Errorf("%s %s: the same check-in two days running: %q", lang, state, a.Message)
				}
				if helpDesk.MatchString(a.Message) || heart.ContainsForbidden(a.Message) {
					t.Errorf("%s %s: %q sounds like a help desk or pressures", lang, state, a.Message)
				}
				// Three days are no absence: "long time no see" waits for
				// a real one (heart.ReturnAbsence).
				if longAgo.MatchString(a.Message) {
					t.Errorf("%s %s: %q after three days of silence", lang, state, a.Message)
				}
				prev = a.Message
			}
		}
		// Something real: a pet from memory, a matter from the recent talk.
		pet := base
		pet.Memories = []string{map[string]string{langEN: "Pets: Miso (cat)", langZH: "宠物：Miso（猫）", langJA: "ペット：Miso（猫）"}[lang]}
		for d := range 3 {
			pet.Now = day.AddDate(0, 0, d)
			if a := ask(pet); !strings.Contains(a.Message, "Miso") {
				t.Errorf("%s: check-in %q forgets the pet it knows", lang, a.Message)
			}
		}
		deep := base
		deep.Relationship = "acquaintance"
		deep.Recent = []bot.ChatMessage{{Role: "user", Content: map[string]string{langEN: "my girlfriend and I broke up", langZH: "我和女朋友分手了", langJA: "彼女と別れた"}[lang]}}
		thing := o.loaded().sits[slicesIndex(o.loaded().sits, "breakup")].Thing[lang]
		if a := ask(deep); !strings.Contains(a.Message, thing) {
			t.Errorf("%s: check-in %q does not ask after %q (seed 003 §7.1)", lang, a.Message, thing)
		}
		// Asked after once: after a check-in they left unanswered, the
		// matter is not brought up again (the probe heard about a breakup
		// three days running).
		again := deep
		again.CheckedIn = true
		if a := ask(again); strings.Contains(a.Message, thing) {
			t.Errorf("%s: check-in %q asks after %q again", lang, a.Message, thing)
		}
		stranger := deep
		stranger.Relationship = "stranger"
		if a := ask(stranger); strings.Contains(a.Message, thing) {
			t.Errorf("%s: a stranger was asked about a private matter: %q", lang, a.Message)
		}
	}
	// Seed 003 §7.1's friend greeting is one of ours, after an absence.
	found := false
	for d := range 10 {
		if ask(bot.Hints{Language: "zh", Relationship: "friend", Silence: heart.ReturnAbsence, Now: day.AddDate(0, 0, d)}).Message == "嘿，好久不见！最近过得怎么样？" {
			found = true
		}
	}
	if !found {
		t.Error("seed 003 §7.1 friend greeting never chosen")
	}
}

func slicesIndex(sits []situation, name string) int {
	for i, s := range sits {
		if s.Name == name {
			return i
		}
	}
	return -1
}

// TestOfflineData: the data files are whole. Every phrase key has every
// language, every placeholder is one the brain fills, and every situation
// that leads a reply has its wording.
func TestOfflineData(t *testing.T) {
	k, err := loadKnowledge()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, p := range []string{"user", "persona", "topic", "pet", "person", "pet_name", "person_name", "duration", "item", "the_item",
		"name", "kind", "who", "age", "place", "date", "job", "quote", "when", "thing", "n", "your_thing", "someone", "due", "weekday", "month", "m", "d", "favorite", "facts", "food", "news", "was", "limit", "question", "choice", "emoji", "good_news", "ahead_thing"} {
		known[p] = true
	}
	for _, s := range k.sits {
		for _, re := range s.res {
			for _, name := range re.SubexpNames() {
				known[name] = name != "" // a situation's pattern groups fill theirs (captureGroups)
			}
		}
	}
	for _, f := range k.facts {
		for _, name := range f.values[langEN].SubexpNames() {
			known[name] = known[name] || name != "" // a fact's fields fill its remember and reflect phrases
		}
		if len(f.Whose) > 0 {
			known["whose"] = true // spoken fills {whose} of a kind that says whose it is
		}
	}
	ph := regexp.MustCompile(`\{([a-z_]+)\}`)
	for key, byLang := range k.book {
		for lang, vs := range byLang {
			for _, v := range vs {
				for _, m := range ph.FindAllStringSubmatch(v, -1) {
					if !known[m[1]] {
						t.Errorf("%s/%s: unknown placeholder {%s} in %q", key, lang, m[1], v)
					}
				}
			}
		}
	}
	for _, s := range k.sits {
		if s.Kind == kindContent && s.Recall == "" {
			if _, ok := k.book["sit."+s.Name]; !ok {
				t.Errorf("situation %s has no phrases sit.%s", s.Name, s.Name)
			}
		}
		if s.Kind == kindSocial && s.Name != "greeting" {
			if _, ok := k.book[s.Name]; !ok {
				t.Errorf("situation %s has no phrases", s.Name)
			}
		}
	}
	for _, f := range k.facts {
		if _, ok := k.book["remember.known."+f.Kind]; !ok && f.Kind != "person" {
			t.Logf("fact %s has no remember.known phrases", f.Kind)
		}
	}
}

// FuzzOfflineReply: whatever a user writes, and whatever a memory holds,
// the offline brain answers with a filled reply and a valid trailer.
func FuzzOfflineReply(f *testing.F) {
	for _, s := range []string{"my cat Miso is sick", "我家的猫叫咪咪", "うちの猫はミソ", "do you remember my cat's name?", "Pets: ; ()", "\xff{user}", ""} {
		f.Add(s, "Pets: Miso (cat)")
	}
	o := NewOffline()
	f.Fuzz(func(t *testing.T, text, memory string) {
		for _, lang := range languages() {
			resp, err := o.Complete(context.Background(), bot.Request{Kind: bot.KindReply, Hints: bot.Hints{
				Language: lang, Text: text, Memories: []string{memory}, User: "U",
				Recent: []bot.ChatMessage{{Role: "user", Content: memory}, {Role: "assistant", Content: text}},
			}})
			if err != nil || resp.Text == "" {
				t.Fatalf("%s %q: %q, %v", lang, text, resp.Text, err)
			}
			if !json.Valid([]byte(resp.Trailer)) {
				t.Fatalf("%s %q: trailer %q", lang, text, resp.Trailer)
			}
		}
	})
}
