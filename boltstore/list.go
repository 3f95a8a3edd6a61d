package boltstore

import (
	"bytes"
	"context"
	"math"
	"slices"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// Relative costs the planner compares ways in by, in units of one
// post_order step (a cursor move and a summary check). They are rough: only
// orders of magnitude matter.
const (
	keyCost    = 2  // a step in another index, and the sort slot of a match
	decodeCost = 16 // reading and decoding a whole record
)

// ctxEvery is how many cursor steps run between two context checks.
const ctxEvery = 64

// ListPosts answers q from the narrowest index range: the ids asked for, the
// smallest set of linked events within the Start range (link_order), a
// parent's children, the featured set, the Start range, the End range, or
// the whole kind. Each candidate is confirmed with storage.MatchPost, first
// on the summary kept in the index and, when q filters on text or on links
// the way in does not guarantee, on the decoded record; otherwise only the
// records of the page are decoded. Walks of post_order and link_order come
// out in list order; the other ways collect the post_order keys of their
// matches and sort them (they sort in list order).
func (s *Store) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	return s.listPosts(ctx, q, false)
}

// listPosts is ListPosts with the cache's records shared (SharedReads) or
// copied.
func (s *Store) listPosts(ctx context.Context, q *calendar.PostQuery, share bool) (*calendar.PostPage, error) {
	if q == nil || !q.Kind.IsPost() {
		return nil, errInvalid("list posts: not a post kind")
	}
	var page *calendar.PostPage
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		l := newLister(ctx, tx, q)
		l.posts = s.cache.in(tx, share)
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
	skel  calendar.PostRecord
	kbuf  []byte
	posts cacheReader[calendar.PostRecord] // default: decode every record
	steps int                              // cursor steps and lookups, for the pushdown test
	// guaranteed is the reverse link bucket the way in reads (its link
	// restriction holds for every candidate).
	guaranteed []byte
	// counted: total holds q's total, taken from the counts, so a walk
	// stops once the page is full.
	counted bool
	total   int
}

func newLister(ctx context.Context, tx *bolt.Tx, q *calendar.PostQuery) *lister {
	l := &lister{ctx: ctx, tx: tx, q: q, lite: *q, posts: noCache.in(tx, false)}
	l.lite.VenueIDs, l.lite.NotVenueIDs, l.lite.OrganizerIDs = nil, nil, nil
	l.lite.CategoryIDs, l.lite.TagIDs, l.lite.Search, l.lite.Name = nil, nil, nil, ""
	return l
}

// needsRecord reports whether q has restrictions only the decoded record
// can answer: link restrictions are checked on the reverse link buckets
// (see linksMatch).
func needsRecord(q *calendar.PostQuery) bool {
	return len(q.Search) > 0 || q.Name != ""
}

// linksMatch checks q's link restrictions on candidate id with one lookup
// per linked id in the reverse link buckets, but for the bucket the way in
// already guarantees.
func (l *lister) linksMatch(id int64) bool {
	q := l.q
	if q.Kind != calendar.KindEvent {
		return true
	}
	has := func(bucket []byte, linked int64) bool {
		return l.tx.Bucket(bucket).Get(linkKey(linked, id)) != nil
	}
	anyOf := func(bucket []byte, ids []int64) bool {
		if len(ids) == 0 || bytes.Equal(bucket, l.guaranteed) {
			return true
		}
		for _, linked := range ids {
			if has(bucket, linked) {
				return true
			}
		}
		return false
	}
	if !anyOf(bVenueEvents, q.VenueIDs) || !anyOf(bOrganizerEvents, q.OrganizerIDs) ||
		!anyOf(bCategoryEvents, q.CategoryIDs) || !anyOf(bTagEvents, q.TagIDs) {
		return false
	}
	for _, linked := range q.NotVenueIDs {
		if has(bVenueEvents, linked) {
			return false
		}
	}
	return true
}

// step counts one cursor step or lookup and checks ctx every ctxEvery.
func (l *lister) step() error {
	if l.steps++; l.steps%ctxEvery == 0 {
		return l.ctx.Err()
	}
	return nil
}

