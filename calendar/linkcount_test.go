package calendar_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/storage/storagetest"
	"github.com/google/go-cmp/cmp"
)

// plainRepo hides every optional extension of the repository it wraps, so
// the Service falls back to per-id count queries.
type plainRepo struct{ calendar.Repository }

// linkCountingRepo counts the grouped counts and the per-record count queries
// the Service asks of a driver that has a LinkCounter.
type linkCountingRepo struct {
	*memstore.Store
	grouped, single atomic.Int64
	gate            atomic.Pointer[chan struct{}] // when set, each grouped count waits for it
}

func (r *linkCountingRepo) CountLinks(ctx context.Context, q *calendar.LinkCountQuery) (map[int64]int, error) {
	r.grouped.Add(1)
	if g := r.gate.Load(); g != nil {
		<-*g
	}
	return r.Store.CountLinks(ctx, q)
}

func (r *linkCountingRepo) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	if q.CountOnly && q.Kind == calendar.KindEvent {
		r.single.Add(1)
	}
	return r.Store.ListPosts(ctx, q)
}

// The fallback (one count query per id) meets the grouped count guarantee
// on any repository.
func TestLinkCountFallbackConformance(t *testing.T) {
	storagetest.RunLinkCounts(t, func(testing.TB) calendar.Repository { return plainRepo{memstore.New()} }, false)
}

// countWorld is a calendar of venues, organizers and terms linked by
// events of every status, author and end, some ended at testNow.
type countWorld struct {
	store                  *memstore.Store
	venues, orgs, cats, tg []int64
}

