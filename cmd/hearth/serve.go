package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"hearth/bot"
	"hearth/bot/admin"
	"hearth/bot/console"
	"hearth/bot/discord"
	"hearth/bot/telegram"
	"hearth/heart"
	"hearth/lifeloop"
	"hearth/store"
)

// RetryInterval is how often undelivered replies are retried while the
// daemon runs (hearth's choice: quick enough to feel live after an outage).
const RetryInterval = 30 * time.Second

var _ bot.TurnStore = (*store.DB)(nil)

func nowUTC() time.Time { return time.Now().UTC() }

// assessor gives the life loop a user's relationship facts at now, with
// seed 003 §7.1's greeting after an absence in the persona's language (the
// life loop names the heavy topic in it when a long silence left one).
// Days are counted in the persona's time zone, as turns count them.
func assessor(p bot.Persona) func(u store.User, now time.Time) lifeloop.Assessment {
	return func(u store.User, now time.Time) lifeloop.Assessment {
		r := bot.RelationshipOf(u, now, p.Timezone)
		return lifeloop.Assessment{
			State: string(r.State), Watch: r.Watch, DependencyLevel: r.DependencyLevel,
			Greeting: heart.ReturnGreeting(r.State, "", p.Language),
		}
	}
}

// lifeLoopConfig wires the life loop to the handler as the daemon runs it;
// hearth simulate uses the same wiring, so what it replays is what the
// daemon would do.
func lifeLoopConfig(p bot.Persona, db *store.DB, b bot.Brain, senders map[string]bot.Sender, h *bot.Handler, log *slog.Logger) lifeloop.Config {
	return lifeloop.Config{
		Persona: p, Store: db, Brain: b, Senders: senders,
		Assess: assessor(p), Forbidden: heart.ContainsForbidden,
		Daily: h.Daily, MarkUnreachable: h.MarkUnreachable, About: h.About, Logger: log,
	}
}

