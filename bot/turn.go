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
	// HistoryTurns is the most past turns of a chat the reply prompt shows;
	// past it, the oldest heart.HistoryBlockTurns leave at once (see
	// historyWindow), and the prompt builder fits what is left into
	// PromptBudgetTokens, again a block at a time.
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
	in, why, err := h.hear(ctx, in)
	if err != nil {
		return err
	}
	if !in.Addressed {
		// Group chatter the bot was not asked about: kept, not answered.
		return h.cfg.Store.SetInboundStatus(ctx, in.ID, store.StatusSkipped)
	}
	unlock := h.users.lock(in.UserID)
	defer unlock()

	now := h.cfg.Now()
	u, seen, err := h.userOf(ctx, in, now)
	if err != nil {
		return err
	}
	text := strings.TrimSpace(in.Text)
	if answer := h.notATurn(in, why, text); answer != nil {
		// These answers write without a turn's commit: the user is stored first.
		if seen != userStored {
			if u, err = h.cfg.Store.EnsureUser(ctx, u); err != nil {
				return fmt.Errorf("store user %s: %w", in.UserID, err)
			}
		}
		return answer(ctx, u, now)
	}
	t, err := h.think(ctx, in, u, seen == userNew, text, now)
	if err != nil {
		return err
	}
	t.NewUser = seen == userNew
	ids, err := h.cfg.Store.CommitTurn(ctx, t)
	if err != nil {
		return fmt.Errorf("commit turn of %s: %w", u.ID, err)
	}
	h.tallied(t)
	h.obs.Turn(time.Since(start))
	h.deliverCommitted(ctx, t, ids)
	if t.User.Messages%ReflectEvery == 0 {
		h.reflect.trigger(u.ID)
	}
	return nil
}

// notATurn is the answer to a message that is no conversation turn: a
// voice note not heard, a command, or a request to forget; nil otherwise.
func (h *Handler) notATurn(in store.Inbound, why unheard, text string) func(context.Context, store.User, time.Time) error {
	if why != heardOK && text == "" {
		return func(ctx context.Context, u store.User, now time.Time) error {
			return h.answerUnheard(ctx, in, u, why, now)
		}
	}
	if name, args, ok := parseCommand(text); ok {
		return func(ctx context.Context, u store.User, now time.Time) error {
			return h.command(ctx, in, u, name, args, now)
		}
	}
	if needle, all, ok := heart.ForgetRequest(text); ok {
		return func(ctx context.Context, u store.User, now time.Time) error {
			return h.forgetByWords(ctx, in, u, needle, all, now)
		}
	}
	return nil
}

// userSeen says how the user userOf returns compares with the stored row.
type userSeen int

const (
	userStored  userSeen = iota // as stored
	userChanged                 // a new name or private chat, not yet stored
	userNew                     // first contact: not stored at all
)

// userOf returns the user of in as this turn sees them: the stored row with
// the name and private chat of in, or on first contact a new user with the
// persona's inner state seed. A turn's commit stores either (a new user in
// the same transaction as their first turn), so most turns write no user
// of their own.
func (h *Handler) userOf(ctx context.Context, in store.Inbound, now time.Time) (store.User, userSeen, error) {
	name := in.UserName
	if name == "" {
		name = in.UserID
	}
	private := ""
	if in.ChatKind == string(ChatPrivate) {
		private = in.ChatID
	}
	u, ok, err := h.cfg.Store.User(ctx, in.UserID)
	if err != nil {
		return u, userStored, fmt.Errorf("load user %s: %w", in.UserID, err)
	}
	if !ok {
		return store.User{
			ID: in.UserID, Platform: in.Platform, Name: name, CreatedAt: now.UTC(),
			InnerState:   seedInnerState(h.cfg.Persona, name),
			Relationship: encodeRelationship(heart.NewRelationship(now.UTC())),
			Proactive:    true, PrivateChatID: private,
		}, userNew, nil
	}
	seen := userStored
	if u.Name != name {
		u.Name, seen = name, userChanged
	}
	if private != "" && u.PrivateChatID != private {
		u.PrivateChatID, seen = private, userChanged
	}
	return u, seen, nil
}

