package storagetest

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// RunLinkCounts runs the grouped link count guarantee (calendar.LinkCounter)
// against the driver newRepo builds. The counts are checked through
// calendar.CountLinks, which uses the driver's LinkCounter when it has one
// and per-id count queries otherwise, so a driver without it passes on its
// list queries alone; requireCounter makes the driver's own implementation
// mandatory.
func RunLinkCounts(t *testing.T, newRepo Factory, requireCounter bool) {
	tests := []conformanceTest{
		{"LinkCounts/BruteForce", testLinkCountsBruteForce},
		{"LinkCounts/AfterWrites", testLinkCountsAfterWrites},
		{"LinkCounts/Refused", testLinkCountsRefused},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			if _, ok := r.(calendar.LinkCounter); requireCounter && !ok {
				t.Fatalf("%T does not implement calendar.LinkCounter", r)
			}
			tc.fn(t, r)
		})
	}
}

// linkCountQuery is a random grouped count: any link kind, a random set of
// ids (repeats, ids nothing links to and ids of no record included), any
// caller's visibility or none, not yet ended or not, any series restriction.
func linkCountQuery(rng *rand.Rand, ds *dataset) *calendar.LinkCountQuery {
	q := &calendar.LinkCountQuery{Now: randomNow(rng, ds), Upcoming: rng.IntN(2) == 0,
		Series: calendar.StoredSeries(rng.IntN(3))}
	var pool []int64
	switch rng.IntN(4) {
	case 0:
		q.Link, pool = calendar.KindVenue, postIDs(ds.venues)
	case 1:
		q.Link, pool = calendar.KindOrganizer, postIDs(ds.organizers)
	case 2:
		q.Link, pool = calendar.KindCategory, termIDs(ds.categories)
	default:
		q.Link, pool = calendar.KindTag, termIDs(ds.tags)
	}
	switch rng.IntN(3) {
	case 0: // every record of the kind, as a term list or has_events asks
		q.IDs = append([]int64{}, pool...)
	default:
		q.IDs = someIDs(rng, pool, len(pool)/2+1)
	}
	if rng.IntN(3) == 0 && len(q.IDs) > 0 {
		q.IDs = append(q.IDs, q.IDs[0])
	}
	if rng.IntN(4) == 0 {
		q.IDs = append(q.IDs, 1_000_000+rng.Int64N(1000)) // no such record
	}
	vis := callerVisibility(rng, ds)
	switch rng.IntN(7) {
	case 0:
		q.Visible = calendar.Visibility{}
	case 1:
		q.Visible = vis["anonymous"]
	case 2:
		q.Visible = vis["author"]
	case 3:
		q.Visible = vis["editor"]
	case 4:
		q.Visible = vis["trashed"]
	case 5: // has_events=true
		q.Visible = calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusPrivate}}
	default:
		q.Visible = vis["system"]
	}
	return q
}

// bruteLinkCounts is the definition: for each distinct id, the events
// storage.MatchPost accepts for q.Events(id).
func bruteLinkCounts(events []*calendar.PostRecord, q *calendar.LinkCountQuery) map[int64]int {
	want := map[int64]int{}
	for _, id := range q.IDs {
		if _, done := want[id]; done {
			continue
		}
		eq := q.Events(id)
		n := 0
		for _, e := range events {
			if storage.MatchPost(eq, e) {
				n++
			}
		}
		want[id] = n
	}
	return want
}

