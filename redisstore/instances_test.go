package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// twoStores opens two stores on one new calendar, each through its own
// client (as two app instances would), and returns them with the first
// client.
func twoStores(t *testing.T, connect func(testing.TB) redis.UniversalClient) ([2]*Store, redis.UniversalClient) {
	t.Helper()
	c1, c2 := connect(t), connect(t)
	prefix := testPrefix(t, c1)
	var stores [2]*Store
	for i, c := range []redis.UniversalClient{c1, c2} {
		s, err := New(c, WithPrefix(prefix))
		if err != nil {
			t.Fatal(err)
		}
		stores[i] = s
	}
	return stores, c1
}

// Two stores with separate clients on one calendar behave as one store:
// concurrent creates get distinct slugs and ids, read-modify-write with
// compare-and-set loses no update, concurrent deletes each succeed once, and
// totals are exact from both sides.
func TestTwoInstances(t *testing.T) {
	t.Run("single", func(t *testing.T) { testTwoInstances(t, singleClient) })
	t.Run("cluster", func(t *testing.T) { testTwoInstances(t, clusterClient) })
}

func testTwoInstances(t *testing.T, connect func(testing.TB) redis.UniversalClient) {
	ctx := context.Background()
	stores, c1 := twoStores(t, connect)
	const workers, perWorker = 3, 10 // per store
	run := func(fn func(s *Store, w int) error) {
		t.Helper()
		var wg sync.WaitGroup
		errs := make(chan error, 2*workers)
		for _, s := range stores {
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := fn(s, w); err != nil {
						errs <- err
					}
				}()
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}

	// Concurrent creates of one title.
	var mu sync.Mutex
	slugs, ids := map[string]int64{}, map[int64]bool{}
	run(func(s *Store, w int) error {
		for range perWorker {
			p, err := s.CreatePost(ctx, event("same", t0))
			if err != nil {
				return err
			}
			mu.Lock()
			if other, dup := slugs[p.Slug]; dup {
				mu.Unlock()
				return fmt.Errorf("slug %q given to %d and %d", p.Slug, other, p.ID)
			}
			slugs[p.Slug], ids[p.ID] = p.ID, true
			mu.Unlock()
		}
		return nil
	})
	const created = 2 * workers * perWorker
	if len(ids) != created {
		t.Fatalf("%d distinct ids for %d creates", len(ids), created)
	}
	for n := 1; n <= created; n++ {
		if _, ok := slugs[calendar.SlugCandidate("same", n)]; !ok {
			t.Fatalf("slug %q missing: slugs are not the first free candidates", calendar.SlugCandidate("same", n))
		}
	}

	// Concurrent read-modify-write of one counter, retried on conflict.
	counter, err := stores[0].CreatePost(ctx, func() *calendar.PostRecord {
		p := event("counter", t0)
		p.Cost = []string{"0"}
		return p
	}())
	if err != nil {
		t.Fatal(err)
	}
	var conflicts atomic.Int64
	run(func(s *Store, w int) error {
		for range perWorker {
			for {
				p, err := s.GetPost(ctx, counter.ID)
				if err != nil {
					return err
				}
				n, _ := strconv.Atoi(p.Cost[0])
				p.Cost[0] = strconv.Itoa(n + 1)
				_, err = s.UpdatePost(ctx, p)
				if errors.Is(err, calendar.ErrConflict) {
					conflicts.Add(1)
					continue
				}
				if err != nil {
					return err
				}
				break
			}
		}
		return nil
	})
	final, err := stores[1].GetPost(ctx, counter.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.Itoa(created); final.Cost[0] != want || final.Version != created+1 {
		t.Fatalf("counter %s at version %d, want %s at %d (lost updates)", final.Cost[0], final.Version, want, created+1)
	}
	t.Logf("%d conflicts retried", conflicts.Load())

	// Both stores delete every post concurrently: each delete wins once.
	var wins, misses atomic.Int64
	run(func(s *Store, w int) error {
		for id := range ids {
			err := s.DeletePost(ctx, id, 0)
			switch {
			case err == nil:
				wins.Add(1)
			case errors.Is(err, calendar.ErrNotFound):
				misses.Add(1)
			default:
				return err
			}
		}
		return nil
	})
	if wins.Load() != created || misses.Load() != int64(2*workers-1)*created {
		t.Fatalf("%d deletes won and %d missed, want %d and %d", wins.Load(), misses.Load(), created, (2*workers-1)*created)
	}
	for i, s := range stores {
		page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 || page.Records[0].ID != counter.ID {
			t.Fatalf("store %d lists %d events after the deletes, want only the counter", i, page.Total)
		}
		if _, err := s.PostBySlug(ctx, calendar.KindEvent, "same"); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("store %d: deleted slug still resolves: %v", i, err)
		}
	}
	checkConsistency(t, c1, stores[0])
}

// Names are the store's to enforce, across Repository values on separate
// clients: 50 concurrent creates of one term name make one term and 49
// NameTakenErrors naming it; 50 concurrent writes each ensuring one new
// venue, organizer and category (and creating an event linking them) make
// one of each, which every event links.
func TestTwoInstancesNames(t *testing.T) {
	t.Run("single", func(t *testing.T) { testTwoInstancesNames(t, singleClient) })
	t.Run("cluster", func(t *testing.T) { testTwoInstancesNames(t, clusterClient) })
}

