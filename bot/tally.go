package bot

import (
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"

	"hearth/heart"
	"hearth/store"
)

// DefaultTallyUsers bounds how many users' running sums (tally) are kept in
// memory, least recently used first out. Hearth's choice: a few hundred
// bytes each, so about a megabyte for the users active at once; an evicted
// user's next turn rebuilds them from the store with one read.
const DefaultTallyUsers = 4096

// tally is what a turn would otherwise recompute from a user's stored
// episodes, kept up to date as turns commit (issue 15 "history
// independence"): seed 002's lingering sums, and for the local day the
// allowance of seed 001 §1.4 requests and seed 003's talk time and break
// suggestion. Every write happens under the user's lock (turns, commands,
// reflections), after the store committed what it adds.
type tally struct {
	ling  heart.LingeringSums
	exact bool // false: past heart.LingeringMaxGroups; lingering is read from the store
	day   time.Time
	power int // REQUEST_NSFW and INVITATION episodes on day
	talk  heart.TalkTally
	brk   breakState // seed 003 §6.2's suggestion sent on day
	// resources: Watch's crisis resources went with a boundary reply on
	// day; later boundaries that day point to them instead.
	resources bool
}

// breakState is whether today's break suggestion went out, once known.
type breakState int8

const (
	breakUnknown breakState = iota
	breakNotSent
	breakSent
)

// add counts one committed episode.
func (t *tally) add(e store.Episode, loc *time.Location) {
	if e.HasValues && t.exact {
		t.exact = t.ling.Add(values(e))
	}
	if e.At.Before(t.day) {
		return
	}
	if powerIntent(e.Intent) {
		t.power++
	}
	t.talk = t.talk.Add(e.At, loc)
}

// roll moves the day parts to day when it is a later day: nothing of the
// new day has happened yet.
func (t *tally) roll(day time.Time) {
	if day.After(t.day) {
		t.day, t.power, t.brk, t.resources = day, 0, breakNotSent, false
	}
}

func powerIntent(intent string) bool {
	return intent == string(heart.RequestNSFW) || intent == string(heart.Invitation)
}

// tallies is the LRU of users' tallies. Its methods hold mu while they
// touch a tally, so views without the user's lock (the admin API) read it
// safely.
type tallies struct {
	mu  sync.Mutex
	max int
	ll  *list.List // of *tallyEntry, most recently used first
	m   map[string]*list.Element
}

type tallyEntry struct {
	user string
	t    tally
}

func newTallies(max int) *tallies {
	if max <= 0 {
		max = DefaultTallyUsers
	}
	return &tallies{max: max, ll: list.New(), m: make(map[string]*list.Element)}
}

// with runs fn on userID's tally and reports whether there was one.
func (ts *tallies) with(userID string, fn func(*tally)) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	el, ok := ts.m[userID]
	if !ok {
		return false
	}
	ts.ll.MoveToFront(el)
	fn(&el.Value.(*tallyEntry).t)
	return true
}

// put stores userID's tally, evicting the least recently used past max.
func (ts *tallies) put(userID string, t tally) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if el, ok := ts.m[userID]; ok {
		el.Value.(*tallyEntry).t = t
		ts.ll.MoveToFront(el)
		return
	}
	ts.m[userID] = ts.ll.PushFront(&tallyEntry{user: userID, t: t})
	for ts.ll.Len() > ts.max {
		old := ts.ll.Back()
		ts.ll.Remove(old)
		delete(ts.m, old.Value.(*tallyEntry).user)
	}
}

// loadTally makes sure userID's tally is in memory and on now's day,
// rebuilding it from the store after a restart or an eviction. Call it
// under the user's lock.
func (h *Handler) loadTally(ctx context.Context, userID string, now time.Time) error {
	day := StartOfDay(now, h.loc)
	if h.tallies.with(userID, func(t *tally) { t.roll(day) }) {
		return nil
	}
	eps, err := h.cfg.Store.UserEpisodeValues(ctx, userID, now.Add(-heart.LingeringWindow), 0)
	if err != nil {
		return fmt.Errorf("episodes of %s: %w", userID, err)
	}
	t := tally{exact: true, day: day}
	for _, e := range eps {
		t.add(e, h.loc)
	}
	h.tallies.put(userID, t)
	return nil
}

// tallied counts what a committed turn added: its episode and a break
// suggestion. Call it under the user's lock, after the commit.
func (h *Handler) tallied(t store.Turn) {
	h.tallies.with(t.User.ID, func(tl *tally) {
		if e := t.Episode; e.UserText != "" || e.ReplyText != "" {
			tl.add(e, h.loc)
		}
		for _, s := range t.Signals {
			if s.Tag == signalBreak && !s.At.Before(tl.day) {
				tl.brk = breakSent
			}
		}
	})
}

// lingering is seed 002's lingering emotion of userID at now, debug
// override applied: from the user's tally when it is in memory, else
// recomputed from the stored episodes.
func (h *Handler) lingering(ctx context.Context, userID string, now time.Time) (heart.Lingering, error) {
	var (
		l  heart.Lingering
		ok bool
	)
	h.tallies.with(userID, func(t *tally) {
		if t.exact {
			l, ok = t.ling.At(now), true
		}
	})
	if !ok {
		eps, err := h.cfg.Store.UserEpisodeValues(ctx, userID, now.Add(-heart.LingeringWindow), 0)
		if err != nil {
			return heart.Lingering{}, fmt.Errorf("episodes of %s: %w", userID, err)
		}
		l = heart.ComputeLingering(episodeValues(eps), now)
	}
	return h.override.apply(userID, l), nil
}

// values are an episode's seed 002 inputs.
func values(e store.Episode) heart.EpisodeValues {
	return heart.EpisodeValues{
		At: e.At, Label: heart.Label(e.Label), Intensity: e.Intensity,
		Salience: e.Salience, Confidence: e.Confidence,
	}
}