// seedInnerState fills seed 004's inner_state_seed placeholders {name} and
// {user} in one pass, as a strings.Replacer would (a name that holds
// "{user}" stays as it is), without building one per new user.
func seedInnerState(p Persona, user string) string {
	var b strings.Builder
	for s := p.InnerStateSeed; ; {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		switch s = s[i:]; {
		case strings.HasPrefix(s, "{name}"):
			b.WriteString(p.Name)
			s = s[len("{name}"):]
		case strings.HasPrefix(s, "{user}"):
			b.WriteString(user)
			s = s[len("{user}"):]
		default:
			b.WriteByte('{')
			s = s[1:]
		}
	}
}

// moment is what the stages of one turn share: the stored message and user
// as they were, and what each stage decided. Each stage reads what earlier
// ones wrote and adds its own part; think orders them.
type moment struct {
	in    store.Inbound
	u     store.User // as loaded; record writes the new state into a copy
	first bool       // first contact: nothing of the user's is stored yet
	text  string     // the user's text (a placeholder for media without text)
	// wordless: the user sent media alone (a photo, a voice note not
	// heard, a file); text is its placeholder, not their words.
	wordless bool
	now      time.Time
	turnNo   int

	det    heart.Detection
	crisis bool                 // a crisis turn: answered in full, past any limit
	kind   heart.CrisisCategory // what the crisis floor (or only the model) found
	// ask: a concern in a talk at risk; the reply asks directly about
	// suicide (heart.Relationship.ReadSafety). relief: the answer to that was no.
	// concern: a concern in a light talk, met with care. why: the user
	// asked why she asked; she says why and asks again. risk: a warning
	// sign short of all these, in the message or its talk: no cheer,
	// praise or agreement. talk: the crisis, question or concern came from
	// the message read with the earlier ones of its talk.
	ask, relief, concern, why bool
	risk, talk                bool
	// The crisis talk's state (heart.SafetyReading): emergency, an
	// attempt under way earlier in this talk and no word yet that help is
	// there, so the reply stays an emergency reply; safe, this message
	// says help is there; retracted, it took back a light talk's joke.
	// cue is what the message says to her in a crisis talk.
	emergency, safe, retracted bool
	cue                        heart.TalkCue
	// read is the crisis floor's reading of the message. card: the crisis
	// resources follow the reply (heart.Relationship.CrisisTalkTurn: once
	// a crisis talk, again when it gets worse, with an attempt, or when
	// asked). calm: no crisis, question or concern, and no crisis talk
	// going on, so a limit notice a crisis turn held back may be said.
	read       heart.CrisisReading
	card, calm bool
	brain      Brain
	offline    bool
	perc       heart.Perception
	usages     []spent

	decline  bool
	wish     heart.FirstMessages // what they asked about her writing first (firstMessages)
	step     heart.MoodStep
	rel      heart.Relationship // as stored until feel applies this turn's signals
	events   []heart.RelationshipEvent
	signals  []heart.RelationshipSignal
	chosen   heart.Emotion
	strategy heart.Strategy
	ling     heart.Lingering
	mems     []store.Memory

	// What the recall stage found (DESIGN §12 "Recall"): the chat's
	// history window, the recollections, and for a user back after a
	// while the seed 003 §7.1 greeting and its context note.
	eps        []store.Episode
	recalled   []recollection
	greeting   string
	heavy      heart.RecallCandidate // the heavy topic the greeting asks after, if any
	returnNote string
	followUps  []FollowUp // the follow-up this reply asks after (askAfter)

	reply, trailer string

	// The senses (DESIGN §12): the photo shown to the model, what she could
	// not perceive, the spoken reply and what these cost.
	images   []string
	unsensed Modality
	file     MediaRef // a file she could not open, for the model's note
	tooLarge bool     // the photo she could not see is larger than MaxPhotoBytes
	// A location, contact, poll or dice the user shared, cleaned.
	shared     *Shared
	sharedKind Modality
	voice      *Voice
	mediaUse   []store.Usage
}

// urgent reports whether m is answered first and in full, past any
// limit, as text, with no follow-up asked after: a crisis turn, or any
// message of a talk with an attempt under way.
func (m *moment) urgent() bool { return m.crisis || m.emergency }