// way is one candidate source the planner may pick.
type way struct {
	kind wayKind
	// wayOrdered: the post_order range [lo, hi].
	lo, hi []byte
	// wayKeys: passes fn the post_order key (valid until the next call)
	// and the summary of each candidate (fn nil: just count) and returns how many it found,
	// stopping past limit unless limit < 0.
	keys func(limit int, fn func(k, summary []byte) error) (int, error)
	// full: candidates must be decoded to be confirmed.
	full bool
	// bucket: the reverse link bucket whose restriction the way
	// guarantees.
	bucket []byte
	// wayLinkOrdered: the link_order ranges of these linked ids of kind
	// link, within the post_order range [lo, hi].
	link   calendar.Kind
	linked []int64
}

type wayKind int

const (
	wayOrdered wayKind = iota
	wayIDs
	wayKeys
	wayLinkOrdered
)

func (l *lister) run() (*calendar.PostPage, error) {
	q := l.q
	if q.Kind == calendar.KindEvent && (q.Start.Empty() || q.End.Empty()) {
		return &calendar.PostPage{}, nil
	}
	if ids, ok, err := l.byNameIndex(); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return l.byIDs(ids)
	}
	if q.Kind == calendar.KindEvent {
		total, ok, err := l.countTotal()
		if err != nil {
			return nil, err
		}
		if ok {
			if q.CountOnly || total == 0 || q.Limit > 0 && total <= max(q.Offset, 0) {
				return &calendar.PostPage{Total: total}, nil
			}
			l.counted, l.total = true, total
		}
	}
	w, err := l.plan()
	if err != nil {
		return nil, err
	}
	l.guaranteed = w.bucket
	switch w.kind {
	case wayIDs:
		return l.byIDs(slices.Clone(q.IDs))
	case wayKeys:
		// Confirm on the summaries during the walk and keep only the keys
		// of matches, so only they are sorted.
		var keys []eventKey
		_, err := w.keys(-1, func(k, summary []byte) error {
			ok, err := l.matchSummary(k, summary)
			if ok {
				keys = append(keys, eventKey(k))
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		return l.byKeys(keys, w.full)
	case wayLinkOrdered:
		return l.walkLinkOrder(w.link, w.linked, w.lo, w.hi, w.full)
	}
	return l.walkOrdered(w.lo, w.hi, w.full)
}

// byNameIndex returns the ids of the venues or organizers holding q.Name's
// key, from the name index: a name has few holders, so this way always
// wins. ok is false when the index cannot answer q (events have no name
// entries; an empty key matches titles the index does not hold).
func (l *lister) byNameIndex() (ids []int64, ok bool, err error) {
	q := l.q
	if q.Name == "" || q.Kind != calendar.KindVenue && q.Kind != calendar.KindOrganizer {
		return nil, false, nil
	}
	key := calendar.NameKey(q.Name)
	if key == "" {
		return nil, false, nil
	}
	prefix := namePrefix(byte(q.Kind), key)
	c := l.tx.Bucket(bPostNames).Cursor()
	for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
		if err := l.step(); err != nil {
			return nil, false, err
		}
		ids = append(ids, storage.ParseIDKey(k[len(prefix):]))
	}
	return ids, true, nil
}

// plan picks the way in with the lowest estimated cost. Each estimate is a
// key count capped at the best cost so far, so planning never walks much
// more than the range it finally uses.
func (l *lister) plan() (way, error) {
	q := l.q
	best, bestCost := way{}, math.MaxInt
	if len(q.IDs) > 0 {
		best, bestCost = way{kind: wayIDs}, len(q.IDs)*decodeCost
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
	considerKeys := func(w way) error {
		w.kind = wayKeys
		perKey := keyCost
		if w.full {
			perKey = decodeCost
		}
		return consider(w, func(limit int) (int, error) { return w.keys(limit, nil) }, perKey)
	}
	isEvent := q.Kind == calendar.KindEvent
	full := needsRecord(q)
	perKey := 1
	if full {
		perKey = decodeCost
	}
	lo, hi := l.orderRange()
	// pageWalk estimates a walk over a list-ordered range that stops once
	// the page is full: about the page over the share of the range that
	// matches (r bounds the range from above).
	pageWalk := func(r int) int {
		need := max(q.Offset, 0) + q.Limit
		return min(r, need+need*r/max(l.total, 1))
	}
	stopsEarly := l.counted && q.Limit > 0
	// The Start range's size from the counts, summed once for every way
	// it bounds.
	startRange := -1
	rangeSize := func() int {
		if startRange < 0 {
			startRange = l.rangeEstimate(lo, hi)
		}
		return startRange
	}
	if isEvent {
		// A link's events in list order (link_order) within the Start
		// range are a subset of that range, walked the same way: they
		// cost at most what the post_order walk costs, and need no sort,
		// unlike the reverse link entries of every date.
		for _, ln := range []struct {
			kind calendar.Kind
			ids  []int64
		}{
			{calendar.KindVenue, q.VenueIDs}, {calendar.KindOrganizer, q.OrganizerIDs},
			{calendar.KindCategory, q.CategoryIDs}, {calendar.KindTag, q.TagIDs},
		} {
			if len(ln.ids) == 0 {
				continue
			}
			w := way{kind: wayLinkOrdered, lo: lo, hi: hi, full: full, bucket: linkBucket(ln.kind), link: ln.kind, linked: ln.ids}
			count := func(limit int) (int, error) { return l.countLinkOrder(ln.kind, ln.ids, lo, hi, limit) }
			if stopsEarly {
				// The totals are counted for one category or tag only:
				// this is the one link restriction, and the Start
				// range's size bounds its range without a walk.
				count = func(int) (int, error) { return pageWalk(rangeSize()), nil }
			}
			if err := consider(w, count, perKey); err != nil {
				return way{}, err
			}
		}
		if q.PostParent != 0 {
			b := l.tx.Bucket(bParentChildren)
			ids := []int64{q.PostParent}
			if err := considerKeys(way{
				keys:   func(limit int, fn func(k, summary []byte) error) (int, error) { return l.linkKeys(b, ids, limit, fn) },
				full:   full,
				bucket: bParentChildren,
			}); err != nil {
				return way{}, err
			}
		}
		if q.Featured != nil && *q.Featured {
			b := l.tx.Bucket(bFeatured)
			if err := considerKeys(way{
				keys: func(limit int, fn func(k, summary []byte) error) (int, error) {
					return l.timeKeys(b, calendar.TimeRange{}, limit, fn)
				},
				full: full,
			}); err != nil {
				return way{}, err
			}
		}
	}
	ordered := way{kind: wayOrdered, lo: lo, hi: hi, full: full}
	useEnd := isEvent && !q.End.IsZero()
	if bestCost == math.MaxInt && !useEnd {
		return ordered, nil // nothing else to compare with: no need to count
	}
	countOrdered := func(limit int) (int, error) { return l.countRange(lo, hi, limit) }
	if stopsEarly {
		countOrdered = func(int) (int, error) { return pageWalk(rangeSize()), nil }
	}
	if err := consider(ordered, countOrdered, perKey); err != nil {
		return way{}, err
	}
	// The End range comes last: it only wins when much narrower than the
	// Start range, and by now its count is capped by that range's.
	if useEnd {
		b := l.tx.Bucket(bEventEnd)
		if err := considerKeys(way{
			keys: func(limit int, fn func(k, summary []byte) error) (int, error) { return l.timeKeys(b, q.End, limit, fn) },
			full: full,
		}); err != nil {
			return way{}, err
		}
	}
	return best, nil
}

// orderRange returns the post_order key bounds of q's kind, narrowed for
// events to the Start range and to what the End range implies. hi is
// inclusive.
func (l *lister) orderRange() (lo, hi []byte) {
	k := byte(l.q.Kind)
	ff := bytes.Repeat([]byte{0xff}, 16)
	lo, hi = []byte{k}, append([]byte{k}, ff...)
	if l.q.Kind != calendar.KindEvent {
		return lo, hi
	}
	from := l.q.Start.From
	// An event ending at or after End.From started at or after End.From −
	// the longest duration ever stored (see maxDuration). Bounds of a
	// century or more are left alone: they narrow nothing and could
	// overflow.
	if end := l.q.End.From; !end.IsZero() {
		if d := maxDuration(l.tx); d < 100*365*24*time.Hour {
			if bound := end.Add(-d); bound.After(from) {
				from = bound
			}
		}
	}
	if !from.IsZero() {
		lo = append([]byte{k}, storage.TimeKey(from)...)
	}
	to := l.q.Start.To
	// While every event ends at or after its start, one ending by End.To
	// also started by then: the walk is bounded on both sides.
	if end := l.q.End.To; !end.IsZero() && (to.IsZero() || end.Before(to)) && oddEnds(l.tx) == 0 {
		to = end
	}
	if !to.IsZero() {
		hi = append(append([]byte{k}, storage.TimeKey(to)...), ff[:8]...)
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

// eventKey is a post_order key of an event held by value, so that a list
// of matches is one allocation.
type eventKey [17]byte

// eventOrderKey builds the post_order key of event id from its Start key,
// in a buffer the next call reuses.
func (l *lister) eventOrderKey(start, id []byte) []byte {
	l.kbuf = append(append(append(l.kbuf[:0], byte(calendar.KindEvent)), start...), id...)
	return l.kbuf
}

// linkKeys passes fn the post_order keys and summaries of the events filed under any of
// linked in a reverse link bucket (duplicates possible) and returns their
// number, stopping past limit unless limit < 0.
func (l *lister) linkKeys(b *bolt.Bucket, linked []int64, limit int, fn func(k, summary []byte) error) (int, error) {
	n := 0
	c := b.Cursor()
	for _, id := range linked {
		prefix := storage.IDKey(id)
		for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
			if limit >= 0 && n > limit {
				return n, nil
			}
			if err := l.step(); err != nil {
				return 0, err
			}
			n++
			if fn != nil {
				if err := fn(l.eventOrderKey(v[:8], k[8:]), v[8:]); err != nil {
					return 0, err
				}
			}
		}
	}
	return n, nil
}

// timeKeys passes fn the post_order keys and summaries of the events in a
// time ‖ id bucket (event_end or event_featured) within the bounds of r (exclusivity is left to MatchPost)
// and returns their number, stopping past limit unless limit < 0.
func (l *lister) timeKeys(b *bolt.Bucket, r calendar.TimeRange, limit int, fn func(k, summary []byte) error) (int, error) {
	var to []byte
	if !r.To.IsZero() {
		to = storage.TimeKey(r.To)
	}
	c := b.Cursor()
	var k, v []byte
	if r.From.IsZero() {
		k, v = c.First()
	} else {
		k, v = c.Seek(storage.TimeKey(r.From))
	}
	n := 0
	for ; k != nil; k, v = c.Next() {
		if to != nil && bytes.Compare(k[:8], to) > 0 || limit >= 0 && n > limit {
			break
		}
		if err := l.step(); err != nil {
			return 0, err
		}
		n++
		if fn != nil {
			if err := fn(l.eventOrderKey(v[:8], k[8:]), v[8:]); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

// matchSummary confirms the candidate under post_order key k on its
// summary: every restriction but links and text.
func (l *lister) matchSummary(k, summary []byte) (bool, error) {
	l.skel = calendar.PostRecord{ID: storage.ParseIDKey(k[9:]), Kind: calendar.Kind(k[0])}
	if err := decodeSummary(summary, &l.skel); err != nil {
		return false, err
	}
	return storage.MatchPost(&l.lite, &l.skel) && l.linksMatch(l.skel.ID), nil
}

// match confirms the candidate under post_order key k with summary v: on
// the summary, then, if full, on the decoded record, which it returns.
func (l *lister) match(posts *bolt.Bucket, k, v []byte, full bool) (ok bool, rec *calendar.PostRecord, err error) {
	if ok, err := l.matchSummary(k, v); !ok || err != nil {
		return false, nil, err
	}
	if !full {
		return true, nil, nil
	}
	if rec, err = l.decode(posts, l.skel.ID); err != nil {
		return false, nil, err
	}
	return storage.MatchPost(l.q, rec), rec, nil
}

// walkOrdered walks post_order from lo to hi (backwards for venues and
// organizers, which list newest first) and decodes only what the page
// returns (and, if full, every candidate).
func (l *lister) walkOrdered(lo, hi []byte, full bool) (*calendar.PostPage, error) {
	q := l.q
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
	return l.walk(func() ([]byte, []byte) {
		if k == nil || !inRange(k) {
			return nil, nil
		}
		rk, rv := k, v
		k, v = next()
		return rk, rv
	}, full)
}

// walk confirms the candidates next yields (post_order key and summary,
// in list order, until a nil key) and decodes only what the page returns
// (and, if full, every candidate).
func (l *lister) walk(next func() (k, summary []byte), full bool) (*calendar.PostPage, error) {
	posts := l.tx.Bucket(bPosts)
	pg := newPager(l.q)
	for k, v := next(); k != nil; k, v = next() {
		if err := l.step(); err != nil {
			return nil, err
		}
		ok, rec, err := l.match(posts, k, v, full)
		if err != nil {
			return nil, err
		}
		if ok && pg.count() {
			if err := l.appendRecord(pg, posts, k, rec); err != nil {
				return nil, err
			}
		}
		if l.pageDone(pg) {
			break
		}
	}
	return l.finish(pg), nil
}

// linkRange returns the link_order bounds of linked id of kind k within
// the post_order range [lo, hi] (hi inclusive): the tails of post_order
// keys and of link_order keys are both Start ‖ id.
func linkRange(k calendar.Kind, linked int64, lo, hi []byte) (from, to []byte) {
	prefix := linkOrderPrefix(k, linked)
	return append(slices.Clip(prefix), lo[1:]...), append(prefix, hi[1:]...)
}

// countLinkOrder counts the link_order entries of linked ids of kind k
// within [lo, hi] (an event linked twice counts twice), stopping past limit.
func (l *lister) countLinkOrder(k calendar.Kind, linked []int64, lo, hi []byte, limit int) (int, error) {
	c := l.tx.Bucket(bLinkOrder).Cursor()
	n := 0
	for _, id := range linked {
		from, to := linkRange(k, id, lo, hi)
		for key, _ := c.Seek(from); key != nil && bytes.Compare(key, to) <= 0 && n <= limit; key, _ = c.Next() {
			if err := l.step(); err != nil {
				return 0, err
			}
			n++
		}
	}
	return n, nil
}

// walkLinkOrder walks the events linked to any of linked (of kind k)
// within the post_order range [lo, hi] in list order: one link_order
// cursor per linked id, merged on Start ‖ id, an event linked to several
// passed once.
func (l *lister) walkLinkOrder(k calendar.Kind, linked []int64, lo, hi []byte, full bool) (*calendar.PostPage, error) {
	linked = slices.Compact(slices.Sorted(slices.Values(linked)))
	b := l.tx.Bucket(bLinkOrder)
	type head struct {
		c    *bolt.Cursor
		to   []byte
		k, v []byte // current entry; k nil when the range is done
	}
	heads := make([]head, len(linked))
	for i, id := range linked {
		from, to := linkRange(k, id, lo, hi)
		h := head{c: b.Cursor(), to: to}
		if h.k, h.v = h.c.Seek(from); h.k != nil && bytes.Compare(h.k, to) > 0 {
			h.k = nil
		}
		heads[i] = h
	}
	const tail = 1 + 8 // kind ‖ linked id, before Start ‖ id
	advance := func(h *head) {
		if h.k, h.v = h.c.Next(); h.k != nil && bytes.Compare(h.k, h.to) > 0 {
			h.k = nil
		}
	}
	return l.walk(func() ([]byte, []byte) {
		var first *head
		for i := range heads {
			if h := &heads[i]; h.k != nil && (first == nil || bytes.Compare(h.k[tail:], first.k[tail:]) < 0) {
				first = h
			}
		}
		if first == nil {
			return nil, nil
		}
		k := l.eventOrderKey(first.k[tail:tail+8], first.k[tail+8:])
		v := first.v
		for i := range heads { // the same event under another linked id
			if h := &heads[i]; h != first && h.k != nil && bytes.Equal(h.k[tail:], first.k[tail:]) {
				advance(h)
			}
		}
		advance(first)
		return k, v
	}, full)
}

// byKeys takes the post_order keys of candidates already confirmed on
// their summaries, sorts them into list order, confirms them on the decoded
// record if full, and decodes the page.
func (l *lister) byKeys(keys []eventKey, full bool) (*calendar.PostPage, error) {
	slices.SortFunc(keys, func(a, b eventKey) int { return bytes.Compare(a[:], b[:]) })
	keys = slices.Compact(keys)
	posts := l.tx.Bucket(bPosts)
	pg := newPager(l.q)
	for i := range keys {
		k := keys[i][:]
		var rec *calendar.PostRecord
		if full {
			if err := l.step(); err != nil {
				return nil, err
			}
			var err error
			if rec, err = l.decode(posts, storage.ParseIDKey(k[9:])); err != nil {
				return nil, err
			}
			if !storage.MatchPost(l.q, rec) {
				continue
			}
		}
		if pg.count() {
			if err := l.appendRecord(pg, posts, k, rec); err != nil {
				return nil, err
			}
		}
		if l.pageDone(pg) {
			break
		}
	}
	return l.finish(pg), nil
}

// pageDone reports whether the walk may stop: the total is known and the
// page is full.
func (l *lister) pageDone(pg *pager) bool {
	return l.counted && l.q.Limit > 0 && pg.page.Total >= pg.off+l.q.Limit
}

// finish puts the counted total on a page a walk may have cut short.
func (l *lister) finish(pg *pager) *calendar.PostPage {
	if l.counted {
		pg.page.Total = l.total
	}
	return pg.page
}

// byIDs reads the posts asked for by id, keeps the matches, sorts them into
// list order and cuts the page.
func (l *lister) byIDs(ids []int64) (*calendar.PostPage, error) {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	posts := l.tx.Bucket(bPosts)
	var matches []*calendar.PostRecord
	for _, id := range ids {
		if err := l.step(); err != nil {
			return nil, err
		}
		p, err := l.posts.read(posts, id)
		if err != nil {
			return nil, err
		}
		if p != nil && storage.MatchPost(l.q, p) {
			matches = append(matches, p)
		}
	}
	storage.SortPosts(matches)
	return &calendar.PostPage{Records: storage.Window(matches, l.q), Total: len(matches)}, nil
}

// pager counts matches in list order and tells which belong to the page.
type pager struct {
	q    *calendar.PostQuery
	off  int
	page *calendar.PostPage
}

func newPager(q *calendar.PostQuery) *pager {
	return &pager{q: q, off: max(q.Offset, 0), page: &calendar.PostPage{}}
}

// count counts one match and reports whether it belongs to the page.
func (p *pager) count() bool {
	i := p.page.Total
	p.page.Total++
	return !p.q.CountOnly && i >= p.off && (p.q.Limit <= 0 || i < p.off+p.q.Limit)
}

// appendRecord adds the match under post_order key k to the page, decoding
// it unless rec already holds it.
func (l *lister) appendRecord(pg *pager, posts *bolt.Bucket, k []byte, rec *calendar.PostRecord) error {
	if rec == nil {
		var err error
		if rec, err = l.decode(posts, storage.ParseIDKey(k[9:])); err != nil {
			return err
		}
	}
	pg.page.Records = append(pg.page.Records, rec)
	return nil
}

func (l *lister) decode(posts *bolt.Bucket, id int64) (*calendar.PostRecord, error) {
	p, err := l.posts.read(posts, id)
	if err == nil && p == nil {
		return nil, errPostNotFound(id) // an index entry without its record: see Check
	}
	return p, err
}
