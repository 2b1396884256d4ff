// Command hearth runs an AI companion with a heart on Telegram, Discord and
// the console. One SQLite file is one instance. See README.md and
// DESIGN.md §9 for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // persona time zones work on hosts without a zoneinfo database

	"hearth/store"
)

// version is set by the Makefile with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		// First signal: stop taking work, drain, exit 0. The cause is
		// what the daemon's "stopping" line names.
		cancel(fmt.Errorf("signal %v", sig))
		<-sigs
		fmt.Fprintln(os.Stderr, "hearth: second signal, exiting without draining")
		os.Exit(1)
	}()
	os.Exit(Main(ctx, os.Args[1:], Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}))
}

// Env is the process environment of one invocation, injected for tests.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

// Main runs one hearth command and returns the process exit code.
func Main(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return exitConfig
	}
	cmds := map[string]func(context.Context, []string, Env) error{
		"run": cmdRun, "chat": cmdChat, "state": cmdState, "export": cmdExport,
		"watch": cmdWatch, "simulate": cmdSimulate,
	}
	switch args[0] {
	case "version", "--version":
		fmt.Fprintln(env.Stdout, "hearth", version)
		return 0
	case "help", "-h", "--help":
		if len(args) > 1 {
			if _, ok := cmds[args[1]]; ok {
				return Main(ctx, []string{args[1], "-h"}, env)
			}
		}
		fmt.Fprint(env.Stdout, usage)
		return 0
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "hearth: unknown command %q\n%s", args[0], usage)
		return exitConfig
	}
	if err := cmd(ctx, args[1:], env); err != nil {
		if errors.Is(err, errHelpShown) {
			return 0
		}
		msg := err.Error()
		if r := redactor(env.Getenv); r != nil {
			msg = r.Replace(msg) // library errors may quote URLs that hold tokens
		}
		fmt.Fprintln(env.Stderr, "hearth "+args[0]+": "+msg)
		return exitCode(err)
	}
	return 0
}

// Exit statuses of a failed command. contrib/systemd/hearth@.service sets
// RestartPreventExitStatus=exitConfig: a configuration error is not
// restarted (nothing changes until the operator does), anything else is
// (a platform unreachable at start, another process holding FILE, a busy
// admin port).
const (
	exitFailure = 1 // may pass on its own: restart
	exitConfig  = 2 // bad flags or configuration, as the flag package's 2
)

// exitCode is exitConfig for what only the operator can fix: bad flags or
// environment (usageError), a bad persona, a --db FILE from a newer hearth
// or not a database at all.
func exitCode(err error) int {
	var ue usageError
	var pe *PersonaError
	switch {
	case errors.As(err, &ue), errors.As(err, &pe),
		errors.Is(err, store.ErrNewerSchema), errors.Is(err, store.ErrNotDatabase):
		return exitConfig
	}
	return exitFailure
}

// usageError marks bad flags and configuration (the environment): exit
// status 2, like the flag package.
type usageError struct{ error }
