package calendar

import (
	"context"
	"sync"
	"time"
)

// DefaultTermCountTTL is how long a cached term count is trusted; see
// WithTermCountTTL.
const DefaultTermCountTTL = 5 * time.Second

// termCountRefreshTimeout bounds a background recount, which no request waits for.
const termCountRefreshTimeout = 30 * time.Second

// termCounts caches how many published events use each term. Every event
// read embeds its terms with their counts, and a term list shows every
// term's, so without a cache each read would cost a count; the terms of one
// page are counted together (CountLinks), one grouped count per page.
//
// Writes made through this Service adjust the cached counts at once (by the
// event's published terms before and after the write), so in one process the
// counts stay exact. What the cache cannot see — writes by other processes
// sharing the store, scheduled events passing their publication date — shows
// after at most twice the TTL: a count older than the TTL is still served
// while one background recount runs (so that a busy server never has every
// request recount at once when an entry expires), and readers wait only for
// a count older than twice the TTL or never made — one shared recount per
// term however many readers ask.
type termCounts struct {
	mu      sync.Mutex
	ttl     time.Duration
	m       map[int64]countEntry
	flights map[int64]*countFlight
	gen     uint64 // bumped by every adjustment: a recount begun before it is not cached
}

type countEntry struct {
	n  int
	at time.Time
}

// countFlight is one recount in progress, of one or several terms; done
// closes when n and err are set.
type countFlight struct {
	done chan struct{}
	n    map[int64]int
	err  error
}

// getMany returns the counts of ids at now, from the cache or by recount
// (which must count at now and return every id it is given). The ids no
// recount in flight covers are recounted together, in one call, so a page
// of terms costs one grouped count however many of them expired.
func (tc *termCounts) getMany(ctx context.Context, ids []int64, now time.Time, recount func(context.Context, []int64) (map[int64]int, error)) (map[int64]int, error) {
	if tc.ttl <= 0 {
		return recount(ctx, uniqueIDs(ids))
	}
	out := make(map[int64]int, len(ids))
	waits := map[int64]*countFlight{} // id → the recount its reader waits for (nil: the one started below)
	var start []int64
	tc.mu.Lock()
	for _, id := range ids {
		if _, done := out[id]; done {
			continue
		}
		if _, done := waits[id]; done {
			continue
		}
		e, ok := tc.m[id]
		age := now.Sub(e.at)
		if ok && age > -tc.ttl && age < tc.ttl {
			out[id] = e.n
			continue
		}
		f := tc.flights[id]
		if f == nil {
			start = append(start, id)
		}
		if ok && age >= 0 && age < 2*tc.ttl { // stale but recent: serve it, the recount runs on
			out[id] = e.n
			continue
		}
		waits[id] = f
	}
	if len(start) > 0 {
		f := tc.start(ctx, start, now, recount)
		for id, w := range waits {
			if w == nil {
				waits[id] = f
			}
		}
	}
	tc.mu.Unlock()
	for id, f := range waits {
		select {
		case <-f.done:
			if f.err != nil {
				return nil, f.err
			}
			out[id] = f.n[id]
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return out, nil
}

// start runs one recount of ids at now in the background; the caller holds
// tc.mu. It is detached from ctx (values kept, cancellation not) because
// readers other than the one that started it may be waiting for it.
func (tc *termCounts) start(ctx context.Context, ids []int64, now time.Time, recount func(context.Context, []int64) (map[int64]int, error)) *countFlight {
	f := &countFlight{done: make(chan struct{})}
	if tc.flights == nil {
		tc.flights = map[int64]*countFlight{}
	}
	for _, id := range ids {
		tc.flights[id] = f
	}
	gen := tc.gen
	go func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), termCountRefreshTimeout)
		defer cancel()
		f.n, f.err = recount(rctx, ids)
		tc.mu.Lock()
		for _, id := range ids {
			delete(tc.flights, id)
		}
		if f.err == nil && tc.gen == gen {
			if tc.m == nil {
				tc.m = map[int64]countEntry{}
			}
			for _, id := range ids {
				tc.m[id] = countEntry{n: f.n[id], at: now}
			}
		}
		tc.mu.Unlock()
		close(f.done)
	}()
	return f
}

// forget drops a term's count (the term is gone).
func (tc *termCounts) forget(id int64) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	tc.gen++
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
		if d == 0 {
			continue
		}
		// A recount in flight may or may not have seen this write: it
		// must not replace the adjusted entry.
		tc.gen++
		if e, ok := tc.m[id]; ok {
			e.n += d
			tc.m[id] = e
		}
	}
}
