package bot_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/bottest"
	"hearth/store"
)

// fillerLines are ordinary chat messages in en/zh/ja, none of them about a
// planted fact (the store's recall test corpus).
func fillerLines(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("../store/testdata/recall_filler.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// forgetfulBrain is the test brain whose replies keep nothing in memory
// slots (their trailer's "remember" is dropped), so whatever the prompt
// knows of the past came through recall. It records every request.
type forgetfulBrain struct{ *fakeBrain }

func (f forgetfulBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	resp, err := f.fakeBrain.Complete(ctx, req)
	if err != nil || req.Kind != bot.KindReply {
		return resp, err
	}
	var tr map[string]any
	if json.Unmarshal([]byte(resp.Trailer), &tr) == nil {
		delete(tr, "remember")
		b, _ := json.Marshal(tr)
		resp.Trailer = string(b)
	}
	return resp, err
}

// replies returns the reply requests the brain received for a user, in
// order.
func (f *fakeBrain) replies(chatID string) []bot.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []bot.Request
	for _, r := range f.reqs {
		if r.Kind == bot.KindReply && chatOf(r) == chatID {
			out = append(out, r)
		}
	}
	return out
}

// chatOf names a request's user by their display name ("User"+id), which
// msg and groupMsg set.
func chatOf(r bot.Request) string { return strings.TrimPrefix(r.Hints.User, "User") }

// note is the context note of a reply request (DESIGN §12: the message
// just before the user's text).
func note(r bot.Request) string { return r.Messages[len(r.Messages)-2].Content }

// recalled is the note's recollections section, "" when none.
func recalled(r bot.Request) string {
	n := note(r)
	i := strings.Index(n, "## Recalled")
	if i < 0 {
		return ""
	}
	end := strings.Index(n[i+2:], "\n## ")
	if end < 0 {
		return n[i:]
	}
	return n[i : i+2+end]
}

// fill commits n ordinary turns of user in chat (kind private or group)
// as the Handler commits a turn's episode (store.CommitTurn indexes it),
// four minutes apart: the hundreds of messages between a planted fact and
// the question, written without running hundreds of turns (a turn costs
// tens of milliseconds under -race).
func (e *env) fill(t *testing.T, c *bottest.Clock, user, chat string, kind bot.ChatKind, n int) {
	t.Helper()
	lines := fillerLines(t)
	for i := range n {
		ep := store.Episode{UserID: "telegram:" + user, Platform: bot.PlatformTelegram, ChatID: chat, ChatKind: string(kind),
			UserText: lines[(i*7+len(user))%len(lines)], ReplyText: "I see. Tell me more.", At: c.Now(),
			HasValues: true, Label: "neutral", Salience: 0.2, Confidence: 0.6}
		if _, err := e.db.CommitTurn(context.Background(), store.Turn{Episode: ep}); err != nil {
			t.Fatal(err)
		}
		c.Add(4 * time.Minute)
	}
}

// talk sends one message and waits for its turn, the clock moving on a
// few minutes as in a real conversation.
func (e *env) talk(t *testing.T, c *bottest.Clock, m bot.Message) {
	t.Helper()
	m.At = c.Now()
	e.send(t, m)
	e.h.Drain()
	c.Add(4 * time.Minute)
}

// TestRecallPlantedFactsAfterHundredsOfMessages is issue 11's first
// black-box test: facts said once in passing in English, Chinese and
// Japanese, then hundreds of ordinary messages, then the user comes back
// to each. The fact is in the prompt the model received, as a dated
// recollection apart from the conversation, although no memory slot holds
// it; and the offline brain answers "do you remember my cat's name?" with
// the name.
func TestRecallPlantedFactsAfterHundredsOfMessages(t *testing.T) {
	fb := forgetfulBrain{newFakeBrain()}
	c := bottest.NewClock(time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC))
	e := newEnv(t, func(cfg *bot.Config) { cfg.Brain, cfg.Now = fb, c.Now })
	e.talk(t, c, msg("r1", "hi there"))
	for _, fact := range []string{"my cat Biscuit turned twelve today", "我上个月在杭州被公司裁员了", "来月、京都で茶道の試験を受ける"} {
		e.fill(t, c, "r1", "r1", bot.ChatPrivate, 20)
		e.talk(t, c, msg("r1", fact))
		e.fill(t, c, "r1", "r1", bot.ChatPrivate, 80)
		c.Add(30 * time.Hour) // the conversation spans days
	}
	if mems, _ := e.db.Memories(context.Background(), "telegram:r1"); len(mems) != 0 {
		t.Fatalf("precondition: the forgetful brain kept memories %+v", mems)
	}
	for _, q := range []struct{ ask, want string }{
		{"Biscuit was sick all night", "my cat Biscuit turned twelve today"},
		{"裁员以后一直找不到工作", "我上个月在杭州被公司裁员了"},
		{"試験どうしよう", "来月、京都で茶道の試験を受ける"},
	} {
		e.talk(t, c, msg("r1", q.ask))
		reqs := fb.replies("r1")
		got := recalled(reqs[len(reqs)-1])
		if !strings.Contains(got, "Userr1 said: “"+q.want+"”") || !strings.Contains(got, "Yesterday, ") && !strings.Contains(got, " ago, ") {
			t.Errorf("%q: recollections %q, want %q dated and attributed", q.ask, got, q.want)
		}
	}
	e.talk(t, c, msg("r1", "do you remember my cat's name?"))
	if texts := e.out.texts("r1"); !strings.Contains(texts[len(texts)-1], "Biscuit") {
		t.Errorf("the offline brain answered %q, want the cat's name", texts[len(texts)-1])
	}
	// /why tells what was recalled for that reply, in plain words (the
	// worry of "試験どうしよう", searched for as the previous message, may
	// come first).
	e.talk(t, c, msg("r1", "/why"))
	why := e.out.texts("r1")
	if _, recalledLine, _ := strings.Cut(why[len(why)-1], "For my last reply I remembered "); !strings.Contains(recalledLine, "“my cat Biscuit turned twelve today”") {
		t.Errorf("/why: %q", why[len(why)-1])
	}
}

