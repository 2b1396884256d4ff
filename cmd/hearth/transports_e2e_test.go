package main

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/bot/discord/discordtest"
	"hearth/bot/telegram/telegramtest"
)

// The transport end-to-end tests drive the built binary with `hearth run`
// against the fake Telegram Bot API and the fake Discord from the
// transports' test-support packages: no console, stdin not a terminal.

const (
	e2eTelegramToken = "123456:E2E-token-secret"
	e2eDiscordToken  = "e2e-discord-token"
	// e2eBudget bounds one test's processes (chosen by us: the whole file
	// must stay well under 30 s; a stuck daemon fails its test instead).
	e2eBudget = 30 * time.Second
	// annID is the Telegram user and private chat of the tests.
	annID = 42
	// groupID is a Telegram supergroup.
	groupID = -100
)

// trailerLeaks are pieces of the brain's hidden trailer that must never
// reach a platform.
var trailerLeaks = []string{"<<<HEARTH", "emotion_label", "[[hearth:"}

// daemon is one `hearth run` process under test.
type daemon struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	done   chan error // Wait's result, once
	err    error
	exited bool
}

// startDaemon runs `hearth run` on db with env and waits until it says it
// is running. The process is killed when the test ends if still alive.
func startDaemon(t *testing.T, ctx context.Context, db string, env []string) *daemon {
	t.Helper()
	cmd := hearthCmd(ctx, env, "run", "--db", db, "--persona", examplePersona(t))
	d := &daemon{cmd: cmd, stderr: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = d.stderr // stdin and stdout: /dev/null, not a terminal
	if err := cmd.Start(); err != nil {
		t.Fatalf("start hearth: %v", err)
	}
	go func() { d.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if !d.exited {
			_ = cmd.Process.Kill()
			d.wait(t)
		}
		if t.Failed() {
			t.Logf("hearth stderr (pid %d):\n%s", cmd.Process.Pid, d.stderr.String())
		}
	})
	waitFor(t, "hearth running", func() bool {
		select {
		case err := <-d.done:
			d.exited, d.err = true, err
			t.Fatalf("hearth exited at start: %v\n%s", err, d.stderr.String())
		default:
		}
		return strings.Contains(d.stderr.String(), "hearth running")
	})
	return d
}

// wait reaps the process within e2eBudget.
func (d *daemon) wait(t *testing.T) error {
	t.Helper()
	if d.exited {
		return d.err
	}
	select {
	case d.err = <-d.done:
	case <-time.After(e2eBudget):
		_ = d.cmd.Process.Kill()
		d.err = <-d.done
		t.Errorf("hearth did not exit in %v", e2eBudget)
	}
	d.exited = true
	return d.err
}

// term sends SIGTERM and requires a clean exit 0.
func (d *daemon) term(t *testing.T) {
	t.Helper()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := d.wait(t); err != nil {
		t.Fatalf("SIGTERM exit: %v\n%s", err, d.stderr.String())
	}
}

// kill9 kills the process without any chance to clean up.
func (d *daemon) kill9(t *testing.T) {
	t.Helper()
	if err := d.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := d.wait(t); !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("kill -9: exit %v, want death by SIGKILL", err)
	}
}

// e2eContext bounds a test's processes.
func e2eContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), e2eBudget)
	t.Cleanup(cancel)
	return ctx
}

func telegramEnv(tg *telegramtest.Server) []string {
	return []string{"TELEGRAM_BOT_TOKEN=" + e2eTelegramToken, "TELEGRAM_API_ENDPOINT=" + tg.Endpoint()}
}

func discordEnv(dc *discordtest.Server) []string {
	return []string{"DISCORD_BOT_TOKEN=" + e2eDiscordToken, "DISCORD_API_BASE=" + dc.Base()}
}

// sendsTo returns the sendMessage calls to chat, in order.
func sendsTo(tg *telegramtest.Server, chat int64) []telegramtest.Call {
	var out []telegramtest.Call
	for _, c := range tg.CallsTo("sendMessage") {
		if c.Params.Get("chat_id") == strconv.FormatInt(chat, 10) {
			out = append(out, c)
		}
	}
	return out
}

// waitSends waits until chat has received n messages and returns them.
func waitSends(t *testing.T, tg *telegramtest.Server, chat int64, n int) []telegramtest.Call {
	t.Helper()
	waitFor(t, strconv.Itoa(n)+" sendMessage to "+strconv.FormatInt(chat, 10), func() bool { return len(sendsTo(tg, chat)) >= n })
	return sendsTo(tg, chat)
}

// checkReply fails when text is empty or leaks the trailer.
func checkReply(t *testing.T, text string) {
	t.Helper()
	if strings.TrimSpace(text) == "" {
		t.Errorf("empty reply")
	}
	for _, leak := range trailerLeaks {
		if strings.Contains(text, leak) {
			t.Errorf("reply leaks %q: %q", leak, text)
		}
	}
}

