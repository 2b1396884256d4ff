package bot

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"hearth/heart"
	"hearth/store"
)

// SemanticRecall finds a user's past by meaning (embeddings from the
// model server's /v1/embeddings, DESIGN §12 "Recall"). It is optional:
// without it, or when it fails, recall is the full-text index alone. It
// returns hits in the same scope rules as store.DB.Recall (never another
// user's, never a private one in a group scope), best first; Score is the
// similarity. It must return quickly: one query embedding on the reply
// path, with a short deadline of its own.
type SemanticRecall interface {
	Recall(ctx context.Context, q store.RecallQuery) ([]store.RecallHit, error)
}

// Recall on the reply path; hearth's choices.
const (
	// SemanticDeadline bounds the semantic search of one turn: one query
	// embedding (bot/semantic gives it 300 ms) and a scan of the user's
	// vectors. Past it the turn goes on with the full-text index alone:
	// recall must never hold a reply. It runs beside perception.
	SemanticDeadline = 400 * time.Millisecond
	// RecallFollowOnRunes: a question this short ("what was his name
	// again?", "还记得吗？", "何だっけ？") also searches for the user's
	// previous message, which may say what it is about; the two searches
	// are ranked as separate lists, so neither drowns the other. A short
	// remark ("haha", "good night") does not: it is about nothing earlier.
	RecallFollowOnRunes = 40
	// RecallBudgetTokens is the recollections' share of the reply prompt
	// (heart.RecollectionShare of PromptBudgetTokens).
	RecallBudgetTokens = int(heart.RecollectionShare * PromptBudgetTokens)
	// RecallCandidates is how many candidates a retrieval method returns
	// for ranking: several times heart.RecallMaxItems, so recency and
	// importance can reorder them, few enough to read quickly.
	RecallCandidates = 20
	// returnCandidates bounds the episodes read for a return's heavy topic.
	returnCandidates = 50
)

// semanticHealth is what the recall stage keeps between turns: whether
// the semantic search failing was already logged (once, until it works
// again).
type semanticHealth struct {
	down atomic.Bool
}

// recollection is one recalled thing and where it was said.
type recollection struct {
	heart.Recollection
	place heart.RecallPlace
}

// pastRead is the store's part of the recall stage, started as soon as
// the turn knows its message (readPast) so that it runs beside perception,
// an LLM call, instead of after it: the user's memories, the chat's
// history window and the retrieval methods' hits.
type pastRead struct {
	done  chan struct{}
	mems  []store.Memory
	eps   []store.Episode
	q     store.RecallQuery
	lists [][]store.RecallHit // full text (then for the previous message), then semantic
	err   error
}

// wait blocks until the read is done; it may be called more than once.
func (p *pastRead) wait() { <-p.done }

// readPast starts reading what recall needs for moment m. The goroutine
// reads only copies of the message and the user, never m, which other
// stages write meanwhile; the turn waits for it before it returns.
func (h *Handler) readPast(ctx context.Context, m *moment) *pastRead {
	p := &pastRead{done: make(chan struct{})}
	in, userID, text, first := m.in, m.u.ID, m.text, m.first
	if first && in.ChatKind != string(ChatGroup) {
		// Nothing of a first contact's own is stored (users are never
		// deleted, and whatever is kept of one is written with or after
		// their user row), and recall finds only their own words: in a
		// private chat there is nothing to read at all.
		close(p.done)
		return p
	}
	go func() {
		defer close(p.done)
		if first { // a group's shared history is all there is to read
			p.eps, p.err = h.recentTurns(ctx, in)
			return
		}
		if p.mems, p.err = h.cfg.Store.Memories(ctx, userID); p.err != nil {
			p.err = fmt.Errorf("memories of %s: %w", userID, p.err)
			return
		}
		if p.eps, p.err = h.recentTurns(ctx, in); p.err != nil {
			return
		}
		p.q = recallQuery(in, userID, text)
		var semantic chan []store.RecallHit
		if h.cfg.Semantic != nil {
			semantic = make(chan []store.RecallHit, 1)
			go func() { semantic <- h.semanticHits(ctx, p.q) }()
		}
		queries := []store.RecallQuery{p.q}
		if prev := previousWords(text, userID, p.eps); prev != "" {
			q := p.q
			q.Text = prev
			queries = append(queries, q)
		}
		for _, q := range queries {
			hits, err := h.cfg.Store.Recall(ctx, q)
			if err != nil {
				h.log.Warn("recall", "user", userID, "err", err) // a reply without recollections is still a reply
			}
			p.lists = append(p.lists, hits)
		}
		if semantic != nil {
			p.lists = append(p.lists, <-semantic)
		}
	}()
	return p
}

// recall is the stage between linger and compose (DESIGN §12 "Recall"):
// with what readPast found (the user's memories, the chat's history
// window, the hits for this message within the chat's scope), it ranks
// the past (heart.RankRecall) within RecallBudgetTokens, leaving out what
// the prompt already shows and what the message itself repeats, and, for
// a user back after heart.ReturnAbsence, finds the heavy topic they left.
func (h *Handler) recall(ctx context.Context, m *moment, past *pastRead) error {
	stage := time.Now()
	past.wait()
	if past.err != nil {
		return past.err
	}
	m.mems, m.eps = past.mems, past.eps
	m.recalled = rank(m, past)
	h.welcomeBack(ctx, m)
	h.obs.Stage("recall", time.Since(stage))
	return nil
}

