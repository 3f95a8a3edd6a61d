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
