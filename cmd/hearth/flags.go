package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// commandHelp is every command's usage line and what it does: the top-level
// usage and each command's -h are built from it.
var commandHelp = []struct{ name, args, does string }{
	{"run", "--db FILE [--persona YAML] [--console] [--files DIR]", "the daemon"},
	{"chat", "--db FILE [--persona YAML] [--user NAME] [--files DIR]", "talk on the console"},
	{"state", "--db FILE [--user ID]", "JSON state (read-only)"},
	{"export", "--db FILE --user ID", "everything about one user, as JSON"},
	{"watch", "clear --db FILE --user ID", "end a user's Watch after review"},
	{"simulate", "--persona YAML --script FILE [--brain offline|openai]", "replay timed events with a simulated clock"},
	{"version", "", "print the version"},
}

// usage is the top-level usage text.
var usage = func() string {
	var b strings.Builder
	b.WriteString("usage: hearth <command> [flags]\n\ncommands:\n")
	for _, c := range commandHelp {
		fmt.Fprintf(&b, "  %-9s %-55s %s\n", c.name, c.args, c.does)
	}
	b.WriteString("\n'hearth <command> -h' lists a command's flags; README.md has the rest.\n")
	return b.String()
}()

// Descriptions of the flags several commands share.
const (
	dbFlag      = "the instance `FILE` (one SQLite file is one instance)"
	personaFlag = "persona `YAML` or Character Card (.json, .png); needed for a new FILE, replaces the stored one"
)

// errHelpShown is returned by a command whose -h printed its help: exit 0.
var errHelpShown = errors.New("help shown")

// commandFlags is one command's flag set and where its help goes.
type commandFlags struct {
	*flag.FlagSet
	out io.Writer
}

// newFlags is the flag set of command name.
func newFlags(name string, env Env) *commandFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parseFlags prints help and errors itself
	fs.Usage = func() {}
	return &commandFlags{FlagSet: fs, out: env.Stdout}
}

// parseFlags parses a command's flags. -h prints the command's usage line
// and flags to stdout and returns errHelpShown; a bad flag is one line that
// says where the flags are listed.
func parseFlags(fs *commandFlags, args []string) error {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.printHelp()
		return errHelpShown
	case err != nil:
		return usageError{fmt.Errorf("%w ('hearth %s -h' lists the flags)", err, fs.Name())}
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("unexpected argument %q ('hearth %s -h' lists the flags)", fs.Arg(0), fs.Name())}
	}
	return nil
}

func (fs *commandFlags) printHelp() {
	for _, c := range commandHelp {
		if c.name == fs.Name() {
			fmt.Fprintf(fs.out, "usage: hearth %s %s\n\n%s\n\nflags:\n", c.name, c.args, c.does)
		}
	}
	fs.SetOutput(fs.out)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}
