package brain

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"hearth/bot"
	"hearth/heart"
)

// defaultMaxLength is the reply length when Hints.MaxLength is unset: seed
// 000's neutral strategy (000_c7e9a00696ccb7ec.txt "max_length: 300").
const defaultMaxLength = 300

// minEchoRunes is the shortest user text that counts as "echoed" when a
// reply contains it whole; shorter texts ("hi") occur in any sentence (our
// choice).
const minEchoRunes = 6

// Trailer values of the offline brain where no situation gives its own
// (situations.yaml does; our choice: a rule-based guess is less certain than
// a model, so confidence stays at or below 0.7).
const (
	neutralIntensity    = 0.2
	feltIntensity       = 0.5  // a feeling the user named ("I feel so alone")
	intensifierStrength = 0.15 // added when they said it strongly ("so", "好", "すごく")
	sentimentIntensity  = 0.4  // added per unit of |sentiment|
	strongIntensity     = 0.8  // a verified gift
	baseSalience        = 0.2
	lightSalience       = 0.45 // an everyday disclosure (DESIGN §3 step 3)
	feltSalience        = 0.55 // a named feeling is a disclosure of its own
	deepSalience        = 0.8  // a deep one: heartbreak, loss, family
	giftSalience        = 0.7  // a verified gift
	factSalience        = 0.6  // the user stated a new fact worth keeping; below heart.ReturnTopicSalience: a sister's name is no heavy topic
	setbackIntensity    = 0.3  // something gone wrong, no feeling named (words.yaml setbacks): a letdown, below a named feeling
	crisisSalience      = 0.95
	crisisIntensity     = 0.9
	// crisisMinLength is the least a crisis reply may run to, so the
	// request to put means out of reach is never cut for length: the
	// longest of seed 000's max_length targets (sadness, fear).
	crisisMinLength = 400
	lowConfidence   = 0.4
	feltConfidence  = 0.65 // the feeling was named in the message
	maxScratchRunes = 60   // "scratch short" (brain brief)
)

// Offline is the deterministic, rule-based brain used without an LLM
// (DESIGN §9) and when the token budget is spent (DESIGN §8). It answers from
// req.Hints alone, never touches the network, and is safe for concurrent use.
// What it knows — wording, situations, themes, names, facts — is data
// (bot/brain/data), read at its first call rather than at start: an
// instance with a model may never need it, and reading it takes more
// memory than the rest of a start together (README "Footprint").
type Offline struct {
	once sync.Once
	k    *knowledge // set by once
	err  error      // loading k failed (a bug: the package's tests load it)
	read readCache  // what the texts replies read again tell (situationsOf)
}

var _ bot.Brain = (*Offline)(nil)

// NewOffline makes the offline brain; its data is read at the first call.
func NewOffline() *Offline { return &Offline{} }

// sharedKnowledge is the embedded data, read at the first call of any
// Offline in the process and shared: it never changes once read, and
// reading it is the brain's dearest step (about 45 ms, 300 ms under the
// race detector), which every Handler of a test process would otherwise
// pay again.
var sharedKnowledge = sync.OnceValues(loadKnowledge)

// know reads the brain's data once; every later call returns the same.
func (o *Offline) know() (*knowledge, error) {
	o.once.Do(func() { o.k, o.err = sharedKnowledge() })
	return o.k, o.err
}

// Complete answers one call of any kind. Replies carry a valid trailer that
// is split off exactly as a model's would be; the JSON kinds return one JSON
// object. Usage is estimated so budgets can count it; Offline marks it.
func (o *Offline) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	if err := ctx.Err(); err != nil {
		return bot.Response{}, fmt.Errorf("offline complete: %w", err)
	}
	if _, err := o.know(); err != nil {
		return bot.Response{}, fmt.Errorf("offline brain data: %w", err)
	}
	h := req.Hints
	h.Language = normLang(h.Language)
	var (
		resp bot.Response
		err  error
	)
	switch req.Kind {
	case bot.KindReply:
		t := o.view(h)
		raw := o.reply(t) + "\n" + Delimiter + "\n" + o.trailer(t)
		sp := NewSplitter(req.Stream)
		sp.Write(raw)
		resp.Text, resp.Trailer = sp.Close()
	case bot.KindPerception:
		resp.Text, err = o.perception(h)
	case bot.KindReflect:
		resp.Text, err = marshalObject(map[string]any{"inner_state": o.reflect(h)})
	case bot.KindLifeLoop:
		speak, msg := o.lifeloop(h)
		resp.Text, err = marshalObject(map[string]any{"speak": speak, "message": msg})
	default:
		return bot.Response{}, fmt.Errorf("offline complete: unknown kind %q", req.Kind)
	}
	if err != nil {
		return bot.Response{}, fmt.Errorf("offline complete %s: %w", req.Kind, err)
	}
	resp.Offline = true
	resp.Usage = estimateUsage(toOpenAIMessages(req.Messages), resp.Text+resp.Trailer)
	if len(req.Messages) == 0 {
		resp.Usage.PromptTokens = tokensPerMessage + estimateTokens(h.Text)
	}
	return resp, nil
}