// cardKind is the category the crisis card is decided by
// (heart.Relationship.CrisisTalkTurn): in a talk with an attempt under
// way, the attempt the talk's rules read again into a later line ("dont
// call anyone" after the pills) is the same emergency, not a new one, so
// only the message's own words or a request for the numbers bring the
// card again; the short emergency reply already names the number.
func (m *moment) cardKind() heart.CrisisCategory {
	if m.emergency && !m.read.Floor().Emergency() {
		return heart.CrisisNone
	}
	return m.kind
}

// think runs detection, perception, mood, relationship, strategy, prompt and
// reply, and returns everything the turn will commit, what it says
// included. It holds no transaction: LLM calls happen here.
func (h *Handler) think(ctx context.Context, in store.Inbound, u store.User, first bool, text string, now time.Time) (store.Turn, error) {
	m := &moment{in: in, u: u, first: first, text: text, now: now, turnNo: u.Messages + 1}
	if first { // the fresh relationship userOf encoded: no need to decode it
		m.rel = heart.NewRelationship(u.CreatedAt)
	} else {
		m.rel = decodeRelationship(u)
	}
	m.describeShared()
	if m.text == "" {
		m.text, m.wordless = modalityPlaceholder(in.Modality), true
	}
	h.detect(ctx, m)
	if t, ok := h.pastLimit(ctx, m); ok {
		return t, nil // seed 003's daily limit: a kind boundary, no model call
	}
	m.brain, m.offline = h.brainFor(ctx, u.ID, now) // the budget decides which brain answers
	past := h.readPast(ctx, m)                      // the store's part of recall runs beside perception
	defer past.wait()
	h.perceiveStage(ctx, m)
	h.feel(ctx, m)
	if err := h.linger(ctx, m); err != nil {
		return store.Turn{}, err
	}
	if err := h.recall(ctx, m, past); err != nil {
		return store.Turn{}, err
	}
	h.askAfter(ctx, m)
	h.look(ctx, m)
	req := h.compose(ctx, m)
	m.senseRequest(&req)
	h.speak(ctx, m, req)
	h.speakReply(ctx, m)
	return m.sensed(h.record(ctx, m)), nil
}

// detect is DESIGN §3 step 2 (seed 000) and the crisis floor, which never
// depends on the model, read in the talk's context: its concern tier in a
// talk at risk, warning signs that add up over the user's earlier messages
// of the talk (read from the store only when the message could mean more
// with them), and the answer to a direct question asked before.
func (h *Handler) detect(ctx context.Context, m *moment) {
	stage := time.Now()
	m.det = h.lex.Detect(m.text)
	read := heart.ReadCrisis(m.text)
	hist, since := heartHistory(m.u.EmotionHistory), m.now.Sub(m.u.LastUserAt)
	var earlier []heart.TalkLine
	if !m.first && m.rel.NeedsTalk(read, hist, since, m.now) {
		earlier = h.talkLines(ctx, m.u.ID, m.now)
	}
	var s heart.SafetyReading
	s, m.rel = m.rel.ReadSafetyInTalk(read, earlier, hist, since, m.now)
	m.kind, m.ask, m.relief, m.concern, m.why, m.risk, m.talk = s.Kind, s.Ask, s.Relief, s.Concern, s.Why, s.Risk, s.Talk
	m.emergency, m.safe, m.retracted, m.cue = s.Emergency, s.Safe, s.Retracted, s.Cue
	m.crisis = m.kind != heart.CrisisNone
	m.read = read
	h.obs.Stage("detect", time.Since(stage))
}

// talkLines are the user's messages before now that the crisis floor may
// read a message with (heart.Relationship.ReadSafetyInTalk), oldest first,
// with the category each turn was read as. A store error leaves the
// message read alone, as before the talk was read: the floor's own words
// still stand, and the turn goes on.
func (h *Handler) talkLines(ctx context.Context, userID string, now time.Time) []heart.TalkLine {
	eps, err := h.cfg.Store.UserEpisodes(ctx, userID, now.Add(-heart.CrisisTalkMessages*heart.RiskTalkGap), heart.CrisisTalkMessages)
	if err != nil {
		h.log.Warn("crisis floor read without the talk", "user", userID, "err", err)
		return nil
	}
	lines := make([]heart.TalkLine, 0, len(eps))
	for _, e := range eps {
		if e.UserText != "" {
			lines = append(lines, heart.TalkLine{Text: e.UserText, At: e.At, Crisis: heart.CrisisCategory(e.Crisis)})
		}
	}
	return lines
}

