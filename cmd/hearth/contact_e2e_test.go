package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hearth/bot/telegram/telegramtest"
)

// TestTelegramEmergencyContactConsentEndToEnd: on the fake Telegram, Ann
// names Bo (who talks to the same bot) as her emergency contact. Without
// her consent a crisis alerts the operator chat as always, without Bo, and
// Bo hears nothing; an operator clears Watch beside the daemon; Ann presses
// "I agree"; the next crisis's operator alert carries Bo and Bo gets one
// message saying Ann may need him, and nothing of what she said (seed 003
// §3.1 通知紧急联系人（如用户已授权）).
func TestTelegramEmergencyContactConsentEndToEnd(t *testing.T) {
	t.Parallel()
	const boID, opsChat = 43, 900
	ctx := e2eContext(t)
	tg := telegramtest.NewServer(t, e2eTelegramToken)
	db := filepath.Join(t.TempDir(), "luna.db")
	d := startDaemon(t, ctx, db, append(telegramEnv(tg), "TELEGRAM_OPERATOR_CHAT="+strconv.Itoa(opsChat)))

	bo := telegramtest.User(boID, "Bo")
	tg.Push("message", telegramtest.TextMessage(1, telegramtest.PrivateChat(boID), bo, "hi Luna"))
	waitSends(t, tg, boID, 1)

	tg.Push("message", annDM(1, "/contact Bo"))
	if got := waitSends(t, tg, annID, 1)[0].Params.Get("text"); !strings.Contains(got, "/contact agree") {
		t.Fatalf("naming a contact asks for consent separately: %q", got)
	}
	tg.Push("message", annDM(2, "i want to kms"))
	alert := waitSends(t, tg, opsChat, 1)[0].Params.Get("text")
	if strings.Contains(alert, "telegram:43") || !strings.Contains(alert, "telegram:42") {
		t.Fatalf("without consent the alert names no contact: %q", alert)
	}
	waitSends(t, tg, annID, 3) // the /contact answer, the reply, the resources (the limit's notice waits for a calm turn)
	if n := len(tg.SentTo(boID)); n != 1 {
		t.Fatalf("without consent Bo got %d messages", n)
	}

	if r := runHearth(t, "", nil, "watch", "clear", "--db", db, "--user", "telegram:42"); r.code != 0 {
		t.Fatalf("watch clear: %d %s", r.code, r.stderr)
	}
	tg.Push("callback_query", map[string]any{
		"id": "cbq-agree", "from": telegramtest.User(annID, "Ann"), "chat_instance": "x", "data": "/contact agree",
		"message": telegramtest.TextMessage(1002, telegramtest.PrivateChat(annID), telegramtest.BotUser(), "…"),
	})
	waitSends(t, tg, annID, 4)
	tg.Push("message", annDM(3, "i really want to kill myself tonight"))
	alert = waitSends(t, tg, opsChat, 2)[1].Params.Get("text")
	if !strings.Contains(alert, "telegram:43 (Bo)") || !strings.Contains(alert, "Emergency contact") {
		t.Fatalf("with consent the alert carries the contact: %q", alert)
	}
	notice := waitSends(t, tg, boID, 2)[1].Params.Get("text")
	if !strings.Contains(notice, "Ann") || strings.Contains(notice, "kill") {
		t.Fatalf("Bo hears who may need him, never what was said: %q", notice)
	}
	d.term(t)

	r := runHearth(t, "", nil, "export", "--db", db, "--user", "telegram:42")
	var ex struct {
		User struct {
			Contact string `json:"emergency_contact"`
			Consent bool   `json:"emergency_consent"`
		} `json:"user"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ex); err != nil || !ex.User.Consent || !strings.Contains(ex.User.Contact, "telegram:43") {
		t.Fatalf("export: %+v %v", ex.User, err)
	}
	st := runHearth(t, "", nil, "state", "--db", db, "--user", "telegram:42")
	var doc struct {
		Users []struct {
			Affinity struct {
				Watch       bool   `json:"watch"`
				WatchReason string `json:"watch_reason"`
				WatchDetail string `json:"watch_detail"`
				WatchSince  string `json:"watch_since"`
			} `json:"affinity"`
		} `json:"users"`
	}
	if err := json.Unmarshal([]byte(st.stdout), &doc); err != nil || len(doc.Users) != 1 {
		t.Fatalf("state: %v\n%s", err, st.stdout)
	}
	if a := doc.Users[0].Affinity; !a.Watch || a.WatchReason != "crisis" || a.WatchDetail == "" || a.WatchSince == "" {
		t.Fatalf("hearth state says why and since when: %+v", a)
	}
}
