package memstore

import (
	"context"
	"iter"
	"slices"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// ctxEvery is how many candidates ListPosts confirms between context checks.
const ctxEvery = 1024

// listPosts answers q from the narrowest index (see plan), confirms every
// candidate with storage.MatchPost and returns the page q asks for, the
// stored records themselves, with the exact total.
func (s *Store) listPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if q == nil {
		return nil, errInvalid("list posts: nil query")
	}
	// Matches past the page are only counted: keep is how many of the
	// first matches storage.Window may need (all of them without a Limit).
	keep := -1
	if q.CountOnly {
		keep = 0
	} else if q.Limit > 0 {
		keep = max(q.Offset, 0) + q.Limit
	}
	s.mu.RLock()
	// A countable query's total comes from the index summaries: only the
	// matches the page needs are visited.
	counted, total := s.countable(q)
	if counted && keep < 0 {
		keep = total
	}
	var matches []*calendar.PostRecord
	found, seen := 0, 0
walk:
	for part := range s.plan(q) {
		for _, p := range part {
			if counted && found >= keep {
				break walk
			}
			if seen++; seen%ctxEvery == 0 {
				if err := checkCtx(ctx); err != nil {
					s.mu.RUnlock()
					return nil, err
				}
			}
			if storage.MatchPost(q, p) {
				if keep < 0 || found < keep {
					matches = append(matches, p)
				}
				found++
			}
		}
	}
	s.mu.RUnlock()
	if !counted {
		total = found
	}
	page := storage.Window(matches, q)
	out := &calendar.PostPage{Total: total, Records: make([]*calendar.PostRecord, len(page))}
	copy(out.Records, page)
	return out, nil
}

// countable reports whether q's total can come from summaries (see
// postList.count), and then the total. It can when q is an event query
// restricted, beyond visibility, hidden events, series records and the two time windows, by
// at most one venue, organizer, category or tag: then one index list holds
// exactly the candidates. Anything else (id sets, search, names, featured,
// parent, excluded venues, several links) is counted by visiting the
// candidates. The caller holds the read lock.
func (s *Store) countable(q *calendar.PostQuery) (bool, int) {
	if q.Kind != calendar.KindEvent || len(q.IDs) > 0 || len(q.ExcludeIDs) > 0 || len(q.NotVenueIDs) > 0 ||
		q.Featured != nil || q.PostParent != 0 || len(q.Search) > 0 || q.Name != "" ||
		q.Series != calendar.SeriesAny && q.Series != calendar.SeriesHideTemplates {
		return false, 0
	}
	list := s.byKind[calendar.KindEvent]
	links := 0
	for _, l := range [...]struct {
		kind calendar.Kind
		ids  []int64
	}{{calendar.KindVenue, q.VenueIDs}, {calendar.KindOrganizer, q.OrganizerIDs},
		{calendar.KindCategory, q.CategoryIDs}, {calendar.KindTag, q.TagIDs}} {
		if len(l.ids) == 0 {
			continue
		}
		if links++; links > 1 || len(distinct(l.ids)) > 1 {
			return false, 0
		}
		list = s.links[l.kind][l.ids[0]]
	}
	win := s.startWindow(q)
	if list == nil || win.Empty() || q.Start.Empty() || q.End.Empty() {
		return true, 0
	}
	return true, list.count(win, q)
}

