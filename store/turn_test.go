package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

// realTurn is one turn's writes as the turn engine produces them.
func realTurn(inID int64, u User, i int) Turn {
	u.Messages++
	u.Mood += 1.5
	u.LastIntents = append(u.LastIntents, "SMALL_TALK")
	u.EmotionHistory = append(u.EmotionHistory, EmotionRecord{Emotion: "happy", Confidence: 0.5, Turn: u.Messages})
	at := t0.Add(time.Duration(i) * time.Minute)
	u.LastUserAt, u.LastBotAt = at, at
	return Turn{
		InboundID: inID,
		User:      u,
		Episode: Episode{UserID: u.ID, Platform: "telegram", ChatID: "42", UserText: fmt.Sprintf("message %d", i),
			ReplyText: "a reply of some length, as a companion would write it", At: at, HasValues: true,
			Label: "joy", Intensity: 0.6, Salience: 0.5, Confidence: 0.8, TopicTags: []string{"tea"}, Intent: "SMALL_TALK", Sentiment: 0.4,
			Disclosure: "light"},
		Reply:    &Outbound{Platform: "telegram", ChatID: "42", ChatKind: "private", UserID: u.ID, Kind: "reply", Text: "a reply", CreatedAt: at},
		Memories: []Memory{{UserID: u.ID, Slot: i % 10, Content: "likes tea", Retention: RetentionPermanent, CreatedAt: at}},
		Signals:  []Signal{{UserID: u.ID, At: at, Tag: "message", Points: 1, Weight: 1, Modality: "text"}},
		Usage: []Usage{{At: at, Kind: "perception", UserID: u.ID, Prompt: 300, Completion: 40},
			{At: at, Kind: "reply", UserID: u.ID, Prompt: 1200, Completion: 150}},
		Daily: &DailyPoint{UserID: u.ID, Day: at.Format(time.DateOnly), Mood: u.Mood, Affinity: 20},
	}
}

func TestCommitTurnWritesEverything(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := mustUser(t, db, "telegram:42")
	inID, _, err := db.InsertInbound(ctx, inbound("m1", "message 1"))
	if err != nil {
		t.Fatal(err)
	}
	turn := realTurn(inID, u, 1)
	ids, err := db.CommitTurn(ctx, turn)
	if err != nil || len(ids) != 1 || ids[0] == 0 {
		t.Fatalf("CommitTurn = %v, %v; want the reply's ledger id", ids, err)
	}
	replyID := ids[0]
	got, _, _ := db.User(ctx, u.ID)
	if !reflect.DeepEqual(got, turn.User) {
		t.Fatalf("user\n%+v\nwant\n%+v", got, turn.User)
	}
	if p, _ := db.PendingInbound(ctx); len(p) != 0 {
		t.Fatalf("inbound still pending: %+v", p)
	}
	out, _ := db.PendingOutbound(ctx)
	if len(out) != 1 || out[0].ID != replyID || out[0].InboundID != inID || out[0].Status != OutboundPending {
		t.Fatalf("outbound = %+v", out)
	}
	eps, _ := db.ChatHistory(ctx, "telegram", "42", 10)
	wantEp := turn.Episode
	wantEp.ID, wantEp.InboundID = eps[0].ID, inID
	wantEp.ChatKind = "private" // from the reply's chat
	if len(eps) != 1 || !reflect.DeepEqual(eps[0], wantEp) {
		t.Fatalf("episodes = %+v\nwant %+v", eps, wantEp)
	}
	if ms, _ := db.Memories(ctx, u.ID); len(ms) != 1 {
		t.Fatalf("memories = %+v", ms)
	}
	if s, _ := db.Signals(ctx, u.ID, time.Time{}); len(s) != 1 {
		t.Fatalf("signals = %+v", s)
	}
	if n, _ := db.TokensSince(ctx, time.Time{}, u.ID); n != 1690 {
		t.Fatalf("tokens = %d", n)
	}
	if d, _ := db.DailyPoints(ctx, u.ID, ""); len(d) != 1 || d[0].Mood != turn.User.Mood {
		t.Fatalf("daily = %+v", d)
	}

	// A turn with nothing to say still commits its state; no episode, no reply.
	u2 := turn.User
	u2.Scratch = "quiet turn"
	if ids, err := db.CommitTurn(ctx, Turn{User: u2}); err != nil || len(ids) != 0 {
		t.Fatalf("empty turn = %v, %v", ids, err)
	}
	if eps, _ := db.ChatHistory(ctx, "telegram", "42", 0); len(eps) != 1 {
		t.Fatalf("empty turn wrote an episode: %+v", eps)
	}
}

