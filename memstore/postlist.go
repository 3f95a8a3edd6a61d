package memstore

import (
	"slices"
	"sort"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// blockMax is the most entries a postList block holds before it splits.
// Small enough that an insert moves a few KiB, large enough that the block
// directory stays short (200 blocks for 100,000 events). A variable only so
// that tests can make blocks tiny.
var blockMax = 512

// postList holds posts of one kind sorted by storage.ComparePosts (events by
// Start then ID, venues and organizers by Date descending then ID
// descending). It backs the per-kind index and every reverse link index, so a
// list read from any of them comes out already in list order.
//
// It is a sorted slice cut into blocks: lookups and range cuts are two binary
// searches, iteration walks slices, and an insert or delete moves at most one
// block. A single sorted slice was measured first: at 100,000 events its
// memmove made Create and Update cost 80–115µs, three times the 10,000-event
// figure.
type postList struct {
	blocks [][]*calendar.PostRecord // each non-empty and sorted; concatenated, sorted
	sums   []*blockSum              // one per block: what counting needs (see count)
	n      int
}

// lowerBound returns the position of the first entry for which after is
// true; after must be false then true along the list.
func (l *postList) lowerBound(after func(*calendar.PostRecord) bool) (b, i int) {
	b = sort.Search(len(l.blocks), func(b int) bool {
		blk := l.blocks[b]
		return after(blk[len(blk)-1])
	})
	if b == len(l.blocks) {
		return b, 0
	}
	blk := l.blocks[b]
	return b, sort.Search(len(blk), func(i int) bool { return after(blk[i]) })
}

// find returns the position of p's sort key and whether an entry of p's id is there.
func (l *postList) find(p *calendar.PostRecord) (b, i int, found bool) {
	b, i = l.lowerBound(func(q *calendar.PostRecord) bool { return storage.ComparePosts(q, p) >= 0 })
	found = b < len(l.blocks) && l.blocks[b][i].ID == p.ID
	return b, i, found
}

// insert adds p, or replaces the entry with p's sort key and id.
func (l *postList) insert(p *calendar.PostRecord) {
	b, i, found := l.find(p)
	if found {
		l.sums[b].sub(l.blocks[b][i])
		l.sums[b].add(p)
		l.blocks[b][i] = p
		return
	}
	l.n++
	if b == len(l.blocks) { // after the last entry
		if b == 0 {
			l.blocks = append(l.blocks, []*calendar.PostRecord{p})
			l.sums = append(l.sums, summarize(l.blocks[0]))
			return
		}
		b--
		i = len(l.blocks[b])
	}
	blk := slices.Insert(l.blocks[b], i, p)
	if len(blk) <= blockMax {
		l.blocks[b] = blk
		l.sums[b].add(p)
		return
	}
	// Split: the first half keeps the array (and its spare room), the
	// second gets a copy, so growing one never overwrites the other.
	half := len(blk) / 2
	l.blocks[b] = blk[:half]
	l.blocks = slices.Insert(l.blocks, b+1, slices.Clone(blk[half:]))
	l.sums[b] = summarize(l.blocks[b])
	l.sums = slices.Insert(l.sums, b+1, summarize(l.blocks[b+1]))
}

// remove deletes the entry of p, located by p's sort key; p must carry the
// key the entry was inserted with (the stored record, not an update).
func (l *postList) remove(p *calendar.PostRecord) {
	b, i, found := l.find(p)
	if !found {
		return
	}
	l.n--
	if len(l.blocks[b]) == 1 {
		l.blocks = slices.Delete(l.blocks, b, b+1)
		l.sums = slices.Delete(l.sums, b, b+1)
		return
	}
	l.sums[b].sub(l.blocks[b][i])
	l.blocks[b] = slices.Delete(l.blocks[b], i, i+1)
}

// all returns every entry as a sequence of in-order parts.
func (l *postList) all() [][]*calendar.PostRecord { return l.blocks }

// startRange returns, as in-order parts, the events whose Start lies in r,
// and their number. Only meaningful on event lists, ordered by Start first.
func (l *postList) startRange(r calendar.TimeRange) (parts [][]*calendar.PostRecord, n int) {
	if r.From.IsZero() && r.To.IsZero() {
		return l.blocks, l.n
	}
	b0, i0 := 0, 0
	if !r.From.IsZero() {
		b0, i0 = l.lowerBound(startAfter(r.From, !r.FromExclusive))
	}
	b1, i1 := len(l.blocks), 0
	if !r.To.IsZero() {
		b1, i1 = l.lowerBound(startAfter(r.To, r.ToExclusive))
	}
	for b := b0; b <= b1 && b < len(l.blocks); b++ {
		lo, hi := 0, len(l.blocks[b])
		if b == b0 {
			lo = i0
		}
		if b == b1 {
			hi = i1
		}
		if hi > lo {
			parts = append(parts, l.blocks[b][lo:hi])
			n += hi - lo
		}
	}
	return parts, n
}

// count returns how many entries with Start in r match q (an event query
// whose every other restriction count can answer; see countable). Whole
// blocks are counted from their summaries, so the cost is that of the
// blocks in r plus a scan of the few blocks a summary cannot decide (the
// two cut at r's ends, those straddling q's End bounds or holding scheduled
// posts that q.Now publishes only in part), not of the matches.
func (l *postList) count(r calendar.TimeRange, q *calendar.PostQuery) int {
	b0, i0 := 0, 0
	if !r.From.IsZero() {
		b0, i0 = l.lowerBound(startAfter(r.From, !r.FromExclusive))
	}
	b1, i1 := len(l.blocks), 0
	if !r.To.IsZero() {
		b1, i1 = l.lowerBound(startAfter(r.To, r.ToExclusive))
	}
	total := 0
	m := maskFor(q)
	for b := b0; b <= b1 && b < len(l.blocks); b++ {
		blk := l.blocks[b]
		lo, hi := 0, len(blk)
		if b == b0 {
			lo = i0
		}
		if b == b1 {
			hi = i1
		}
		if hi <= lo {
			continue
		}
		if lo == 0 && hi == len(blk) {
			if n, ok := l.sums[b].count(q, m); ok {
				total += n
				continue
			}
		}
		for _, p := range blk[lo:hi] {
			if storage.MatchPost(q, p) {
				total++
			}
		}
	}
	return total
}

// startAfter returns the predicate "Start is after t" (orEqual: or at t).
func startAfter(t time.Time, orEqual bool) func(*calendar.PostRecord) bool {
	if orEqual {
		return func(p *calendar.PostRecord) bool { return !p.Start.Before(t) }
	}
	return func(p *calendar.PostRecord) bool { return p.Start.After(t) }
}

// records returns a copy of every entry in order, for callers that edit the
// list while walking it.
func (l *postList) records() []*calendar.PostRecord {
	out := make([]*calendar.PostRecord, 0, l.n)
	for _, blk := range l.blocks {
		out = append(out, blk...)
	}
	return out
}
