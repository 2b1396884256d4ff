package brain

import (
	"math"
	"slices"
	"strings"
	"time"

	"hearth/bot"
	"hearth/heart"
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
	t := o.view(bot.Hints{Language: h.Language, User: h.User, Persona: h.Persona, Turn: h.Turn, Text: h.InnerState})
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
	parts := []string{t.say("inner."+state, 1)}
	if ts := o.k.topicsIn(userText.String()); len(ts) > 0 {
		parts = append(parts, t.sayWith("inner.theme", 1, map[string]string{"topic": ts[0].Name[h.Language]}))
	} else {
		parts = append(parts, t.say("inner.everyday", 1))
	}
	if negative(feltLabel(h.Emotion)) {
		parts = append(parts, t.say("inner.low", 1))
	}
	switch {
	case h.Mood <= moodHurt:
		parts = append(parts, t.say("inner.hurt", 1))
	case h.Mood >= moodWarm:
		parts = append(parts, t.say("inner.warm", 1))
	default:
		parts = append(parts, t.say("inner.calm", 1))
	}
	return sanitize(joinSentences(parts, h.Language), h.Language)
}

// lifeloop decides whether to check in (seed 003 §7.1): about a follow-up
// whose day has passed, else only after checkinSilence, between
// bot.CheckInFromHour and bot.CheckInUntilHour; never in a crisis. A
// friend or close friend gets a light, friendly check-in, anyone else a
// polite one that leaves the lead to them. Where there is something real
// to refer to — a matter they shared (from the recent conversation), a
// dated thing due tomorrow, good news, a pet they told about (from
// memory), a theme they talked about, the city they live in — the
// check-in names it, never pressing; after a death, words of self-harm or
// a hard matter it is a quiet word (recentMatters). The variant rotates
// with the local day and never repeats the last check-ins.
func (o *Offline) lifeloop(h bot.Hints) (bool, string) {
	if h.Crisis || bot.AsleepHour(h.Now) {
		return false, ""
	}
	t := o.view(bot.Hints{Language: h.Language, User: h.User, Persona: h.Persona, Memories: h.Memories, Recalled: h.Recalled,
		Recent: h.Recent, Heavy: h.Heavy, Now: h.Now, Silence: h.Silence})
	if len(h.FollowUps) > 0 {
		// Issue 11 item 5: a dated thing whose day has passed is the most
		// real thing to ask after, and reason enough to speak without a
		// day of silence (the gate's min_silence still applies).
		if msg, ok := o.checkInWith(t, h, []string{"checkin.followup"}, map[string]string{"your_thing": o.k.yourThing(h.FollowUps[0].About, h.Language)}); ok {
			return true, msg
		}
	}
	if h.Silence < checkinSilence {
		return false, ""
	}
	vars := map[string]string{}
	// Seed 003 §7.1: after a long silence, the heavy thing they shared
	// before is what a check-in asks after; in its own words when no
	// situation names it.
	for _, s := range o.k.situationsIn(h.Heavy, "", false) {
		if s.Deep && vars["thing"] == "" {
			vars["thing"] = s.Thing[h.Language]
		}
	}
	if h.Heavy != "" && vars["thing"] == "" && h.Greeting != "" && !heart.ContainsForbidden(h.Greeting) {
		return true, h.Greeting
	}
	heavy := o.recentMatters(h, t, vars)
	for i := len(t.known) - 1; i >= 0; i-- {
		if f := t.known[i]; f.kind.Dict["kind"] == dictPets && vars["pet_name"] == "" && !t.gone[f.fields["name"]] {
			vars["pet_name"] = f.fields["name"]
		}
	}
	if len(h.Ahead) > 0 {
		// The day before a dated thing they told of, she wishes them well
		// (one day only, and the gate lets through one message at most).
		vars["ahead_thing"] = o.k.yourThing(h.Ahead[0].About, h.Language)
	}
	real, plain := checkInTiers(h.Relationship, heavy)
	for _, tier := range real {
		if pool := t.usable(tier, vars); len(pool) > 0 {
			return o.pickCheckIn(h, pool)
		}
	}
	return o.pickCheckIn(h, t.usable(plain, vars))
}

