package boltstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

// TestListMatchesReference runs many random queries, each of which the
// planner answers through some index, and compares every page with the
// brute-force answer: all posts, filtered with storage.MatchPost, sorted
// with storage.ComparePosts, cut with storage.Window.
func TestListMatchesReference(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) { testListMatchesReference(t, seed) })
	}
}

func testListMatchesReference(t *testing.T, seed uint64) {
	// Seed 0 runs without the post cache, the others with a tiny one that
	// is always evicting.
	cache := WithCacheSize(0)
	if seed > 0 {
		cache = WithCacheSize(16)
	}
	s := openTemp(t, WithNoSync(), cache)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, seed))
	d := seedData(t, s, rng, 400)
	// Some updates and deletes so that the indexes have seen rewrites.
	for range 60 {
		id := d.events[rng.IntN(len(d.events))]
		p, err := s.GetPost(ctx, id)
		if err != nil {
			continue
		}
		if rng.IntN(4) == 0 {
			if err := s.DeletePost(ctx, id, 0); err != nil {
				t.Fatal(err)
			}
			continue
		}
		n := randomEvent(rng, d, rng.IntN(1000))
		n.ID, n.Version = p.ID, p.Version
		if _, err := s.UpdatePost(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	mustCheck(t, s)

	var all []*calendar.PostRecord
	for id := int64(1); id <= d.events[len(d.events)-1]; id++ {
		if p, err := s.GetPost(ctx, id); err == nil {
			all = append(all, p)
		}
	}
	for i := range 400 {
		q := randomQuery(rng, d)
		got, err := s.ListPosts(ctx, q)
		if err != nil {
			t.Fatalf("query %d %+v: %v", i, q, err)
		}
		var want []*calendar.PostRecord
		for _, p := range all {
			if storage.MatchPost(q, p) {
				want = append(want, p)
			}
		}
		storage.SortPosts(want)
		if got.Total != len(want) {
			t.Fatalf("query %d %+v: total %d, want %d", i, q, got.Total, len(want))
		}
		if diff := cmp.Diff(ids(storage.Window(want, q)), ids(got.Records)); diff != "" {
			t.Fatalf("query %d %+v: page (-want +got):\n%s", i, q, diff)
		}
	}
}

func ids(ps []*calendar.PostRecord) []int64 {
	out := make([]int64, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

func randomQuery(rng *rand.Rand, d *dataset) *calendar.PostQuery {
	q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: base.Add(time.Duration(rng.IntN(48)-24) * time.Hour)}
	switch rng.IntN(8) {
	case 0:
		q.Kind = calendar.KindVenue
	case 1:
		q.Kind = calendar.KindOrganizer
	}
	some := func(ids []int64) []int64 {
		var out []int64
		for range 1 + rng.IntN(2) {
			out = append(out, ids[rng.IntN(len(ids))])
		}
		return out
	}
	at := func() time.Time { return base.Add(time.Duration(rng.IntN(62*24)-24) * time.Hour) }
	chance := func(n int) bool { return rng.IntN(n) == 0 }
	if chance(3) {
		q.Visible = calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
		if chance(2) {
			q.Visible.Owner, q.Visible.OwnStatuses = 2, []calendar.Status{calendar.StatusDraft, calendar.StatusPrivate}
		}
	}
	if chance(2) {
		q.Start.From, q.Start.FromExclusive = at(), chance(2)
		if chance(2) {
			q.Start.To = q.Start.From.Add(time.Duration(rng.IntN(10*24)) * time.Hour)
			q.Start.ToExclusive = chance(2)
		}
	} else if chance(3) {
		q.Start.To = at()
	}
	if chance(3) {
		q.End.From = at()
		if chance(3) {
			q.End.To = q.End.From.Add(time.Duration(rng.IntN(20*24)) * time.Hour)
		}
	}
	if chance(5) {
		q.VenueIDs = some(d.venues)
	}
	if chance(8) {
		q.NotVenueIDs = some(d.venues)
	}
	if chance(5) {
		q.OrganizerIDs = some(d.organizers)
	}
	if chance(5) {
		q.CategoryIDs = some(d.categories)
	}
	if chance(5) {
		q.TagIDs = some(d.tags)
	}
	if chance(5) {
		f := chance(2)
		q.Featured = &f
	}
	if chance(10) {
		q.PostParent = d.events[rng.IntN(len(d.events))]
	}
	if chance(6) {
		q.ExcludeHidden = true
	}
	if chance(8) {
		q.IDs = some(append(append(d.events, d.venues...), d.organizers...))
		for range rng.IntN(30) {
			q.IDs = append(q.IDs, d.events[rng.IntN(len(d.events))])
		}
	}
	if chance(8) {
		q.ExcludeIDs = some(d.events)
	}
	if chance(6) {
		q.Search = []string{[]string{"jazz", "rock", "concert", "hall", "1"}[rng.IntN(5)]}
	}
	if chance(20) {
		q.Name = fmt.Sprint("venue hall-", rng.IntN(4))
	}
	q.Offset = rng.IntN(3) * 5
	if !chance(5) {
		q.Limit = 1 + rng.IntN(12)
	}
	q.CountOnly = chance(10)
	return q
}

// TestListReadsPageAndMatchesOnly proves the pushdown: a narrow window over
// many events, and a query by venue, touch a number of keys in proportion
// to their matches (plus the planner's capped counts), not to the bucket.
func TestListReadsPageAndMatchesOnly(t *testing.T) {
	const n = 10000
	s := openTemp(t, WithNoSync())
	seedBulk(t, s, n, 365*24*time.Hour)
	v := mustCreate(t, s, post(calendar.KindVenue, "hall", base))
	for i := range 30 {
		e := event(fmt.Sprint("at-hall-", i), base.Add(time.Duration(i)*24*time.Hour))
		e.VenueIDs = []int64{v.ID}
		mustCreate(t, s, e)
	}

	cases := []struct {
		name string
		q    calendar.PostQuery
	}{
		{"narrow window", calendar.PostQuery{Kind: calendar.KindEvent, Limit: 9,
			Start: calendar.TimeRange{From: base.Add(100 * 24 * time.Hour), To: base.Add(101 * 24 * time.Hour)}}},
		{"venue", calendar.PostQuery{Kind: calendar.KindEvent, Limit: 9, VenueIDs: []int64{v.ID}}},
		{"venue in a window", calendar.PostQuery{Kind: calendar.KindEvent, Limit: 9, VenueIDs: []int64{v.ID},
			Start: calendar.TimeRange{From: base}, End: calendar.TimeRange{From: base}}},
		{"ids", calendar.PostQuery{Kind: calendar.KindEvent, IDs: []int64{3, 5, 8, 13}}},
		// start_date and end_date: Start from below, End from above; with
		// no odd ends stored the End bound also bounds the Start walk.
		{"week", calendar.PostQuery{Kind: calendar.KindEvent, Limit: 9,
			Start: calendar.TimeRange{From: base.Add(100 * 24 * time.Hour)}, End: calendar.TimeRange{To: base.Add(107 * 24 * time.Hour)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			page, steps := listSteps(t, s, &tc.q)
			if page.Total == 0 {
				t.Fatalf("no matches: the case proves nothing")
			}
			if limit := 20*page.Total + 50; steps > limit {
				t.Errorf("%d cursor steps for %d matches of %d events; want ≤ %d", steps, page.Total, n, limit)
			}
		})
	}
}

// TestListOneLinkWalksItsPage proves that a page of one category among
// many (the totals counted, the walk stopping at the end of the page) reads
// the category's own events in list order: the cursor steps do not grow
// with the category's events nor with the calendar's.
func TestListOneLinkWalksItsPage(t *testing.T) {
	const n, inCat, limit = 5000, 1000, 9
	s := openTemp(t, WithNoSync())
	seedBulk(t, s, n, 365*24*time.Hour)
	cat := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "jazz", Lang: "en", Name: calendar.Text{"en": "Jazz"}})
	other := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "rock", Lang: "en", Name: calendar.Text{"en": "Rock"}})
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range inCat {
		e := event(fmt.Sprint("jazz-", i), base.Add(time.Duration(rng.Int64N(int64(365*24*time.Hour)))))
		e.CategoryIDs = []int64{cat.ID}
		if i%2 == 0 {
			e.CategoryIDs = append(e.CategoryIDs, other.ID)
		}
		mustCreate(t, s, e)
	}
	pub := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
	for _, tc := range []struct {
		name     string
		q        calendar.PostQuery
		maxSteps int
	}{
		{"category from now on", calendar.PostQuery{Kind: calendar.KindEvent, Now: base, Visible: pub, Limit: limit, CategoryIDs: []int64{cat.ID},
			End: calendar.TimeRange{From: base.Add(90 * 24 * time.Hour)}}, 200},
		{"category, second page", calendar.PostQuery{Kind: calendar.KindEvent, Now: base, Visible: pub, Limit: limit, Offset: limit, CategoryIDs: []int64{cat.ID},
			End: calendar.TimeRange{From: base.Add(90 * 24 * time.Hour)}}, 200},
		// Two categories: the total is not counted, so the walk visits
		// every entry of both in the window, each event once.
		{"two categories in a week", calendar.PostQuery{Kind: calendar.KindEvent, Now: base, Visible: pub, Limit: limit, CategoryIDs: []int64{cat.ID, other.ID},
			Start: calendar.TimeRange{From: base.Add(100 * 24 * time.Hour), To: base.Add(107 * 24 * time.Hour)}}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page, steps := listSteps(t, s, &tc.q)
			if len(page.Records) != limit || page.Total <= limit {
				t.Fatalf("page of %d records of %d: the case proves nothing", len(page.Records), page.Total)
			}
			for i, p := range page.Records {
				if !slices.Contains(p.CategoryIDs, cat.ID) && !slices.Contains(p.CategoryIDs, other.ID) {
					t.Fatalf("record %d: %+v is in neither category", i, p)
				}
			}
			t.Logf("%d cursor steps for a page of %d of %d matches", steps, len(page.Records), page.Total)
			if steps > tc.maxSteps {
				t.Errorf("%d cursor steps for a page of %d of %d matches; want ≤ %d", steps, len(page.Records), page.Total, tc.maxSteps)
			}
		})
	}
}

// listSteps runs q's lister in one read transaction of s and returns its
// page and the cursor steps it took.
func listSteps(t *testing.T, s *Store, q *calendar.PostQuery) (*calendar.PostPage, int) {
	t.Helper()
	var page *calendar.PostPage
	var steps int
	err := s.db.View(func(tx *bolt.Tx) error {
		l := newLister(context.Background(), tx, q)
		var err error
		page, err = l.run()
		steps = l.steps
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return page, steps
}
