package store

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// fillerLines are ordinary chat messages in en/zh/ja (testdata), none of
// which mentions a planted fact.
func fillerLines(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("testdata/recall_filler.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if len(out) < 50 {
		t.Fatalf("only %d filler lines", len(out))
	}
	return out
}

// chatAt is where an episode is said.
type chatAt struct {
	platform, chatID, kind string
}

var (
	privateChat = chatAt{"telegram", "42", "private"}
	groupChat   = chatAt{"telegram", "-100", "group"}
)

// say commits one turn the way the turn engine does: the user's words, the
// bot's reply, in chat c at time at.
func say(t testing.TB, db *DB, userID string, c chatAt, at time.Time, said, reply string) {
	t.Helper()
	_, err := db.CommitTurn(context.Background(), Turn{
		Episode: Episode{UserID: userID, Platform: c.platform, ChatID: c.chatID, ChatKind: c.kind,
			UserText: said, ReplyText: reply, At: at, HasValues: true, Salience: 0.3},
	})
	if err != nil {
		t.Fatalf("commit %q: %v", said, err)
	}
}

// fill says n filler messages (and bland replies) starting at at, one a
// minute, each its own turn, and returns the time after them.
func fill(t testing.TB, db *DB, userID string, c chatAt, at time.Time, n int) time.Time {
	t.Helper()
	lines := fillerLines(t)
	for i := range n {
		say(t, db, userID, c, at, lines[i%len(lines)], "I see, tell me more.")
		at = at.Add(time.Minute)
	}
	return at
}

func recall(t testing.TB, db *DB, q RecallQuery) []RecallHit {
	t.Helper()
	hits, err := db.Recall(context.Background(), q)
	if err != nil {
		t.Fatalf("Recall(%q): %v", q.Text, err)
	}
	return hits
}

func privately(userID, text string) RecallQuery {
	return RecallQuery{UserID: userID, Text: text, Scope: RecallPrivate}
}

func inGroup(userID, text string) RecallQuery {
	return RecallQuery{UserID: userID, Text: text, Scope: RecallGroup, Platform: groupChat.platform, ChatID: groupChat.chatID}
}

// topIs fails unless the best hit's user text is want.
func topIs(t *testing.T, hits []RecallHit, query, want string) {
	t.Helper()
	if len(hits) == 0 {
		t.Errorf("%q found nothing, want %q", query, want)
		return
	}
	if hits[0].UserText != want {
		t.Errorf("%q: top hit %q (score %.2f), want %q", query, hits[0].UserText, hits[0].Score, want)
	}
}

// Issue 11's scenario: a fact said once in passing, followed by hundreds of
// ordinary messages, is found when the user comes back to it.
func TestRecallFindsFactsAfterHundredsOfMessages(t *testing.T) {
	db, _ := openTest(t)
	const u = "telegram:42"
	facts := []struct{ fact, later string }{
		{"my cat Biscuit turned twelve", "Biscuit was sick all night"},
		{"我上个月在杭州被公司裁员了", "裁员"},
		{"来月、京都で茶道の試験を受ける", "試験"},
	}
	at := t0
	for _, f := range facts {
		say(t, db, u, privateChat, at, f.fact, "Thank you for telling me.")
		at = fill(t, db, u, privateChat, at.Add(time.Minute), 150)
	}
	for _, f := range facts {
		topIs(t, recall(t, db, privately(u, f.later)), f.later, f.fact)
	}
	// Longer queries in the other languages find them too.
	topIs(t, recall(t, db, privately(u, "被裁员以后一直找不到工作")), "被裁员以后…", facts[1].fact)
	topIs(t, recall(t, db, privately(u, "試験の準備、どうしよう")), "試験の準備…", facts[2].fact)
}

func TestRecallStemsEnglish(t *testing.T) {
	db, _ := openTest(t)
	const u = "telegram:42"
	at := fill(t, db, u, privateChat, t0, 60)
	say(t, db, u, privateChat, at, "I sail every summer with my dad", "")
	for _, q := range []string{"sailing", "sailed", "SAILS", "Ｓａｉｌｉｎｇ"} {
		topIs(t, recall(t, db, privately(u, q)), q, "I sail every summer with my dad")
	}
}

