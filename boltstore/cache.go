package boltstore

import (
	"bytes"
	"sync"

	"github.com/eventcal/eventcal/calendar"
)

// DefaultCacheSize is how many decoded posts a Store keeps by default.
const DefaultCacheSize = 4096

// postCache keeps recently read posts decoded, keyed by id, each with the
// exact bytes it was decoded from. A hit is only taken when the bytes stored
// now are the same, so the cache can never serve a stale record and needs
// no invalidation: a write changes the bytes (the version at least). It
// saves the JSON decode that dominates a read; callers get a clone.
type postCache struct {
	mu  sync.Mutex
	max int
	m   map[int64]cachedPost
}

type cachedPost struct {
	raw []byte
	rec *calendar.PostRecord // never handed out, never modified
}

func newPostCache(size int) *postCache {
	if size <= 0 {
		return nil
	}
	return &postCache{max: size, m: make(map[int64]cachedPost, size)}
}

// post returns post id decoded from raw, the bytes stored under it in the
// current transaction. A nil cache just decodes.
func (c *postCache) post(id int64, raw []byte) (*calendar.PostRecord, error) {
	if c == nil {
		return decodePost(id, raw)
	}
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.rec.Clone(), nil
	}
	p, err := decodePost(id, raw)
	if err != nil {
		return nil, err
	}
	c.put(id, raw, p.Clone())
	return p, nil
}

// postDecoder makes the record of post id from raw, its stored bytes: a
// copy the caller owns (postCache.post) or the cache's own (shared).
type postDecoder func(id int64, raw []byte) (*calendar.PostRecord, error)

// shared is post without the copy, for SharedReads: the record it returns
// is the cache's own, so neither the cache nor the caller may ever modify
// it. A miss is decoded and kept as it is.
func (c *postCache) shared(id int64, raw []byte) (*calendar.PostRecord, error) {
	if c == nil {
		return decodePost(id, raw)
	}
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.rec, nil
	}
	p, err := decodePost(id, raw)
	if err != nil {
		return nil, err
	}
	c.put(id, raw, p)
	return p, nil
}

// put keeps rec, decoded from raw, as post id; rec is never handed out.
func (c *postCache) put(id int64, raw []byte, rec *calendar.PostRecord) {
	e := cachedPost{raw: bytes.Clone(raw), rec: rec}
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