// perceiveStage is DESIGN §3 step 3 (seed 001 L1); the model's crisis flag
// adds to the crisis floor's, never replaces it.
func (h *Handler) perceiveStage(ctx context.Context, m *moment) {
	stage := time.Now()
	perc, usage := h.perceive(ctx, m.brain, m.offline, m.text, m.det)
	if perc.Crisis && !m.crisis && !m.emergency { // an emergency talk's reply is already the most urgent
		m.kind = heart.CrisisModel
		m.ask, m.rel.SafetyAsked = false, time.Time{} // the crisis turn says more than the question
	}
	m.crisis = m.crisis || perc.Crisis
	perc.Crisis = m.crisis
	m.perc, m.usages = perc, append(m.usages, usage...)
	h.obs.Stage("perceive", time.Since(stage))
}

// feel is DESIGN §3 steps 4-6: mood physics (seed 001) with the "consume
// Power" allowance, the relationship (seed 003) and the strategy (seed 000,
// current turn first).
func (h *Handler) feel(ctx context.Context, m *moment) {
	if m.perc.Intent == heart.RequestNSFW || m.perc.Intent == heart.Invitation {
		m.decline = h.powerSpent(ctx, m.u.ID, m.perc.Intent, m.now)
	}
	m.step = heart.StepMood(m.u.Mood, toIntents(m.u.LastIntents), m.perc, h.char)

	rel := m.rel
	// Seed 003 §2.1 by the detected feeling; a crisis adds the Watch marker
	// signal. Admit drops what must not count twice (a second deep
	// disclosure the same day).
	m.signals = rel.Admit(m.now, h.loc, append(heart.TextSignals(m.text, m.perc, m.det, m.kind), h.firstMessages(m)...))
	for i := range m.signals {
		if m.signals[i].Modality == "" || m.signals[i].Modality == heart.ModalityText {
			m.signals[i].Modality = m.in.Modality
		}
	}
	m.rel, m.events = rel.Apply(m.now, h.loc, m.signals, true)
	var ct heart.CrisisTurn
	ct, m.rel = m.rel.CrisisTalkTurn(m.read, m.cardKind(), m.ask, m.cue, m.now)
	m.card, m.calm = ct.Card, ct.Ordinary && !m.concern

	m.chosen = heart.ChooseEmotion(m.det, heart.Emotion(m.u.LastEmotion))
	m.strategy = heart.StrategyFor(m.chosen)
	if m.emergency {
		m.strategy = crisisStrategy(heart.CrisisAttempt)
	} else if m.crisis || m.ask {
		m.strategy = crisisStrategy(m.kind)
	} else if m.risk {
		m.strategy.EmojiAllowed = false // a warning sign is no place for a 🍵
	}
}

// linger is seed 002's lingering emotion, from the user's running sums
// (rebuilt from the store when not in memory); a crisis turn never refuses.
func (h *Handler) linger(ctx context.Context, m *moment) error {
	stage := time.Now()
	if m.first {
		h.tallies.put(m.u.ID, tally{exact: true, day: StartOfDay(m.now, h.loc)}) // no episodes to count
	}
	if err := h.loadTally(ctx, m.u.ID, m.now); err != nil {
		return err
	}
	ling, err := h.lingering(ctx, m.u.ID, m.now)
	if err != nil {
		return err
	}
	if m.crisis || m.ask {
		ling.RefusalAllowed, ling.RefusalBias, ling.Cooperation = false, 0, 1
	}
	m.ling = ling
	h.obs.Stage("lingering", time.Since(stage))
	return nil
}

