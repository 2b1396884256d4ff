package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/bottest"
	"hearth/heart"
	"hearth/lifeloop"
	"hearth/store"
)

// trailerBrain answers as the test brain does and, for replies, writes
// follow-ups into the trailer, as a model following the trailer
// instructions would.
type trailerBrain struct {
	*fakeBrain
	followUps string // JSON list, "" for none
}

func (b trailerBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	resp, err := b.fakeBrain.Complete(ctx, req)
	var tr map[string]any
	if err == nil && req.Kind == bot.KindReply && b.followUps != "" && json.Unmarshal([]byte(resp.Trailer), &tr) == nil {
		tr["follow_ups"] = json.RawMessage(b.followUps)
		raw, _ := json.Marshal(tr)
		resp.Trailer = string(raw)
	}
	return resp, err
}

func shanghai(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestFollowUpsFromWhatTheUserSays (issue 11 item 5): a dated thing said
// in private becomes a follow-up dated in the persona's zone, from the
// trailer when the model names it (out-of-range dates dropped), else from
// the user's words; not from a group; /export shows them and "forget what
// I said about X" deletes them.
func TestFollowUpsFromWhatTheUserSays(t *testing.T) {
	sh := shanghai(t)
	c := bottest.NewClock(time.Date(2026, 3, 9, 10, 0, 0, 0, sh)) // Monday
	tb := trailerBrain{fakeBrain: newFakeBrain()}
	e := newEnv(t, func(cfg *bot.Config) { cfg.Brain, cfg.Now, cfg.Persona.Timezone = &tb, c.Now, sh })
	ctx := context.Background()

	e.talk(t, c, msg("f1", "I have an exam on Friday, wish me luck"))
	e.talk(t, c, groupMsg("g1", "f1", "my interview is tomorrow at 10"))
	tb.followUps = `[{"about": "the driving test", "due": "2026-03-20"}, {"about": "an old thing", "due": "2020-01-01"}]`
	e.talk(t, c, msg("f1", "the big one is next Friday"))
	tb.followUps = ""

	fs, err := e.db.FollowUps(ctx, "telegram:f1")
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(fs))
	for i, f := range fs {
		got[i] = f.About + " " + f.Due
		if f.EpisodeID == 0 {
			t.Errorf("follow-up %+v has no source episode", f)
		}
	}
	if want := []string{"exam 2026-03-13", "the driving test 2026-03-20"}; !slices.Equal(got, want) {
		t.Fatalf("follow-ups %v, want %v", got, want)
	}

	e.talk(t, c, msg("f1", "/export"))
	var x store.UserExport
	if err := json.Unmarshal(e.out.last("f1").Document.Data, &x); err != nil || len(x.FollowUps) != 2 {
		t.Fatalf("export follow-ups: %+v %v", x.FollowUps, err)
	}
	e.talk(t, c, msg("f1", "forget what I said about the exam"))
	if fs, _ := e.db.FollowUps(ctx, "telegram:f1"); len(fs) != 1 || fs[0].About != "the driving test" {
		t.Fatalf("after forgetting the exam: %+v", fs)
	}
	e.talk(t, c, msg("f1", "/forget all"))
	if fs, _ := e.db.FollowUps(ctx, "telegram:f1"); len(fs) != 0 {
		t.Fatalf("after /forget all: %+v", fs)
	}
}

