package redisstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
	"github.com/redis/go-redis/v9"
)

// Two stores with separate clients write series on one calendar at once:
// each creates series in single writes, and both recompute the same series
// (drop its last occurrence) with version checks, retrying on conflicts. No
// series is ever seen in part, no recompute is lost, and totals are exact.
func TestTwoInstancesSeries(t *testing.T) {
	t.Run("single", func(t *testing.T) { testTwoInstancesSeries(t, singleClient) })
	t.Run("cluster", func(t *testing.T) { testTwoInstancesSeries(t, clusterClient) })
}

func testTwoInstancesSeries(t *testing.T, connect func(testing.TB) redis.UniversalClient) {
	ctx := context.Background()
	stores, _ := twoStores(t, connect)
	const perStore, size, shrinks = 3, 25, 6
	var mu sync.Mutex
	var series []int64
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i, s := range stores {
		for j := range perStore {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := s.Apply(ctx, storagetest.SeriesWrite(fmt.Sprintf("s%d-%d", i, j), t0.Add(time.Duration(j)*time.Hour), size))
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				series = append(series, res.Steps[0].Post.ID)
				mu.Unlock()
			}()
		}
	}
	// A reader on the other store never sees a series in part.
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			page, err := stores[1].ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
			if err != nil {
				errs <- err
				return
			}
			if err := seriesWhole(page.Records); err != nil {
				errs <- err
				return
			}
		}
	}()
	// Both stores shrink the first series created, concurrently.
	shrink := func(s *Store, id int64) error {
		for {
			sr, err := s.GetPost(ctx, id)
			if err != nil {
				return err
			}
			kids, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: id})
			if err != nil {
				return err
			}
			n := len(kids.Records)
			sr.Recurrence = []string{fmt.Sprintf("RRULE:FREQ=WEEKLY;COUNT=%d", n-1)}
			last := kids.Records[n-1]
			_, err = s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
				{Op: calendar.OpUpdatePost, Post: sr},
				{Op: calendar.OpDeletePost, ID: last.ID, Version: last.Version},
			}})
			if errors.Is(err, calendar.ErrConflict) || errors.Is(err, calendar.ErrNotFound) {
				continue // the other writer won this round: read again
			}
			return err
		}
	}
	var first int64
	for first == 0 {
		mu.Lock()
		if len(series) > 0 {
			first = series[0]
		}
		mu.Unlock()
		select {
		case err := <-errs:
			t.Fatal(err)
		default:
		}
	}
	var sw sync.WaitGroup
	for i := range 2 * shrinks {
		sw.Add(1)
		go func() {
			defer sw.Done()
			if err := shrink(stores[i%2], first); err != nil {
				errs <- err
			}
		}()
	}
	sw.Wait()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, s := range stores {
		all, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
		if err != nil {
			t.Fatal(err)
		}
		if err := seriesWhole(all.Records); err != nil {
			t.Fatal(err)
		}
		kids, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: first, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if want := size - 2*shrinks; kids.Total != want {
			t.Errorf("series %d: %d occurrences after %d shrinks, want %d", first, kids.Total, 2*shrinks, want)
		}
		tpl, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Series: calendar.SeriesHideInstances, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		occ, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Series: calendar.SeriesHideTemplates, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if n := 2 * perStore; tpl.Total != n || occ.Total != n*size-2*shrinks {
			t.Errorf("totals: %d series records, %d occurrences; want %d and %d", tpl.Total, occ.Total, n, n*size-2*shrinks)
		}
	}
}

// seriesWhole reports a series whose rule counts another number of
// occurrences than the records hold, or an occurrence without its series.
func seriesWhole(ps []*calendar.PostRecord) error {
	rule, count := map[int64]int{}, map[int64]int{}
	for _, p := range ps {
		if len(p.Recurrence) > 0 {
			var n int
			if _, err := fmt.Sscanf(p.Recurrence[0], "RRULE:FREQ=WEEKLY;COUNT=%d", &n); err != nil {
				return fmt.Errorf("series %d: rule %q", p.ID, p.Recurrence)
			}
			rule[p.ID] = n
		}
		if !p.RecurrenceID.IsZero() {
			count[p.PostParent]++
		}
	}
	for id, n := range count {
		if _, ok := rule[id]; !ok {
			return fmt.Errorf("%d occurrences of series %d, which is not listed", n, id)
		}
	}
	for id, n := range rule {
		if count[id] != n {
			return fmt.Errorf("series %d counts %d occurrences and %d are listed", id, n, count[id])
		}
	}
	return nil
}
