package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/bot/semantic"
	"hearth/lifeloop"
	"hearth/store"
)

// SimStart is when a script whose first event is relative ("+1h") begins:
// a fixed Monday morning, so runs are reproducible.
const SimStart = "2026-01-05T09:00:00Z"

// simEvent is one scripted event (DESIGN §9 hearth simulate).
type simEvent struct {
	At    string `yaml:"at"`
	User  string `yaml:"user"`
	Text  string `yaml:"text"`
	Tick  string `yaml:"tick"`
	State bool   `yaml:"state"`
	Name  string `yaml:"name"` // optional display name of the user
}

// simLine is one output line.
type simLine struct {
	At     string         `json:"at"`
	Kind   string         `json:"kind"`
	User   string         `json:"user,omitempty"`
	Text   string         `json:"text,omitempty"`
	Reason string         `json:"reason,omitempty"`
	State  *bot.UserState `json:"state,omitempty"`
}

func cmdSimulate(ctx context.Context, args []string, env Env) error {
	fs := newFlags("simulate", env)
	personaPath := fs.String("persona", "", "persona `YAML` or Character Card (.json, .png)")
	scriptPath := fs.String("script", "", "the script of timed events, a YAML `FILE` (README: hearth simulate)")
	brainKind := fs.String("brain", "offline", "the `KIND` of brain: offline, or openai (needs OPENAI_BASE_URL or OPENAI_API_KEY)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *personaPath == "" || *scriptPath == "" {
		return usageError{errors.New("--persona YAML and --script FILE are required")}
	}
	log := newLogger(env.Stderr, env.Getenv)
	persona, raw, err := readPersonaFile(*personaPath, log)
	if err != nil {
		return err
	}
	events, err := readScript(*scriptPath)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "hearth-simulate-")
	if err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(ctx, filepath.Join(dir, "sim.db"), store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.SetPersona(ctx, raw, events[0].at); err != nil {
		return err
	}
	r := &simRun{
		sim: &simulator{out: newJSONLines(env.Stdout), now: events[0].at}, db: db, persona: persona,
		script: *scriptPath, names: map[string]string{},
	}
	stopBrain, err := r.chooseBrain(ctx, *brainKind, env, log)
	if err != nil {
		return err
	}
	defer stopBrain()
	if err := r.start(ctx, events, log); err != nil {
		return err
	}
	if err := r.play(ctx, events); err != nil {
		return err
	}
	return r.sim.out.err
}

// simRun is one replay of a script against a throw-away instance: its
// handler and life loop, driven by the script's events on the simulated
// clock.
type simRun struct {
	sim     *simulator
	db      *store.DB
	persona bot.Persona
	script  string            // the script's path, for errors
	names   map[string]string // a user's name, once a script gave it

	brain   bot.Brain
	offline bot.Brain
	meaning *semantic.Index // embeds before each message, on the simulated clock
	h       *bot.Handler
	loop    *lifeloop.Loop
}

// chooseBrain sets the brain the simulation answers with: the offline one,
// or for --brain openai the configured model server, with recall by
// meaning on the simulated clock and the circuit breaker's probe running
// until the returned stop is called.
func (r *simRun) chooseBrain(ctx context.Context, kind string, env Env, log *slog.Logger) (stop func(), err error) {
	r.offline = brain.NewOffline()
	r.brain = r.offline
	switch kind {
	case "offline":
		return func() {}, nil
	case "openai":
	default:
		return nil, usageError{fmt.Errorf("--brain %q is not offline or openai", kind)}
	}
	cfg, err := brainConfig(env, log)
	if err != nil {
		return nil, err
	}
	online, ok := brain.New(cfg, log)
	if !ok {
		return nil, usageError{errors.New("--brain openai needs OPENAI_BASE_URL or OPENAI_API_KEY")}
	}
	if r.meaning, err = recallByMeaning(env, cfg, true, r.db, r.persona, r.sim.clock, log); err != nil {
		return nil, err
	}
	r.brain = online
	w, ok := online.(modelWatch)
	if !ok {
		return func() {}, nil
	}
	probeCtx, stopProbe := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); w.Run(probeCtx) }()
	return func() { stopProbe(); <-done }, nil
}

// start builds the handler and the life loop on the simulated clock, with
// the simulator as the Sender of every platform the script's users are on.
func (r *simRun) start(ctx context.Context, events []resolvedEvent, log *slog.Logger) error {
	senders := map[string]bot.Sender{}
	for _, e := range events {
		if e.User != "" {
			senders[platformOf(e.User)] = r.sim
		}
	}
	hcfg := bot.Config{
		Persona: r.persona, Store: r.db, Brain: r.brain, Offline: r.offline, Senders: senders,
		Logger: log, Now: r.sim.clock, Concurrency: 1,
	}
	if r.meaning != nil { // not a typed nil in the interface
		hcfg.Semantic = r.meaning
	}
	var err error
	if r.h, err = bot.NewHandler(ctx, hcfg); err != nil {
		return err
	}
	lc := lifeLoopConfig(r.persona, r.db, r.brain, senders, r.h, log)
	lc.Now = r.sim.clock
	r.loop, err = lifeloop.New(lc)
	return err
}

