package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"hearth/heart"
	"hearth/store"
)

// Commands are the user commands of DESIGN §8, the same on every transport.
var commandNames = []string{"start", "help", "me", "why", "memories", "remember", "forget", "export", "quiet", "privacy", "contact", "report"}

// CommandInfo describes one user command for transports' command menus.
type CommandInfo struct {
	Name        string
	Description string
	Arg         string // the argument's name, "" when none
}

var commandDescriptions = map[string][3]string{ // en, zh, ja
	"start":    {"Say hello", "打个招呼", "あいさつ"},
	"help":     {"What I can do", "我能做什么", "できること"},
	"me":       {"Our relationship and your mood", "我们的关系和你的心情", "わたしたちの関係と気分"},
	"why":      {"Why I feel this way now", "我现在为什么是这样", "いまの気持ちの理由"},
	"memories": {"What I remember about you", "我记得的关于你的事", "覚えていること"},
	"remember": {"Ask me to remember something", "让我记住一件事", "覚えてほしいこと"},
	"forget":   {"Delete a memory, or all", "删除一条或全部记忆", "記憶を削除する"},
	"export":   {"Everything stored about you", "导出关于你的全部数据", "あなたの全データ"},
	"quiet":    {"No messages from me first", "不要主动给我发消息", "わたしから話しかけない"},
	"privacy":  {"Privacy settings", "隐私设置", "プライバシー設定"},
	"contact":  {"Emergency contact, with your consent", "紧急联系人（需你同意）", "緊急連絡先（同意のうえで）"},
	"report":   {"Tell the operator something is wrong", "向运营者报告问题", "運営者に報告する"},
}

var commandArgs = map[string]string{"remember": "text", "forget": "n", "quiet": "duration", "privacy": "setting", "contact": "who", "report": "text"}

// Commands lists the user commands with descriptions in lang.
func Commands(lang string) []CommandInfo {
	i := langIndex(lang)
	out := make([]CommandInfo, 0, len(commandNames))
	for _, n := range commandNames {
		out = append(out, CommandInfo{Name: n, Description: commandDescriptions[n][i], Arg: commandArgs[n]})
	}
	return out
}

func langIndex(lang string) int {
	switch lang {
	case "zh":
		return 1
	case "ja":
		return 2
	}
	return 0
}

// parseCommand splits "/name args" (also "/name@bot args"). Only the known
// commands are commands; anything else starting with "/" is still a command
// (answered with help), so typos never run a turn.
func parseCommand(text string) (name, args string, ok bool) {
	if !strings.HasPrefix(text, "/") || len(text) < 2 {
		return "", "", false
	}
	head, rest, _ := strings.Cut(text[1:], " ")
	if i := strings.IndexByte(head, '@'); i >= 0 {
		head = head[:i]
	}
	if head == "" || !isWord(head) {
		return "", "", false
	}
	return strings.ToLower(head), strings.TrimSpace(rest), true
}

func isWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return false
		}
	}
	return true
}

// command answers one user command. Commands do not count as messages and
// run no LLM call; their answers go through the ledger like any reply.
func (h *Handler) command(ctx context.Context, in store.Inbound, u store.User, name, args string, now time.Time) error {
	lang := h.cfg.Persona.Language
	var (
		out     Outgoing
		signals []heart.RelationshipSignal
		err     error
	)
	switch name {
	case "start":
		out.Text = startGreeting(h.cfg.Persona, u, now)
	case "help":
		out.Text = text0(lang, msgHelp)
	case "me":
		out, err = h.meCard(ctx, u, now)
	case "why":
		out.Text, err = h.why(ctx, u, now)
	case "memories":
		out.Text, err = h.listMemories(ctx, u)
	case "remember":
		out.Text, err = h.remember(ctx, u, args, now)
	case "forget":
		out.Text, signals, err = h.forgetCommand(ctx, &u, args)
	case "export":
		out, err = h.exportFile(ctx, u)
	case "quiet":
		wasOn := u.Proactive
		out.Text, _ = h.quiet(&u, args, now)
		if wasOn && !u.Proactive {
			// Seed 003 §2.3 "关闭了AI主动消息功能": only the real switch-off
			// is the boundary signal (a timed pause is not), once a month.
			signals = append(signals, heart.FeedbackSignal(heart.SignalBoundary))
		}
	case "privacy":
		var off bool
		out, off, err = h.privacy(ctx, &u, args, now)
		if off {
			signals = append(signals, heart.FeedbackSignal(heart.SignalBoundary))
		}
	case "contact":
		out, err = h.contactCommand(ctx, &u, args)
	case "report":
		out.Text = text0(lang, msgReported)
		signals = append(signals, heart.FeedbackSignal(heart.SignalReport))
		h.log.Error("user report", "user", u.ID, "text", args) // the review alert follows
	default:
		out.Text = text0(lang, msgUnknownCommand)
	}
	if err != nil {
		return err
	}
	return h.commitAnswer(ctx, in, u, signals, "command", out, now)
}

// exportFile is /export's answer: everything stored about u, as a JSON
// file.
func (h *Handler) exportFile(ctx context.Context, u store.User) (Outgoing, error) {
	ex, err := h.cfg.Store.Export(ctx, u.ID)
	if err != nil {
		return Outgoing{}, fmt.Errorf("export %s: %w", u.ID, err)
	}
	data, err := json.MarshalIndent(ex, "", "  ")
	if err != nil {
		return Outgoing{}, fmt.Errorf("export %s: %w", u.ID, err)
	}
	return Outgoing{
		Text:     text0(h.cfg.Persona.Language, msgExport),
		Document: &File{Name: "hearth-export.json", MIME: "application/json", Data: data},
	}, nil
}

