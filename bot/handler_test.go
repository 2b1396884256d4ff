package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/heart"
	"hearth/store"
)

func TestTurnAnswersAndCommitsState(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("1", "I'm so happy and excited today, it's wonderful!"))
	e.h.Drain()
	got := e.out.texts("1")
	if len(got) != 1 || got[0] == "" {
		t.Fatalf("replies = %q", got)
	}
	for _, leak := range []string{"<<<HEARTH", "emotion_label"} {
		if strings.Contains(got[0], leak) {
			t.Fatalf("reply leaks the trailer: %q", got[0])
		}
	}
	u := e.user(t, "telegram:1")
	if u.Messages != 1 || len(u.LastIntents) != 1 || len(u.EmotionHistory) != 1 {
		t.Errorf("state after one turn: messages %d intents %v history %v", u.Messages, u.LastIntents, u.EmotionHistory)
	}
	if u.InnerState != "I am Luna. User1 just arrived." {
		t.Errorf("inner_state not seeded from the persona: %q", u.InnerState)
	}
	if e.brain.count(bot.KindPerception) != 1 || e.brain.count(bot.KindReply) != 1 {
		t.Errorf("calls: %v", e.brain.calls)
	}
	pending, _ := e.db.PendingOutbound(context.Background())
	if len(pending) != 0 {
		t.Errorf("ledger still has %d pending entries after delivery", len(pending))
	}
	e.brain.mu.Lock()
	defer e.brain.mu.Unlock()
	for _, r := range e.brain.reqs {
		first := r.Messages[0]
		if first.Role != "system" || !strings.HasPrefix(first.Content, r.Kind.Marker()+"\n") {
			t.Errorf("%s request does not start with its marker line: %q", r.Kind, first.Content[:min(40, len(first.Content))])
		}
		if last := r.Messages[len(r.Messages)-1]; last.Role != "user" || !strings.Contains(last.Content, "happy") {
			t.Errorf("%s request's last message is not the user's text: %+v", r.Kind, last)
		}
	}
}

func TestDuplicateMessageIsAnsweredOnce(t *testing.T) {
	e := newEnv(t)
	m := msg("2", "hello")
	e.send(t, m)
	e.send(t, m)
	e.h.Drain()
	if n := len(e.out.texts("2")); n != 1 {
		t.Fatalf("%d replies to one message sent twice", n)
	}
}

// TestChatsAreOrderedAndIndependent: a slow answer to one chat never delays
// another, and replies within one chat keep the order of the messages.
func TestChatsAreOrderedAndIndependent(t *testing.T) {
	e := newEnv(t)
	release := make(chan struct{})
	var once sync.Once
	e.brain.gate = func(req bot.Request) {
		if strings.Contains(req.Hints.Text, "slow") {
			<-release
		}
	}
	defer once.Do(func() { close(release) })
	e.send(t, msg("a", "slow one"))
	e.send(t, msg("a", "second in a"))
	e.send(t, msg("b", "hello from b"))
	waitFor(t, "chat b's reply while chat a is stuck", func() bool { return len(e.out.texts("b")) == 1 })
	if n := len(e.out.texts("a")); n != 0 {
		t.Fatalf("chat a answered %d messages while its first turn was blocked", n)
	}
	once.Do(func() { close(release) })
	e.h.Drain()
	eps, err := e.db.ChatHistory(context.Background(), bot.PlatformTelegram, "a", 10)
	if err != nil || len(eps) != 2 {
		t.Fatalf("history of a: %v %v", eps, err)
	}
	if eps[0].UserText != "slow one" || eps[1].UserText != "second in a" {
		t.Errorf("turns of chat a out of order: %q then %q", eps[0].UserText, eps[1].UserText)
	}
}

func TestGroupMessagesAreAnsweredOnlyWhenAddressed(t *testing.T) {
	e := newEnv(t)
	m := msg("5", "just chatting with friends")
	m.ChatID, m.ChatKind, m.Addressed = "group1", bot.ChatGroup, false
	e.send(t, m)
	m2 := msg("5", "@luna what do you think?")
	m2.ChatID, m2.ChatKind = "group1", bot.ChatGroup
	e.send(t, m2)
	e.h.Drain()
	if n := len(e.out.texts("group1")); n != 1 {
		t.Fatalf("%d replies in the group, want 1 (only the addressed message)", n)
	}
}

