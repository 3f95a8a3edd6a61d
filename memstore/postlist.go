package memstore

import (
	"slices"
	"sort"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// postList holds posts of one kind sorted by storage.ComparePosts (events by
// Start then ID, venues and organizers by Date descending then ID
// descending). It backs the per-kind index and every reverse link index, so a
// list answered from any of them comes out already in list order.
//
// A sorted slice was chosen over a tree: lookups and range cuts are binary
// searches, iteration is a plain slice walk, and the insert/delete memmove
// stays small next to the clone every write makes (see the Create benchmark).
type postList struct {
	recs []*calendar.PostRecord
}

// search returns the index of the first element not ordered before p.
func (l *postList) search(p *calendar.PostRecord) int {
	return sort.Search(len(l.recs), func(i int) bool { return storage.ComparePosts(l.recs[i], p) >= 0 })
}

func (l *postList) insert(p *calendar.PostRecord) {
	i := l.search(p)
	if i < len(l.recs) && l.recs[i].ID == p.ID {
		l.recs[i] = p
		return
	}
	l.recs = slices.Insert(l.recs, i, p)
}

// remove deletes the entry of p, located by p's sort key; p must carry the
// key the entry was inserted with (the stored record, not an update).
func (l *postList) remove(p *calendar.PostRecord) {
	i := l.search(p)
	if i < len(l.recs) && l.recs[i].ID == p.ID {
		l.recs = slices.Delete(l.recs, i, i+1)
	}
}

// startRange returns the bounds [lo, hi) of the events whose Start lies in r.
// Only meaningful on event lists, which are ordered by Start first.
func (l *postList) startRange(r calendar.TimeRange) (lo, hi int) {
	lo, hi = 0, len(l.recs)
	if !r.From.IsZero() {
		if r.FromExclusive {
			lo = sort.Search(len(l.recs), func(i int) bool { return l.recs[i].Start.After(r.From) })
		} else {
			lo = sort.Search(len(l.recs), func(i int) bool { return !l.recs[i].Start.Before(r.From) })
		}
	}
	if !r.To.IsZero() {
		if r.ToExclusive {
			hi = sort.Search(len(l.recs), func(i int) bool { return !l.recs[i].Start.Before(r.To) })
		} else {
			hi = sort.Search(len(l.recs), func(i int) bool { return l.recs[i].Start.After(r.To) })
		}
	}
	if hi < lo {
		hi = lo
	}
	return lo, hi
}
