package redisstore

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/redis/go-redis/v9"
)

// group is one way into the candidates of a list: the union of some sorted
// sets, ranged by score.
type group struct {
	keys     []string
	min, max string
	disjoint bool // no member is in two of the sets
}

// ListPosts answers a list in at most three round trips. The first runs
// listScript: an event list whose restrictions the exact window path handles
// (window.go) is answered whole by it — total and page records — in that one
// round trip. Otherwise it returns the ids of the narrowest index range; their
// metas (or, for Search and Name, their records) are read and each candidate
// is confirmed with storage.MatchPost and ordered with storage.ComparePosts;
// then the records of the page are read. A venue or organizer list with a
// Name is answered from the name index instead (names.go). With q.IDs set,
// the ids themselves
// are the candidates and the first round trip is skipped. Candidate sets
// larger than the fetch batch take one more round trip per batch.
func (s *Store) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !q.Kind.IsPost() || q.Kind == calendar.KindEvent && (q.Start.Empty() || q.End.Empty()) {
		return &calendar.PostPage{}, nil // nothing can match
	}
	if key := calendar.NameKey(q.Name); key != "" && (q.Kind == calendar.KindVenue || q.Kind == calendar.KindOrganizer) {
		return s.listByName(ctx, q, key)
	}
	var ids []string
	if len(q.IDs) > 0 {
		seen := make(map[int64]bool, len(q.IDs))
		for _, id := range q.IDs {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, itoa(id))
			}
		}
	} else {
		page, cands, err := s.firstTrip(ctx, q)
		if err != nil || page != nil {
			return page, err
		}
		ids = cands
	}
	if len(q.Search) > 0 || q.Name != "" {
		return s.confirmRecords(ctx, q, ids)
	}
	return s.confirmMetas(ctx, q, ids)
}

// confirmMetas confirms the candidates on their metas (second round trip),
// then reads the records of the page only (third). The metas are decoded into
// one scratch record, and a match keeps only its id and sort instant, so a
// list allocates little beyond the reply however many candidates it has. A
// record deleted between the round trips is left out of the page.
func (s *Store) confirmMetas(ctx context.Context, q *calendar.PostQuery, ids []string) (*calendar.PostPage, error) {
	vals, err := s.batched(ctx, "list posts", len(ids), func(c redis.Cmdable, lo, hi int) *redis.SliceCmd {
		return c.HMGet(ctx, s.k.meta(), ids[lo:hi]...)
	})
	if err != nil {
		return nil, err
	}
	var (
		scratch metaScratch
		hits    = make([]hit, 0, len(vals))
	)
	for i, v := range vals {
		raw, ok := v.(string)
		if !ok {
			continue // deleted since the candidates were read
		}
		id, err := strconv.ParseInt(ids[i], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("redisstore: index member %q: %w", ids[i], storage.ErrBadRecord)
		}
		p, err := scratch.decode(id, raw)
		if err != nil {
			return nil, err
		}
		if storage.MatchPost(q, p) {
			hits = append(hits, hitOf(p))
		}
	}
	sortHits(q.Kind, hits)
	page := &calendar.PostPage{Total: len(hits)}
	window := storage.Window(hits, q)
	if len(window) == 0 {
		return page, nil
	}
	keys := make([]string, len(window))
	for i, h := range window {
		keys[i] = s.k.post(h.id)
	}
	if page.Records, err = fetchRecords(ctx, s, "list posts", keys, (*Store).decodePost); err != nil {
		return nil, err
	}
	return page, nil
}

// confirmRecords confirms the candidates on whole records, which free-text
// Search and Name need.
func (s *Store) confirmRecords(ctx context.Context, q *calendar.PostQuery, ids []string) (*calendar.PostPage, error) {
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = s.k.postPrefix() + id
	}
	recs, err := fetchRecords(ctx, s, "list posts", keys, (*Store).decodePost)
	if err != nil {
		return nil, err
	}
	matches := slices.DeleteFunc(recs, func(p *calendar.PostRecord) bool { return !storage.MatchPost(q, p) })
	slices.SortFunc(matches, storage.ComparePosts)
	return &calendar.PostPage{Records: storage.Window(matches, q), Total: len(matches)}, nil
}

// firstTrip runs listScript for q: it returns the page when the exact
// window path answered it (window.go), else the candidates of the narrowest
// index. A calendar of an older layout, which lacks some sets the window
// path counts on, is migrated first (migrate.go).
func (s *Store) firstTrip(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, []string, error) {
	for {
		page, cands, stored, err := s.listOnce(ctx, q)
		if err != nil || stored == "" {
			return page, cands, err
		}
		if _, err := s.layoutOK(ctx, stored); err != nil {
			return nil, nil, err
		}
	}
}