// TestRecallNeverCrossesUsers (issue 11 item 4): two users who say the
// same things, each with their own cat; each one's prompts hold only their
// own past, and what a reply recalled is theirs.
func TestRecallNeverCrossesUsers(t *testing.T) {
	fb := forgetfulBrain{newFakeBrain()}
	c := bottest.NewClock(time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC))
	e := newEnv(t, func(cfg *bot.Config) { cfg.Brain, cfg.Now = fb, c.Now })
	cats := map[string]string{"ua": "Biscuit", "ub": "Pumpkin"}
	for _, u := range []string{"ua", "ub"} {
		e.talk(t, c, msg(u, "my cat "+cats[u]+" is sick and I'm worried about the vet bill"))
	}
	for _, u := range []string{"ua", "ub"} {
		e.fill(t, c, u, u, bot.ChatPrivate, 40)
	}
	for u, cat := range cats {
		e.talk(t, c, msg(u, "the vet called about my cat, do you remember her name?"))
		other := cats["ua"]
		if u == "ua" {
			other = cats["ub"]
		}
		for _, r := range fb.replies(u) {
			if all := note(r) + r.Messages[0].Content; strings.Contains(all, other) {
				t.Fatalf("%s's prompt holds %s's cat %s:\n%s", u, map[string]string{"ua": "ub", "ub": "ua"}[u], other, note(r))
			}
		}
		reqs := fb.replies(u)
		if got := recalled(reqs[len(reqs)-1]); !strings.Contains(got, cat) {
			t.Errorf("%s: recollections %q lack their own cat %s", u, got, cat)
		}
		refs, _, err := e.db.LastRecall(context.Background(), "telegram:"+u)
		if err != nil || len(refs) == 0 {
			t.Fatalf("%s: nothing recorded as recalled: %v", u, err)
		}
		for _, ref := range refs {
			if ref.Kind != store.RecallEpisode {
				continue
			}
			if eps, _ := e.db.EpisodesByID(context.Background(), "telegram:"+u, []int64{ref.ID}); len(eps) != 1 {
				t.Errorf("%s's reply recalled episode %d, which is not theirs", u, ref.ID)
			}
		}
	}
}

// groupMsg is a message from user in group chat g, addressed to the bot.
func groupMsg(g, user, text string) bot.Message {
	m := msg(user, text)
	m.ChatID, m.ChatKind = g, bot.ChatGroup
	return m
}