// TestRecoverAnswersStoredMessagesOnce simulates a crash after the message
// was stored and before its turn ran: a new handler answers it, once.
func TestRecoverAnswersStoredMessagesOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	in := store.Inbound{Platform: bot.PlatformTelegram, ChatID: "7", ChatKind: "private", MessageID: "crash-1",
		UserID: "telegram:7", UserName: "Mia", Text: "are you there?", Modality: "text", Addressed: true,
		At: time.Now().UTC(), Status: store.StatusReceived}
	if _, _, err := e.db.InsertInbound(ctx, in); err != nil {
		t.Fatal(err)
	}
	if err := e.h.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	e.h.Drain()
	if err := e.h.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	e.h.Drain()
	if n := len(e.out.texts("7")); n != 1 {
		t.Fatalf("%d answers after two recoveries, want 1", n)
	}
}

// TestUndeliveredReplyIsSentOnRecovery: the platform was down when the turn
// committed; the reply stays in the ledger and goes out on recovery, once.
func TestUndeliveredReplyIsSentOnRecovery(t *testing.T) {
	e := newEnv(t)
	e.out.fail = errBoom
	e.send(t, msg("8", "hello"))
	e.h.Drain()
	pending, _ := e.db.PendingOutbound(context.Background())
	if len(pending) != 1 {
		t.Fatalf("%d pending ledger entries, want 1", len(pending))
	}
	e.out.mu.Lock()
	e.out.fail = nil
	e.out.mu.Unlock()
	if err := e.h.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := e.h.DeliverPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(e.out.texts("8")); n != 1 {
		t.Fatalf("%d deliveries, want 1", n)
	}
}

func TestFailingBrainStillAnswers(t *testing.T) {
	e := newEnv(t)
	e.brain.fail[bot.KindPerception] = errBoom
	e.brain.fail[bot.KindReply] = errBoom
	e.send(t, msg("9", "hi there"))
	e.h.Drain()
	got := e.out.texts("9")
	if len(got) != 1 || got[0] == "" {
		t.Fatalf("replies = %q; a failing brain must not kill the turn", got)
	}
	if u := e.user(t, "telegram:9"); u.Messages != 1 {
		t.Errorf("messages = %d", u.Messages)
	}
}

func TestCommandsAnswerWithoutCountingOrLLM(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("10", "/help"))
	e.send(t, msg("10", "/remember I'm allergic to cats"))
	e.send(t, msg("10", "/memories"))
	e.h.Drain()
	got := e.out.texts("10")
	if len(got) != 3 || !strings.Contains(got[2], "allergic to cats") {
		t.Fatalf("replies = %q", got)
	}
	if u := e.user(t, "telegram:10"); u.Messages != 0 {
		t.Errorf("commands counted as messages: %d", u.Messages)
	}
	if n := e.brain.count(bot.KindReply) + e.brain.count(bot.KindPerception); n != 0 {
		t.Errorf("commands made %d LLM calls", n)
	}
}

func TestReflectionEveryTenMessagesNeverDelaysTheReply(t *testing.T) {
	e := newEnv(t)
	e.brain.reflect = make(chan struct{}) // reflection hangs until released
	for i := 0; i < 10; i++ {
		e.send(t, msg("11", "message number "+itoa(i)))
	}
	waitFor(t, "ten replies while the reflection hangs", func() bool { return len(e.out.texts("11")) == 10 })
	waitFor(t, "the reflect call", func() bool { return e.brain.count(bot.KindReflect) == 1 })
	close(e.brain.reflect)
	e.h.Drain()
	u := e.user(t, "telegram:11")
	if u.Reflections != 1 || u.InnerState == "I am Luna. User11 just arrived." {
		t.Errorf("after reflection: reflections %d inner_state %q", u.Reflections, u.InnerState)
	}
}

func TestReflectionIsSingleFlightUnderABurst(t *testing.T) {
	e := newEnv(t)
	e.brain.reflect = make(chan struct{})
	for i := 0; i < 30; i++ {
		e.send(t, msg("12", "burst "+itoa(i)))
	}
	waitFor(t, "thirty replies", func() bool { return len(e.out.texts("12")) == 30 })
	if n := e.brain.count(bot.KindReflect); n != 1 {
		t.Errorf("%d reflections in flight at once for one user, want 1", n)
	}
	close(e.brain.reflect)
	e.h.Drain()
}

