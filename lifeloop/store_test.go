package lifeloop

import (
	"path/filepath"
	"testing"
	"time"

	"hearth/bot"
	"hearth/store"
)

// The SQLite store is what cmd/hearth wires in.
var _ Store = (*store.DB)(nil)

// TestTickWithSQLiteStore runs ticks against a real instance file: a gated
// user is logged once, a user who passes is sent one message through the
// ledger (pending → sent), the decision and usage land in the file, and the
// next tick reads that history back and gates with min_silence.
func TestTickWithSQLiteStore(t *testing.T) {
	ctx := t.Context()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "soul.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	quiet := testUser("1")
	quiet.Proactive = false
	for _, u := range []store.User{quiet, testUser("2")} {
		if _, err := db.EnsureUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if err := db.UpdateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	r := newRigWith(t, speakYes, func(c *Config) { c.Store = db })

	for i := range 3 {
		rep := r.tick(t, base.Add(time.Duration(i)*30*time.Minute))
		want := 0
		if i == 0 {
			want = 1 // only the first tick lets user 2 through
		}
		if rep.LLMCalls != want {
			t.Fatalf("tick %d: %d LLM calls, want %d", i, rep.LLMCalls, want)
		}
	}
	if r.sender.count() != 1 {
		t.Fatalf("sent %d, want 1", r.sender.count())
	}
	if pending, err := db.PendingOutbound(ctx); err != nil || len(pending) != 0 {
		t.Fatalf("pending outbound %+v, %v; want none", pending, err)
	}
	ob, ok, err := db.OutboundByPlatformID(ctx, bot.PlatformTelegram, "2", "m1")
	if err != nil || !ok || ob.Status != store.OutboundSent || ob.Kind != OutboundKind {
		t.Fatalf("ledger entry %+v, %v, %v; want a sent proactive entry", ob, ok, err)
	}
	quietLog, err := db.ProactiveLog(ctx, "telegram:1", time.Time{})
	if err != nil || len(quietLog) != 1 || quietLog[0].Reason != ReasonQuiet {
		t.Fatalf("quiet user's log %+v, %v; want one gated/quiet row", quietLog, err)
	}
	log, err := db.ProactiveLog(ctx, "telegram:2", time.Time{})
	if err != nil || len(log) != 2 || log[0].Outcome != OutcomeSent || log[1].Reason != ReasonMinSilence {
		t.Fatalf("log %+v, %v; want sent then gated/min_silence", log, err)
	}
	if n, err := db.TokensSince(ctx, base.Add(-time.Hour), ""); err != nil || n != 120 {
		t.Fatalf("tokens %d, %v; want the call's 120", n, err)
	}
}