// TestRecallPrivateFactNeverInAGroup (issue 11 item 4, DESIGN §12): what
// a user said in private is never recalled in a group, while their own
// words in that group are, attributed to them; the group's history names
// who said what; and in private, a group memory says where it was said.
func TestRecallPrivateFactNeverInAGroup(t *testing.T) {
	fb := forgetfulBrain{newFakeBrain()}
	c := bottest.NewClock(time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC))
	e := newEnv(t, func(cfg *bot.Config) { cfg.Brain, cfg.Now = fb, c.Now })
	e.talk(t, c, msg("pa", "I'm seeing a therapist called Dr Quillby about my anxiety"))
	e.talk(t, c, groupMsg("g1", "pa", "who's up for sailing on Sunday? my boat is the Kestrel"))
	e.talk(t, c, groupMsg("g1", "pb", "I can't come on Sunday, sorry"))
	e.fill(t, c, "pb", "g1", bot.ChatGroup, 35)
	e.fill(t, c, "pa", "pa", bot.ChatPrivate, 35)
	e.talk(t, c, groupMsg("g1", "pa", "does anyone know a good therapist? and is the Kestrel sailing Sunday?"))
	reqs := fb.replies("pa")
	group := reqs[len(reqs)-1]
	all := group.Messages[0].Content + note(group)
	for _, h := range group.Messages[1 : len(group.Messages)-2] {
		all += h.Content
	}
	if strings.Contains(all, "Quillby") {
		t.Fatalf("a private fact reached a group prompt:\n%s", note(group))
	}
	if got := recalled(group); !strings.Contains(got, "Userpa said in this group: “who's up for sailing") {
		t.Errorf("the user's own group words, attributed: %q", got)
	}
	if !strings.Contains(historyText(group), "user: Userpb: ") {
		t.Errorf("group history does not name the speakers:\n%s", historyText(group))
	}
	e.talk(t, c, msg("pa", "I keep thinking about the Kestrel and Dr Quillby"))
	reqs = fb.replies("pa")
	got := recalled(reqs[len(reqs)-1])
	if !strings.Contains(got, "Quillby") || !strings.Contains(got, "Userpa said in a group chat: “who's up for sailing") {
		t.Errorf("in private, the user's whole past, the group's marked: %q", got)
	}
}

func historyText(r bot.Request) string {
	var b strings.Builder
	for _, m := range r.Messages[1 : len(r.Messages)-2] {
		b.WriteString(m.Role + ": " + m.Content + "\n")
	}
	return b.String()
}

// semanticFake is a SemanticRecall that finds by meaning what the full-text
// index cannot ("kitty" for "cat"), fails, or hangs until its deadline.
type semanticFake struct {
	mu    sync.Mutex
	hits  []store.RecallHit
	err   error
	hang  bool
	calls int
}

func (s *semanticFake) Recall(ctx context.Context, q store.RecallQuery) ([]store.RecallHit, error) {
	s.mu.Lock()
	s.calls++
	hits, err, hang := s.hits, s.err, s.hang
	s.mu.Unlock()
	if hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return hits, err
}