func TestCrisisSendsResourcesInTheSameTurn(t *testing.T) {
	for _, c := range []struct{ lang, text string }{
		{"en", "I want to kill myself"},
		{"zh", "我不想活了"},
		{"ja", "もう死にたい"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			e := newEnv(t, func(cfg *bot.Config) {
				cfg.Persona.Language = c.lang
				cfg.Operators = []bot.ChatRef{{Platform: bot.PlatformTelegram, ChatID: "ops", Kind: bot.ChatPrivate}}
			})
			e.send(t, msg("13", c.text))
			e.h.Drain()
			got := e.out.texts("13")
			// No limit's notice on a crisis turn: it waits for a calm one
			// (TestNoLimitInACrisis).
			if len(got) != 2 || got[1] != heart.DefaultCrisisResources(c.lang) {
				t.Fatalf("got %d messages, want the reply and the resources: %q", len(got), got)
			}
			if len(e.out.texts("ops")) != 1 {
				t.Errorf("operator was not alerted")
			}
			st, err := bot.BuildState(context.Background(), e.db, bot.StateOptions{Persona: testPersona(), UserID: "telegram:13", Now: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			a := st.Users[0].Affinity
			if !a.Watch || a.WatchReason != heart.WatchReasonCrisis || a.WatchDetail == "" || a.WatchSince.IsZero() {
				t.Errorf("Watch and why not in hearth state: %+v", a)
			}
			// A crisis turn is recorded as one: the episode says so, and the
			// emotion history holds a strong sadness, not neutral.
			eps, _ := e.db.UserEpisodes(context.Background(), "telegram:13", time.Time{}, 10)
			u := e.user(t, "telegram:13")
			if len(eps) != 1 || eps[0].Crisis != a.WatchDetail || u.LastEmotion != string(heart.Sad) ||
				u.EmotionHistory[0].Emotion != string(heart.Sad) || u.EmotionHistory[0].Confidence < heart.StrategyConfidenceThreshold {
				t.Errorf("crisis turn recorded as %+v, last emotion %q, history %+v", eps, u.LastEmotion, u.EmotionHistory)
			}
		})
	}
}

// rememberBrain's replies always ask to remember something in slot 0.
type rememberBrain struct{ *fakeBrain }

func (r rememberBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	if req.Kind == bot.KindReply {
		return bot.Response{Text: "Noted!", Trailer: `{"emotion_label":"joy","emotion_intensity":0.5,"salience":0.5,"confidence":0.9,"topic_tags":[],"remember":[{"slot":0,"content":"likes rain"},{"slot":41,"content":"has a cat"}],"scratch":"asked about pets"}`}, nil
	}
	return r.fakeBrain.Complete(ctx, req)
}

func TestTrailerMemoriesNeverOverwriteWhatTheUserAskedToKeep(t *testing.T) {
	e := newEnv(t, func(c *bot.Config) { c.Brain = rememberBrain{newFakeBrain()} })
	e.send(t, msg("31", "/remember my sister's name is Mei"))
	e.send(t, msg("31", "it's raining and my cat is asleep"))
	e.h.Drain()
	mems, err := e.db.Memories(context.Background(), "telegram:31")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, m := range mems {
		got[m.Slot] = m.Content
	}
	if got[0] != "my sister's name is Mei" || got[41] != "has a cat" {
		t.Errorf("memories = %v: slot 0 must keep the user's words, slot 41 take the trailer's", got)
	}
	if u := e.user(t, "telegram:31"); u.Scratch != "asked about pets" {
		t.Errorf("scratch = %q", u.Scratch)
	}
}

// fillingBrain replies without a trailer, and its reflection fills the
// values of every episode it is shown (and of one it was not asked about).
type fillingBrain struct{ *fakeBrain }

func (f fillingBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	switch req.Kind {
	case bot.KindReply:
		return bot.Response{Text: "I hear you."}, nil
	case bot.KindReflect:
		var eps []string
		for _, line := range strings.Split(req.Messages[0].Content, "\n") {
			var id int
			if _, err := fmt.Sscanf(line, "id %d", &id); err == nil {
				eps = append(eps, fmt.Sprintf(`{"id":%d,"emotion_label":"sadness","emotion_intensity":0.6,"salience":0.7,"confidence":0.8}`, id))
			}
		}
		eps = append(eps, `{"id":999999,"emotion_label":"anger","emotion_intensity":1,"salience":1,"confidence":1}`)
		return bot.Response{Text: `{"inner_state":"They carry something heavy.","episodes":[` + strings.Join(eps, ",") + `]}`}, nil
	}
	return f.fakeBrain.Complete(ctx, req)
}

// TestReflectionFillsEpisodesStoredWithoutValues: seed 002's fallback, a
// reply without a trailer is stored without values and the next
// reflection fills them.
func TestReflectionFillsEpisodesStoredWithoutValues(t *testing.T) {
	e := newEnv(t, func(c *bot.Config) { c.Brain = fillingBrain{newFakeBrain()} })
	for i := 0; i < bot.ReflectEvery; i++ {
		e.send(t, msg("32", "a long week "+itoa(i)))
	}
	e.h.Drain()
	eps, err := e.db.UserEpisodes(context.Background(), "telegram:32", time.Time{}, 100)
	if err != nil || len(eps) != bot.ReflectEvery {
		t.Fatalf("episodes: %d %v", len(eps), err)
	}
	filled := 0
	for _, ep := range eps {
		if ep.HasValues {
			filled++
			if ep.Label != "sadness" || ep.Salience != 0.7 {
				t.Errorf("filled episode %d = %+v", ep.ID, ep)
			}
		}
	}
	if filled != bot.MaxFillEpisodes {
		t.Errorf("%d episodes filled, want %d (the bound)", filled, bot.MaxFillEpisodes)
	}
}

// TestTypingShowsOnlyWhileAReplyTakes: a reply faster than bot.TypingDelay
// goes out with no indicator (nobody could have read it); a slow one shows
// the indicator while the user waits, and it reaches the platform before
// the reply.
func TestTypingShowsOnlyWhileAReplyTakes(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("1", "hi there"))
	e.h.Drain()
	if n := e.out.typingCount(); n != 0 || len(e.out.texts("1")) != 1 {
		t.Fatalf("instant reply: %d typing indicators, replies %q", n, e.out.texts("1"))
	}

	e.brain.mu.Lock()
	e.brain.gate = func(bot.Request) {
		waitFor(t, "the typing indicator", func() bool { return e.out.typingCount() > 0 })
	}
	e.brain.mu.Unlock()
	e.send(t, msg("2", "are you there?"))
	e.h.Drain()
	if got := e.out.texts("2"); len(got) != 1 {
		t.Fatalf("slow reply: replies %q", got)
	}
	if n := e.out.typingCount(); n != 1 {
		t.Errorf("slow reply: %d typing indicators, want 1", n)
	}
}

