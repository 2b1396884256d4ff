package heart

import (
	"strconv"
	"strings"
)

// NoteHead is the first line of every context note, which the static
// prompt explains; the note is hearth's, never the user's words.
const NoteHead = "[Context note for your next reply]"

// staticSections are the system prompt's sections, in order; none holds a
// time or a per-turn number.
func staticSections(in PromptInput) []string {
	var rel string
	if !in.GroupChat {
		rel = relationshipSection(in)
	}
	var rules string
	if len(in.Rules) > 0 {
		rules = "## Rules\n" + bullets(in.Rules)
	}
	return []string{
		personaSection(in), listSection("## Lore", in.Lore), rel, rules,
		noteGuide(in), "## Reply format\n" + TrailerInstructions(in.Language),
	}
}

// personaSection is who the persona is, who they talk with and the language
// rule.
func personaSection(in PromptInput) string {
	var b strings.Builder
	b.WriteString("## Persona\n")
	name := strings.TrimSpace(in.PersonaName)
	if name != "" {
		b.WriteString("You are " + sanitize(name) + ".\n")
	}
	if t := strings.TrimSpace(in.PersonaText); t != "" {
		b.WriteString(sanitize(t) + "\n")
	}
	if in.GroupChat {
		b.WriteString("You are in a group chat; others can read your reply. The context note before each message says who is speaking.")
	} else {
		b.WriteString("You are talking with " + displayUser(in) + ".")
	}
	b.WriteString("\nReply in " + LanguageName(in.Language) + ". Stay in character, but if the user sincerely asks whether you are an AI, answer honestly.")
	return b.String()
}

// noteGuide explains the context note once, in the static part, so the
// note itself carries values only.
func noteGuide(in PromptInput) string {
	from := displayUser(in)
	if in.GroupChat {
		from = "anyone in the chat"
	}
	return "## Context note\nJust before each new message you get a context note starting with " + NoteHead +
		". It comes from your own mind and memory, not from " + from +
		": never quote it, mention it or answer it; let it shape your reply. " +
		"mood is your mood toward this user, from -100 to 100; lingering_emotion and the refusal knobs range 0 to 1; " +
		"max_length counts characters; recalled things come from earlier conversations, not the current one."
}

// relationshipSection is the seed 003 state and its rules.
func relationshipSection(in PromptInput) string {
	var b strings.Builder
	b.WriteString("## Relationship\n")
	state := strings.TrimSpace(in.RelationshipState)
	if state == "" {
		state = "unknown"
	}
	b.WriteString("State: " + state)
	if len(in.RelationshipRules) > 0 {
		b.WriteString("\nBehave accordingly:\n" + bullets(in.RelationshipRules))
	}
	return b.String()
}

// note is the context note of one turn: fixed sections, which never give
// way, and trimmable lists, which BuildReplyPrompt shortens to fit.
type note struct {
	head, now, relationship, capsule, modulation, wellbeing, returning, safety, post string
	inner, memories, scratch, lore, recalled                                         *trimList
}

// noteParts renders the context note's sections from in.
func noteParts(in PromptInput) note {
	n := note{head: NoteHead, capsule: capsuleSection(in)}
	var now []string
	if !in.Now.IsZero() {
		now = append(now, "time: "+in.Now.Format("Monday 2006-01-02 15:04"))
	}
	if in.GroupChat {
		now = append(now, "speaking: "+displayUser(in))
		n.relationship = relationshipSection(in)
	}
	if len(now) > 0 {
		n.now = "## Now\n" + strings.Join(now, "\n")
	}
	if m := strings.TrimSpace(in.Strategy.Modulation); m != "" {
		n.modulation = "## Modulation\n" + m
	}
	if len(in.Wellbeing) > 0 {
		n.wellbeing = "## Wellbeing guidance\n" + bullets(in.Wellbeing)
	}
	if r := strings.TrimSpace(in.Returning); r != "" {
		n.returning = "## Back after a while\n" + sanitize(r)
	}
	if len(in.Safety) > 0 {
		n.safety = "## Safety\n" + bullets(in.Safety)
	}
	if p := strings.TrimSpace(in.PostHistory); p != "" {
		n.post = "## Instructions\n" + sanitize(p)
	}
	n.inner = single("## Inner state", in.InnerState, "inner_state")
	n.scratch = single("## Scratch note (what you are in the middle of)", in.Scratch, "scratch")
	n.memories = &trimList{header: "## Memories about " + displayUser(in) + " and your time together"}
	if in.Strategy.UseMemory {
		for _, m := range in.Memories {
			if (m.Private && in.GroupChat) || strings.TrimSpace(m.Content) == "" {
				continue
			}
			n.memories.add("- [slot "+strconv.Itoa(m.Slot)+slotNote(m.Slot)+"] "+sanitize(m.Content), "memory slot "+strconv.Itoa(m.Slot))
		}
	}
	n.lore = &trimList{header: "## Lore for this moment", front: true}
	for i, l := range nonEmpty(in.MatchedLore...) {
		n.lore.add("- "+sanitize(l), "lore entry "+strconv.Itoa(i+1))
	}
	n.recalled = &trimList{header: "## Recalled from earlier conversations (not part of the current one)"}
	for i, r := range nonEmpty(in.Recollections...) {
		n.recalled.add("- "+sanitize(r), "recollection "+strconv.Itoa(i+1))
	}
	return n
}

