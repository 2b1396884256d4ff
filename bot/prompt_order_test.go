package bot_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/heart"
)

var updatePromptOrder = flag.Bool("update-prompt-order", false, "rewrite bot/testdata/reply_prompt_order.golden")

// scriptBrain answers replies with deterministic text of a real model's
// length (150-600 characters) and a valid trailer that now and then writes
// a memory or the scratch note; every other kind goes to the offline
// brain. It records every request.
type scriptBrain struct {
	off  *brain.Offline
	mu   sync.Mutex
	reqs []bot.Request
	n    int
}

// replySentences are what the scripted companion says, cycled.
var replySentences = []string{
	"That sounds like a lot to carry in one day, and I'm glad you told me about it.",
	"I keep thinking about what you said about the train this morning.",
	"Do you want to tell me more about how it felt when it happened?",
	"Some days just ask more of us than others, and that's all right.",
	"I remember you said the river walk helps when your head is full.",
	"It's okay to be tired; being tired doesn't mean you did anything wrong.",
	"Honestly, that made me smile — you have a way of noticing small things.",
	"If you could change one thing about tomorrow, what would it be?",
	"I'm here, and I'm not going anywhere while we talk this through.",
	"That reminds me of the story you told me about your grandmother's kitchen.",
}

func (b *scriptBrain) Complete(ctx context.Context, req bot.Request) (bot.Response, error) {
	b.mu.Lock()
	b.reqs = append(b.reqs, req)
	n := b.n
	if req.Kind == bot.KindReply {
		b.n++
	}
	b.mu.Unlock()
	if req.Kind != bot.KindReply {
		resp, err := b.off.Complete(ctx, req)
		resp.Offline = false
		return resp, err
	}
	want := 150 + (n*97)%450
	var text strings.Builder
	for i := n; text.Len() < want; i++ {
		if text.Len() > 0 {
			text.WriteByte(' ')
		}
		text.WriteString(replySentences[i%len(replySentences)])
	}
	trailer := `{"emotion_label":"joy","emotion_intensity":0.4,"salience":0.3,"confidence":0.8,"topic_tags":["day"],"remember":[`
	if n%7 == 3 {
		trailer += fmt.Sprintf(`{"slot":%d,"content":"mentioned thing number %d"}`, n%10, n)
	}
	trailer += `]`
	if n%5 == 2 {
		trailer += fmt.Sprintf(`,"scratch":"following up on topic %d"`, n)
	}
	trailer += `}`
	return bot.Response{Text: text.String(), Trailer: trailer, Usage: bot.Usage{PromptTokens: 10, CompletionTokens: 5}}, nil
}

func (b *scriptBrain) requests(kind bot.Kind) []bot.Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []bot.Request
	for _, r := range b.reqs {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// userLines are the scripted user's messages, cycled, in the lengths people
// type: a word, a sentence, a paragraph.
var userLines = []string{
	"hey",
	"I had a long day at work, the meeting ran two hours over and nobody decided anything.",
	"my cat Biscuit knocked the plant over again lol",
	"Do you ever think about what you'd do if you could take a whole month off? I think I'd go to the sea, rent a small room, and just read and walk every day until I forgot what my inbox looks like.",
	"thanks for listening",
	"I'm a bit anxious about the exam on Friday",
	"The train was late again and I stood for forty minutes in the cold. When I finally got to the office my manager asked why I looked so tired, and I didn't even know what to say. Sometimes it feels like everyone else has more energy than me.",
	"what are you up to?",
	"haha yes",
	"I called my mum today. She sounded happy, which made me happy.",
	"can you remind me what I said about the river walk?",
	"goodnight",
}

// serialise is a chat request as a prefix cache sees it: role and content
// of each message, in order.
func serialise(msgs []bot.ChatMessage) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Role)
		b.WriteByte('\n')
		b.WriteString(m.Content)
		b.WriteString("\n\x1e")
	}
	return b.String()
}

