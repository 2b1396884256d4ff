package brain

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
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

// Trailer values of the offline brain (our choice: a rule-based guess is
// less certain than a model, so confidence stays at or below 0.6).
const (
	baseIntensity      = 0.3 // any non-neutral emotion
	sentimentIntensity = 0.5 // added per unit of |sentiment|
	neutralIntensity   = 0.2
	strongIntensity    = 0.8 // insults, gifts, confessions
	baseSalience       = 0.3
	sentimentSalience  = 0.4
	factSalience       = 0.7 // the user stated a fact worth keeping
	crisisSalience     = 0.9
	lowConfidence      = 0.4
	highConfidence     = 0.6 // intent known and emotion non-neutral
	maxScratchRunes    = 60  // "scratch short" (brain brief)
)

// Offline is the deterministic, rule-based brain used without an LLM
// (DESIGN §9) and when the token budget is spent (DESIGN §8). It answers from
// req.Hints alone, never touches the network, and is safe for concurrent use.
type Offline struct {
	book      phrasebook
	topics    []topic
	facts     []factPattern
	forbidden []string // forbiddenPhrases, lower-cased
}

var _ bot.Brain = (*Offline)(nil)

// NewOffline builds the offline brain.
func NewOffline() *Offline {
	o := &Offline{book: newPhrasebook(), topics: newTopics(), facts: newFactPatterns()}
	for _, f := range forbiddenPhrases() {
		o.forbidden = append(o.forbidden, strings.ToLower(f))
	}
	return o
}

