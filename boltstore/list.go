package boltstore

import (
	"bytes"
	"context"
	"math"
	"slices"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// decodeCost is what reading one candidate by id costs (a lookup, a JSON
// decode and a sort slot) next to checking one post_order summary. The
// planner compares ways in by it; measured roughly, the exact value matters
// little.
const decodeCost = 16

// ctxEvery is how many cursor steps run between two context checks.
const ctxEvery = 64

// ListPosts answers q from the narrowest index range: the ids asked for, the
// smallest reverse link set, the featured set, the End range, the Start
// range, or the whole kind. Candidates are confirmed with storage.MatchPost,
// first on the index summary and, when q filters on links or text, on the
// decoded record; only the records of the page (and those full checks) are
// decoded. Walks of post_order come out in list order; the other ways in
// collect their matches and sort them.
func (s *Store) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	if q == nil || !q.Kind.IsPost() {
		return nil, errInvalid("list posts: not a post kind")
	}
	var page *calendar.PostPage
	err := s.view(ctx, func(tx *bolt.Tx) error {
		l := newLister(ctx, tx, q)
		var err error
		page, err = l.run()
		return err
	})
	if err != nil {
		return nil, err
	}
	return page, nil
}

// lister answers one query inside one read transaction.
type lister struct {
	ctx   context.Context
	tx    *bolt.Tx
	q     *calendar.PostQuery
	lite  calendar.PostQuery // q without the restrictions a summary cannot answer
	full  bool               // q has such restrictions: candidates need decoding
	steps int
}

func newLister(ctx context.Context, tx *bolt.Tx, q *calendar.PostQuery) *lister {
	l := &lister{ctx: ctx, tx: tx, q: q, lite: *q}
	l.lite.VenueIDs, l.lite.NotVenueIDs, l.lite.OrganizerIDs = nil, nil, nil
	l.lite.CategoryIDs, l.lite.TagIDs, l.lite.Search, l.lite.Name = nil, nil, nil, ""
	l.full = len(q.VenueIDs)+len(q.NotVenueIDs)+len(q.OrganizerIDs)+len(q.CategoryIDs)+len(q.TagIDs)+len(q.Search) > 0 || q.Name != ""
	return l
}

// step counts one cursor step and checks ctx every ctxEvery steps.
func (l *lister) step() error {
	if l.steps++; l.steps%ctxEvery == 0 {
		return l.ctx.Err()
	}
	return nil
}

// way is one candidate source the planner may pick.
type way struct {
	ordered bool // walks post_order in list order
	// ordered ways: the post_order range [lo, hi] (hi inclusive prefix bound)
	lo, hi []byte
	// unordered ways: the candidate ids
	collect func() ([]int64, error)
}

func (l *lister) run() (*calendar.PostPage, error) {
	q := l.q
	if q.Kind == calendar.KindEvent && (q.Start.Empty() || q.End.Empty()) {
		return &calendar.PostPage{}, nil
	}
	w, err := l.plan()
	if err != nil {
		return nil, err
	}
	if w.ordered {
		return l.walkOrdered(w.lo, w.hi)
	}
	ids, err := w.collect()
	if err != nil {
		return nil, err
	}
	return l.byIDs(ids)
}

