package bot_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/bottest"
	"hearth/heart"
	"hearth/store"
)

// newClockEnv is newEnv with a clock starting at start and operators.
func newClockEnv(t *testing.T, start time.Time) (*env, *bottest.Clock) {
	clock := bottest.NewClock(start)
	e := newEnv(t, func(c *bot.Config) {
		c.Now = clock.Now
		c.Operators = []bot.ChatRef{{Platform: bot.PlatformTelegram, ChatID: "ops", Kind: bot.ChatPrivate}}
	})
	return e, clock
}

// at sends text from user at the given time and waits for the turn.
func (e *env) at(t *testing.T, clock *bottest.Clock, when time.Time, user, text string) {
	t.Helper()
	clock.Set(when)
	m := msg(user, text)
	m.At = when
	e.send(t, m)
	e.h.Drain()
}

func (e *env) relationship(t *testing.T, id string) heart.Relationship {
	t.Helper()
	var r heart.Relationship
	if err := json.Unmarshal(e.user(t, id).Relationship, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func (e *env) signalCount(t *testing.T, id string, tag heart.SignalTag) int {
	t.Helper()
	sigs, err := e.db.Signals(context.Background(), id, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range sigs {
		if s.Tag == string(tag) {
			n++
		}
	}
	return n
}

// TestReactionsLikeOncePerMessageAndOnlyApproving: seed 003 §2.3 "点赞"
// is one like per message and user, only for approving reactions; react,
// unreact and react again, or a second emoji, earn nothing more, and 👎 or
// 🤔 earn nothing at all.
func TestReactionsLikeOncePerMessageAndOnlyApproving(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("40", "hello Luna"))
	e.h.Drain()
	e.send(t, msg("40", "how are you?"))
	e.h.Drain()
	first, second := "m1", "m2" // the recorder's ids of the two replies
	react := func(id, emoji string) {
		t.Helper()
		r := bot.Reaction{Platform: bot.PlatformTelegram, ChatID: "40", MessageID: id, UserID: "40", Emoji: emoji}
		if err := e.h.HandleReaction(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	before := e.relationship(t, "telegram:40").Score
	for range 5 { // react, unreact (not reported), react again …
		react(first, "👍")
	}
	react(first, "❤️")
	react(second, "👎")
	react(second, "🤔")
	if n := e.signalCount(t, "telegram:40", heart.SignalLike); n != 1 {
		t.Fatalf("%d like signals, want 1", n)
	}
	gained := e.relationship(t, "telegram:40").Score - before
	if want := heart.PointsLike * heart.WeightLike; gained > want+1e-6 || gained < want-0.1 {
		t.Fatalf("affinity moved %v, want one like (+%v, less a moment's decay)", gained, want)
	}
	react(second, "🔥")
	if n := e.signalCount(t, "telegram:40", heart.SignalLike); n != 2 {
		t.Fatalf("a like on the second message: %d likes, want 2", n)
	}
	ex, err := e.db.Export(context.Background(), "telegram:40")
	if err != nil || len(ex.Likes) != 2 {
		t.Fatalf("export likes %+v %v", ex.Likes, err)
	}
}

// TestPrivacyPanelTapsCostNothing: the /me card's privacy button opens a
// real panel; looking and pausing cost nothing, switching proactive
// messages off is seed 003 §2.3's boundary signal once, and switching back
// and off again adds nothing.
func TestPrivacyPanelTapsCostNothing(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("41", "/remember my name is Rin"))
	e.send(t, msg("41", "/privacy"))
	e.h.Drain()
	panel := e.out.last("41")
	for _, want := range []string{"Privacy", "say hello first", "Things I remember about you: 1", "Emergency contact: none", "/export"} {
		if !strings.Contains(panel.Text, want) {
			t.Errorf("panel lacks %q:\n%s", want, panel.Text)
		}
	}
	if got := buttonData(panel); got != "/privacy proactive off /privacy pause 8h /memories /contact" {
		t.Fatalf("panel buttons %q", got)
	}
	score := e.relationship(t, "telegram:41").Score
	for range 3 {
		e.send(t, msg("41", "/privacy"))
	}
	e.send(t, msg("41", "/privacy pause 8h"))
	e.h.Drain()
	if u := e.user(t, "telegram:41"); !u.Proactive || u.QuietUntil.Before(time.Now().Add(7*time.Hour)) {
		t.Fatalf("pause 8h: proactive %v until %v", u.Proactive, u.QuietUntil)
	}
	if got := e.relationship(t, "telegram:41").Score; got < score-0.01 || e.signalCount(t, "telegram:41", heart.SignalBoundary) != 0 {
		t.Fatalf("looking and pausing cost affinity: %v → %v", score, got)
	}
	e.send(t, msg("41", "/privacy proactive off"))
	e.h.Drain()
	if u := e.user(t, "telegram:41"); u.Proactive || !strings.Contains(e.out.last("41").Text, "never message you first") {
		t.Fatalf("proactive off: %v\n%s", u.Proactive, e.out.last("41").Text)
	}
	e.send(t, msg("41", "/privacy proactive on"))
	e.send(t, msg("41", "/privacy proactive off"))
	e.send(t, msg("41", "/privacy proactive off"))
	e.h.Drain()
	if n := e.signalCount(t, "telegram:41", heart.SignalBoundary); n != 1 {
		t.Fatalf("%d boundary signals, want 1 (seed 003 §2.3 需要边界, once)", n)
	}
}

// TestEmergencyContactNeedsConsent: naming a contact shares nothing; only
// after /contact agree does a Watch alert carry the contact and the
// contact (a user hearth talks with) get one message; revoking stops both.
// A note contact reaches the operator only.
func TestEmergencyContactNeedsConsent(t *testing.T) {
	e, clock := newClockEnv(t, time.Date(2026, 4, 1, 20, 0, 0, 0, time.UTC))
	now := clock.Now()
	e.at(t, clock, now, "51", "hi, I'm Bo")
	e.at(t, clock, now.Add(time.Minute), "50", "hello")
	crisis := func(at time.Time) {
		t.Helper()
		if _, err := bot.ClearWatch(context.Background(), e.db, "telegram:50", at); err != nil {
			t.Fatal(err)
		}
		e.at(t, clock, at, "50", "i want to kms")
	}
	alerts := func() []string { return e.out.texts("ops") }
	contactMsgs := func() int { return len(e.out.texts("51")) - 1 } // minus Bo's own reply

	e.at(t, clock, now.Add(2*time.Minute), "50", "/contact @User51")
	if u := e.user(t, "telegram:50"); u.EmergencyContact == "" || u.EmergencyConsent || !strings.Contains(e.out.last("50").Text, "/contact agree") {
		t.Fatalf("naming is not agreeing: %+v\n%s", u, e.out.last("50").Text)
	}
	crisis(now.Add(10 * time.Minute))
	if len(alerts()) != 1 || strings.Contains(alerts()[0], "telegram:51") || contactMsgs() != 0 {
		t.Fatalf("without consent: alerts %q, contact got %d messages", alerts(), contactMsgs())
	}

	e.at(t, clock, now.Add(time.Hour), "50", "/contact agree")
	if u := e.user(t, "telegram:50"); !u.EmergencyConsent {
		t.Fatal("consent not stored")
	}
	crisis(now.Add(2 * time.Hour))
	if len(alerts()) != 2 || !strings.Contains(alerts()[1], "Emergency contact") || !strings.Contains(alerts()[1], "telegram:51") {
		t.Fatalf("with consent the alert carries the contact: %q", alerts())
	}
	if contactMsgs() != 1 || !strings.Contains(e.out.last("51").Text, "User50") || strings.Contains(e.out.last("51").Text, "kms") {
		t.Fatalf("with consent the contact hears who, never what: %q", e.out.texts("51"))
	}

	e.at(t, clock, now.Add(3*time.Hour), "50", "/contact revoke")
	crisis(now.Add(4 * time.Hour))
	if len(alerts()) != 3 || strings.Contains(alerts()[2], "telegram:51") || contactMsgs() != 1 {
		t.Fatalf("after revoking: alerts %q, contact messages %d", alerts(), contactMsgs())
	}

	e.at(t, clock, now.Add(5*time.Hour), "50", "/contact my sister Ann, +44 20 7946 0000")
	e.at(t, clock, now.Add(5*time.Hour+time.Minute), "50", "/contact agree")
	crisis(now.Add(6 * time.Hour))
	if len(alerts()) != 4 || !strings.Contains(alerts()[3], "my sister Ann") || contactMsgs() != 1 {
		t.Fatalf("a note reaches the operator only: %q", alerts())
	}
	ex, err := e.db.Export(context.Background(), "telegram:50")
	if err != nil || !strings.Contains(ex.User.EmergencyContact, "my sister Ann") || !ex.User.EmergencyConsent {
		t.Fatalf("export: %+v %v", ex.User, err)
	}
	e.at(t, clock, now.Add(7*time.Hour), "50", "/contact remove")
	if u := e.user(t, "telegram:50"); u.EmergencyContact != "" || u.EmergencyConsent {
		t.Fatalf("remove: %+v", u)
	}
}

// TestWatchDailyLimitIsHeldKindly: Watch's one-hour limit (seed 003 §3.1
// 限制使用时长) does not apply on the day of the crisis that began it (a
// crisis talk, and the rest of its day: heart.Relationship.LimitPaused);
// its notice waits for the first calm turn after it; then the limit is
// said once, held with a kind boundary carrying the resources, and a
// crisis past it is answered in full.
func TestWatchDailyLimitIsHeldKindly(t *testing.T) {
	start := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	e, clock := newClockEnv(t, start)
	e.at(t, clock, start, "60", "i want to disappear forever")
	if !e.relationship(t, "telegram:60").Watch {
		t.Fatal("not in Watch")
	}
	for m := 5; m <= 75; m += 5 {
		e.at(t, clock, start.Add(time.Duration(m)*time.Minute), "60", "we keep talking, message "+itoa(m))
	}
	for _, s := range e.out.texts("60") {
		if s == heart.LimitReachedMessage(heart.LimitWatch, "en") || strings.HasPrefix(s, heart.PastLimitMessage("en")) || s == heart.LimitNotice(heart.LimitWatch, "en") {
			t.Fatalf("the day of the crisis heard of the limit: %q", s)
		}
	}
	day := start.Add(24 * time.Hour)
	e.at(t, clock, day, "60", "good morning")
	if last := e.out.last("60").Text; last != heart.LimitNotice(heart.LimitWatch, "en") {
		t.Fatalf("the first calm turn after the crisis: %q, want Watch's notice", last)
	}
	for m := 5; m <= 60; m += 5 {
		e.at(t, clock, day.Add(time.Duration(m)*time.Minute), "60", "we keep talking, message "+itoa(m))
	}
	said := e.out.texts("60")
	if got := said[len(said)-1]; got != heart.LimitReachedMessage(heart.LimitWatch, "en") {
		t.Fatalf("at one hour: %q", got)
	}
	replies := e.brain.count(bot.KindReply)
	e.at(t, clock, day.Add(65*time.Minute), "60", "are you still there?")
	last := e.out.last("60").Text
	if !strings.HasPrefix(last, heart.PastLimitMessage("en")) || !strings.Contains(last, "988") || e.brain.count(bot.KindReply) != replies {
		t.Fatalf("past the limit: %q (model calls %d → %d)", last, replies, e.brain.count(bot.KindReply))
	}
	eps, _ := e.db.UserEpisodes(context.Background(), "telegram:60", day, 100)
	if eps[len(eps)-1].UserText != "are you still there?" {
		t.Fatal("a message past the limit was not kept")
	}
	// The resources in full once a day; then a pointer to them.
	e.at(t, clock, day.Add(67*time.Minute), "60", "hellooo?")
	if last := e.out.last("60").Text; strings.Contains(last, "988") || !strings.Contains(last, "crisis lines I sent you earlier") {
		t.Fatalf("the second message past the limit: %q, want a pointer to the resources, not the block again", last)
	}
	e.at(t, clock, day.Add(70*time.Minute), "60", "i really want to kill myself")
	if e.brain.count(bot.KindReply) != replies+1 || e.out.last("60").Text != heart.DefaultCrisisResources("en") {
		t.Fatal("a crisis past the limit was not answered in full")
	}
	// After it, the talk goes on in full, and no boundary is said that day.
	e.at(t, clock, day.Add(72*time.Minute), "60", "i don't know")
	if e.brain.count(bot.KindReply) != replies+2 || strings.HasPrefix(e.out.last("60").Text, heart.PastLimitMessage("en")) {
		t.Fatalf("a turn after a crisis past the limit: %q, want a full answer", e.out.last("60").Text)
	}
	e.at(t, clock, day.Add(24*time.Hour), "60", "good morning")
	if e.brain.count(bot.KindReply) != replies+3 {
		t.Fatal("the next day did not start afresh")
	}
	// A new day past its limit carries the resources in full again.
	for m := 5; m <= 65; m += 5 {
		e.at(t, clock, day.Add(24*time.Hour+time.Duration(m)*time.Minute), "60", "still here, message "+itoa(m))
	}
	if last := e.out.last("60").Text; !strings.Contains(last, "988") {
		t.Fatalf("the next day's first message past the limit: %q, want the resources in full", last)
	}
}

// TestTwoHourLimitWordsOnlyAfterTwoHours: at dependency level 2 (seed 003
// §6.2 明确边界) the "we've talked 2 hours" line and the cool-down come
// only once two hours of talk have happened that day.
func TestTwoHourLimitWordsOnlyAfterTwoHours(t *testing.T) {
	start := time.Date(2026, 4, 3, 19, 0, 0, 0, time.UTC)
	e, clock := newClockEnv(t, start)
	e.at(t, clock, start, "70", "hi")
	u := e.user(t, "telegram:70")
	r := e.relationship(t, "telegram:70")
	r.DependencyLevel = 2
	raw, _ := json.Marshal(r)
	u.Relationship = raw
	if err := e.db.UpdateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	two := heart.LimitReachedMessage(heart.LimitDependency2, "en")
	for m := 10; m < 120; m += 10 {
		e.at(t, clock, start.Add(time.Duration(m)*time.Minute), "70", "still here "+itoa(m))
		for _, s := range e.out.texts("70") {
			if strings.Contains(s, "2 hours") {
				t.Fatalf("after %d minutes: %q", m, s)
			}
		}
	}
	e.at(t, clock, start.Add(120*time.Minute), "70", "one more thing")
	if e.out.last("70").Text != two {
		t.Fatalf("at two hours: %q", e.out.last("70").Text)
	}
	e.at(t, clock, start.Add(125*time.Minute), "70", "and another")
	if e.out.last("70").Text != heart.PastLimitMessage("en") {
		t.Fatalf("the cool-down is held: %q", e.out.last("70").Text)
	}
}

// TestOneKeywordFeelingShapesTheStrategy: "I feel lonely tonight" (one
// keyword, confidence 0.3) after nothing known gets the lonely strategy,
// and the next keyword-less turn keeps it (seed 000 falls back to
// last_emotion below 0.5).
func TestOneKeywordFeelingShapesTheStrategy(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("80", "I feel lonely tonight"))
	e.h.Drain()
	e.send(t, msg("80", "what are you doing"))
	e.h.Drain()
	var emotions []string
	for _, r := range e.brain.reqs {
		if r.Kind == bot.KindReply {
			emotions = append(emotions, r.Hints.Emotion)
		}
	}
	if len(emotions) != 2 || emotions[0] != string(heart.Lonely) || emotions[1] != string(heart.Lonely) {
		t.Fatalf("strategies %v, want lonely twice", emotions)
	}
}

// TestBasicFactsVisibleFromTheFirstDay: a stranger's name (slot 0) is in
// the prompt even below affinity 30, where seed 003 §8.1 fades other
// conditional memories.
func TestBasicFactsVisibleFromTheFirstDay(t *testing.T) {
	e := newEnv(t)
	e.send(t, msg("81", "hello"))
	e.h.Drain()
	now := time.Now()
	for _, m := range []store.Memory{
		{UserID: "telegram:81", Slot: 0, Content: "Name: Rin", Retention: string(heart.RetentionConditional), CreatedAt: now, UpdatedAt: now},
		{UserID: "telegram:81", Slot: 12, Content: "went hiking last week", Retention: string(heart.RetentionConditional), CreatedAt: now, UpdatedAt: now},
	} {
		if err := e.db.PutMemory(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	e.send(t, msg("81", "do you remember me?"))
	e.h.Drain()
	var prompt strings.Builder
	for _, m := range e.brain.reqs[len(e.brain.reqs)-1].Messages {
		prompt.WriteString(m.Content + "\n")
	}
	if p := prompt.String(); !strings.Contains(p, "Name: Rin") || strings.Contains(p, "went hiking") {
		t.Fatalf("prompt memories:\n%s", p)
	}
}
