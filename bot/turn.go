package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hearth/heart"
	"hearth/store"
)

// Sizes of what a turn reads; hearth's choices, documented in the README.
const (
	// HistoryTurns is how many past turns of the chat are offered to the
	// prompt builder, which then fits them into PromptBudgetTokens.
	HistoryTurns = 30
	// PromptBudgetTokens bounds the reply prompt (DESIGN §3 step 7).
	PromptBudgetTokens = 6000
	// ReflectEvery is seed 004's "every 10 messages" reflection period.
	ReflectEvery = 10 // 004_dd92c72e713cef51.txt: 每 10 条消息异步触发一次反思
	// TypingInterval repeats the typing indicator; platforms expire it after
	// about 5 s (Telegram documents 5 s), so 4 s keeps it continuous.
	TypingInterval = 4 * time.Second
	// LastEmotionHold is how many keyword-less turns last_emotion survives
	// before the strategy returns to neutral (hearth's choice: a sad user is
	// met gently for a while, not forever).
	LastEmotionHold = 3
)

// turn runs DESIGN §3 for one stored message. Errors leave the message as
// received so the next start retries it; a reply is always produced once the
// turn reaches the reply step.
func (h *Handler) turn(ctx context.Context, in store.Inbound) error {
	start := time.Now()
	if !in.Addressed {
		// Group chatter the bot was not asked about: kept, not answered.
		return h.cfg.Store.SetInboundStatus(ctx, in.ID, store.StatusSkipped)
	}
	unlock := h.users.lock(in.UserID)
	defer unlock()

	now := h.cfg.Now()
	u, err := h.ensureUser(ctx, in, now)
	if err != nil {
		return err
	}
	text := strings.TrimSpace(in.Text)
	if name, args, ok := parseCommand(text); ok {
		return h.command(ctx, in, u, name, args, now)
	}
	if needle, all, ok := heart.ForgetRequest(text); ok {
		return h.forgetByWords(ctx, in, u, needle, all, now)
	}
	t, err := h.think(ctx, in, u, text, now)
	if err != nil {
		return err
	}
	ids, err := h.cfg.Store.CommitTurn(ctx, t)
	if err != nil {
		return fmt.Errorf("commit turn of %s: %w", u.ID, err)
	}
	h.obs.Turn(time.Since(start))
	h.deliverCommitted(ctx, t, ids)
	if t.User.Messages%ReflectEvery == 0 {
		h.reflect.trigger(u.ID)
	}
	return nil
}

// ensureUser loads the user of in, creating it (with the persona's inner
// state seed) on first contact and remembering a private chat.
func (h *Handler) ensureUser(ctx context.Context, in store.Inbound, now time.Time) (store.User, error) {
	name := in.UserName
	if name == "" {
		name = in.UserID
	}
	fresh := store.User{
		ID: in.UserID, Platform: in.Platform, Name: name, CreatedAt: now.UTC(),
		InnerState:   seedInnerState(h.cfg.Persona, name),
		Relationship: encodeRelationship(heart.NewRelationship(now)),
		Proactive:    true,
	}
	if in.ChatKind == string(ChatPrivate) {
		fresh.PrivateChatID = in.ChatID
	}
	// Most turns find the user as they were: read, and write only when the
	// user is new or their name or private chat changed.
	if u, ok, err := h.cfg.Store.User(ctx, in.UserID); err == nil && ok &&
		u.Name == name && (fresh.PrivateChatID == "" || u.PrivateChatID == fresh.PrivateChatID) {
		return u, nil
	}
	u, err := h.cfg.Store.EnsureUser(ctx, fresh)
	if err != nil {
		return u, fmt.Errorf("load user %s: %w", in.UserID, err)
	}
	return u, nil
}

// seedInnerState fills seed 004's inner_state_seed placeholders.
func seedInnerState(p Persona, user string) string {
	return strings.NewReplacer("{name}", p.Name, "{user}", user).Replace(p.InnerStateSeed)
}