// plan picks the way in with the lowest estimated cost. Each estimate is a
// key count capped at the best cost so far, so planning never walks more
// than a few times the range it finally uses.
func (l *lister) plan() (way, error) {
	q := l.q
	best := way{}
	bestCost := math.MaxInt
	if len(q.IDs) > 0 {
		ids := slices.Clone(q.IDs)
		best = way{collect: func() ([]int64, error) { return ids, nil }}
		bestCost = len(ids) * decodeCost
	}
	consider := func(w way, count func(limit int) (int, error), perKey int) error {
		if bestCost == 0 {
			return nil
		}
		n, err := count(bestCost / perKey)
		if err != nil {
			return err
		}
		if n*perKey < bestCost {
			best, bestCost = w, n*perKey
		}
		return nil
	}
	if q.Kind == calendar.KindEvent {
		links := []struct {
			bucket []byte
			ids    []int64
		}{
			{bVenueEvents, q.VenueIDs}, {bOrganizerEvents, q.OrganizerIDs},
			{bCategoryEvents, q.CategoryIDs}, {bTagEvents, q.TagIDs},
		}
		if q.PostParent != 0 {
			links = append(links, struct {
				bucket []byte
				ids    []int64
			}{bParentChildren, []int64{q.PostParent}})
		}
		for _, ln := range links {
			if len(ln.ids) == 0 {
				continue
			}
			b, ids := l.tx.Bucket(ln.bucket), ln.ids
			w := way{collect: func() ([]int64, error) { return l.collectLinks(b, ids, -1) }}
			if err := consider(w, func(limit int) (int, error) {
				got, err := l.collectLinks(b, ids, limit)
				return len(got), err
			}, decodeCost); err != nil {
				return way{}, err
			}
		}
		if q.Featured != nil && *q.Featured {
			b := l.tx.Bucket(bFeatured)
			w := way{collect: func() ([]int64, error) { return l.collectTimeRange(b, calendar.TimeRange{}, -1) }}
			if err := consider(w, func(limit int) (int, error) {
				got, err := l.collectTimeRange(b, calendar.TimeRange{}, limit)
				return len(got), err
			}, decodeCost); err != nil {
				return way{}, err
			}
		}
	}
	perKey := 1
	if l.full {
		perKey = decodeCost
	}
	lo, hi := l.orderRange()
	ordered := way{ordered: true, lo: lo, hi: hi}
	useEnd := q.Kind == calendar.KindEvent && !q.End.IsZero()
	if bestCost == math.MaxInt && !useEnd {
		return ordered, nil // nothing else to compare with: no need to count
	}
	if err := consider(ordered, func(limit int) (int, error) { return l.countRange(lo, hi, limit) }, perKey); err != nil {
		return way{}, err
	}
	// The End range comes last: its candidates need decoding and sorting, so
	// it only wins when it is much narrower, and by now its count is capped.
	if useEnd {
		b := l.tx.Bucket(bEventEnd)
		w := way{collect: func() ([]int64, error) { return l.collectTimeRange(b, q.End, -1) }}
		if err := consider(w, func(limit int) (int, error) {
			got, err := l.collectTimeRange(b, q.End, limit)
			return len(got), err
		}, decodeCost); err != nil {
			return way{}, err
		}
	}
	return best, nil
}

