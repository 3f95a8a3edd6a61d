package httpadapter

import (
	"encoding/binary"
	"sync"
)

// renderCacheSize bounds the events a Handler keeps encoded (each a few kB:
// 4096 bodies of a typical event with its venue, organizer and terms are
// about 12 MB).
const renderCacheSize = 4096

// renderCache keeps encoded events so a list page or single GET whose
// events have not changed copies their JSON instead of writing it again
// (writing was half of the handler's time on a page of 50).
//
// An entry is found by a key that holds everything the encoded bytes depend
// on (appendRequestKey and the calendar's calendar.Event.ViewKey), and it is
// looked up before the calendar builds the view (viewHook), so an entry can never be served for a view it
// was not written from: there is nothing to invalidate, and an outdated
// entry is simply never asked for again. Two generations bound the memory:
// entries go into cur; when cur is full it becomes old and a new cur begins;
// a hit in old moves the entry to cur, so what is still asked for survives.
type renderCache struct {
	mu       sync.RWMutex
	cur, old map[string]*[]byte // by pointer: a hit handed over as an any is not boxed
	max      int                // entries per generation
}

func newRenderCache(size int) *renderCache {
	return &renderCache{cur: map[string]*[]byte{}, max: size / 2}
}

// get returns the bytes stored under key; they must not be modified.
func (c *renderCache) get(key []byte) (*[]byte, bool) {
	c.mu.RLock()
	b, ok := c.cur[string(key)]
	if !ok {
		b, ok = c.old[string(key)]
		c.mu.RUnlock()
		if ok {
			c.put(key, b)
		}
		return b, ok
	}
	c.mu.RUnlock()
	return b, true
}

// put stores body under key; body must never be modified afterwards.
func (c *renderCache) put(key []byte, body *[]byte) {
	c.mu.Lock()
	if len(c.cur) >= c.max {
		c.old, c.cur = c.cur, make(map[string]*[]byte, c.max)
	}
	c.cur[string(key)] = body
	c.mu.Unlock()
}

// appendRequestKey appends the part of an event's cache key the request
// decides: its URL parts (which also carry the requested language: its path
// segment is in rest and translation_language in query) and withLD. The
// calendar's key of the view follows it (calendar.Event.ViewKey): that one
// covers the records, the caller's rights and the clock.
func appendRequestKey(k []byte, l *links, withLD bool) []byte {
	k = appendKeyStr(k, l.site)
	k = appendKeyStr(k, l.host)
	k = appendKeyStr(k, l.rest)
	k = appendKeyStr(k, l.query)
	return append(k, keyBool(withLD))
}

// viewHook is the calendar.ViewCache of one request: it answers the
// calendar's key of an event view with the bytes the cache holds for it
// under this request's URL parts, so a cached event's view is never built.
type viewHook struct {
	l      *links
	withLD bool
	n      int    // length of the request part in buf; 0: not made yet
	buf    []byte // request part, then the key asked for
	arr    [256]byte
}

// CachedView implements calendar.ViewCache.
func (h *viewHook) CachedView(key []byte) any {
	if h.n == 0 { // made at the first event: translation_language is read by then
		h.buf = appendRequestKey(h.arr[:0], h.l, h.withLD) // in the request's state: no allocation for most keys
		h.n = len(h.buf)
	}
	h.buf = append(h.buf[:h.n], key...)
	if b, ok := h.l.cache.get(h.buf); ok {
		return b
	}
	return nil
}

func keyBool(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// appendKeyStr appends s with its length, so no two sequences of strings
// give the same key.
func appendKeyStr(k []byte, s string) []byte {
	k = binary.AppendUvarint(k, uint64(len(s)))
	return append(k, s...)
}
