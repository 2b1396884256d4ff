package bot_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hearth/bot"
	"hearth/bot/bottest"
)

// forgetMonth is how long after a forget the user asks again: the
// history window and recall reach that far back (hearth's test choice).
const forgetMonth = 30 * 24 * time.Hour

// promptLeaks returns the forgotten words found in what a reply request
// showed the model and the offline brain besides the user's current
// message (the last one, and Hints.Text): history, recollections,
// memories, notes, inner state.
func promptLeaks(t *testing.T, req bot.Request, words ...string) []string {
	t.Helper()
	req.Hints.Text = ""
	shown := fmt.Sprintf("%+v %+v", req.Messages[:len(req.Messages)-1], req.Hints)
	var out []string
	for _, w := range words {
		expr := regexp.QuoteMeta(w)
		if w[0] < utf8.RuneSelf { // a Latin name matches as a word ("Jo", not "Joy")
			expr = `\b` + expr + `\b`
		}
		if regexp.MustCompile(expr).MatchString(shown) {
			out = append(out, w)
		}
	}
	return out
}

// forgetCase is one language's version of the two bug reports: a pet and
// a friend told, the questions about each, and the memory slot of the pet.
type forgetCase struct {
	lang                 string
	pet, friend          string // the names
	tellPet, tellFriend  string
	askPet, askFriend    string
	petSlot              string
	forgotAll, forgotOne string // a word of the reply to /forget all and /forget N
}

var forgetCases = []forgetCase{
	{"en", "Biscuit", "Jo", "My dog is called Biscuit", "my friend Jo is visiting next week",
		"do you remember my dog's name?", "do you remember my friend Jo?", "3", "everything you told me before", "everything you told me about it"},
	{"zh", "旺财", "小雨", "我养了一只狗，叫旺财", "我的好朋友叫小雨",
		"你还记得我的狗叫什么吗？", "你还记得我的好朋友吗？", "3", "你之前跟我说过的一切", "你跟我说过的相关内容"},
}

// forgetEnv is a forget test's user (prefix + language) who told the
// companion about a pet and a friend, with its clock and recording brain.
func forgetEnv(t *testing.T, fc forgetCase, prefix string) (*env, *bottest.Clock, *fakeBrain, string) {
	t.Helper()
	c := bottest.NewClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	rec := newFakeBrain()
	e := newEnv(t, func(cfg *bot.Config) {
		cfg.Brain = rec
		cfg.Persona.Language = fc.lang
		cfg.Persona.Perception = "heuristic"
		cfg.Now = c.Now
	})
	user := prefix + fc.lang
	for _, s := range []string{fc.tellPet, fc.tellFriend} {
		e.talk(t, c, msg(user, s))
	}
	return e, c, rec, user
}

// TestForgetAllForgetsEverythingSaid is the /forget all report: after
// "I deleted all 2 memories about you", she still said "I remember Jo,
// your friend" and "Biscuit! I remember." from the conversation history.
// Now neither the offline brain's answer nor any later reply prompt (what
// an LLM would be sent) holds a forgotten word, and what the user says
// afterwards is remembered again.
func TestForgetAllForgetsEverythingSaid(t *testing.T) {
	for _, fc := range forgetCases {
		t.Run(fc.lang, func(t *testing.T) {
			e, c, rec, user := forgetEnv(t, fc, "fa")
			if ms, _ := e.db.Memories(t.Context(), "telegram:"+user); len(ms) != 2 {
				t.Fatalf("precondition: memories %+v", ms)
			}
			if r := e.say(t, user, "/forget all"); !strings.Contains(r, fc.forgotAll) {
				t.Fatalf("/forget all answered %q", r)
			}
			before := len(rec.replies(user))
			c.Add(forgetMonth)
			for _, q := range []string{fc.askFriend, fc.askPet} {
				r := e.say(t, user, q)
				if strings.Contains(r, fc.pet) || q == fc.askPet && strings.Contains(r, fc.friend) {
					t.Errorf("%q after /forget all: %q", q, r)
				}
			}
			reqs := rec.replies(user)[before:]
			if len(reqs) != 2 {
				t.Fatalf("%d reply requests after /forget all, want 2", len(reqs))
			}
			// The first question names the friend again, so the second
			// prompt's history holds that name from after the forget.
			for i, req := range reqs {
				words := []string{fc.pet, fc.friend}
				if i > 0 {
					words = words[:1]
				}
				if leaks := promptLeaks(t, req, words...); len(leaks) > 0 {
					t.Errorf("reply prompt after /forget all still holds %q:\n%s", leaks, note(req))
				}
			}
			// What is said afterwards is remembered again.
			e.talk(t, c, msg(user, fc.tellPet))
			if r := e.say(t, user, fc.askPet); !strings.Contains(r, fc.pet) {
				t.Errorf("told again after /forget all, then %q: %q", fc.askPet, r)
			}
		})
	}
}

