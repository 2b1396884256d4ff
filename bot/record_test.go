package bot_test

import (
	"context"
	"testing"
	"time"

	"hearth/bot"
	"hearth/store"
)

// An episode keeps where it was said and how deep the disclosure was, what
// recall scopes and weighs by (issue 11), and the turn's commit makes it
// searchable at once.
func TestEpisodeKeepsChatKindAndDisclosure(t *testing.T) {
	e := newEnv(t, func(c *bot.Config) { c.Persona.Perception = "heuristic" })
	e.send(t, msg("33", "I never told anyone: my parents got a divorce"))
	e.h.Drain()
	eps, err := e.db.UserEpisodes(context.Background(), "telegram:33", time.Time{}, 10)
	if err != nil || len(eps) != 1 {
		t.Fatalf("episodes: %+v %v", eps, err)
	}
	if eps[0].ChatKind != string(bot.ChatPrivate) || eps[0].Disclosure != "deep" {
		t.Fatalf("episode chat kind %q, disclosure %q; want private, deep", eps[0].ChatKind, eps[0].Disclosure)
	}
	hits, err := e.db.Recall(context.Background(), store.RecallQuery{UserID: "telegram:33", Text: "divorce", Scope: store.RecallPrivate})
	if err != nil || len(hits) != 1 || hits[0].EpisodeID != eps[0].ID || hits[0].Disclosure != "deep" {
		t.Fatalf("recall after the turn: %+v %v", hits, err)
	}
}