func cmdRun(ctx context.Context, args []string, env Env) error {
	fs := newFlags("run", env)
	db := fs.String("db", "", dbFlag)
	personaPath := fs.String("persona", "", personaFlag)
	useConsole := fs.Bool("console", false, "talk on the console when no platform token is set, even if stdin is not a terminal")
	files := fs.String("files", "", "keep the console's /me charts and /export files in `DIR` (default: a private temp dir removed at exit)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// DESIGN §9: the console only when no platform is configured, and then
	// with --console or a terminal on stdin (its end of input ends the run).
	// Checked before the file is opened: under a service manager stdin is
	// /dev/null, and a daemon that read its end and exited 0 would never be
	// restarted, nor would anyone be told.
	platforms := env.Getenv("TELEGRAM_BOT_TOKEN") != "" || env.Getenv("DISCORD_BOT_TOKEN") != ""
	if !platforms && !*useConsole && !isTerminal(env.Stdin) {
		return usageError{errNoTransport}
	}
	if err := checkPlatformURLs(env); err != nil {
		return usageError{err}
	}
	log := newLogger(env.Stderr, env.Getenv)
	inst, err := openInstance(ctx, *db, *personaPath, env, log)
	if err != nil {
		return err
	}
	defer inst.Close()

	var transports []bot.Transport
	cmds := bot.Commands(inst.persona.Language)
	if token := env.Getenv("TELEGRAM_BOT_TOKEN"); token != "" {
		tc := make([]telegram.Command, 0, len(cmds))
		for _, c := range cmds {
			tc = append(tc, telegram.Command{Name: c.Name, Description: c.Description})
		}
		t, err := telegram.New(ctx, telegram.Config{
			Token: token, Endpoint: env.Getenv("TELEGRAM_API_ENDPOINT"), Cursors: inst.db,
			Commands: tc, Logger: log.With("transport", "telegram"),
		})
		if err != nil {
			return fmt.Errorf("telegram: %w", err)
		}
		transports = append(transports, t)
	}
	if token := env.Getenv("DISCORD_BOT_TOKEN"); token != "" {
		shards, err := discordShards(env.Getenv("DISCORD_SHARDS"))
		if err != nil {
			return usageError{err}
		}
		dc := make([]discord.Command, 0, len(cmds))
		for _, c := range cmds {
			dc = append(dc, discord.Command{Name: c.Name, Description: c.Description, Option: c.Arg})
		}
		d, err := discord.New(discord.Config{
			Token: token, APIBase: env.Getenv("DISCORD_API_BASE"), Commands: dc, Cursors: inst.db, ShardCount: shards,
			Stored: func(ctx context.Context) (map[string]string, error) {
				return inst.db.NewestMessageIDs(ctx, bot.PlatformDiscord)
			},
			Logger: log.With("transport", "discord"),
		})
		if err != nil {
			return fmt.Errorf("discord: %w", err)
		}
		transports = append(transports, d)
	}
	if len(transports) == 0 {
		c, err := newConsole(env, log, inst.persona, consoleUser(env), *files)
		if err != nil {
			return err
		}
		defer c.Close()
		transports = append(transports, c)
	} else if *useConsole {
		log.Info("--console ignored: the console runs only when no platform token is set")
	}
	return serve(ctx, env, inst, transports, operatorChats(env))
}

// discordShards reads DISCORD_SHARDS: unset is one shard, "auto" asks
// Discord for its recommended count, a number is that many shards.
func discordShards(v string) (int, error) {
	switch v = strings.TrimSpace(v); {
	case v == "":
		return 1, nil
	case strings.EqualFold(v, "auto"):
		return discord.AutoShards, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("DISCORD_SHARDS=%q: want a number of shards (1 or more) or auto", v)
	}
	return n, nil
}

// errEndOfInput is why a console daemon stops by itself: its stdin ended.
var errEndOfInput = errors.New("end of console input")

// errNoTransport is why `hearth run` refuses to start with nothing to talk
// on (exit status 2, which the systemd unit does not restart).
var errNoTransport = errors.New("no transport configured: set TELEGRAM_BOT_TOKEN or DISCORD_BOT_TOKEN, or pass --console (stdin is not a terminal)")

func cmdChat(ctx context.Context, args []string, env Env) error {
	fs := newFlags("chat", env)
	db := fs.String("db", "", dbFlag)
	personaPath := fs.String("persona", "", personaFlag)
	user := fs.String("user", "", "your `NAME` on the console (default $USER); your user id is console:NAME")
	files := fs.String("files", "", "keep /me charts and /export files in `DIR` (default: a private temp dir removed at exit)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	log := newLogger(env.Stderr, env.Getenv)
	inst, err := openInstance(ctx, *db, *personaPath, env, log)
	if err != nil {
		return err
	}
	defer inst.Close()
	name := *user
	if name == "" {
		name = consoleUser(env)
	}
	c, err := newConsole(env, log, inst.persona, name, *files)
	if err != nil {
		return err
	}
	defer c.Close()
	return serve(ctx, env, inst, []bot.Transport{c}, nil)
}

// newConsole is the console transport. Its attachments go to filesDir and
// stay there, or, without one, to a private temp dir removed when the
// caller closes it (after serve returned, so after the last reply).
func newConsole(env Env, log *slog.Logger, persona bot.Persona, user, filesDir string) (*console.Transport, error) {
	if filesDir == "" {
		log.Info("console: /me charts and /export files go to a private temp dir removed at exit; --files DIR keeps them")
	} else if err := os.MkdirAll(filesDir, 0o700); err != nil {
		return nil, usageError{fmt.Errorf("--files: %w", err)}
	}
	name := ""
	if user == "" {
		// No login name to go by: the console's own default id for the
		// instance file, and "friend" (in the persona's language) to the
		// companion, who would otherwise say "晚安，you".
		name = bot.FallbackUserName(persona.Language)
	}
	return console.New(console.Config{In: env.Stdin, Out: env.Stdout, User: user, Name: name, Persona: persona.Name, FileDir: filesDir}), nil
}

// consoleUser is the console user's id: $USER, else "" (console.New's
// default).
func consoleUser(env Env) string {
	return env.Getenv("USER")
}

// operatorChats reads the chats that receive Watch alerts:
// TELEGRAM_OPERATOR_CHAT (a chat id) and DISCORD_OPERATOR_CHANNEL (a
// channel id), each optional.
func operatorChats(env Env) []bot.ChatRef {
	var out []bot.ChatRef
	if id := env.Getenv("TELEGRAM_OPERATOR_CHAT"); id != "" && env.Getenv("TELEGRAM_BOT_TOKEN") != "" {
		out = append(out, bot.ChatRef{Platform: bot.PlatformTelegram, ChatID: id, Kind: bot.ChatPrivate})
	}
	if id := env.Getenv("DISCORD_OPERATOR_CHANNEL"); id != "" && env.Getenv("DISCORD_BOT_TOKEN") != "" {
		out = append(out, bot.ChatRef{Platform: bot.PlatformDiscord, ChatID: id, Kind: bot.ChatGroup})
	}
	return out
}

// serve runs the handler, the transports and the life loop until ctx ends
// or a console reaches the end of its input, then drains in-flight turns
// and reflections.
func serve(ctx context.Context, env Env, inst *instance, transports []bot.Transport, operators []bot.ChatRef) error {
	log := inst.log
	metrics := admin.NewMetrics()
	h, loop, err := newEngine(ctx, inst, transports, operators, metrics)
	if err != nil {
		return err
	}
	health := newTransportHealth(transports)
	adminSrv, err := newAdmin(env, inst, h, metrics, health)
	if err != nil {
		return err
	}
	if adminSrv != nil && !adminSrv.APIEnabled() {
		log.Warn("admin API: /api/* is off because HEARTH_ADMIN_TOKEN is not set; serving /healthz and /metrics only")
	}
	if err := h.Recover(ctx); err != nil {
		return err
	}
	// Bound before "hearth running": an address in use fails the start with
	// a non-zero exit (so a service manager restarts it), instead of a
	// daemon that announced itself and then stopped with status 0.
	if adminSrv != nil {
		if err := adminSrv.Listen(ctx); err != nil {
			return fmt.Errorf("HEARTH_HTTP_ADDR: %w", err)
		}
	}

	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var wg sync.WaitGroup
	failed := make(chan error, len(transports)+1) // why a transport or the admin API stopped
	for _, t := range transports {
		wg.Go(func() { runTransport(runCtx, stop, t, h, health, failed, log) })
	}
	if w, ok := inst.brain.(modelWatch); ok {
		wg.Go(func() { w.Run(runCtx) }) // the circuit breaker's probe
	}
	if w, ok := inst.media.(modelWatch); ok {
		wg.Go(func() { w.Run(runCtx) }) // the audio server's probe
	}
	if inst.meaning != nil {
		wg.Go(func() { inst.meaning.Run(runCtx) }) // embeds in the background
	}
	wg.Go(func() { h.RunRetries(runCtx, RetryInterval) })
	if adminSrv != nil {
		runAdmin(runCtx, stop, &wg, adminSrv, inst, metrics, failed)
	}
	wg.Go(func() {
		if err := loop.Run(runCtx); err != nil {
			log.Error("life loop stopped", "err", err)
		}
	})
	log.Info("hearth running", "persona", inst.persona.Name, "db", inst.db.Path())
	<-runCtx.Done()
	// Said at once: with a hung model the drain below can take as long as
	// a reply's deadline, and a silent stop looks like a hang.
	turns, reflections := h.InFlight()
	log.Info("stopping: draining in-flight turns and reflections", "why", context.Cause(runCtx).Error(),
		"turns", turns, "reflections", reflections)
	began := time.Now()
	drainLogged(log, DrainLogEvery, h.InFlight, func() {
		wg.Wait()
		h.Drain()
	})
	log.Info("stopping: drained", "took", time.Since(began).Round(time.Millisecond))
	log.Info("hearth stopped; every accepted message was answered or stays queued")
	close(failed)
	var failures []error
	for err := range failed {
		failures = append(failures, err)
	}
	return errors.Join(failures...)
}

// newEngine builds the turn handler and the life loop of an instance, both
// sending through the transports and counted in metrics.
func newEngine(ctx context.Context, inst *instance, transports []bot.Transport, operators []bot.ChatRef, metrics *admin.Metrics) (*bot.Handler, *lifeloop.Loop, error) {
	senders := make(map[string]bot.Sender, len(transports))
	for _, t := range transports {
		senders[t.Name()] = t
	}
	cfg := bot.Config{
		Persona: inst.persona, Store: inst.db, Brain: inst.brain, Offline: inst.offline,
		Senders: senders, Operators: operators, Logger: inst.log, Observer: metrics,
		Media: inst.media, Vision: inst.vision,
	}
	if inst.meaning != nil { // not a typed nil in the interface
		cfg.Semantic = inst.meaning
	}
	h, err := bot.NewHandler(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	lc := lifeLoopConfig(inst.persona, inst.db, meteredBrain{inst.brain, metrics}, senders, h, inst.log.With("part", "lifeloop"))
	lc.Observe = observeDecision(metrics)
	loop, err := lifeloop.New(lc)
	if err != nil {
		return nil, nil, err
	}
	return h, loop, nil
}

// runTransport runs one transport until ctx ends. Its failure, named after
// it, goes to failed; a failure or the end of console input stops the
// whole daemon.
func runTransport(ctx context.Context, stop context.CancelCauseFunc, t bot.Transport, h *bot.Handler, health *transportHealth, failed chan<- error, log *slog.Logger) {
	err := t.Run(ctx, h)
	health.stopped(t.Name(), err)
	if err != nil {
		if !strings.HasPrefix(err.Error(), t.Name()+":") {
			err = fmt.Errorf("%s: %w", t.Name(), err)
		}
		failed <- err
		log.Error("transport stopped", "transport", t.Name(), "err", err)
	}
	switch {
	case err != nil:
		stop(err) // a dead transport: shut down
	case t.Name() == bot.PlatformConsole && ctx.Err() == nil:
		stop(errEndOfInput)
	}
}

// runAdmin serves the admin API on wg until ctx ends; if it cannot, the
// daemon stops and its failure goes to failed (a non-zero exit).
func runAdmin(ctx context.Context, stop context.CancelCauseFunc, wg *sync.WaitGroup, srv *admin.Server, inst *instance, metrics *admin.Metrics, failed chan<- error) {
	readGauges(ctx, inst.db, inst.persona, metrics)
	wg.Go(func() {
		if err := srv.Run(ctx); err != nil {
			inst.log.Error("admin API stopped", "err", err)
			failed <- err
			stop(fmt.Errorf("admin API: %w", err))
		}
	})
	wg.Go(func() {
		select {
		case <-srv.Ready():
			inst.log.Info("admin API listening", "addr", srv.Addr())
		case <-ctx.Done():
		}
	})
}

// checkPlatformURLs refuses a malformed TELEGRAM_API_ENDPOINT,
// DISCORD_API_BASE or HEARTH_HTTP_ADDR before FILE is touched: a
// configuration error (exit 2), not a platform that is down or a port in
// use (exit 1, restarted).
func checkPlatformURLs(env Env) error {
	if addr := env.Getenv("HEARTH_HTTP_ADDR"); addr != "" {
		_, port, err := net.SplitHostPort(addr)
		if err == nil {
			_, err = net.LookupPort("tcp", port)
		}
		if err != nil {
			return fmt.Errorf("HEARTH_HTTP_ADDR %q: %w", addr, err)
		}
	}
	if ep := env.Getenv("TELEGRAM_API_ENDPOINT"); ep != "" && env.Getenv("TELEGRAM_BOT_TOKEN") != "" {
		// The library's format: two %s, the token then the method.
		if strings.Count(ep, "%s") != 2 || !isHTTPURL(strings.ReplaceAll(ep, "%s", "x")) {
			return fmt.Errorf("TELEGRAM_API_ENDPOINT %q: want http(s)://host/bot%%s/%%s (two %%s: token, method)", ep)
		}
	}
	if b := env.Getenv("DISCORD_API_BASE"); b != "" && env.Getenv("DISCORD_BOT_TOKEN") != "" && !isHTTPURL(b) {
		return fmt.Errorf("DISCORD_API_BASE %q: want http(s)://host/", b)
	}
	return nil
}

// isHTTPURL reports whether s is an absolute http or https URL with a host.
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
