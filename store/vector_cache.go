package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// vectorCacheBytes bounds the memory of the vector codes a DB keeps
// between searches. hearth's choice: a code
// costs 8 bytes of id plus one bit per dimension (104 bytes at 768
// dimensions), so 32 MiB holds about 320,000 documents: every shelf of a
// typical instance, or three of 100,000 documents. A shelf larger than the
// bound is read from the file for every search.
const vectorCacheBytes = 32 << 20

// vectorCache keeps shelves' vector codes in memory, least recently used
// out first. Entries only grow (PutVectors adds the codes it stored); a
// forget path clears the whole cache (forgotten), so no code of a
// forgotten text outlives its row, and a load that overlapped a clear is
// used once but not kept.
type vectorCache struct {
	limit int64 // vectorCacheBytes; tests lower it

	mu      sync.Mutex
	gen     uint64 // bumped by clear
	tick    uint64 // for least recently used
	bytes   int64
	entries map[vectorKey]*codeShelf
}

type vectorKey struct{ model, shelf int64 }

// codeShelf is one shelf's codes of one model: words 64-bit words per
// document, in ids' order.
type codeShelf struct {
	ids   []int64
	codes []uint64
	words int

	ready   chan struct{} // closed once loaded
	err     error
	pending []pendingCode // added while loading
	used    uint64
}

type pendingCode struct {
	doc  int64
	code []uint64
}

func (e *codeShelf) size() int64 { return int64(8*len(e.ids) + 8*len(e.codes)) }

// codeView is a consistent prefix of a shelf's codes for one search;
// later additions go past its end, so it is read without the lock.
type codeView struct {
	ids   []int64
	codes []uint64
	words int
}

func (c *vectorCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// clear drops every entry; loads in flight are not kept.
func (c *vectorCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.entries = nil
	c.bytes = 0
}

// get returns the codes of model on shelf, loading them through db's read
// pool when they are not cached (one load per shelf at a time: others
// wait for it).
func (c *vectorCache) get(ctx context.Context, db *DB, model, shelf int64) (codeView, error) {
	key := vectorKey{model, shelf}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = make(map[vectorKey]*codeShelf)
	}
	if c.limit == 0 {
		c.limit = vectorCacheBytes
	}
	c.tick++
	e := c.entries[key]
	if e != nil {
		e.used = c.tick
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return codeView{}, ctx.Err()
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		return e.view(), e.err
	}
	e = &codeShelf{ready: make(chan struct{}), used: c.tick}
	c.entries[key] = e
	gen := c.gen
	c.mu.Unlock()

	// The load's snapshot starts after the entry exists, so a vector
	// stored meanwhile is in the snapshot or in e.pending (or both).
	ids, codes, words, err := loadCodes(ctx, db, model, shelf)

	c.mu.Lock()
	defer c.mu.Unlock()
	e.ids, e.codes, e.words, e.err = ids, codes, words, err
	for _, p := range e.pending {
		if _, found := slices.BinarySearch(ids, p.doc); !found { // loaded in id order
			e.append(p.doc, p.code)
		}
	}
	e.pending = nil
	close(e.ready)
	if err != nil || gen != c.gen || e.size() > c.limit {
		if c.entries[key] == e {
			delete(c.entries, key)
		}
		return e.view(), err
	}
	c.bytes += e.size()
	c.evict(e)
	return e.view(), nil
}

// add records a code PutVectors stored, if its shelf is cached and no
// clear happened since gen.
func (c *vectorCache) add(gen uint64, model, shelf, doc int64, code []uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[vectorKey{model, shelf}]
	if e == nil || gen != c.gen {
		return
	}
	select {
	case <-e.ready:
	default:
		e.pending = append(e.pending, pendingCode{doc, code})
		return
	}
	if e.err != nil {
		return
	}
	before := e.size()
	e.append(doc, code)
	c.bytes += e.size() - before
	c.evict(e)
}

func (e *codeShelf) append(doc int64, code []uint64) {
	if e.words == 0 {
		e.words = len(code)
	}
	if len(code) != e.words {
		return // another dimension: never within one model tag
	}
	e.ids = append(e.ids, doc)
	e.codes = append(e.codes, code...)
}

func (e *codeShelf) view() codeView {
	return codeView{ids: e.ids[:len(e.ids):len(e.ids)], codes: e.codes[:len(e.codes):len(e.codes)], words: e.words}
}

// evict drops least recently used loaded entries other than keep until
// the cache is within its limit.
func (c *vectorCache) evict(keep *codeShelf) {
	for c.bytes > c.limit {
		var (
			oldKey vectorKey
			old    *codeShelf
		)
		for k, e := range c.entries {
			select {
			case <-e.ready:
			default:
				continue // loading: accounted for when installed
			}
			if e != keep && (old == nil || e.used < old.used) {
				oldKey, old = k, e
			}
		}
		if old == nil {
			return
		}
		delete(c.entries, oldKey)
		c.bytes -= old.size()
	}
}

// loadCodes reads a shelf's codes of model in document order, from the
// covering index alone.
func loadCodes(ctx context.Context, db *DB, model, shelf int64) (ids []int64, codes []uint64, words int, err error) {
	lo, hi := shelfRange(shelf)
	err = db.read(ctx, "load vector codes", func(tx querier) error {
		rows, err := tx.QueryContext(ctx, `SELECT doc_id, code FROM recall_vectors INDEXED BY recall_vectors_scan
			WHERE model = ? AND doc_id BETWEEN ? AND ? ORDER BY doc_id`, model, lo, hi)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				id  int64
				raw sql.RawBytes
			)
			if err := rows.Scan(&id, &raw); err != nil {
				return err
			}
			if words == 0 {
				words = len(raw) / 8
			}
			if len(raw) != 8*words {
				return fmt.Errorf("document %d: code of %d bytes, want %d", id, len(raw), 8*words)
			}
			ids = append(ids, id)
			for i := 0; i < len(raw); i += 8 {
				codes = append(codes, binary.LittleEndian.Uint64(raw[i:]))
			}
		}
		return rows.Err()
	})
	return ids, codes, words, err
}

// nearest returns the ids of the (at most) n codes nearest to q in Hamming
// distance, in no particular order, each once: one pass computes every
// distance and their histogram, whose cut gives the n nearest without a
// sort.
func (v codeView) nearest(q []uint64, n int) []int64 {
	if len(v.ids) == 0 || len(q) != v.words {
		return nil
	}
	if len(v.ids) <= n {
		return uniqueIDs(v.ids, len(v.ids))
	}
	dist := make([]uint16, len(v.ids))
	hist := make([]int, 64*v.words+1)
	for i := range v.ids {
		c := v.codes[i*v.words : (i+1)*v.words]
		d := 0
		for k, w := range q {
			d += bits.OnesCount64(w ^ c[k])
		}
		dist[i] = uint16(d)
		hist[d]++
	}
	cut, below := 0, 0 // every code nearer than cut is taken, then some at cut
	for below+hist[cut] < n {
		below += hist[cut]
		cut++
	}
	out := make([]int64, 0, n)
	atCut := n - below
	for i, d := range dist {
		switch {
		case int(d) < cut:
			out = append(out, v.ids[i])
		case int(d) == cut && atCut > 0:
			out = append(out, v.ids[i])
			atCut--
		}
	}
	return uniqueIDs(out, n)
}

// uniqueIDs drops repeated ids (a document re-embedded after its shelf
// was cached appears twice), keeping at most n.
func uniqueIDs(ids []int64, n int) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, min(n, len(ids)))
	for _, id := range ids {
		if !seen[id] && len(out) < n {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