// think runs detection, perception, mood, relationship, strategy, prompt and
// reply, and returns everything the turn will commit, what it says
// included. It holds no transaction: LLM calls happen here.
func (h *Handler) think(ctx context.Context, in store.Inbound, u store.User, text string, now time.Time) (store.Turn, error) {
	p := h.cfg.Persona
	turnNo := u.Messages + 1
	userText := text
	if userText == "" {
		userText = modalityPlaceholder(in.Modality)
	}

	// 2. Detect (seed 000).
	stage := time.Now()
	det := h.lex.Detect(userText)
	crisis := heart.CrisisText(userText)
	h.obs.Stage("detect", time.Since(stage))

	// Budget decides which brain answers this turn.
	brain, offline := h.brainFor(ctx, u.ID, now)

	// 3. Perceive (seed 001 L1).
	stage = time.Now()
	perc, usage := h.perceive(ctx, brain, offline, userText, det)
	crisis = crisis || perc.Crisis
	perc.Crisis = crisis
	h.obs.Stage("perceive", time.Since(stage))
	usages := usage

	// 4. Mood physics (seed 001 §3-5), with the "consume Power" allowance.
	decline := false
	if perc.Intent == heart.RequestNSFW || perc.Intent == heart.Invitation {
		decline = h.powerSpent(ctx, u.ID, perc.Intent, now)
	}
	step := heart.StepMood(u.Mood, toIntents(u.LastIntents), perc, h.char)

	// 5. Relationship (seed 003).
	rel := decodeRelationship(u.Relationship, u.CreatedAt)
	// A strong emotion word is one the detector is sure of (seed 000's top
	// confidence band); a crisis adds seed 003's Watch marker signal.
	signals := heart.TextSignals(userText, perc, det.Confidence >= heart.ConfidenceMany)
	for i := range signals {
		if signals[i].Modality == "" || signals[i].Modality == heart.ModalityText {
			signals[i].Modality = in.Modality
		}
	}
	rel, events := rel.Apply(now, h.loc, signals, true)

	// 6. Strategy (seed 000), current turn first.
	chosen := heart.ChooseEmotion(det, heart.Emotion(u.LastEmotion))
	strategy := heart.StrategyFor(chosen)
	if crisis {
		strategy = crisisStrategy()
	}

	// Lingering emotion (seed 002) from stored episodes.
	stage = time.Now()
	ling, err := h.lingering(ctx, u.ID, now)
	if err != nil {
		return store.Turn{}, err
	}
	if crisis {
		ling.RefusalAllowed, ling.RefusalBias, ling.Cooperation = false, 0, 1
	}
	h.obs.Stage("lingering", time.Since(stage))

	// 7. Prompt.
	stage = time.Now()
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		return store.Turn{}, fmt.Errorf("memories of %s: %w", u.ID, err)
	}
	hist, err := h.cfg.Store.ChatHistory(ctx, in.Platform, in.ChatID, HistoryTurns)
	if err != nil {
		return store.Turn{}, fmt.Errorf("history of %s/%s: %w", in.Platform, in.ChatID, err)
	}
	prompt := heart.BuildReplyPrompt(heart.PromptInput{
		PersonaName: p.Name, PersonaText: personaText(p), Language: p.Language, UserName: u.Name,
		InnerState: u.InnerState, RelationshipState: string(rel.State),
		RelationshipRules: heart.RelationshipRules(rel.State, p.Language),
		Wellbeing:         wellbeing(rel, p.Language),
		Mood:              step.Mood, Lingering: ling, Strategy: strategy,
		Memories:  memoryLines(mems, rel.Score),
		GroupChat: in.ChatKind == string(ChatGroup),
		Scratch:   u.Scratch,
		Safety:    safetyLines(p, crisis, decline, perc.Intent),
		History:   historyTurns(hist), BudgetTokens: PromptBudgetTokens,
	})
	msgs := make([]ChatMessage, 0, 2+2*len(prompt.History))
	msgs = append(msgs, ChatMessage{Role: "system", Content: KindReply.Marker() + "\n" + prompt.System})
	for _, t := range prompt.History {
		msgs = append(msgs, ChatMessage{Role: "user", Content: t.User}, ChatMessage{Role: "assistant", Content: t.Assistant})
	}
	msgs = append(msgs, ChatMessage{Role: "user", Content: heart.NeutraliseMarkers(userText)})
	h.obs.Stage("prompt", time.Since(stage))

	// 8. Reply, with the typing indicator running until it is out.
	hints := Hints{
		Language: p.Language, Persona: p.Name, User: u.Name, Text: userText, Turn: turnNo,
		Emotion: string(chosen), Felt: string(det.Emotion), Tone: strategy.Tone, MaxLength: strategy.MaxLength,
		EmojiAllowed: strategy.EmojiAllowed, ProactiveQuestion: strategy.ProactiveQuestion,
		Formality: strategy.Formality, Intent: string(perc.Intent), Sentiment: perc.Sentiment,
		Mood: step.Mood, Lingering: string(ling.Label), RefusalAllowed: ling.RefusalAllowed,
		Relationship: string(rel.State), Crisis: crisis, Decline: decline, InnerState: u.InnerState,
	}
	stage = time.Now()
	stopTyping := h.typing(ctx, in)
	reply, trailer, usage := h.reply(ctx, brain, offline, Request{Kind: KindReply, Messages: msgs, Hints: hints})
	stopTyping()
	usages = append(usages, usage...)
	h.obs.Stage("reply", time.Since(stage))

	// 9. Persist: state, episode, memories, ledger, in one transaction.
	refl, trailerErr := heart.ParseTrailer([]byte(trailer))
	u.Messages = turnNo
	u.Mood = step.Mood
	u.LastIntents = fromIntents(step.Intents)
	u.EmotionHistory = appendEmotion(u.EmotionHistory, det, turnNo)
	u.LastEmotion = string(nextLastEmotion(u.EmotionHistory, det, chosen))
	u.LastUserAt, u.LastBotAt = in.At, now.UTC()
	u.Unreachable = false // they wrote, so they can be reached again
	if in.ChatKind == string(ChatPrivate) {
		u.PrivateChatID = in.ChatID
	}
	ep := store.Episode{
		UserID: u.ID, Platform: in.Platform, ChatID: in.ChatID, InboundID: in.ID,
		UserText: userText, ReplyText: reply, At: now.UTC(),
		Intent: string(perc.Intent), Sentiment: perc.Sentiment,
	}
	var memWrites []store.Memory
	if trailerErr == nil {
		ep.HasValues = true
		ep.Label, ep.Intensity, ep.Salience, ep.Confidence = string(refl.Label), refl.Intensity, refl.Salience, refl.Confidence
		ep.TopicTags = refl.TopicTags
		if refl.Scratch != "" {
			u.Scratch = refl.Scratch
		}
		for _, m := range refl.Remember {
			if permanent(mems, m.Slot) {
				continue // seed 003 §8.1: what the user asked to keep is not overwritten
			}
			memWrites = append(memWrites, store.Memory{
				UserID: u.ID, Slot: m.Slot, Content: m.Content,
				Retention: string(heart.ClassifyRetention(m.Slot, m.Content)),
				CreatedAt: now.UTC(), UpdatedAt: now.UTC(),
			})
		}
	} else if trailer != "" {
		h.log.Warn("reply trailer unreadable; episode stored without values", "user", u.ID, "err", trailerErr)
	}
	u.Relationship = encodeRelationship(rel)

	res := store.Turn{
		InboundID: in.ID, User: u, Episode: ep, Memories: memWrites,
		Signals: storeSignals(u.ID, now, signals), Usage: storeUsage(u.ID, now, usages),
		Daily: &store.DailyPoint{UserID: u.ID, Day: now.In(h.loc).Format(time.DateOnly), Mood: step.Mood, Affinity: rel.Score},
	}
	chat := ChatRef{Platform: in.Platform, ChatID: in.ChatID, Kind: ChatKind(in.ChatKind)}
	res.Reply = h.outbound(u.ID, chat, "reply", in.ID, reply, now)
	if crisis {
		res.Extra = append(res.Extra, *h.outbound(u.ID, chat, "crisis", in.ID, h.crisisResources(), now))
	}
	if !crisis && in.ChatKind == string(ChatPrivate) && h.breakDue(ctx, u, rel, now) {
		res.Extra = append(res.Extra, *h.outbound(u.ID, chat, "wellbeing", in.ID, heart.DependencyMessage(2, p.Language), now))
		res.Signals = append(res.Signals, store.Signal{UserID: u.ID, At: now.UTC(), Tag: signalBreak})
	}
	for _, ev := range events {
		h.alertOperators(u, ev, now, &res)
	}
	return res, nil
}