// TestUserRowFollowsTheirMessages: a user first met in a group is stored
// by that turn's commit, without a private chat; their first DM adds it,
// a new display name replaces the old, and a later group message keeps the
// private chat. A command as the very first message stores the user too.
func TestUserRowFollowsTheirMessages(t *testing.T) {
	e := newEnv(t)
	g := msg("5", "hello everyone")
	g.ChatID, g.ChatKind = "-100", bot.ChatGroup
	e.send(t, g)
	e.h.Drain()
	if u := e.user(t, "telegram:5"); u.PrivateChatID != "" || u.Name != "User5" || u.Messages != 1 {
		t.Fatalf("after a group turn: %+v", u)
	}
	dm := msg("5", "hi, it's me")
	dm.UserName = "Fifi"
	e.send(t, dm)
	e.h.Drain()
	if u := e.user(t, "telegram:5"); u.PrivateChatID != "5" || u.Name != "Fifi" || u.Messages != 2 {
		t.Fatalf("after a DM under a new name: %+v", u)
	}
	g2 := msg("5", "back in the group")
	g2.ChatID, g2.ChatKind, g2.UserName = "-100", bot.ChatGroup, "Fifi"
	e.send(t, g2)
	e.h.Drain()
	if u := e.user(t, "telegram:5"); u.PrivateChatID != "5" || u.Messages != 3 {
		t.Fatalf("a group message changed the private chat: %+v", u)
	}

	e.send(t, msg("6", "/privacy"))
	e.h.Drain()
	if u := e.user(t, "telegram:6"); u.Name != "User6" || u.PrivateChatID != "6" {
		t.Fatalf("after a first command: %+v", u)
	}
}

// TestConcernReachesTheModel: with a model, the same talk at risk puts the
// direct question in the reply prompt's context note (heart.Relationship.ReadSafety),
// and its answer's relief after it.
func TestConcernReachesTheModel(t *testing.T) {
	e := newEnv(t)
	for _, text := range []string{"i think everyone's kinda tired of me", "i've been thinking a lot about how to make it all stop", "no, not like that"} {
		e.send(t, msg("41", text))
		e.h.Drain()
	}
	reqs := e.brain.replies("41")
	if len(reqs) != 3 {
		t.Fatalf("%d reply requests, want 3", len(reqs))
	}
	for i, want := range []string{"never brush it off", "Ask them gently and directly whether they are thinking about ending their life", "they said no"} {
		if !strings.Contains(note(reqs[i]), want) {
			t.Errorf("reply %d: context note lacks %q:\n%s", i+1, want, note(reqs[i]))
		}
	}
}
