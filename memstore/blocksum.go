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
type blockSum struct {
	minEnd, maxEnd time.Time
	futures        int
	minFut, maxFut time.Time
	byStatus       map[statusKey]int
	byAuthor       map[authorKey]int
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

// summarize computes the summary of a block; O(len(blk)), paid when a
// block splits. Other writes adjust it entry by entry (add, sub).
func summarize(blk []*calendar.PostRecord) *blockSum {
	sum := &blockSum{byStatus: map[statusKey]int{}, byAuthor: map[authorKey]int{}}
	for _, p := range blk {
		sum.add(p)
	}
	return sum
}

// add counts p in. The spans only ever widen: a span wider than its
// entries' makes count scan a block it could have decided, never miscount.
func (sum *blockSum) add(p *calendar.PostRecord) {
	if sum.byStatus == nil {
		sum.byStatus, sum.byAuthor = map[statusKey]int{}, map[authorKey]int{}
	}
	if len(sum.byStatus) == 0 || p.End.Before(sum.minEnd) {
		sum.minEnd = p.End
	}
	if len(sum.byStatus) == 0 || p.End.After(sum.maxEnd) {
		sum.maxEnd = p.End
	}
	if p.Status == calendar.StatusFuture {
		if sum.futures == 0 || p.Date.Before(sum.minFut) {
			sum.minFut = p.Date
		}
		if sum.futures == 0 || p.Date.After(sum.maxFut) {
			sum.maxFut = p.Date
		}
		sum.futures++
	}
	k := statusKey{p.Status, p.HideFromListings, len(p.Recurrence) > 0}
	sum.byStatus[k]++
	sum.byAuthor[authorKey{k, p.Author}]++
}

// sub counts p out (p as it was added).
func (sum *blockSum) sub(p *calendar.PostRecord) {
	if p.Status == calendar.StatusFuture {
		sum.futures-- // at 0 the next add resets the span
	}
	k := statusKey{p.Status, p.HideFromListings, len(p.Recurrence) > 0}
	if sum.byStatus[k]--; sum.byStatus[k] == 0 {
		delete(sum.byStatus, k)
	}
	ak := authorKey{k, p.Author}
	if sum.byAuthor[ak]--; sum.byAuthor[ak] == 0 {
		delete(sum.byAuthor, ak)
	}
}

// count returns how many entries of the block match q, given that every
// entry's Start lies in q's Start window and q restricts nothing else that
// the summary does not know (see countable); ok is false when the summary
// cannot tell and the block must be scanned.
func (sum *blockSum) count(q *calendar.PostQuery) (n int, ok bool) {
	switch {
	case outside(sum.maxEnd, sum.minEnd, q.End):
		return 0, true
	case !q.End.Contains(sum.minEnd) || !q.End.Contains(sum.maxEnd):
		return 0, false // some inside, some maybe not
	}
	// Scheduled posts read as published once their date has passed.
	future := calendar.StatusFuture
	if sum.futures > 0 {
		switch {
		case !sum.maxFut.After(q.Now):
			future = calendar.StatusPublish
		case sum.minFut.After(q.Now):
		default:
			return 0, false
		}
	}
	effective := func(st calendar.Status) calendar.Status {
		if st == calendar.StatusFuture {
			return future
		}
		return st
	}
	v := q.Visible
	left := func(k statusKey) bool {
		return q.ExcludeHidden && k.hidden || q.Series == calendar.SeriesHideTemplates && k.template
	}
	for k, c := range sum.byStatus {
		if left(k) {
			continue
		}
		if v.IsZero() || slices.Contains(v.Statuses, effective(k.st)) {
			n += c
		}
	}
	if v.IsZero() || v.Owner == 0 {
		return n, true
	}
	for k := range sum.byStatus {
		if e := effective(k.st); !slices.Contains(v.Statuses, e) && slices.Contains(v.OwnStatuses, e) && !left(k) {
			n += sum.byAuthor[authorKey{k, v.Owner}]
		}
	}
	return n, true
}

// outside reports whether no instant of [lo, hi] (hi ≥ lo) lies in r.
func outside(hi, lo time.Time, r calendar.TimeRange) bool {
	if !r.From.IsZero() && (hi.Before(r.From) || r.FromExclusive && hi.Equal(r.From)) {
		return true
	}
	return !r.To.IsZero() && (lo.After(r.To) || r.ToExclusive && lo.Equal(r.To))
}
