package redisstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// twoCalendars returns two calendars, each on its own Store and client,
// sharing one calendar on Redis: two application instances.
func twoCalendars(t *testing.T, connect func(testing.TB) redis.UniversalClient) ([2]*calendar.Service, *Store) {
	c1, c2 := connect(t), connect(t)
	prefix := testPrefix(t, c1)
	var cals [2]*calendar.Service
	var first *Store
	for i, c := range []redis.UniversalClient{c1, c2} {
		s, err := New(c, WithPrefix(prefix))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = s
		}
		cals[i] = calendar.New(s)
	}
	return cals, first
}

var system = calendar.WithPrincipal(context.Background(), calendar.System)

// concurrently runs fn n times at once, alternating the two calendars.
func concurrently(n int, cals [2]*calendar.Service, fn func(cal *calendar.Service, i int) error) []error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(cals[i%2], i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// The calendar on two instances sharing Redis, as the issue tried it: 50
// concurrent updates without If-Match all succeed and none is lost; 50 with
// one If-Match make one winner and no orphan tag; 50 creates naming one new
// venue, organizer, category and tags make one of each; 50 creates of one
// category name make one, the others get term_exists naming it.
func TestCalendarOnTwoInstances(t *testing.T) {
	t.Run("single", func(t *testing.T) { testCalendarOnTwoInstances(t, singleClient) })
	t.Run("cluster", func(t *testing.T) { testCalendarOnTwoInstances(t, clusterClient) })
}

func testCalendarOnTwoInstances(t *testing.T, connect func(testing.TB) redis.UniversalClient) {
	cals, store := twoCalendars(t, connect)
	const n = 50
	in := calendar.EventInput{Title: calendar.Some("Race"), StartDate: calendar.Some("2026-04-01 20:00"), EndDate: calendar.Some("2026-04-01 22:00")}
	ev, err := cals[0].CreateEvent(system, in, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}

	errs := concurrently(n, cals, func(cal *calendar.Service, i int) error {
		_, err := cal.UpdateEvent(system, calendar.ByID(ev.ID),
			calendar.EventInput{Tags: calendar.Some([]calendar.TermRef{{Name: fmt.Sprint("free-", i)}})}, calendar.WriteOptions{})
		return err
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("unpinned update %d: %v", i, err)
		}
	}
	got, err := cals[1].GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
	if err != nil || got.Version != ev.Version+n {
		t.Fatalf("version %d after %d unpinned updates from %d (%v): a write was lost", got.Version, n, ev.Version, err)
	}

	errs = concurrently(n, cals, func(cal *calendar.Service, i int) error {
		_, err := cal.UpdateEvent(system, calendar.ByID(ev.ID),
			calendar.EventInput{Tags: calendar.Some([]calendar.TermRef{{Name: fmt.Sprint("race-", i)}})},
			calendar.WriteOptions{IfVersion: got.Version})
		return err
	})
	ok := 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, calendar.ErrPreconditionFailed):
		default:
			t.Errorf("pinned update %d: %v", i, err)
		}
	}
	terms, err := store.ListTerms(context.Background(), calendar.TaxonomyTag)
	if err != nil {
		t.Fatal(err)
	}
	if ok != 1 || len(terms) != n+1 {
		t.Fatalf("%d pinned updates won, %d tags exist (want 1 and %d: the free ones and one race tag)", ok, len(terms), n+1)
	}

	nested := func(title string) calendar.EventInput {
		in := in
		in.Title = calendar.Some(title)
		in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some("New Hall")}}})
		in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: &calendar.OrganizerInput{Name: calendar.Some("New Org")}}})
		in.Categories = calendar.Some([]calendar.TermRef{{Name: "New Cat"}})
		in.Tags = calendar.Some([]calendar.TermRef{{Name: "new-tag-1"}, {Name: "new-tag-2"}})
		return in
	}
	errs = concurrently(n, cals, func(cal *calendar.Service, i int) error {
		_, err := cal.CreateEvent(system, nested(fmt.Sprint("Nested ", i)), calendar.WriteOptions{})
		return err
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("nested create %d: %v", i, err)
		}
	}
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		if page := mustList(t, store, &calendar.PostQuery{Kind: k}); page.Total != 1 {
			t.Errorf("%d %ss after %d creates naming one new %s", page.Total, k, n, k)
		}
	}
	for _, name := range []string{"new-tag-1", "new-tag-2"} {
		if ts, _ := store.TermsByName(context.Background(), calendar.TaxonomyTag, name); len(ts) != 1 {
			t.Errorf("%d tags named %s", len(ts), name)
		}
	}

	var mu sync.Mutex
	var created []int64
	errs = concurrently(n, cals, func(cal *calendar.Service, i int) error {
		tm, err := cal.CreateTerm(system, calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Dup2")}, calendar.WriteOptions{})
		if err == nil {
			mu.Lock()
			created = append(created, tm.ID)
			mu.Unlock()
		}
		return err
	})
	exists := 0
	for i, err := range errs {
		var ce *calendar.Error
		switch {
		case err == nil:
		case errors.As(err, &ce) && ce.Reason == "term_exists":
			exists++
			if len(created) == 1 && ce.TermID != created[0] {
				t.Errorf("term_exists names %d, the term is %d", ce.TermID, created[0])
			}
		default:
			t.Errorf("term create %d: %v", i, err)
		}
	}
	if len(created) != 1 || exists != n-1 {
		t.Fatalf("%d Dup2 categories created, %d term_exists; want 1 and %d", len(created), exists, n-1)
	}
	checkConsistency(t, store.c, store)
}
