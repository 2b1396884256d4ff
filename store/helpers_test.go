package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// t0 is a fixed instant with nanoseconds, to prove times round-trip exactly.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.UTC)

func openTest(t testing.TB) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "soul.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db, path
}

// rawSQLite makes a database file outside this package's Open, to play the
// part of another hearth version.
func rawSQLite(t *testing.T, path string, stmts ...string) {
	t.Helper()
	raw, err := sql.Open(driverName, "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Fatalf("setup left %s behind", suffix)
		}
	}
}

func mustUser(t testing.TB, db *DB, id string) User {
	t.Helper()
	u, err := db.EnsureUser(context.Background(), User{ID: id, Name: "Ann", CreatedAt: t0, Proactive: true})
	if err != nil {
		t.Fatalf("EnsureUser: %v", err)
	}
	return u
}

// waitUntil polls cond until it holds or a generous deadline passes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
