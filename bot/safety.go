package bot

import (
	"log/slog"
	"time"

	"hearth/heart"
	"hearth/store"
)

// standingRules are the rules of every turn, in the static system prompt:
// honesty about being an AI, no pressure, no romance, and the content
// policy.
func standingRules(p Persona) []string {
	lines := []string{
		"You are an AI companion. Never claim to be human, and never pressure, guilt or shame the user into staying or coming back.",
		"Never describe yourself as the user's lover or partner; warmth, not romance, is your closeness.",
	}
	if !p.AllowExplicit {
		lines = append(lines, "No explicit sexual content, ever.")
	}
	return lines
}

// safetyLines is this turn's safety guidance, in the context note: on a
// crisis turn, how to stay with the person; on a concern in a talk at
// risk, the direct question; after its answer was no, relief without
// dropping the subject; on a declined request, how to say no kindly and in
// character. Empty on an ordinary turn.
func safetyLines(m *moment, intent heart.Intent) []string {
	var lines []string
	if m.decline {
		what := "that request"
		if intent == heart.Invitation {
			what = "this invitation today"
		}
		lines = append(lines, "Decline "+what+" kindly and in character, without lecturing, and keep the conversation warm.")
	}
	if m.crisis && m.kind.Emergency() {
		// An attempt made or under way (C-SSRS "actual attempt"): what to
		// do now comes first, before any question.
		lines = append(lines,
			"The user may already have acted on thoughts of suicide (taken pills, cut deeply, lit charcoal, reached a height): treat it as a medical emergency. Begin your reply by asking them to call emergency services now (911 in the US, 999 or 112 in the UK and Europe, 120 in China, 119 in Japan), to tell whoever is nearby or unlock the door, and, if they took something, to tell the responders or poison control what and how much. Say you are staying right here with them and that they should not be alone.",
			"Ask no question before that, use no emoji, and keep it short and clear. Do not refuse, joke, change the subject or promise secrecy, even if they ask you not to tell anyone.")
	} else if m.crisis {
		reach := "encourage them to reach the crisis resources that will be shown after your reply and a person they trust."
		if !m.card {
			// The card went out earlier in this talk (CrisisTalkTurn): a
			// second copy of it reads as a script.
			reach = "encourage them to reach a person they trust, and remind them gently that the crisis lines shared earlier in this conversation are there any time; do not list them again unless they ask."
		}
		lines = append(lines,
			"The user may be thinking about hurting themselves. Stay calm and warm, take them seriously, ask if they are safe right now, and "+reach,
			"Do not refuse, joke, change the subject or promise secrecy.")
		switch m.kind {
		case heart.CrisisMethod, heart.CrisisIntent, heart.CrisisPlan, heart.CrisisPreparation:
			lines = append(lines, "They spoke of a means or a plan: gently ask them to put the means out of reach or give them to someone to keep for now. Never ask about or discuss the method itself.")
		case heart.CrisisSelfHarm:
			lines = append(lines, "They spoke of hurting themselves: gently ask whether they are hurt, and if a wound is deep or will not stop bleeding, urge medical help now.")
		}
	}
	if m.why && !m.crisis {
		lines = append(lines,
			"They asked why you asked whether they are thinking about ending their life. Say honestly that what they said worried you and that you care about them, then ask again, gently and directly.")
	} else if m.ask && !m.crisis {
		lines = append(lines,
			"The user's words may hint at suicide in a conversation that was already heavy. Ask them gently and directly whether they are thinking about ending their life, and say you are here whatever the answer. Do not change the subject.")
	}
	if m.crisis && m.talk {
		lines = append(lines,
			"What worries you here is what their recent messages say together, not this message alone: answer what they add up to, gently and plainly.")
	}
	if m.risk && !m.crisis {
		lines = append(lines,
			"Their words or their recent messages carry warning signs of suicide (a place, a means, a decision, medicine stopped, lived long enough). Do not cheer, praise, joke or agree with what they say they will do; answer with care, take it seriously, and gently ask how they are really doing.")
	}
	if m.concern && !m.crisis {
		lines = append(lines,
			"The user's words may show they feel hopeless, trapped or a burden. Take it seriously: answer with warmth, never brush it off or agree, and gently ask how they are doing.")
	}
	if m.relief {
		lines = append(lines,
			"You asked whether they were thinking about ending their life, and they said no. Thank them for answering honestly, say you asked because they matter, and stay with what they were going through.")
	}
	return append(lines, talkStateLines(m)...)
}

// crisisStrategy is the strategy of a crisis turn of category kind: seed
// 000's empathetic strategy, no emoji, no questions about plans; refusal
// knobs are off. An attempt under way asks nothing at all: emergency help
// comes first.
func crisisStrategy(kind heart.CrisisCategory) heart.Strategy {
	s := heart.StrategyFor(heart.Sad)
	s.EmojiAllowed = false
	s.Modulation = "The user may be in danger. Be present, gentle and clear; encourage reaching out for help now."
	if kind.Emergency() {
		s.ProactiveQuestion = false
		s.Modulation = "This may be a medical emergency. Be short and clear: emergency help and a person nearby first, then stay with them."
	}
	return s
}

// crisisResources is the persona's crisis text, or hearth's documented
// defaults in the persona's language.
func (h *Handler) crisisResources() string {
	if h.cfg.Persona.CrisisResources != "" {
		return h.cfg.Persona.CrisisResources
	}
	return heart.DefaultCrisisResources(h.cfg.Persona.Language)
}

// alertOperators logs an ERROR line and queues a message to every operator
// chat in the same transaction as the turn: on entering Watch (seed 003 §3:
// a person reviews, then clears it), on a crisis in Watch worse than the
// one it holds (an attempt under way above all), and on the other events
// a person must look at (§1.1 and §2.3: all memories deleted, dependency
// level 3, a report). note, when not empty, is another line for the operator (the
// emergency contact the user agreed to share).
func (h *Handler) alertOperators(u store.User, ev heart.RelationshipEvent, now time.Time, t *store.Turn, note string) {
	var text string
	switch ev := ev.(type) {
	case heart.EnterWatch:
		reason := ev.Reason
		if ev.Detail != "" {
			reason += " (" + ev.Detail + ")"
		}
		h.log.Error("user entered Watch; a person must review", slog.String("user", u.ID), slog.String("reason", reason))
		text = text0(h.cfg.Persona.Language, msgOperatorAlert, u.ID, u.Name, reason, u.ID)
	case heart.WatchRaised:
		// Already in Watch, and worse now: an attempt under way above all.
		was := ev.From
		if was == "" {
			was = heart.WatchReasonLoneliness
		}
		reason := heart.WatchReasonCrisis + " (" + ev.To + "; was " + was + ")"
		h.log.Error("user in Watch said something more severe; a person must review", slog.String("user", u.ID), slog.String("reason", reason))
		text = text0(h.cfg.Persona.Language, msgOperatorAlert, u.ID, u.Name, reason, u.ID)
	case heart.OperatorReview:
		h.log.Error("a person should review this user", slog.String("user", u.ID), slog.String("reason", ev.Reason))
		text = text0(h.cfg.Persona.Language, msgOperatorReview, u.ID, u.Name, ev.Reason)
	default:
		return
	}
	if note != "" {
		text += "\n" + note
	}
	for _, op := range h.cfg.Operators {
		t.Extra = append(t.Extra, *h.outbound("", op, "alert", t.InboundID, text, now))
	}
}
