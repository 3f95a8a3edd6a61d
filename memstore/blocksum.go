package memstore

import (
	"slices"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// blockSum is what counting needs of one postList block: how many entries
// of each stored status and hidden flag (in all and per author, for the
// caller's own posts), the span of their End instants and of the
// publication dates of scheduled (future) ones. A query's total is then
// exact without visiting every entry: the status counts answer every
// visibility (the statuses anyone may read, plus the caller's own statuses
// for the caller's posts), and the spans tell when a whole block lies
// inside (or outside) the End bounds and which side of Now its scheduled
// posts are.
//
// The counts per status are a small array rather than a map: a list at
// 100,000 events sums a few hundred blocks per request, and ranging over
// maps with a status lookup per key was most of what its total cost.
type blockSum struct {
	minEnd, maxEnd time.Time
	entries        int
	futures        int
	minFut, maxFut time.Time
	byStatus       [nStatusKeys]int
	// odd counts entries of a status the array has no slot for (none is
	// ever stored; if one were, the block is scanned instead of counted).
	odd      int
	byAuthor map[authorKey]int
}

type statusKey struct {
	st     calendar.Status
	hidden bool
	// template marks series records, which event lists leave out
	// (calendar.SeriesHideTemplates) while their occurrences are counted.
	template bool
}

type authorKey struct {
	statusKey
	author int64
}

// keyStatuses are the statuses with a slot in blockSum.byStatus.
var keyStatuses = [...]calendar.Status{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusDraft,
	calendar.StatusPending, calendar.StatusPrivate, calendar.StatusTrash}

const nStatusKeys = len(keyStatuses) * 4

// slot is k's index in blockSum.byStatus, or -1 for a status without one.
func (k statusKey) slot() int {
	i := slices.Index(keyStatuses[:], k.st)
	if i < 0 {
		return -1
	}
	i *= 4
	if k.hidden {
		i += 2
	}
	if k.template {
		i++
	}
	return i
}

// keyOfSlot is the statusKey of slot i.
func keyOfSlot(i int) statusKey {
	return statusKey{st: keyStatuses[i/4], hidden: i&2 != 0, template: i&1 != 0}
}

// summarize computes the summary of a block; O(len(blk)), paid when a
// block splits. Other writes adjust it entry by entry (add, sub).
func summarize(blk []*calendar.PostRecord) *blockSum {
	sum := &blockSum{byAuthor: map[authorKey]int{}}
	for _, p := range blk {
		sum.add(p)
	}
	return sum
}

func keyOf(p *calendar.PostRecord) statusKey {
	return statusKey{p.Status, p.HideFromListings, len(p.Recurrence) > 0}
}

// add counts p in. The spans only ever widen: a span wider than its
// entries' makes count scan a block it could have decided, never miscount.
func (sum *blockSum) add(p *calendar.PostRecord) {
	sum.addCounts(p)
	if sum.byAuthor == nil {
		sum.byAuthor = map[authorKey]int{}
	}
	sum.byAuthor[authorKey{keyOf(p), p.Author}]++
}

// sub counts p out (p as it was added).
func (sum *blockSum) sub(p *calendar.PostRecord) {
	sum.subCounts(p)
	ak := authorKey{keyOf(p), p.Author}
	if sum.byAuthor[ak]--; sum.byAuthor[ak] == 0 {
		delete(sum.byAuthor, ak)
	}
}

// addCounts is add without the per-author counts (what sumTree nodes keep).
func (sum *blockSum) addCounts(p *calendar.PostRecord) {
	if sum.entries == 0 || p.End.Before(sum.minEnd) {
		sum.minEnd = p.End
	}
	if sum.entries == 0 || p.End.After(sum.maxEnd) {
		sum.maxEnd = p.End
	}
	sum.entries++
	if p.Status == calendar.StatusFuture {
		if sum.futures == 0 || p.Date.Before(sum.minFut) {
			sum.minFut = p.Date
		}
		if sum.futures == 0 || p.Date.After(sum.maxFut) {
			sum.maxFut = p.Date
		}
		sum.futures++
	}
	if i := keyOf(p).slot(); i >= 0 {
		sum.byStatus[i]++
	} else {
		sum.odd++
	}
}

// subCounts is sub without the per-author counts.
func (sum *blockSum) subCounts(p *calendar.PostRecord) {
	sum.entries-- // at 0 the next add resets the spans
	if p.Status == calendar.StatusFuture {
		sum.futures--
	}
	if i := keyOf(p).slot(); i >= 0 {
		sum.byStatus[i]--
	} else {
		sum.odd--
	}
}

// countMask is what a query counts of a block's status slots, worked out
// once per query (see maskFor) rather than once per block: for each way
// the block's scheduled posts may read (still scheduled, or published since
// their date passed), the slots counted for everyone and the slots counted
// only for the caller's own posts.
type countMask struct {
	all, own [2][nStatusKeys]bool // index 0: future reads as future; 1: as publish
	owner    int64
}

// maskFor works out q's countMask.
func maskFor(q *calendar.PostQuery) *countMask {
	m := &countMask{}
	v := q.Visible
	if !v.IsZero() {
		m.owner = v.Owner
	}
	for i := range nStatusKeys {
		k := keyOfSlot(i)
		if q.ExcludeHidden && k.hidden || q.Series == calendar.SeriesHideTemplates && k.template {
			continue
		}
		for w, future := range [2]calendar.Status{calendar.StatusFuture, calendar.StatusPublish} {
			e := k.st
			if e == calendar.StatusFuture {
				e = future
			}
			switch {
			case v.IsZero() || slices.Contains(v.Statuses, e):
				m.all[w][i] = true
			case v.Owner != 0 && slices.Contains(v.OwnStatuses, e):
				m.own[w][i] = true
			}
		}
	}
	return m
}

// count returns how many entries of the block match q (whose mask is m),
// given that every entry's Start lies in q's Start window and q restricts
// nothing else that the summary does not know (see countable); ok is false
// when the summary cannot tell and the block must be scanned.
func (sum *blockSum) count(q *calendar.PostQuery, m *countMask) (n int, ok bool) {
	w, ok := sum.reads(q)
	switch {
	case !ok:
		return 0, false
	case w < 0:
		return 0, true
	}
	n = m.public(sum, w)
	if m.owner == 0 {
		return n, true
	}
	for i, c := range sum.byStatus {
		if c != 0 && m.own[w][i] {
			n += sum.byAuthor[authorKey{keyOfSlot(i), m.owner}]
		}
	}
	return n, true
}

// reads tells how the entries summed in sum read for q: ok is false when
// the spans cannot tell; w is -1 when none lies in q's End window, else
// every one does and w is the index of countMask's slots that applies (1
// when its scheduled posts read as published, their date passed by q.Now).
func (sum *blockSum) reads(q *calendar.PostQuery) (w int, ok bool) {
	switch {
	case sum.odd > 0:
		return 0, false
	case outside(sum.maxEnd, sum.minEnd, q.End):
		return -1, true
	case !q.End.Contains(sum.minEnd) || !q.End.Contains(sum.maxEnd):
		return 0, false // some inside, some maybe not
	}
	if sum.futures > 0 {
		switch {
		case !sum.maxFut.After(q.Now):
			return 1, true
		case sum.minFut.After(q.Now):
		default:
			return 0, false
		}
	}
	return 0, true
}

// public returns how many of sum's entries m counts for everyone.
func (m *countMask) public(sum *blockSum, w int) (n int) {
	for i, c := range sum.byStatus {
		if c != 0 && m.all[w][i] {
			n += c
		}
	}
	return n
}

// ownable reports whether m counts some of sum's entries for their author
// only, so that the per-author counts must be read.
func (m *countMask) ownable(sum *blockSum, w int) bool {
	if m.owner == 0 {
		return false
	}
	for i, c := range sum.byStatus {
		if c != 0 && m.own[w][i] {
			return true
		}
	}
	return false
}

// outside reports whether no instant of [lo, hi] (hi ≥ lo) lies in r.
func outside(hi, lo time.Time, r calendar.TimeRange) bool {
	if !r.From.IsZero() && (hi.Before(r.From) || r.FromExclusive && hi.Equal(r.From)) {
		return true
	}
	return !r.To.IsZero() && (lo.After(r.To) || r.ToExclusive && lo.Equal(r.To))
}
