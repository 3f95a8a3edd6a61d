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
	tree   sumTree                  // the sums summed over runs of blocks
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
		l.tree.sub(b, l.blocks[b][i])
		l.sums[b].add(p)
		l.tree.add(b, p)
		l.blocks[b][i] = p
		return
	}
	l.n++
	if b == len(l.blocks) { // after the last entry
		if b == 0 {
			l.blocks = append(l.blocks, []*calendar.PostRecord{p})
			l.sums = append(l.sums, summarize(l.blocks[0]))
			l.tree.rebuild(l.sums)
			return
		}
		b--
		i = len(l.blocks[b])
	}
	blk := slices.Insert(l.blocks[b], i, p)
	if len(blk) <= blockMax {
		l.blocks[b] = blk
		l.sums[b].add(p)
		l.tree.add(b, p)
		return
	}
	// Split: the first half keeps the array (and its spare room), the
	// second gets a copy, so growing one never overwrites the other.
	half := len(blk) / 2
	l.blocks[b] = blk[:half]
	l.blocks = slices.Insert(l.blocks, b+1, slices.Clone(blk[half:]))
	l.sums[b] = summarize(l.blocks[b])
	l.sums = slices.Insert(l.sums, b+1, summarize(l.blocks[b+1]))
	l.tree.rebuild(l.sums)
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
		l.tree.rebuild(l.sums)
		return
	}
	l.sums[b].sub(l.blocks[b][i])
	l.tree.sub(b, l.blocks[b][i])
	l.blocks[b] = slices.Delete(l.blocks[b], i, i+1)
}

// all returns every entry as a sequence of in-order parts.
func (l *postList) all() [][]*calendar.PostRecord { return l.blocks }

// span is a run of a postList's entries: from block b0, index i0 up to
// (not including) block b1, index i1. It is read part by part (see parts)
// rather than cut into a slice of parts, which would cost one part per
// block of the run whatever the page needs.
type span struct {
	l              *postList
	b0, i0, b1, i1 int
}

// size returns how many entries s holds: O(log blocks).
func (s span) size() int { return max(s.l.pos(s.b1, s.i1)-s.l.pos(s.b0, s.i0), 0) }

// pos returns the rank in l of the entry at block b, index i.
func (l *postList) pos(b, i int) int {
	if b >= len(l.blocks) {
		return l.n
	}
	return l.tree.entriesBefore(b) + i
}

// parts yields s's entries as in-order parts, until yield returns false.
func (s span) parts(yield func([]*calendar.PostRecord) bool) {
	for b := s.b0; b <= s.b1 && b < len(s.l.blocks); b++ {
		lo, hi := 0, len(s.l.blocks[b])
		if b == s.b0 {
			lo = s.i0
		}
		if b == s.b1 {
			hi = s.i1
		}
		if hi > lo && !yield(s.l.blocks[b][lo:hi]) {
			return
		}
	}
}

// startRange returns the span of the events whose Start lies in r. Only
// meaningful on event lists, ordered by Start first.
func (l *postList) startRange(r calendar.TimeRange) span {
	s := span{l: l, b1: len(l.blocks)}
	if !r.From.IsZero() {
		s.b0, s.i0 = l.lowerBound(startAfter(r.From, !r.FromExclusive))
	}
	if !r.To.IsZero() {
		s.b1, s.i1 = l.lowerBound(startAfter(r.To, r.ToExclusive))
	}
	return s
}

// count returns how many entries with Start in r match q (an event query
// whose every other restriction count can answer; see countable). The
// blocks wholly inside r are counted from the sum tree (see sumTree), the
// two cut at r's ends and any block its summary cannot decide are scanned:
// the cost is O(log blocks) plus those scans, not the matches or the blocks.
func (l *postList) count(r calendar.TimeRange, q *calendar.PostQuery) int {
	s := l.startRange(r)
	if s.b0 >= len(l.blocks) || s.b0 > s.b1 {
		return 0
	}
	m := maskFor(q)
	if s.b0 == s.b1 {
		if s.i1 <= s.i0 {
			return 0
		}
		return l.cutCount(s.b0, s.i0, s.i1, q, m)
	}
	total := 0
	// Whole blocks from lo up to hi; the cut ones are scanned.
	lo, hi := s.b0, s.b1
	if s.i0 > 0 {
		total += l.cutCount(s.b0, s.i0, len(l.blocks[s.b0]), q, m)
		lo++
	}
	if s.b1 < len(l.blocks) {
		total += l.cutCount(s.b1, 0, s.i1, q, m)
	}
	if lo < hi {
		total += l.countBlocks(1, 0, l.tree.leaves, lo, hi, q, m)
	}
	return total
}

// countBlocks returns how many entries of the whole blocks lo..hi-1 that
// lie under tree node k (covering blocks nlo..nhi-1) match q.
func (l *postList) countBlocks(k, nlo, nhi, lo, hi int, q *calendar.PostQuery, m *countMask) int {
	node := &l.tree.nodes[k]
	if nhi <= lo || hi <= nlo || node.entries == 0 {
		return 0
	}
	if lo <= nlo && nhi <= hi {
		if k >= l.tree.leaves { // one block: its summary has the per-author counts
			b := k - l.tree.leaves
			if n, ok := l.sums[b].count(q, m); ok {
				return n
			}
			return scanCount(l.blocks[b], q)
		}
		if w, ok := node.reads(q); ok {
			if w < 0 {
				return 0
			}
			if !m.ownable(node, w) {
				return m.public(node, w)
			}
		}
	}
	mid := (nlo + nhi) / 2
	return l.countBlocks(2*k, nlo, mid, lo, hi, q, m) + l.countBlocks(2*k+1, mid, nhi, lo, hi, q, m)
}

// cutCount returns how many entries lo..hi-1 of block b (those with Start
// in q's window) match q. When they are most of the block and its summary
// decides q, the block's count less the matches among the others is read
// instead: at most half a block is scanned.
func (l *postList) cutCount(b, lo, hi int, q *calendar.PostQuery, m *countMask) int {
	blk := l.blocks[b]
	if hi <= lo {
		return 0
	}
	if 2*(hi-lo) <= len(blk) {
		return scanCount(blk[lo:hi], q)
	}
	n, ok := l.sums[b].count(q, m)
	if !ok {
		return scanCount(blk[lo:hi], q)
	}
	// The others lie outside q's Start window: count them as the summary
	// did, whatever their Start.
	rest := *q
	rest.Start = calendar.TimeRange{}
	return n - scanCount(blk[:lo], &rest) - scanCount(blk[hi:], &rest)
}

// scanCount returns how many of ps match q, visiting each.
func scanCount(ps []*calendar.PostRecord, q *calendar.PostQuery) int {
	n := 0
	for _, p := range ps {
		if storage.MatchPost(q, p) {
			n++
		}
	}
	return n
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