// play runs the events in order, each at its time, and waits for the last
// reply.
func (r *simRun) play(ctx context.Context, events []resolvedEvent) error {
	prev := events[0].at
	for i, e := range events {
		if err := r.runDue(ctx, prev, e.at); err != nil {
			return err
		}
		prev = e.at
		r.sim.set(e.at)
		var err error
		switch {
		case e.Tick != "":
			err = r.tick(ctx, e.at)
		case e.State:
			err = r.state(ctx, e)
		case e.User != "":
			err = r.say(ctx, i, e)
		}
		if err != nil {
			return err
		}
	}
	r.h.Drain()
	return nil
}

// runDue runs everything the daemon runs on its clock (lifeloop.Loop.Jobs:
// the daily jobs at 04:00 local) that falls in (from, to], whether the
// script ticks or not.
func (r *simRun) runDue(ctx context.Context, from, to time.Time) error {
	for _, f := range r.loop.Due(from, to) {
		r.sim.set(f.At)
		r.sim.setKind("proactive")
		if err := f.Job.Run(ctx, f.At); err != nil {
			return fmt.Errorf("simulate %s at %s: %w", f.Job.Name, f.At.Format(time.RFC3339), err)
		}
		r.h.Drain()
	}
	return nil
}

// tick runs the life loop once at at and prints its decisions.
func (r *simRun) tick(ctx context.Context, at time.Time) error {
	r.sim.setKind("proactive")
	rep, err := r.loop.Tick(ctx, at)
	if err != nil {
		return fmt.Errorf("simulate tick at %s: %w", at.Format(time.RFC3339), err)
	}
	for _, d := range rep.Decisions {
		r.sim.emit(simLine{At: at.Format(time.RFC3339), Kind: "decision", User: r.sim.scriptUser(d.UserID), Text: d.Text, Reason: decisionReason(d)})
	}
	return nil
}

// state prints hearth state of the event's user, or of every user.
func (r *simRun) state(ctx context.Context, e resolvedEvent) error {
	id := ""
	if e.User != "" {
		id = storeUser(e.User)
		if err := checkUser(ctx, r.db, id); err != nil {
			return fmt.Errorf("script %s line %d: %w", r.script, e.line, err)
		}
	}
	doc, err := bot.BuildState(ctx, r.db, bot.StateOptions{Persona: r.persona, UserID: id, Now: e.at})
	if err != nil {
		return err
	}
	for i := range doc.Users {
		r.sim.emit(simLine{At: e.at.Format(time.RFC3339), Kind: "state", User: r.sim.scriptUser(doc.Users[i].ID), State: &doc.Users[i]})
	}
	return nil
}

// say runs the i-th event's message through the handler as a private
// message from its user, and waits for the reply.
func (r *simRun) say(ctx context.Context, i int, e resolvedEvent) error {
	r.sim.setKind("reply")
	platform, id := splitUser(e.User)
	if e.Name != "" {
		r.names[e.User] = e.Name
	}
	name := r.names[e.User]
	if name == "" {
		name = id
	}
	r.sim.chats.Store(platform+"/"+id, e.User)
	r.sim.users.Store(storeUser(e.User), e.User)
	if r.meaning != nil {
		r.meaning.CatchUp(ctx) // what the worker would have embedded by now
	}
	m := bot.Message{
		Platform: platform, ChatID: id, ChatKind: bot.ChatPrivate, MessageID: fmt.Sprintf("sim-%d", i+1),
		UserID: id, UserName: name, Text: e.Text, Modality: bot.ModalityText, At: e.at, Addressed: true,
	}
	if err := r.h.HandleMessage(ctx, m); err != nil {
		return err
	}
	r.h.Drain()
	return nil
}

// scriptKeys are the keys of a script event, in the order errors list them.
var scriptKeys = []string{"at", "user", "name", "text", "tick", "state"}