// commonPrefix is the length of the longest common byte prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// TestPromptPrefixReuse measures DESIGN §12's goal through real turns: over
// an 80-message conversation, history truncations included, the median
// share of a reply prompt that repeats the previous turn's prompt byte for
// byte is at least 0.9 (issue 15 measured 0.13 before the reorder). The
// share of turn i is the length of the longest common prefix of the
// serialised prompts of turns i-1 and i (role and content of each message,
// in order) divided by the length of turn i's.
func TestPromptPrefixReuse(t *testing.T) {
	sb := &scriptBrain{off: brain.NewOffline()}
	clock := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	e := newEnv(t, func(c *bot.Config) {
		c.Brain = sb
		c.Persona.Text = "You are Luna, a warm, curious companion who loves night skies, old books and small everyday joys. " +
			"You speak simply and kindly, you listen more than you talk, you remember what matters to the person you talk with, " +
			"and you are honest that you are an AI. You never pressure anyone to stay or come back."
		c.Persona.Lore = heart.LoreBook{Entries: []heart.LoreEntry{
			{Content: "Luna lives in a small observatory at the edge of town.", Constant: true},
			{Keys: []string{"Biscuit"}, Content: "Biscuit is the user's twelve-year-old orange cat."},
		}}
		c.Now = func() time.Time { return clock }
	})
	const messages = 80
	for i := range messages {
		text := userLines[i%len(userLines)]
		if i%9 == 4 {
			text += " " + strings.Repeat("And another thing that keeps going round in my head. ", 30) // a long message now and then
		}
		e.send(t, msg("prefix", text))
		e.h.Drain()
		clock = clock.Add(3 * time.Minute)
	}
	reqs := sb.requests(bot.KindReply)
	if len(reqs) != messages {
		t.Fatalf("%d reply requests, want %d", len(reqs), messages)
	}
	// Both kinds of truncation happen: by size (30 turns shown, then 21)
	// and by budget (the long messages fill it before 30 turns).
	var shares []float64
	sizeCuts, budgetCuts, prevHist := 0, 0, 0
	for i, r := range reqs {
		hist := (len(r.Messages) - 3) / 2
		if hist > bot.HistoryTurns {
			t.Fatalf("turn %d shows %d history turns, over %d", i+1, hist, bot.HistoryTurns)
		}
		switch {
		case hist >= prevHist:
		case prevHist == bot.HistoryTurns:
			sizeCuts++
		default:
			budgetCuts++
		}
		prevHist = hist
		if i == 0 {
			continue
		}
		prev, cur := serialise(reqs[i-1].Messages), serialise(r.Messages)
		shares = append(shares, float64(commonPrefix(prev, cur))/float64(len(cur)))
	}
	if sizeCuts == 0 || budgetCuts == 0 {
		t.Fatalf("history cut %d times by size and %d by budget; the conversation should do both", sizeCuts, budgetCuts)
	}
	slices.Sort(shares)
	median := (shares[len(shares)/2] + shares[(len(shares)-1)/2]) / 2
	t.Logf("prefix reuse over %d turns: median %.3f, min %.3f, max %.3f; history cut %d times by size, %d by budget",
		messages, median, shares[0], shares[len(shares)-1], sizeCuts, budgetCuts)
	if median < 0.9 {
		t.Fatalf("median prefix reuse %.3f, want ≥ 0.9", median)
	}

	// The perception prompt is static first too: its system message never
	// changes, only the user's text after it does.
	perc := sb.requests(bot.KindPerception)
	for _, r := range perc[1:] {
		if r.Messages[0].Role != perc[0].Messages[0].Role || r.Messages[0].Content != perc[0].Messages[0].Content || len(r.Messages) != 2 {
			t.Fatalf("perception prompt changed between turns:\n%+v\n%+v", perc[0].Messages, r.Messages)
		}
	}
}

