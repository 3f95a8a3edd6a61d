package boltstore

import (
	"bytes"
	"sync"

	"github.com/eventcal/eventcal/calendar"
)

// DefaultCacheSize is how many decoded posts (and, apart, terms) a Store
// keeps by default.
const DefaultCacheSize = 4096

// decodedCache keeps recently read records decoded, keyed by id, each with
// the exact bytes it was decoded from. A hit is only taken when the bytes
// stored now are the same, so the cache can never serve a stale record and
// needs no invalidation: a write changes the bytes (the version at least).
// It saves the JSON decode that dominates a read; get hands out a clone,
// shared the cache's own record. A cache of size 0 just decodes.
type decodedCache[R any] struct {
	mu     sync.Mutex
	max    int
	m      map[int64]cachedRecord[R]
	decode func(id int64, raw []byte) (*R, error)
	clone  func(*R) *R
}

type cachedRecord[R any] struct {
	raw []byte
	rec *R // never handed out by get, never modified
}

// postCache holds decoded posts, termCache decoded terms: terms are read
// on every list page (the calendar's category tree, the terms a page
// embeds), posts are many, so neither evicts the other.
type (
	postCache = decodedCache[calendar.PostRecord]
	termCache = decodedCache[calendar.TermRecord]
)

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

// postDecoder makes the record of post id from raw, its stored bytes: a
// copy the caller owns (decodedCache.get) or the cache's own (shared).
type postDecoder func(id int64, raw []byte) (*calendar.PostRecord, error)

// termDecoder is postDecoder for terms.
type termDecoder func(id int64, raw []byte) (*calendar.TermRecord, error)

// get returns record id decoded from raw, the bytes stored under it in
// the current transaction, as a copy the caller owns.
func (c *decodedCache[R]) get(id int64, raw []byte) (*R, error) {
	if rec, ok := c.hit(id, raw); ok {
		return c.clone(rec), nil
	}
	rec, err := c.decode(id, raw)
	if err != nil || c.max == 0 {
		return rec, err
	}
	c.put(id, raw, c.clone(rec))
	return rec, nil
}

// shared is get without the copy, for SharedReads: the record it returns
// is the cache's own, so neither the cache nor the caller may ever modify
// it. A miss is decoded and kept as it is.
func (c *decodedCache[R]) shared(id int64, raw []byte) (*R, error) {
	if rec, ok := c.hit(id, raw); ok {
		return rec, nil
	}
	rec, err := c.decode(id, raw)
	if err != nil || c.max == 0 {
		return rec, err
	}
	c.put(id, raw, rec)
	return rec, nil
}

// hit returns the cached record of id if it was decoded from raw.
func (c *decodedCache[R]) hit(id int64, raw []byte) (*R, bool) {
	if c.max == 0 {
		return nil, false
	}
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.rec, true
	}
	return nil, false
}

// put keeps rec, decoded from raw, as record id.
func (c *decodedCache[R]) put(id int64, raw []byte, rec *R) {
	e := cachedRecord[R]{raw: bytes.Clone(raw), rec: rec}
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