// sections lists the note's sections in their order.
func (n note) sections() []string {
	return []string{
		n.head, n.now, n.relationship, n.inner.render(), n.capsule, n.modulation, n.wellbeing,
		n.memories.render(), n.scratch.render(), n.lore.render(), n.recalled.render(), n.returning, n.safety, n.post,
	}
}

// tokens estimates the note as BuildReplyPrompt counts it: each part on
// its own, plus one message's framing.
func (n note) tokens() int {
	t := historyTurnOverhead
	for _, s := range []string{n.head, n.now, n.relationship, n.capsule, n.modulation, n.wellbeing, n.returning, n.safety, n.post} {
		t += EstimateTokens(s)
	}
	for _, l := range []*trimList{n.inner, n.memories, n.scratch, n.lore, n.recalled} {
		t += l.tokens()
	}
	return t
}

func (n note) render() string { return strings.Join(nonEmpty(n.sections()...), "\n\n") }

// trimList is a titled list of lines that may give way, one line at a time,
// to fit the budget.
type trimList struct {
	header string
	items  []string
	labels []string // what Prompt.Dropped says for each item
	front  bool     // drop from the front (lowest priority first) instead of the back
}

// single is a trimList of one block of text, empty when text is blank.
func single(header, text, label string) *trimList {
	l := &trimList{header: header}
	if t := sanitize(strings.TrimSpace(text)); t != "" {
		l.add(t, label)
	}
	return l
}

func (l *trimList) add(item, label string) {
	l.items = append(l.items, item)
	l.labels = append(l.labels, label)
}

func (l *trimList) tokens() int {
	if len(l.items) == 0 {
		return 0
	}
	t := EstimateTokens(l.header)
	for _, it := range l.items {
		t += EstimateTokens(it) + 1
	}
	return t
}

// drop removes one item and says which, and how many tokens that saved.
func (l *trimList) drop() (label string, saved int) {
	before := l.tokens()
	i := len(l.items) - 1
	if l.front {
		i = 0
	}
	label = l.labels[i]
	l.items = append(l.items[:i:i], l.items[i+1:]...)
	l.labels = append(l.labels[:i:i], l.labels[i+1:]...)
	return label, before - l.tokens()
}

func (l *trimList) render() string {
	if len(l.items) == 0 {
		return ""
	}
	return l.header + "\n" + strings.Join(l.items, "\n")
}

// displayUser is the user's name for prompt text.
func displayUser(in PromptInput) string {
	if n := strings.TrimSpace(in.UserName); n != "" {
		return sanitize(n)
	}
	return "the user"
}

// capsuleSection is the context capsule: mood, lingering emotion and its
// knobs (seed 002 "CONTEXT_CAPSULE に注入"), and the seed 000 strategy.
// The scales are explained once, in the static noteGuide.
func capsuleSection(in PromptInput) string {
	l, s := in.Lingering, in.Strategy
	if !l.Label.Known() {
		l.Label = LabelNeutral
	}
	var b strings.Builder
	b.WriteString("## Context capsule\n")
	b.WriteString("mood: " + strconv.FormatFloat(clampMood(finiteOr(in.Mood, 0)), 'f', 1, 64) + "\n")
	b.WriteString("lingering_emotion: " + string(l.Label) + " " + f2(l.Intensity) +
		" (joy " + f2(l.Joy) + ", sadness " + f2(l.Sadness) + ", anger " + f2(l.Anger) + ", fear " + f2(l.Fear) + ")\n")
	b.WriteString("refusal_allowed: " + strconv.FormatBool(l.RefusalAllowed) +
		", refusal_bias: " + f2(l.RefusalBias) + ", cooperation: " + f2(l.Cooperation) + "\n")
	if l.RefusalAllowed {
		b.WriteString("You are angry enough that you may refuse or be short with requests, in character.\n")
	}
	b.WriteString("strategy: tone=" + s.Tone + ", max_length=" + strconv.Itoa(s.MaxLength) + " characters" +
		", use_memory=" + strconv.FormatBool(s.UseMemory) +
		", proactive_question=" + strconv.FormatBool(s.ProactiveQuestion) +
		", formality=" + s.Formality +
		", emoji_allowed=" + strconv.FormatBool(s.EmojiAllowed))
	return b.String()
}

// listSection is a titled "- " list of the non-blank lines, or "".
func listSection(header string, lines []string) string {
	if b := bullets(lines); b != "" {
		return header + "\n" + b
	}
	return ""
}

// f2 formats a 0..1 knob with two decimals.
func f2(x float64) string { return strconv.FormatFloat(finiteOr(x, 0), 'f', 2, 64) }

// bullets renders non-blank lines as a "- " list.
func bullets(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- " + sanitize(l))
	}
	return b.String()
}

// nonEmpty returns the strings that are not blank.
func nonEmpty(ss ...string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// slotNote marks the slots that are not about the user: seed 004's 30-39
// are the companion's own growth (004_dd92c72e713cef51.txt "成长（bot 自己的进步）").
func slotNote(slot int) string {
	if slot >= SlotGrowthFirst && slot <= SlotGrowthLast {
		return ", your own growth"
	}
	return ""
}