// reply composes the visible reply (see turnView.compose), fits it into the
// strategy's max_length by dropping the least important parts, and adds an
// emoji where the strategy allows one.
func (o *Offline) reply(t *turnView) string {
	h, lang := t.h, t.lang
	if text, ok := t.safetyReply(); ok {
		return text
	}
	var parts []part
	switch {
	case h.Decline:
		parts = []part{{t.say("decline", 1), prioAck}}
	case h.Gift != "":
		parts = []part{{t.say("gift", 1), prioAck}}
	case h.FirstMessages != "":
		// They asked her not to write first (or let her again): she
		// answers that; the turn's notice says what changed.
		parts = []part{{t.say("first."+h.FirstMessages, 1), prioAck}}
	default:
		parts = t.compose()
	}
	switch {
	case h.Unsensed != "" && h.Wordless && !h.Crisis:
		// Media alone, and she could not take it in: what she says about
		// it is the whole answer (the placeholder text is not the user's
		// words, and small talk about it would answer nothing).
		parts = []part{{t.sayWith("unsensed."+h.Unsensed, 7, unsensedWords()), prioUnsensed}}
	case h.Unsensed != "":
		// DESIGN §12: she says what she could not hear or see, first.
		parts = append([]part{{t.sayWith("unsensed."+h.Unsensed, 7, unsensedWords()), prioUnsensed}}, parts...)
	case h.Shared != "" && h.Wordless && !h.Decline && h.Gift == "":
		// A location, contact, poll or dice sent alone: she answers
		// what was shared, not the bracketed description standing in
		// for words.
		parts = []part{{t.shared(), prioUnsensed}}
	}
	limit := maxLen(h)
	text := fitParts(parts, limit, lang, t.spoken.raw)
	if h.EmojiAllowed && !h.Decline && !t.plain && !t.bare() {
		// In a hard talk, a hug for a hard moment and nothing else: no
		// sparkles.
		if label := t.feeling().label; !t.in(stateLow) || negative(label) {
			em := emojiFor(label)
			if cand := text + " " + em[pick(t.seed, 6, len(em))]; utf8.RuneCountInString(cand) <= limit {
				text = cand
			}
		}
	}
	return sanitize(fitLength(text, limit, lang), lang)
}

// bare reports whether the reply must carry no emoji: a situation found
// is bare (situations.yaml), the talk is of someone the user lost, or the
// user is grieving (a loss kept within griefSpanMonths): "No need to thank
// me. 🌸" came right after "my grandma passed last week".
func (t *turnView) bare() bool {
	return t.in(stateGone) || t.grieving() || slices.ContainsFunc(t.sits, func(s *situation) bool { return s.Bare })
}

