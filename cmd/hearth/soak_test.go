package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hearth/bot/telegram/telegramtest"
)

// The soak test of issue 8: the built daemon against the Telegram fake for
// HEARTH_SOAK (a duration), many users writing all the time, reflections
// and the life loop running, while RSS, goroutines and open files are
// sampled. A leak shows as a level that keeps rising after warm-up.
//
//	HEARTH_SOAK=1h go test -run TestSoak -timeout 2h ./cmd/hearth/

// Soak parameters, chosen by us (issue 8: about 200 users, warm-up is the
// first 20% of the run, RSS may grow 50%, goroutines and open files 20%
// plus a small absolute slack).
const (
	soakEnv   = "HEARTH_SOAK"
	soakUsers = 200
	// soakFirstUser is the first Telegram user (and private chat) id.
	soakFirstUser = 10001
	// soakInterval is the pause between two messages: 10 messages a second.
	soakInterval = 100 * time.Millisecond
	// soakBacklog bounds messages pushed but not yet turned, so the run
	// measures a steady state, not an ever longer queue.
	soakBacklog = 50
	// soakSamples is about how many samples a run takes; the interval is
	// clamped to [soakMinEvery, soakMaxEvery].
	soakSamples  = 30
	soakMinEvery = 2 * time.Second
	soakMaxEvery = time.Minute
	// soakWarmup is the share of the run before the baseline.
	soakWarmup = 0.2
	// soakWindow is the share of samples each of the baseline (right
	// after warm-up) and the final level (the end) is the median of.
	soakWindow = 0.2
	// Allowed growth of the final level over the baseline.
	soakRSSGrowth       = 0.5
	soakCountGrowth     = 0.2
	soakGoroutineSlack  = 20
	soakFDSlack         = 10
	soakMinSilence      = "15s" // permissive: users write about every 20 s
	soakDailyCap        = "1000"
	soakProactiveText   = "I was just thinking of you. How is your evening going?"
	soakLifeloopSpeaks  = `{"speak":true,"message":"` + soakProactiveText + `"}`
	soakLifeloopMarker  = "[[hearth:lifeloop]]"
	soakMaxRequestBytes = 1 << 20 // a prompt larger than this is a bug in itself
)

// soakPersona is Luna with a life loop that ticks every minute (the fastest
// a persona may ask, lifeloop.MinInterval) and gates open enough for
// proactive messages: each tick walks all users.
const soakPersona = `name: Luna
language: en
persona: |
  You are Luna, a warm, curious companion who loves night skies.
timezone: UTC
lifeloop:
  schedule: "* * * * *"
  quiet_hours: ""
  min_silence: ` + soakMinSilence + `
  min_state: stranger
  daily_cap: ` + soakDailyCap + `
`

// soakSample is one reading of the daemon.
type soakSample struct {
	at                         time.Duration
	rssKB, goroutines, fds     int
	metricFDs                  int
	turns, proactive, reflects int
}

// soakLLM answers like fakeLLM, except that the life loop always chooses
// to speak, so proactive messages happen.
func soakLLM(t *testing.T) (url string, lifeloopCalls *atomic.Int64) {
	f := newFakeLLM(t)
	calls := &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, soakMaxRequestBytes))
		if err != nil {
			http.Error(w, "read", http.StatusBadRequest)
			return
		}
		if bytes.Contains(body, []byte(soakLifeloopMarker)) {
			calls.Add(1)
			writeCompletion(w, soakLifeloopSpeaks)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		f.serve(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", calls
}

// scrape reads /metrics.
func scrape(ctx context.Context, client *http.Client, base string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("/metrics: %s", resp.Status)
	}
	return string(b), err
}

// metricSum adds every sample of metric name whose labels contain label.
func metricSum(body, name, label string) int {
	var sum float64
	for _, line := range strings.Split(body, "\n") {
		rest, ok := strings.CutPrefix(line, name)
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '{') || !strings.Contains(rest, label) {
			continue
		}
		f := strings.Fields(rest)
		if v, err := strconv.ParseFloat(f[len(f)-1], 64); err == nil {
			sum += v
		}
	}
	return int(sum)
}

// procRSS is VmRSS of pid in kB.
func procRSS(pid int) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.Atoi(strings.Fields(rest)[0])
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

// procFDs counts the open files of pid.
func procFDs(pid int) (int, error) {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(ents), err
}

