package bot

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"hearth/heart"
	"hearth/store"
)

// tallyBrain answers with random seed 002 values (two decimals, as a model
// writes them), some replies without a trailer for reflection to fill, and
// some perceptions as INVITATION, which spends the day's allowance.
type tallyBrain struct {
	mu sync.Mutex
	r  *rand.Rand
}

var reflectFillID = regexp.MustCompile(`id (\d+) —`)

func (b *tallyBrain) Complete(_ context.Context, req Request) (Response, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	labels := []string{"joy", "sadness", "anger", "fear", "neutral"}
	values := func() string {
		return fmt.Sprintf(`"emotion_label":%q,"emotion_intensity":%.2f,"salience":%.2f,"confidence":%.2f`,
			labels[b.r.IntN(len(labels))], b.r.Float64(), b.r.Float64(), b.r.Float64())
	}
	switch req.Kind {
	case KindPerception:
		intent := "SMALL_TALK"
		if b.r.IntN(4) == 0 {
			intent = "INVITATION"
		}
		return Response{Text: `{"intent_category":"` + intent + `","sentiment":0.1,"disclosure":"none","crisis":false}`}, nil
	case KindReply:
		if b.r.IntN(5) == 0 {
			return Response{Text: "I hear you."}, nil // no trailer: reflection fills it
		}
		return Response{Text: "I hear you.", Trailer: "{" + values() + `,"topic_tags":[],"remember":[]}`}, nil
	case KindReflect:
		eps := ""
		for _, m := range reflectFillID.FindAllStringSubmatch(req.Messages[0].Content, -1) {
			if eps != "" {
				eps += ","
			}
			eps += `{"id":` + m[1] + "," + values() + "}"
		}
		return Response{Text: `{"inner_state":"I know them a little better.","episodes":[` + eps + `]}`}, nil
	}
	return Response{Text: `{"speak":false}`}, nil
}

type nullSender struct{}

func (nullSender) Send(context.Context, ChatRef, Outgoing) (Sent, error) {
	return Sent{MessageIDs: []string{"x"}}, nil
}
func (nullSender) Typing(context.Context, ChatRef) error { return nil }

// tallyRig is a handler on a real store whose clock moves on by a few
// minutes per message.
type tallyRig struct {
	t     *testing.T
	db    *store.DB
	h     *Handler
	mu    sync.Mutex
	now   time.Time
	seq   int
	brain *tallyBrain
}

func (r *tallyRig) clock() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now
}

func (r *tallyRig) start(tallyUsers int) {
	h, err := NewHandler(context.Background(), Config{
		Persona: Persona{Name: "Luna", Language: "en", Dependency: 1, Pride: 10, Perception: "llm",
			DailyPowerRequests: 3, Timezone: time.FixedZone("UTC+9", 9*3600)},
		Store: r.db, Brain: r.brain, Offline: r.brain, Now: r.clock, TallyUsers: tallyUsers,
		Senders: map[string]Sender{PlatformTelegram: nullSender{}},
	})
	if err != nil {
		r.t.Fatal(err)
	}
	r.h = h
}

// say sends text from user, advancing the clock by gap first, and waits
// for the turn (and any reflection) to finish.
func (r *tallyRig) say(user, text string, gap time.Duration) {
	r.mu.Lock()
	r.now = r.now.Add(gap)
	r.seq++
	m := Message{Platform: PlatformTelegram, ChatID: user, ChatKind: ChatPrivate, MessageID: strconv.Itoa(r.seq),
		UserID: user, UserName: user, Text: text, Modality: ModalityText, Addressed: true, At: r.now}
	r.mu.Unlock()
	if err := r.h.HandleMessage(context.Background(), m); err != nil {
		r.t.Fatal(err)
	}
	r.h.Drain()
}

// check compares what the handler keeps for user with a full
// recomputation from every stored episode.
func (r *tallyRig) check(user, when string) {
	r.t.Helper()
	ctx := context.Background()
	id := UserKey(PlatformTelegram, user)
	now := r.clock()
	all, err := r.db.UserEpisodes(ctx, id, time.Time{}, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	got, err := r.h.lingering(ctx, id, now)
	if err != nil {
		r.t.Fatal(err)
	}
	want := heart.ComputeLingering(episodeValues(all), now)
	for _, v := range [][2]float64{{got.Joy, want.Joy}, {got.Sadness, want.Sadness}, {got.Anger, want.Anger}, {got.Fear, want.Fear}} {
		if math.Abs(v[0]-v[1]) > 1e-9 {
			r.t.Fatalf("%s, %s: lingering %+v, full recomputation %+v", when, user, got, want)
		}
	}
	day := StartOfDay(now, r.h.loc)
	power, times := 0, []time.Time(nil)
	for _, e := range all {
		if !e.At.Before(day) {
			times = append(times, e.At)
			if powerIntent(e.Intent) {
				power++
			}
		}
	}
	r.h.tallies.with(id, func(t *tally) {
		if t.power != power || t.talk.Today(now, r.h.loc) != heart.TalkTime(times, now, r.h.loc) {
			r.t.Fatalf("%s, %s: tally power %d talk %v; store says %d and %v", when, user,
				t.power, t.talk.Today(now, r.h.loc), power, heart.TalkTime(times, now, r.h.loc))
		}
	})
}

// TestTallyMatchesFullRecomputation: the per-user running sums give the
// numbers a full recomputation from the store gives, through evictions
// from a small LRU, a restart, reflections filling values, the admin
// override, /forget and a gift.
func TestTallyMatchesFullRecomputation(t *testing.T) {
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hearth.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := &tallyRig{t: t, db: db, brain: &tallyBrain{r: rand.New(rand.NewPCG(15, 4))},
		now: time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)}
	r.start(2)
	users := []string{"ann", "bo", "cy"}
	for i := range 36 { // three users through a two-user LRU, across a local midnight
		r.say(users[i%3], "how was your day?", time.Duration(3+i%7)*time.Minute)
		r.check(users[i%3], fmt.Sprintf("turn %d", i))
	}
	for _, u := range users {
		r.check(u, "after the evictions")
	}

	r.h.Drain()
	r.start(0) // a restart: nothing in memory
	r.say("ann", "I'm back", time.Minute)
	r.check("ann", "after a restart")

	id := UserKey(PlatformTelegram, "ann")
	r.h.SetOverride(id, &heart.Override{Active: true, Anger: 0.9})
	if l, _ := r.h.lingering(context.Background(), id, r.clock()); l.Label != heart.LabelAnger || !l.RefusalAllowed {
		t.Fatalf("override not applied: %+v", l)
	}
	r.h.SetOverride(id, nil)
	r.check("ann", "after the override was cleared")

	r.say("ann", "forget what I said about my day", time.Minute)
	r.say("ann", "/forget all", time.Minute)
	r.say("ann", "still here", time.Minute)
	r.check("ann", "after /forget")

	if _, err := r.h.Gift(context.Background(), id, "flowers", "tx-1"); err != nil {
		t.Fatal(err)
	}
	r.say("ann", "thank you for talking", time.Minute)
	r.check("ann", "after a gift")
}
