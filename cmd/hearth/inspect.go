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
	dbPath := fs.String("db", "", dbFlag)
	user := fs.String("user", "", "only this user `ID` (telegram:42, discord:42, console:NAME)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, p, err := openReadOnly(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if *user != "" {
		if err := checkUser(ctx, db, *user); err != nil {
			return err
		}
	}
	doc, err := bot.BuildState(ctx, db, bot.StateOptions{Persona: p, UserID: *user, Now: time.Now()})
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, doc)
}

func cmdExport(ctx context.Context, args []string, env Env) error {
	fs := newFlags("export", env)
	dbPath := fs.String("db", "", dbFlag)
	user := fs.String("user", "", "the user's `ID` (telegram:42, discord:42, console:NAME)")
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
	if err := checkUser(ctx, db, *user); err != nil {
		return err
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
	fs := newFlags("watch", env)
	dbPath := fs.String("db", "", dbFlag)
	user := fs.String("user", "", "the user's `ID` (telegram:42, discord:42, console:NAME)")
	if len(args) == 0 || args[0] != "clear" {
		if err := parseFlags(fs, args); err != nil {
			return err // -h
		}
		return usageError{errors.New("want clear: 'hearth watch clear --db FILE --user ID' ends a user's Watch")}
	}
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
	if err := checkUser(ctx, db, *user); err != nil {
		return err
	}
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