// median of the samples' field f.
func median(s []soakSample, f func(soakSample) int) int {
	v := make([]int, len(s))
	for i := range s {
		v[i] = f(s[i])
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func TestSoak(t *testing.T) {
	raw := os.Getenv(soakEnv)
	if raw == "" {
		t.Skipf("set %s to a duration (e.g. %s=1h) to run the soak test", soakEnv, soakEnv)
	}
	dur, err := time.ParseDuration(raw)
	if err != nil || dur <= 0 {
		t.Fatalf("%s=%q: want a duration like 1h", soakEnv, raw)
	}
	every := min(max(dur/soakSamples, soakMinEvery), soakMaxEvery)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, seed>>1|1))
	t.Logf("soak for %v, a sample every %v, %d users, seed %d", dur, every, soakUsers, seed)

	ctx, cancel := context.WithTimeout(t.Context(), dur+2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	persona := filepath.Join(dir, "soak.yaml")
	if err := os.WriteFile(persona, []byte(soakPersona), 0o600); err != nil {
		t.Fatal(err)
	}
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llmURL, lifeloopCalls := soakLLM(t)
	db := filepath.Join(dir, "luna.db")
	env := append(telegramEnv(tg), "OPENAI_BASE_URL="+llmURL, "OPENAI_API_KEY=test-key-123456",
		"HEARTH_HTTP_ADDR=127.0.0.1:0", "HEARTH_LOG_LEVEL=info")
	d := startDaemonWith(t, ctx, db, persona, env)
	addrRe := regexp.MustCompile(`admin API listening.*addr=(127\.0\.0\.1:\d+)`)
	waitFor(t, "the admin API", func() bool { return addrRe.MatchString(d.stderr.String()) })
	base := "http://" + addrRe.FindStringSubmatch(d.stderr.String())[1]
	client := &http.Client{Timeout: 10 * time.Second}
	pid := d.cmd.Process.Pid

	// The writers: one goroutine owned by this test, stopped by stop.
	var pushed, turned atomic.Int64
	stop := make(chan struct{})
	var writers sync.WaitGroup
	writers.Go(func() {
		seq := make([]int64, soakUsers)
		tick := time.NewTicker(soakInterval)
		defer tick.Stop()
		lastScrape := time.Time{}
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if time.Since(lastScrape) > time.Second {
				if body, err := scrape(ctx, client, base); err == nil {
					turned.Store(int64(metricSum(body, "hearth_turns_total", "")))
				}
				lastScrape = time.Now()
			}
			if pushed.Load()-turned.Load() >= soakBacklog {
				continue
			}
			// Skewed: a few users write a lot (their reflections come
			// every 10 messages), most write now and then.
			u := int(float64(soakUsers) * rng.Float64() * rng.Float64())
			seq[u]++
			id := int64(soakFirstUser + u)
			tg.Push("message", telegramtest.TextMessage(seq[u], telegramtest.PrivateChat(id),
				telegramtest.User(id, "U"+strconv.Itoa(u)), chaosTexts[rng.IntN(len(chaosTexts))]))
			pushed.Add(1)
		}
	})

	var samples []soakSample
	start := time.Now()
	sample := func() {
		s := soakSample{at: time.Since(start).Round(time.Second)}
		var err error
		if s.rssKB, err = procRSS(pid); err != nil {
			t.Fatalf("rss: %v", err)
		}
		if s.fds, err = procFDs(pid); err != nil {
			t.Fatalf("fds: %v", err)
		}
		body, err := scrape(ctx, client, base)
		if err != nil {
			t.Fatalf("metrics: %v", err)
		}
		s.goroutines = metricSum(body, "go_goroutines", "")
		s.metricFDs = metricSum(body, "process_open_fds", "")
		s.turns = metricSum(body, "hearth_turns_total", "")
		s.proactive = metricSum(body, "hearth_proactive_decisions_total", `outcome="sent"`)
		s.reflects = metricSum(body, "hearth_reflections_total", "")
		samples = append(samples, s)
	}
	for end := start.Add(dur); time.Now().Before(end); {
		sample()
		sleepUntil(ctx, time.Now().Add(min(every, time.Until(end))))
		if ctx.Err() != nil {
			t.Fatalf("out of time: %v", ctx.Err())
		}
	}
	sample()
	close(stop)
	writers.Wait()
	d.term(t)

	var tbl strings.Builder
	fmt.Fprintf(&tbl, "%8s %9s %10s %8s %9s %7s %9s %8s\n", "t", "rss_kB", "goroutines", "fds", "fds(met)", "turns", "proactive", "reflect")
	for _, s := range samples {
		fmt.Fprintf(&tbl, "%8v %9d %10d %8d %9d %7d %9d %8d\n", s.at, s.rssKB, s.goroutines, s.fds, s.metricFDs, s.turns, s.proactive, s.reflects)
	}
	t.Logf("samples (pushed %d messages, %d life-loop calls):\n%s", pushed.Load(), lifeloopCalls.Load(), tbl.String())

	after := samples[int(float64(len(samples))*soakWarmup):]
	w := max(1, int(float64(len(after))*soakWindow))
	baseline, final := after[:w], after[len(after)-w:]
	check := func(what string, f func(soakSample) int, growth float64, slack int) {
		b, e := median(baseline, f), median(final, f)
		limit := int(float64(b)*(1+growth)) + slack
		t.Logf("%s: baseline %d, final %d, limit %d", what, b, e, limit)
		if e > limit {
			t.Errorf("%s grew from %d to %d after warm-up (limit %d): a leak", what, b, e, limit)
		}
	}
	check("RSS kB", func(s soakSample) int { return s.rssKB }, soakRSSGrowth, 0)
	check("goroutines", func(s soakSample) int { return s.goroutines }, soakCountGrowth, soakGoroutineSlack)
	check("open files (/proc)", func(s soakSample) int { return s.fds }, soakCountGrowth, soakFDSlack)
	check("open files (metrics)", func(s soakSample) int { return s.metricFDs }, soakCountGrowth, soakFDSlack)

	last := samples[len(samples)-1]
	if last.turns == 0 || last.reflects == 0 || last.proactive == 0 {
		t.Errorf("the soak did not exercise everything: %d turns, %d reflections, %d proactive messages", last.turns, last.reflects, last.proactive)
	}
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