// compose is DESIGN §3 step 7 in DESIGN §12's order: the reply prompt
// (static first, the history window, the context note last) and the
// offline brain's hints for the same situation.
func (h *Handler) compose(ctx context.Context, m *moment) Request {
	stage := time.Now()
	in, sys := h.promptInput(m, h.historyTurns(ctx, m.in, m.eps))
	prompt := heart.BuildReplyPrompt(in)
	h.window.keep(chatKey(m.in), m.eps, len(prompt.History))
	h.obs.Stage("prompt", time.Since(stage))
	return Request{Kind: KindReply, Messages: replyMessages(sys, prompt, m.text), Hints: h.replyHints(m, prompt.History)}
}

// speak is DESIGN §3 step 8: the reply, with the typing indicator running
// until it is out.
func (h *Handler) speak(ctx context.Context, m *moment, req Request) {
	stage := time.Now()
	req.CacheKey = CacheKey(h.cfg.Persona.Name, req.Kind, m.u.ID)
	stopTyping := h.typing(ctx, m.in)
	reply, trailer, usage := h.reply(ctx, h.replyBrain(m), m.offline, req)
	stopTyping()
	m.reply, m.trailer = reply, trailer
	m.usages = append(m.usages, usage...)
	h.obs.Stage("reply", time.Since(stage))
}

// record is DESIGN §3 step 9's content: the user's new state, the episode,
// memories, signals, usage and the ledger entries, for one transaction.
func (h *Handler) record(ctx context.Context, m *moment) store.Turn {
	p, u, in, now := h.cfg.Persona, m.u, m.in, m.now
	refl, trailerErr := heart.ParseTrailer([]byte(m.trailer))
	u.Messages = m.turnNo
	u.Mood = m.step.Mood
	u.LastIntents = fromIntents(m.step.Intents)
	felt := feltEmotion(m.det, m.crisis)
	u.EmotionHistory = appendEmotion(u.EmotionHistory, felt, m.turnNo)
	u.LastEmotion = string(nextLastEmotion(u.EmotionHistory, felt, m.chosen))
	u.LastUserAt, u.LastBotAt = in.At, now.UTC()
	u.Unreachable = false // they wrote, so they can be reached again
	if in.ChatKind == string(ChatPrivate) {
		u.PrivateChatID = in.ChatID
	}
	ep := store.Episode{
		UserID: u.ID, Platform: in.Platform, ChatID: in.ChatID, InboundID: in.ID,
		UserText: m.text, ReplyText: m.reply, At: now.UTC(),
		Intent: string(m.perc.Intent), Sentiment: m.perc.Sentiment, Crisis: string(m.kind), Modality: in.Modality,
		ChatKind: in.ChatKind, Disclosure: string(m.perc.Disclosure),
	}
	var memWrites []store.Memory
	if trailerErr == nil {
		ep.HasValues = true
		ep.Label, ep.Intensity, ep.Salience, ep.Confidence = string(refl.Label), refl.Intensity, refl.Salience, refl.Confidence
		ep.TopicTags = refl.TopicTags
		if refl.Scratch != "" {
			u.Scratch = refl.Scratch
		}
		for _, r := range refl.Remember {
			if old, ok := permanent(m.mems, r.Slot); ok && !strings.HasPrefix(r.Content, old) {
				continue // seed 003 §8.1: what the user asked to keep is not overwritten, only added to
			}
			memWrites = append(memWrites, store.Memory{
				UserID: u.ID, Slot: r.Slot, Content: r.Content,
				Retention: string(heart.ClassifyRetention(r.Slot, r.Content)),
				CreatedAt: now.UTC(), UpdatedAt: now.UTC(),
			})
		}
	} else if m.trailer != "" {
		h.log.Warn("reply trailer unreadable; episode stored without values", "user", u.ID, "err", trailerErr)
	}
	notice := h.heldNotice(ctx, m)
	u.Relationship = encodeRelationship(m.rel)
	wish := applyFirstMessages(&u, m.wish, p.Language)

	res := store.Turn{
		InboundID: in.ID, User: u, Episode: ep, Memories: memWrites,
		Recalled: recalledRefs(m.recalled), FollowUps: h.followUps(m, refl.FollowUps), AskedFollowUps: followUpIDs(m.followUps),
		Signals: storeSignals(u.ID, now, m.signals), Usage: storeUsage(u.ID, now, m.usages),
		Daily: &store.DailyPoint{UserID: u.ID, Day: now.In(h.loc).Format(time.DateOnly), Mood: m.step.Mood, Affinity: m.rel.Score},
	}
	chat := ChatRef{Platform: in.Platform, ChatID: in.ChatID, Kind: ChatKind(in.ChatKind)}
	res.Reply = h.outbound(u.ID, chat, "reply", in.ID, m.reply, now)
	if m.card {
		res.Extra = append(res.Extra, *h.outbound(u.ID, chat, "crisis", in.ID, h.crisisResources(), now))
	}
	if wish != "" && !m.urgent() && !m.card {
		res.Extra = append(res.Extra, *h.outbound(u.ID, chat, "notice", in.ID, wish, now))
	}
	if notice != "" && u.PrivateChatID != "" {
		private := ChatRef{Platform: u.Platform, ChatID: u.PrivateChatID, Kind: ChatPrivate}
		res.Extra = append(res.Extra, *h.outbound(u.ID, private, "wellbeing", in.ID, notice, now))
	}
	if !m.crisis && !m.ask && in.ChatKind == string(ChatPrivate) && !m.rel.LimitPaused(now, h.loc) {
		if lim, ok := h.limitReached(ctx, u.ID, m.rel, now); ok {
			res.Extra = append(res.Extra, *h.outbound(u.ID, chat, "wellbeing", in.ID, heart.LimitReachedMessage(lim.Reason, p.Language), now))
			res.Signals = append(res.Signals, store.Signal{UserID: u.ID, At: now.UTC(), Tag: signalBreak})
		}
	}
	h.wellbeingEvents(ctx, u, m.events, now, &res, m.crisis || m.ask)
	return res
}

