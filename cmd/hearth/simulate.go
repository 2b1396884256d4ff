package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/heart"
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
	personaPath := fs.String("persona", "", "persona YAML")
	scriptPath := fs.String("script", "", "script of timed events (YAML)")
	brainKind := fs.String("brain", "offline", "offline or openai")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *personaPath == "" || *scriptPath == "" {
		return usageError{errors.New("--persona YAML and --script FILE are required")}
	}
	persona, raw, err := readPersonaFile(*personaPath)
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
	log := newLogger(env.Stderr, env.Getenv)
	offline := brain.NewOffline()
	var b bot.Brain = offline
	if *brainKind == "openai" {
		cfg, err := brainConfig(env, log)
		if err != nil {
			return err
		}
		online, ok := brain.New(cfg, log)
		if !ok {
			return usageError{errors.New("--brain openai needs OPENAI_BASE_URL or OPENAI_API_KEY")}
		}
		if w, ok := online.(modelWatch); ok {
			probeCtx, stopProbe := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() { defer close(done); w.Run(probeCtx) }()
			defer func() { stopProbe(); <-done }()
		}
		b = online
	} else if *brainKind != "offline" {
		return usageError{fmt.Errorf("--brain %q is not offline or openai", *brainKind)}
	}
	sim := &simulator{out: newJSONLines(env.Stdout)}
	sim.now = events[0].at
	senders := map[string]bot.Sender{}
	for _, e := range events {
		if e.User != "" {
			senders[platformOf(e.User)] = sim
		}
	}
	h, err := bot.NewHandler(ctx, bot.Config{
		Persona: persona, Store: db, Brain: b, Offline: offline, Senders: senders,
		Logger: log, Now: sim.clock, Concurrency: 1,
	})
	if err != nil {
		return err
	}
	loop, err := lifeloop.New(lifeloop.Config{
		Persona: persona, Store: db, Brain: b, Senders: senders,
		Assess: assessor(persona.Language), Forbidden: heart.ContainsForbidden,
		Daily: h.Daily, MarkUnreachable: h.MarkUnreachable, Now: sim.clock, Logger: log,
	})
	if err != nil {
		return err
	}
	names := map[string]string{} // a user's name, once a script gave it
	for i, e := range events {
		sim.set(e.at)
		switch {
		case e.Tick != "":
			if e.Tick != "lifeloop" {
				return fmt.Errorf("%s: event %d: tick %q is not lifeloop", *scriptPath, i+1, e.Tick)
			}
			sim.setKind("proactive")
			// The daily jobs run on the first tick of each simulated day, as
			// the daemon's scheduler would run them once a day.
			if err := loop.RunDaily(ctx, e.at); err != nil {
				return fmt.Errorf("simulate daily jobs at %s: %w", e.at.Format(time.RFC3339), err)
			}
			rep, err := loop.Tick(ctx, e.at)
			if err != nil {
				return fmt.Errorf("simulate tick at %s: %w", e.at.Format(time.RFC3339), err)
			}
			for _, d := range rep.Decisions {
				sim.emit(simLine{At: e.at.Format(time.RFC3339), Kind: "decision", User: d.UserID, Text: d.Text, Reason: d.Outcome + ": " + d.Reason})
			}
		case e.State:
			doc, err := bot.BuildState(ctx, db, bot.StateOptions{Persona: persona, UserID: e.User, Now: e.at})
			if err != nil {
				return err
			}
			for i := range doc.Users {
				sim.emit(simLine{At: e.at.Format(time.RFC3339), Kind: "state", User: doc.Users[i].ID, State: &doc.Users[i]})
			}
		case e.User != "":
			sim.setKind("reply")
			platform, id := splitUser(e.User)
			if e.Name != "" {
				names[e.User] = e.Name
			}
			name := names[e.User]
			if name == "" {
				name = id
			}
			sim.chats.Store(platform+"/"+id, e.User)
			m := bot.Message{
				Platform: platform, ChatID: id, ChatKind: bot.ChatPrivate, MessageID: fmt.Sprintf("sim-%d", i+1),
				UserID: id, UserName: name, Text: e.Text, Modality: bot.ModalityText, At: e.at, Addressed: true,
			}
			if err := h.HandleMessage(ctx, m); err != nil {
				return err
			}
			h.Drain()
		}
	}
	h.Drain()
	return sim.out.err
}

// readScript parses a simulate script and resolves every event's time.
func readScript(path string) ([]resolvedEvent, error) {
	raw, err := readLimited(path)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	var evs []simEvent
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&evs); err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	if len(evs) == 0 {
		return nil, fmt.Errorf("script %s: no events", path)
	}
	prev, _ := time.Parse(time.RFC3339, SimStart)
	out := make([]resolvedEvent, 0, len(evs))
	for i, e := range evs {
		at, err := resolveAt(e.At, prev)
		if err != nil {
			return nil, fmt.Errorf("script %s: event %d: at: %w", path, i+1, err)
		}
		if at.Before(prev) && i > 0 {
			return nil, fmt.Errorf("script %s: event %d: at %s is before the previous event", path, i+1, at.Format(time.RFC3339))
		}
		kinds := 0
		for _, set := range []bool{e.Text != "", e.Tick != "", e.State} {
			if set {
				kinds++
			}
		}
		if kinds != 1 || (e.Text != "" && e.User == "") {
			return nil, fmt.Errorf("script %s: event %d: needs exactly one of {user, text}, {tick: lifeloop}, {state: true}", path, i+1)
		}
		out = append(out, resolvedEvent{simEvent: e, at: at})
		prev = at
	}
	return out, nil
}

type resolvedEvent struct {
	simEvent
	at time.Time
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
	chats sync.Map // platform/chat → user id
	out   *jsonLines
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
