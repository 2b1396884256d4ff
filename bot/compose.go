package bot

import (
	"context"
	"fmt"
	"slices"

	"hearth/heart"
	"hearth/store"
)

// NoteRole is the role of the context note, the per-turn message just
// before the user's text (DESIGN §12 "Prompt order"). It is "user", not
// "system": Ollama joins every system message, wherever it stands, into
// .System (its template collate step), which most of its templates render
// once at the top of the prompt; that would put the per-turn state before
// the history again and defeat the prefix cache;
// consecutive user messages it merges into one user turn at the end, where
// the note belongs. llama.cpp and vLLM render either role in place with
// ChatML, Llama 3 and Qwen templates; templates that demand strictly
// alternating roles (Mistral's, Gemma's) reject a second system message as
// much as two user messages in a row. The static system prompt tells the
// model the note is its own state of mind, never the user's words.
const NoteRole = "user"

// replyMessages lays out a reply request, static first and dynamic last:
// the system message (the marker line and the static prompt: system's
// message), the history, the context note, and the user's text as the last
// user message (DESIGN §9). Between two turns of a chat everything up to
// the end of the older turn's history repeats byte for byte.
func replyMessages(sys *system, p heart.Prompt, text string) []ChatMessage {
	msgs := make([]ChatMessage, 0, 3+2*len(p.History))
	msgs = append(msgs, ChatMessage{Role: "system", Content: sys.message})
	msgs = append(msgs, historyMessages(p.History)...)
	return append(msgs,
		ChatMessage{Role: NoteRole, Content: p.State},
		ChatMessage{Role: "user", Content: heart.NeutraliseMarkers(text)})
}

// recentTurns reads the chat's turns the reply prompt may show, cut by the
// chat's history window (empty turns left out).
func (h *Handler) recentTurns(ctx context.Context, in store.Inbound) ([]store.Episode, error) {
	eps, err := h.cfg.Store.ChatHistory(ctx, in.Platform, in.ChatID, historyFetch)
	if err != nil {
		return nil, fmt.Errorf("history of %s/%s: %w", in.Platform, in.ChatID, err)
	}
	complete := len(eps) < historyFetch
	eps = slices.DeleteFunc(eps, func(e store.Episode) bool { return e.UserText == "" && e.ReplyText == "" })
	return h.window.cut(chatKey(in), eps, complete), nil
}

// chatKey names a chat across platforms.
func chatKey(in store.Inbound) string { return in.Platform + "/" + in.ChatID }

// promptInput is what the reply prompt of moment m is built from, and the
// static system prompt it carries (systemOf).
func (h *Handler) promptInput(m *moment, hist []heart.HistoryTurn) (heart.PromptInput, *system) {
	p, u := h.cfg.Persona, m.u
	group := m.in.ChatKind == string(ChatGroup)
	sys := h.systemOf(u.Name, group, m.rel.State)
	_, matched := heart.SelectLore(p.Lore, loreScan(m.text, hist, p.Lore.Depth()))
	return heart.PromptInput{
		PersonaName: p.Name, Language: p.Language, UserName: u.Name,
		GroupChat: group, RelationshipState: string(m.rel.State), System: &sys.System,

		Now: m.now.In(h.loc), InnerState: u.InnerState, Wellbeing: wellbeing(m.rel, p.Language),
		Mood: m.step.Mood, Lingering: m.ling, Strategy: m.strategy,
		Memories: memoryLines(m.mems, m.rel.Score), Scratch: u.Scratch, MatchedLore: withUserAll(matched, u.Name),
		Recollections: h.recollectionLines(m), Returning: m.returnNote,
		Safety: safetyLines(m, m.perc.Intent), PostHistory: WithUser(p.PostHistory, u.Name),

		History: hist, BudgetTokens: PromptBudgetTokens,
	}, sys
}

// constantLore is the persona's constant lore, the same on every turn.
func constantLore(p Persona) []string {
	c, _ := heart.SelectLore(p.Lore, nil)
	return c
}

// loreScan lists the messages lore keys are matched against, newest first:
// the user's text, then the history's messages from the newest back, depth
// messages in all.
func loreScan(text string, hist []heart.HistoryTurn, depth int) []string {
	out := make([]string, 0, depth)
	out = append(out, text)
	for i := len(hist) - 1; i >= 0 && len(out) < depth; i-- {
		out = append(out, hist[i].Assistant)
		if len(out) < depth {
			out = append(out, hist[i].User)
		}
	}
	return out
}

// replyHints describe moment m for the offline brain, with the history the
// prompt kept (hist) and the memories it shows.
func (h *Handler) replyHints(m *moment, hist []heart.HistoryTurn) Hints {
	p, u := h.cfg.Persona, m.u
	var sharedWhat Shared
	if m.shared != nil {
		sharedWhat = *m.shared
	}
	return Hints{
		Shared: string(m.sharedKind), SharedWhat: sharedWhat,
		Language: p.Language, Persona: p.Name, User: u.Name, Text: m.text, Wordless: m.wordless, Turn: m.turnNo,
		Emotion: string(m.chosen), Felt: string(m.det.Emotion), Tone: m.strategy.Tone, MaxLength: m.strategy.MaxLength,
		EmojiAllowed: m.strategy.EmojiAllowed, ProactiveQuestion: m.strategy.ProactiveQuestion,
		Formality: m.strategy.Formality, Intent: string(m.perc.Intent), Sentiment: m.perc.Sentiment,
		Disclosure: string(m.perc.Disclosure), Mood: m.step.Mood, Lingering: string(m.ling.Label),
		RefusalAllowed: m.ling.RefusalAllowed, Relationship: string(m.rel.State), Watch: m.rel.Watch,
		Crisis: m.crisis, CrisisKind: string(m.kind), AskSafety: m.ask && !m.crisis, SafetyWhy: m.why && !m.crisis, SafetyRelief: m.relief, Concern: m.concern && !m.crisis, Risk: m.risk && !m.crisis, Decline: m.decline,
		Emergency: m.emergency, HelpHere: m.safe, Retracted: m.retracted, TalkCue: string(m.cue), InnerState: u.InnerState,
		Memories: shownMemories(m.mems, m.rel.Score, m.strategy.UseMemory, m.in.ChatKind == string(ChatGroup)),
		Recent:   historyMessages(hist), Now: m.now.In(h.loc),
		Recalled: recalledHints(m.recalled), Greeting: m.greeting, FollowUps: m.followUps,
		FirstMessages: firstMessagesHint(m.u, m.wish),
	}
}
