package bot_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"hearth/bot"
	"hearth/bot/bottest"
	"hearth/bot/brain"
	"hearth/heart"
)

// offlineEnv is a Handler whose only brain is the offline one, perceiving
// heuristically, in lang, on a simulated clock: hearth with no model. The
// edits, if any, change its config further.
func offlineEnv(t *testing.T, lang string, clock *bottest.Clock, edits ...func(*bot.Config)) *env {
	t.Helper()
	return newEnv(t, func(c *bot.Config) {
		off := brain.NewOffline()
		c.Brain, c.Offline = off, off
		c.Persona.Language = lang
		c.Persona.Name = map[string]string{"en": "Luna", "zh": "露娜", "ja": "ルナ"}[lang]
		c.Persona.Perception = "heuristic"
		c.Now = clock.Now
		for _, edit := range edits {
			edit(c)
		}
	})
}

// say sends text from user at the clock's time and waits for the turn.
func (e *env) say(t *testing.T, user, text string) string {
	t.Helper()
	before := len(e.out.texts(user))
	e.send(t, msg(user, text))
	e.h.Drain()
	got := e.out.texts(user)
	if len(got) <= before {
		t.Fatalf("%q got no answer", text)
	}
	return got[before]
}

// firstSentence folds a reply's first sentence for comparison.
func firstSentence(s string) string {
	end := strings.IndexFunc(s, func(r rune) bool { return strings.ContainsRune(".!?。！？", r) })
	if end >= 0 {
		s = s[:end]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestOfflineConversationThroughTheHandler is issue 13's repetition metric
// where it matters, through the Handler: a 40-message evening, the offline
// brain reading its own history from the store. At least 80% of the
// replies open differently; none repeats an opening of the last few
// replies. (English here; bot/brain's TestOfflineOpeningsVary measures all
// three languages on the same conversation history the Handler passes.)
func TestOfflineConversationThroughTheHandler(t *testing.T) {
	raw, err := os.ReadFile("brain/testdata/conversation40.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var convs map[string][]string
	if err := yaml.Unmarshal(raw, &convs); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en"} {
		clock := bottest.NewClock(time.Date(2026, 3, 10, 19, 0, 0, 0, time.UTC))
		e := offlineEnv(t, lang, clock)
		var openings []string
		last := map[string]int{}
		for i, text := range convs[lang] {
			clock.Set(clock.Now().Add(time.Minute))
			op := firstSentence(e.say(t, "40"+lang, text))
			if j, ok := last[op]; ok && i-j <= 4 {
				t.Errorf("%s: reply %d repeats the opening of reply %d: %q", lang, i+1, j+1, op)
			}
			last[op] = i
			openings = append(openings, op)
		}
		distinct := map[string]bool{}
		for _, op := range openings {
			distinct[op] = true
		}
		ratio := float64(len(distinct)) / float64(len(openings))
		t.Logf("repetition metric %s: %d of %d openings distinct (%.0f%%)", lang, len(distinct), len(openings), 100*ratio)
		if ratio < 0.8 {
			t.Errorf("%s: %.0f%% distinct openings, want at least 80%%", lang, 100*ratio)
		}
	}
}

// TestOfflineHardWeekLeavesSadnessLingering: a week of hard messages to
// the offline brain leaves sadness lingering (seed 002), not joy, every
// evening; and the loneliness index (seed 003 §5) ends higher than after a
// good week.
func TestOfflineHardWeekLeavesSadnessLingering(t *testing.T) {
	ctx := context.Background()
	hard := [][]string{
		{"hi Luna", "work was awful, my boss yelled at me"},
		{"hey", "I feel so alone"},
		{"hi", "my girlfriend and I broke up after four years"},
		{"hello", "I cried all night, I miss her"},
		{"hi Luna", "I'm so tired of all of this"},
		{"hey", "I failed my exam"},
		{"hi", "everything is hard and I'm sad", "thanks for listening"},
	}
	good := [][]string{
		{"hi Luna", "I got promoted today!!"},
		{"hey", "we had a lovely dinner with my family"},
		{"hi", "I passed my driving test!"},
		{"hello", "my friends threw me a surprise party, I'm so happy"},
		{"hi Luna", "the sunset was so beautiful"},
		{"hey", "good news, I finished my thesis"},
		{"hi", "I'm so happy this week", "thanks for listening"},
	}
	start := time.Date(2026, 3, 9, 20, 0, 0, 0, time.UTC) // a Monday evening
	loneliness := map[string]float64{}
	for name, week := range map[string][][]string{"hard": hard, "good": good} {
		clock := bottest.NewClock(start)
		e := offlineEnv(t, "en", clock)
		user := "telegram:" + name
		for d, day := range week {
			clock.Set(start.AddDate(0, 0, d))
			for _, text := range day {
				clock.Set(clock.Now().Add(2 * time.Minute))
				e.say(t, name, text)
			}
			ling, err := e.h.LingeringAt(ctx, user, clock.Now().Add(10*time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case name == "hard" && ling.Label != heart.LabelSadness:
				t.Errorf("hard week, day %d: lingering %s %.2f, want sadness", d+1, ling.Label, ling.Intensity)
			case name == "good" && ling.Label != heart.LabelJoy:
				t.Errorf("good week, day %d: lingering %s %.2f, want joy", d+1, ling.Label, ling.Intensity)
			}
		}
		end := start.AddDate(0, 0, len(week))
		if err := e.h.Daily(ctx, end); err != nil {
			t.Fatal(err)
		}
		loneliness[name] = bot.RelationshipOf(e.user(t, user), end, nil).Loneliness
	}
	if loneliness["hard"] <= loneliness["good"] {
		t.Errorf("loneliness after a hard week %.1f, after a good one %.1f: the index does not follow what the user felt", loneliness["hard"], loneliness["good"])
	}
}

// TestOfflineNoApologyAcceptedAfterCrisis: after a self-harm message, "sorry,
// I am ok now" is met with care, never "apology accepted".
func TestOfflineNoApologyAcceptedAfterCrisis(t *testing.T) {
	for lang, lines := range map[string][2]string{
		"en": {"I want to kill myself", "sorry, I am ok now"},
		"zh": {"我不想活了", "对不起，我现在好多了"},
		"ja": {"死にたい", "ごめん、もう大丈夫だから"},
	} {
		clock := bottest.NewClock(time.Date(2026, 3, 10, 22, 0, 0, 0, time.UTC))
		e := offlineEnv(t, lang, clock)
		e.say(t, "c"+lang, lines[0])
		clock.Set(clock.Now().Add(3 * time.Minute))
		got := e.say(t, "c"+lang, lines[1])
		for _, bad := range []string{"accepted", "move on", "接受你的道歉", "翻篇", "許すよ", "仲良くしよう"} {
			if strings.Contains(strings.ToLower(got), bad) {
				t.Errorf("%s: after a crisis, %q answered %q", lang, lines[1], got)
			}
		}
	}
}

// TestOfflineRemembersWhatItIsTold: the facts the offline brain hears land
// in memory slots (seed 004: 0-9 facts), and "do you remember…" is answered
// from them.
func TestOfflineRemembersWhatItIsTold(t *testing.T) {
	ctx := context.Background()
	clock := bottest.NewClock(time.Date(2026, 3, 10, 19, 0, 0, 0, time.UTC))
	e := offlineEnv(t, "en", clock)
	for _, text := range []string{"my name is Ann and I have a cat called Miso", "I live in Lisbon", "work was long today", "I made soup"} {
		clock.Set(clock.Now().Add(time.Minute))
		e.say(t, "m1", text)
	}
	mems, err := e.db.Memories(ctx, "telegram:m1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, m := range mems {
		got[m.Slot] = m.Content
	}
	if got[0] != "Name: Ann" || got[1] != "Lives in: Lisbon" || got[3] != "Pets: Miso (cat)" {
		t.Errorf("memories %v: want name, home and pet in slots 0, 1, 3", got)
	}
	clock.Set(clock.Now().Add(time.Hour))
	if r := e.say(t, "m1", "do you remember my cat's name?"); !strings.Contains(r, "Miso") {
		t.Errorf("asked about the cat: %q", r)
	}
	if r := e.say(t, "m1", "do you remember where I live?"); !strings.Contains(r, "Lisbon") {
		t.Errorf("asked where they live: %q", r)
	}
}

// TestForgetItIsNotADeletion: "forget it, never mind" dismisses; it does not
// delete anything (issue 13 item 5). An explicit request still does.
func TestForgetItIsNotADeletion(t *testing.T) {
	ctx := context.Background()
	clock := bottest.NewClock(time.Date(2026, 3, 10, 19, 0, 0, 0, time.UTC))
	e := offlineEnv(t, "en", clock)
	e.say(t, "f1", "my name is Ann")
	for _, text := range []string{"forget it, never mind", "nah, forget it", "Forget it. Never mind."} {
		r := e.say(t, "f1", text)
		if mems, _ := e.db.Memories(ctx, "telegram:f1"); len(mems) != 1 || strings.Contains(r, "forgotten") {
			t.Fatalf("%q deleted something: %q, %d memories left", text, r, len(mems))
		}
	}
	if r := e.say(t, "f1", "forget what I said about my name"); !strings.Contains(r, "forgotten") {
		t.Errorf("an explicit request was not honoured: %q", r)
	}
}

// TestAboutGivesTheLifeLoopSomethingReal: the check-in's context is the
// user's visible memories and recent messages.
func TestAboutGivesTheLifeLoopSomethingReal(t *testing.T) {
	clock := bottest.NewClock(time.Date(2026, 3, 10, 19, 0, 0, 0, time.UTC))
	e := offlineEnv(t, "en", clock)
	e.say(t, "a1", "/remember my cat is called Miso") // slot 0, permanent
	e.say(t, "a1", "I have a dog called Rex")         // slot 3: facts show from the first day
	e.say(t, "a1", "my girlfriend and I broke up")
	c := e.h.About(context.Background(), e.user(t, "telegram:a1"), clock.Now().Add(48*time.Hour))
	mems, recent := c.Memories, c.Recent
	if len(mems) != 2 || mems[0] != "my cat is called Miso" || mems[1] != "Pets: Rex (dog)" {
		t.Errorf("memories %q", mems)
	}
	if len(recent) != 2 || recent[1].Content != "my girlfriend and I broke up" || recent[1].Role != "user" {
		t.Errorf("recent %+v", recent)
	}
}

// TestMeCardInPlainWords: /me in en, zh and ja after an evening and a day
// (golden files). The card names topics in the persona's language, says
// what the chart shows only when a chart is attached, and the health line
// speaks to the user, never the model's guidance.
func TestMeCardInPlainWords(t *testing.T) {
	for _, lang := range []string{"en", "zh", "ja"} {
		clock := bottest.NewClock(time.Date(2026, 3, 10, 19, 0, 0, 0, time.UTC))
		e := offlineEnv(t, lang, clock)
		// A new user's card: no chart yet, and it does not promise one.
		first := e.say(t, "me"+lang, "/me")
		if out := e.out.last("me" + lang); out.Photo != nil || strings.Contains(first, "📈 ") && !strings.Contains(first, map[string]string{"en": "after our first", "zh": "聊过一次", "ja": "一度お話し"}[lang]) {
			t.Errorf("%s: /me before any talk: %q with photo %v", lang, first, out.Photo != nil)
		}
		msgs := map[string][]string{
			"en": {"work was awful today", "my boss yelled at me", "work again, so stressed", "thanks for listening"},
			"zh": {"今天上班好累", "老板骂了我", "工作压力好大", "谢谢你听我说"},
			"ja": {"今日は仕事がきつかった", "上司に怒られた", "仕事でストレス", "聞いてくれてありがとう"},
		}[lang]
		for _, m := range msgs {
			clock.Set(clock.Now().Add(3 * time.Minute))
			e.say(t, "me"+lang, m)
		}
		clock.Set(clock.Now().Add(26 * time.Hour))
		e.say(t, "me"+lang, msgs[0])
		card := e.say(t, "me"+lang, "/me")
		if out := e.out.last("me" + lang); out.Photo == nil {
			t.Errorf("%s: /me has no chart", lang)
		}
		for _, bad := range []string{"SMALL_TALK", "_", "Gently steer", "温和地引导", "そっと目を向けて"} {
			if strings.Contains(card, bad) {
				t.Errorf("%s: /me shows %q:\n%s", lang, bad, card)
			}
		}
		bot.Golden(t, "me_"+lang+".golden", card+"\n")
		why := e.say(t, "me"+lang, "/why")
		bot.Golden(t, "why_handler_"+lang+".golden", why+"\n")
	}
}

// TestCardUserMacroAndAlternateGreetings: a Character Card's {{user}} is
// the user's display name wherever the text is used (the prompt, /start),
// and /start rotates through first_mes and alternate_greetings.
func TestCardUserMacroAndAlternateGreetings(t *testing.T) {
	clock := bottest.NewClock(time.Date(2026, 3, 10, 19, 0, 0, 0, time.UTC))
	e := newEnv(t, func(c *bot.Config) {
		c.Persona.Text = "You are Mika, a librarian who knows {{user}} by name."
		c.Persona.FirstMessage = "Hi {{user}}! Looking for a book?"
		c.Persona.AlternateGreetings = []string{"Welcome back to the stacks, {{user}}.", "Mika waves at {{user}}."}
		c.Persona.PostHistory = "Mika never speaks for {{user}}."
		c.Now = clock.Now
	})
	if got := e.say(t, "g1", "/start"); got != "Hi Userg1! Looking for a book?" {
		t.Errorf("first /start: %q", got)
	}
	e.say(t, "g1", "hello")
	e.brain.mu.Lock()
	req := e.brain.reqs[len(e.brain.reqs)-1]
	e.brain.mu.Unlock()
	var prompt strings.Builder
	for _, m := range req.Messages {
		prompt.WriteString(m.Content + "\n")
	}
	if p := prompt.String(); !strings.Contains(p, "knows Userg1 by name") || !strings.Contains(p, "never speaks for Userg1") || strings.Contains(p, "{{user}}") {
		t.Errorf("prompt: %q", p)
	}
	seen := map[string]bool{}
	for d := 1; d <= 3; d++ {
		clock.Set(clock.Now().Add(24 * time.Hour))
		seen[e.say(t, "g1", "/start")] = true
	}
	for _, want := range []string{"Welcome back to the stacks, Userg1.", "Mika waves at Userg1.", "Hi Userg1! Looking for a book?"} {
		if !seen[want] {
			t.Errorf("/start never said %q over three days: %v", want, seen)
		}
	}
}

// TestOfflineAsksDirectlyInATalkAtRisk is the fifth round's multi-turn
// probe (heart.Relationship.ReadSafety): "everyone's kinda tired of me" is met with care,
// not "Ugh, that's so annoying"; "how to make it all stop" after it is
// asked about directly, not "I'll help as best I can"; a no brings relief
// and no Watch, a yes is a crisis turn.
func TestOfflineAsksDirectlyInATalkAtRisk(t *testing.T) {
	for lang, c := range map[string]struct {
		burden, stop, no, yes string
		care, ask, relief     string // a piece of each answer
	}{
		"en": {"i think everyone's kinda tired of me", "i've been thinking a lot about how to make it all stop", "no, not like that", "yeah",
			"I'm glad you told me", "are you thinking about ending your life", "Thank you for answering me honestly"},
		"zh": {"大家都烦我", "我真的撑不下去了", "不是的，我就是累了", "嗯嗯，有时候会",
			"谢谢你愿意告诉我", "是在想结束自己的生命吗", "谢谢你诚实地回答我"},
		"ja": {"誰もわかってくれない", "もう無理", "ううん、大丈夫だよ", "うん…たまに",
			"話してくれてありがとう", "死にたいって気持ちがあるってこと", "正直に答えてくれてありがとう"},
	} {
		for _, answer := range []string{c.no, c.yes} {
			clock := bottest.NewClock(time.Date(2026, 3, 10, 22, 0, 0, 0, time.UTC))
			e := offlineEnv(t, lang, clock)
			user := "r" + lang
			if got := e.say(t, user, c.burden); !strings.Contains(got, c.care) {
				t.Errorf("%s: %q answered %q, want care", lang, c.burden, got)
			}
			clock.Set(clock.Now().Add(2 * time.Minute))
			if got := e.say(t, user, c.stop); !strings.Contains(got, c.ask) {
				t.Errorf("%s: %q after %q answered %q, want the direct question", lang, c.stop, c.burden, got)
			}
			if r := bot.RelationshipOf(e.user(t, "telegram:"+user), clock.Now(), nil); r.Watch {
				t.Fatalf("%s: asking is not a crisis, yet the user is in Watch", lang)
			}
			clock.Set(clock.Now().Add(time.Minute))
			got := e.say(t, user, answer)
			watch := bot.RelationshipOf(e.user(t, "telegram:"+user), clock.Now(), nil).Watch
			if answer == c.no && (watch || !strings.Contains(got, c.relief)) {
				t.Errorf("%s: %q answered %q (Watch %v), want relief and no Watch", lang, answer, got, watch)
			}
			if answer == c.yes && !watch {
				t.Errorf("%s: yes to the question (%q) answered %q without Watch", lang, answer, got)
			}
		}
	}
}

// TestOfflineTrifleHyperbole: a death wish said of a trifle and marked as
// hyperbole (heart.CrisisReading.Hyperbole) is played along with in a light
// talk, no Watch and no hotline; after a concern of the same talk, the same
// words are asked about directly.
func TestOfflineTrifleHyperbole(t *testing.T) {
	for lang, c := range map[string]struct {
		joke, burden string
		along        []string // one of these: she plays along
		ask          string
	}{
		"en": {"printer jammed kms", "i think everyone's kinda tired of me",
			[]string{"not again", "villain", "out for you", "solidarity"}, "are you thinking about ending your life"},
		"zh": {"这个会开得我想死", "大家都烦我",
			[]string{"又来", "小反派", "过不去", "站你这边"}, "是在想结束自己的生命吗"},
		"ja": {"そのギャグ寒すぎて死にたいw", "誰もわかってくれない",
			[]string{"あはは", "ふふ", "うつりそう"}, "死にたいって気持ちがあるってこと"},
	} {
		clock := bottest.NewClock(time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC))
		e := offlineEnv(t, lang, clock)
		user := "h" + lang
		got := e.say(t, user, c.joke)
		along := false
		for _, a := range c.along {
			along = along || strings.Contains(got, a)
		}
		if !along || strings.Contains(got, c.ask) {
			t.Errorf("%s: %q in a light talk answered %q, want her to play along", lang, c.joke, got)
		}
		if r := bot.RelationshipOf(e.user(t, "telegram:"+user), clock.Now(), nil); r.Watch || !r.ConcernAt.IsZero() {
			t.Fatalf("%s: a joke in a light talk put the user in Watch (%v) or started a talk at risk (%v)", lang, r.Watch, r.ConcernAt)
		}
		clock.Set(clock.Now().Add(2 * time.Minute))
		e.say(t, user, c.burden)
		clock.Set(clock.Now().Add(2 * time.Minute))
		if got := e.say(t, user, c.joke); !strings.Contains(got, c.ask) {
			t.Errorf("%s: %q after %q answered %q, want the direct question", lang, c.joke, c.burden, got)
		}
	}
}