// stateMessages is `hearth state --user` messages count for user.
func stateMessages(t *testing.T, db, user string) int {
	t.Helper()
	r := runHearth(t, "", nil, "state", "--db", db, "--user", user)
	var doc struct {
		Users []struct {
			ID       string `json:"id"`
			Messages int    `json:"messages"`
		} `json:"users"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Users) != 1 || doc.Users[0].ID != user {
		t.Fatalf("state --user %s: exit %d, %v\n%s%s", user, r.code, err, r.stdout, r.stderr)
	}
	return doc.Users[0].Messages
}

func annDM(id int64, text string) map[string]any {
	return telegramtest.TextMessage(id, telegramtest.PrivateChat(annID), telegramtest.User(annID, "Ann"), text)
}

// TestTelegramDMAndGroupAddressing uses a brain that holds its reply until
// the test has seen the typing indicator: the offline brain answers so fast
// that the indicator's request is cancelled before it leaves (see the
// report on bot/turn.go typing).
func TestTelegramDMAndGroupAddressing(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llm := newFakeLLM(t)
	llm.hold = make(chan struct{})
	db := filepath.Join(t.TempDir(), "luna.db")
	env := append(telegramEnv(tg), "OPENAI_BASE_URL="+llm.URL(), "OPENAI_API_KEY=test-key-123456")
	d := startDaemon(t, ctx, db, env)

	tg.Push("message", annDM(1, "hello Luna, I had a long day"))
	waitFor(t, "the typing indicator", func() bool {
		return slices.ContainsFunc(tg.CallsTo("sendChatAction"), func(c telegramtest.Call) bool {
			return c.Params.Get("chat_id") == strconv.Itoa(annID) && c.Params.Get("action") == "typing"
		})
	})
	if got := sendsTo(tg, annID); len(got) != 0 {
		t.Fatalf("sent before the brain answered: %+v", got)
	}
	llm.mu.Lock()
	close(llm.hold)
	llm.mu.Unlock()
	reply := waitSends(t, tg, annID, 1)[0]
	checkReply(t, reply.Params.Get("text"))
	if !strings.Contains(reply.Params.Get("text"), llm.reply) {
		t.Errorf("reply %q, want the brain's %q without its trailer", reply.Params.Get("text"), llm.reply)
	}

	// A group: chatter without a mention gets no reply; a mention does.
	// Turns of one chat run in order, so once the mention is answered the
	// chatter has been decided.
	group, bo := telegramtest.GroupChat(groupID), telegramtest.User(43, "Bo")
	tg.Push("message", telegramtest.TextMessage(2, group, bo, "nice weather today, everyone"))
	tg.Push("message", telegramtest.TextMessage(3, group, bo, "@"+telegramtest.BotName+" how are you?"))
	got := waitSends(t, tg, groupID, 1)
	checkReply(t, got[0].Params.Get("text"))
	d.term(t) // drains every queued turn
	if got := sendsTo(tg, groupID); len(got) != 1 {
		t.Errorf("group got %d replies, want 1 (only the mention): %+v", len(got), got)
	}
	if got := sendsTo(tg, annID); len(got) != 1 {
		t.Errorf("DM got %d replies, want 1", len(got))
	}
}

func TestTelegramRestartDoesNotReplyTwice(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	db := filepath.Join(t.TempDir(), "luna.db")

	first := startDaemon(t, ctx, db, telegramEnv(tg))
	tg.Push("message", annDM(1, "hello Luna"))
	waitSends(t, tg, annID, 1)
	first.term(t)

	// The fake still serves update 1 to any poll from offset ≤ 1: only the
	// stored offset and the inbound dedupe keep it from a second answer.
	polls := len(tg.CallsTo("getUpdates"))
	second := startDaemon(t, ctx, db, telegramEnv(tg))
	waitFor(t, "the restarted daemon to poll", func() bool { return len(tg.CallsTo("getUpdates")) > polls })
	if off := tg.CallsTo("getUpdates")[polls].Params.Get("offset"); off != "2" {
		t.Errorf("restarted daemon polls from offset %q, want 2", off)
	}
	tg.Push("message", annDM(2, "I'm back"))
	got := waitSends(t, tg, annID, 2)
	second.term(t)
	if got = sendsTo(tg, annID); len(got) != 2 {
		t.Fatalf("%d replies to 2 messages across a restart: %+v", len(got), got)
	}
	if n := stateMessages(t, db, "telegram:42"); n != 2 {
		t.Errorf("state messages = %d, want 2", n)
	}
}

// TestTelegramKill9AfterPlatformHasReply kills hearth while Telegram has
// recorded the reply but hearth has not heard back: the documented
// duplicate window (README "Delivery guarantees"). The reply is sent again
// after restart, exactly once more, and the message gets no second turn.
func TestTelegramKill9AfterPlatformHasReply(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	db := filepath.Join(t.TempDir(), "luna.db")
	hold := tg.HoldNextSend(t)

	first := startDaemon(t, ctx, db, telegramEnv(tg))
	tg.Push("message", annDM(1, "please remember this moment"))
	select {
	case <-hold.Reached():
	case <-ctx.Done():
		t.Fatal("the reply never reached Telegram")
	}
	first.kill9(t)
	hold.Release()
	text := sendsTo(tg, annID)[0].Params.Get("text")
	checkReply(t, text)

	second := startDaemon(t, ctx, db, telegramEnv(tg))
	got := waitSends(t, tg, annID, 2)
	second.term(t)
	got = sendsTo(tg, annID)
	if len(got) != 2 {
		t.Fatalf("%d sends of the reply, want exactly 2 (one duplicate): %+v", len(got), got)
	}
	if got[1].Params.Get("text") != text {
		t.Errorf("resent %q, want the same reply %q", got[1].Params.Get("text"), text)
	}
	if n := stateMessages(t, db, "telegram:42"); n != 1 {
		t.Errorf("state messages = %d, want 1", n)
	}
}

// TestTelegramKill9BeforeSend kills hearth while the brain is still writing
// the reply: nothing reached Telegram, and after restart the message is
// answered exactly once.
func TestTelegramKill9BeforeSend(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	llm := newFakeLLM(t)
	llm.hold = make(chan struct{})
	llm.reply = "Welcome back, I kept your words safe."
	db := filepath.Join(t.TempDir(), "luna.db")
	env := append(telegramEnv(tg), "OPENAI_BASE_URL="+llm.URL(), "OPENAI_API_KEY=test-key-123456")

	first := startDaemon(t, ctx, db, env)
	tg.Push("message", annDM(1, "please remember this moment"))
	select {
	case <-llm.replySeen:
	case <-ctx.Done():
		t.Fatal("the reply call never reached the brain")
	}
	first.kill9(t)
	if got := sendsTo(tg, annID); len(got) != 0 {
		t.Fatalf("sent before the reply was written: %+v", got)
	}

	llm.mu.Lock()
	close(llm.hold) // the brain answers at once now
	llm.mu.Unlock()
	second := startDaemon(t, ctx, db, env)
	waitSends(t, tg, annID, 1)
	second.term(t)
	got := sendsTo(tg, annID)
	if len(got) != 1 || !strings.Contains(got[0].Params.Get("text"), llm.reply) {
		t.Fatalf("sends after restart = %+v, want exactly one with %q", got, llm.reply)
	}
	checkReply(t, got[0].Params.Get("text"))
	if n := stateMessages(t, db, "telegram:42"); n != 1 {
		t.Errorf("state messages = %d, want 1", n)
	}
}

// exportDoc is the part of `hearth export` these tests read.
type exportDoc struct {
	Outbound []exportOutbound `json:"outbound"`
	Signals  []struct {
		Tag string `json:"tag"`
	} `json:"signals"`
}

// exportOutbound is one ledger entry in the export.
type exportOutbound struct {
	Status      string   `json:"status"`
	PlatformIDs []string `json:"platform_ids"`
}

func export(t *testing.T, db, user string) exportDoc {
	t.Helper()
	r := runHearth(t, "", nil, "export", "--db", db, "--user", user)
	var ex exportDoc
	if err := json.Unmarshal([]byte(r.stdout), &ex); err != nil {
		t.Fatalf("export: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	return ex
}

// likeSignals counts the "like" signals in `hearth export` of user.
func likeSignals(t *testing.T, db, user string) int {
	t.Helper()
	n := 0
	for _, s := range export(t, db, user).Signals {
		if s.Tag == "like" {
			n++
		}
	}
	return n
}

func TestTelegramReactionIsALike(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, telegramEnv(tg))

	tg.Push("message", annDM(1, "hello Luna"))
	reply := waitSends(t, tg, annID, 1)[0]
	// The reply's platform id reaches the ledger just after the send; a
	// reaction before that is on a message hearth does not know yet.
	id := strconv.FormatInt(reply.MessageID, 10)
	waitFor(t, "the reply marked sent", func() bool {
		return slices.ContainsFunc(export(t, db, "telegram:42").Outbound, func(o exportOutbound) bool {
			return slices.Contains(o.PlatformIDs, id)
		})
	})
	if n := likeSignals(t, db, "telegram:42"); n != 0 {
		t.Fatalf("%d like signals before any reaction", n)
	}

	// A reaction on Ann's own message is not feedback; on the bot's it is.
	chat, ann := telegramtest.PrivateChat(annID), telegramtest.User(annID, "Ann")
	tg.Push("message_reaction", telegramtest.Reaction(chat, 1, ann, "👍", time.Now().Unix()))
	tg.Push("message_reaction", telegramtest.Reaction(chat, reply.MessageID, ann, "❤", time.Now().Unix()))
	waitFor(t, "a like signal in the export", func() bool { return likeSignals(t, db, "telegram:42") > 0 })
	d.term(t)
	if n := likeSignals(t, db, "telegram:42"); n != 1 {
		t.Errorf("%d like signals, want 1 (the reaction on hearth's message only)", n)
	}
}