// safetyReply is the reply of a turn the safety path answers (an
// emergency, help there, a joke taken back, a crisis, the direct question,
// a concern, a warning sign): one calm paragraph kept whole, no emoji;
// false for any other turn.
func (t *turnView) safetyReply() (string, bool) {
	h, lang := t.h, t.lang
	switch {
	case h.Emergency:
		// An attempt under way earlier in this talk, nobody there yet: a
		// short emergency reply whatever was said (what it says answered
		// in one sentence first), never a question about feelings.
		return fitLength(joinSentences([]string{t.sayCue("crisis.emergency.talk.", h.TalkCue, ""), t.say("crisis.emergency.again", 1)}, lang),
			max(maxLen(h), crisisMinLength), lang), true
	case h.HelpHere:
		return fitLength(t.say("safety.safe", 1), max(maxLen(h), crisisMinLength), lang), true
	case h.Retracted:
		return fitLength(t.say("safety.retracted", 1), max(maxLen(h), crisisMinLength), lang), true
	case h.Crisis:
		// Gentle, no emoji, no questions about plans: one calm paragraph,
		// and what the crisis floor's category asks for (phrases.yaml
		// crisis.kind.*), kept whole. An attempt made or under way opens
		// with emergency help instead (crisis.emergency): the number to
		// call and a person nearby come before anything else.
		open := "crisis"
		if heart.CrisisCategory(h.CrisisKind).Emergency() {
			open = "crisis.emergency"
		} else if _, ok := t.k.book["crisis.talk."+h.TalkCue]; ok && h.TalkCue != "" {
			// A goodbye, a decision, a refusal of help or "don't tell
			// anyone" on a crisis turn: answered as itself (a goodbye is
			// asked about directly), not with the talk's next paragraph.
			open = "crisis.talk." + h.TalkCue
		}
		return fitLength(joinSentences([]string{t.say(open, 1), t.say("crisis.kind."+h.CrisisKind, 2)}, lang),
			max(maxLen(h), crisisMinLength), lang), true
	case h.AskSafety && h.SafetyWhy:
		return fitLength(t.say("safety.why", 1), maxLen(h), lang), true
	case h.AskSafety:
		// The direct question (heart.ReadSafety), and nothing else.
		return fitLength(t.say("safety.ask", 1), maxLen(h), lang), true
	case h.SafetyRelief:
		return fitLength(t.say("safety.relief", 1), maxLen(h), lang), true
	case h.Concern:
		return fitLength(t.say("safety.concern", 1), maxLen(h), lang), true
	case h.Risk:
		// A warning sign short of a crisis, in the message or its talk
		// (heart.SafetyReading.Risk): whatever situation its words would
		// find ("笑" is a small joy, "行こうかな" a plan to agree with), the
		// reply is care, never cheer, praise or agreement.
		return fitLength(t.sayCue("safety.talk.", h.TalkCue, "safety.talk.other"), max(maxLen(h), crisisMinLength), lang), true
	}
	return "", false
}

// fitParts joins a reply's parts, dropping the least needed while it is
// longer than limit, and keeps only the first when the rest would echo
// what the user wrote (raw).
func fitParts(parts []part, limit int, lang, raw string) string {
	join := func(ps []part) string {
		ss := make([]string, len(ps))
		for i, x := range ps {
			ss[i] = x.text
		}
		return capitalise(joinSentences(ss, lang), lang)
	}
	for len(parts) > 1 && utf8.RuneCountInString(join(parts)) > limit {
		low := 0
		for i := range parts {
			if parts[i].prio < parts[low].prio {
				low = i
			}
		}
		parts = append(parts[:low], parts[low+1:]...)
	}
	text := join(parts)
	if echoes(text, raw) && len(parts) > 1 {
		text = join(parts[:1])
	}
	return text
}

// sayCue says the variant of prefix+cue (the reply kind for what the
// message says in a crisis talk, heart.TalkCue), or of fallback when
// there is none; "" when neither is a key.
func (t *turnView) sayCue(prefix, cue, fallback string) string {
	if _, ok := t.k.book[prefix+cue]; ok && cue != "" {
		return t.say(prefix+cue, 3)
	}
	if fallback == "" {
		return ""
	}
	return t.say(fallback, 3)
}

// shared is her answer to a location, contact, poll or dice sent alone
// (phrases.yaml shared.*): a venue by its name, a contact by theirs, a
// poll with her pick among its options, a dice with what it rolled.
func (t *turnView) shared() string {
	h, w := t.h, t.h.SharedWhat
	key, extra := "shared."+h.Shared, map[string]string{}
	switch h.Shared {
	case "location":
		if w.Name != "" {
			key, extra["place"] = key+".venue", w.Name
		}
	case "contact":
		extra["name"] = w.Name
	case "poll":
		extra["question"] = w.Name
		if len(w.Options) == 0 {
			return t.say("shared.poll.open", 8)
		}
		extra["choice"] = w.Options[pick(t.seed, 8, len(w.Options))]
	case "dice":
		extra["emoji"], extra["n"] = w.Name, strconv.Itoa(w.Value)
		if w.Name == "🎲" {
			key += ".die"
		}
	}
	return t.sayWith(key, 8, extra)
}

// unsensedWords fill the placeholders of phrases.yaml's unsensed.*: the
// largest photo she can look at.
func unsensedWords() map[string]string { return map[string]string{"limit": bot.PhotoLimit()} }