// TestReplyPromptOrderGolden pins the reply request's layout (DESIGN §12
// "Prompt order"): the marker and static sections, the history, the
// context note's sections, the user's text last. Lines starting with "## "
// and each message's first line are compared with the golden file;
// history contents are elided.
func TestReplyPromptOrderGolden(t *testing.T) {
	sb := &scriptBrain{off: brain.NewOffline()}
	e := newEnv(t, func(c *bot.Config) {
		c.Brain = sb
		c.Persona.PostHistory = "Stay in the scene; never speak for the user."
		c.Persona.Lore = heart.LoreBook{Entries: []heart.LoreEntry{
			{Content: "Luna lives in a small observatory.", Constant: true},
			{Keys: []string{"Biscuit"}, Content: "Biscuit is the user's orange cat."},
		}}
		c.Now = func() time.Time { return time.Date(2026, 3, 2, 21, 0, 0, 0, time.UTC) }
	})
	for _, text := range []string{"hi Luna", "I feel a bit anxious today", "work was long", "my exam is on Friday",
		"I'm so anxious and nervous and worried about Biscuit"} {
		e.send(t, msg("golden", text))
		e.h.Drain()
	}
	reqs := sb.requests(bot.KindReply)
	var b strings.Builder
	for i, m := range reqs[len(reqs)-1].Messages {
		first, rest, _ := strings.Cut(m.Content, "\n")
		switch {
		case i == 0 || (m.Role == bot.NoteRole && first == heart.NoteHead):
			fmt.Fprintf(&b, "%s: %s\n", m.Role, first)
			for _, line := range strings.Split(rest, "\n") {
				if strings.HasPrefix(line, "## ") {
					fmt.Fprintf(&b, "    %s\n", line)
				}
			}
		case i == len(reqs[len(reqs)-1].Messages)-1:
			fmt.Fprintf(&b, "%s: %s\n", m.Role, m.Content)
		default:
			fmt.Fprintf(&b, "%s: (history)\n", m.Role)
		}
	}
	got := b.String()
	path := filepath.Join("testdata", "reply_prompt_order.golden")
	if *updatePromptOrder {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("reply prompt layout changed (go test ./bot -run %s -update-prompt-order to accept):\n%s\nwant:\n%s", t.Name(), got, want)
	}
}

// TestPostHistoryInstructionsPlacement: a card's post_history_instructions
// come after the history, as the last words of the context note, right
// before the user's message (SillyTavern semantics); matched lore is in the
// note and constant lore in the system prompt.
func TestPostHistoryInstructionsPlacement(t *testing.T) {
	sb := &scriptBrain{off: brain.NewOffline()}
	const post = "Stay in the scene; never speak for the user."
	e := newEnv(t, func(c *bot.Config) {
		c.Brain = sb
		c.Persona.PostHistory = post
		c.Persona.Lore = heart.LoreBook{Entries: []heart.LoreEntry{
			{Content: "Luna lives in a small observatory.", Constant: true},
			{Keys: []string{"Biscuit"}, Content: "Biscuit is the user's orange cat."},
		}}
	})
	for _, text := range []string{"my cat Biscuit is asleep", "hello again", "what a day", "the weather is strange"} {
		e.send(t, msg("post", text))
		e.h.Drain()
	}
	reqs := sb.requests(bot.KindReply)
	for i, r := range reqs {
		n := len(r.Messages)
		sys, note, last := r.Messages[0], r.Messages[n-2], r.Messages[n-1]
		if last.Role != "user" || strings.Contains(last.Content, post) {
			t.Fatalf("turn %d: last message %+v", i+1, last)
		}
		if note.Role != bot.NoteRole || !strings.HasSuffix(note.Content, "\n"+post) || strings.Contains(sys.Content, post) {
			t.Fatalf("turn %d: post-history instructions not the note's last words:\n%s", i+1, note.Content)
		}
		if !strings.Contains(sys.Content, "Luna lives in a small observatory.") {
			t.Fatalf("turn %d: constant lore missing from the system prompt", i+1)
		}
		// Biscuit was named in turn 1; the default scan depth (4 messages)
		// keeps its lore through turn 2 and lets it go by turn 3.
		if got, want := strings.Contains(note.Content, "Biscuit is the user's orange cat."), i < 2; got != want {
			t.Fatalf("turn %d: matched lore shown %v, want %v", i+1, got, want)
		}
	}
}