// Chinese and Japanese words of one and two characters, which a trigram
// index cannot match, are found; full-width and half-width forms fold.
func TestRecallFindsShortChineseAndJapaneseWords(t *testing.T) {
	db, _ := openTest(t)
	const u = "telegram:42"
	at := fill(t, db, u, privateChat, t0, 60)
	said := []string{"我家的猫叫饼干", "外面下着小雨", "来月、京都で茶道の試験を受ける", "ネコが好き", "我上个月在杭州被公司裁员了"}
	for i, s := range said {
		say(t, db, u, privateChat, at.Add(time.Duration(i)*time.Minute), s, "")
	}
	for _, c := range []struct{ query, want string }{
		{"猫", said[0]}, {"小雨", said[1]}, {"京都", said[2]}, {"試験", said[2]},
		{"ﾈｺ", said[3]}, {"裁员", said[4]}, {"杭州", said[4]},
		{"茶道の試験", said[2]}, {"我的猫病了", said[0]},
	} {
		topIs(t, recall(t, db, privately(u, c.query)), c.query, c.want)
	}
}

// Issue 11 §4: two users who say the same things never see each other's
// rows, whatever they search.
func TestRecallTwoUsersWithTheSameWordsNeverCross(t *testing.T) {
	db, _ := openTest(t)
	ann, bob := "telegram:1", "telegram:2"
	annChat, bobChat := chatAt{"telegram", "1", "private"}, chatAt{"telegram", "2", "private"}
	for i, s := range []string{"my cat Biscuit turned twelve", "我上个月在杭州被公司裁员了", "来月、京都で茶道の試験を受ける"} {
		at := t0.Add(time.Duration(i) * time.Hour)
		say(t, db, ann, annChat, at, s, "ann's reply")
		say(t, db, bob, bobChat, at, s, "bob's reply")
		// Both also speak in one group.
		say(t, db, ann, groupChat, at.Add(time.Minute), s+" (group)", "to ann")
		say(t, db, bob, groupChat, at.Add(time.Minute), s+" (group)", "to bob")
	}
	for _, who := range []struct {
		id   string
		chat chatAt
	}{{ann, annChat}, {bob, bobChat}} {
		if err := db.PutMemory(context.Background(), Memory{UserID: who.id, Slot: 0, Content: "cat Biscuit, 12", CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"Biscuit", "裁员", "試験", "group", "reply"} {
		for _, who := range []string{ann, bob} {
			for _, rq := range []RecallQuery{privately(who, q), inGroup(who, q)} {
				hits := recall(t, db, rq)
				if len(hits) == 0 && q != "reply" {
					t.Errorf("%s %s %q: nothing found", who, rq.Scope, q)
				}
				for _, h := range hits {
					mine := (h.Kind == RecallMemory) ||
						(who == ann && (h.ChatID == "1" || h.ReplyText == "to ann")) ||
						(who == bob && (h.ChatID == "2" || h.ReplyText == "to bob"))
					if !mine {
						t.Errorf("%s %s %q returned another user's row: %+v", who, rq.Scope, q, h)
					}
				}
			}
		}
	}
}

// Issue 11 §4: in a group, recall returns only what the user said in that
// group: never a private episode, never a memory, never another group's.
func TestRecallPrivateFactNotFoundInGroup(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	const u = "telegram:42"
	otherGroup := chatAt{"telegram", "-200", "group"}
	unknown := chatAt{"telegram", "-300", ""} // a chat whose kind was never recorded
	say(t, db, u, privateChat, t0, "my ex Zorbin broke up with me", "I'm so sorry.")
	say(t, db, u, otherGroup, t0.Add(time.Minute), "Zorbin is in this group too", "")
	say(t, db, u, unknown, t0.Add(2*time.Minute), "Zorbin again", "")
	say(t, db, u, groupChat, t0.Add(3*time.Minute), "let's plan the picnic", "Zorbin would like a picnic")
	if err := db.PutMemory(ctx, Memory{UserID: u, Slot: 0, Content: "ex is called Zorbin", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if hits := recall(t, db, inGroup(u, "Zorbin")); len(hits) != 0 {
		t.Fatalf("group search found private, other-group, unknown-chat, memory or bot words: %+v", hits)
	}
	if hits := recall(t, db, privately(u, "Zorbin")); len(hits) != 5 {
		t.Fatalf("private search found %d of 5 documents: %+v", len(hits), hits)
	}
	hits := recall(t, db, inGroup(u, "picnic"))
	if len(hits) != 1 || hits[0].ChatID != groupChat.chatID || hits[0].ChatKind != "group" {
		t.Fatalf("group search for the user's own group words: %+v", hits)
	}
}

// The bot's words are found but never credited to the user, and rank
// below the user's own words.
func TestRecallKeepsUserAndBotWordsApart(t *testing.T) {
	db, _ := openTest(t)
	const u = "telegram:42"
	at := fill(t, db, u, privateChat, t0, 40)
	say(t, db, u, privateChat, at, "what should I read next?", "Try Middlemarch, it is wonderful.")
	say(t, db, u, privateChat, at.Add(time.Minute), "I started Middlemarch today", "Enjoy it!")
	hits := recall(t, db, privately(u, "Middlemarch"))
	if len(hits) != 2 {
		t.Fatalf("hits = %+v", hits)
	}
	if hits[0].UserText != "I started Middlemarch today" {
		t.Errorf("the user's own words do not rank first: %+v", hits)
	}
	if strings.Contains(hits[1].UserText, "Middlemarch") || !strings.Contains(hits[1].ReplyText, "Middlemarch") {
		t.Errorf("the bot's words credited to the user: %+v", hits[1])
	}
}

// User text never breaks a query: FTS5 syntax typed by a user is data.
func TestRecallQuerySyntaxIsData(t *testing.T) {
	db, _ := openTest(t)
	const u = "telegram:42"
	say(t, db, u, privateChat, t0, "my cat Biscuit turned twelve", "")
	for _, q := range []string{
		`"Biscuit`, `Biscuit"`, `Biscuit*`, `*`, `^Biscuit`, `said:Biscuit`, `reply : Biscuit`, `{said reply}: Biscuit`,
		`NEAR(Biscuit cat)`, `NEAR`, `Biscuit AND`, `AND OR NOT`, `NOT Biscuit`, `(Biscuit`, `Biscuit)`, `)))(((`,
		`[Biscuit]`, `{Biscuit`, `Biscuit + cat`, `-Biscuit`, `"" Biscuit ""`, `'; DROP TABLE episodes; --`,
		"Biscuit\x00cat", `\"Biscuit\"`, `Biscuit OR`, `猫" OR "*`, `rowid = 1`, `recall_fts`,
	} {
		hits := recall(t, db, privately(u, q))
		if strings.Contains(strings.ToLower(q), "biscuit") && (len(hits) != 1 || !strings.Contains(hits[0].UserText, "Biscuit")) {
			t.Errorf("%q: hits %+v, want the Biscuit episode", q, hits)
		}
	}
}

func TestRecallRefusesUnscopedQueries(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	for _, q := range []RecallQuery{
		{Text: "cat", Scope: RecallPrivate},
		{UserID: "telegram:1", Text: "cat"},
		{UserID: "telegram:1", Text: "cat", Scope: "everyone"},
		{UserID: "telegram:1", Text: "cat", Scope: RecallGroup},
	} {
		if _, err := db.Recall(ctx, q); err == nil {
			t.Errorf("%+v accepted", q)
		}
	}
	// Nothing to search: no hits, no error.
	for _, text := range []string{"", "   ", "the and of", "我的", "?!…", "a b c"} {
		if hits, err := db.Recall(ctx, privately("telegram:1", text)); err != nil || hits != nil {
			t.Errorf("%q: %v, %v", text, hits, err)
		}
	}
}

// The index follows every write: a memory overwritten is found by its new
// words only; UpdateEpisodeValues' salience shows; deleting through plain
// SQL (an operator's sqlite3) removes the document too.
func TestRecallIndexFollowsWrites(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	const u = "telegram:42"
	m := Memory{UserID: u, Slot: 3, Content: "favourite drink: oolong", Retention: RetentionConditional, CreatedAt: t0}
	if err := db.PutMemory(ctx, m); err != nil {
		t.Fatal(err)
	}
	m.Content, m.Retention, m.UpdatedAt = "favourite drink: espresso", RetentionPermanent, t0.Add(time.Hour)
	if err := db.PutMemory(ctx, m); err != nil {
		t.Fatal(err)
	}
	if hits := recall(t, db, privately(u, "oolong")); len(hits) != 0 {
		t.Errorf("overwritten memory still found: %+v", hits)
	}
	// The daily cleanup's ExpireMemory takes a memory out of recall too.
	if err := db.PutMemory(ctx, Memory{UserID: u, Slot: 40, Content: "it was drizzling", Retention: RetentionEphemeral, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if ok, err := db.ExpireMemory(ctx, u, 40); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if hits := recall(t, db, privately(u, "drizzling")); len(hits) != 0 {
		t.Errorf("expired memory still found: %+v", hits)
	}
	hits := recall(t, db, privately(u, "espresso"))
	if len(hits) != 1 || hits[0].Kind != RecallMemory || hits[0].Slot != 3 || hits[0].Retention != RetentionPermanent || !hits[0].At.Equal(t0.Add(time.Hour)) {
		t.Fatalf("memory hit = %+v", hits)
	}

	say(t, db, u, privateChat, t0, "my grandmother is in hospital", "I hope she gets well soon.")
	hits = recall(t, db, privately(u, "grandmother hospital"))
	if len(hits) != 1 || hits[0].Kind != RecallEpisode || hits[0].Salience != 0.3 || !hits[0].At.Equal(t0) {
		t.Fatalf("episode hit = %+v", hits)
	}
	ep := Episode{ID: hits[0].EpisodeID, HasValues: true, Label: "sadness", Intensity: 0.8, Salience: 0.9, Confidence: 0.9}
	if err := db.UpdateEpisodeValues(ctx, ep); err != nil {
		t.Fatal(err)
	}
	if hits = recall(t, db, privately(u, "grandmother")); len(hits) != 1 || hits[0].Salience != 0.9 {
		t.Fatalf("salience after update: %+v", hits)
	}
	if _, err := db.writer.ExecContext(ctx, "DELETE FROM episodes WHERE id = ?", ep.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.writer.ExecContext(ctx, "DELETE FROM memories WHERE user_id = ?", u); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"grandmother", "espresso"} {
		if hits := recall(t, db, privately(u, q)); len(hits) != 0 {
			t.Errorf("%q found after a plain SQL delete: %+v", q, hits)
		}
	}
	var docs, fts int
	if err := db.reader.QueryRow("SELECT (SELECT count(*) FROM recall_docs), (SELECT count(*) FROM recall_fts)").Scan(&docs, &fts); err != nil || docs != 0 || fts != 0 {
		t.Fatalf("index rows left: docs %d, fts %d, %v", docs, fts, err)
	}
}

// The forget paths take their text out of recall; /forget all takes
// everything of the user out, and only them.
func TestForgetRemovesFromRecall(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	const u, other = "telegram:42", "telegram:7"
	say(t, db, u, privateChat, t0, "my ex is called Quillon", "I'll keep that in mind.")
	say(t, db, u, privateChat, t0.Add(time.Minute), "I adopted a hedgehog", "How lovely!")
	say(t, db, other, chatAt{"telegram", "7", "private"}, t0, "a hedgehog lives in my garden", "")
	for slot, c := range []string{"ex: Quillon", "pet: hedgehog"} {
		if err := db.PutMemory(ctx, Memory{UserID: u, Slot: slot, Content: c, CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	if hits := recall(t, db, privately(u, "Quillon")); len(hits) != 2 {
		t.Fatalf("precondition: %+v", hits)
	}
	if _, err := db.ForgetText(ctx, u, "quillon"); err != nil {
		t.Fatal(err)
	}
	if hits := recall(t, db, privately(u, "Quillon")); len(hits) != 0 {
		t.Fatalf("found after ForgetText: %+v", hits)
	}
	if hits := recall(t, db, privately(u, "hedgehog")); len(hits) != 2 {
		t.Fatalf("ForgetText took unrelated rows: %+v", hits)
	}
	if ok, err := db.DeleteMemory(ctx, u, 1); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if hits := recall(t, db, privately(u, "hedgehog")); len(hits) != 1 || hits[0].Kind != RecallEpisode {
		t.Fatalf("after DeleteMemory: %+v", hits)
	}
	if _, _, err := db.ForgetAll(ctx, u); err != nil {
		t.Fatal(err)
	}
	if hits := recall(t, db, privately(u, "hedgehog")); len(hits) != 0 {
		t.Fatalf("after /forget all: %+v", hits)
	}
	if hits := recall(t, db, privately(other, "hedgehog")); len(hits) != 1 {
		t.Fatalf("/forget all of one user touched another's index: %+v", hits)
	}
	// What the user says afterwards is recalled again.
	say(t, db, u, privateChat, t0.Add(time.Hour), "the hedgehog is called Spike", "")
	if hits := recall(t, db, privately(u, "hedgehog")); len(hits) != 1 || !strings.Contains(hits[0].UserText, "Spike") {
		t.Fatalf("after /forget all, new words: %+v", hits)
	}
}

// TestRecallShelvesOfANewUser: a new user's first turn creates their
// shelves (their own, and the group's when said in one), or uses the one
// a memory stored before that turn already made; either way their words
// are found in the right scope and documents are numbered after what the
// shelf holds.
func TestRecallShelvesOfANewUser(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	// Ann: a memory first (her shelf exists, and another user's before it,
	// so no other id of her turn happens to equal her shelf's), then her
	// first turn privately.
	for _, m := range []Memory{{UserID: "telegram:9", Slot: 1, Content: "likes tea"}, {UserID: "telegram:1", Slot: 3, Content: "her cat is called Miso"}} {
		m.CreatedAt = t0
		if err := db.PutMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	// Bob: nothing before his first turn, which is in a group.
	for _, c := range []struct {
		user, name string
		at         chatAt
		said       string
	}{
		{"telegram:1", "Ann", privateChat, "my sister moves to Osaka next spring"},
		{"telegram:2", "Bob", groupChat, "the marathon in Kobe is on Sunday"},
	} {
		turn := Turn{NewUser: true, User: User{ID: c.user, Platform: "telegram", Name: c.name, CreatedAt: t0, Proactive: true},
			Episode: Episode{UserID: c.user, Platform: c.at.platform, ChatID: c.at.chatID, ChatKind: c.at.kind,
				UserText: c.said, ReplyText: "Tell me more.", At: t0, HasValues: true, Salience: 0.5}}
		if _, err := db.CommitTurn(ctx, turn); err != nil {
			t.Fatalf("first turn of %s: %v", c.name, err)
		}
	}
	topIs(t, recall(t, db, privately("telegram:1", "Osaka")), "Osaka", "my sister moves to Osaka next spring")
	if hits := recall(t, db, privately("telegram:1", "cat Miso")); len(hits) == 0 || hits[0].Kind != RecallMemory || hits[0].Slot != 3 {
		t.Errorf("Ann's memory lost from her shelf: %+v", hits)
	}
	topIs(t, recall(t, db, privately("telegram:2", "marathon")), "marathon", "the marathon in Kobe is on Sunday")
	topIs(t, recall(t, db, inGroup("telegram:2", "marathon")), "marathon", "the marathon in Kobe is on Sunday")
	if hits := recall(t, db, privately("telegram:2", "Osaka")); len(hits) != 0 {
		t.Errorf("Bob finds Ann's words: %+v", hits)
	}
	var shelves int
	if err := db.reader.QueryRowContext(ctx, "SELECT count(*) FROM recall_shelves").Scan(&shelves); err != nil || shelves != 4 {
		t.Errorf("%d shelves (%v), want telegram:9's, Ann's, Bob's and Bob's in the group", shelves, err)
	}
	var ann []int64
	rows, err := db.reader.QueryContext(ctx, `SELECT d.id - (s.id << 32) FROM recall_docs d JOIN recall_shelves s
		ON d.id BETWEEN s.id << 32 AND ((s.id + 1) << 32) - 1 WHERE s.user_id = 'telegram:1' ORDER BY d.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		ann = append(ann, n)
	}
	if len(ann) != 2 || ann[0] != 1 || ann[1] != 2 {
		t.Errorf("Ann's documents are numbered %v on her shelf, want [1 2]", ann)
	}
}
