package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// RecallScope says whose words a search may return (DESIGN §12: never
// another user's, never a private memory in a group).
type RecallScope string

const (
	// RecallPrivate is a search from a private chat: the user's episodes
	// from every chat (private and group) and their memories.
	RecallPrivate RecallScope = "private"
	// RecallGroup is a search from a group chat: only the user's own words
	// said in that same group; never anything said in private, never a
	// memory, never the bot's words as a match.
	RecallGroup RecallScope = "group"
)

// Recall document kinds (RecallHit.Kind).
const (
	RecallEpisode = "episode"
	RecallMemory  = "memory"
)

// RecallCandidates is how many candidates a search returns when the query
// sets no Limit. hearth's choice: ranking (heart.RankRecall) keeps a
// handful; fifty leaves it room to weigh recency and importance without
// reading much.
const RecallCandidates = 50

// Relevance scoring. A search reads, for each term, at most
// recallTermWindow postings of the shelf, newest first, and scores each
// document BM25 with k1 = 0: the sum of its matched terms' IDF, each
// weighted by where it matched. k1 = 0 (term frequency and length not
// counted) suits one-line chat messages, where a word rarely repeats and
// lengths are alike; it is also what lets a search stop reading a common
// term after its newest postings.
const (
	// recallTermWindow bounds the postings read per term. hearth's choice:
	// a term in more of the user's documents than this is common for them,
	// and its newest documents are the ones ranking would prefer anyway; a
	// rarer term (the cat's name, 裁员) is always read in full, however
	// old. It bounds a search to terms × window postings (issue 11's
	// goal: p99 ≤ 5 ms for a user with 100,000 episodes).
	recallTermWindow = 64
	// recallSaidWeight and recallReplyWeight weigh a term found in the
	// user's own words and in the bot's reply. hearth's choice: an episode
	// is found by what the bot said, but ranks below one where the user
	// said it.
	recallSaidWeight  = 1.0
	recallReplyWeight = 0.5
)

// RecallQuery is one search. UserID and Scope are required; a group search
// also names its chat. A search reads one shelf of the index, the user's
// or the user's in that group, so it cannot return another user's rows.
type RecallQuery struct {
	UserID string
	// Text is what to search for, as the user typed it: any characters
	// are safe (every term is quoted, never FTS5 syntax).
	Text     string
	Scope    RecallScope
	Platform string // the group chat, for RecallGroup
	ChatID   string
	// Limit bounds the candidates; 0 means RecallCandidates.
	Limit int
}

// RecallHit is one candidate: an episode or a memory slot of the user, with
// its relevance and what ranking needs. The user's words and the bot's are
// kept apart: UserText is what the user said (a memory's content),
// ReplyText what the bot answered.
type RecallHit struct {
	Kind      string // RecallEpisode or RecallMemory
	EpisodeID int64  // an episode's id
	Slot      int    // a memory's slot
	// Score is the relevance: for Recall lexical (BM25 with k1 = 0, see
	// recallTermWindow), for VectorRecall the cosine similarity; higher is
	// better, comparable within one search.
	Score      float64
	At         time.Time // the episode's time; the memory's last update
	Platform   string    // where an episode was said
	ChatID     string
	ChatKind   string // "private", "group", "" (unknown: treated as private)
	UserText   string
	ReplyText  string
	HasValues  bool    // the episode has trailer values
	Salience   float64 // the trailer's salience (seed 002), 0..1
	Disclosure string  // the perception's disclosure: "none", "light", "deep", ""
	Retention  string  // a memory's retention class (seed 003 §8.1)
}

// recallTermSQL reads one term's newest postings on a shelf: FTS5 walks
// the term's doclist backwards from the shelf's end and stops after the
// window, so a common term costs no more than a rare one.
const recallTermSQL = `SELECT rowid FROM recall_fts WHERE recall_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3
	ORDER BY rowid DESC LIMIT ?4`

// recallFetchSQL reads what ranking needs for the chosen documents (a JSON
// array of ids), on the shelf and of the user only.
const recallFetchSQL = `SELECT d.id, coalesce(d.episode_id, 0), coalesce(d.slot, 0), coalesce(e.at, m.updated_at, 0),
	coalesce(e.platform, ''), coalesce(e.chat_id, ''), coalesce(e.chat_kind, ''),
	coalesce(e.user_text, m.content, ''), coalesce(e.reply_text, ''), coalesce(e.has_values, 0),
	coalesce(e.salience, 0), coalesce(e.disclosure, ''), coalesce(m.retention, '')
FROM json_each(?1) j JOIN recall_docs d ON d.id = j.value
LEFT JOIN episodes e ON e.id = d.episode_id
LEFT JOIN memories m ON d.slot IS NOT NULL AND m.user_id = d.user_id AND m.slot = d.slot
WHERE d.user_id = ?2 AND d.id BETWEEN ?3 AND ?4`

// Recall searches one user's episodes and memories for q.Text within
// q.Scope, most relevant first. Text with nothing to search (only stop
// words, punctuation) returns no hits and runs no query.
func (db *DB) Recall(ctx context.Context, q RecallQuery) ([]RecallHit, error) {
	if _, err := shelfChat(q); err != nil {
		return nil, err
	}
	terms := recallTerms(q.Text)
	if len(terms) == 0 {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = RecallCandidates
	}
	var hits []RecallHit
	err := db.read(ctx, "recall for "+q.UserID, func(tx querier) error {
		shelfID, err := recallShelf(ctx, tx, q)
		if err != nil || shelfID == 0 {
			return err // 0: nothing of this user was ever indexed here
		}
		scores, err := scoreTerms(ctx, tx, shelfID, terms)
		if err != nil {
			return err
		}
		hits, err = fetchHits(ctx, tx, q.UserID, shelfID, topDocs(scores, limit))
		return err
	})
	if err != nil {
		return nil, err
	}
	return hits, nil
}

