package bot

import (
	"slices"
	"sync"

	"hearth/heart"
	"hearth/store"
)

// historyWindowChats bounds how many chats' window starts are remembered
// (hearth's choice: far more than are active at once). Forgetting one costs
// that chat a single prompt-cache miss, as after a restart.
const historyWindowChats = 4096

// historyWindow keeps each chat's reply-prompt history starting at the same
// turn from one turn to the next (DESIGN §12 "Prompt order"), so everything
// up to the newest turn repeats the previous prompt byte for byte and a
// provider's prefix cache reuses it. The history grows by one turn per turn;
// when it passes HistoryTurns (or the budget), the oldest
// heart.HistoryBlockTurns leave at once and the start stays put again for
// the next several turns. It remembers, per chat, the episode id the last
// prompt started at; in memory only: after a restart the first prompt of a
// chat picks a fresh start.
type historyWindow struct {
	mu    sync.Mutex
	start map[string]int64 // chat → id of the oldest episode the last prompt showed
}

func newHistoryWindow() *historyWindow {
	return &historyWindow{start: make(map[string]int64)}
}

// historyFetch is how many turns a turn reads: the window's largest size
// plus one block, so the remembered start is always among them.
const historyFetch = HistoryTurns + heart.HistoryBlockTurns

// cut returns the turns of eps (a chat's newest turns, oldest first) the
// prompt shows: from the remembered start, minus whole blocks while more
// than HistoryTurns remain. complete says eps holds the chat's whole
// history. Without a usable start (a new chat, a restart, or the start
// older than eps) it keeps the newest HistoryTurns.
func (w *historyWindow) cut(chat string, eps []store.Episode, complete bool) []store.Episode {
	w.mu.Lock()
	anchor, ok := w.start[chat]
	w.mu.Unlock()
	i := 0
	if ok {
		i = slices.IndexFunc(eps, func(e store.Episode) bool { return e.ID >= anchor })
		switch {
		case i < 0:
			i = len(eps)
		case i == 0 && !complete && eps[0].ID > anchor:
			ok = false // turns between the start and eps were not read
		}
	}
	if !ok {
		i = max(0, len(eps)-HistoryTurns)
	}
	for len(eps)-i > HistoryTurns {
		i += heart.HistoryBlockTurns
	}
	return eps[min(i, len(eps)):]
}

// keep remembers where the prompt's history started: the first of the kept
// newest turns of shown, or, when the budget left none, just after them.
func (w *historyWindow) keep(chat string, shown []store.Episode, kept int) {
	if len(shown) == 0 {
		return
	}
	id := shown[len(shown)-1].ID + 1
	if kept > 0 {
		id = shown[len(shown)-min(kept, len(shown))].ID
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.start[chat]; !ok && len(w.start) >= historyWindowChats {
		for k := range w.start {
			delete(w.start, k)
			break
		}
	}
	w.start[chat] = id
}