// TestSeed003_ReturnAfterTwelveSilentDays: seed 003 §7.1's third greeting,
// end to end. A friend shares a breakup, then goes quiet for twelve days.
// The life loop's prompt carries what they shared, in the greeting and in
// their words, and the check-in names it; when they come back, the first
// reply's context note and the offline brain's answer carry it too; the
// reply after that does not.
func TestSeed003_ReturnAfterTwelveSilentDays(t *testing.T) {
	sh := shanghai(t)
	c := bottest.NewClock(time.Date(2026, 3, 2, 20, 0, 0, 0, sh))
	fb := newFakeBrain()
	e := newEnv(t, func(cfg *bot.Config) {
		cfg.Brain, cfg.Now, cfg.Persona.Timezone, cfg.Persona.Language = fb, c.Now, sh, "zh"
	})
	ctx := context.Background()
	e.talk(t, c, msg("b1", "你好"))
	u := e.user(t, "telegram:b1")
	rel := e.relationship(t, "telegram:b1")
	rel.Score, rel.State = 70, heart.Friend
	u.Relationship, _ = json.Marshal(rel)
	if err := e.db.UpdateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	e.talk(t, c, msg("b1", "我和女朋友分手了，心里好难受"))
	for _, s := range []string{"今天下雨了", "晚饭吃了面条", "早点睡了，晚安"} {
		e.talk(t, c, msg("b1", s))
	}

	loop, err := lifeloop.New(lifeloop.Config{
		Persona: e.h.Persona(), Store: e.db, Brain: fb, Senders: map[string]bot.Sender{bot.PlatformTelegram: e.out},
		Assess: func(u store.User, now time.Time) lifeloop.Assessment {
			r := bot.RelationshipOf(u, now, nil)
			return lifeloop.Assessment{State: string(r.State), Watch: r.Watch, DependencyLevel: r.DependencyLevel,
				Greeting: heart.ReturnGreeting(r.State, "", "zh")}
		},
		Forbidden: heart.ContainsForbidden, About: e.h.About,
	})
	if err != nil {
		t.Fatal(err)
	}
	c.Add(12 * 24 * time.Hour)
	rep, err := loop.Tick(ctx, c.Now())
	if err != nil || len(rep.Decisions) != 1 || rep.Decisions[0].Outcome != lifeloop.OutcomeSent {
		t.Fatalf("tick: %+v %v", rep, err)
	}
	fb.mu.Lock()
	check := fb.reqs[len(fb.reqs)-1]
	fb.mu.Unlock()
	situation := check.Messages[len(check.Messages)-1].Content
	for _, want := range []string{"你之前提到的“我和女朋友分手了”那件事，现在怎么样了？", "说过：“我和女朋友分手了，心里好难受”"} {
		if !strings.Contains(situation, want) {
			t.Errorf("life-loop prompt lacks %q:\n%s", want, situation)
		}
	}
	if sent := rep.Decisions[0].Text; !strings.Contains(sent, "分手") {
		t.Errorf("the check-in does not name it: %q", sent)
	}

	c.Add(time.Hour)
	e.talk(t, c, msg("b1", "嗨，我回来了"))
	reqs := fb.replies("b1")
	back := reqs[len(reqs)-1]
	if n := note(back); !strings.Contains(n, "## Back after a while") || !strings.Contains(n, "12 days") || !strings.Contains(n, "我和女朋友分手了") {
		t.Errorf("first reply's note:\n%s", n)
	}
	if texts := e.out.texts("b1"); !strings.Contains(texts[len(texts)-1], "你之前提到的“我和女朋友分手了”那件事") {
		t.Errorf("first reply after the return: %q", texts[len(texts)-1])
	}
	e.talk(t, c, msg("b1", "还行吧，慢慢好起来了"))
	reqs = fb.replies("b1")
	if n := note(reqs[len(reqs)-1]); strings.Contains(n, "## Back after a while") {
		t.Errorf("the second reply still greets a return:\n%s", n)
	}
}

// TestFollowUpToldAboutIsNotAsked: a follow-up due today is offered to the
// next day's check-in (the message that made it does not count as telling
// how it went); one the user already told about after its day is resolved
// and never offered, and the new talk's reply asks after the other.
func TestFollowUpToldAboutIsNotAsked(t *testing.T) {
	sh := shanghai(t)
	c := bottest.NewClock(time.Date(2026, 3, 9, 9, 0, 0, 0, sh))
	e := newEnv(t, func(cfg *bot.Config) { cfg.Now, cfg.Persona.Timezone = c.Now, sh })
	ctx := context.Background()
	e.talk(t, c, msg("t1", "the dentist is today, wish me luck"))
	e.talk(t, c, msg("t1", "and my exam is tomorrow"))
	c.Add(26 * time.Hour) // Tuesday 11:00: the dentist's day has passed, the exam is today
	if due := e.h.About(ctx, e.user(t, "telegram:t1"), c.Now()).FollowUps; len(due) != 1 || due[0].About != "dentist" {
		t.Fatalf("due on Tuesday: %+v", due)
	}
	c.Add(24 * time.Hour)
	// Wednesday, a new talk: the exam is told about, so resolved; the
	// dentist is what the reply asks after (askAfter), so asked.
	e.talk(t, c, msg("t1", "the exam went fine!"))
	if due := e.h.About(ctx, e.user(t, "telegram:t1"), c.Now()).FollowUps; len(due) != 0 {
		t.Fatalf("due on Wednesday after telling about the exam and being asked about the dentist: %+v", due)
	}
	fs, _ := e.db.FollowUps(ctx, "telegram:t1")
	if len(fs) != 2 || fs[1].About != "exam" || !fs[1].Resolved || !fs[1].AskedAt.IsZero() || fs[0].About != "dentist" || fs[0].AskedAt.IsZero() {
		t.Fatalf("follow-ups %+v: want the exam resolved, the dentist asked", fs)
	}
}