// checkLinkCounts compares n random grouped counts with brute force and
// reports whether the queries exercised non-zero counts.
func checkLinkCounts(t *testing.T, r calendar.Repository, rng *rand.Rand, ds *dataset, n int) {
	t.Helper()
	nonZero, failures := 0, 0
	for i := 0; i < n && failures < 5; i++ {
		q := linkCountQuery(rng, ds)
		got, err := calendar.CountLinks(t.Context(), r, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		want := bruteLinkCounts(ds.events, q)
		if len(got) != len(want) {
			t.Errorf("%+v: %d counts, want one per distinct id (%d)", q, len(got), len(want))
			failures++
			continue
		}
		for id, w := range want {
			if g, ok := got[id]; !ok || g != w {
				t.Errorf("link %v id %d (now %v, visible %+v, upcoming %v, series %v): count %d (present %v), want %d",
					q.Link, id, q.Now, q.Visible, q.Upcoming, q.Series, g, ok, w)
				failures++
			}
			if w > 0 {
				nonZero++
			}
		}
	}
	if nonZero < n {
		t.Errorf("only %d non-zero counts in %d queries: the generator is too narrow", nonZero, n)
	}
}

// Grouped counts equal brute force for random id sets, callers, instants,
// ended or not, trashed events and series records.
func testLinkCountsBruteForce(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(31, 32))
	ds := seedDataset(t, r, rng, 200)
	checkLinkCounts(t, r, rng, ds, 80)
}

// Counts follow writes: relinks, status and date changes, trashing, and
// deletes of events, of a venue and of a category (which unlink them).
func testLinkCountsAfterWrites(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(33, 34))
	ds := seedDataset(t, r, rng, 120)
	rewriteEvents(t, r, rng, ds, 50)
	ctx := t.Context()
	gone := ds.venues[0]
	if err := r.DeletePost(ctx, gone.ID, 0); err != nil {
		t.Fatal(err)
	}
	goneCat := ds.categories[len(ds.categories)-1]
	if err := r.DeleteTerm(ctx, goneCat.ID, 0); err != nil {
		t.Fatal(err)
	}
	fresh, err := r.GetPosts(ctx, postIDs(ds.events))
	if err != nil {
		t.Fatal(err)
	}
	ds.events = fresh
	for kind, id := range map[calendar.Kind]int64{calendar.KindVenue: gone.ID, calendar.KindCategory: goneCat.ID} {
		got, err := calendar.CountLinks(ctx, r, &calendar.LinkCountQuery{Link: kind, IDs: []int64{id}, Now: ds.now})
		if err != nil {
			t.Fatal(err)
		}
		if got[id] != 0 {
			t.Errorf("deleted %v %d still counts %d events", kind, id, got[id])
		}
	}
	checkLinkCounts(t, r, rng, ds, 60)
}

// Bad queries are refused with calendar.ErrInvalid by the driver itself,
// an empty id set counts nothing, and a cancelled context stops the count.
func testLinkCountsRefused(t *testing.T, r calendar.Repository) {
	e := newEvent("e", t0)
	v := mustCreatePost(t, r, newVenue("v"))
	e.VenueIDs = []int64{v.ID}
	mustCreatePost(t, r, e)
	count := func(ctx context.Context, q *calendar.LinkCountQuery) (map[int64]int, error) {
		if lc, ok := r.(calendar.LinkCounter); ok {
			return lc.CountLinks(ctx, q)
		}
		return calendar.CountLinks(ctx, r, q)
	}
	for name, q := range map[string]*calendar.LinkCountQuery{
		"event link": {Link: calendar.KindEvent, IDs: []int64{v.ID}},
		"no kind":    {IDs: []int64{v.ID}},
		"zero id":    {Link: calendar.KindVenue, IDs: []int64{v.ID, 0}},
		"negative":   {Link: calendar.KindVenue, IDs: []int64{-v.ID}},
	} {
		if _, err := count(t.Context(), q); !errors.Is(err, calendar.ErrInvalid) {
			t.Errorf("%s: error %v, want calendar.ErrInvalid", name, err)
		}
	}
	got, err := count(t.Context(), &calendar.LinkCountQuery{Link: calendar.KindTag, Now: t0})
	if err != nil || len(got) != 0 {
		t.Errorf("no ids: %v, %v; want an empty map", got, err)
	}
	got, err = count(t.Context(), &calendar.LinkCountQuery{Link: calendar.KindVenue, IDs: []int64{v.ID}, Now: t0})
	if err != nil || got[v.ID] != 1 {
		t.Errorf("one linked event: %v, %v", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := count(ctx, &calendar.LinkCountQuery{Link: calendar.KindVenue, IDs: []int64{v.ID}, Now: t0}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}
