package heart

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// DefaultReplyBudgetTokens is the prompt budget when PromptInput.BudgetTokens
// is not set: our choice, leaving room for the answer in an 8k-context model.
const DefaultReplyBudgetTokens = 6000

// historyTurnOverhead is the estimated per-turn cost of chat framing (roles,
// separators) in tokens. Our choice, from OpenAI's published ~4 per message.
const historyTurnOverhead = 8

// HistoryBlockTurns is how many of the oldest history turns leave the reply
// prompt at once when the history is over its size or budget (hearth's
// choice). Dropping one turn per new turn would change the start of the
// history, and so every byte after the system prompt, on every turn; dropping
// ten at once keeps the history's start, and a provider's prefix cache,
// valid for the next nine turns (DESIGN §12 "Prompt order").
const HistoryBlockTurns = 10

// RecollectionShare bounds recalled recollections to this share of the
// prompt budget (hearth's choice; DESIGN §12 "a bounded share of the
// prompt"), so recall never crowds out the current conversation.
const RecollectionShare = 0.15

// HistoryTurn is one past turn of the chat, oldest first in a list.
type HistoryTurn struct {
	User      string
	Assistant string
	// At is when the user said it (zero: unknown). The prompt does not
	// show it; the offline brain dates what it quotes back by it, so a
	// turn weeks old is never "earlier" (RecallWhen).
	At time.Time
}

// MemoryLine is one memory the prompt may show (DESIGN §5).
type MemoryLine struct {
	Slot    int
	Content string
	// Private memories are never shown in group chats (DESIGN §3 step 7).
	Private bool
}

// PromptInput is everything the reply prompt is built from; the caller has
// already chosen what the user's relationship state allows. Fields are
// grouped by where they land (see BuildReplyPrompt): the static system
// prompt, or the per-turn context note.
type PromptInput struct {
	// Static: the same on every turn of a chat.
	PersonaName, PersonaText, Language, UserName string
	// GroupChat moves who is speaking and their relationship into the
	// context note (they change from message to message in a group) and
	// hides private memories.
	GroupChat bool
	// RelationshipState and RelationshipRules come from the relationship
	// logic (seed 003). They change only when the state does, so in a
	// private chat they belong to the static prompt.
	RelationshipState string
	RelationshipRules []string
	// Rules are standing rules that hold on every turn (content policy,
	// honesty about being an AI).
	Rules []string
	// Lore is the persona's constant lore entries (SelectLore), inserted on
	// every turn.
	Lore []string

	// Per turn: the context note just before the user's message.
	// Now is the moment of the turn in the persona's time zone; the zero
	// time omits the line.
	Now time.Time
	// InnerState is the relationship's inner monologue (seed 004), rewritten
	// by each reflection.
	InnerState string
	// Wellbeing is loneliness or dependency guidance (seed 003 §5-6).
	Wellbeing []string
	Mood      float64
	Lingering Lingering
	Strategy  Strategy
	// Memories are shown only when Strategy.UseMemory; private ones never
	// when GroupChat.
	Memories []MemoryLine
	Scratch  string
	// MatchedLore is the lore whose keys the recent messages matched this
	// turn (SelectLore).
	MatchedLore []string
	// Recollections are pieces of the user's past recalled for this turn
	// (DESIGN §12 "Recall"), most relevant first, each already phrased with
	// its date ("about three weeks ago they said: ..."). They are shown as
	// recollections, apart from the current conversation, within
	// RecollectionShare of the budget.
	Recollections []string
	// Returning is set on the first reply to a user back after
	// ReturnAbsence (seed 003 §7.1): how long they were away and how to
	// greet them, the heavy topic included. It never gives way.
	Returning string
	// Safety is this turn's guidance that must never be cut (a crisis, a
	// request to decline).
	Safety []string
	// PostHistory is the persona's post-history instructions (a Character
	// Card's post_history_instructions): SillyTavern puts them after the
	// history, just before the user's message, so they are the last thing
	// the model reads.
	PostHistory string

	// History is the chat's recent turns, oldest first.
	History []HistoryTurn
	// BudgetTokens bounds the estimated size of the whole prompt; ≤ 0 means
	// DefaultReplyBudgetTokens.
	BudgetTokens int

	// System is the static system prompt, built earlier by BuildSystem
	// from the static fields above and kept by a caller that answers many
	// turns with the same ones. When set, PersonaText, RelationshipRules,
	// Rules and Lore are not read; nil builds it from them.
	System *System
}

// System is a built static system prompt and its estimated tokens.
type System struct {
	Text   string
	Tokens int
}