// listOnce is one run of listScript; it returns the format of a calendar
// that must be migrated before the window path can answer.
func (s *Store) listOnce(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, []string, string, error) {
	gs := s.groups(q)
	var keys []string
	args := []any{0, len(gs)}
	for _, g := range gs {
		keys = append(keys, g.keys...)
		disjoint := "0"
		if g.disjoint {
			disjoint = "1"
		}
		args = append(args, len(g.keys), g.min, g.max, disjoint)
	}
	if wkeys, wargs, ok := s.windowArgs(q, len(keys)+1); ok {
		args[0] = len(args) + 1
		keys = append(keys, wkeys...)
		args = append(args, wargs...)
	}
	reply, err := listScript.Run(ctx, s.c, keys, args...).Slice()
	if err != nil {
		return nil, nil, "", fail(ctx, "list posts", err)
	}
	if len(reply) == 3 && reply[0] == "page" {
		page, err := s.windowPage(reply)
		return page, nil, "", err
	}
	if len(reply) == 2 && reply[0] == "layout" {
		if stored, ok := reply[1].(string); ok && stored != "" {
			return nil, nil, stored, nil
		}
	}
	if len(reply) == 0 || reply[0] != "cand" {
		return nil, nil, "", fmt.Errorf("redisstore: list posts: unexpected reply %.50v", reply)
	}
	reply = reply[1:]
	n := 0
	for _, r := range reply {
		arr, _ := r.([]any)
		n += len(arr)
	}
	ids := make([]string, 0, n)
	for _, r := range reply {
		arr, _ := r.([]any)
		for _, v := range arr {
			id, ok := v.(string)
			if !ok {
				return nil, nil, "", fmt.Errorf("redisstore: list posts: unexpected candidate %T", v)
			}
			ids = append(ids, id)
		}
	}
	return nil, ids, "", nil
}

// windowPage decodes the {"page", total, records} reply of the exact window
// path.
func (s *Store) windowPage(reply []any) (*calendar.PostPage, error) {
	total, ok1 := reply[1].(int64)
	recs, ok2 := reply[2].([]any)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("redisstore: list posts: unexpected page reply %T %T", reply[1], reply[2])
	}
	page := &calendar.PostPage{Total: int(total)}
	for _, r := range recs {
		raw, ok := r.(string)
		if !ok {
			return nil, fmt.Errorf("redisstore: list posts: unexpected record %T", r)
		}
		p, err := s.decodePost(raw)
		if err != nil {
			return nil, fmt.Errorf("redisstore: list posts: %w", err)
		}
		page.Records = append(page.Records, p)
	}
	return page, nil
}

// groups lists every index that can narrow q; the script picks the smallest.
func (s *Store) groups(q *calendar.PostQuery) []group {
	if q.Kind != calendar.KindEvent {
		return []group{{keys: []string{s.k.kindIndex(q.Kind)}, min: "-inf", max: "+inf"}}
	}
	smin, smax := scoreRange(q.Start)
	ranged := func(keys ...string) group { return group{keys: keys, min: smin, max: smax} }
	gs := []group{ranged(s.k.evStart())}
	if !q.End.IsZero() {
		emin, emax := scoreRange(q.End)
		gs = append(gs, group{keys: []string{s.k.evEnd()}, min: emin, max: emax})
	}
	if !q.Visible.IsZero() {
		var keys []string
		add := func(st calendar.Status) {
			if k := s.k.evStatus(st); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		wanted := q.Visible.Statuses
		if q.Visible.Owner != 0 {
			wanted = append(slices.Clone(wanted), q.Visible.OwnStatuses...)
		}
		for _, st := range wanted {
			add(st)
			if st == calendar.StatusPublish {
				add(calendar.StatusFuture) // a future post whose date passed reads as published
			}
		}
		g := ranged(keys...)
		g.disjoint = true // a post has one stored status
		gs = append(gs, g)
	}
	if q.Featured != nil && *q.Featured {
		gs = append(gs, ranged(s.k.evFeatured()))
	}
	if q.PostParent != 0 {
		gs = append(gs, ranged(s.k.evParent(q.PostParent)))
	}
	for _, l := range []struct {
		kind calendar.Kind
		ids  []int64
	}{{calendar.KindVenue, q.VenueIDs}, {calendar.KindOrganizer, q.OrganizerIDs},
		{calendar.KindCategory, q.CategoryIDs}, {calendar.KindTag, q.TagIDs}} {
		if len(l.ids) == 0 {
			continue
		}
		var keys []string
		for _, id := range l.ids {
			if k := s.k.evLink(l.kind, id); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		gs = append(gs, ranged(keys...))
	}
	return gs
}

// safeScore bounds the instants whose microsecond score a float64 holds
// exactly (storage.TimeScoreMicro); beyond them a bound is left open, which
// only widens the candidates that MatchPost then confirms.
var safeFrom, safeTo = time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2250, 1, 1, 0, 0, 0, 0, time.UTC)

// exactScore reports whether the score of t is exact (between safeFrom and
// safeTo).
func exactScore(t time.Time) bool { return t.After(safeFrom) && t.Before(safeTo) }

// scoreRange turns a time range into inclusive sorted-set score bounds that
// contain every instant of the range. Scores truncate to the microsecond, so
// exclusive bounds are widened to inclusive ones; MatchPost applies the exact
// bounds afterwards.
func scoreRange(r calendar.TimeRange) (lo, hi string) {
	lo, hi = "-inf", "+inf"
	if !r.From.IsZero() && exactScore(r.From) {
		lo = strconv.FormatInt(r.From.UnixMicro(), 10)
	}
	if !r.To.IsZero() && exactScore(r.To) {
		hi = strconv.FormatInt(r.To.UnixMicro(), 10)
	}
	return lo, hi
}
