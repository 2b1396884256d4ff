package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/bot/telegram/telegramtest"
	"hearth/store"
)

// Sizes, goals and bounds of the daemon benchmarks. The sizes and goals are
// DESIGN §10's ("RSS idle and with 10,000 users; startup time") as the
// benchmark brief (/tmp/bench.md) states them; the bounds are our choices.
const (
	// benchUserCount is DESIGN §10's 10,000 stored users.
	benchUserCount = 10000
	// readyLine is what `hearth run` logs (at the default info level) once
	// its transports and loops are started.
	readyLine = "hearth running"
	// benchStartWait bounds one start or stop of the daemon.
	benchStartWait = 60 * time.Second
	// rssSampleEvery and rssStableSamples define "idle": RSS is read every
	// rssSampleEvery until rssStableSamples readings in a row stay within
	// rssStableBand of each other, or rssSettleWait passes.
	rssSampleEvery   = 100 * time.Millisecond
	rssStableSamples = 5
	rssStableBand    = 0.01
	rssSettleWait    = 10 * time.Second
	// The brief's RSS goals.
	rssGoalEmptyMB = 20
	rssGoal10kMB   = 60
)

// benchPersonaFile is the repository's persona.example.yaml.
func benchPersonaFile(b *testing.B) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		b.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "persona.example.yaml")
}

// writeBenchInstance creates an instance file in b.TempDir() with the example
// persona and users users, each with one answered turn (user row, episode
// with values, token usage, daily point), written straight through the
// store as a turn would commit them.
func writeBenchInstance(b *testing.B, users int) string {
	b.Helper()
	ctx := context.Background()
	raw, err := os.ReadFile(benchPersonaFile(b))
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "hearth.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	now := time.Now().UTC()
	if err := db.SetPersona(ctx, raw, now); err != nil {
		b.Fatal(err)
	}
	for i := range users {
		chat := strconv.Itoa(100000 + i)
		id := "telegram:" + chat
		at := now.Add(-time.Duration(users-i) * time.Minute)
		u, err := db.EnsureUser(ctx, store.User{
			ID: id, Platform: "telegram", Name: "User " + chat, PrivateChatID: chat, CreatedAt: at,
			InnerState: "I am Luna. User " + chat + " just arrived.", Proactive: true,
		})
		if err != nil {
			b.Fatal(err)
		}
		u.Messages, u.LastUserAt, u.LastBotAt, u.Mood = 1, at, at, 5
		u.LastIntents, u.LastEmotion = []string{"SMALL_TALK"}, "neutral"
		if _, err := db.CommitTurn(ctx, store.Turn{
			User: u,
			Episode: store.Episode{
				UserID: id, Platform: "telegram", ChatID: chat, UserText: "hello there, how was your day?",
				ReplyText: "Hello! It was calm; how was yours?", At: at, HasValues: true, Label: "joy",
				Intensity: 0.4, Salience: 0.3, Confidence: 0.8, TopicTags: []string{"day"}, Intent: "GREETING",
			},
			Usage: []store.Usage{{At: at, Kind: "reply", UserID: id, Prompt: 120, Completion: 30}},
			Daily: &store.DailyPoint{UserID: id, Day: at.Format(time.DateOnly), Mood: 5, Affinity: 10},
		}); err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// benchDaemon is one `hearth run --db F --console` with stdin an open pipe.
type benchDaemon struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	ready time.Duration // from Start to the ready line on stderr
	done  chan error    // the stderr reader's result: nil once ready was seen
}

// startBenchDaemon starts the daemon on db with the default log level and waits
// for the ready line; env adds to its environment (a transport).
func startBenchDaemon(b *testing.B, db string, env ...string) *benchDaemon {
	b.Helper()
	cmd := exec.Command(hearthBin, "run", "--db", db, "--console")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "USER=bench"}, env...)
	cmd.Stdout = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	d := &benchDaemon{cmd: cmd, stdin: stdin, done: make(chan error, 1)}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	ready := make(chan time.Duration, 1)
	var log strings.Builder
	go func() {
		// Owned by this daemon: it ends at EOF, when the process exits.
		sc := bufio.NewScanner(stderr)
		seen := false
		for sc.Scan() {
			if !seen && strings.Contains(sc.Text(), readyLine) {
				seen = true
				ready <- time.Since(start)
			}
			if !seen {
				log.WriteString(sc.Text() + "\n")
			}
		}
		if !seen {
			d.done <- fmt.Errorf("daemon exited before %q:\n%s", readyLine, log.String())
			return
		}
		d.done <- nil
	}()
	timeout := time.NewTimer(benchStartWait)
	defer timeout.Stop()
	select {
	case d.ready = <-ready:
		return d
	case err := <-d.done:
		_ = cmd.Wait()
		b.Fatal(err)
	case <-timeout.C:
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		b.Fatalf("no %q within %v", readyLine, benchStartWait)
	}
	return nil
}

