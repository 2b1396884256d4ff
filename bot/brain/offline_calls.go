package brain

import (
	"math"
	"strings"
	"time"

	"hearth/bot"
)

// checkinSilence is how long both sides must have been silent before the
// offline life loop speaks: one full day, so a check-in never feels like
// pressure (our choice; the lifeloop gate's persona min_silence applies
// before this).
const checkinSilence = 24 * time.Hour

// perception answers a perception call from the hints: the turn's intent and
// sentiment when known, else a neutral small-talk reading. GIFT_SEND is never
// accepted from perception (DESIGN §3 step 3).
func (o *Offline) perception(h bot.Hints) (string, error) {
	intent := strings.ToUpper(strings.TrimSpace(h.Intent))
	switch {
	case intent == "GIFT_SEND":
		intent = "FLIRT"
	case !isIntent(intent):
		intent = "SMALL_TALK"
	}
	return marshalObject(map[string]any{
		"intent_category": intent,
		"sentiment":       math.Max(-1, math.Min(1, h.Sentiment)),
		"disclosure":      "none",
		"crisis":          h.Crisis,
	})
}

// isIntent reports whether s is one of seed 001's 14 intent categories.
func isIntent(s string) bool {
	switch s {
	case "GREETING", "SMALL_TALK", "CLOSING", "COMPLIMENT", "FLIRT", "LOVE_CONFESSION", "COMFORT",
		"CRITICISM", "INSULT", "IGNORE", "APOLOGY", "GIFT_SEND", "REQUEST_NSFW", "INVITATION":
		return true
	}
	return false
}

// Mood thresholds of the offline reflection (our choice, a third of seed
// 001's [-100, 100] range either way).
const (
	moodHurt = -30
	moodWarm = 30
)

// reflect writes a short first-person inner monologue (seed 004: feelings
// and understanding, not a summary) from relationship, recent themes and
// mood.
func (o *Offline) reflect(h bot.Hints) string {
	if h.User == "" {
		h.User = map[string]string{langEN: "this person", langZH: "对方", langJA: "あの人"}[h.Language]
	}
	seed := variety(h.InnerState, h.Turn)
	p := func(key string) string { return o.phrase(key, h, seed, 1) }
	state := strings.ToLower(h.Relationship)
	switch state {
	case "stranger", "acquaintance", "friend", "close":
	default:
		state = "acquaintance"
	}
	var userText strings.Builder
	for _, m := range h.Recent {
		if m.Role == "user" {
			userText.WriteString(m.Content)
			userText.WriteString("\n")
		}
	}
	parts := []string{p("reflect." + state)}
	if ts := findTopics(o.topics, userText.String()); len(ts) > 0 {
		parts = append(parts, o.withTopic(p("reflect.theme"), ts[0], h.Language))
	} else {
		parts = append(parts, p("reflect.everyday"))
	}
	switch emotionLabel(h) {
	case "sadness", "fear":
		parts = append(parts, p("reflect.low"))
	}
	switch {
	case h.Mood <= moodHurt:
		parts = append(parts, p("reflect.hurt"))
	case h.Mood >= moodWarm:
		parts = append(parts, p("reflect.warm"))
	default:
		parts = append(parts, p("reflect.calm"))
	}
	return o.sanitize(joinSentences(parts, h.Language), h.Language)
}

// lifeloop decides whether to check in: only after checkinSilence, never in
// a crisis, with a seed 003 §7.1 greeting for the relationship state (warm
// for friend and close, polite otherwise). Silence is a valid answer.
func (o *Offline) lifeloop(h bot.Hints) (bool, string) {
	if h.Crisis || h.Silence < checkinSilence {
		return false, ""
	}
	key := "checkin.polite"
	switch strings.ToLower(h.Relationship) {
	case "friend", "close":
		key = "checkin.warm"
	}
	msg := o.phrase(key, h, variety(h.Relationship, int(h.Silence/time.Hour)+h.Turn), 1)
	if h.Greeting != "" {
		msg = h.Greeting // the caller's seed 003 §7.1 greeting, verbatim
	}
	msg = o.sanitize(msg, h.Language)
	if msg == "" {
		return false, ""
	}
	return true, msg
}
