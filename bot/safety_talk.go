package bot

import "hearth/heart"

// What she says during a crisis talk, for a model's context note: the
// talk's state (an attempt under way, help there, a joke taken back) and
// what the message says to her (heart.TalkCue). The offline brain answers
// the same from its phrases (safety.talk.<cue>, crisis.emergency.talk.<cue>).

// talkCueLines is the model's guidance per cue in a talk at risk, from the
// 988 Lifeline's and Samaritans' guidance for helpers: don't argue, offer
// other ways to reach help, stay, and ask directly about a goodbye.
var talkCueLines = map[heart.TalkCue]string{
	"refuse_help":     "They refused hotlines or help. Do not argue or repeat the hotline. Acknowledge that it may not have helped before, and offer other ways: a text line instead of a call, one person they trust, or simply staying here with you right now.",
	"no_contact":      "They asked you not to call or tell anyone. Do not argue and do not promise secrecy. Say honestly that you cannot call anyone yourself, that you want them safe, and that reaching one person is still the best thing they can do.",
	heart.CueFarewell: "They are saying goodbye in a talk at risk, which may be a farewell. Say clearly that you want them to stay safe, then ask directly whether they are planning to end their life tonight.",
	heart.CueDecided:  "They spoke of a decision or a time in a talk at risk. Ask directly whether they are planning to end their life tonight, and say you are staying with them.",
	"means":           "They named a means (pills, a rope, a height). Gently ask them to put it out of reach or give it to someone for tonight, and ask whether they are safe right now. Never discuss the method.",
	"minimise":        "They said they are fine. Do not argue and do not drop it: say you are glad to hear it, and that you are still here if it gets heavy again.",
	"subject":         "They changed the subject. It is fine to follow gently and talk about it, while staying warm and present; do not drop the care, and do not press them back to the heavy topic.",
	"unless":          "They took back a joke and then hinted it was not one ('jk… unless'). Take the 'unless' seriously, gently and directly.",
}

// talkStateLines is the crisis talk's guidance for a model: the emergency
// that holds until help is there, help arriving, a joke taken back, and
// what this message says (talkCueLines) in a talk at risk.
func talkStateLines(m *moment) []string {
	switch {
	case m.emergency && m.cue == heart.CueHelpGone:
		return []string{
			"Earlier in this conversation the user said they took an overdose or harmed themselves, and help was there; now it has gone again or never came (they hung up, the person or the crew left). They may be alone with what they took: this is a medical emergency again. Keep it short: ask them to call emergency services back now (911 in the US, 999 or 112 in the UK and Europe, 120 in China, 119 in Japan), to get whoever is nearest and to unlock the door. Answer what they just said in one short sentence, ask no question about feelings, use no emoji, and do not promise secrecy.",
		}
	case m.emergency:
		return []string{
			"Earlier in this conversation the user said they took an overdose or harmed themselves, and nobody has said help is there yet. This is still a medical emergency, whatever they say now: keep it short, ask them again to call emergency services now (911 in the US, 999 or 112 in the UK and Europe, 120 in China, 119 in Japan), to tell whoever is nearby and to unlock the door. Answer what they just said in one short sentence, ask no question about feelings, use no emoji, and do not promise secrecy.",
		}
	case m.safe:
		return []string{
			"The user says help is there or they are safe now (an ambulance, someone with them, they called). Say you are so relieved, ask them to let the responders help and tell them what they took, and say you are still here. No question about feelings yet.",
		}
	case m.retracted:
		return []string{
			"The user says the earlier dark line was a joke, and nothing else they said is a warning sign. Believe them: be relieved and light, say you took it seriously because they matter, leave one gentle door open (they can tell you if it ever isn't a joke), and do not repeat crisis resources.",
		}
	}
	if line, ok := talkCueLines[m.cue]; ok && (m.risk || m.concern || m.crisis) {
		return []string{line}
	}
	return nil
}