// TestSemanticRecallIsFusedAndNeverHoldsAReply: the semantic seam's hits
// are ranked with the full-text ones; when it fails the turn goes on with
// the full-text index and says so in the log once; when it hangs the reply
// waits no longer than bot.SemanticDeadline.
func TestSemanticRecallIsFusedAndNeverHoldsAReply(t *testing.T) {
	sem := &semanticFake{}
	var logs bottest.Buffer
	fb := forgetfulBrain{newFakeBrain()}
	c := bottest.NewClock(time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC))
	e := newEnv(t, func(cfg *bot.Config) {
		cfg.Brain, cfg.Now, cfg.Semantic = fb, c.Now, sem
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	e.talk(t, c, msg("s1", "my cat Biscuit turned twelve today"))
	e.fill(t, c, "s1", "s1", bot.ChatPrivate, 35)
	eps, _ := e.db.UserEpisodes(context.Background(), "telegram:s1", time.Time{}, 0)
	cat := eps[0]
	sem.hits = []store.RecallHit{{Kind: store.RecallEpisode, EpisodeID: cat.ID, Score: 0.9, At: cat.At, Platform: cat.Platform,
		ChatID: cat.ChatID, ChatKind: cat.ChatKind, UserText: cat.UserText, ReplyText: cat.ReplyText}}
	e.talk(t, c, msg("s1", "how is my kitty doing, I wonder"))
	reqs := fb.replies("s1")
	if got := recalled(reqs[len(reqs)-1]); !strings.Contains(got, "Biscuit turned twelve") {
		t.Fatalf("semantic hit not recalled: %q", got)
	}

	sem.mu.Lock()
	sem.hits, sem.err = nil, errBoom
	sem.mu.Unlock()
	for range 2 {
		e.talk(t, c, msg("s1", "so tired of the rain"))
	}
	if n := strings.Count(logs.String(), "semantic recall failed"); n != 1 {
		t.Fatalf("the failure was logged %d times, want once:\n%s", n, logs.String())
	}
	sem.mu.Lock()
	sem.err, sem.hang = nil, true
	sem.mu.Unlock()
	start := time.Now()
	e.talk(t, c, msg("s1", "still raining"))
	if took := time.Since(start); took > bot.SemanticDeadline+5*time.Second {
		t.Fatalf("a hanging semantic search held the turn %v", took)
	}
	if got := len(fb.replies("s1")); got != 5 {
		t.Fatalf("%d replies, want 5", got)
	}
}

// pastReads is the store with its reads of a user's past counted.
type pastReads struct {
	bot.TurnStore
	mu    sync.Mutex
	calls map[string]int
}

func (p *pastReads) count(read string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls[read]++
}

// take returns the reads counted since the last take.
func (p *pastReads) take() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	got := p.calls
	p.calls = map[string]int{}
	return got
}

func (p *pastReads) Memories(ctx context.Context, userID string) ([]store.Memory, error) {
	p.count("memories")
	return p.TurnStore.Memories(ctx, userID)
}

func (p *pastReads) ChatHistory(ctx context.Context, platform, chatID string, limit int) ([]store.Episode, error) {
	p.count("history")
	return p.TurnStore.ChatHistory(ctx, platform, chatID, limit)
}

func (p *pastReads) Recall(ctx context.Context, q store.RecallQuery) ([]store.RecallHit, error) {
	p.count("recall")
	return p.TurnStore.Recall(ctx, q)
}

func (p *pastReads) UserEpisodeValues(ctx context.Context, userID string, since time.Time, limit int) ([]store.Episode, error) {
	p.count("tally")
	return p.TurnStore.UserEpisodeValues(ctx, userID, since, limit)
}

// TestFirstContactReadsOnlyAGroupsHistory (issue 15 item 5): a user's
// first turn reads nothing of their own past, for there is none, so a
// burst of new chats costs no empty reads; in a group it still reads the
// chat's shared history, and the other members' words reach the prompt.
// Their next turn reads everything again.
func TestFirstContactReadsOnlyAGroupsHistory(t *testing.T) {
	fb := forgetfulBrain{newFakeBrain()}
	c := bottest.NewClock(time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC))
	reads := &pastReads{calls: map[string]int{}}
	e := newEnv(t, func(cfg *bot.Config) {
		reads.TurnStore = cfg.Store
		cfg.Store, cfg.Brain, cfg.Now = reads, fb, c.Now
	})
	e.talk(t, c, msg("fa", "hello, I'm new here"))
	if got := reads.take(); len(got) != 0 {
		t.Errorf("a first contact's private turn read %v", got)
	}
	e.talk(t, c, msg("fa", "I'm back, do you remember me?"))
	if got := reads.take(); got["memories"] == 0 || got["history"] == 0 || got["recall"] == 0 {
		t.Errorf("a second turn must read the user's past: %v", got)
	}

	e.talk(t, c, groupMsg("g1", "fa", "the Kestrel sails at noon on Sunday"))
	reads.take()
	e.talk(t, c, groupMsg("g1", "fb", "hi all, first time here"))
	if got := reads.take(); len(got) != 1 || got["history"] != 1 {
		t.Errorf("a first contact's group turn reads the group's history only: %v", got)
	}
	reqs := fb.replies("fb")
	if len(reqs) == 0 || !strings.Contains(historyText(reqs[len(reqs)-1]), "the Kestrel sails") {
		t.Errorf("the group's history is missing from a newcomer's prompt")
	}
}