// permanent reports whether slot holds a permanent memory: an explicit
// /remember or a deep disclosure, which a reply's trailer never overwrites.
func permanent(mems []store.Memory, slot int) bool {
	for _, m := range mems {
		if m.Slot == slot {
			return m.Retention == string(heart.RetentionPermanent)
		}
	}
	return false
}

// outbound builds a pending ledger entry.
func (h *Handler) outbound(userID string, chat ChatRef, kind string, inboundID int64, text string, now time.Time) *store.Outbound {
	return &store.Outbound{
		Platform: chat.Platform, ChatID: chat.ChatID, ChatKind: string(chat.Kind), UserID: userID,
		Kind: kind, InboundID: inboundID, Text: text, Status: store.OutboundPending, CreatedAt: now.UTC(),
	}
}

// deliverCommitted sends, in order, what t enqueued in the ledger, by the
// ids CommitTurn returned. Delivery failures stay pending in the ledger and
// are retried; they never undo the turn.
func (h *Handler) deliverCommitted(ctx context.Context, t store.Turn, ids []int64) {
	outs := t.Extra
	if t.Reply != nil {
		outs = append([]store.Outbound{*t.Reply}, t.Extra...)
	}
	for i, o := range outs[:min(len(outs), len(ids))] {
		o.ID = ids[i]
		if err := h.deliver(ctx, o); err != nil {
			h.log.Warn("not delivered yet; will retry", "outbound", o.ID, "err", err)
		}
	}
}

