package httpadapter

import (
	"encoding/binary"
	"sync"

	"github.com/eventcal/eventcal/calendar"
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
// on (see appendEventKey), so an entry can never be served for a view it
// was not written from: there is nothing to invalidate, and an outdated
// entry is simply never asked for again. Two generations bound the memory:
// entries go into cur; when cur is full it becomes old and a new cur begins;
// a hit in old moves the entry to cur, so what is still asked for survives.
type renderCache struct {
	mu       sync.RWMutex
	cur, old map[string][]byte
	max      int // entries per generation
}

func newRenderCache(size int) *renderCache {
	return &renderCache{cur: map[string][]byte{}, max: size / 2}
}

// get returns the bytes stored under key; they must not be modified.
func (c *renderCache) get(key []byte) ([]byte, bool) {
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
func (c *renderCache) put(key, body []byte) {
	c.mu.Lock()
	if len(c.cur) >= c.max {
		c.old, c.cur = c.cur, make(map[string][]byte, c.max)
	}
	c.cur[string(key)] = body
	c.mu.Unlock()
}

// appendEventKey appends the cache key of the JSON links.writeEvent writes
// for ev: the request's URL parts (which also carry the requested language:
// its path segment is in rest and translation_language in query), withLD,
// and every part of the view that is not fixed by the version of a record in
// that language — the effective status, protection, image, term counts, and
// which venues, organizers and terms the caller may see, with their own
// versions, statuses and images. Everything else in the view is a function
// of those: a stored record changes only with its version, and the dates'
// zones are the calendar's.
func appendEventKey(k []byte, l *links, ev *calendar.Event, withLD bool) []byte {
	k = appendKeyStr(k, l.site)
	k = appendKeyStr(k, l.host)
	k = appendKeyStr(k, l.rest)
	k = appendKeyStr(k, l.query)
	k = append(k, keyBool(withLD), keyBool(ev.Protected), keyBool(ev.HasPassword))
	k = appendKeyPost(k, ev.ID, ev.Version, ev.Lang, ev.Status, ev.Image)
	for _, terms := range [2][]calendar.Term{ev.Categories, ev.Tags} {
		k = binary.AppendUvarint(k, uint64(len(terms)))
		for i := range terms {
			t := &terms[i]
			k = binary.AppendVarint(k, t.ID)
			k = binary.AppendVarint(k, t.Version)
			k = binary.AppendVarint(k, int64(t.Count))
			k = appendKeyStr(k, string(t.Lang))
		}
	}
	k = binary.AppendUvarint(k, uint64(len(ev.Venues)))
	for i := range ev.Venues {
		v := &ev.Venues[i]
		k = appendKeyPost(k, v.ID, v.Version, v.Lang, v.Status, v.Image)
	}
	k = binary.AppendUvarint(k, uint64(len(ev.Organizers)))
	for i := range ev.Organizers {
		o := &ev.Organizers[i]
		k = appendKeyPost(k, o.ID, o.Version, o.Lang, o.Status, o.Image)
	}
	return k
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

// appendKeyPost appends what identifies the view of one post: its record
// version in a language, its effective status, and its resolved image
// (images are resolved at read time, not stored in the record).
func appendKeyPost(k []byte, id, version int64, lang calendar.Lang, status calendar.Status, img *calendar.Image) []byte {
	k = binary.AppendVarint(k, id)
	k = binary.AppendVarint(k, version)
	k = appendKeyStr(k, string(lang))
	k = appendKeyStr(k, string(status))
	if img == nil {
		return append(k, 0)
	}
	k = append(k, 1)
	k = appendKeyStr(k, img.URL)
	k = binary.AppendVarint(k, img.ID)
	k = appendKeyStr(k, img.Extension)
	k = binary.AppendVarint(k, int64(img.Width))
	k = binary.AppendVarint(k, int64(img.Height))
	k = binary.AppendUvarint(k, uint64(len(img.Sizes)))
	for _, name := range sortedKeys(img.Sizes) {
		s := img.Sizes[name]
		k = appendKeyStr(k, name)
		k = appendKeyStr(k, s.URL)
		k = binary.AppendVarint(k, int64(s.Width))
		k = binary.AppendVarint(k, int64(s.Height))
		k = appendKeyStr(k, s.MimeType)
	}
	return k
}
