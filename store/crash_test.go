package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// childEnv tells the test binary, re-executed as a child, to play a daemon
// that holds the instance and is then killed with SIGKILL.
const childEnv = "HEARTH_STORE_TEST_CHILD_DB"

// TestHelperDaemon is the child side of TestKill9ReleasesLockAndKeepsMessages;
// it is skipped in a normal run.
func TestHelperDaemon(t *testing.T) {
	path := os.Getenv(childEnv)
	if path == "" {
		t.Skip("child process helper")
	}
	ctx := context.Background()
	db, err := Open(ctx, path, Options{})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	if _, _, err := db.InsertInbound(ctx, inbound("crash-1", "stored before the crash")); err != nil {
		fmt.Println("insert:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	// Block until the parent kills us (or goes away and stdin closes).
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

func TestKill9ReleasesLockAndKeepsMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "soul.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperDaemon$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("child: %q %v", line, err)
	}

	_, err = Open(ctx, path, Options{})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "pid="+strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("while child runs: %v (child pid %d)", err, cmd.Process.Pid)
	}

	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no Close, no checkpoint
		t.Fatal(err)
	}
	_ = cmd.Wait()

	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("open after kill -9: %v", err)
	}
	defer db.Close()
	p, err := db.PendingInbound(ctx)
	if err != nil || len(p) != 1 || p[0].Text != "stored before the crash" {
		t.Fatalf("pending after crash = %+v, %v", p, err)
	}
}