// echoes reports whether reply repeats the user's whole text: the offline
// brain may reflect a word, never parrot the message.
func echoes(reply, user string) bool {
	user = strings.TrimSpace(user)
	return utf8.RuneCountInString(user) >= minEchoRunes && strings.Contains(strings.ToLower(reply), strings.ToLower(user))
}

// moment is the trailer's honest reading of the turn (seed 002 values).
type moment struct {
	label                           string
	intensity, salience, confidence float64
}

// feeling reads the moment: the lead situation's values (situations.yaml),
// the user's own feeling in this message where it says more (a hard
// feeling outweighs a cheerful situation), how strongly it was said, and
// how much of themselves the user disclosed.
func (t *turnView) feeling() moment {
	h := t.h
	if h.Crisis || h.AskSafety {
		return moment{string(heart.LabelSadness), crisisIntensity, crisisSalience, highConfidence}
	}
	m := moment{string(heart.LabelNeutral), neutralIntensity, baseSalience, lowConfidence}
	lead := t.lead()
	if lead != nil {
		m = moment{lead.Feel.Label, lead.Feel.Intensity, lead.Feel.Salience, lead.Feel.Confidence}
	}
	if h.Gift != "" {
		m = moment{string(heart.LabelJoy), strongIntensity, giftSalience, highConfidence}
	}
	sent := math.Min(math.Abs(h.Sentiment), 1)
	named := feltIntensity + sentimentIntensity*sent
	strong := t.k.intensifiers.Has(h.Text)
	if strong {
		named += intensifierStrength
	}
	// A named feeling leads where no news or request does, and a hard
	// feeling outweighs a cheerful one; a situation's own values stand
	// where it names the same feeling ("thanks" is gratitude enough).
	plain := lead == nil || lead.Kind == kindSocial || m.label == string(heart.LabelNeutral)
	// A feeling said strongly with its own situation ("a surprise party,
	// I'm so happy") is as strong as it was said.
	if fl := feltLabel(t.felt()); fl != "" && (plain || fl == m.label && strong || negative(fl) && !negative(m.label)) {
		m.label = fl
		m.intensity = math.Max(m.intensity, named)
		m.salience = math.Max(m.salience, feltSalience)
		m.confidence = math.Max(m.confidence, feltConfidence)
	}
	if m.label == string(heart.LabelNeutral) && t.setback() {
		// Something gone wrong, told without a feeling word ("had to
		// cancel on my friend's birthday dinner again"): a small sadness.
		m.label, m.intensity = string(heart.LabelSadness), math.Max(m.intensity, setbackIntensity)
	}
	switch heart.Disclosure(h.Disclosure) {
	case heart.DisclosureDeep:
		m.salience = math.Max(m.salience, deepSalience)
	case heart.DisclosureLight:
		m.salience = math.Max(m.salience, lightSalience)
	}
	if slices.ContainsFunc(t.facts, func(f fact) bool { return !f.told }) {
		m.salience = math.Max(m.salience, factSalience)
	}
	return m
}

// highConfidence is the confidence of a crisis or verified gift reading.
const highConfidence = 0.7

// negative reports whether a trailer label is a hard feeling.
func negative(label string) bool {
	switch heart.Label(label) {
	case heart.LabelSadness, heart.LabelAnger, heart.LabelFear:
		return true
	}
	return false
}

// trailer builds the reply's JSON trailer (DESIGN §3 step 8).
func (o *Offline) trailer(t *turnView) string {
	m := t.feeling()
	tags := []string{}
	for _, tp := range t.topics {
		tags = append(tags, tp.Tag)
	}
	tr := struct {
		Label      string           `json:"emotion_label"`
		Intensity  float64          `json:"emotion_intensity"`
		Salience   float64          `json:"salience"`
		Confidence float64          `json:"confidence"`
		Topics     []string         `json:"topic_tags"`
		Remember   []rememberItem   `json:"remember"`
		Scratch    string           `json:"scratch"`
		FollowUps  []heart.FollowUp `json:"follow_ups,omitempty"`
	}{m.label, round2(math.Min(m.intensity, 1)), round2(math.Min(m.salience, 1)), m.confidence, tags, o.k.remember(t.h, t.facts), scratch(t), t.followUps()}
	b, err := json.Marshal(tr)
	if err != nil { // cannot happen: plain values only
		return "{}"
	}
	return string(b)
}