// BuildSystem builds the static system prompt of in (see BuildReplyPrompt)
// from its static fields alone: the same fields give the same System.
func BuildSystem(in PromptInput) System {
	text := strings.Join(nonEmpty(staticSections(in)...), "\n\n")
	return System{Text: text, Tokens: EstimateTokens(text)}
}

// Prompt is the built reply prompt. The caller sends, in this order: a
// system message of the `[[hearth:reply]]` marker line and System; the
// History turns as user/assistant messages; State as one message; the
// user's text as the last user message.
type Prompt struct {
	// System is the static system prompt: persona, lore, relationship
	// rules, standing rules, how to read the context note, reply format. It
	// holds no time and no per-turn number.
	System string
	// History is the turns kept, oldest first.
	History []HistoryTurn
	// State is the context note of this turn: time, inner state, mood,
	// lingering emotion, strategy, memories, scratch, matched lore,
	// recollections, the return, safety, post-history instructions.
	State string
	// Dropped says what gave way to fit the budget (for logs and /why).
	Dropped []string
	// Tokens is the estimated size of System, History and State.
	Tokens int
}

// BuildReplyPrompt assembles the reply prompt of DESIGN §3 step 7 in the
// order of DESIGN §12: what never changes first, so that a provider's
// prefix cache (llama.cpp, vLLM, SGLang, OpenAI) reuses the previous turn's
// computation up to the end of its history.
//
// System sections: persona (with who the user is, in a private chat, and
// "Reply in <language>"); lore (constant entries); relationship (private
// chats); rules; how to read the context note; reply format (trailer
// instructions). State sections: the note's first line; now (time; in a
// group, who is speaking); relationship (group chats); inner state;
// capsule (mood, lingering label and intensity, refusal knobs, strategy
// fields); modulation (omitted when empty, i.e. neutral); wellbeing;
// memories (only when Strategy.UseMemory, never private ones in a group
// chat); scratch; lore matched this turn; recollections; the return;
// safety; post-history instructions.
//
// Over budget, parts give way in this order: history turns, the oldest
// HistoryBlockTurns at a time, but recollections before the newest block
// (recall never crowds out the last few turns); then recollections, last
// listed first; then
// matched lore, first listed (lowest order) first; then memories, last
// listed first; then the scratch note; then the inner state. Everything
// else is never dropped, even if it alone exceeds the budget.
func BuildReplyPrompt(in PromptInput) Prompt {
	budget := in.BudgetTokens
	if budget <= 0 {
		budget = DefaultReplyBudgetTokens
	}
	system := in.System
	if system == nil {
		s := BuildSystem(in)
		system = &s
	}
	note := noteParts(in)
	hist, histTok := sanitizeHistory(in.History)

	total := system.Tokens + note.tokens()
	for _, t := range histTok {
		total += t
	}
	var dropped []string
	first := 0
	for total > budget && first < len(hist) {
		if len(hist)-first <= HistoryBlockTurns && len(note.recalled.items) > 0 {
			label, saved := note.recalled.drop()
			total -= saved
			dropped = append(dropped, label)
			continue
		}
		n := min(HistoryBlockTurns, len(hist)-first)
		for _, t := range histTok[first : first+n] {
			total -= t
		}
		first += n
	}
	if first > 0 {
		dropped = append(dropped, fmt.Sprintf("history: %d oldest turns", first))
	}
	recallCap := int(RecollectionShare * float64(budget))
	for note.recalled.tokens() > recallCap {
		label, saved := note.recalled.drop()
		total -= saved
		dropped = append(dropped, label)
	}
	for _, l := range []*trimList{note.recalled, note.lore, note.memories, note.scratch, note.inner} {
		for total > budget && len(l.items) > 0 {
			label, saved := l.drop()
			total -= saved
			dropped = append(dropped, label)
		}
	}
	return Prompt{System: system.Text, History: hist[first:], State: note.render(), Dropped: dropped, Tokens: total}
}

// sanitizeHistory defuses the history and estimates each turn's tokens.
func sanitizeHistory(in []HistoryTurn) ([]HistoryTurn, []int) {
	hist := make([]HistoryTurn, len(in))
	tok := make([]int, len(in))
	for i, h := range in {
		hist[i] = HistoryTurn{User: sanitize(h.User), Assistant: sanitize(h.Assistant), At: h.At}
		tok[i] = EstimateTokens(hist[i].User) + EstimateTokens(hist[i].Assistant) + historyTurnOverhead
	}
	return hist, tok
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
