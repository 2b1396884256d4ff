package main

import (
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"hearth/bot/bottest"
)

// A slow drain says every interval what it still waits for, with the
// counts as they fall, and says nothing more once drained; a quick one
// says nothing at all.
func TestDrainLogsWhileStillDraining(t *testing.T) {
	before := goleak.IgnoreCurrent()
	var logs bottest.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	var turns atomic.Int32
	turns.Store(2)
	inFlight := func() (int, int) { return int(turns.Load()), 1 }
	const every = 5 * time.Millisecond
	drainLogged(log, every, inFlight, func() {
		waitFor(t, "a still-draining line", func() bool {
			return strings.Contains(logs.String(), `still draining" turns=2 reflections=1`)
		})
		turns.Store(1)
		waitFor(t, "a line with one turn left", func() bool {
			return strings.Contains(logs.String(), `still draining" turns=1 reflections=1`)
		})
	})
	// The ticker stopped with the drain: no goroutine of it is left.
	goleak.VerifyNone(t, before)
	if line := lineWith(logs.String(), "still draining"); !strings.Contains(line, "waited=") {
		t.Errorf("line %q does not say how long the stop has waited", line)
	}

	var quiet bottest.Buffer
	drainLogged(slog.New(slog.NewTextHandler(&quiet, nil)), time.Hour, inFlight, func() {})
	if quiet.String() != "" {
		t.Errorf("a quick drain logged:\n%s", quiet.String())
	}
}
