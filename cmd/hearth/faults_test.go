package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	_ "modernc.org/sqlite"
)

// integrityOK runs PRAGMA integrity_check on a copy-free read-only open.
func integrityOK(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check of %s: %q %v", path, res, err)
	}
}

// asNobody makes cmd run as an unprivileged user when the tests run as
// root (root ignores file modes), and reports whether it could.
func asNobody(t *testing.T, cmd *exec.Cmd, owned ...string) {
	t.Helper()
	if os.Getuid() != 0 {
		return
	}
	const nobody = 65534
	for _, p := range owned {
		if err := os.Chown(p, nobody, nobody); err != nil {
			t.Skipf("cannot hand %s to nobody: %v", p, err)
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
}

// TestReadOnlyInstanceFailsAtStartAndStaysIntact: a file hearth may not
// write is refused with a clear message before any message is taken, and
// is left byte-identical and intact.
func TestReadOnlyInstanceFailsAtStartAndStaysIntact(t *testing.T) {
	dir, err := os.MkdirTemp("", "hearth-ro-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	db := filepath.Join(dir, "luna.db")
	if r := runHearth(t, "hello\n", nil, "chat", "--db", db, "--persona", examplePersona(t)); r.code != 0 {
		t.Fatalf("setup: %s", r.stderr)
	}
	os.Remove(db + ".lock")
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	before := fileSum(t, db)

	cmd := hearthCmd(t.Context(), nil, "chat", "--db", db)
	asNobody(t, cmd, dir, db)
	cmd.Stdin = strings.NewReader("are you there?\n")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a read-only instance ran:\n%s", out)
	}
	if !strings.Contains(string(out), "not writable") || strings.Contains(string(out), "hearth running") {
		t.Errorf("want a clear refusal at start, got:\n%s", out)
	}
	if fileSum(t, db) != before {
		t.Error("the read-only file changed")
	}
	if info, _ := os.Stat(db); info.Mode().Perm() != 0o444 {
		t.Errorf("hearth changed the file's mode to %v", info.Mode().Perm())
	}
	integrityOK(t, db)
}

// TestDiskFullIsAClearErrorWithoutCorruption fills a tiny file system under
// the daemon. Every message either gets its turn or a clear error; the file
// stays intact.
func TestDiskFullIsAClearErrorWithoutCorruption(t *testing.T) {
	t.Parallel() // its own tmpfs and daemon; the slowest test here
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a small tmpfs")
	}
	dir := t.TempDir()
	mnt := filepath.Join(dir, "tiny")
	os.Mkdir(mnt, 0o700)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	db := filepath.Join(mnt, "luna.db")
	var lines []string
	for i := 0; i < 400; i++ {
		lines = append(lines, fmt.Sprintf("message %d %s", i, strings.Repeat("a long day, so much to say ", 40)))
	}
	r := runHearth(t, strings.Join(lines, "\n")+"\n", nil, "chat", "--db", db, "--persona", examplePersona(t))
	if r.code == 0 {
		t.Fatalf("400 long messages fit in 1 MiB? stdout:\n%.300s", r.stdout)
	}
	t.Logf("stdout has %d replies; stderr tail:\n%s", strings.Count(r.stdout, "Luna: "), r.stderr[max(0, len(r.stderr)-600):])
	if !strings.Contains(r.stderr, "full") {
		t.Errorf("the error does not say the disk is full:\n%.2000s", r.stderr)
	}
	// Copy out and check the file SQLite left behind (with its WAL).
	copyDir := t.TempDir()
	for _, suffix := range []string{"", "-wal"} {
		if data, err := os.ReadFile(db + suffix); err == nil {
			os.WriteFile(filepath.Join(copyDir, "luna.db"+suffix), data, 0o600)
		}
	}
	moved := filepath.Join(copyDir, "luna.db")
	integrityOK(t, moved)

	// Moved to a disk with room, the instance answers every message it had
	// stored: nothing accepted is lost.
	if r := runHearth(t, "", nil, "chat", "--db", moved); r.code != 0 {
		t.Fatalf("restart after moving: %s", r.stderr)
	}
	ex := runHearth(t, "", nil, "export", "--db", moved, "--user", "console:tester")
	st := runHearth(t, "", nil, "state", "--db", moved, "--user", "console:tester")
	var export struct {
		Inbound []struct {
			Status string `json:"status"`
		} `json:"inbound"`
	}
	var state struct {
		Users []struct {
			Messages int `json:"messages"`
		} `json:"users"`
	}
	if err := json.Unmarshal([]byte(ex.stdout), &export); err != nil || json.Unmarshal([]byte(st.stdout), &state) != nil || len(state.Users) != 1 {
		t.Fatalf("export/state: %v\n%s\n%s", err, ex.stdout, st.stdout)
	}
	for i, in := range export.Inbound {
		if in.Status != "answered" {
			t.Errorf("stored message %d is %q after the restart", i, in.Status)
		}
	}
	if len(export.Inbound) == 0 || state.Users[0].Messages != len(export.Inbound) {
		t.Errorf("%d stored messages, %d turns", len(export.Inbound), state.Users[0].Messages)
	}
}
