package redisstore

import (
	"sync"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// DefaultDecodedCache is the default number of decoded records a Store
// keeps (WithDecodedCache).
const DefaultDecodedCache = 8192

// maxCachedRecord is the largest encoded record the decoded cache keeps:
// beyond, the copy of the bytes would cost more memory than decoding saves.
const maxCachedRecord = 64 << 10

// A decodedCache keeps records decoded, keyed by their encoded bytes. Every
// read still fetches the bytes from Redis — so every read sees the current
// record, written by whichever process — and decoding (JSON, about half the
// CPU of a list page under load) is skipped when the very same bytes were
// decoded before: a record's bytes hold its id and version, so equal bytes
// are the same record. Callers get a clone, never the kept value — except
// readers of the Store's SharedReads view, which promise never to modify a
// record (shared.go).
type decodedCache struct {
	*decodedSet
	shared bool // hand out the kept records themselves
}

// decodedSet is the content of a decodedCache, shared by a Store and its
// SharedReads views.
type decodedSet struct {
	max   int
	mu    sync.RWMutex
	posts map[string]*calendar.PostRecord
	terms map[string]*calendar.TermRecord
}

func newDecodedCache(max int) *decodedCache {
	if max <= 0 {
		return nil
	}
	return &decodedCache{decodedSet: &decodedSet{max: max, posts: map[string]*calendar.PostRecord{}, terms: map[string]*calendar.TermRecord{}}}
}

// decodePost is storage.DecodePost through the cache of s.
func (s *Store) decodePost(raw string) (*calendar.PostRecord, error) {
	return decodeVia(s.decoded, raw, func(c *decodedCache) map[string]*calendar.PostRecord { return c.posts },
		storage.DecodePost, (*calendar.PostRecord).Clone)
}

// decodeTerm is storage.DecodeTerm through the cache of s.
func (s *Store) decodeTerm(raw string) (*calendar.TermRecord, error) {
	return decodeVia(s.decoded, raw, func(c *decodedCache) map[string]*calendar.TermRecord { return c.terms },
		storage.DecodeTerm, (*calendar.TermRecord).Clone)
}

func decodeVia[T any](c *decodedCache, raw string, m func(*decodedCache) map[string]*T,
	decode func([]byte) (*T, error), clone func(*T) *T) (*T, error) {
	if c == nil || len(raw) > maxCachedRecord {
		return decode([]byte(raw))
	}
	c.mu.RLock()
	kept, ok := m(c)[raw]
	c.mu.RUnlock()
	if ok {
		if c.shared {
			return kept, nil
		}
		return clone(kept), nil
	}
	rec, err := decode([]byte(raw))
	if err != nil {
		return nil, err
	}
	kept = rec
	if !c.shared {
		kept = clone(rec)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	set := m(c)
	for k := range set { // full: drop some entries, whichever the map yields
		if len(set) < c.max {
			break
		}
		delete(set, k)
	}
	set[raw] = kept
	return rec, nil
}