// recallQuery searches for text within the chat's scope.
func recallQuery(in store.Inbound, userID, text string) store.RecallQuery {
	q := store.RecallQuery{UserID: userID, Text: text, Scope: store.RecallPrivate, Limit: RecallCandidates}
	if in.ChatKind == string(ChatGroup) {
		q.Scope, q.Platform, q.ChatID = store.RecallGroup, in.Platform, in.ChatID
	}
	return q
}

// previousWords is, for a short question, the user's previous message in
// the chat's history (eps), which it may be about; "" otherwise.
func previousWords(text, userID string, eps []store.Episode) string {
	if utf8.RuneCountInString(text) > RecallFollowOnRunes || !isQuestion(text) {
		return ""
	}
	for i := len(eps) - 1; i >= 0; i-- {
		if e := eps[i]; e.UserID == userID && e.UserText != "" {
			return e.UserText
		}
	}
	return ""
}

// isQuestion reports whether text ends as a question does in English,
// Chinese or Japanese.
func isQuestion(text string) bool {
	s := strings.TrimRight(strings.TrimSpace(text), " .!！。~～…")
	for _, end := range []string{"?", "？", "吗", "么", "呢", "か", "っけ"} {
		if strings.HasSuffix(s, end) {
			return true
		}
	}
	return false
}

// rank chooses the recollections of moment m from the read hits.
func rank(m *moment, past *pastRead) []recollection {
	lists := make([][]heart.RecallCandidate, 0, len(past.lists))
	places := map[heart.RecallKey]heart.RecallPlace{}
	for _, hits := range past.lists {
		lists = append(lists, candidates(hits, past.q))
		for k, p := range placesOf(hits, past.q) {
			if _, ok := places[k]; !ok {
				places[k] = p
			}
		}
	}
	ranked := heart.RankRecall(lists, heart.RecallParams{Now: m.now, Exclude: shownKeys(m), Said: m.text, BudgetTokens: RecallBudgetTokens})
	out := make([]recollection, len(ranked))
	for i, r := range ranked {
		out[i] = recollection{r, places[r.Key]}
	}
	return out
}

// semanticHits asks Config.Semantic within SemanticDeadline. A failure is
// logged once (and once more when it works again); the turn goes on with
// the full-text index alone.
func (h *Handler) semanticHits(ctx context.Context, q store.RecallQuery) []store.RecallHit {
	ctx, cancel := context.WithTimeout(ctx, SemanticDeadline)
	defer cancel()
	hits, err := h.cfg.Semantic.Recall(ctx, q)
	if err != nil {
		if !h.semantic.down.Swap(true) {
			h.log.Warn("semantic recall failed; recalling with the full-text index alone", "err", err)
		}
		return nil
	}
	if h.semantic.down.Swap(false) {
		h.log.Info("semantic recall works again")
	}
	return hits
}

// candidates turns store hits into ranking candidates, texts cut to what
// a recollection shows (so the budget counts what the prompt holds). A
// group search keeps only the user's own words said in that group, even
// if a retrieval method returned more (DESIGN §12: never a private memory
// in a group).
func candidates(hits []store.RecallHit, q store.RecallQuery) []heart.RecallCandidate {
	out := make([]heart.RecallCandidate, 0, len(hits))
	for _, h := range hits {
		if q.Scope == store.RecallGroup && (h.Kind != store.RecallEpisode || h.ChatKind != string(ChatGroup) ||
			h.Platform != q.Platform || h.ChatID != q.ChatID) {
			continue
		}
		// The companion's answer is shown when the user's words are too
		// short to say what the moment was about ("yes, please").
		reply := ""
		if utf8.RuneCountInString(h.UserText) < heart.RecollectionReplyRunes {
			reply = heart.ClipRunes(h.ReplyText, heart.RecollectionReplyRunes)
		}
		out = append(out, heart.RecallCandidate{
			Key: recallKey(h), At: h.At, Match: h.Score,
			Text: heart.ClipRunes(h.UserText, heart.RecollectionTextRunes), Reply: reply,
			Salience: h.Salience, HasValues: h.HasValues, Disclosure: heart.Disclosure(h.Disclosure), Retention: heart.Retention(h.Retention),
		})
	}
	return out
}

func recallKey(h store.RecallHit) heart.RecallKey {
	if h.Kind == store.RecallMemory {
		return heart.RecallKey{Kind: heart.RecallMemory, ID: int64(h.Slot)}
	}
	return heart.RecallKey{Kind: heart.RecallEpisode, ID: h.EpisodeID}
}