// permanent returns what slot holds when it is a permanent memory: an
// explicit /remember or a deep disclosure, which a reply's trailer never
// overwrites. It may add to it: a second allergy kept beside the first
// ("Allergies to mind: Lily (peanut allergy); you (cat allergy)") keeps
// every word the slot held.
func permanent(mems []store.Memory, slot int) (string, bool) {
	for _, m := range mems {
		if m.Slot == slot {
			return m.Content, m.Retention == string(heart.RetentionPermanent)
		}
	}
	return "", false
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
		if err := h.deliver(ctx, o, committed); err != nil {
			h.log.Warn("not delivered yet; will retry", "outbound", o.ID, "err", err)
		}
	}
}

// TypingTimeout bounds the first typing indicator, which always completes
// (a fast reply must not cancel it before it reaches the platform).
const TypingTimeout = 3 * time.Second

// TypingDelay is how long a reply may take before the typing indicator
// shows (hearth's choice): a reply within it arrives before anyone could
// read "typing…", so the indicator would be a Bot API call that shows
// nothing (issue 15: one more request per message, on both ends). Slower
// than any offline reply, well under what a person notices after a
// model's delay.
const TypingDelay = 300 * time.Millisecond

// typing shows the typing indicator after TypingDelay and every
// TypingInterval after that, until the returned stop is called. stop waits
// for an indicator that has started, so it reaches the platform before the
// reply does.
func (h *Handler) typing(ctx context.Context, in store.Inbound) (stop func()) {
	sender, ok := h.cfg.Senders[in.Platform]
	if !ok {
		return func() {}
	}
	chat := ChatRef{Platform: in.Platform, ChatID: in.ChatID, Kind: ChatKind(in.ChatKind)}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	// A timer, not a goroutine waiting on one: most replies come before
	// TypingDelay, and then nothing ever runs.
	t := time.AfterFunc(TypingDelay, func() {
		defer close(done)
		show := func(ctx context.Context) {
			if err := sender.Typing(ctx, chat); err != nil && ctx.Err() == nil {
				h.log.Debug("typing indicator", "err", err)
			}
		}
		if ctx.Err() != nil {
			return // answered just as the delay ran out
		}
		firstCtx, cancelFirst := context.WithTimeout(context.WithoutCancel(ctx), TypingTimeout)
		show(firstCtx)
		cancelFirst()
		tick := time.NewTicker(TypingInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				show(ctx)
			}
		}
	})
	return func() {
		cancel()
		if !t.Stop() { // it started: wait until its indicator is out
			<-done
		}
	}
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
