package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"hearth/bot/bottest"
)

// openPTY opens a pseudo-terminal pair: what is written to master is read
// from tty.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pty number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pty: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return ptmx, tty
}

func TestIsTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Error("/dev/null counts as a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(r) {
		t.Error("a pipe counts as a terminal")
	}
	if isTerminal(strings.NewReader("")) {
		t.Error("a reader counts as a terminal")
	}
	if _, tty := openPTY(t); !isTerminal(tty) {
		t.Error("a pseudo-terminal does not count as a terminal")
	}
}

// TestRunOnATerminalOpensTheConsole: with a real terminal on stdin and no
// token, `hearth run` talks on the console without --console.
func TestRunOnATerminalOpensTheConsole(t *testing.T) {
	master, tty := openPTY(t)
	db := filepath.Join(t.TempDir(), "luna.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := hearthCmd(ctx, nil, "run", "--db", db, "--persona", examplePersona(t))
	var stdout, stderr bottest.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := master.WriteString("hello Luna\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a reply on the console", func() bool { return len(replyLines(stdout.String(), "Luna")) == 1 })
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v\n%s", err, stderr.String())
	}
}