// TestForgetOneForgetsWhatItWasAbout is the /forget N report: /forget 3
// on "Pets: Biscuit (dog)" said it was gone, and a month later "do you
// remember my dog's name?" got "Of course. Biscuit, your dog." from the
// message that told it. Now the pet is forgotten in the offline answer and
// in the reply prompt, and the friend, another memory, is not.
func TestForgetOneForgetsWhatItWasAbout(t *testing.T) {
	for _, fc := range forgetCases {
		t.Run(fc.lang, func(t *testing.T) {
			e, c, rec, user := forgetEnv(t, fc, "fo")
			if list := e.say(t, user, "/memories"); !strings.Contains(list, fc.petSlot+". ") || !strings.Contains(list, fc.pet) {
				t.Fatalf("precondition: /memories = %q", list)
			}
			if r := e.say(t, user, "/forget "+fc.petSlot); !strings.Contains(r, fc.forgotOne) {
				t.Fatalf("/forget %s answered %q", fc.petSlot, r)
			}
			before := len(rec.replies(user))
			c.Add(forgetMonth)
			if r := e.say(t, user, fc.askPet); strings.Contains(r, fc.pet) {
				t.Errorf("%q after /forget %s: %q", fc.askPet, fc.petSlot, r)
			}
			if r := e.say(t, user, fc.askFriend); !strings.Contains(r, fc.friend) {
				t.Errorf("%q after /forget %s forgot the friend too: %q", fc.askFriend, fc.petSlot, r)
			}
			for _, req := range rec.replies(user)[before:] {
				if leaks := promptLeaks(t, req, fc.pet); len(leaks) > 0 {
					t.Errorf("reply prompt after /forget %s still holds %q:\n%s", fc.petSlot, leaks, note(req))
				}
			}
		})
	}
}

// TestForgetAllWithoutMemories: a user who told her things but has no
// memory slot was answered "There was nothing like that to forget" and
// kept everything; now what they said goes, and the answer says so.
func TestForgetAllWithoutMemories(t *testing.T) {
	c := bottest.NewClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	rec := newFakeBrain()
	e := newEnv(t, func(cfg *bot.Config) { cfg.Brain, cfg.Now, cfg.Persona.Perception = rec, c.Now, "heuristic" })
	e.talk(t, c, msg("fn", "I had burnt toast with marmalade this morning"))
	if ms, _ := e.db.Memories(t.Context(), "telegram:fn"); len(ms) != 0 {
		t.Fatalf("precondition: memories %+v", ms)
	}
	if r := e.say(t, "fn", "/forget all"); !strings.Contains(r, "everything you told me before is deleted") {
		t.Fatalf("/forget all answered %q", r)
	}
	before := len(rec.replies("fn"))
	e.talk(t, c, msg("fn", "what did I have for breakfast?"))
	for _, req := range rec.replies("fn")[before:] {
		if leaks := promptLeaks(t, req, "marmalade"); len(leaks) > 0 {
			t.Errorf("reply prompt after /forget all still holds %q", leaks)
		}
	}
	// A command and its answer are no conversation to forget.
	e.say(t, "fn", "/forget all")
	if r := e.say(t, "fn", "/forget all"); !strings.Contains(r, "nothing like that") {
		t.Errorf("/forget all with nothing said since answered %q", r)
	}
}

// reflectSays is the test brain whose reflections answer inner_state
// text, after waiting as fakeBrain's do.
type reflectSays struct {
	*fakeBrain
	text string
}

func (r reflectSays) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	resp, err := r.fakeBrain.Complete(ctx, req)
	if err == nil && req.Kind == bot.KindReflect {
		resp.Text = `{"inner_state": "` + r.text + `"}`
	}
	return resp, err
}

// TestForgetAllWinsOverAReflectionInFlight: a reflection that read the
// conversation before /forget all and answers after it must not write
// what it read back into inner_state.
func TestForgetAllWinsOverAReflectionInFlight(t *testing.T) {
	rb := reflectSays{newFakeBrain(), "Ann adores her dog Biscuit."}
	e := newEnv(t, func(cfg *bot.Config) { cfg.Brain = rb })
	rb.reflect = make(chan struct{}) // reflection hangs until released
	e.send(t, msg("fr", "My dog is called Biscuit"))
	for i := range 9 {
		e.send(t, msg("fr", "message number "+itoa(i)))
	}
	waitFor(t, "the reflect call", func() bool { return rb.count(bot.KindReflect) == 1 })
	e.send(t, msg("fr", "/forget all"))
	waitFor(t, "the /forget all answer", func() bool {
		texts := e.out.texts("fr")
		return len(texts) > 0 && strings.Contains(texts[len(texts)-1], "everything you told me before")
	})
	close(rb.reflect)
	e.h.Drain()
	if u := e.user(t, "telegram:fr"); strings.Contains(u.InnerState, "Biscuit") {
		t.Errorf("inner_state after /forget all: %q", u.InnerState)
	}
}
