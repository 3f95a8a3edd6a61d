package boltstore

import (
	"bytes"
	"encoding/binary"
	"slices"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// Count buckets (layout 3). event_counts holds how many events fall in each
// time bucket, so that an exact list total is a sum over O(log) buckets plus
// a scan of the two partial buckets at the ends of the range, instead of a
// visit of every match:
//
//		axis(1) scope(9) owner(1|9) level(1) bucket(8) flags(1) status → count(8)
//
//	  - axis: 'S' counts events by Start, 'E' by End. A window "not ended
//	    before a, starting by b" is E[a,∞) − S(b,∞) plus the few events that
//	    end before they start (see countTotal).
//	  - scope: 0 ‖ 0 for every event, or the taxonomy kind ‖ term id for the
//	    events in one category or tag.
//	  - owner: 0 for every author, or 1 ‖ author: the caller's own drafts
//	    are counted from their own keys (Visibility.OwnStatuses).
//	  - level, bucket: the bucket of the TimeKey of the instant at one of
//	    countShifts; each level's buckets hold 16 of the level below, so a
//	    range decomposes into at most 2×15 buckets per level.
//	  - flags, status: the class of the events counted (hidden, series
//	    record), which decides whether a caller sees them.
//
// Scheduled (future) events are not counted: whether they read as
// published depends on the query's Now, so they are matched one by one
// from event_future, which holds only them. event_odd holds the events that
// end before they start (or have no end), the only ones the subtraction
// above can miscount. Both hold the summary, keyed by id.
var (
	bEventCounts = []byte("event_counts")
	bEventFuture = []byte("event_future")
	bEventOdd    = []byte("event_odd")
)

const (
	axisStart = 'S'
	axisEnd   = 'E'
)

// countShifts are the bucket widths of the count levels, as shifts of the
// TimeKey (Unix nanoseconds): 2^42 ns is about 73 minutes, 2^58 ns 9 years.
// The smallest width bounds the partial buckets a total scans at its
// bounds, so it is small enough that they hold a few events even in a
// crowded calendar.
var countShifts = [...]uint{42, 46, 50, 54, 58}

const countFan = 4 // log2 of the buckets of a level per bucket of the next

// countScopes returns the scopes p is counted in: all events, and each of
// its categories and tags once.
func countScopes(p *calendar.PostRecord) [][]byte {
	scopes := [][]byte{scopeKey(0, 0)}
	for _, k := range []calendar.Kind{calendar.KindCategory, calendar.KindTag} {
		ids := slices.Clone(p.Links(k))
		slices.Sort(ids)
		for _, id := range slices.Compact(ids) {
			scopes = append(scopes, scopeKey(k, id))
		}
	}
	return scopes
}

func scopeKey(k calendar.Kind, id int64) []byte {
	return append([]byte{byte(k)}, storage.IDKey(id)...)
}

func ownerAll() []byte { return []byte{0} }

func ownerKey(author int64) []byte {
	return binary.BigEndian.AppendUint64([]byte{1}, uint64(author))
}

// countPrefix is axis ‖ scope ‖ owner ‖ level: the keys of one level, in
// bucket order.
func countPrefix(axis byte, scope, owner []byte, level int) []byte {
	b := make([]byte, 0, 1+len(scope)+len(owner)+1+8+1+16)
	b = append(append(append(append(b, axis), scope...), owner...), byte(level))
	return b
}

// timeU64 is the TimeKey of t as a number: buckets are its high bits.
func timeU64(t time.Time) uint64 { return binary.BigEndian.Uint64(storage.TimeKey(t)) }

// countClass is the flags ‖ status tail of a count key.
func countClass(p *calendar.PostRecord) []byte {
	var flags byte
	if p.HideFromListings {
		flags |= flagHidden
	}
	if len(p.Recurrence) > 0 {
		flags |= flagSeries
	}
	return append([]byte{flags}, p.Status...)
}

// countKeys returns the keys p adds one to (nil: p is not counted).
func countKeys(p *calendar.PostRecord) [][]byte {
	if p == nil || p.Kind != calendar.KindEvent || p.Status == calendar.StatusFuture {
		return nil
	}
	class := countClass(p)
	var keys [][]byte
	for _, ax := range []struct {
		axis byte
		t    time.Time
	}{{axisStart, p.Start}, {axisEnd, p.End}} {
		u := timeU64(ax.t)
		for _, scope := range countScopes(p) {
			owners := [][]byte{ownerAll(), ownerKey(p.Author)}
			if p.Status == calendar.StatusPublish {
				owners = owners[:1]
			}
			for _, owner := range owners {
				for lv, sh := range countShifts {
					k := countPrefix(ax.axis, scope, owner, lv)
					k = binary.BigEndian.AppendUint64(k, u>>sh)
					keys = append(keys, append(k, class...))
				}
			}
		}
	}
	return keys
}

// recount moves the counts from old to rec (either nil) inside the write's
// transaction, so the counts commit, or roll back, with the index entries.
func recount(tx *bolt.Tx, old, rec *calendar.PostRecord) error {
	minus, plus := countKeys(old), countKeys(rec)
	if slices.EqualFunc(minus, plus, bytes.Equal) {
		return nil // an edit that moves no count (a title, a venue)
	}
	b := tx.Bucket(bEventCounts)
	add := func(k []byte, d int64) error {
		n, _ := readU64(b.Get(k))
		n = uint64(int64(n) + d)
		if n == 0 {
			return b.Delete(k)
		}
		return b.Put(k, u64(n))
	}
	for _, k := range minus {
		if err := add(k, -1); err != nil {
			return err
		}
	}
	for _, k := range plus {
		if err := add(k, 1); err != nil {
			return err
		}
	}
	return nil
}

// buildCounts fills event_counts, event_future and event_odd from the
// records: the migration from layout 2, which had none of them. The
// counts are summed in memory first (one Put per key).
func buildCounts(tx *bolt.Tx) error {
	counts := map[string]uint64{}
	type kv struct{ bucket, key, value []byte }
	var extra []kv
	err := tx.Bucket(bPosts).ForEach(func(k, v []byte) error {
		p, err := decodePost(storage.ParseIDKey(k), v)
		if err != nil {
			return err
		}
		for _, ck := range countKeys(p) {
			counts[string(ck)]++
		}
		for _, e := range postEntries(p) {
			if bytes.Equal(e.bucket, bEventFuture) || bytes.Equal(e.bucket, bEventOdd) {
				extra = append(extra, kv{e.bucket, e.key, e.value})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, e := range extra {
		if err := tx.Bucket(e.bucket).Put(e.key, e.value); err != nil {
			return err
		}
	}
	b := tx.Bucket(bEventCounts)
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys) // sorted Puts fill pages in order
	for _, k := range keys {
		if err := b.Put([]byte(k), u64(counts[k])); err != nil {
			return err
		}
	}
	return nil
}

// countScope returns the scope whose counts answer q and whether q's total
// can come from the counts at all: an event query restricting, besides
// Start, End, visibility, hidden events and series records, at most one
// category or one tag.
func countScope(q *calendar.PostQuery) ([]byte, []byte, bool) {
	if q.Kind != calendar.KindEvent || len(q.IDs) > 0 || len(q.ExcludeIDs) > 0 ||
		len(q.VenueIDs) > 0 || len(q.NotVenueIDs) > 0 || len(q.OrganizerIDs) > 0 ||
		q.Featured != nil || q.PostParent != 0 || len(q.Search) > 0 || q.Name != "" ||
		(q.Series != calendar.SeriesAny && q.Series != calendar.SeriesHideTemplates) {
		return nil, nil, false
	}
	cats, tags := slices.Compact(slices.Sorted(slices.Values(q.CategoryIDs))), slices.Compact(slices.Sorted(slices.Values(q.TagIDs)))
	switch {
	case len(cats) == 0 && len(tags) == 0:
		return scopeKey(0, 0), nil, true
	case len(cats) == 1 && len(tags) == 0:
		return scopeKey(calendar.KindCategory, cats[0]), bCategoryEvents, true
	case len(cats) == 0 && len(tags) == 1:
		return scopeKey(calendar.KindTag, tags[0]), bTagEvents, true
	}
	return nil, nil, false
}

// counter answers totals from event_counts inside one read transaction.
type counter struct {
	l     *lister
	q     *calendar.PostQuery
	scope []byte
	term  []byte       // IDKey of the scope's term (nil: every event)
	links *bolt.Bucket // the scope's reverse link bucket
	// base is q reduced to what a class decides (visibility, hidden,
	// series): a scanned entry is confirmed on it, the ranges apart.
	base calendar.PostQuery
	// owner: whether the caller's own keys are summed too.
	owner bool
	skel  calendar.PostRecord
}

func (l *lister) newCounter() (*counter, bool) {
	q := l.q
	scope, linkBucket, ok := countScope(q)
	if !ok {
		return nil, false
	}
	c := &counter{l: l, q: q, scope: scope}
	if linkBucket != nil {
		c.links, c.term = l.tx.Bucket(linkBucket), scope[1:]
	}
	c.base = calendar.PostQuery{Kind: q.Kind, Now: q.Now, Visible: q.Visible, ExcludeHidden: q.ExcludeHidden, Series: q.Series}
	v := q.Visible
	if v.Owner != 0 {
		for _, st := range v.OwnStatuses {
			if !slices.Contains(v.Statuses, st) {
				if st == calendar.StatusPublish {
					return nil, false // published events have no owner keys
				}
				c.owner = true
			}
		}
	}
	return c, true
}

// countTotal returns q's total from the counts; ok is false when q's
// shape is not one the counts answer (then the list counts its matches).
//
// With R_S, R_E the Start and End ranges, #(S∈R_S ∧ E∈R_E) = #(S∈R_S) −
// #(E∉R_E) + #(S∉R_S ∧ E∉R_E). When each range is bounded on one side
// only, the last term holds only events near a bound: for the default
// window (E ≥ a, S ≤ b, a ≤ b) no event that ends after it starts, for a
// week (S ≥ s, E < e) those starting in [e − longest duration, s). The
// events ending before they start are few and kept apart (event_odd).
func (l *lister) countTotal() (int, bool, error) {
	c, ok := l.newCounter()
	if !ok {
		return 0, false, nil
	}
	q := l.q
	future, err := c.futures()
	if err != nil {
		return 0, false, err
	}
	rs, re := q.Start, q.End
	switch {
	case re.IsZero():
		n, err := c.axis(axisStart, rs)
		return n + future, err == nil, err
	case rs.IsZero():
		n, err := c.axis(axisEnd, re)
		return n + future, err == nil, err
	}
	sideS, sideE := oneSide(rs), oneSide(re)
	if sideS == 0 || sideE == 0 || sideS == sideE {
		return 0, false, nil
	}
	var normal int
	if sideS < 0 { // S ≤ b, E ≥ a: an event outside both has b < S ≤ E < a
		if rs.To.Before(re.From) || rs.To.Equal(re.From) && rs.ToExclusive && re.FromExclusive {
			return 0, false, nil
		}
	} else { // S ≥ s, E ≤ e: outside both, S < s and E > e
		d := maxDuration(l.tx)
		if d >= 100*365*24*time.Hour {
			return 0, false, nil
		}
		from := timeU64(re.To.Add(-d))
		to := timeU64(rs.From)
		if from <= to {
			normal, err = c.scan(axisStart, from, to, func(p *calendar.PostRecord) bool {
				return !oddEnd(p) && !rs.Contains(p.Start) && !re.Contains(p.End)
			})
			if err != nil {
				return 0, false, err
			}
		}
	}
	odd, err := c.scanAll(bEventOdd, func(p *calendar.PostRecord) bool {
		return p.Status != calendar.StatusFuture && !rs.Contains(p.Start) && !re.Contains(p.End) && c.confirm(p)
	})
	if err != nil {
		return 0, false, err
	}
	inS, err := c.axis(axisStart, rs)
	if err != nil {
		return 0, false, err
	}
	outE, err := c.axis(axisEnd, complement(re))
	if err != nil {
		return 0, false, err
	}
	return inS - outE + normal + odd + future, true, nil
}

// oneSide returns -1 for a range bounded above only, 1 for one bounded
// below only, 0 otherwise.
func oneSide(r calendar.TimeRange) int {
	switch {
	case r.From.IsZero() && !r.To.IsZero():
		return -1
	case !r.From.IsZero() && r.To.IsZero():
		return 1
	}
	return 0
}

// complement returns the one-sided range of the instants outside r.
func complement(r calendar.TimeRange) calendar.TimeRange {
	if r.From.IsZero() {
		return calendar.TimeRange{From: r.To, FromExclusive: !r.ToExclusive}
	}
	return calendar.TimeRange{To: r.From, ToExclusive: !r.FromExclusive}
}

// futures counts the scheduled events matching q, one by one.
func (c *counter) futures() (int, error) {
	return c.scanAll(bEventFuture, func(p *calendar.PostRecord) bool {
		return c.q.Start.Contains(p.Start) && c.q.End.Contains(p.End) && c.confirm(p)
	})
}

// confirm checks what a count class decides, and the scope, on one entry.
func (c *counter) confirm(p *calendar.PostRecord) bool {
	if !storage.MatchPost(&c.base, p) {
		return false
	}
	return c.links == nil || c.links.Get(linkKey(storage.ParseIDKey(c.term), p.ID)) != nil
}

// scanAll counts the entries of an id → summary bucket that ok accepts.
func (c *counter) scanAll(bucket []byte, ok func(*calendar.PostRecord) bool) (int, error) {
	n := 0
	cur := c.l.tx.Bucket(bucket).Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if err := c.l.step(); err != nil {
			return 0, err
		}
		c.skel = calendar.PostRecord{ID: storage.ParseIDKey(k), Kind: calendar.KindEvent}
		if err := decodeSummary(v, &c.skel); err != nil {
			return 0, err
		}
		if ok(&c.skel) {
			n++
		}
	}
	return n, nil
}

// scan counts the counted (not scheduled) events of the scope whose
// instant on axis has a TimeKey in [from, to] and that ok accepts, from
// post_order (Start) or event_end (End).
func (c *counter) scan(axis byte, from, to uint64, ok func(*calendar.PostRecord) bool) (int, error) {
	var cur *bolt.Cursor
	var prefix []byte
	if axis == axisStart {
		cur, prefix = c.l.tx.Bucket(bPostOrder).Cursor(), []byte{byte(calendar.KindEvent)}
	} else {
		cur = c.l.tx.Bucket(bEventEnd).Cursor()
	}
	seek := binary.BigEndian.AppendUint64(slices.Clone(prefix), from)
	n := 0
	for k, v := cur.Seek(seek); k != nil && hasPrefix(k, prefix) && len(k) >= len(prefix)+16; k, v = cur.Next() {
		if binary.BigEndian.Uint64(k[len(prefix):]) > to {
			break
		}
		if err := c.l.step(); err != nil {
			return 0, err
		}
		summary := v
		if axis == axisEnd {
			summary = v[8:]
		}
		c.skel = calendar.PostRecord{ID: storage.ParseIDKey(k[len(prefix)+8:]), Kind: calendar.KindEvent}
		if err := decodeSummary(summary, &c.skel); err != nil {
			return 0, err
		}
		if c.skel.Status != calendar.StatusFuture && ok(&c.skel) && c.confirm(&c.skel) {
			n++
		}
	}
	return n, nil
}

// axis counts the counted events of the scope whose instant on axis lies
// in r: whole buckets from event_counts, the partial ones at r's bounds by
// a scan.
func (c *counter) axis(axis byte, r calendar.TimeRange) (int, error) {
	sh := countShifts[0]
	in := func(p *calendar.PostRecord) bool {
		if axis == axisStart {
			return r.Contains(p.Start)
		}
		return r.Contains(p.End)
	}
	maxBucket := ^uint64(0) >> sh
	first, last := uint64(0), maxBucket
	n := 0
	lo, hi := timeU64(r.From), timeU64(r.To)
	if !r.From.IsZero() {
		end := lo | (1<<sh - 1)
		if !r.To.IsZero() && hi>>sh == lo>>sh {
			return c.scan(axis, lo, hi, in)
		}
		m, err := c.scan(axis, lo, end, in)
		if err != nil {
			return 0, err
		}
		n += m
		first = lo>>sh + 1
	}
	if !r.To.IsZero() {
		start := hi &^ (1<<sh - 1)
		m, err := c.scan(axis, start, hi, in)
		if err != nil {
			return 0, err
		}
		n += m
		if hi>>sh == 0 {
			return n, nil
		}
		last = hi>>sh - 1
	}
	if first > last {
		return n, nil
	}
	m, err := c.buckets(axis, first, last)
	return n + m, err
}

// buckets sums the level-0 buckets [first, last], taking whole buckets of
// the higher levels where they fit.
func (c *counter) buckets(axis byte, first, last uint64) (int, error) {
	return c.bucketsFrom(axis, 0, first, last)
}

// bucketsFrom is buckets for the level-lv0 buckets [first, last].
func (c *counter) bucketsFrom(axis byte, lv0 int, first, last uint64) (int, error) {
	n := 0
	const fan = 1 << countFan
	for lv := lv0; first <= last; lv++ {
		if lv == len(countShifts)-1 {
			m, err := c.levelRange(axis, lv, first, last)
			return n + m, err
		}
		a := (first + fan - 1) &^ (fan - 1) // first index starting a parent
		z := (last + 1) &^ (fan - 1)        // one past the last parent's end
		if a >= z {
			m, err := c.levelRange(axis, lv, first, last)
			return n + m, err
		}
		if first < a {
			m, err := c.levelRange(axis, lv, first, a-1)
			if err != nil {
				return 0, err
			}
			n += m
		}
		if z <= last {
			m, err := c.levelRange(axis, lv, z, last)
			if err != nil {
				return 0, err
			}
			n += m
		}
		first, last = a>>countFan, z>>countFan-1
	}
	return n, nil
}

// levelRange sums the buckets [first, last] of one level over the classes
// the caller sees, and the caller's own keys for the statuses only an
// owner sees.
func (c *counter) levelRange(axis byte, lv int, first, last uint64) (int, error) {
	n, err := c.walkCounts(countPrefix(axis, c.scope, ownerAll(), lv), first, last, c.seesAll)
	if err != nil || !c.owner {
		return n, err
	}
	m, err := c.walkCounts(countPrefix(axis, c.scope, ownerKey(c.q.Visible.Owner), lv), first, last, c.seesOwn)
	return n + m, err
}

func (c *counter) walkCounts(prefix []byte, first, last uint64, sees func(flags byte, st []byte) bool) (int, error) {
	cur := c.l.tx.Bucket(bEventCounts).Cursor()
	n := 0
	seek := binary.BigEndian.AppendUint64(prefix, first)
	for k, v := cur.Seek(seek); k != nil && hasPrefix(k, prefix) && len(k) > len(prefix)+8; k, v = cur.Next() {
		if binary.BigEndian.Uint64(k[len(prefix):]) > last {
			break
		}
		if err := c.l.step(); err != nil {
			return 0, err
		}
		class := k[len(prefix)+8:]
		if sees(class[0], class[1:]) {
			cnt, _ := readU64(v)
			n += int(cnt)
		}
	}
	return n, nil
}

// hides reports whether q leaves out every event of a class.
func (c *counter) hides(flags byte) bool {
	return c.q.ExcludeHidden && flags&flagHidden != 0 || c.q.Series == calendar.SeriesHideTemplates && flags&flagSeries != 0
}

func (c *counter) seesAll(flags byte, st []byte) bool {
	v := c.q.Visible
	return !c.hides(flags) && (v.IsZero() || slices.Contains(v.Statuses, calendar.Status(st)))
}

func (c *counter) seesOwn(flags byte, st []byte) bool {
	v := c.q.Visible
	s := calendar.Status(st)
	return !c.hides(flags) && !slices.Contains(v.Statuses, s) && slices.Contains(v.OwnStatuses, s)
}

// rangeEstimate returns about how many events lie in the post_order range
// [lo, hi] (keys kind ‖ Start ‖ id), whatever their status: the level-2
// buckets (about 13 days) covering the whole level-0 buckets inside it,
// from the counts. The planner needs no more, and summing the finer levels
// at the range's ends cost more than the page walk it plans.
func (l *lister) rangeEstimate(lo, hi []byte) int {
	c := &counter{l: l, q: &calendar.PostQuery{}, scope: scopeKey(0, 0)}
	first, last := uint64(0), uint64(0)
	if len(lo) >= 9 {
		first = binary.BigEndian.Uint64(lo[1:9])>>countShifts[0] + 1
	}
	if len(hi) < 9 {
		return 0
	}
	if h := binary.BigEndian.Uint64(hi[1:9]) >> countShifts[0]; h > 0 {
		last = h - 1
	}
	if first > last {
		return 0
	}
	const lv = 2
	n, _ := c.bucketsFrom(axisStart, lv, first>>(lv*countFan), last>>(lv*countFan))
	return n
}