// plan returns the candidates for q, a superset of the matches in list
// order, as parts to read one after the other. The caller holds the read
// lock and must not keep the parts beyond it (they alias the indexes).
//
// The ways in, narrowest chosen: the asked ids; for events, each restricted
// link (venue, organizer, category, tag, parent), the union of its lists;
// and the per-kind list. Every event list is ordered by Start first, so each
// is cut to the Start window by binary search and sized from its sum tree
// before any is read: choosing costs O(log n) per list, and reading only
// the parts the caller takes. A way in made of one list is already in
// order; unions and id lists are sorted.
func (s *Store) plan(q *calendar.PostQuery) iter.Seq[[]*calendar.PostRecord] {
	one := func(ps []*calendar.PostRecord) iter.Seq[[]*calendar.PostRecord] {
		return func(yield func([]*calendar.PostRecord) bool) { yield(ps) }
	}
	all := s.byKind[q.Kind]
	if all == nil { // not a post kind
		return func(func([]*calendar.PostRecord) bool) {}
	}
	if q.Kind != calendar.KindEvent {
		if q.Name != "" { // the name index: usually one or two records
			return one(s.byIDs(q.Kind, s.postNames[q.Kind][calendar.NameKey(q.Name)]))
		}
		if len(q.IDs) > 0 && len(q.IDs) < all.n {
			return one(s.byIDs(q.Kind, q.IDs))
		}
		return slices.Values(all.all())
	}

	win := s.startWindow(q)
	if win.Empty() {
		return func(func([]*calendar.PostRecord) bool) {}
	}
	whole := all.startRange(win)
	best, bestSize := []span{whole}, whole.size()
	consider := func(lists map[int64]*postList, ids []int64) {
		var spans []span
		size := 0
		for _, id := range distinct(ids) {
			if l := lists[id]; l != nil {
				sp := l.startRange(win)
				if n := sp.size(); n > 0 {
					spans = append(spans, sp)
					size += n
				}
			}
		}
		if size < bestSize {
			best, bestSize = spans, size
		}
	}
	if len(q.VenueIDs) > 0 {
		consider(s.links[calendar.KindVenue], q.VenueIDs)
	}
	if len(q.OrganizerIDs) > 0 {
		consider(s.links[calendar.KindOrganizer], q.OrganizerIDs)
	}
	if len(q.CategoryIDs) > 0 {
		consider(s.links[calendar.KindCategory], q.CategoryIDs)
	}
	if len(q.TagIDs) > 0 {
		consider(s.links[calendar.KindTag], q.TagIDs)
	}
	if q.PostParent != 0 {
		consider(s.children, []int64{q.PostParent})
	}
	if len(q.IDs) > 0 && len(q.IDs) < bestSize {
		return one(s.byIDs(q.Kind, q.IDs))
	}
	switch len(best) {
	case 0:
		return func(func([]*calendar.PostRecord) bool) {}
	case 1:
		return best[0].parts
	}
	// Several lists: sort and dedupe.
	merged := make([]*calendar.PostRecord, 0, bestSize)
	for _, sp := range best {
		sp.parts(func(part []*calendar.PostRecord) bool {
			merged = append(merged, part...)
			return true
		})
	}
	slices.SortFunc(merged, storage.ComparePosts)
	// An event in two of the asked lists appears twice, side by side.
	return one(slices.Compact(merged))
}

// byIDs returns the stored posts of kind among ids, each once, in list order.
func (s *Store) byIDs(kind calendar.Kind, ids []int64) []*calendar.PostRecord {
	out := make([]*calendar.PostRecord, 0, len(ids))
	for _, id := range distinct(ids) {
		if p := s.posts[id]; p != nil && p.Kind == kind {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, storage.ComparePosts)
	return out
}

// startWindow returns the Start instants an event matching q can have: q.Start,
// narrowed by q.End. An event ending at or after End.From started at or
// after End.From-maxSpan; when every event ends at or after its start, one
// ending by End.To also started by End.To.
func (s *Store) startWindow(q *calendar.PostQuery) calendar.TimeRange {
	win := q.Start
	if from := q.End.From; !from.IsZero() {
		if lower := from.Add(-s.maxSpan); win.From.IsZero() || lower.After(win.From) {
			win.From, win.FromExclusive = lower, false
		}
	}
	if to := q.End.To; !to.IsZero() && s.oddEnds == 0 {
		if win.To.IsZero() || to.Before(win.To) {
			win.To, win.ToExclusive = to, q.End.ToExclusive
		}
	}
	return win
}