// snapshot is everything a turn could change, to compare before and after
// a failed turn.
func snapshot(t *testing.T, db *DB, userID string) turnSnapshot {
	t.Helper()
	x, err := db.Export(context.Background(), userID)
	if err != nil {
		t.Fatal(err)
	}
	n, err := db.TokensSince(context.Background(), time.Time{}, "")
	if err != nil {
		t.Fatal(err)
	}
	return turnSnapshot{x, n}
}

type turnSnapshot struct {
	UserExport
	Tokens int
}

func TestCommitTurnRollsBackOnAnyFailure(t *testing.T) {
	ctx := context.Background()
	cases := map[string]func(*Turn){
		"memory slot out of range (CHECK)": func(tr *Turn) { tr.Memories = append(tr.Memories, Memory{UserID: tr.User.ID, Slot: 100, Content: "x"}) },
		"outbound without chat (CHECK)":    func(tr *Turn) { tr.Extra = []Outbound{{Platform: "telegram", Text: "x"}} },
		"unknown inbound id":               func(tr *Turn) { tr.InboundID = 999_999 },
		"unknown user":                     func(tr *Turn) { tr.User.ID = "telegram:ghost" },
		"malformed daily point (CHECK)":    func(tr *Turn) { tr.Daily = &DailyPoint{UserID: tr.User.ID, Day: "today"} },
	}
	for name, breakIt := range cases {
		t.Run(name, func(t *testing.T) {
			db, _ := openTest(t)
			u := mustUser(t, db, "telegram:42")
			inID, _, _ := db.InsertInbound(ctx, inbound("m1", "message 1"))
			before := snapshot(t, db, u.ID)

			turn := realTurn(inID, u, 1)
			breakIt(&turn)
			ids, err := db.CommitTurn(ctx, turn)
			if err == nil || len(ids) != 0 {
				t.Fatalf("broken turn committed: %v, %v", ids, err)
			}
			if after := snapshot(t, db, u.ID); !reflect.DeepEqual(after, before) {
				t.Fatalf("failed turn left changes:\nbefore %+v\nafter  %+v", before, after)
			}
			// The writer is usable afterwards and the good turn commits.
			if _, err := db.CommitTurn(ctx, realTurn(inID, u, 1)); err != nil {
				t.Fatalf("good turn after a failed one: %v", err)
			}
		})
	}
}

func TestHistoryQueries(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := mustUser(t, db, "telegram:42")
	for i := range 6 {
		tr := realTurn(0, u, i)
		tr.Reply = nil
		if i%2 == 1 { // another chat of the same user
			tr.Episode.ChatID = "group-1"
		}
		if _, err := db.CommitTurn(ctx, tr); err != nil {
			t.Fatal(err)
		}
		u = tr.User
	}
	h, err := db.ChatHistory(ctx, "telegram", "42", 2)
	if err != nil || len(h) != 2 || h[0].UserText != "message 2" || h[1].UserText != "message 4" {
		t.Fatalf("ChatHistory = %+v, %v", h, err)
	}
	e, err := db.UserEpisodes(ctx, u.ID, t0.Add(2*time.Minute), 2)
	if err != nil || len(e) != 2 || e[0].UserText != "message 4" || e[1].UserText != "message 5" {
		t.Fatalf("UserEpisodes newest 2 = %+v, %v", e, err)
	}
	e, err = db.UserEpisodes(ctx, u.ID, t0.Add(3*time.Minute), 0)
	if err != nil || len(e) != 3 || e[0].UserText != "message 3" {
		t.Fatalf("UserEpisodes since = %+v, %v", e, err)
	}
	upd := e[0]
	upd.HasValues, upd.Label, upd.Intensity, upd.TopicTags = true, "sadness", 0.9, []string{"loss"}
	if err := db.UpdateEpisodeValues(ctx, upd); err != nil {
		t.Fatal(err)
	}
	e2, _ := db.UserEpisodes(ctx, u.ID, t0.Add(3*time.Minute), 0)
	if !reflect.DeepEqual(e2[0], upd) {
		t.Fatalf("after UpdateEpisodeValues %+v, want %+v", e2[0], upd)
	}
	if err := db.UpdateEpisodeValues(ctx, Episode{ID: 999}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown episode: %v", err)
	}
}