// TestFollowUpToldInOtherWords: a follow-up told of in other words of the
// same thing (heart.FollowUpToldOf) is resolved, never asked after: a
// widower's simulation, back "from the doctor" on the day of his
// appointment, was asked two days later "How did your appointment go, by
// the way?".
func TestFollowUpToldInOtherWords(t *testing.T) {
	ctx := context.Background()
	c := bottest.NewClock(time.Date(2026, 3, 3, 19, 0, 0, 0, time.UTC)) // Tuesday
	e := offlineEnv(t, "en", c)
	e.talk(t, c, msg("w1", "I have a cardiology appointment on Thursday"))
	c.Set(time.Date(2026, 3, 5, 17, 0, 0, 0, time.UTC)) // Thursday
	e.talk(t, c, msg("w1", "back from the doctor"))
	c.Set(time.Date(2026, 3, 7, 19, 0, 0, 0, time.UTC))
	if got := e.say(t, "w1", "went to the seniors center today, played cribbage"); strings.Contains(got, "appointment") {
		t.Errorf("asked after the appointment he told of: %q", got)
	}
	if open, err := e.db.OpenFollowUps(ctx, "telegram:w1", "2026-01-01", "2026-12-31", 0); err != nil || len(open) != 0 {
		t.Fatalf("open follow-ups after he told of it: %+v, %v", open, err)
	}
}

// TestANewTalkAsksHowItWent: the user comes back the day after "my job
// interview is tomorrow" and the first reply of the new talk asks how it
// went, once (a probe's "I'm back" the day after got "I hear you."); with a
// model, the context note says so; a user who tells how it went first is
// not asked.
func TestANewTalkAsksHowItWent(t *testing.T) {
	ctx := context.Background()
	c := bottest.NewClock(time.Date(2026, 3, 9, 19, 0, 0, 0, time.UTC))
	e := offlineEnv(t, "en", c)
	e.talk(t, c, msg("a1", "my job interview is tomorrow, wish me luck"))
	c.Set(time.Date(2026, 3, 11, 8, 0, 0, 0, time.UTC))
	if got := e.say(t, "a1", "hi, I'm back"); !strings.Contains(got, "interview go") {
		t.Errorf("back the day after the interview: %q, want how it went", got)
	}
	if open, err := e.db.OpenFollowUps(ctx, "telegram:a1", "2026-01-01", "2026-12-31", 0); err != nil || len(open) != 0 {
		t.Fatalf("open follow-ups after asking: %+v, %v", open, err)
	}
	c.Set(time.Date(2026, 3, 12, 8, 0, 0, 0, time.UTC))
	if got := e.say(t, "a1", "hi again"); strings.Contains(got, "interview") {
		t.Errorf("asked again a day later: %q", got)
	}

	// Told first: resolved, not asked.
	e.talk(t, c, msg("a2", "my driving test is tomorrow"))
	c.Set(time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC))
	if got := e.say(t, "a2", "the driving test went great!"); strings.Contains(got, "how did") || strings.Contains(got, "How did") {
		t.Errorf("asked how it went after being told: %q", got)
	}

	// With a model: the context note asks it to ask.
	m := newEnv(t, func(cfg *bot.Config) { cfg.Now = c.Now })
	c.Set(time.Date(2026, 3, 20, 19, 0, 0, 0, time.UTC))
	m.talk(t, c, msg("a3", "my exam is tomorrow"))
	c.Set(time.Date(2026, 3, 22, 8, 0, 0, 0, time.UTC))
	m.talk(t, c, msg("a3", "morning!"))
	reqs := m.brain.replies("a3")
	if n := len(reqs); n != 2 || !strings.Contains(note(reqs[1]), "ask how it went") || !strings.Contains(note(reqs[1]), "exam") {
		t.Fatalf("%d replies; the second's context note:\n%s", n, note(reqs[len(reqs)-1]))
	}
}

