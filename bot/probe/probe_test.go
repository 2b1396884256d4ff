package probe_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"hearth/bot/bottest"
	"hearth/bot/probe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// server is a fake server's state as the loop sees it: down until back is
// set, and the caller's view of it (down until Up).
type server struct {
	back   atomic.Bool
	down   atomic.Bool
	probes atomic.Int32
	ups    chan struct{}
	asked  atomic.Int32 // calls of Down
}

func newLoop(s *server) *probe.Loop {
	return probe.New(probe.Loop{
		First: time.Millisecond, Max: 4 * time.Millisecond, Timeout: time.Second,
		Probe: func(ctx context.Context) error {
			s.probes.Add(1)
			if !s.back.Load() {
				return errors.New("connection refused")
			}
			return nil
		},
		Down: func() bool { s.asked.Add(1); return s.down.Load() },
		Up: func() {
			if s.down.CompareAndSwap(true, false) {
				s.ups <- struct{}{}
			}
		},
	})
}

func start(t *testing.T, l *probe.Loop) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { l.Run(ctx) })
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// A woken loop probes until the server answers, reports it up once, and
// waits for the next Wake; Run returns when its context ends.
func TestLoopProbesUntilTheServerIsBack(t *testing.T) {
	s := &server{ups: make(chan struct{}, 2)}
	l := newLoop(s)
	start(t, l)

	s.down.Store(true)
	l.Wake()
	l.Wake() // a second Wake during a round starts no second loop
	bottest.WaitFor(t, "probes while the server is down", func() bool { return s.probes.Load() >= 3 })
	s.back.Store(true)
	select {
	case <-s.ups:
	case <-time.After(bottest.WaitLimit):
		t.Fatal("the loop did not report the server up")
	}
	if s.down.Load() {
		t.Fatal("still down after Up")
	}
}

// A loop whose caller no longer needs it (a real call found the server
// back) stops probing without reporting anything.
func TestLoopStopsWhenNothingIsLeftToFindOut(t *testing.T) {
	s := &server{ups: make(chan struct{}, 1)}
	l := newLoop(s)
	start(t, l)
	l.Wake() // Down is false: the round ends at once
	bottest.WaitFor(t, "the round to ask whether the server is down", func() bool { return s.asked.Load() > 0 })
	if n := s.probes.Load(); n != 0 {
		t.Fatalf("%d probes of a server nobody needs probed", n)
	}
	s.down.Store(true)
	s.back.Store(true)
	l.Wake()
	select {
	case <-s.ups:
	case <-time.After(bottest.WaitLimit):
		t.Fatal("the loop did not probe after the second Wake")
	}
}