// TestConcurrentUse runs turns, inbound inserts and reads from many
// goroutines at once; -race and the final counts prove it is safe.
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	const users, turns = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, users*turns*3)
	for w := range users {
		wg.Go(func() {
			u, err := db.EnsureUser(ctx, User{ID: fmt.Sprintf("telegram:%d", w), CreatedAt: t0})
			if err != nil {
				errs <- err
				return
			}
			for i := range turns {
				m := inbound(fmt.Sprintf("%d-%d", w, i), "hi")
				m.UserID, m.ChatID = u.ID, fmt.Sprint(w)
				inID, _, err := db.InsertInbound(ctx, m)
				if err != nil {
					errs <- err
					continue
				}
				tr := realTurn(inID, u, i)
				tr.Episode.ChatID, tr.Reply.ChatID = m.ChatID, m.ChatID
				if _, err := db.CommitTurn(ctx, tr); err != nil {
					errs <- err
				}
				u = tr.User
				if _, err := db.ChatHistory(ctx, "telegram", m.ChatID, 5); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	all, _ := db.Users(ctx)
	for _, u := range all {
		if u.Messages != turns {
			t.Errorf("%s messages = %d, want %d", u.ID, u.Messages, turns)
		}
	}
	if p, _ := db.PendingOutbound(ctx); len(p) != users*turns {
		t.Errorf("pending outbound = %d, want %d", len(p), users*turns)
	}
}

// TestCommitReturnsEveryLedgerID: the caller delivers exactly what it
// committed, by id, without searching the ledger.
func TestCommitReturnsEveryLedgerID(t *testing.T) {
	db, _ := openTest(t)
	ctx := context.Background()
	u, err := db.EnsureUser(ctx, User{ID: "telegram:9", Name: "Ida", CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	o := func(text string) Outbound {
		return Outbound{Platform: "telegram", ChatID: "9", ChatKind: "private", UserID: u.ID, Kind: "reply", Text: text, CreatedAt: time.Now()}
	}
	reply := o("reply")
	ids, err := db.CommitTurn(ctx, Turn{User: u, Reply: &reply, Extra: []Outbound{o("first extra"), o("second extra")}})
	if err != nil || len(ids) != 3 {
		t.Fatalf("ids %v, %v; want three", ids, err)
	}
	pending, _ := db.PendingOutbound(ctx)
	for i, want := range []string{"reply", "first extra", "second extra"} {
		if pending[i].ID != ids[i] || pending[i].Text != want {
			t.Errorf("ids[%d] = %d is %q, want %q", i, ids[i], pending[i].Text, want)
		}
	}
	thanks := o("thank you")
	if _, ins, err := db.CommitGift(ctx, Gift{TransactionID: "tx-ids", UserID: u.ID, Item: "tea", At: time.Now()}, u, &thanks); err != nil || !ins || thanks.ID == 0 {
		t.Fatalf("gift: inserted %v, out.ID %d, %v", ins, thanks.ID, err)
	}
	if st, err := db.OutboundStatus(ctx, thanks.ID); err != nil || st != OutboundPending {
		t.Errorf("gift thanks %d: %q %v", thanks.ID, st, err)
	}
}

// TestCommitTurnCreatesANewUser: a user's first turn stores them in the
// turn's own transaction; a second "first" turn of the same user fails
// whole instead of overwriting the first.
func TestCommitTurnCreatesANewUser(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	u := User{ID: "telegram:7", Platform: "telegram", Name: "Ann", CreatedAt: t0, InnerState: "seed", Proactive: true}
	inID, _, err := db.InsertInbound(ctx, inbound("m1", "message 1"))
	if err != nil {
		t.Fatal(err)
	}
	turn := realTurn(inID, u, 1)
	turn.NewUser = true
	if _, err := db.CommitTurn(ctx, turn); err != nil {
		t.Fatal(err)
	}
	got, ok, err := db.User(ctx, u.ID)
	if err != nil || !ok || !reflect.DeepEqual(got, turn.User) {
		t.Fatalf("user = %+v, %v, %v\nwant %+v", got, ok, err, turn.User)
	}
	in2, _, err := db.InsertInbound(ctx, inbound("m2", "message 2"))
	if err != nil {
		t.Fatal(err)
	}
	again := realTurn(in2, u, 2)
	again.NewUser = true
	if _, err := db.CommitTurn(ctx, again); err == nil {
		t.Fatal("a second new-user commit of the same user succeeded")
	}
	if got2, _, _ := db.User(ctx, u.ID); !reflect.DeepEqual(got2, turn.User) {
		t.Errorf("the failed commit changed the user: %+v", got2)
	}
	if p, _ := db.PendingInbound(ctx); len(p) != 1 || p[0].ID != in2 {
		t.Errorf("pending inbound = %+v, want the second message still pending", p)
	}

	// Without NewUser an unknown user is an error, as before.
	in3, _, _ := db.InsertInbound(ctx, inbound("m3", "message 3"))
	ghost := realTurn(in3, User{ID: "telegram:8", Platform: "telegram", CreatedAt: t0}, 3)
	if _, err := db.CommitTurn(ctx, ghost); !errors.Is(err, ErrNotFound) {
		t.Errorf("update of an unknown user = %v, want ErrNotFound", err)
	}
}