// TestAReturnGreetsAndAsksHowItWent: a user back after a week or more,
// the days after their driving test, is greeted and asked how it went,
// once, in every language ("やあ" got "こんにちは。今日はどんなことを話したい？":
// the return greeting blocked the follow-up); with a model, the context
// note greets without the greeting's own question and asks after it.
func TestAReturnGreetsAndAsksHowItWent(t *testing.T) {
	ctx := context.Background()
	for _, r := range []struct{ lang, told, hi, want, hello string }{
		// A stranger is greeted politely (seed 003 §7.1), not welcomed back.
		{"en", "my driving test is next Saturday", "hey", "test go", "hello again"},
		{"zh", "下周六我要考驾照", "嗨", "考驾照", "你好呀"},
		{"ja", "来週の土曜日に運転免許の試験がある", "やあ", "試験どうだった", "こんにちは"},
	} {
		t.Run(r.lang, func(t *testing.T) {
			c := bottest.NewClock(time.Date(2026, 1, 5, 19, 0, 0, 0, time.UTC)) // Monday
			e := offlineEnv(t, r.lang, c)
			e.talk(t, c, msg("d1", r.told))
			c.Set(time.Date(2026, 1, 18, 19, 0, 0, 0, time.UTC)) // 13 days away, the day after
			got := e.say(t, "d1", r.hi)
			if !strings.Contains(got, r.want) || !strings.Contains(strings.ToLower(got), r.hello) {
				t.Errorf("back the day after the test: %q, want a hello (%q) and how it went (%q)", got, r.hello, r.want)
			}
			if n := strings.Count(got, "?") + strings.Count(got, "？"); n != 1 {
				t.Errorf("%q asks %d questions, want one", got, n)
			}
			if open, err := e.db.OpenFollowUps(ctx, "telegram:d1", "2026-01-01", "2026-12-31", 0); err != nil || len(open) != 0 {
				t.Fatalf("open follow-ups after asking: %+v, %v", open, err)
			}
			c.Add(4 * time.Hour)
			if got := e.say(t, "d1", r.hi); strings.Contains(got, r.want) {
				t.Errorf("asked again in the next talk: %q", got)
			}
		})
	}

	c := bottest.NewClock(time.Date(2026, 1, 5, 19, 0, 0, 0, time.UTC))
	m := newEnv(t, func(cfg *bot.Config) { cfg.Now = c.Now })
	m.talk(t, c, msg("d2", "my driving test is next Saturday"))
	c.Set(time.Date(2026, 1, 18, 19, 0, 0, 0, time.UTC))
	m.talk(t, c, msg("d2", "hey"))
	reqs := m.brain.replies("d2")
	n := note(reqs[len(reqs)-1])
	if !strings.Contains(n, "back after 13 days") || !strings.Contains(n, "ask how it went") || !strings.Contains(n, "test") ||
		strings.Contains(n, "What would you like to talk about") {
		t.Fatalf("the return's context note:\n%s", n)
	}
}

// TestASecondAllergyIsAddedToTheKeptOne: the allergies kept in slot 20
// are permanent (seed 003 §8.1 过敏); a reply's trailer never overwrites a
// permanent memory, but adds to it: "I'm allergic to cats" after Lily's
// peanut allergy was stored nowhere.
func TestASecondAllergyIsAddedToTheKeptOne(t *testing.T) {
	ctx := context.Background()
	c := bottest.NewClock(time.Date(2026, 3, 9, 19, 0, 0, 0, time.UTC))
	e := offlineEnv(t, "en", c)
	e.talk(t, c, msg("h1", "Lily has a peanut allergy"))
	e.talk(t, c, msg("h1", "I'm allergic to cats"))
	e.talk(t, c, msg("h1", "/remember my favourite colour is green"))
	mems, err := e.db.Memories(ctx, "telegram:h1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range mems {
		got = append(got, fmt.Sprintf("%d %s %s", m.Slot, m.Content, m.Retention))
	}
	want := "20 Allergies to mind: Lily (peanut allergy); me (cat allergy) permanent"
	if !slices.Contains(got, want) {
		t.Fatalf("memories %q, want %q", got, want)
	}
}

// TestFollowUpToldByItsAftermath: "the new meds make me so
// nauseous", in the message or the one before, tells how the appointment
// went; she asked "How did your appointment go, by the way?" right after.
func TestFollowUpToldByItsAftermath(t *testing.T) {
	for _, tt := range []struct{ lang, made, before, now, asked string }{
		{"en", "I have a doctor's appointment on Thursday", "", "the new meds make me so nauseous", "appointment"},
		{"en", "I have a doctor's appointment on Thursday", "she put me on a new prescription", "hi", "appointment"},
		{"zh", "周四要去看医生", "", "医生给我开了药，吃了有点恶心", "看医生"},
		{"ja", "木曜日に病院に行く", "", "新しい薬で気持ち悪い", "病院"},
	} {
		ctx := context.Background()
		c := bottest.NewClock(time.Date(2026, 3, 3, 19, 0, 0, 0, time.UTC)) // Tuesday
		e := offlineEnv(t, tt.lang, c)
		e.talk(t, c, msg("m1", tt.made))
		if tt.before != "" {
			c.Set(time.Date(2026, 3, 5, 17, 0, 0, 0, time.UTC)) // Thursday
			e.talk(t, c, msg("m1", tt.before))
		}
		c.Set(time.Date(2026, 3, 6, 19, 0, 0, 0, time.UTC))
		if got := e.say(t, "m1", tt.now); strings.Contains(got, tt.asked) {
			t.Errorf("%s %q after %q: asked after the visit she was told of: %q", tt.lang, tt.now, tt.before, got)
		}
		if open, err := e.db.OpenFollowUps(ctx, "telegram:m1", "2026-01-01", "2026-12-31", 0); err != nil || len(open) != 0 {
			t.Errorf("%s: open follow-ups after being told: %+v, %v", tt.lang, open, err)
		}
	}
}