// startGreeting is /start's answer: the persona's first message, or in
// turn its alternate greetings (Character Card alternate_greetings), with
// {{user}} filled; hearth's own greeting when the persona has none. A
// user's first /start always gets the first message; later ones rotate
// with the days known and the messages exchanged, so no store is needed.
func startGreeting(p Persona, u store.User, now time.Time) string {
	var gs []string
	for _, g := range append([]string{p.FirstMessage}, p.AlternateGreetings...) {
		if strings.TrimSpace(g) != "" {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 {
		return text0(p.Language, msgStart, p.Name)
	}
	days := max(0, int(now.Sub(u.CreatedAt)/(24*time.Hour)))
	return WithUser(gs[(days+u.Messages)%len(gs)], u.Name)
}

// commitAnswer commits a non-turn answer: the user's changed state, any
// feedback signals (seed 003 §2.3) applied to the relationship, the inbound
// marked answered and the answer in the ledger, then delivers it.
func (h *Handler) commitAnswer(ctx context.Context, in store.Inbound, u store.User, signals []heart.RelationshipSignal, kind string, out Outgoing, now time.Time) error {
	var events []heart.RelationshipEvent
	if len(signals) > 0 {
		rel := decodeRelationship(u)
		signals = rel.Admit(now, h.loc, signals)
		rel, events = rel.Apply(now, h.loc, signals, false)
		u.Relationship = encodeRelationship(rel)
	}
	o, err := encodeOutgoing(out)
	if err != nil {
		return err
	}
	chat := ChatRef{Platform: in.Platform, ChatID: in.ChatID, Kind: ChatKind(in.ChatKind)}
	reply := h.outbound(u.ID, chat, kind, in.ID, o.Text, now)
	reply.Attachment = o.Attachment
	t := store.Turn{InboundID: in.ID, User: u, Reply: reply, Signals: storeSignals(u.ID, now, signals)}
	for _, ev := range events {
		h.alertOperators(u, ev, now, &t, "")
	}
	ids, err := h.cfg.Store.CommitTurn(ctx, t)
	if err != nil {
		return fmt.Errorf("commit %s for %s: %w", kind, u.ID, err)
	}
	h.deliverCommitted(ctx, t, ids)
	return nil
}

func (h *Handler) listMemories(ctx context.Context, u store.User) (string, error) {
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		return "", fmt.Errorf("memories of %s: %w", u.ID, err)
	}
	lang := h.cfg.Persona.Language
	if len(mems) == 0 {
		return text0(lang, msgMemoriesEmpty), nil
	}
	var b strings.Builder
	b.WriteString(text0(lang, msgMemoriesHeader))
	for _, m := range mems {
		fmt.Fprintf(&b, "\n%d. %s", m.Slot, m.Content)
	}
	return b.String(), nil
}

// Memory slot ranges of seed 004 (004_dd92c72e713cef51.txt 关系记忆); heart
// owns what the ranges mean.
const (
	SlotFactsFirst = heart.SlotFactsFirst // 0-9: facts about the user
	SlotFactsLast  = heart.SlotFactsLast
	SlotFreeFirst  = 40 // 40-99: left for the bot to fill
	SlotLast       = 99
)

// remember stores an explicit user instruction, which seed 003 §8.1 keeps
// permanently, in the first free fact slot, else the first free free slot.
func (h *Handler) remember(ctx context.Context, u store.User, text string, now time.Time) (string, error) {
	lang := h.cfg.Persona.Language
	text = strings.TrimSpace(text)
	if text == "" {
		return text0(lang, msgRememberUsage), nil
	}
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		return "", fmt.Errorf("memories of %s: %w", u.ID, err)
	}
	used := make(map[int]bool, len(mems))
	for _, m := range mems {
		used[m.Slot] = true
	}
	slot := -1
	for _, r := range [][2]int{{SlotFactsFirst, SlotFactsLast}, {SlotFreeFirst, SlotLast}} {
		for s := r[0]; s <= r[1] && slot < 0; s++ {
			if !used[s] {
				slot = s
			}
		}
	}
	if slot < 0 {
		return text0(lang, msgMemoriesFull), nil
	}
	m := store.Memory{UserID: u.ID, Slot: slot, Content: text, Retention: string(heart.RetentionPermanent), CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
	if err := h.cfg.Store.PutMemory(ctx, m); err != nil {
		return "", fmt.Errorf("remember for %s: %w", u.ID, err)
	}
	return text0(lang, msgRemembered, slot), nil
}

// quiet applies /quiet [DURATION|off] to u. It reports whether args parsed.
func (h *Handler) quiet(u *store.User, args string, now time.Time) (string, bool) {
	lang := h.cfg.Persona.Language
	switch {
	case args == "":
		u.Proactive, u.QuietUntil = false, time.Time{}
		return text0(lang, msgQuietOn), true
	case strings.EqualFold(args, "off"):
		u.Proactive, u.QuietUntil = true, time.Time{}
		return text0(lang, msgQuietOff), true
	}
	d, err := ParseDuration(args)
	if err != nil || d <= 0 {
		return text0(lang, msgQuietUsage), false
	}
	u.Proactive, u.QuietUntil = true, now.Add(d).UTC()
	return text0(lang, msgQuietUntil, now.Add(d).In(h.loc).Format("2006-01-02 15:04 MST")), true
}

// ParseDuration is time.ParseDuration plus a "d" unit for days ("2d", "1d12h").
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return 0, fmt.Errorf("duration %q: %w", s, err)
		}
		days = time.Duration(n * float64(24*time.Hour))
		s = s[i+1:]
		if s == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("duration %q: %w", s, err)
	}
	return days + d, nil
}
