package bot_test

import (
	"context"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/bottest"
)

// TestTheDayBeforeTheExamIsKnownToTheCheckIn: "I have an exam on Friday"
// said on Monday reaches Thursday's check-in as a thing ahead
// (CheckIn.Ahead), and no other day's.
func TestTheDayBeforeTheExamIsKnownToTheCheckIn(t *testing.T) {
	sh := shanghai(t)
	c := bottest.NewClock(time.Date(2026, 3, 9, 10, 0, 0, 0, sh)) // Monday
	e := newEnv(t, func(cfg *bot.Config) { cfg.Now, cfg.Persona.Timezone = c.Now, sh })
	ctx := context.Background()
	e.talk(t, c, msg("a1", "I have an exam on Friday, wish me luck"))
	u := e.user(t, "telegram:a1")
	for day, want := range map[int]bool{1: false, 2: false, 3: true, 4: false} {
		got := e.h.About(ctx, u, time.Date(2026, 3, 9+day, 15, 0, 0, 0, sh)).Ahead
		if (len(got) == 1 && got[0].About == "exam" && got[0].Due == "2026-03-13") != want || len(got) > 1 {
			t.Errorf("March %d: ahead %+v, want the exam: %v", 9+day, got, want)
		}
	}
}