// placesOf says where each hit was said, as its recollection line tells it.
func placesOf(hits []store.RecallHit, q store.RecallQuery) map[heart.RecallKey]heart.RecallPlace {
	out := make(map[heart.RecallKey]heart.RecallPlace, len(hits))
	for _, h := range hits {
		switch {
		case h.Kind != store.RecallEpisode || h.ChatKind != string(ChatGroup):
			out[recallKey(h)] = heart.SaidPrivately
		case q.Scope == store.RecallGroup:
			out[recallKey(h)] = heart.SaidHere
		default:
			out[recallKey(h)] = heart.SaidInAGroup
		}
	}
	return out
}

// shownKeys is what the prompt holds already: the history window's
// episodes and the memory slots it shows. Recall repeats neither.
func shownKeys(m *moment) []heart.RecallKey {
	keys := make([]heart.RecallKey, 0, len(m.eps)+len(m.mems))
	for _, e := range m.eps {
		keys = append(keys, heart.RecallKey{Kind: heart.RecallEpisode, ID: e.ID})
	}
	if m.strategy.UseMemory && m.in.ChatKind != string(ChatGroup) {
		for _, l := range memoryLines(m.mems, m.rel.Score) {
			keys = append(keys, heart.RecallKey{Kind: heart.RecallMemory, ID: int64(l.Slot)})
		}
	}
	return keys
}

// recollectionLines are the recollections as the prompt shows them:
// dated, in the persona's language, attributed to the user by name.
func (h *Handler) recollectionLines(m *moment) []string {
	out := make([]string, len(m.recalled))
	for i, r := range m.recalled {
		out[i] = heart.PhraseRecollection(r.Recollection, m.now.In(h.loc), h.cfg.Persona.Language, m.u.Name, r.place)
	}
	return out
}

// recalledHints are the recollections for the offline brain.
func recalledHints(rs []recollection) []Recollection {
	out := make([]Recollection, len(rs))
	for i, r := range rs {
		out[i] = Recollection{Kind: string(r.Key.Kind), At: r.At, Text: r.Text, Reply: r.Reply}
		if r.Key.Kind == heart.RecallMemory {
			out[i].Slot = int(r.Key.ID)
		}
	}
	return out
}

// recalledRefs is what the episode records for /why.
func recalledRefs(rs []recollection) []store.RecallRef {
	out := make([]store.RecallRef, len(rs))
	for i, r := range rs {
		out[i] = store.RecallRef{Kind: string(r.Key.Kind), ID: r.Key.ID}
	}
	return out
}

// welcomeBack notices a user back in a private chat after
// heart.ReturnAbsence (seed 003 §7.1): the first reply greets them by
// their relationship state and asks after the heaviest thing they shared
// in their last month of talk, without pressing. The greeting goes to the
// offline brain (Hints.Greeting) and, with how long they were away, to the
// context note.
func (h *Handler) welcomeBack(ctx context.Context, m *moment) {
	if m.in.ChatKind != string(ChatPrivate) || m.urgent() || !heart.Returning(m.u.LastUserAt, m.now) {
		return
	}
	lang := h.cfg.Persona.Language
	heavy, ok := h.heavyTopic(ctx, m.u, m.u.LastUserAt)
	topic := ""
	if ok {
		topic = heart.TopicPhrase(heavy.Text, lang)
	}
	m.greeting = heart.ReturnGreeting(m.rel.State, topic, lang)
	if topic != "" && strings.Contains(m.greeting, topic) {
		m.heavy = heavy
	}
	m.returnNote = h.welcomeNote(m)
}

// welcomeNote is the context note of a return: how long the user was
// away, the greeting, and the heavy topic it asks after, if any.
func (h *Handler) welcomeNote(m *moment) string {
	away := int(m.now.Sub(m.u.LastUserAt).Hours() / 24)
	note := fmt.Sprintf("%s is back after %d days away. If it suits what they say, greet them like this, in your own words: %q "+
		"Never reproach them for the absence or say you waited.", m.u.Name, away, m.greeting)
	if m.heavy.Text != "" {
		note += fmt.Sprintf(" Before they went quiet (%s) they shared: %q. Ask gently how it is now; they need not answer.",
			heart.RecallWhen(m.heavy.At, m.now.In(h.loc), "en"), m.heavy.Text)
	}
	return note
}

// heavyTopic is the most salient unresolved thing the user shared in the
// heart.ReturnTopicWindow before last (heart.HeavyTopic).
func (h *Handler) heavyTopic(ctx context.Context, u store.User, last time.Time) (heart.RecallCandidate, bool) {
	eps, err := h.cfg.Store.SalientEpisodes(ctx, u.ID, last.Add(-heart.ReturnTopicWindow), last, heart.ReturnTopicSalience, returnCandidates)
	if err != nil {
		h.log.Warn("heavy topic of a return", "user", u.ID, "err", err)
		return heart.RecallCandidate{}, false
	}
	cands := make([]heart.RecallCandidate, len(eps))
	for i, e := range eps {
		cands[i] = heart.RecallCandidate{Key: heart.RecallKey{Kind: heart.RecallEpisode, ID: e.ID}, At: e.At,
			Text: heart.ClipRunes(e.UserText, heart.RecollectionTextRunes), Salience: e.Salience, HasValues: e.HasValues,
			Disclosure: heart.Disclosure(e.Disclosure)}
	}
	return heart.HeavyTopic(cands)
}