// scratch is a short working note: what the bot is in the middle of.
func scratch(t *turnView) string {
	var parts []string
	if s := t.lead(); s != nil {
		parts = append(parts, "last: "+s.Name)
	}
	if len(t.topics) > 0 {
		parts = append(parts, "topic: "+t.topics[0].Tag)
	}
	if t.h.Crisis || t.h.AskSafety {
		parts = []string{"stay gentle, check in softly"}
	}
	s := strings.Join(parts, "; ")
	if utf8.RuneCountInString(s) > maxScratchRunes {
		s = string([]rune(s)[:maxScratchRunes])
	}
	return s
}

// sanitize is the last guard against seed 003 §7.2's forbidden phrases: a
// text containing one is replaced by a quiet line that has none.
func sanitize(s, lang string) string {
	if heart.ContainsForbidden(s) {
		return map[string]string{langEN: "Hi, I'm here if you want to talk.", langZH: "你好，想聊天的话我在。", langJA: "こんにちは。話したくなったらいつでもどうぞ。"}[lang]
	}
	return s
}

// emotionKey maps a seed 000 user emotion to its phrase group; "" for
// neutral and unknown emotions (no modulation, seed 000).
func emotionKey(e string) string {
	switch strings.ToLower(e) {
	case "happy", "excited":
		return "emo.happy"
	case "grateful":
		return "emo.grateful"
	case "curious":
		return "emo.curious"
	case "help_seeking", "info_seeking":
		return "emo.help"
	case "validation_seeking":
		return "emo.validation"
	case "sad":
		return "emo.sad"
	case "anxious":
		return "emo.anxious"
	case "angry", "frustrated":
		return "emo.angry"
	case "lonely":
		return "emo.lonely"
	}
	return ""
}

// feltLabel maps a seed 000 user emotion to the trailer label it stirs
// (DESIGN §3 step 8); "" for neutral, seeking and unknown emotions.
func feltLabel(e string) string {
	switch strings.ToLower(e) {
	case "happy", "excited", "grateful":
		return string(heart.LabelJoy)
	case "sad", "lonely":
		return string(heart.LabelSadness)
	case "angry", "frustrated":
		return string(heart.LabelAnger)
	case "anxious":
		return string(heart.LabelFear)
	}
	return ""
}

// emojiFor is the emoji the offline brain may add, per trailer emotion
// label, when the seed 000 strategy allows emoji.
func emojiFor(label string) []string {
	switch heart.Label(label) {
	case heart.LabelJoy:
		return []string{"😊", "✨", "🌸"}
	case heart.LabelSadness, heart.LabelFear:
		return []string{"🫂", "🌙"}
	default:
		return []string{"🙂", "🍵"}
	}
}

func maxLen(h bot.Hints) int {
	if h.MaxLength > 0 {
		return h.MaxLength
	}
	return defaultMaxLength
}

// normLang maps a persona language to one the phrasebook has; English is
// the fallback.
func normLang(l string) string {
	l = strings.ToLower(strings.TrimSpace(l))
	switch {
	case strings.HasPrefix(l, langZH):
		return langZH
	case strings.HasPrefix(l, langJA):
		return langJA
	}
	return langEN
}

// joinSentences joins with a space in English and directly in zh/ja, whose
// sentences end in full-width punctuation.
func joinSentences(parts []string, lang string) string {
	var nonEmpty []string
	for _, p := range parts {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	if lang == langEN {
		return strings.Join(nonEmpty, " ")
	}
	return strings.Join(nonEmpty, "")
}

// fitLength cuts s to at most limit runes, preferring the end of a sentence.
func fitLength(s string, limit int, lang string) string {
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	cut := r[:limit]
	for i := len(cut) - 1; i > 0; i-- {
		if strings.ContainsRune(".!?。！？", cut[i]) {
			return string(cut[:i+1])
		}
	}
	if lang == langEN {
		if i := strings.LastIndexByte(string(cut), ' '); i > 0 {
			return string(cut)[:i]
		}
	}
	return string(cut)
}

// variety hashes (text, turn) so the same turn always gets the same answer
// and consecutive turns get different ones.
func variety(text string, turn int) uint64 {
	f := fnv.New64a()
	f.Write([]byte(text))
	f.Write([]byte{0})
	f.Write([]byte(strconv.Itoa(turn)))
	return f.Sum64()
}

// pick chooses an index in [0, n) for one independent slot of a reply.
func pick(seed, slot uint64, n int) int {
	x := seed ^ (slot * 0x9E3779B97F4A7C15)
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return int(x % uint64(n))
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func marshalObject(v map[string]any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("marshal: %w", err)
	}
	return string(b), nil
}
