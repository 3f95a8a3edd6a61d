package redisstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
	"github.com/redis/go-redis/v9"
)

func TestLinkCountConformance(t *testing.T) {
	singleClient(t)
	storagetest.RunLinkCounts(t, singleFactory, true)
}

func TestLinkCountConformanceCluster(t *testing.T) {
	clusterClient(t)
	storagetest.RunLinkCounts(t, clusterFactory, true)
}

// Grouped counts take two round trips however many ids are asked and however
// many events they link to (more than one HMGET chunk of metas).
func TestLinkCountRoundTrips(t *testing.T) {
	t.Run("single", func(t *testing.T) { testLinkCountRoundTrips(t, singleClient(t)) })
	t.Run("cluster", func(t *testing.T) { testLinkCountRoundTrips(t, clusterClient(t)) })
}

func testLinkCountRoundTrips(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	s := newTestStore(t, c)
	const venues, events = 300, 2*mgetChunk + 100
	apply := func(steps []calendar.Step) *calendar.WriteResult {
		t.Helper()
		res, err := s.Apply(ctx, &calendar.Write{Steps: steps})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	var steps []calendar.Step
	for i := range venues {
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue,
			Status: calendar.StatusPublish, Date: t0, Slug: fmt.Sprint("v", i), Title: calendar.Text{"en": fmt.Sprint("v", i)}}})
	}
	var ids []int64
	for _, st := range apply(steps).Steps {
		ids = append(ids, st.Post.ID)
	}
	want := map[int64]int{}
	for lo := 0; lo < events; lo += 100 {
		steps = steps[:0]
		for i := lo; i < min(lo+100, events); i++ {
			p := event(fmt.Sprint("e", i), t0.Add(time.Duration(i)*time.Hour))
			if i%3 == 0 {
				p.Status = calendar.StatusDraft
			}
			v := ids[i%len(ids)]
			p.VenueIDs = []int64{v, ids[(i+1)%len(ids)], v} // a repeated link counts once
			steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: p})
			if p.Status == calendar.StatusPublish && !p.End.Before(t0.Add(100*time.Hour)) {
				want[v]++
				want[ids[(i+1)%len(ids)]]++
			}
		}
		apply(steps)
	}
	h := &tripCounter{}
	c.AddHook(h)
	for _, n := range []int{1, 10, venues} {
		q := &calendar.LinkCountQuery{Link: calendar.KindVenue, IDs: ids[:n], Now: t0.Add(100 * time.Hour),
			Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}, Upcoming: true}
		var got map[int64]int
		trips := h.trips(t, func() (err error) { got, err = s.CountLinks(ctx, q); return err })
		if trips != 2 {
			t.Errorf("%d ids: %d round trips, want 2", n, trips)
		}
		for _, id := range ids[:n] {
			if got[id] != want[id] {
				t.Errorf("%d ids: venue %d counts %d, want %d", n, id, got[id], want[id])
			}
		}
	}
	// Nothing linked: one round trip.
	q := &calendar.LinkCountQuery{Link: calendar.KindOrganizer, IDs: ids, Now: t0}
	if trips := h.trips(t, func() error { _, err := s.CountLinks(ctx, q); return err }); trips != 1 {
		t.Errorf("no linked events: %d round trips, want 1", trips)
	}
}

func BenchmarkLinkCounts(b *testing.B) {
	storagetest.BenchLinkCounts(b, singleFactory)
}
