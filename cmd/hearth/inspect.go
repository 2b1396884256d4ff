package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"hearth/bot"
	"hearth/store"
)

// openReadOnly opens an instance for reading while a daemon may run on it.
func openReadOnly(ctx context.Context, dbPath string) (*store.DB, bot.Persona, error) {
	if dbPath == "" {
		return nil, bot.Persona{}, usageError{errors.New("--db FILE is required")}
	}
	db, err := store.Open(ctx, dbPath, store.Options{ReadOnly: true})
	if err != nil {
		return nil, bot.Persona{}, err
	}
	p, err := storedPersona(ctx, db, dbPath)
	if err != nil {
		db.Close()
		return nil, bot.Persona{}, err
	}
	return db, p, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func cmdState(ctx context.Context, args []string, env Env) error {
	fs := newFlags("state", env)
	dbPath := fs.String("db", "", "instance file")
	user := fs.String("user", "", "one user id, e.g. telegram:42")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, p, err := openReadOnly(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	doc, err := bot.BuildState(ctx, db, bot.StateOptions{Persona: p, UserID: *user, Now: time.Now()})
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, doc)
}

func cmdExport(ctx context.Context, args []string, env Env) error {
	fs := newFlags("export", env)
	dbPath := fs.String("db", "", "instance file")
	user := fs.String("user", "", "user id, e.g. telegram:42")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *user == "" {
		return usageError{errors.New("--user ID is required")}
	}
	db, _, err := openReadOnly(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, ok, err := db.User(ctx, *user); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("no user %q", *user)
	}
	ex, err := db.Export(ctx, *user)
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, ex)
}

// cmdWatch is the operator's way out of Watch (seed 003 §3: a person
// reviews, not the bot). It writes beside a running daemon: SQLite's own
// locking serialises the write, and the daemon reads the user fresh on
// their next turn.
func cmdWatch(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 || args[0] != "clear" {
		return usageError{errors.New("usage: hearth watch clear --db FILE --user ID")}
	}
	fs := newFlags("watch clear", env)
	dbPath := fs.String("db", "", "instance file")
	user := fs.String("user", "", "user id")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *dbPath == "" || *user == "" {
		return usageError{errors.New("--db FILE and --user ID are required")}
	}
	db, err := store.Open(ctx, *dbPath, store.Options{Shared: true})
	if err != nil {
		return err
	}
	defer db.Close()
	cleared, err := bot.ClearWatch(ctx, db, *user, time.Now())
	if err != nil {
		return err
	}
	if !cleared {
		fmt.Fprintf(env.Stdout, "%s was not in Watch\n", *user)
		return nil
	}
	fmt.Fprintf(env.Stdout, "%s: Watch cleared\n", *user)
	return nil
}
