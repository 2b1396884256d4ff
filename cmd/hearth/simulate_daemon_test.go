package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/heart"
	"hearth/lifeloop"
	"hearth/store"
)

// nightOwl is one message of a script of late nights: a user who writes
// every night and leans on the bot (seed 003 §6.1's conditions 2-4).
type nightOwl struct {
	at   time.Time
	text string
}

// nightsOfMessages is 21 nights of messages at 23:00 and 23:40 Shanghai,
// with a snapshot every morning at 04:30, after the daemon's 04:00 jobs.
func nightsOfMessages(nights int) (msgs []nightOwl, mornings []time.Time) {
	cst := time.FixedZone("CST", 8*3600)
	texts := []string{"can't sleep again, only you understand me", "I feel so lonely tonight", "nobody else listens like you do"}
	for d := range nights {
		night := time.Date(2026, 1, 5+d, 23, 0, 0, 0, cst)
		msgs = append(msgs, nightOwl{night, texts[d%len(texts)]}, nightOwl{night.Add(40 * time.Minute), texts[(d+1)%len(texts)]})
		mornings = append(mornings, night.Add(5*time.Hour+30*time.Minute))
	}
	return msgs, mornings
}

// TestSimulateWithoutTicksReachesTheDaemonsDependencyLevels runs one
// history of 21 late nights two ways: through the built `hearth simulate`
// with no tick in the script, and through the daemon's own wiring (the
// Handler and the life loop's daily job, called at 04:00 local each day as
// the daemon's cron does). Every morning's relationship must be the same,
// whatever the formulas are; and the nights must reach dependency level 1
// or more (seed 003 §6.2: level 1 on day 7), which a simulator that ran
// the daily jobs only on ticks never did.
func TestSimulateWithoutTicksReachesTheDaemonsDependencyLevels(t *testing.T) {
	persona := personaFile(t, "lifeloop:\n  schedule: 'off'\n")
	msgs, mornings := nightsOfMessages(21)

	// The simulator, as an operator runs it.
	var script strings.Builder
	for i, m := range msgs {
		fmt.Fprintf(&script, "- at: '%s'\n  user: telegram:9\n  name: Kai\n  text: %q\n", m.at.Format(time.RFC3339), m.text)
		if i%2 == 1 {
			fmt.Fprintf(&script, "- at: '%s'\n  state: true\n", mornings[i/2].Format(time.RFC3339))
		}
	}
	sp := filepath.Join(t.TempDir(), "nights.yaml")
	writeFile(t, sp, script.String())
	r := runHearth(t, "", nil, "simulate", "--persona", persona, "--script", sp)
	if r.code != 0 {
		t.Fatalf("simulate: exit %d\n%s", r.code, r.stderr)
	}
	var simulated []bot.AffinityState
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var sl simLine
		if err := json.Unmarshal([]byte(l), &sl); err != nil {
			t.Fatalf("not a JSON line %q: %v", l, err)
		}
		if sl.Kind == "state" {
			simulated = append(simulated, sl.State.Affinity)
		}
	}

	daemon := daemonMornings(t, persona, msgs, mornings)
	if len(simulated) != len(daemon) {
		t.Fatalf("simulate printed %d snapshots, the daemon path made %d", len(simulated), len(daemon))
	}
	for i := range daemon {
		if simulated[i] != daemon[i] {
			t.Errorf("morning %d: simulate %+v, daemon %+v", i+1, simulated[i], daemon[i])
		}
	}
	if last := simulated[len(simulated)-1]; last.DependencyLevel < 1 {
		t.Errorf("21 late nights without ticks end at dependency level %d, want ≥ 1 (levels: %v)", last.DependencyLevel, levels(simulated))
	}
}

func levels(as []bot.AffinityState) []int {
	out := make([]int, len(as))
	for i, a := range as {
		out[i] = a.DependencyLevel
	}
	return out
}

// daemonMornings feeds msgs to the daemon's Handler on a fake clock, runs
// the life loop's daily job at lifeloop.DailyJobHour local every day, as
// Loop.Run's cron does, and reads the relationship at each morning.
func daemonMornings(t *testing.T, personaPath string, msgs []nightOwl, mornings []time.Time) []bot.AffinityState {
	t.Helper()
	ctx := context.Background()
	p, raw, err := readPersonaFile(personaPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "daemon.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SetPersona(ctx, raw, msgs[0].at); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	now := msgs[0].at
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(at time.Time) { mu.Lock(); now = at; mu.Unlock() }
	offline := brain.NewOffline()
	senders := map[string]bot.Sender{bot.PlatformTelegram: discardSender{}}
	h, err := bot.NewHandler(ctx, bot.Config{Persona: p, Store: db, Brain: offline, Offline: offline, Senders: senders, Now: clock, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	loop, err := lifeloop.New(lifeloop.Config{Persona: p, Store: db, Brain: offline, Senders: senders,
		Assess: assessor(p), Forbidden: heart.ContainsForbidden, Daily: h.Daily, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	// The daemon's daily job: 04:00 in the persona's zone, every day.
	daily := func(from, to time.Time) {
		l := from.In(p.Timezone)
		for at := time.Date(l.Year(), l.Month(), l.Day(), lifeloop.DailyJobHour, 0, 0, 0, p.Timezone); !at.After(to); at = at.AddDate(0, 0, 1) {
			if at.After(from) {
				set(at)
				if err := loop.RunDaily(ctx, at); err != nil {
					t.Fatal(err)
				}
				h.Drain()
			}
		}
	}
	var out []bot.AffinityState
	prev := msgs[0].at
	for i, m := range msgs {
		daily(prev, m.at)
		set(m.at)
		msg := bot.Message{Platform: bot.PlatformTelegram, ChatID: "9", ChatKind: bot.ChatPrivate, MessageID: fmt.Sprint("d-", i),
			UserID: "9", UserName: "Kai", Text: m.text, Modality: bot.ModalityText, At: m.at, Addressed: true}
		if err := h.HandleMessage(ctx, msg); err != nil {
			t.Fatal(err)
		}
		h.Drain()
		prev = m.at
		if i%2 == 1 {
			morning := mornings[i/2]
			daily(prev, morning)
			prev = morning
			doc, err := bot.BuildState(ctx, db, bot.StateOptions{Persona: p, UserID: "telegram:9", Now: morning})
			if err != nil || len(doc.Users) != 1 {
				t.Fatalf("state: %v %+v", err, doc)
			}
			out = append(out, doc.Users[0].Affinity)
		}
	}
	return out
}

// discardSender accepts every message.
type discardSender struct{}

func (discardSender) Send(context.Context, bot.ChatRef, bot.Outgoing) (bot.Sent, error) {
	return bot.Sent{MessageIDs: []string{"x"}}, nil
}

func (discardSender) Typing(context.Context, bot.ChatRef) error { return nil }
