package calendar

import (
	"context"
	"fmt"
	"time"
)

// LinkCountQuery asks how many events link to each of a set of venues,
// organizers, categories or tags. Venue lists filtered by has_events or
// only_with_upcoming, and term counts, need one number per record of a
// whole list; asking for them together lets a driver answer in one pass
// over its link index (and on Redis in a bounded number of round trips)
// instead of one query per record.
//
// What is counted for one id is defined by Events: the total of that event
// query. A category counts only the events filed under it, not those of
// its descendant categories (a term's count is its own use, as in
// WordPress).
type LinkCountQuery struct {
	// Link is the kind of the linked records: KindVenue, KindOrganizer,
	// KindCategory or KindTag.
	Link Kind
	// IDs are the linked records to count for; repeats are counted once.
	IDs []int64
	// Now decides effective statuses and, with Upcoming, which events ended.
	Now time.Time
	// Visible restricts the counted events by status, as in PostQuery.
	Visible Visibility
	// Upcoming counts only events that have not ended: End at or after Now.
	Upcoming bool
	// Series restricts series records and their occurrences, as in PostQuery.
	Series StoredSeries
}

// Events returns the event query whose total is the count for id: the one
// definition of what CountLinks counts.
func (q *LinkCountQuery) Events(id int64) *PostQuery {
	pq := &PostQuery{Kind: KindEvent, Now: q.Now, Visible: q.Visible, Series: q.Series, CountOnly: true}
	if q.Upcoming {
		pq.End = TimeRange{From: q.Now}
	}
	ids := []int64{id}
	switch q.Link {
	case KindVenue:
		pq.VenueIDs = ids
	case KindOrganizer:
		pq.OrganizerIDs = ids
	case KindCategory:
		pq.CategoryIDs = ids
	case KindTag:
		pq.TagIDs = ids
	}
	return pq
}

// Check reports a query no driver can answer: a Link kind events do not
// link to, or an id that cannot exist.
func (q *LinkCountQuery) Check() error {
	switch q.Link {
	case KindVenue, KindOrganizer, KindCategory, KindTag:
	default:
		return fmt.Errorf("link count: Link %v is not a kind events link to: %w", q.Link, ErrInvalid)
	}
	for _, id := range q.IDs {
		if id <= 0 {
			return fmt.Errorf("link count: id %d is not a record id: %w", id, ErrInvalid)
		}
	}
	return nil
}

// LinkCounter is an optional Repository extension: grouped counts of the
// events linked to a set of records in one call. The map holds every id
// asked (zero when nothing matches); each count equals the Total of
// ListPosts(q.Events(id)). A driver without it is answered by CountLinks
// with one count query per id.
type LinkCounter interface {
	CountLinks(ctx context.Context, q *LinkCountQuery) (map[int64]int, error)
}

// CountLinks answers q on repo: through the driver's LinkCounter when it has
// one, else with one count query per distinct id.
func CountLinks(ctx context.Context, repo Repository, q *LinkCountQuery) (map[int64]int, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	if len(q.IDs) == 0 {
		return map[int64]int{}, ctx.Err()
	}
	if lc, ok := repo.(LinkCounter); ok {
		return lc.CountLinks(ctx, q)
	}
	out := make(map[int64]int, len(q.IDs))
	for _, id := range q.IDs {
		if _, done := out[id]; done {
			continue
		}
		page, err := repo.ListPosts(ctx, q.Events(id))
		if err != nil {
			return nil, err
		}
		out[id] = page.Total
	}
	return out, nil
}

// publishedOnly is the visibility of a term count: published events only,
// whoever asks (wire: "published events using it").
var publishedOnly = Visibility{Statuses: []Status{StatusPublish}}

// countTerms makes sure r knows the count of every term of ts: those neither
// known to r nor fresh in the Service's cache are counted together, one
// grouped count per taxonomy.
func (r *render) countTerms(ts []*TermRecord) error {
	tax := make(map[int64]Taxonomy, len(ts))
	var ids []int64
	for _, t := range ts {
		if t == nil {
			continue
		}
		if _, known := r.count[t.ID]; known {
			continue
		}
		if _, dup := tax[t.ID]; !dup {
			tax[t.ID] = t.Taxonomy
			ids = append(ids, t.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	got, err := r.s.counts.getMany(r.ctx, ids, r.now, func(ctx context.Context, ids []int64) (map[int64]int, error) {
		byTax := map[Taxonomy][]int64{}
		for _, id := range ids {
			byTax[tax[id]] = append(byTax[tax[id]], id)
		}
		out := make(map[int64]int, len(ids))
		for tx, ids := range byTax {
			n, err := CountLinks(ctx, r.s.repo, &LinkCountQuery{Link: tx.Kind(), IDs: ids, Now: r.now, Visible: publishedOnly})
			if err != nil {
				return nil, r.s.storageErr(ctx, "count term use", err)
			}
			for id, c := range n {
				out[id] = c
			}
		}
		return out, nil
	})
	if err != nil {
		return err
	}
	for id, n := range got {
		r.count[id] = n
	}
	return nil
}
