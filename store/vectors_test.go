package store

import (
	"bytes"
	"cmp"
	"context"
	"hash/fnv"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// testDim is the dimension of the tests' vectors.
const testDim = 64

// wordVector embeds text as a hashed bag of words, unit length: texts
// sharing words are near, others nearly orthogonal.
func wordVector(text string) []float32 {
	v := make([]float32, testDim)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New64a()
		h.Write([]byte(strings.Trim(w, ".,!?")))
		x := h.Sum64()
		if x>>63 == 1 {
			v[x%testDim]--
		} else {
			v[x%testDim]++
		}
	}
	return unit(v)
}

func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

// embedAll stores a vector for every queued document, as the worker would.
func embedAll(t testing.TB, db *DB, model int64, embed func(string) []float32) int {
	t.Helper()
	ctx := context.Background()
	n := 0
	for {
		docs, err := db.VectorBacklog(ctx, 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) == 0 {
			return n
		}
		var vs []Vector
		var skipped []int64
		for _, d := range docs {
			if d.Text == "" {
				skipped = append(skipped, d.DocID)
				continue
			}
			vs = append(vs, Vector{d.DocID, embed(d.Text)})
		}
		stored, err := db.PutVectors(ctx, model, vs, skipped)
		if err != nil {
			t.Fatal(err)
		}
		n += stored
	}
}

func byMeaning(model int64, q RecallQuery) VectorQuery {
	return VectorQuery{RecallQuery: q, Model: model, Vector: wordVector(q.Text), MinScore: 0.3}
}

func vectorRecall(t testing.TB, db *DB, q VectorQuery) []RecallHit {
	t.Helper()
	hits, err := db.VectorRecall(context.Background(), q)
	if err != nil {
		t.Fatalf("VectorRecall(%q): %v", q.Text, err)
	}
	return hits
}