// shelfChat is the chat of the shelf a query reads: "" for the user's,
// the group's name for RecallGroup.
func shelfChat(rq RecallQuery) (string, error) {
	if rq.UserID == "" {
		return "", errors.New("recall: no user")
	}
	switch rq.Scope {
	case RecallPrivate:
		return "", nil
	case RecallGroup:
		if rq.Platform == "" || rq.ChatID == "" {
			return "", errors.New("recall: group scope without its chat")
		}
		return groupShelfChat(rq.Platform, rq.ChatID), nil
	}
	return "", fmt.Errorf("recall: unknown scope %q", rq.Scope)
}

// recallShelf is the shelf a query reads: the user's, or theirs in the
// group; 0 when nothing of theirs was ever indexed there.
func recallShelf(ctx context.Context, q querier, rq RecallQuery) (int64, error) {
	chat, err := shelfChat(rq)
	if err != nil {
		return 0, err
	}
	var id int64
	err = q.QueryRowContext(ctx, "SELECT id FROM recall_shelves WHERE user_id = ? AND chat = ?", rq.UserID, chat).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// scoreTerms reads each term's window of postings on the shelf and sums,
// per document, the IDF of the terms it matched times the weight of the
// side (said, reply) they matched in.
func scoreTerms(ctx context.Context, tx querier, shelfID int64, terms []string) (map[int64]float64, error) {
	lo, hi := shelfRange(shelfID)
	var last sql.NullInt64
	if err := tx.QueryRowContext(ctx, "SELECT max(id) FROM recall_docs WHERE id BETWEEN ? AND ?", lo, hi).Scan(&last); err != nil {
		return nil, err
	}
	if !last.Valid {
		return nil, nil
	}
	// Documents ever put on the shelf: an estimate of its size that costs
	// one lookup (forgotten ones still count; IDF needs no more precision).
	n := float64(last.Int64 - lo)
	scores := make(map[int64]float64)
	sides := make(map[int64]float64)
	for _, t := range terms {
		rows, err := tx.QueryContext(ctx, recallTermSQL, recallTermMatch(t), lo<<1, hi<<1|1, recallTermWindow)
		if err != nil {
			return nil, fmt.Errorf("term %q: %w", t, err)
		}
		clear(sides)
		postings := 0
		for rows.Next() {
			var rowid int64
			if err := rows.Scan(&rowid); err != nil {
				rows.Close()
				return nil, fmt.Errorf("term %q: %w", t, err)
			}
			postings++
			w := recallSaidWeight
			if rowid&1 == sideReply {
				w = recallReplyWeight
			}
			sides[rowid>>1] += w
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("term %q: %w", t, err)
		}
		df := float64(len(sides))
		if postings == recallTermWindow {
			df = max(df, recallTermWindow) // at least that common
		}
		idf := math.Log(1 + (max(n, df)-df+0.5)/(df+0.5))
		for doc, w := range sides {
			scores[doc] += idf * w
		}
	}
	return scores, nil
}

// jsonIDs is ids as a JSON array, for json_each.
func jsonIDs(ids []int64) (string, error) {
	b, err := json.Marshal(ids)
	return string(b), err
}

// scoredDoc is a document and its relevance.
type scoredDoc struct {
	id    int64
	score float64
}

// topDocs returns the limit best-scored documents, newest first among
// equals.
func topDocs(scores map[int64]float64, limit int) []scoredDoc {
	docs := make([]scoredDoc, 0, len(scores))
	for id, s := range scores {
		docs = append(docs, scoredDoc{id, s})
	}
	slices.SortFunc(docs, func(a, b scoredDoc) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(b.id, a.id)
	})
	return docs[:min(len(docs), limit)]
}

// fetchHits reads the chosen documents' rows, best first. A document whose
// text is gone (blanked in this very moment) is skipped.
func fetchHits(ctx context.Context, tx querier, userID string, shelfID int64, docs []scoredDoc) ([]RecallHit, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.id
	}
	list, err := jsonIDs(ids)
	if err != nil {
		return nil, err
	}
	lo, hi := shelfRange(shelfID)
	rows, err := tx.QueryContext(ctx, recallFetchSQL, list, userID, lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := make(map[int64]RecallHit, len(docs))
	for rows.Next() {
		var (
			h      RecallHit
			id, at int64
		)
		if err := rows.Scan(&id, &h.EpisodeID, &h.Slot, &at, &h.Platform, &h.ChatID, &h.ChatKind,
			&h.UserText, &h.ReplyText, &h.HasValues, &h.Salience, &h.Disclosure, &h.Retention); err != nil {
			return nil, err
		}
		h.At = fromNano(at)
		h.Kind = RecallEpisode
		if h.EpisodeID == 0 {
			h.Kind = RecallMemory
		}
		byID[id] = h
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	hits := make([]RecallHit, 0, len(byID))
	for _, d := range docs {
		if h, ok := byID[d.id]; ok && (h.UserText != "" || h.ReplyText != "") {
			h.Score = d.score
			hits = append(hits, h)
		}
	}
	return hits, nil
}