func testTwoInstancesNames(t *testing.T, connect func(testing.TB) redis.UniversalClient) {
	ctx := context.Background()
	stores, c1 := twoStores(t, connect)
	const writers = 50
	run := func(fn func(s *Store, i int) error) []error {
		var wg sync.WaitGroup
		errs := make([]error, writers)
		start := make(chan struct{})
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = fn(stores[i%2], i)
			}()
		}
		close(start)
		wg.Wait()
		return errs
	}

	var created sync.Map
	errs := run(func(s *Store, i int) error {
		tr, err := s.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: fmt.Sprint("dup-", i),
			Lang: "en", Name: calendar.Text{"en": "Dup2"}})
		if err == nil {
			created.Store(tr.ID, true)
		}
		return err
	})
	var winner int64
	created.Range(func(k, _ any) bool { winner = k.(int64); return true })
	ok, taken := 0, 0
	for i, err := range errs {
		var nt *calendar.NameTakenError
		switch {
		case err == nil:
			ok++
		case errors.As(err, &nt) && nt.ID == winner && nt.Name == "dup2":
			taken++
		default:
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if ok != 1 || taken != writers-1 {
		t.Fatalf("%d terms created and %d refused naming term %d; want 1 and %d", ok, taken, winner, writers-1)
	}
	if terms, err := stores[1].TermsByName(ctx, calendar.TaxonomyCategory, "dup2"); err != nil || len(terms) != 1 {
		t.Fatalf("TermsByName after the race: %v, %v", termIDsOf(terms), err)
	}

	events := make([]*calendar.PostRecord, writers)
	errs = run(func(s *Store, i int) error {
		ev := event(fmt.Sprint("e", i), t0)
		ev.VenueIDs, ev.OrganizerIDs, ev.CategoryIDs = []int64{calendar.StepRef(0)}, []int64{calendar.StepRef(1)}, []int64{calendar.StepRef(2)}
		res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
			{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0,
				Slug: "new-hall", Lang: "en", Title: calendar.Text{"en": "New Hall"}}, Now: t0,
				Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}},
			{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindOrganizer, Status: calendar.StatusPublish, Date: t0,
				Slug: "new-org", Lang: "en", Title: calendar.Text{"en": "New Org"}}, Now: t0},
			{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "new-cat",
				Lang: "en", Name: calendar.Text{"en": "New Cat"}}},
			{Op: calendar.OpCreatePost, Post: ev},
		}})
		if err == nil {
			events[i] = res.Steps[3].Post
		}
		return err
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		page, err := stores[0].ListPosts(ctx, &calendar.PostQuery{Kind: k})
		if err != nil || page.Total != 1 {
			t.Fatalf("%d %ss after %d concurrent ensures of one name, want 1 (%v)", page.Total, k, writers, err)
		}
	}
	if terms, _ := stores[1].TermsByName(ctx, calendar.TaxonomyCategory, "new cat"); len(terms) != 1 {
		t.Fatalf("%d categories named New Cat, want 1", len(terms))
	}
	for _, e := range events[1:] {
		if e.VenueIDs[0] != events[0].VenueIDs[0] || e.OrganizerIDs[0] != events[0].OrganizerIDs[0] || e.CategoryIDs[0] != events[0].CategoryIDs[0] {
			t.Fatalf("events link different records: %v %v %v vs %v %v %v", e.VenueIDs, e.OrganizerIDs, e.CategoryIDs,
				events[0].VenueIDs, events[0].OrganizerIDs, events[0].CategoryIDs)
		}
	}
	checkConsistency(t, c1, stores[0])
}

func termIDsOf(ts []*calendar.TermRecord) []int64 {
	out := make([]int64, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

// The reproduction at the storage level: 50 concurrent writes, on
// two stores, each creating a new tag and updating one event with the same
// expected version to link it. One wins; the 49 others fail with ErrConflict
// and leave no tag behind.
func TestConcurrentPinnedUpdatesLeaveNothing(t *testing.T) {
	t.Run("single", func(t *testing.T) { testConcurrentPinnedUpdates(t, singleClient) })
	t.Run("cluster", func(t *testing.T) { testConcurrentPinnedUpdates(t, clusterClient) })
}

func testConcurrentPinnedUpdates(t *testing.T, connect func(testing.TB) redis.UniversalClient) {
	ctx := context.Background()
	c1, c2 := connect(t), connect(t)
	prefix := testPrefix(t, c1)
	s1, _ := New(c1, WithPrefix(prefix))
	s2, _ := New(c2, WithPrefix(prefix))
	ev := mustCreate(t, s1, event("pinned", t0))
	const writers = 50
	errs := make([]error, writers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			up := ev.Clone()
			up.TagIDs = []int64{calendar.StepRef(0)}
			<-start
			_, errs[i] = []*Store{s1, s2}[i%2].Apply(ctx, &calendar.Write{Steps: []calendar.Step{
				{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: fmt.Sprint("race-", i),
					Lang: "en", Name: calendar.Text{"en": fmt.Sprint("race-", i)}}},
				{Op: calendar.OpUpdatePost, Post: up},
			}})
		}()
	}
	close(start)
	wg.Wait()
	ok, conflicts := 0, 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, calendar.ErrConflict):
			conflicts++
		default:
			t.Errorf("writer %d: %v", i, err)
		}
	}
	tags, err := s2.ListTerms(ctx, calendar.TaxonomyTag)
	if err != nil {
		t.Fatal(err)
	}
	if ok != 1 || conflicts != writers-1 || len(tags) != 1 {
		t.Fatalf("%d writes won, %d conflicted, %d tags exist; want 1, %d, 1", ok, conflicts, len(tags), writers-1)
	}
	if got, _ := s1.GetPost(ctx, ev.ID); got.Version != 2 || len(got.TagIDs) != 1 || got.TagIDs[0] != tags[0].ID {
		t.Fatalf("the event after the race: version %d tags %v", got.Version, got.TagIDs)
	}
	checkConsistency(t, c1, s1)
}