func backlogTexts(t *testing.T, db *DB) []string {
	t.Helper()
	docs, err := db.VectorBacklog(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range docs {
		out = append(out, d.Text)
	}
	return out
}

func count(t testing.TB, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.reader.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Issue 11 item 2: nothing is queued while no embedding model was ever
// used; the first model queues what the migration indexed (memories, then
// the newest episodes, only the user's words); after that every new
// document is queued as it is written.
func TestVectorQueueFollowsTheIndex(t *testing.T) {
	ctx := context.Background()
	path := schema1File(t,
		`INSERT INTO episodes (user_id, platform, chat_id, user_text, reply_text, at) VALUES
			('telegram:42', 'telegram', '42', 'my cat Biscuit turned twelve', 'Happy birthday, Biscuit!', 1000),
			('telegram:42', 'telegram', '42', '', 'Good morning!', 2000),
			('telegram:42', 'telegram', '42', '我上个月在杭州被公司裁员了', '辛苦了。', 3000)`,
		`INSERT INTO memories (user_id, slot, content, retention, created_at, updated_at) VALUES
			('telegram:42', 0, 'cat: Biscuit', 'permanent', 1000, 1000)`,
	)
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	say(t, db, "telegram:42", privateChat, t0, "before any model", "ok")
	if got := backlogTexts(t, db); len(got) != 0 {
		t.Fatalf("queued without a model: %q", got)
	}

	model, err := db.UseVectorModel(ctx, "m1", testDim)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cat: Biscuit", "before any model", "我上个月在杭州被公司裁员了", "my cat Biscuit turned twelve"}
	if got := backlogTexts(t, db); !slices.Equal(got, want) {
		t.Fatalf("backlog after the first model:\n got %q\nwant %q", got, want)
	}
	if again, err := db.UseVectorModel(ctx, "m1", testDim); err != nil || again != model {
		t.Fatalf("the same model again: %d, %v", again, err)
	}
	if n := embedAll(t, db, model, wordVector); n != len(want) {
		t.Fatalf("stored %d vectors, want %d", n, len(want))
	}
	// New documents follow: a group message is on two shelves, two
	// documents with the same words; a rewritten memory is a new document.
	say(t, db, "telegram:42", groupChat, t0, "sailing on Sunday", "Count me in.")
	if err := db.PutMemory(ctx, Memory{UserID: "telegram:42", Slot: 0, Content: "cat: Biscuit, twelve", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if got := backlogTexts(t, db); !slices.Equal(got, []string{"cat: Biscuit, twelve", "sailing on Sunday", "sailing on Sunday"}) {
		t.Fatalf("backlog of new documents: %q", got)
	}
	embedAll(t, db, model, wordVector)
	// The rewritten memory's old vector went with its document.
	if n := count(t, db, "SELECT count(*) FROM recall_vectors"); n != 6 {
		t.Errorf("%d vectors, want 6 (4 + group message twice; the old memory's replaced)", n)
	}
}

// A document forgotten between the worker's read and its write gets no
// vector, and leaves the queue.
func TestPutVectorsSkipsForgottenDocuments(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	model, err := db.UseVectorModel(ctx, "m1", testDim)
	if err != nil {
		t.Fatal(err)
	}
	say(t, db, "telegram:42", privateChat, t0, "my ex is called Quentin", "I see.")
	say(t, db, "telegram:42", privateChat, t0.Add(time.Minute), "I like tea", "Me too.")
	docs, err := db.VectorBacklog(ctx, 10)
	if err != nil || len(docs) != 2 {
		t.Fatalf("backlog: %+v, %v", docs, err)
	}
	if _, err := db.ForgetText(ctx, "telegram:42", "Quentin"); err != nil {
		t.Fatal(err)
	}
	vs := []Vector{{docs[0].DocID, wordVector(docs[0].Text)}, {docs[1].DocID, wordVector(docs[1].Text)}}
	if n, err := db.PutVectors(ctx, model, vs, nil); err != nil || n != 1 {
		t.Fatalf("PutVectors = %d, %v; want 1 stored", n, err)
	}
	if left := backlogTexts(t, db); len(left) != 0 {
		t.Errorf("still queued: %q", left)
	}
	if hits := vectorRecall(t, db, byMeaning(model, privately("telegram:42", "my ex Quentin"))); len(hits) != 0 {
		t.Errorf("found a forgotten text by meaning: %+v", hits)
	}
}

// Issue 11 item 4 for vectors: two users who say the same things never
// find each other's; in a group only the user's words in that group.
func TestVectorRecallScope(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	model, err := db.UseVectorModel(ctx, "m1", testDim)
	if err != nil {
		t.Fatal(err)
	}
	const ann, bob = "telegram:42", "telegram:7"
	bobChat := chatAt{"telegram", "7", "private"}
	otherGroup := chatAt{"telegram", "-200", "group"}
	say(t, db, ann, privateChat, t0, "my cat Biscuit is sick", "Oh no.")
	say(t, db, ann, groupChat, t0.Add(time.Minute), "my cat Biscuit loves the park", "Cute!")
	say(t, db, ann, otherGroup, t0.Add(2*time.Minute), "my cat Biscuit sleeps all day", "Lazy cat.")
	say(t, db, bob, bobChat, t0.Add(3*time.Minute), "my cat Biscuit is sick", "Oh no.")
	if err := db.PutMemory(ctx, Memory{UserID: ann, Slot: 0, Content: "cat Biscuit", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	embedAll(t, db, model, wordVector)

	texts := func(hits []RecallHit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.UserText)
		}
		slices.Sort(out)
		return out
	}
	q := byMeaning(model, privately(ann, "my cat Biscuit"))
	if got := texts(vectorRecall(t, db, q)); !slices.Equal(got, []string{"cat Biscuit", "my cat Biscuit is sick", "my cat Biscuit loves the park", "my cat Biscuit sleeps all day"}) {
		t.Errorf("private scope: %q", got)
	}
	q = byMeaning(model, inGroup(ann, "my cat Biscuit"))
	if got := texts(vectorRecall(t, db, q)); !slices.Equal(got, []string{"my cat Biscuit loves the park"}) {
		t.Errorf("group scope: %q", got)
	}
	q = byMeaning(model, privately(bob, "my cat Biscuit"))
	hits := vectorRecall(t, db, q)
	if got := texts(hits); !slices.Equal(got, []string{"my cat Biscuit is sick"}) {
		t.Errorf("the other user: %q", got)
	}
	if want := dotFloats(wordVector("my cat Biscuit"), encodeFloats(wordVector("my cat Biscuit is sick"))); math.Abs(hits[0].Score-want) > 1e-6 {
		t.Errorf("score %v is not the cosine %v", hits[0].Score, want)
	}
	// Weak matches are dropped; an unknown user has nothing.
	if hits := vectorRecall(t, db, byMeaning(model, privately(ann, "quarterly tax forms"))); len(hits) != 0 {
		t.Errorf("unrelated query matched: %+v", hits)
	}
	if hits := vectorRecall(t, db, byMeaning(model, privately("telegram:1", "my cat"))); len(hits) != 0 {
		t.Errorf("a user with no shelf: %+v", hits)
	}
	if _, err := db.VectorRecall(ctx, VectorQuery{RecallQuery: RecallQuery{UserID: ann, Scope: RecallGroup}, Model: model, Vector: wordVector("x")}); err == nil {
		t.Error("a group query without its chat was accepted")
	}
}

// Issue 11 item 2: a different model re-embeds everything; the old
// model's vectors are not searched and are replaced one by one.
func TestNewVectorModelReembeds(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	m1, err := db.UseVectorModel(ctx, "m1", testDim)
	if err != nil {
		t.Fatal(err)
	}
	say(t, db, "telegram:42", privateChat, t0, "my cat Biscuit is sick", "Oh no.")
	say(t, db, "telegram:42", privateChat, t0.Add(time.Minute), "exam on Friday", "Good luck!")
	embedAll(t, db, m1, wordVector)
	q := privately("telegram:42", "Biscuit my cat")
	if len(vectorRecall(t, db, byMeaning(m1, q))) != 1 {
		t.Fatal("precondition: found with the first model")
	}

	m2, err := db.UseVectorModel(ctx, "m2", testDim)
	if err != nil || m2 == m1 {
		t.Fatalf("second model: %d, %v", m2, err)
	}
	if got := backlogTexts(t, db); len(got) != 2 {
		t.Fatalf("re-embedding backlog: %q", got)
	}
	if hits := vectorRecall(t, db, byMeaning(m2, q)); len(hits) != 0 {
		t.Fatalf("the old model's vectors were searched: %+v", hits)
	}
	embedAll(t, db, m2, wordVector)
	if hits := vectorRecall(t, db, byMeaning(m2, q)); len(hits) != 1 {
		t.Fatalf("not found with the new model: %+v", hits)
	}
	if n := count(t, db, "SELECT count(*) FROM recall_vectors WHERE model = ?", m1); n != 0 {
		t.Errorf("%d vectors of the old model left", n)
	}
	// The same name answering with another dimension is another model.
	if m3, err := db.UseVectorModel(ctx, "m2", 2*testDim); err != nil || m3 == m2 {
		t.Fatalf("new dimension: %d, %v", m3, err)
	}
	if got := backlogTexts(t, db); len(got) != 2 {
		t.Errorf("a new dimension queued %q", got)
	}
}

// The codes of a shelf are cached between searches: a vector stored after
// the shelf was cached is found, and a cache too small for a shelf gives
// the same results by reading the file every time.
func TestVectorCacheFollowsWritesAndItsBound(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	model, err := db.UseVectorModel(ctx, "m1", testDim)
	if err != nil {
		t.Fatal(err)
	}
	const u = "telegram:42"
	say(t, db, u, privateChat, t0, "my cat Biscuit is sick", "Oh no.")
	embedAll(t, db, model, wordVector)
	q := byMeaning(model, privately(u, "exam on Friday"))
	if hits := vectorRecall(t, db, q); len(hits) != 0 {
		t.Fatalf("precondition: %+v", hits)
	}
	say(t, db, u, privateChat, t0.Add(time.Minute), "exam on Friday, wish me luck", "Good luck!")
	embedAll(t, db, model, wordVector)
	if hits := vectorRecall(t, db, q); len(hits) != 1 {
		t.Fatalf("a vector stored after caching: %+v", hits)
	}
	db.vectors.limit = 8 // smaller than any shelf
	db.vectors.clear()
	for range 2 {
		if hits := vectorRecall(t, db, q); len(hits) != 1 {
			t.Fatalf("uncached search: %+v", hits)
		}
	}
	if len(db.vectors.entries) != 0 || db.vectors.bytes != 0 {
		t.Errorf("kept %d entries, %d bytes past the bound", len(db.vectors.entries), db.vectors.bytes)
	}
}

// The Hamming cut returns exactly the n nearest codes (ties at the cut
// filled in order), each id once.
func TestNearestCodes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	v := codeView{words: 2}
	for i := range 500 {
		v.ids = append(v.ids, int64(i))
		v.codes = append(v.codes, r.Uint64(), r.Uint64())
	}
	q := []uint64{r.Uint64(), r.Uint64()}
	got := v.nearest(q, 40)
	if len(got) != 40 {
		t.Fatalf("%d ids, want 40", len(got))
	}
	dist := func(id int64) int {
		return bits.OnesCount64(q[0]^v.codes[2*id]) + bits.OnesCount64(q[1]^v.codes[2*id+1])
	}
	all := slices.Clone(v.ids)
	slices.SortStableFunc(all, func(a, b int64) int { return cmp.Compare(dist(a), dist(b)) })
	worst := dist(all[39])
	for _, id := range got {
		if dist(id) > worst {
			t.Errorf("id %d at distance %d, beyond the 40th nearest (%d)", id, dist(id), worst)
		}
	}
	v.ids = append(v.ids, 3) // re-embedded after caching
	v.codes = append(v.codes, v.codes[6], v.codes[7])
	if got := v.nearest(q, 1000); len(got) != 500 {
		t.Errorf("a small shelf: %d ids, want 500 distinct", len(got))
	}
}

// Seed 003 §8.1 绝对删除, for vectors: a vector is not text, but it was
// made from the text and can be inverted, so every forget path removes the
// forgotten documents' vector rows, and the file and its WAL keep no byte
// of them (the same secure_delete, rebuild, VACUUM and truncate path as the
// recall index's).
func TestForgetLeavesNoVectorOnDisk(t *testing.T) {
	ctx := context.Background()
	const u = "telegram:42"
	// Vectors with random components: their bytes occur nowhere else.
	r := rand.New(rand.NewPCG(3, 4))
	vectors := map[string][]float32{}
	embed := func(text string) []float32 {
		if v, ok := vectors[text]; ok {
			return v
		}
		v := make([]float32, testDim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		vectors[text] = unit(v)
		return vectors[text]
	}
	for _, c := range []struct {
		name   string
		forget func(db *DB) error
		gone   []string
		left   func(before int) int // vectors left
	}{
		{"ForgetText", func(db *DB) error { _, err := db.ForgetText(ctx, u, "Quentin"); return err },
			[]string{"my ex is called Quentin", "ex: Quentin"}, func(n int) int { return n - 2 }},
		{"DeleteMemory", func(db *DB) error { _, err := db.DeleteMemory(ctx, u, 5); return err },
			[]string{"ex: Quentin"}, func(n int) int { return n - 1 }},
		// /forget all: every document of the user, so every vector.
		{"ForgetAll", func(db *DB) error { _, _, err := db.ForgetAll(ctx, u); return err },
			[]string{"my ex is called Quentin", "ex: Quentin", "I like tea"}, func(int) int { return 1 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, file := openTest(t)
			model, err := db.UseVectorModel(ctx, "m1", testDim)
			if err != nil {
				t.Fatal(err)
			}
			at := fill(t, db, u, privateChat, t0, 40)
			say(t, db, u, privateChat, at, "my ex is called Quentin", "I see.")
			say(t, db, u, groupChat, at.Add(time.Minute), "I like tea", "Me too.")
			if err := db.PutMemory(ctx, Memory{UserID: u, Slot: 5, Content: "ex: Quentin", CreatedAt: at}); err != nil {
				t.Fatal(err)
			}
			say(t, db, "telegram:7", chatAt{"telegram", "7", "private"}, at, "pancakes for breakfast", "")
			embedAll(t, db, model, embed)
			// A search caches the shelf's codes; forgetting must not leave
			// them to find anything.
			vectorRecall(t, db, VectorQuery{RecallQuery: privately(u, "x"), Model: model, Vector: embed(c.gone[0])})
			if err := db.Scrub(ctx); err != nil {
				t.Fatal(err)
			}
			main, _ := fileBytes(t, file)
			for _, g := range c.gone {
				if !bytes.Contains(main, encodeFloats(vectors[g])) {
					t.Fatalf("precondition: the vector of %q is not in the file", g)
				}
			}
			before := count(t, db, "SELECT count(*) FROM recall_vectors")

			if err := c.forget(db); err != nil {
				t.Fatal(err)
			}
			if n := count(t, db, "SELECT count(*) FROM recall_vectors v LEFT JOIN recall_docs d ON d.id = v.doc_id WHERE d.id IS NULL"); n != 0 {
				t.Errorf("%d vectors without a document", n)
			}
			main, wal := fileBytes(t, file)
			for _, g := range c.gone {
				blob := encodeFloats(vectors[g])
				for i := 0; i+16 <= len(blob); i += 16 {
					if bytes.Contains(main, blob[i:i+16]) || bytes.Contains(wal, blob[i:i+16]) {
						t.Errorf("bytes %d-%d of the vector of %q still on disk", i, i+16, g)
						break
					}
				}
				if hits := vectorRecall(t, db, VectorQuery{RecallQuery: privately(u, "x"), Model: model, Vector: vectors[g], MinScore: 0.99}); len(hits) != 0 {
					t.Errorf("%q still found by meaning: %+v", g, hits)
				}
			}
			if after := count(t, db, "SELECT count(*) FROM recall_vectors"); after != c.left(before) {
				t.Errorf("%d vectors after forgetting, want %d of %d", after, c.left(before), before)
			}
			if !bytes.Contains(main, encodeFloats(vectors["pancakes for breakfast"])) {
				t.Error("another user's vector was lost")
			}
		})
	}
}
