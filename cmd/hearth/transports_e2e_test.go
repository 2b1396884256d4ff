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

	"hearth/bot/bottest"
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

// daemon is one `hearth run` process under test.
type daemon struct {
	cmd    *exec.Cmd
	stderr *bottest.Buffer
	done   chan error // Wait's result, once
	err    error
	exited bool
}

// startDaemon runs `hearth run` on db with env and waits until it says it
// is running. The process is killed when the test ends if still alive.
func startDaemon(t *testing.T, ctx context.Context, db string, env []string) *daemon {
	t.Helper()
	return startDaemonWith(t, ctx, db, examplePersona(t), env)
}

// startDaemonWith is startDaemon with another persona file.
func startDaemonWith(t *testing.T, ctx context.Context, db, persona string, env []string) *daemon {
	t.Helper()
	cmd := hearthCmd(ctx, env, "run", "--db", db, "--persona", persona)
	d := &daemon{cmd: cmd, stderr: &bottest.Buffer{}, done: make(chan error, 1)}
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
			t.Logf("hearth stderr (pid %d, last 4 KiB):\n%s", cmd.Process.Pid, tail(d.stderr.String(), 4096))
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

// waitSends waits until chat has received n messages and returns them.
func waitSends(t *testing.T, tg *telegramtest.Server, chat int64, n int) []telegramtest.Call {
	t.Helper()
	waitFor(t, strconv.Itoa(n)+" sendMessage to "+strconv.FormatInt(chat, 10), func() bool { return len(tg.SentTo(chat)) >= n })
	return tg.SentTo(chat)
}

// checkReply fails when text is empty or leaks a piece of the brain's
// hidden trailer or call marker.
func checkReply(t *testing.T, text string) {
	t.Helper()
	if strings.TrimSpace(text) == "" {
		t.Errorf("empty reply")
	}
	for _, leak := range [...]string{"<<<HEARTH", "emotion_label", "[[hearth:"} {
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
// the test has seen the typing indicator: a reply faster than
// bot.TypingDelay shows none.
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
	if got := tg.SentTo(annID); len(got) != 0 {
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
	if got := tg.SentTo(groupID); len(got) != 1 {
		t.Errorf("group got %d replies, want 1 (only the mention): %+v", len(got), got)
	}
	if got := tg.SentTo(annID); len(got) != 1 {
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
	waitFor(t, "update 2 accepted", func() bool { return hasPollFrom(tg, "3") })
	second.term(t) // drains every accepted turn
	if got := tg.SentTo(annID); len(got) != 2 {
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
	text := tg.SentTo(annID)[0].Params.Get("text")
	checkReply(t, text)

	second := startDaemon(t, ctx, db, telegramEnv(tg))
	got := waitSends(t, tg, annID, 2)
	second.term(t)
	got = tg.SentTo(annID)
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
	if got := tg.SentTo(annID); len(got) != 0 {
		t.Fatalf("sent before the reply was written: %+v", got)
	}

	llm.mu.Lock()
	close(llm.hold) // the brain answers at once now
	llm.mu.Unlock()
	second := startDaemon(t, ctx, db, env)
	waitSends(t, tg, annID, 1)
	second.term(t)
	got := tg.SentTo(annID)
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
	User struct {
		Unreachable bool `json:"unreachable"`
	} `json:"user"`
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
	ex, r, err := tryExport(t, db, user)
	if err != nil {
		t.Fatalf("export: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	return ex
}

// tryExport is export for polling: a user the daemon has not stored yet is
// an error (hearth export exits 1), not a failed test.
func tryExport(t *testing.T, db, user string) (exportDoc, result, error) {
	t.Helper()
	r := runHearth(t, "", nil, "export", "--db", db, "--user", user)
	var ex exportDoc
	err := json.Unmarshal([]byte(r.stdout), &ex)
	return ex, r, err
}

// hasPollFrom reports whether some getUpdates asked from offset: hearth
// stores the offset past an update only once the update is stored.
func hasPollFrom(tg *telegramtest.Server, offset string) bool {
	return slices.ContainsFunc(tg.CallsTo("getUpdates"), func(c telegramtest.Call) bool { return c.Params.Get("offset") == offset })
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

// TestTelegramButtonAndExport: a button press (callback_query) is
// acknowledged and answered like the command it carries, and /export comes
// back as a JSON document about the user.
func TestTelegramButtonAndExport(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, telegramEnv(tg))

	tg.Push("callback_query", map[string]any{
		"id": "cbq-1", "from": telegramtest.User(annID, "Ann"), "chat_instance": "x", "data": "/help",
		"message": telegramtest.TextMessage(1001, telegramtest.PrivateChat(annID), telegramtest.BotUser(), "What next?"),
	})
	tg.Push("message", annDM(1, "/export"))
	waitFor(t, "the export document", func() bool { return len(tg.CallsTo("sendDocument")) > 0 })
	d.term(t)

	acks := tg.CallsTo("answerCallbackQuery")
	if len(acks) != 1 || acks[0].Params.Get("callback_query_id") != "cbq-1" {
		t.Errorf("answerCallbackQuery = %+v, want one for cbq-1", acks)
	}
	if got := tg.SentTo(annID); len(got) != 2 || !strings.HasPrefix(got[0].Params.Get("text"), "What you can do") {
		t.Errorf("messages = %+v, want the help text, then the export's note", got)
	}
	doc := tg.CallsTo("sendDocument")
	var ex struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	if len(doc) != 1 || doc[0].Params.Get("chat_id") != strconv.Itoa(annID) {
		t.Fatalf("sendDocument = %+v", doc)
	}
	if err := json.Unmarshal(doc[0].Files["document"].Data, &ex); err != nil || ex.User.ID != "telegram:42" {
		t.Errorf("export document: %v, user %q, want telegram:42", err, ex.User.ID)
	}
}

// TestTelegramBlockedUserIsUnreachable: Telegram answers the reply with 403
// (the user blocked the bot). The ledger entry fails for good, the user is
// marked unreachable, and the chat keeps working: when they write again
// they are answered, and SIGTERM still drains and exits 0.
func TestTelegramBlockedUserIsUnreachable(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	tg.Fail("sendMessage", 403, `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, telegramEnv(tg))

	tg.Push("message", annDM(1, "hello Luna"))
	waitFor(t, "the user marked unreachable", func() bool {
		ex, _, err := tryExport(t, db, "telegram:42")
		return err == nil && ex.User.Unreachable
	})
	tg.Push("message", annDM(2, "sorry, I unblocked you"))
	waitSends(t, tg, annID, 2)
	d.term(t)
	if got := tg.SentTo(annID); len(got) != 2 {
		t.Errorf("%d sendMessage, want 2 (the 403 is final, never retried)", len(got))
	}
	ex := export(t, db, "telegram:42")
	if ex.User.Unreachable {
		t.Error("still unreachable after writing again")
	}
	var status []string
	for _, o := range ex.Outbound {
		status = append(status, o.Status)
	}
	if !slices.Equal(status, []string{"failed", "sent"}) {
		t.Errorf("ledger statuses = %v, want [failed sent]", status)
	}
}

// discordUser is a gateway user object.
func discordUser(id, name string) map[string]any {
	return map[string]any{"id": id, "username": name, "global_name": name, "discriminator": "0"}
}

// discordDM is a MESSAGE_CREATE payload in a DM channel.
func discordDM(id, channel, author, content string) map[string]any {
	return map[string]any{
		"id": id, "channel_id": channel, "type": 0, "content": content,
		"timestamp": time.Now().UTC().Format(time.RFC3339Nano),
		"author":    discordUser(author, "ann"), "mentions": []any{}, "attachments": []any{},
	}
}

// channelMsgs returns what hearth posted to a channel.
func channelMsgs(dc *discordtest.Server, channel string) []discordtest.Msg {
	var out []discordtest.Msg
	for _, m := range dc.Messages() {
		if m.Via == "channel" && m.Target == channel {
			out = append(out, m)
		}
	}
	return out
}

// waitDiscordReady waits for hearth's gateway session and its commands.
func waitDiscordReady(t *testing.T, dc *discordtest.Server) {
	t.Helper()
	waitFor(t, "the Discord session and commands", func() bool {
		var ready bool
		dc.Snapshot(func(f *discordtest.Server) { ready = len(f.Identifies) > 0 && len(f.Commands) > 0 })
		return ready && dc.Live()
	})
}

func TestDiscordSlashHelpAndDM(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	dc := discordtest.NewServer(t, e2eDiscordToken)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, discordEnv(dc))
	waitDiscordReady(t, dc)
	dc.Snapshot(func(f *discordtest.Server) {
		if !slices.ContainsFunc(f.Commands, func(c map[string]any) bool { return c["name"] == "help" }) {
			t.Errorf("registered commands %v lack help", f.Commands)
		}
	})

	// /help in a DM: deferred ack, then the help text as a followup.
	dc.Dispatch("INTERACTION_CREATE", map[string]any{
		"id": "ix1", "application_id": discordtest.AppID, "type": 2, "token": "tok1",
		"channel_id": "dm1", "version": 1, "user": discordUser("42", "ann"),
		"data": map[string]any{"id": "cmd-help", "name": "help", "type": 1},
	})
	waitFor(t, "the help text", func() bool {
		return slices.ContainsFunc(dc.Messages(), func(m discordtest.Msg) bool { return strings.Contains(m.Content, "/memories") })
	})
	var acks []discordtest.Callback
	dc.Snapshot(func(f *discordtest.Server) { acks = slices.Clone(f.Callbacks) })
	help := dc.Messages()[0]
	if len(acks) != 1 || acks[0].ID != "ix1" || acks[0].Token != "tok1" || acks[0].Type != 5 {
		t.Errorf("interaction acks = %+v, want one deferred ack (type 5) of ix1", acks)
	}
	if help.Via != "webhook" || help.Target != discordtest.AppID+"/tok1" || !help.AfterAck || !strings.HasPrefix(help.Content, "What you can do") {
		t.Errorf("help answer = %+v, want the English help as the interaction's followup", help)
	}

	// A DM from another user gets one reply in that channel.
	dc.Dispatch("MESSAGE_CREATE", discordDM("m1", "dm2", "43", "hello Luna, how was your day?"))
	waitFor(t, "the DM reply", func() bool { return len(channelMsgs(dc, "dm2")) > 0 })
	d.term(t)
	got := channelMsgs(dc, "dm2")
	if len(got) != 1 {
		t.Fatalf("DM replies = %+v, want 1", got)
	}
	checkReply(t, got[0].Content)
	if !got[0].NoPings {
		t.Errorf("DM reply may ping: %+v", got[0])
	}
	if n := stateMessages(t, db, "discord:43"); n != 1 {
		t.Errorf("state messages = %d, want 1", n)
	}
}

func TestOneInstanceAnswersBothPlatforms(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	dc := discordtest.NewServer(t, e2eDiscordToken)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, append(telegramEnv(tg), discordEnv(dc)...))
	waitDiscordReady(t, dc)

	tg.Push("message", annDM(1, "hello from Telegram"))
	dc.Dispatch("MESSAGE_CREATE", discordDM("m1", "dm9", "43", "hello from Discord"))
	checkReply(t, waitSends(t, tg, annID, 1)[0].Params.Get("text"))
	waitFor(t, "the Discord reply", func() bool { return len(channelMsgs(dc, "dm9")) > 0 })
	checkReply(t, channelMsgs(dc, "dm9")[0].Content)
	d.term(t)
	if n, m := len(tg.SentTo(annID)), len(channelMsgs(dc, "dm9")); n != 1 || m != 1 {
		t.Errorf("replies: telegram %d, discord %d; want 1 each", n, m)
	}
	if a, b := stateMessages(t, db, "telegram:42"), stateMessages(t, db, "discord:43"); a != 1 || b != 1 {
		t.Errorf("state messages: telegram:42 %d, discord:43 %d; want 1 each", a, b)
	}
}

// TestDiscordDMWhileDownIsAnswered stops hearth with SIGTERM; a DM reaches
// Discord while it is down (no gateway session hears of it, and the new
// session replays nothing). The restarted daemon fetches it from the
// channel's history and answers it exactly once.
func TestDiscordDMWhileDownIsAnswered(t *testing.T) {
	t.Parallel()
	ctx := e2eContext(t)
	dc := discordtest.NewServer(t, e2eDiscordToken)
	db := filepath.Join(t.TempDir(), "luna.db")

	first := startDaemon(t, ctx, db, discordEnv(dc))
	waitDiscordReady(t, dc)
	dc.Dispatch("MESSAGE_CREATE", discordDM("1001", "dm7", "43", "hello Luna"))
	waitFor(t, "the first DM's reply", func() bool { return len(channelMsgs(dc, "dm7")) > 0 })
	first.term(t)
	if dc.Live() {
		t.Fatal("gateway still connected after SIGTERM")
	}

	dc.AddHistory(discordDM("1002", "dm7", "43", "are you still there?"))
	second := startDaemon(t, ctx, db, discordEnv(dc))
	waitFor(t, "the missed DM's reply", func() bool { return len(channelMsgs(dc, "dm7")) >= 2 })
	second.term(t) // drains every accepted turn
	got := channelMsgs(dc, "dm7")
	if len(got) != 2 {
		t.Fatalf("%d replies to 2 DMs across a restart, want 2: %+v", len(got), got)
	}
	checkReply(t, got[1].Content)
	if n := stateMessages(t, db, "discord:43"); n != 2 {
		t.Errorf("state messages = %d, want 2", n)
	}
	var afters []string
	dc.Snapshot(func(f *discordtest.Server) {
		for _, fe := range f.Fetches {
			afters = append(afters, fe.Channel+">"+fe.After)
		}
	})
	if !slices.Equal(afters, []string{"dm7>1001"}) {
		t.Errorf("history requests %v, want one for dm7 after 1001 (the stored cursor)", afters)
	}
}