// readScript parses a simulate script and resolves every event's time.
// Errors name the file and the line: "script s.yaml line 3: ...".
func readScript(path string) ([]resolvedEvent, error) {
	raw, err := readLimited(path)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	at := func(line int, format string, args ...any) error {
		return fmt.Errorf("script %s line %d: %s", path, line, fmt.Sprintf(format, args...))
	}
	var root yaml.Node
	if err := yaml.Unmarshal(raw, &root); err != nil {
		p := explainYAML(nil, err)
		return nil, at(p.Line, "not valid YAML: %s", p.What)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.SequenceNode || len(root.Content[0].Content) == 0 {
		return nil, fmt.Errorf("script %s: want a list of events (- at: ..., user: ..., text: ...)", path)
	}
	prev, _ := time.Parse(time.RFC3339, SimStart)
	items := root.Content[0].Content
	out := make([]resolvedEvent, 0, len(items))
	for i, item := range items {
		if item.Kind != yaml.MappingNode {
			return nil, at(item.Line, "an event is a mapping of %s", strings.Join(scriptKeys, ", "))
		}
		for k := 0; k+1 < len(item.Content); k += 2 {
			if key := item.Content[k]; !slices.Contains(scriptKeys, key.Value) {
				return nil, at(key.Line, "unknown key %q (want %s)", key.Value, strings.Join(scriptKeys, ", "))
			}
		}
		var e simEvent
		if err := item.Decode(&e); err != nil {
			p := explainYAML(item, err)
			return nil, at(p.Line, "key %s: %s", p.Key, p.What)
		}
		when, err := resolveAt(e.At, prev)
		if err != nil {
			return nil, at(item.Line, "at %q: want RFC 3339 or +DURATION (+90m, +14d)", e.At)
		}
		if when.Before(prev) && i > 0 {
			return nil, at(item.Line, "at %s is before the previous event", when.Format(time.RFC3339))
		}
		if e.Tick != "" && e.Tick != "lifeloop" {
			return nil, at(item.Line, "tick %q: the only tick is lifeloop", e.Tick)
		}
		kinds := 0
		for _, set := range []bool{e.Text != "", e.Tick != "", e.State} {
			if set {
				kinds++
			}
		}
		if kinds != 1 || (e.Text != "" && e.User == "") {
			return nil, at(item.Line, "needs exactly one of {user, text}, {tick: lifeloop}, {state: true}")
		}
		out = append(out, resolvedEvent{simEvent: e, at: when, line: item.Line})
		prev = when
	}
	return out, nil
}

type resolvedEvent struct {
	simEvent
	at   time.Time
	line int // in the script, for errors
}

// resolveAt reads RFC 3339 or "+DURATION" after prev ("+14d", "+90m").
func resolveAt(s string, prev time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return prev, nil
	}
	if strings.HasPrefix(s, "+") {
		d, err := bot.ParseDuration(s[1:])
		if err != nil {
			return time.Time{}, err
		}
		return prev.Add(d), nil
	}
	return time.Parse(time.RFC3339, s)
}

// decisionReason is a decision's outcome and, when there is one, its reason:
// "gated: quiet_hours", "sent".
func decisionReason(d lifeloop.Decision) string {
	if d.Reason == "" {
		return d.Outcome
	}
	return d.Outcome + ": " + d.Reason
}

// storeUser is the hearth state id of a script user: "carol" is
// "console:carol", "telegram:7" stays.
func storeUser(user string) string {
	p, id := splitUser(user)
	return p + ":" + id
}

func platformOf(user string) string {
	p, _ := splitUser(user)
	return p
}

// splitUser splits "telegram:42" into platform and id; a bare name is a
// console user.
func splitUser(user string) (string, string) {
	if p, id, ok := strings.Cut(user, ":"); ok && id != "" {
		return p, id
	}
	return bot.PlatformConsole, user
}

// simulator is the simulated clock and the transport that prints what the
// bot says as JSON lines.
type simulator struct {
	mu    sync.Mutex
	now   time.Time
	kind  string
	chats sync.Map // platform/chat → user id as the script wrote it
	users sync.Map // hearth state user id → user id as the script wrote it
	out   *jsonLines
}

// scriptUser is the form the script gave a user id in, so every line about
// one user names them the same way (DESIGN §9 simulate output).
func (s *simulator) scriptUser(id string) string {
	if u, ok := s.users.Load(id); ok {
		return u.(string)
	}
	return id
}

func (s *simulator) clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

func (s *simulator) set(t time.Time) {
	s.mu.Lock()
	s.now = t
	s.mu.Unlock()
}

func (s *simulator) setKind(k string) {
	s.mu.Lock()
	s.kind = k
	s.mu.Unlock()
}

func (s *simulator) emit(l simLine) { s.out.write(l) }

// Send implements bot.Sender for every simulated platform.
func (s *simulator) Send(_ context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
	s.mu.Lock()
	at, kind := s.now, s.kind
	s.mu.Unlock()
	user, _ := s.chats.Load(chat.Platform + "/" + chat.ChatID)
	id, _ := user.(string)
	if id == "" {
		id = chat.Platform + ":" + chat.ChatID
	}
	s.emit(simLine{At: at.Format(time.RFC3339), Kind: kind, User: id, Text: out.Text})
	return bot.Sent{MessageIDs: []string{fmt.Sprintf("sim-out-%d", at.UnixNano())}}, nil
}

// Typing does nothing in a simulation.
func (s *simulator) Typing(context.Context, bot.ChatRef) error { return nil }