func seedCountWorld(t *testing.T) *countWorld {
	t.Helper()
	w := &countWorld{store: memstore.New()}
	cal := calendar.New(w.store, calendar.WithClock(func() time.Time { return testNow }))
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 12 {
		v, err := cal.CreateVenue(system, calendar.VenueInput{Name: s(fmt.Sprint("Venue ", i))}, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.venues = append(w.venues, v.ID)
		o, err := cal.CreateOrganizer(system, calendar.OrganizerInput{Name: s(fmt.Sprint("Org ", i))}, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.orgs = append(w.orgs, o.ID)
	}
	for i := range 6 {
		c, err := cal.CreateTerm(system, calendar.TaxonomyCategory, calendar.TermInput{Name: s(fmt.Sprint("cat", i))}, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.cats = append(w.cats, c.ID)
		g, err := cal.CreateTerm(system, calendar.TaxonomyTag, calendar.TermInput{Name: s(fmt.Sprint("tag", i))}, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.tg = append(w.tg, g.ID)
	}
	statuses := []string{"publish", "publish", "draft", "pending", "private", "future"}
	for i := range 40 {
		start := testNow.Add(time.Duration(rng.IntN(24*60)-12*24) * time.Hour)
		in := eventIn(fmt.Sprint("e", i), start.Format("2006-01-02 15:04"), start.Add(2*time.Hour).Format("2006-01-02 15:04"))
		in.Status = calendar.Some(calendar.Status(statuses[rng.IntN(len(statuses))]))
		if in.Status.Value == "future" {
			in.Date = s(testNow.Add(48 * time.Hour).Format("2006-01-02 15:04:05"))
		}
		in.Author = calendar.Some([]int64{author.ID, contributor.ID, admin.ID}[rng.IntN(3)])
		// Venues and organizers 8 to 11 stay unlinked.
		in.Venues = calendar.Some([]calendar.VenueRef{{ID: w.venues[rng.IntN(8)]}})
		in.Organizers = calendar.Some([]calendar.OrganizerRef{{ID: w.orgs[rng.IntN(8)]}})
		in.Categories = calendar.Some([]calendar.TermRef{{ID: w.cats[rng.IntN(4)]}, {ID: w.cats[rng.IntN(4)]}})
		in.Tags = calendar.Some([]calendar.TermRef{{ID: w.tg[rng.IntN(4)]}})
		if _, err := cal.CreateEvent(system, in, calendar.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// has_events and only_with_upcoming answer exactly as the per-record
// fallback does, for every caller, with one grouped count per filter and no
// count query per venue or organizer.
func TestPlaceFiltersGrouped(t *testing.T) {
	w := seedCountWorld(t)
	repo := &linkCountingRepo{Store: w.store}
	now := func() time.Time { return testNow }
	dir := users{author.ID: author, contributor.ID: contributor, admin.ID: admin}
	grouped := calendar.New(repo, calendar.WithClock(now), calendar.WithUsers(dir))
	fallback := calendar.New(plainRepo{w.store}, calendar.WithClock(now), calendar.WithUsers(dir))
	yes, no := true, false
	type listing struct {
		Names []string
		Total int
	}
	list := func(cal *calendar.Service, ctx context.Context, kind calendar.Kind, has *bool, upcoming bool) listing {
		t.Helper()
		var out listing
		if kind == calendar.KindVenue {
			p, err := cal.ListVenues(ctx, calendar.VenueQuery{HasEvents: has, OnlyWithUpcoming: upcoming, PerPage: 50})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range p.Venues {
				out.Names = append(out.Names, v.Name)
			}
			out.Total = p.Total
		} else {
			p, err := cal.ListOrganizers(ctx, calendar.OrganizerQuery{HasEvents: has, OnlyWithUpcoming: upcoming, PerPage: 50})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range p.Organizers {
				out.Names = append(out.Names, o.Name)
			}
			out.Total = p.Total
		}
		return out
	}
	callers := map[string]context.Context{"anonymous": as(anonymous), "author": as(author), "contributor": as(contributor), "admin": as(admin)}
	for name, ctx := range callers {
		for _, kind := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
			for _, has := range []*bool{nil, &yes, &no} {
				for _, upcoming := range []bool{false, true} {
					if has == nil && !upcoming {
						continue
					}
					repo.grouped.Store(0)
					repo.single.Store(0)
					got := list(grouped, ctx, kind, has, upcoming)
					want := list(fallback, ctx, kind, has, upcoming)
					what := fmt.Sprintf("%s %v has_events=%v upcoming=%v", name, kind, has != nil && *has, upcoming)
					if has == nil {
						what = fmt.Sprintf("%s %v upcoming=%v", name, kind, upcoming)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s: grouped differs from per-record counts (-want +got):\n%s", what, diff)
					}
					filters := int64(0)
					if has != nil {
						filters++
					}
					if upcoming {
						filters++
					}
					if n := repo.grouped.Load(); n > filters || n == 0 {
						t.Errorf("%s: %d grouped counts, want 1 per filter (%d)", what, n, filters)
					}
					if n := repo.single.Load(); n != 0 {
						t.Errorf("%s: %d per-record count queries", what, n)
					}
				}
			}
		}
	}
	// The world has places of every kind, so the comparison above means something.
	if l := list(grouped, as(admin), calendar.KindVenue, &no, false); l.Total != 4 {
		t.Errorf("venues without events: %d, want the 4 never linked", l.Total)
	}
	if l := list(grouped, as(anonymous), calendar.KindVenue, nil, true); l.Total == 0 || l.Total == 8 {
		t.Errorf("anonymous upcoming venues: %d; the world should have some but not all", l.Total)
	}
}

// A term list and an event page each count their terms' use in one
// grouped count per taxonomy, cached afterwards, and the counts are those
// of the per-term fallback.
func TestTermCountsGrouped(t *testing.T) {
	w := seedCountWorld(t)
	repo := &linkCountingRepo{Store: w.store}
	now := func() time.Time { return testNow }
	grouped := calendar.New(repo, calendar.WithClock(now))
	fallback := calendar.New(plainRepo{w.store}, calendar.WithClock(now), calendar.WithTermCountTTL(0))
	no := false
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		repo.grouped.Store(0)
		got, err := grouped.ListTerms(system, tax, calendar.TermQuery{HideEmpty: &no, PerPage: 50})
		if err != nil {
			t.Fatal(err)
		}
		if n := repo.grouped.Load(); n != 1 {
			t.Errorf("%v list: %d grouped counts, want 1", tax, n)
		}
		want, err := fallback.ListTerms(system, tax, calendar.TermQuery{HideEmpty: &no, PerPage: 50})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v counts (-fallback +grouped):\n%s", tax, diff)
		}
		nonZero := 0
		for _, tm := range got.Terms {
			if tm.Count > 0 {
				nonZero++
			}
		}
		if nonZero < 2 || nonZero == len(got.Terms) {
			t.Errorf("%v: %d of %d terms used; the world should have used and unused ones", tax, nonZero, len(got.Terms))
		}
		if _, err := grouped.ListTerms(system, tax, calendar.TermQuery{HideEmpty: &no}); err != nil {
			t.Fatal(err)
		}
		if n := repo.grouped.Load(); n != 1 {
			t.Errorf("%v list again within the TTL: %d grouped counts, want the cached 1", tax, n)
		}
	}
	// A cold cache: an event page counts its terms in one grouped count per taxonomy.
	cold := calendar.New(repo, calendar.WithClock(now))
	repo.grouped.Store(0)
	repo.single.Store(0)
	page, err := cold.ListEvents(system, calendar.EventQuery{StartDate: "2026-02-01", PerPage: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) < 10 {
		t.Fatalf("%d events on the page", len(page.Events))
	}
	if n := repo.grouped.Load(); n != 2 {
		t.Errorf("event page: %d grouped counts, want 2 (categories, tags)", n)
	}
	if n := repo.single.Load(); n != 0 {
		t.Errorf("event page: %d per-term count queries", n)
	}
}

// Readers of expired counts of overlapping term sets share the recounts in
// flight: one grouped recount serves them all.
func TestTermCountsGroupedSingleFlight(t *testing.T) {
	w := seedCountWorld(t)
	repo := &linkCountingRepo{Store: w.store}
	cal := calendar.New(repo, calendar.WithClock(func() time.Time { return testNow }), calendar.WithTermCountTTL(time.Minute))
	gate := make(chan struct{})
	repo.gate.Store(&gate)
	no := false
	var wg sync.WaitGroup
	errs := make([]error, 16)
	counts := make([][]calendar.Term, 16)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := cal.ListTerms(system, calendar.TaxonomyCategory, calendar.TermQuery{HideEmpty: &no})
			errs[i] = err
			if err == nil {
				counts[i] = p.Terms
			}
		}()
	}
	for i := 0; repo.grouped.Load() == 0 && i < 1000; i++ {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // every reader has joined the flight
	close(gate)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(counts[0], counts[i]); diff != "" {
			t.Errorf("reader %d saw other counts:\n%s", i, diff)
		}
	}
	if n := repo.grouped.Load(); n != 1 {
		t.Errorf("%d grouped recounts for 16 readers, want 1", n)
	}
}
