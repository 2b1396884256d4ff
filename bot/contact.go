package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hearth/store"
)

// The emergency contact (seed 003 §3.1 观察期 "通知紧急联系人（如用户已授权）",
// DESIGN §6). A user names one with /contact: another user of this instance
// on the same platform, or a free-text note for the operator. Naming is not
// agreeing: consent is a separate step (/contact agree), revocable
// (/contact revoke), and the contact can be forgotten (/contact remove).
// Both are in /export (store.User.EmergencyContact, EmergencyConsent).
//
// What consent allows, on entering Watch and never otherwise: the operator
// alert carries the contact; and when the contact is a user hearth already
// talks with in a private chat, hearth sends them one short message asking
// them to check on the user (txtContactNotice), never what the user said.
// Without consent nobody but the operator's usual alert hears anything.

// Stored forms of store.User.EmergencyContact.
const (
	contactUserPrefix = "user:" // "user:<hearth user id> <display name>"
	contactNotePrefix = "note:" // "note:<free text for the operator>"
)

// contactMaxNote bounds a note's length in runes (hearth's choice: room for
// a name and a phone number, not for a letter).
const contactMaxNote = 200

// emergencyContact is the parsed store.User.EmergencyContact.
type emergencyContact struct {
	userID, name string // a user of this instance
	note         string // or a note for the operator
}

func parseContact(s string) (emergencyContact, bool) {
	switch {
	case strings.HasPrefix(s, contactUserPrefix):
		id, name, _ := strings.Cut(strings.TrimPrefix(s, contactUserPrefix), " ")
		return emergencyContact{userID: id, name: name}, id != ""
	case strings.HasPrefix(s, contactNotePrefix):
		note := strings.TrimPrefix(s, contactNotePrefix)
		return emergencyContact{note: note}, note != ""
	}
	return emergencyContact{}, false
}

func (c emergencyContact) String() string {
	if c.userID != "" {
		return contactUserPrefix + c.userID + " " + c.name
	}
	return contactNotePrefix + c.note
}

// label shows the contact to its owner.
func (c emergencyContact) label(lang string) string {
	if c.userID != "" {
		return txtContactUserLabel.in(lang, c.name)
	}
	return txtContactNoteLabel.in(lang, c.note)
}

// contactStatus is the one-line state of u's contact.
func contactStatus(u store.User, lang string) string {
	c, ok := parseContact(u.EmergencyContact)
	switch {
	case !ok:
		return txtContactNone.in(lang)
	case u.EmergencyConsent:
		return txtContactStatusYes.in(lang, c.label(lang))
	}
	return txtContactStatusNo.in(lang, c.label(lang))
}

// contactCommand answers /contact [NAME|agree|revoke|remove] and changes u.
func (h *Handler) contactCommand(ctx context.Context, u *store.User, args string) (Outgoing, error) {
	lang := h.cfg.Persona.Language
	out := Outgoing{}
	c, named := parseContact(u.EmergencyContact)
	willMessage := func(c emergencyContact) string {
		if c.userID != "" {
			return txtContactWillMessage.in(lang)
		}
		return ""
	}
	switch word := strings.ToLower(strings.TrimSpace(args)); word {
	case "":
		out.Text = txtContactExplainAll.in(lang, contactStatus(*u, lang))
	case "agree", "yes", "同意", "はい", "同意する":
		if !named {
			out.Text = txtContactFirst.in(lang)
			break
		}
		u.EmergencyConsent = true
		out.Text = txtContactAgreed.in(lang, willMessage(c))
	case "revoke", "no", "off", "撤回", "取消", "取り消し", "取り消す":
		u.EmergencyConsent = false
		out.Text = txtContactRevoked.in(lang)
	case "remove", "clear", "delete", "删除", "削除", "消す":
		u.EmergencyContact, u.EmergencyConsent = "", false
		out.Text = txtContactRemoved.in(lang)
	default:
		nc, err := h.resolveContact(ctx, *u, args)
		if err != nil {
			return out, err
		}
		if nc.userID == u.ID {
			out.Text = txtContactSelf.in(lang)
			break
		}
		// A new contact needs a new agreement: consent was for someone else.
		u.EmergencyContact, u.EmergencyConsent = nc.String(), false
		c, named = nc, true
		out.Text = txtContactSet.in(lang, nc.label(lang), willMessage(nc))
	}
	if named && u.EmergencyContact != "" {
		if u.EmergencyConsent {
			out.Buttons = [][]Button{{{Label: btnContactRevoke.in(lang), Data: "/contact revoke"}, {Label: btnContactRemove.in(lang), Data: "/contact remove"}}}
		} else {
			out.Buttons = [][]Button{{{Label: btnContactAgree.in(lang), Data: "/contact agree"}, {Label: btnContactRemove.in(lang), Data: "/contact remove"}}}
		}
	}
	return out, nil
}

// resolveContact reads /contact's argument: a user of this instance on the
// same platform, by mention (Discord "<@123>"), "@name", id or display
// name; anything else is a note for the operator.
func (h *Handler) resolveContact(ctx context.Context, u store.User, arg string) (emergencyContact, error) {
	arg = strings.TrimSpace(arg)
	key := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(arg, "<@"), "!"), ">")
	key = strings.TrimPrefix(key, "@")
	if key != "" && !strings.ContainsAny(key, " \t\n") {
		users, err := h.cfg.Store.Users(ctx)
		if err != nil {
			return emergencyContact{}, fmt.Errorf("contact of %s: %w", u.ID, err)
		}
		for _, o := range users {
			if o.Platform == u.Platform && (o.ID == UserKey(u.Platform, key) || strings.EqualFold(o.Name, key)) {
				return emergencyContact{userID: o.ID, name: o.Name}, nil
			}
		}
	}
	note := []rune(arg)
	if len(note) > contactMaxNote {
		note = note[:contactMaxNote]
	}
	return emergencyContact{note: string(note)}, nil
}

// contactNotice tells a consenting user's contact, when the contact is a
// user hearth talks with in a private chat, that the user may need them
// (queued in t, the transaction that entered Watch). It reports whether a
// message was queued, for the operator's alert.
func (h *Handler) contactNotice(ctx context.Context, u store.User, now time.Time, t *store.Turn) bool {
	c, ok := parseContact(u.EmergencyContact)
	if !ok || !u.EmergencyConsent || c.userID == "" {
		return false
	}
	o, found, err := h.cfg.Store.User(ctx, c.userID)
	if err != nil || !found || o.PrivateChatID == "" || o.Unreachable {
		if err != nil {
			h.log.Warn("emergency contact not reachable", "user", u.ID, "err", err)
		}
		return false
	}
	chat := ChatRef{Platform: o.Platform, ChatID: o.PrivateChatID, Kind: ChatPrivate}
	text := txtContactNotice.in(h.cfg.Persona.Language, o.Name, u.Name)
	t.Extra = append(t.Extra, *h.outbound(o.ID, chat, "contact", 0, text, now))
	h.log.Info("emergency contact told, with the user's consent", "user", u.ID, "contact", o.ID)
	return true
}

// operatorContactLine is the emergency contact for the operator's Watch
// alert: only with the user's consent, "" otherwise.
func operatorContactLine(u store.User, told bool, lang string) string {
	c, ok := parseContact(u.EmergencyContact)
	if !ok || !u.EmergencyConsent {
		return ""
	}
	who := c.note
	if c.userID != "" {
		who = c.userID + " (" + c.name + ")"
	}
	suffix := ""
	if told {
		suffix = txtOperatorContactTold.in(lang)
	}
	return txtOperatorContact.in(lang, who, suffix)
}
