package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// TestReviewWatchOnlyItWritesTheReview: the operator's review is read and
// written in one transaction and kept in a column no other writer touches,
// so a turn writing back a copy read before the review (UpdateUser,
// CommitTurn) leaves it as it is; a later review moves it, an earlier one
// does not; declining writes nothing.
func TestReviewWatchOnlyItWritesTheReview(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	stale := mustUser(t, db, "telegram:42") // what a turn read before the review
	review := t0.Add(time.Hour)
	cleared := json.RawMessage(`{"watch":false}`)
	wrote, err := db.ReviewWatch(ctx, stale.ID, review, func(u User) (User, bool) {
		u.Relationship = cleared
		return u, true
	})
	if err != nil || !wrote {
		t.Fatalf("ReviewWatch = %v, %v", wrote, err)
	}
	u, _, _ := db.User(ctx, stale.ID)
	if !u.WatchReviewedAt.Equal(review) || string(u.Relationship) != string(cleared) {
		t.Fatalf("after the review: %v %s", u.WatchReviewedAt, u.Relationship)
	}

	stale.Messages = 7
	stale.Relationship = json.RawMessage(`{"watch":true}`)
	if err := db.UpdateUser(ctx, stale); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CommitTurn(ctx, Turn{User: stale}); err != nil {
		t.Fatal(err)
	}
	u, _, _ = db.User(ctx, stale.ID)
	if !u.WatchReviewedAt.Equal(review) || u.Messages != 7 {
		t.Fatalf("a stale write: reviewed at %v, messages %d; want the review kept and the write's own fields", u.WatchReviewedAt, u.Messages)
	}

	for _, tc := range []struct {
		at   time.Time
		want time.Time
	}{{review.Add(-time.Minute), review}, {review.Add(time.Minute), review.Add(time.Minute)}} {
		if _, err := db.ReviewWatch(ctx, stale.ID, tc.at, func(u User) (User, bool) { return u, true }); err != nil {
			t.Fatal(err)
		}
		if u, _, _ = db.User(ctx, stale.ID); !u.WatchReviewedAt.Equal(tc.want) {
			t.Fatalf("review at %v: kept %v, want %v", tc.at, u.WatchReviewedAt, tc.want)
		}
	}
	before := u
	wrote, err = db.ReviewWatch(ctx, stale.ID, review.Add(time.Hour), func(u User) (User, bool) {
		u.Messages = 99
		return u, false
	})
	if u, _, _ = db.User(ctx, stale.ID); err != nil || wrote || u.Messages != before.Messages || !u.WatchReviewedAt.Equal(before.WatchReviewedAt) {
		t.Fatalf("a declined review wrote: %v %v %+v", wrote, err, u)
	}
	if _, err := db.ReviewWatch(ctx, "telegram:nobody", review, func(u User) (User, bool) { return u, true }); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown user: %v", err)
	}
}