// orderRange returns the post_order key bounds of q's kind, narrowed to the
// Start range for events. hi is inclusive.
func (l *lister) orderRange() (lo, hi []byte) {
	k := byte(l.q.Kind)
	lo, hi = []byte{k}, []byte{k, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	if l.q.Kind != calendar.KindEvent {
		return lo, hi
	}
	if r := l.q.Start; !r.From.IsZero() {
		lo = append([]byte{k}, storage.TimeKey(r.From)...)
	}
	if r := l.q.Start; !r.To.IsZero() {
		hi = append(append([]byte{k}, storage.TimeKey(r.To)...), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	}
	return lo, hi
}

// countRange counts post_order keys in [lo, hi], stopping past limit.
func (l *lister) countRange(lo, hi []byte, limit int) (int, error) {
	c := l.tx.Bucket(bPostOrder).Cursor()
	n := 0
	for k, _ := c.Seek(lo); k != nil && bytes.Compare(k, hi) <= 0 && n <= limit; k, _ = c.Next() {
		if err := l.step(); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// collectLinks returns the event ids filed under any of linked in a reverse
// link bucket (duplicates possible), stopping once more than limit are found
// (limit < 0: no limit).
func (l *lister) collectLinks(b *bolt.Bucket, linked []int64, limit int) ([]int64, error) {
	var out []int64
	c := b.Cursor()
	for _, id := range linked {
		prefix := storage.IDKey(id)
		for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
			if limit >= 0 && len(out) > limit {
				return out, nil
			}
			if err := l.step(); err != nil {
				return nil, err
			}
			out = append(out, storage.ParseIDKey(k[8:]))
		}
	}
	return out, nil
}

// collectTimeRange returns the ids of a time‖id bucket whose time lies in
// the bounds of r (exclusivity is left to MatchPost), stopping once more than
// limit are found (limit < 0: no limit).
func (l *lister) collectTimeRange(b *bolt.Bucket, r calendar.TimeRange, limit int) ([]int64, error) {
	var out []int64
	var to []byte
	if !r.To.IsZero() {
		to = storage.TimeKey(r.To)
	}
	c := b.Cursor()
	var k []byte
	if r.From.IsZero() {
		k, _ = c.First()
	} else {
		k, _ = c.Seek(storage.TimeKey(r.From))
	}
	for ; k != nil; k, _ = c.Next() {
		if to != nil && bytes.Compare(k[:8], to) > 0 {
			break
		}
		if limit >= 0 && len(out) > limit {
			break
		}
		if err := l.step(); err != nil {
			return nil, err
		}
		out = append(out, storage.ParseIDKey(k[8:]))
	}
	return out, nil
}

// walkOrdered walks post_order from lo to hi (backwards for venues and
// organizers, which list newest first), confirming each candidate on its
// summary and, if needed, on the decoded record, and decoding only what the
// page returns.
func (l *lister) walkOrdered(lo, hi []byte) (*calendar.PostPage, error) {
	q := l.q
	posts := l.tx.Bucket(bPosts)
	c := l.tx.Bucket(bPostOrder).Cursor()
	var k, v []byte
	var next func() ([]byte, []byte)
	var inRange func([]byte) bool
	if q.Kind == calendar.KindEvent {
		k, v = c.Seek(lo)
		next, inRange = c.Next, func(k []byte) bool { return bytes.Compare(k, hi) <= 0 }
	} else {
		k, v = c.Seek(hi)
		if k == nil {
			k, v = c.Last()
		}
		for k != nil && bytes.Compare(k, hi) > 0 {
			k, v = c.Prev()
		}
		next, inRange = c.Prev, func(k []byte) bool { return bytes.Compare(k, lo) >= 0 }
	}
	off := max(q.Offset, 0)
	page := &calendar.PostPage{}
	for ; k != nil && inRange(k); k, v = next() {
		if err := l.step(); err != nil {
			return nil, err
		}
		id := storage.ParseIDKey(k[9:])
		skel := &calendar.PostRecord{ID: id, Kind: q.Kind}
		if err := decodeSummary(v, skel); err != nil {
			return nil, err
		}
		if !storage.MatchPost(&l.lite, skel) {
			continue
		}
		var rec *calendar.PostRecord
		if l.full {
			var err error
			if rec, err = l.decode(posts, id); err != nil {
				return nil, err
			}
			if !storage.MatchPost(q, rec) {
				continue
			}
		}
		page.Total++
		if q.CountOnly || page.Total-1 < off || q.Limit > 0 && page.Total-1 >= off+q.Limit {
			continue
		}
		if rec == nil {
			var err error
			if rec, err = l.decode(posts, id); err != nil {
				return nil, err
			}
		}
		page.Records = append(page.Records, rec)
	}
	return page, nil
}

// byIDs reads the candidates, keeps the matches, sorts them into list order
// and cuts the page.
func (l *lister) byIDs(ids []int64) (*calendar.PostPage, error) {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	posts := l.tx.Bucket(bPosts)
	var matches []*calendar.PostRecord
	for _, id := range ids {
		if err := l.step(); err != nil {
			return nil, err
		}
		v := posts.Get(storage.IDKey(id))
		if v == nil {
			continue
		}
		p, err := decodePost(id, v)
		if err != nil {
			return nil, err
		}
		if storage.MatchPost(l.q, p) {
			matches = append(matches, p)
		}
	}
	storage.SortPosts(matches)
	return &calendar.PostPage{Records: storage.Window(matches, l.q), Total: len(matches)}, nil
}

func (l *lister) decode(posts *bolt.Bucket, id int64) (*calendar.PostRecord, error) {
	v := posts.Get(storage.IDKey(id))
	if v == nil {
		return nil, errPostNotFound(id) // an index entry without its record: see Check
	}
	return decodePost(id, v)
}