// recentMatters reads the user's recent messages, newest first, into vars
// (thing, when, good_news, topic) and reports whether a check-in must be a
// quiet word (heavy): among them is a death, words of self-harm, a
// request not to talk about something, or a deep matter that nothing said
// since lifted. Until then a check-in is no place for light themes (a
// probe heard "I hope things with your friends have been going all right"
// three days after "my friend and neighbour Frank died").
func (o *Offline) recentMatters(h bot.Hints, t *turnView, vars map[string]string) (heavy bool) {
	// hushed: they asked not to talk about it (then or since), so the
	// matter is not named.
	lifted, hushed := false, false
	for i := len(h.Recent) - 1; i >= 0; i-- {
		m := h.Recent[i]
		if m.Role != "user" {
			continue
		}
		sits := o.k.situationsIn(m.Content, "", false)
		// Words of self-harm (the crisis floor, which never depends on a
		// model) weigh like a death: a week after "I don't want to be
		// alive anymore", once Watch is over, she does not ask about work.
		dark := heart.CrisisFloor(m.Content) != heart.CrisisNone
		hard, loss := dark, dark
		for _, s := range sits {
			hushed = hushed || s.Hushes
		}
		for _, s := range sits {
			hard, loss = hard || s.Deep || s.Gone || s.Hushes, loss || s.Gone
			lifted = lifted || s.Lifts
			// Good news they shared, newer than anything hard, is what
			// a check-in is glad about, once ("I passed!" was met with
			// "Any news on your friends?").
			// Someone else's ("my grandson got into college") is not
			// theirs to be asked about as their own.
			if s.Lifts && s.Feel.Label == "joy" && s.Thing[h.Language] != "" && vars["good_news"] == "" && !heavy && !h.CheckedIn &&
				!asked(h.CheckIns, s.Thing[h.Language]) && !o.view(bot.Hints{Language: h.Language, Text: m.Content, Memories: h.Memories}).theirs() {
				vars["good_news"] = s.Thing[h.Language]
			}
			// A matter they shared is asked after once: not again after a
			// check-in they left unanswered, nor after one that asked it
			// (a widower who answered every few days was asked about his
			// loss five times in sixteen days).
			if s.Deep && vars["thing"] == "" && !h.CheckedIn && !hushed && !asked(h.CheckIns, s.Thing[h.Language]) {
				vars["thing"] = s.Thing[h.Language]
				if !m.At.IsZero() && !h.Now.IsZero() {
					// When they said it, by its age ("about two weeks
					// ago"), never "the other day" for any age.
					vars["when"] = heart.RecallWhen(m.At, h.Now, h.Language)
				}
			}
		}
		if hard {
			// The theme of a message telling of a loss is the loss
			// itself: "my friend died" gives no "your friends" to ask
			// after, "my dog died" no "your pets". Good news since lifts
			// a hard matter; nothing said in the days after lifts a death
			// ("说说话好多了" is a better evening, not a grief over).
			heavy = heavy || !lifted || loss
			continue
		}
		for _, tp := range o.k.topicsIn(maskNames(m.Content, t.known)) {
			if !tp.Passing && vars["topic"] == "" {
				vars["topic"] = tp.Name[h.Language]
			}
		}
	}
	return heavy
}

// asked reports whether one of the check-ins sent last named thing.
func asked(checkIns []string, thing string) bool {
	return thing != "" && slices.ContainsFunc(checkIns, func(c string) bool { return strings.Contains(c, thing) })
}

// checkInTiers are the phrase keys of a check-in by relationship state,
// in tiers: the first tier with a line that can be filled is the pool,
// else plain. Seed 003 §7.1: a matter they shared is what a check-in asks
// after; then a dated thing due tomorrow; then good news they shared;
// then anything real (a pet, a theme, their city). Seed 003 §3.1: a
// stranger is not asked about private matters, so their check-in names
// nothing they shared; a dated thing they told of is wished well, as it
// is asked after (follow-ups). When heavy, only the matter and the thing
// due tomorrow are named, else a quiet word that asks nothing and names
// nothing, never "hope you're doing well" nor a light theme.
func checkInTiers(relationship string, heavy bool) (real [][]string, plain []string) {
	gentle := "checkin.polite.gentle"
	switch strings.ToLower(relationship) {
	case "friend", "close":
		real = [][]string{{"checkin.deep"}, {"checkin.ahead"}, {"checkin.goodnews"}, {"checkin.pet", "checkin.topic", "checkin.home"}}
		plain, gentle = []string{"checkin.warm"}, "checkin.gentle"
	case "acquaintance":
		real = [][]string{{"checkin.deep"}, {"checkin.ahead"}, {"checkin.polite.goodnews"}, {"checkin.polite.topic"}}
		plain = []string{"checkin.polite"}
	default:
		real = [][]string{{"checkin.ahead"}}
		plain = []string{"checkin.polite"}
	}
	if heavy {
		kept := real[:0:0]
		for _, tier := range real {
			if tier[0] == "checkin.deep" || tier[0] == "checkin.ahead" {
				kept = append(kept, tier)
			}
		}
		real, plain = kept, []string{gentle}
	}
	return real, plain
}

// checkInWith is a check-in from the variants of keys filled with vars,
// if any can be filled.
func (o *Offline) checkInWith(t *turnView, h bot.Hints, keys []string, vars map[string]string) (string, bool) {
	ok, msg := o.pickCheckIn(h, t.usable(keys, vars))
	return msg, ok
}

// pickCheckIn chooses one of pool by the local day, so consecutive days
// never repeat one, and none of the check-ins sent last (Hints.CheckIns:
// a probe heard the same line four days apart, the day count having come
// round the pool); when all were sent, the one sent longest ago. Never a seed
// 003 §7.2 phrase. With nothing new to say she says nothing.
func (o *Offline) pickCheckIn(h bot.Hints, pool []string) (bool, string) {
	unsent := func(sent []string) []string {
		var out []string
		for _, m := range pool {
			if !slices.Contains(sent, capitalise(m, h.Language)) {
				out = append(out, m)
			}
		}
		return out
	}
	if n := len(h.CheckIns); n > 0 {
		fresh := unsent(h.CheckIns)
		for k := n - 1; len(fresh) == 0 && k > 0; k-- {
			fresh = unsent(h.CheckIns[n-k:]) // all sent: the one sent longest ago comes round first
		}
		pool = fresh
	}
	if len(pool) == 0 {
		return false, ""
	}
	day := 0
	if !h.Now.IsZero() {
		y, m, d := h.Now.Date()
		day = int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	}
	msg := pool[(day+int(variety(h.User, 0)%uint64(len(pool))))%len(pool)]
	msg = capitalise(msg, h.Language)
	if heart.ContainsForbidden(msg) {
		return false, ""
	}
	return true, msg
}

// usable lists every variant of keys that can be filled, in order, each
// key in its first conditional form for the states that hold (a check-in
// after an absence says "long time no see").
func (t *turnView) usable(keys []string, extra map[string]string) []string {
	var out []string
	for _, key := range keys {
		for _, v := range t.k.book[t.keys(key)[0]][t.lang] {
			if s, ok := fill(v, func(n string) string {
				if x, ok := extra[n]; ok {
					return x
				}
				return t.vars[n]
			}); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
