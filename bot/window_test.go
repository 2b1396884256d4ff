package bot

import (
	"testing"

	"hearth/heart"
	"hearth/store"
)

// chatEpisodes returns the newest historyFetch of n turns of one chat, as
// ChatHistory would, with ids spaced as if other chats wrote in between.
func chatEpisodes(n int) ([]store.Episode, bool) {
	var eps []store.Episode
	for i := max(0, n-historyFetch); i < n; i++ {
		eps = append(eps, store.Episode{ID: int64(3*i + 7), UserText: "u", ReplyText: "a"})
	}
	return eps, n < historyFetch
}

// TestHistoryWindowMovesInBlocks: the window's start stays on the same turn
// while the chat grows, then jumps a whole block, and never shows more than
// HistoryTurns or fewer than HistoryTurns-HistoryBlockTurns+1 turns once the
// chat is long enough.
func TestHistoryWindowMovesInBlocks(t *testing.T) {
	w := newHistoryWindow()
	var prevStart int64 = -1
	moves := 0
	for n := 1; n <= 100; n++ {
		eps, complete := chatEpisodes(n)
		shown := w.cut("c", eps, complete)
		w.keep("c", shown, len(shown))
		if len(shown) > HistoryTurns || (n > HistoryTurns && len(shown) <= HistoryTurns-heart.HistoryBlockTurns) {
			t.Fatalf("after %d turns the window shows %d", n, len(shown))
		}
		if shown[len(shown)-1].ID != eps[len(eps)-1].ID {
			t.Fatalf("after %d turns the newest turn is not shown", n)
		}
		if start := shown[0].ID; start != prevStart {
			if prevStart >= 0 {
				moves++
			}
			prevStart = start
		}
	}
	// 100 turns: the start moves at turns 31, 41, ..., 91.
	if moves != (100-HistoryTurns-1)/heart.HistoryBlockTurns+1 {
		t.Fatalf("the window's start moved %d times", moves)
	}
}

// TestHistoryWindowBudgetAndRestart: a start the budget pushed forward
// holds; an unknown or unreadable start falls back to the newest turns; a
// start after every turn (the budget kept none) shows only newer ones.
func TestHistoryWindowBudgetAndRestart(t *testing.T) {
	w := newHistoryWindow()
	eps, complete := chatEpisodes(25)
	if got := w.cut("c", eps, complete); len(got) != 25 {
		t.Fatalf("fresh chat of 25 turns shows %d", len(got))
	}
	w.keep("c", eps, 5) // the budget kept the newest five
	eps, complete = chatEpisodes(26)
	if got := w.cut("c", eps, complete); len(got) != 6 || got[0].ID != eps[20].ID {
		t.Fatalf("after the budget's cut the window shows %d turns from id %d", len(got), got[0].ID)
	}
	w.keep("c", eps, 0) // the budget kept none
	eps, complete = chatEpisodes(27)
	if got := w.cut("c", eps, complete); len(got) != 1 || got[0].ID != eps[26].ID {
		t.Fatalf("after an empty window: %d turns", len(got))
	}

	w = newHistoryWindow() // a restart
	eps, complete = chatEpisodes(95)
	if got := w.cut("c", eps, complete); len(got) != HistoryTurns || got[len(got)-1].ID != eps[len(eps)-1].ID {
		t.Fatalf("without a start: %d turns", len(got))
	}
	w.keep("c", []store.Episode{{ID: 1}}, 1) // a start older than what is read
	if got := w.cut("c", eps, complete); len(got) != HistoryTurns {
		t.Fatalf("with a start older than the read turns: %d turns", len(got))
	}
}
