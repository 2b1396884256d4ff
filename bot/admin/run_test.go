package admin_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"hearth/bot/admin"
)

func TestRunServesAndStops(t *testing.T) {
	s, err := admin.New(admin.Config{Addr: "127.0.0.1:0", Token: testToken, Core: newFakeCore("u1")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	select {
	case <-s.Ready():
	case err := <-done:
		t.Fatalf("Run returned early: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Run never listened")
	}
	if !strings.HasPrefix(s.Addr(), "127.0.0.1:") || strings.HasSuffix(s.Addr(), ":0") {
		t.Fatalf("Addr %q", s.Addr())
	}
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	resp, err := client.Get("http://" + s.Addr() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("healthz over Run: %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run after cancel: %v, want nil", err)
		}
	case <-time.After(admin.ShutdownTimeout + 5*time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if _, err := client.Get("http://" + s.Addr() + "/healthz"); err == nil {
		t.Error("still serving after Run returned")
	}
	if err := s.Run(context.Background()); err == nil {
		t.Error("second Run returned nil")
	}
}

func TestRunCancelledBeforeStart(t *testing.T) {
	s, err := admin.New(admin.Config{Addr: "127.0.0.1:0", Core: newFakeCore()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Run(ctx); err != nil {
		t.Errorf("Run with a cancelled ctx: %v, want nil", err)
	}
}

// TestRunDrainsInFlight: a request in flight when ctx ends still gets its
// answer (graceful shutdown), and Run returns nil after it.
func TestRunDrainsInFlight(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	slow := func(ctx context.Context) error {
		close(entered)
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s, err := admin.New(admin.Config{Addr: "127.0.0.1:0", Core: newFakeCore(), Checks: map[string]admin.Check{"slow": slow}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	<-s.Ready()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	got := make(chan int, 1)
	go func() {
		resp, err := client.Get("http://" + s.Addr() + "/healthz")
		if err != nil {
			got <- 0
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	<-entered
	cancel()
	// Shutdown has begun once new connections are refused; the in-flight
	// request still holds Run.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("listener still open after cancel")
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("Run returned %v while a request was in flight", err)
	default:
	}
	close(release)
	if code := <-got; code != http.StatusOK {
		t.Errorf("in-flight request got %d, want 200", code)
	}
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

func TestRunListenError(t *testing.T) {
	s, err := admin.New(admin.Config{Addr: "127.0.0.1:0", Core: newFakeCore()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	<-s.Ready()
	// A second server on the same, now taken, address cannot listen.
	s2, err := admin.New(admin.Config{Addr: s.Addr(), Core: newFakeCore()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Run(context.Background()); err == nil {
		t.Error("Run on a taken address returned nil")
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}
