package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Semantic recall's vectors (issue 11 item 2, the vectors migration). The
// recall index's documents get one vector each from an embedding model: a
// background worker (bot/semantic) reads the queue (VectorBacklog), embeds
// the texts and stores them (PutVectors); a search (VectorRecall) reads
// one shelf's vectors, so its scope is the full-text search's. A vector is
// keyed on its document, so whatever removes a document from the index
// removes its vector in the same transaction.
//
// What is embedded is the user's side of a document: the user's words of
// an episode, a memory's content. The bot's replies are not: the query is
// the user's message, the user's own words are what it should meet, and
// the bot's sympathetic phrasing would otherwise resemble every query
// (the full-text index still finds a reply's words, at half weight).

// Vector is one document's embedding. Values has the active model's
// dimension and unit length.
type Vector struct {
	DocID  int64
	Values []float32
}

// VectorDoc is a document waiting for its vector: its id and the text to
// embed ("" when the document has none to embed: it only leaves the queue).
type VectorDoc struct {
	DocID int64
	Text  string
}

// queueVectors queues new documents for the embedding worker, once a model
// was ever used in this file (before that, activating the first model
// queues everything). Plain single-row inserts: see shelf on why.
func queueVectors(ctx context.Context, q querier, docs ...int64) error {
	var on bool
	if err := q.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM recall_models)").Scan(&on); err != nil {
		return fmt.Errorf("queue vectors: %w", err)
	}
	if !on {
		return nil
	}
	for _, d := range docs {
		if _, err := q.ExecContext(ctx, "INSERT OR IGNORE INTO recall_vector_queue (doc_id) VALUES (?)", d); err != nil {
			return fmt.Errorf("queue vectors: %w", err)
		}
	}
	return nil
}

