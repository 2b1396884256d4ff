package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hearth/store"
)

// privacy is the privacy panel (/privacy, the /me card's "Privacy"
// button; seed 003 §9 "[隐私设置]"): whether hearth may write first, quiet
// hours and pauses, what it remembers, the emergency contact, the export.
// Looking at it and pressing its buttons cost nothing: the one real change
// seed 003 §2.3 scores ("关闭了AI主动消息功能", 需要边界) is switching
// proactive messages off, which off reports (the caller counts it at most
// once a month, heart.BoundaryEvery).
//
//	/privacy                    the panel
//	/privacy proactive on|off   allow or stop messages from hearth first
//	/privacy pause DURATION     no messages first for a while (e.g. 8h)
func (h *Handler) privacy(ctx context.Context, u *store.User, args string, now time.Time) (out Outgoing, off bool, err error) {
	lang := h.cfg.Persona.Language
	f := strings.Fields(strings.ToLower(args))
	var note string
	switch {
	case len(f) == 0:
	case len(f) == 2 && f[0] == "proactive" && (f[1] == "on" || f[1] == "off"):
		off = u.Proactive && f[1] == "off"
		u.Proactive, u.QuietUntil = f[1] == "on", time.Time{}
	case len(f) == 2 && f[0] == "pause":
		d, perr := ParseDuration(f[1])
		if perr != nil || d <= 0 {
			return Outgoing{Text: txtPrivacyUsage.in(lang)}, false, nil
		}
		u.Proactive, u.QuietUntil = true, now.Add(d).UTC()
	default:
		note = txtPrivacyUsage.in(lang) + "\n\n"
	}
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		return Outgoing{}, false, fmt.Errorf("privacy of %s: %w", u.ID, err)
	}
	return h.privacyPanel(*u, len(mems), note, now), off, nil
}

// privacyPanel renders the panel for u after any change.
func (h *Handler) privacyPanel(u store.User, memories int, note string, now time.Time) Outgoing {
	lang := h.cfg.Persona.Language
	lines := []string{txtPrivacyTitle.in(lang)}
	switch {
	case !u.Proactive:
		lines = append(lines, txtPrivacyOff.in(lang))
	case u.QuietUntil.After(now):
		lines = append(lines, txtPrivacyPaused.in(lang, u.QuietUntil.In(h.loc).Format("2006-01-02 15:04 MST")))
	default:
		lines = append(lines, txtPrivacyOn.in(lang))
	}
	if ll := h.cfg.Persona.LifeLoop; ll.QuietStart != ll.QuietEnd {
		lines = append(lines, txtPrivacyQuietHours.in(lang, clock(ll.QuietStart), clock(ll.QuietEnd)))
	} else {
		lines = append(lines, txtPrivacyNoQuietHours.in(lang))
	}
	lines = append(lines,
		txtPrivacyMemories.in(lang, memories),
		txtPrivacyContact.in(lang, contactStatus(u, lang)),
		txtPrivacyExport.in(lang))
	toggle := Button{Label: btnProactiveOff.in(lang), Data: "/privacy proactive off"}
	if !u.Proactive {
		toggle = Button{Label: btnProactiveOn.in(lang), Data: "/privacy proactive on"}
	}
	return Outgoing{
		Text: note + strings.Join(lines, "\n"),
		Buttons: [][]Button{
			{toggle, {Label: btnPause8h.in(lang), Data: "/privacy pause 8h"}},
			{{Label: btnMemories.in(lang), Data: "/memories"}, {Label: btnContact.in(lang), Data: "/contact"}},
		},
	}
}

// clock renders an offset from midnight as HH:MM.
func clock(d time.Duration) string {
	return fmt.Sprintf("%02d:%02d", int(d.Hours())%24, int(d.Minutes())%60)
}
