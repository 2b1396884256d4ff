package bot

import (
	"testing"
	"time"

	"hearth/heart"
	"hearth/store"
)

func TestBareNeedle(t *testing.T) {
	for in, want := range map[string]string{"the exam": "exam", "My Sister": "sister", "my ex": "my ex", "exam": "exam", "猫": "猫", "an interview": "interview"} {
		if got := bareNeedle(in); got != want {
			t.Errorf("bareNeedle(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPreviousWordsForShortQuestions: only a short question searches the
// user's previous message too, and only their own.
func TestPreviousWordsForShortQuestions(t *testing.T) {
	eps := []store.Episode{{UserID: "u", UserText: "I met Tom at the station"}, {UserID: "other", UserText: "hi all"}}
	for text, want := range map[string]string{
		"what was his name again?": "I met Tom at the station",
		"还记得吗？":                    "I met Tom at the station",
		"名前は何だっけ":                  "I met Tom at the station",
		"haha":                     "",
		"could you tell me once more what the name of the man I met at the station was, please?": "",
	} {
		if got := previousWords(text, "u", eps); got != want {
			t.Errorf("previousWords(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestGroupCandidatesAreOnlyThisGroupsWords: whatever a retrieval method
// returns, a group search keeps only the user's own episodes said in that
// group (DESIGN §12: never a private memory in a group), and says where
// each was said.
func TestGroupCandidatesAreOnlyThisGroupsWords(t *testing.T) {
	q := store.RecallQuery{UserID: "u", Scope: store.RecallGroup, Platform: "telegram", ChatID: "g1"}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	hits := []store.RecallHit{
		{Kind: store.RecallEpisode, EpisodeID: 1, ChatKind: "group", Platform: "telegram", ChatID: "g1", UserText: "sailing on Sunday", At: at},
		{Kind: store.RecallEpisode, EpisodeID: 2, ChatKind: "private", Platform: "telegram", ChatID: "u", UserText: "my therapist", At: at},
		{Kind: store.RecallEpisode, EpisodeID: 3, ChatKind: "group", Platform: "telegram", ChatID: "g2", UserText: "other group", At: at},
		{Kind: store.RecallMemory, Slot: 4, UserText: "a memory", At: at},
	}
	got := candidates(hits, q)
	if len(got) != 1 || got[0].Key != (heart.RecallKey{Kind: heart.RecallEpisode, ID: 1}) {
		t.Fatalf("group candidates %+v", got)
	}
	if p := placesOf(hits, q); p[got[0].Key] != heart.SaidHere {
		t.Fatalf("place %v", p[got[0].Key])
	}
	q.Scope = store.RecallPrivate
	if got := candidates(hits, q); len(got) != 4 {
		t.Fatalf("private candidates %d, want all 4", len(got))
	}
	if p := placesOf(hits, q); p[heart.RecallKey{Kind: heart.RecallEpisode, ID: 3}] != heart.SaidInAGroup || p[heart.RecallKey{Kind: heart.RecallMemory, ID: 4}] != heart.SaidPrivately {
		t.Fatalf("private places %v", p)
	}
}