// TypingTimeout bounds the first typing indicator, which always completes
// (a fast reply must not cancel it before it reaches the platform).
const TypingTimeout = 3 * time.Second

// typing shows the typing indicator now and every TypingInterval until the
// returned stop is called. stop waits for the first indicator, so it reaches
// the platform before the reply does.
func (h *Handler) typing(ctx context.Context, in store.Inbound) (stop func()) {
	sender, ok := h.cfg.Senders[in.Platform]
	if !ok {
		return func() {}
	}
	chat := ChatRef{Platform: in.Platform, ChatID: in.ChatID, Kind: ChatKind(in.ChatKind)}
	ctx, cancel := context.WithCancel(ctx)
	first := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		show := func(ctx context.Context) {
			if err := sender.Typing(ctx, chat); err != nil && ctx.Err() == nil {
				h.log.Debug("typing indicator", "err", err)
			}
		}
		firstCtx, cancelFirst := context.WithTimeout(context.WithoutCancel(ctx), TypingTimeout)
		show(firstCtx)
		cancelFirst()
		close(first)
		t := time.NewTicker(TypingInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				show(ctx)
			}
		}
	}()
	return func() { <-first; cancel(); <-done }
}

func modalityPlaceholder(modality string) string {
	switch Modality(modality) {
	case ModalityPhoto:
		return "[photo]"
	case ModalityVoice:
		return "[voice message]"
	case ModalitySticker:
		return "[sticker]"
	default:
		return "[attachment]"
	}
}
