package calendar

import (
	"sync"
	"time"
)

// DefaultTermCountTTL is how long a cached term count is trusted; see
// WithTermCountTTL.
const DefaultTermCountTTL = 5 * time.Second

// termCounts caches how many published events use each term. Counting means
// walking every event of the term, and every event read embeds its terms with
// their counts, so without a cache each read would cost a scan per term.
//
// Writes made through this Service adjust the cached counts at once (by the
// event's published terms before and after the write), so in one process the
// counts stay exact. What the cache cannot see — writes by other processes
// sharing the store, scheduled events passing their publication date — shows
// after at most the TTL.
type termCounts struct {
	mu  sync.Mutex
	ttl time.Duration
	m   map[int64]countEntry
}

type countEntry struct {
	n  int
	at time.Time
}

func (tc *termCounts) get(id int64, now time.Time) (int, bool) {
	if tc.ttl <= 0 {
		return 0, false
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	e, ok := tc.m[id]
	if !ok || now.Sub(e.at) >= tc.ttl || e.at.Sub(now) >= tc.ttl {
		return 0, false
	}
	return e.n, true
}

func (tc *termCounts) put(id int64, n int, now time.Time) {
	if tc.ttl <= 0 {
		return
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.m == nil {
		tc.m = map[int64]countEntry{}
	}
	tc.m[id] = countEntry{n: n, at: now}
}

// forget drops a term's count (the term is gone).
func (tc *termCounts) forget(id int64) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	delete(tc.m, id)
}

// eventWritten adjusts the cached counts for one event write; before or
// after is nil for a create or a removal.
func (tc *termCounts) eventWritten(before, after *PostRecord, now time.Time) {
	delta := map[int64]int{}
	for _, x := range []struct {
		p    *PostRecord
		sign int
	}{{before, -1}, {after, +1}} {
		if x.p == nil || x.p.Kind != KindEvent || x.p.EffectiveStatus(now) != StatusPublish {
			continue
		}
		for _, ids := range [][]int64{x.p.CategoryIDs, x.p.TagIDs} {
			for _, id := range uniqueIDs(ids) {
				delta[id] += x.sign
			}
		}
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	for id, d := range delta {
		if e, ok := tc.m[id]; ok && d != 0 {
			e.n += d
			tc.m[id] = e
		}
	}
}