// stop sends SIGTERM and waits for a clean exit.
func (d *benchDaemon) stop(b *testing.B) {
	b.Helper()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- d.cmd.Wait() }()
	timeout := time.NewTimer(benchStartWait)
	defer timeout.Stop()
	select {
	case err := <-exited:
		d.stdin.Close()
		if err != nil {
			b.Fatalf("daemon exit after SIGTERM: %v", err)
		}
	case <-timeout.C:
		_ = d.cmd.Process.Kill()
		<-exited
		b.Fatalf("daemon did not stop within %v of SIGTERM", benchStartWait)
	}
}

// BenchmarkStartup10kUsers measures start-to-ready of `hearth run --db F
// --console` on an instance with benchUserCount users: from starting the
// process to the ready line on stderr. Stopping is not timed.
func BenchmarkStartup10kUsers(b *testing.B) {
	db := writeBenchInstance(b, benchUserCount)
	var ready []time.Duration
	for b.Loop() {
		d := startBenchDaemon(b, db)
		ready = append(ready, d.ready)
		b.StopTimer()
		d.stop(b)
		b.StartTimer()
	}
	slices.Sort(ready)
	b.ReportMetric(float64(ready[len(ready)/2])/float64(time.Millisecond), "p50-ready-ms")
	b.ReportMetric(float64(ready[len(ready)-1])/float64(time.Millisecond), "max-ready-ms")
}

// BenchmarkRSS reports the daemon's resident memory once idle, measured
// from outside (/proc/PID/status VmRSS) on the shipped build: with an empty
// instance on the console and long-polling the Telegram fake (goal ≤
// rssGoalEmptyMB), and with benchUserCount users (goal ≤ rssGoal10kMB),
// and the peak (VmHWM) it reached getting there.
func BenchmarkRSS(b *testing.B) {
	for _, v := range []struct {
		name     string
		users    int
		goal     float64
		telegram bool
	}{
		{"empty", 0, rssGoalEmptyMB, false},
		{"telegram", 0, rssGoalEmptyMB, true},
		{"10k-users", benchUserCount, rssGoal10kMB, false},
	} {
		b.Run(v.name, func(b *testing.B) {
			db := writeBenchInstance(b, v.users)
			var env []string
			if v.telegram {
				f := telegramtest.NewServer(b, "123:rss")
				env = []string{"TELEGRAM_BOT_TOKEN=123:rss", "TELEGRAM_API_ENDPOINT=" + f.Endpoint()}
			}
			var idle, peak float64
			for b.Loop() {
				d := startBenchDaemon(b, db, env...)
				idle = max(idle, settledBenchRSS(b, d.cmd.Process.Pid))
				peak = max(peak, benchProcStatusMB(b, d.cmd.Process.Pid, "VmHWM"))
				d.stop(b)
			}
			b.ReportMetric(idle, "idle-MB")
			b.ReportMetric(peak, "peak-MB")
			if idle > v.goal {
				b.Logf("idle RSS %.1f MB misses the goal of %.0f MB", idle, v.goal)
			}
		})
	}
}

// settledBenchRSS polls VmRSS until it is stable (see rssStableSamples) and
// returns it in MB; after rssSettleWait it returns the last reading.
func settledBenchRSS(b *testing.B, pid int) float64 {
	b.Helper()
	deadline := time.Now().Add(rssSettleWait)
	var window []float64
	for {
		window = append(window, benchProcStatusMB(b, pid, "VmRSS"))
		if len(window) > rssStableSamples {
			window = window[1:]
		}
		if len(window) == rssStableSamples {
			lo, hi := slices.Min(window), slices.Max(window)
			if hi-lo <= rssStableBand*hi {
				return window[len(window)-1]
			}
		}
		if time.Now().After(deadline) {
			return window[len(window)-1]
		}
		time.Sleep(rssSampleEvery)
	}
}

// benchProcStatusMB reads one "kB" field of /proc/<pid>/status in MB.
func benchProcStatusMB(b *testing.B, pid int, field string) float64 {
	b.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
		if err != nil {
			b.Fatalf("%s: %q: %v", field, line, err)
		}
		return kb / 1024
	}
	b.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