// UseVectorModel returns the tag of the embedding model name answering
// with dim dimensions, creating it, and makes it the active tag. When it
// was not active (the first model of this file, a new model, a model that
// now answers with another dimension), every document without a vector of
// it is queued, memories and the newest episodes first, and the cached
// vectors of the previous tag are dropped.
func (db *DB) UseVectorModel(ctx context.Context, name string, dim int) (int64, error) {
	if name == "" || dim <= 0 {
		return 0, fmt.Errorf("use vector model %q/%d: want a name and a dimension", name, dim)
	}
	var (
		id      int64
		changed bool
	)
	err := db.write(ctx, "use vector model", func(tx querier) error {
		changed = false // a group that failed may have run this once already
		if _, err := tx.ExecContext(ctx, "INSERT INTO recall_models (name, dim) VALUES (?, ?) ON CONFLICT (name, dim) DO NOTHING", name, dim); err != nil {
			return err
		}
		var active bool
		if err := tx.QueryRowContext(ctx, "SELECT id, active FROM recall_models WHERE name = ? AND dim = ?", name, dim).Scan(&id, &active); err != nil {
			return err
		}
		if active {
			return nil
		}
		changed = true
		if _, err := tx.ExecContext(ctx, "UPDATE recall_models SET active = (id = ?)", id); err != nil {
			return err
		}
		// Queued in this order, taken newest seq first: memories, then
		// episodes newest to oldest, each with its group shelf's copy
		// next to it (one embedding serves both).
		_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO recall_vector_queue (doc_id)
			SELECT d.id FROM recall_docs d LEFT JOIN episodes e ON e.id = d.episode_id
			WHERE (d.slot IS NOT NULL OR e.user_text != '')
				AND NOT EXISTS (SELECT 1 FROM recall_vectors v WHERE v.doc_id = d.id AND v.model = ?1)
			ORDER BY d.slot IS NOT NULL, d.episode_id, d.id`, id)
		return err
	})
	if err != nil {
		return 0, err
	}
	if changed {
		db.vectors.clear()
	}
	return id, nil
}

// VectorBacklog returns up to limit queued documents, newest first, with
// the text to embed.
func (db *DB) VectorBacklog(ctx context.Context, limit int) ([]VectorDoc, error) {
	rows, err := db.reader.QueryContext(ctx, `SELECT q.doc_id, coalesce(e.user_text, m.content, '')
		FROM recall_vector_queue q JOIN recall_docs d ON d.id = q.doc_id
		LEFT JOIN episodes e ON e.id = d.episode_id
		LEFT JOIN memories m ON d.slot IS NOT NULL AND m.user_id = d.user_id AND m.slot = d.slot
		ORDER BY q.seq DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("vector backlog: %w", err)
	}
	defer rows.Close()
	var out []VectorDoc
	for rows.Next() {
		var d VectorDoc
		if err := rows.Scan(&d.DocID, &d.Text); err != nil {
			return nil, fmt.Errorf("vector backlog: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("vector backlog: %w", err)
	}
	return out, nil
}

// PutVectors stores vectors of model (a tag from UseVectorModel) and takes
// their documents, and the skipped ones, off the queue, in one transaction.
// A document forgotten since VectorBacklog read it gets no vector. It
// returns how many vectors were stored.
func (db *DB) PutVectors(ctx context.Context, model int64, vs []Vector, skipped []int64) (int, error) {
	type stored struct {
		doc  int64
		code []uint64
	}
	var (
		done []stored
		gen  = db.vectors.generation()
	)
	err := db.write(ctx, "put vectors", func(tx querier) error {
		done = done[:0]
		for _, v := range vs {
			var exists bool
			if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM recall_docs WHERE id = ?)", v.DocID).Scan(&exists); err != nil {
				return err
			}
			if exists {
				code := vectorCode(v.Values)
				if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO recall_vectors (doc_id, model, code, vec) VALUES (?, ?, ?, ?)",
					v.DocID, model, encodeWords(code), encodeFloats(v.Values)); err != nil {
					return err
				}
				done = append(done, stored{v.DocID, code})
			}
			if _, err := tx.ExecContext(ctx, "DELETE FROM recall_vector_queue WHERE doc_id = ?", v.DocID); err != nil {
				return err
			}
		}
		for _, d := range skipped {
			if _, err := tx.ExecContext(ctx, "DELETE FROM recall_vector_queue WHERE doc_id = ?", d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, d := range done {
		db.vectors.add(gen, model, d.doc>>shelfShift, d.doc, d.code)
	}
	return len(done), nil
}

// VectorQuery is one search by meaning: the scope of a full-text search
// and the query's vector.
type VectorQuery struct {
	RecallQuery
	Model  int64     // the tag the vector comes from (UseVectorModel)
	Vector []float32 // unit length
	// MinScore drops documents whose cosine similarity is below it.
	MinScore float64
}

// vectorRescore is how many of a shelf's vectors a search ranks exactly,
// chosen by their codes' Hamming distance to the query's; a shelf this
// small is ranked exactly. hearth's choice, by BenchmarkVectorRecall
// (100,000 clustered 768-dimension vectors): 256 kept 74% of the exact
// 10 nearest, 512 kept 97.5% at about 11 µs per vector read, 1,024 all of
// them at twice the cost.
const vectorRescore = 512

// VectorRecall searches one user's documents in q's scope by meaning,
// most similar first, Score the cosine similarity. It reads one shelf (as
// Recall does), so another user's rows, or private ones in a group, cannot
// be returned. The shelf's codes are cached in memory (at most
// vectorCacheBytes for all shelves).
func (db *DB) VectorRecall(ctx context.Context, q VectorQuery) ([]RecallHit, error) {
	if len(q.Vector) == 0 {
		return nil, errors.New("vector recall: no vector")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = RecallCandidates
	}
	shelfID, err := recallShelf(ctx, db.reader, q.RecallQuery)
	if err != nil || shelfID == 0 {
		return nil, err
	}
	codes, err := db.vectors.get(ctx, db, q.Model, shelfID)
	if err != nil {
		return nil, fmt.Errorf("vector recall for %s: %w", q.UserID, err)
	}
	ids := codes.nearest(vectorCode(q.Vector), vectorRescore)
	var hits []RecallHit
	err = db.read(ctx, "vector recall for "+q.UserID, func(tx querier) error {
		docs, err := rankVectors(ctx, tx, q, shelfID, ids)
		if err != nil {
			return err
		}
		hits, err = fetchHits(ctx, tx, q.UserID, shelfID, docs[:min(len(docs), limit)])
		return err
	})
	if err != nil {
		return nil, err
	}
	return hits, nil
}

// rankVectors reads the vectors of ids on the shelf and returns the
// documents at least q.MinScore similar to the query, best first.
func rankVectors(ctx context.Context, tx querier, q VectorQuery, shelfID int64, ids []int64) ([]scoredDoc, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := jsonIDs(ids)
	if err != nil {
		return nil, err
	}
	lo, hi := shelfRange(shelfID)
	rows, err := tx.QueryContext(ctx, `SELECT doc_id, vec FROM recall_vectors
		WHERE doc_id IN (SELECT value FROM json_each(?1)) AND model = ?2 AND doc_id BETWEEN ?3 AND ?4`, list, q.Model, lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	scores := make(map[int64]float64, len(ids))
	for rows.Next() {
		var (
			id  int64
			raw sql.RawBytes
		)
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		if len(raw) != 4*len(q.Vector) {
			continue // another dimension: never within one tag
		}
		if s := dotFloats(q.Vector, raw); s >= q.MinScore {
			scores[id] = s
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return topDocs(scores, len(scores)), nil
}

// vectorCode is v's sign bits: bit i of word i/64 is set when v[i] > 0.
// The Hamming distance of two codes estimates the angle between their
// vectors (Charikar 2002), cheaply enough to scan a shelf.
func vectorCode(v []float32) []uint64 {
	code := make([]uint64, (len(v)+63)/64)
	for i, x := range v {
		if x > 0 {
			code[i/64] |= 1 << (i % 64)
		}
	}
	return code
}

// encodeFloats is v as little-endian float32.
func encodeFloats(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// encodeWords is code as little-endian 64-bit words.
func encodeWords(code []uint64) []byte {
	b := make([]byte, 8*len(code))
	for i, w := range code {
		binary.LittleEndian.PutUint64(b[8*i:], w)
	}
	return b
}

// dotFloats is the dot product of q and the little-endian float32 vector
// raw (len(raw) == 4*len(q)), eight sums at a time.
func dotFloats(q []float32, raw []byte) float64 {
	var s [8]float32
	i := 0
	for ; i+8 <= len(q); i += 8 {
		r := raw[4*i : 4*i+32]
		for k := range 8 {
			s[k] += q[i+k] * math.Float32frombits(binary.LittleEndian.Uint32(r[4*k:]))
		}
	}
	for ; i < len(q); i++ {
		s[0] += q[i] * math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return float64(s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7])
}
