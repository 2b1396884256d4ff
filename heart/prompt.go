package heart

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultReplyBudgetTokens is the prompt budget when PromptInput.BudgetTokens
// is not set: our choice, leaving room for the answer in an 8k-context model.
const DefaultReplyBudgetTokens = 6000

// historyTurnOverhead is the estimated per-turn cost of chat framing (roles,
// separators) in tokens. Our choice, from OpenAI's published ~4 per message.
const historyTurnOverhead = 8

// HistoryTurn is one past turn of the chat, oldest first in a list.
type HistoryTurn struct {
	User      string
	Assistant string
}

// MemoryLine is one memory the prompt may show (DESIGN §5).
type MemoryLine struct {
	Slot    int
	Content string
	// Private memories are never shown in group chats (DESIGN §3 step 7).
	Private bool
}

// PromptInput is everything the reply prompt is built from; the caller has
// already chosen what the user's relationship state allows.
type PromptInput struct {
	PersonaName, PersonaText, Language, UserName string
	// InnerState is the relationship's inner monologue (seed 004).
	InnerState string
	// RelationshipState, RelationshipRules and Wellbeing come from the
	// relationship logic (seed 003): the state name, its behaviour rules and
	// any loneliness or dependency guidance.
	RelationshipState string
	RelationshipRules []string
	Wellbeing         []string
	Mood              float64
	Lingering         Lingering
	Strategy          Strategy
	// Memories are shown only when Strategy.UseMemory; private ones never
	// when GroupChat.
	Memories  []MemoryLine
	GroupChat bool
	Scratch   string
	// Safety is guidance that must never be cut (crisis, content policy,
	// declining a request).
	Safety []string
	// History is the chat's recent turns, oldest first.
	History []HistoryTurn
	// BudgetTokens bounds the estimated size of System plus History;
	// ≤ 0 means DefaultReplyBudgetTokens.
	BudgetTokens int
}

// Prompt is the built reply prompt: the system message (without the
// `[[hearth:reply]]` marker line, which the caller prepends), the history
// turns kept, and what was dropped to fit the budget (for logs and /why).
type Prompt struct {
	System  string
	History []HistoryTurn
	Dropped []string
	// Tokens is the estimated size of System plus History.
	Tokens int
}

// EstimateTokens is a cheap token estimate: one token per CJK character
// plus one per four bytes of everything else (OpenAI's rule of thumb for
// English). Tokenizers spend about one token on each Chinese or Japanese
// character, so this errs high for CJK, the safe side for a budget. It reads
// bytes, not runes: a three-byte UTF-8 sequence with a lead byte of
// 0xE3..0xED (U+3000..U+DFFF: CJK punctuation, kana, ideographs, Hangul)
// counts as one CJK character.
func EstimateTokens(s string) int {
	cjk, other := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < 0x80:
			other++
			i++
		case c >= 0xE3 && c <= 0xED:
			cjk++
			i += 3
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			other += size
			i += size
		}
	}
	return cjk + (other+3)/4
}

// isCJK reports whether r is a Chinese, Japanese or Korean letter. The
// common blocks are tested by range (EstimateTokens runs over all history);
// rarer ones fall back to the Unicode tables.
func isCJK(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, // CJK Unified Ideographs
		r >= 0x3040 && r <= 0x30FF, // Hiragana, Katakana
		r >= 0xAC00 && r <= 0xD7AF, // Hangul Syllables
		r >= 0x3400 && r <= 0x4DBF: // CJK Extension A
		return true
	case r < 0x1100:
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// sanitize defuses text from storage or users before it enters a prompt: the
// trailer delimiter (a stored memory must not end the reply early), a
// request marker such as `[[hearth:reply]]` (only the caller writes those,
// on the first line), and the verified-gift marker.
func sanitize(s string) string {
	if !mayNeedSanitize(s) {
		return s
	}
	if strings.Contains(s, TrailerDelimiter) {
		s = strings.ReplaceAll(s, TrailerDelimiter, "")
	}
	if strings.Contains(s, "[[hearth:") {
		s = strings.ReplaceAll(s, "[[hearth:", "[hearth:")
	}
	return NeutraliseMarkers(s)
}

// mayNeedSanitize is sanitize's one-pass pre-check: every pattern it
// removes contains '<', '[', an ASCII v or a full-width ｖ/Ｖ (UTF-8 EF BD 96,
// EF BC B6), so text without them is returned as is.
func mayNeedSanitize(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '[', 'v', 'V':
			return true
		case 0xEF:
			if i+2 < len(s) && ((s[i+1] == 0xBD && s[i+2] == 0x96) || (s[i+1] == 0xBC && s[i+2] == 0xB6)) {
				return true
			}
		}
	}
	return false
}

