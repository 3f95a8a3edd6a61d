package boltstore

import (
	"bytes"
	"sync"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// DefaultCacheSize is how many decoded posts (and, apart, terms) a Store
// keeps by default.
const DefaultCacheSize = 4096

// decodedCache keeps recently read records decoded, keyed by id, each with
// the exact bytes it was decoded from. A hit is only taken when the bytes
// stored now are the same, so the cache can never serve a stale record and
// needs no invalidation: a write changes the bytes (the version at least).
// It saves the JSON decode that dominates a read and, within one snapshot,
// the look-up (see cacheReader). A cache of size 0 just decodes.
type decodedCache[R any] struct {
	mu     sync.Mutex
	max    int
	m      map[int64]cachedRecord[R]
	decode func(id int64, raw []byte) (*R, error)
	clone  func(*R) *R
}

type cachedRecord[R any] struct {
	raw  []byte
	rec  *R    // never modified; handed out only to readers that share
	snap int64 // the last read-only snapshot raw was found stored in, or -1
}

// postCache holds decoded posts, termCache decoded terms: terms are read
// on every list page (the calendar's category tree, the terms a page
// embeds), posts are many, so neither evicts the other.
type (
	postCache = decodedCache[calendar.PostRecord]
	termCache = decodedCache[calendar.TermRecord]
)

// noCache decodes every post it reads (a lister outside a Store's reads).
var noCache = newPostCache(0)

func newPostCache(size int) *postCache {
	return newDecodedCache(size, decodePost, (*calendar.PostRecord).Clone)
}

func newTermCache(size int) *termCache {
	return newDecodedCache(size, decodeTerm, (*calendar.TermRecord).Clone)
}

func newDecodedCache[R any](size int, decode func(int64, []byte) (*R, error), clone func(*R) *R) *decodedCache[R] {
	c := &decodedCache[R]{max: max(size, 0), decode: decode, clone: clone}
	if c.max > 0 {
		c.m = make(map[int64]cachedRecord[R], min(c.max, 1024))
	}
	return c
}

// cacheReader reads records through the cache inside one transaction. A
// read-only transaction is a snapshot, named by its id (bbolt's txid: each
// committed write makes a new one, and a snapshot never changes), so an
// entry whose bytes were found stored in this snapshot is taken without
// looking the record up again. A writable transaction may still roll back,
// and the next one would carry the same id: it stamps nothing.
type cacheReader[R any] struct {
	c     *decodedCache[R]
	snap  int64 // the snapshot's txid, or -1 in a writable transaction
	share bool  // hand out the cache's own records (SharedReads)
}

// in returns a reader of c for tx: handing out the cache's own records if
// share (the caller must never modify them), copies otherwise.
func (c *decodedCache[R]) in(tx *bolt.Tx, share bool) cacheReader[R] {
	snap := int64(-1)
	if !tx.Writable() {
		snap = int64(tx.ID())
	}
	return cacheReader[R]{c: c, snap: snap, share: share}
}

// read returns record id from bucket b (nil if it is not stored): from
// the cache alone when its entry was verified in this snapshot, else
// looked up and decoded from its stored bytes (decode).
func (r cacheReader[R]) read(b *bolt.Bucket, id int64) (*R, error) {
	if c := r.c; c.max > 0 && r.snap >= 0 {
		c.mu.Lock()
		e, ok := c.m[id]
		c.mu.Unlock()
		if ok && e.snap == r.snap {
			return r.out(e.rec), nil
		}
	}
	raw := b.Get(storage.IDKey(id))
	if raw == nil {
		return nil, nil
	}
	return r.decode(id, raw)
}

// decode returns record id decoded from raw, the bytes stored under it in
// the transaction: the cached record when it was decoded from the same
// bytes (the entry is then stamped with this snapshot), else a new one,
// kept.
func (r cacheReader[R]) decode(id int64, raw []byte) (*R, error) {
	c := r.c
	if c.max == 0 {
		return c.decode(id, raw)
	}
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		if r.snap > e.snap {
			c.stamp(id, e.rec, r.snap)
		}
		return r.out(e.rec), nil
	}
	rec, err := c.decode(id, raw)
	if err != nil {
		return nil, err
	}
	kept := rec
	if !r.share {
		kept = c.clone(rec)
	}
	c.put(id, cachedRecord[R]{raw: bytes.Clone(raw), rec: kept, snap: r.snap})
	return rec, nil
}

// out is the record handed out for a cached one.
func (r cacheReader[R]) out(rec *R) *R {
	if r.share {
		return rec
	}
	return r.c.clone(rec)
}

// stamp records that rec, still the entry of id, was found stored in
// snapshot snap (a later snapshot than its stamp).
func (c *decodedCache[R]) stamp(id int64, rec *R, snap int64) {
	c.mu.Lock()
	if e, ok := c.m[id]; ok && e.rec == rec && e.snap < snap {
		e.snap = snap
		c.m[id] = e
	}
	c.mu.Unlock()
}

// put keeps e as the entry of record id.
func (c *decodedCache[R]) put(id int64, e cachedRecord[R]) {
	c.mu.Lock()
	if _, ok := c.m[id]; !ok && len(c.m) >= c.max {
		for k := range c.m { // map order is random: a random eviction
			delete(c.m, k)
			break
		}
	}
	c.m[id] = e
	c.mu.Unlock()
}
