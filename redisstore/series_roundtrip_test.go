package redisstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// A series write costs the same bounded number of round trips whatever its
// number of occurrences: creating it, recomputing it, listing a page of it.
func TestSeriesRoundTrips(t *testing.T) {
	ctx := context.Background()
	c := singleClient(t)
	h := &tripCounter{}
	c.AddHook(h)
	s := newTestStore(t, c)
	var create, recompute, list []int
	for _, n := range []int{3, 300} {
		var res *calendar.WriteResult
		create = append(create, h.trips(t, func() (err error) {
			res, err = s.Apply(ctx, storagetest.SeriesWrite(fmt.Sprint("rt-", n), t0, n))
			return err
		}))
		steps := []calendar.Step{}
		for _, st := range res.Steps {
			p := st.Post.Clone()
			p.Start, p.End = p.Start.Add(time.Hour), p.End.Add(time.Hour)
			steps = append(steps, calendar.Step{Op: calendar.OpUpdatePost, Post: p})
		}
		recompute = append(recompute, h.trips(t, func() error {
			_, err := s.Apply(ctx, &calendar.Write{Steps: steps})
			return err
		}))
		list = append(list, h.trips(t, func() error {
			_, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: res.Steps[0].Post.ID,
				Series: calendar.SeriesHideTemplates, Limit: 9, Offset: 1})
			return err
		}))
	}
	for _, c := range []struct {
		name  string
		trips []int
		max   int
	}{{"create", create, 3}, {"recompute", recompute, 3}, {"list", list, 3}} {
		if c.trips[0] != c.trips[1] || c.trips[1] > c.max {
			t.Errorf("%s: %v round trips for 3 and 300 occurrences, want equal and at most %d", c.name, c.trips, c.max)
		}
	}
	t.Logf("round trips: create %v, recompute %v, list %v", create, recompute, list)
}