// BuildReplyPrompt assembles the reply prompt of DESIGN §3 step 7. Sections,
// in order: persona (with "Reply in <language>"); inner state; relationship
// (state, rules, wellbeing guidance); capsule (mood, lingering label and
// intensity, refusal knobs, strategy fields); modulation (its own section,
// omitted when empty, i.e. neutral); memories (only when
// Strategy.UseMemory, never private ones in a group chat); scratch; safety;
// reply format (trailer instructions). Then the newest history turns that
// fit.
//
// Over budget, parts give way in this order: history turns, oldest first;
// then memories, last listed first; then the scratch note; then the inner
// state. Persona, relationship, capsule, modulation, safety and the reply
// format are never dropped, even if they alone exceed the budget.
func BuildReplyPrompt(in PromptInput) Prompt {
	budget := in.BudgetTokens
	if budget <= 0 {
		budget = DefaultReplyBudgetTokens
	}
	var mems []string
	if in.Strategy.UseMemory {
		for _, m := range in.Memories {
			if (m.Private && in.GroupChat) || strings.TrimSpace(m.Content) == "" {
				continue
			}
			mems = append(mems, "- [slot "+strconv.Itoa(m.Slot)+"] "+sanitize(m.Content))
		}
	}
	memSlots := memorySlots(in)
	inner := sanitize(strings.TrimSpace(in.InnerState))
	scratch := sanitize(strings.TrimSpace(in.Scratch))
	hist := make([]HistoryTurn, len(in.History))
	histTok := make([]int, len(in.History))
	for i, h := range in.History {
		hist[i] = HistoryTurn{User: sanitize(h.User), Assistant: sanitize(h.Assistant)}
		histTok[i] = EstimateTokens(hist[i].User) + EstimateTokens(hist[i].Assistant) + historyTurnOverhead
	}

	persona := personaSection(in)
	relationship := relationshipSection(in)
	capsule := capsuleSection(in)
	modulation := ""
	if m := strings.TrimSpace(in.Strategy.Modulation); m != "" {
		modulation = "## Modulation\n" + m
	}
	safety := ""
	if len(in.Safety) > 0 {
		safety = "## Safety\n" + bullets(in.Safety)
	}
	format := "## Reply format\n" + TrailerInstructions(in.Language)

	fixed := EstimateTokens(persona) + EstimateTokens(relationship) + EstimateTokens(capsule) +
		EstimateTokens(modulation) + EstimateTokens(safety) + EstimateTokens(format)
	total := fixed
	innerTok := EstimateTokens(inner)
	scratchTok := EstimateTokens(scratch)
	memTok := make([]int, len(mems))
	total += innerTok + scratchTok
	for i, m := range mems {
		memTok[i] = EstimateTokens(m) + 1
		total += memTok[i]
	}
	for _, t := range histTok {
		total += t
	}

	var dropped []string
	first := 0
	for total > budget && first < len(hist) {
		total -= histTok[first]
		first++
	}
	if first > 0 {
		dropped = append(dropped, fmt.Sprintf("history: %d oldest turns", first))
	}
	for total > budget && len(mems) > 0 {
		last := len(mems) - 1
		total -= memTok[last]
		dropped = append(dropped, "memory slot "+strconv.Itoa(memSlots[last]))
		mems = mems[:last]
	}
	if total > budget && scratch != "" {
		total -= scratchTok
		scratch = ""
		dropped = append(dropped, "scratch")
	}
	if total > budget && inner != "" {
		total -= innerTok
		inner = ""
		dropped = append(dropped, "inner_state")
	}

	parts := []string{persona}
	if inner != "" {
		parts = append(parts, "## Inner state\n"+inner)
	}
	parts = append(parts, relationship, capsule)
	if modulation != "" {
		parts = append(parts, modulation)
	}
	if len(mems) > 0 {
		parts = append(parts, "## Memories about "+displayUser(in)+"\n"+strings.Join(mems, "\n"))
	}
	if scratch != "" {
		parts = append(parts, "## Scratch note (what you are in the middle of)\n"+scratch)
	}
	if safety != "" {
		parts = append(parts, safety)
	}
	parts = append(parts, format)
	var kept []HistoryTurn
	if first < len(hist) {
		kept = hist[first:]
	}
	return Prompt{System: strings.Join(parts, "\n\n"), History: kept, Dropped: dropped, Tokens: total}
}

// memorySlots lists the slots of the memories BuildReplyPrompt shows, in
// the same order, for the Dropped report.
func memorySlots(in PromptInput) []int {
	var slots []int
	if !in.Strategy.UseMemory {
		return nil
	}
	for _, m := range in.Memories {
		if (m.Private && in.GroupChat) || strings.TrimSpace(m.Content) == "" {
			continue
		}
		slots = append(slots, m.Slot)
	}
	return slots
}

// displayUser is the user's name for prompt text.
func displayUser(in PromptInput) string {
	if n := strings.TrimSpace(in.UserName); n != "" {
		return sanitize(n)
	}
	return "the user"
}

// personaSection is who the persona is and the language rule.
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
	b.WriteString("You are talking with " + displayUser(in))
	if in.GroupChat {
		b.WriteString(" in a group chat; others can read your reply")
	}
	b.WriteString(".\nReply in " + LanguageName(in.Language) + ". Stay in character, but if the user sincerely asks whether you are an AI, answer honestly.")
	return b.String()
}

// relationshipSection is the seed 003 state, its rules and wellbeing
// guidance.
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
	if len(in.Wellbeing) > 0 {
		b.WriteString("\nWellbeing guidance:\n" + bullets(in.Wellbeing))
	}
	return b.String()
}

// capsuleSection is the context capsule: mood, lingering emotion and its
// knobs (seed 002 "CONTEXT_CAPSULE に注入"), and the seed 000 strategy.
func capsuleSection(in PromptInput) string {
	l, s := in.Lingering, in.Strategy
	if !l.Label.Known() {
		l.Label = LabelNeutral
	}
	var b strings.Builder
	b.WriteString("## Context capsule\n")
	b.WriteString("mood: " + strconv.FormatFloat(clampMood(finiteOr(in.Mood, 0)), 'f', 1, 64) + " (scale -100 to 100; your current mood toward this user)\n")
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
