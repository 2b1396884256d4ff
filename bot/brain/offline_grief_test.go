package brain

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/bot"
)

// TestOfflineLossIsKeptWithTheMonthItWasTold: "my wife Ruth passed in
// January" is written to memory as someone lost, with the month it was
// told, in every language; told again later, the first month stays.
func TestOfflineLossIsKeptWithTheMonthItWasTold(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	now := time.Date(2026, 3, 2, 20, 30, 0, 0, time.UTC)
	for _, tt := range []struct{ lang, text, want string }{
		{"en", "my wife Ruth passed in January", "Lost and missed: Ruth (since 2026-03)"},
		{"en", "I lost my husband last year", "Lost and missed: husband (since 2026-03)"},
		{"zh", "我老伴去年走了", "离开了的亲人：老伴（2026-03起）"},
		{"ja", "妻を去年亡くしました", "亡くした大切な人：妻（2026-03から）"},
	} {
		h := bot.Hints{Text: tt.text, Language: tt.lang, Now: now}
		var got []string
		for _, r := range k.remember(h, k.factsIn(tt.text, tt.lang)) {
			got = append(got, r.Content)
		}
		if !slices.Contains(got, tt.want) {
			t.Errorf("%s %q: remembered %q, want %q", tt.lang, tt.text, got, tt.want)
		}
	}
	h := bot.Hints{Text: "my wife Ruth passed in January", Language: "en", Now: now.AddDate(0, 2, 0),
		Memories: []string{"Lost and missed: Ruth (since 2026-03)"}}
	for _, r := range k.remember(h, k.factsIn(h.Text, "en")) {
		if strings.Contains(r.Content, "2026-05") {
			t.Errorf("told again: %q, want the first month kept", r.Content)
		}
	}
}

// TestOfflineGriefLastsPastTheTalk: three weeks after "my wife Ruth passed
// in January", with the telling long out of the recent talk, a widower's
// "not much" heard "Quiet ones are nice too." The kept loss keeps the
// quiet day gentle within griefSpanMonths, and Ruth named is someone lost.
func TestOfflineGriefLastsPastTheTalk(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	told := time.Date(2026, 3, 2, 20, 30, 0, 0, time.UTC)
	mem := []string{"Lost and missed: Ruth (since 2026-03)", "People: Ruth (wife)"}
	cheerful := k.book["sit.nothing_much"]["en"]
	for i := range 8 {
		h := bot.Hints{Text: "not much", Language: "en", Turn: i, Now: told.AddDate(0, 0, 21), Memories: mem}
		if got := reply(t, o, h).Text; slices.Contains(cheerful, got) {
			t.Errorf("three weeks on, turn %d: %q, a cheerful line to a widower", i, got)
		}
	}
	h := bot.Hints{Text: "made Ruth's soup today", Language: "en", Now: told.AddDate(0, 1, 0), Memories: mem}
	if v := o.view(h); !v.gone["Ruth"] || !slices.Contains(v.states, stateGone) {
		t.Errorf("a month on, Ruth named: gone %v states %v, want her spoken of as lost", v.gone, v.states)
	}
	h = bot.Hints{Text: "not much", Language: "en", Now: told.AddDate(0, griefSpanMonths+1, 0), Memories: mem}
	if v := o.view(h); v.grieving() {
		t.Errorf("past griefSpanMonths: still grieving, want the everyday back")
	}
}