// Complete answers one call of any kind. Replies carry a valid trailer that
// is split off exactly as a model's would be; the JSON kinds return one JSON
// object. Usage is estimated so budgets can count it; Offline marks it.
func (o *Offline) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	if err := ctx.Err(); err != nil {
		return bot.Response{}, fmt.Errorf("offline complete: %w", err)
	}
	h := req.Hints
	h.Language = normLang(h.Language)
	var (
		resp bot.Response
		err  error
	)
	switch req.Kind {
	case bot.KindReply:
		raw := o.reply(h) + "\n" + Delimiter + "\n" + o.trailer(h)
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

// reply composes the visible reply from the turn's hints.
func (o *Offline) reply(h bot.Hints) string {
	seed := variety(h.Text, h.Turn)
	lang := h.Language
	p := func(key string, slot uint64) string { return o.phrase(key, h, seed, slot) }

	type part struct {
		text string
		prio int // higher survives MaxLength longer
	}
	var parts []part
	add := func(text string, prio int) {
		if text != "" {
			parts = append(parts, part{text, prio})
		}
	}
	topics := findTopics(o.topics, h.Text)
	if h.Unsensed != "" {
		add(p("unsensed."+h.Unsensed, 7), 4) // she says what she could not hear or see, first
	}
	switch {
	case h.Crisis:
		// Gentle, no emoji, no questions about plans: one calm paragraph.
		return fitLength(p("crisis", 1), maxLen(h), lang)
	case h.Decline:
		add(p("decline", 1), 3)
	case h.Gift != "":
		add(p("gift", 1), 3)
	default:
		intent := strings.ToUpper(h.Intent)
		if _, ok := o.book[intent]; !ok {
			intent = "SMALL_TALK"
		}
		emo := emotionKey(h.Emotion)
		if felt := emotionKey(h.Felt); felt != "" && heart.Emotion(h.Felt).Category() == heart.CategoryNegative {
			emo = felt
		}
		if emo != "" && (intent == "SMALL_TALK" || intent == "IGNORE") {
			// Small talk has no wording of its own worth keeping: the
			// user's feeling leads (seed 000 strategy).
			add(p(emo, 3), 3)
			emo = ""
		} else {
			add(p(intentKey(intent, h.Relationship), 1), 3)
		}
		cool := strings.EqualFold(h.Lingering, "anger") && h.RefusalAllowed
		if cool {
			// Seed 002 refusal knobs: still upset, so no cheerful mirroring.
			add(p("cool", 2), 2)
			if emotionLabel(bot.Hints{Emotion: h.Emotion}) == "joy" {
				emo = ""
			}
		}
		if emo != "" {
			add(p(emo, 3), 2)
		}
		if len(topics) > 0 && !h.ProactiveQuestion {
			add(o.withTopic(p("topic", 4), topics[0], lang), 1)
		}
	}
	if h.ProactiveQuestion && !h.Decline {
		if len(topics) > 0 {
			add(o.withTopic(p("question.topic", 5), topics[0], lang), 2)
		} else {
			add(p("question", 5), 2)
		}
	}
	limit := maxLen(h)
	join := func(ps []part) string {
		ss := make([]string, len(ps))
		for i, x := range ps {
			ss[i] = x.text
		}
		return joinSentences(ss, lang)
	}
	// Drop the least important parts until the reply fits.
	for len(parts) > 1 && utf8.RuneCountInString(join(parts)) > limit {
		low := 1
		for i := 1; i < len(parts); i++ {
			if parts[i].prio < parts[low].prio {
				low = i
			}
		}
		parts = append(parts[:low], parts[low+1:]...)
	}
	text := join(parts)
	if o.echoes(text, h.Text) {
		text = join(parts[:1])
	}
	if h.EmojiAllowed && !h.Decline {
		em := emojiFor(emotionLabel(h))
		cand := text + " " + em[pick(seed, 6, len(em))]
		if utf8.RuneCountInString(cand) <= limit {
			text = cand
		}
	}
	return o.sanitize(fitLength(text, limit, lang), lang)
}

// phrase picks a variant of key in the hints' language and fills it in.
func (o *Offline) phrase(key string, h bot.Hints, seed, slot uint64) string {
	vs := o.book[key][h.Language]
	var usable []string
	for _, v := range vs {
		if strings.Contains(v, "{user}") && h.User == "" || strings.Contains(v, "{persona}") && h.Persona == "" {
			continue
		}
		if strings.Contains(v, "{item}") && h.Gift == "" {
			continue
		}
		usable = append(usable, v)
	}
	if len(usable) == 0 {
		return ""
	}
	v := usable[pick(seed, slot, len(usable))]
	return fill(v, h)
}

// fill replaces the placeholders; cheaper than a strings.Replacer per call.
func fill(v string, h bot.Hints) string {
	if !strings.Contains(v, "{") {
		return v
	}
	v = strings.ReplaceAll(v, "{user}", h.User)
	v = strings.ReplaceAll(v, "{persona}", h.Persona)
	return strings.ReplaceAll(v, "{item}", h.Gift)
}

func (o *Offline) withTopic(s string, t topic, lang string) string {
	name := t.name[lang]
	if lang == langEN && strings.HasPrefix(s, "{topic}") {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	return strings.ReplaceAll(s, "{topic}", name)
}

// intentKey picks the phrase group of an intent, reserved for romance
// while the relationship is still young (seed 003 states).
func intentKey(intent, relationship string) string {
	switch strings.ToLower(relationship) {
	case "stranger", "acquaintance":
		if intent == "FLIRT" || intent == "LOVE_CONFESSION" {
			return intent + ".reserved"
		}
	}
	return intent
}

// echoes reports whether reply repeats the user's whole text: the offline
// brain may reflect a keyword, never parrot the message.
func (o *Offline) echoes(reply, user string) bool {
	user = strings.TrimSpace(user)
	return utf8.RuneCountInString(user) >= minEchoRunes && strings.Contains(strings.ToLower(reply), strings.ToLower(user))
}

// trailer builds the reply's JSON trailer (DESIGN §3 step 8).
func (o *Offline) trailer(h bot.Hints) string {
	label := emotionLabel(h)
	sent := math.Min(math.Abs(h.Sentiment), 1)
	intensity := neutralIntensity
	if label != "neutral" {
		intensity = baseIntensity + sentimentIntensity*sent
	}
	switch strings.ToUpper(h.Intent) {
	case "INSULT", "LOVE_CONFESSION", "GIFT_SEND":
		intensity = strongIntensity
	}
	if h.Gift != "" {
		intensity = strongIntensity
	}
	facts := findFacts(o.facts, h.Text, h.Language)
	salience := baseSalience + sentimentSalience*sent
	if len(facts) > 0 {
		salience = math.Max(salience, factSalience)
	}
	if h.Crisis {
		salience = crisisSalience
	}
	confidence := lowConfidence
	if h.Intent != "" && label != "neutral" {
		confidence = highConfidence
	}
	tags := []string{}
	topics := findTopics(o.topics, h.Text)
	for _, t := range topics {
		tags = append(tags, t.tag)
	}
	t := struct {
		Label      string         `json:"emotion_label"`
		Intensity  float64        `json:"emotion_intensity"`
		Salience   float64        `json:"salience"`
		Confidence float64        `json:"confidence"`
		Topics     []string       `json:"topic_tags"`
		Remember   []rememberItem `json:"remember"`
		Scratch    string         `json:"scratch"`
	}{label, round2(math.Min(intensity, 1)), round2(math.Min(salience, 1)), confidence, tags, facts, scratch(h, topics)}
	b, err := json.Marshal(t)
	if err != nil { // cannot happen: plain values only
		return "{}"
	}
	return string(b)
}

// scratch is a short working note: what the bot is in the middle of.
func scratch(h bot.Hints, topics []topic) string {
	var parts []string
	if h.Intent != "" {
		parts = append(parts, "last: "+strings.ToLower(h.Intent))
	}
	if len(topics) > 0 {
		parts = append(parts, "topic: "+topics[0].tag)
	}
	if h.Crisis {
		parts = []string{"stay gentle, check in softly"}
	}
	s := strings.Join(parts, "; ")
	if utf8.RuneCountInString(s) > maxScratchRunes {
		s = string([]rune(s)[:maxScratchRunes])
	}
	return s
}

// sanitize is the last guard against seed 003 §7.2's forbidden phrases: a
// text containing one is replaced by the polite check-in, which has none.
func (o *Offline) sanitize(s, lang string) string {
	lower := strings.ToLower(s)
	for _, f := range o.forbidden {
		if strings.Contains(lower, f) {
			return map[string]string{langEN: "Hi, I'm here if you want to talk.", langZH: "你好，想聊天的话我在。", langJA: "こんにちは。話したくなったらいつでもどうぞ。"}[lang]
		}
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

// emotionLabel maps the turn to a trailer emotion label (DESIGN §3 step 8):
// the user's seed 000 emotion first, the intent when that is neutral.
func emotionLabel(h bot.Hints) string {
	switch strings.ToLower(h.Emotion) {
	case "happy", "excited", "grateful", "curious":
		return "joy"
	case "sad", "lonely":
		return "sadness"
	case "angry", "frustrated":
		return "anger"
	case "anxious":
		return "fear"
	}
	if h.Gift != "" {
		return "joy"
	}
	switch strings.ToUpper(h.Intent) {
	case "COMPLIMENT", "FLIRT", "LOVE_CONFESSION", "COMFORT", "APOLOGY", "GIFT_SEND", "GREETING":
		return "joy"
	case "INSULT":
		return "anger"
	case "CRITICISM", "IGNORE":
		return "sadness"
	}
	return "neutral"
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
