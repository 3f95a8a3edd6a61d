package redisstore

import (
	"fmt"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// The round trips of the calendar's reads of rendered events, embeds
// included: one event by id, a category page and a 7-day window page. Term
// counts are warm (the calendar caches them), as under load.
func TestRenderRoundTrips(t *testing.T) {
	t.Run("single", func(t *testing.T) { testRenderRoundTrips(t, singleClient(t)) })
	t.Run("cluster", func(t *testing.T) { testRenderRoundTrips(t, clusterClient(t)) })
}

func testRenderRoundTrips(t *testing.T, c redis.UniversalClient) {
	s := newTestStore(t, c)
	cal := calendar.New(s)
	h := &tripCounter{}
	c.AddHook(h)
	day := time.Now().UTC().AddDate(0, 0, 3).Truncate(24 * time.Hour)
	var ev *calendar.Event
	for i := range 20 {
		start := day.Add(time.Duration(10+i%8) * time.Hour)
		var err error
		ev, err = cal.CreateEvent(system, calendar.EventInput{
			Title:      calendar.Some(fmt.Sprint("Event ", i)),
			StartDate:  calendar.Some(start.Format(time.DateTime)),
			EndDate:    calendar.Some(start.Add(time.Hour).Format(time.DateTime)),
			Venues:     calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some(fmt.Sprint("Hall ", i%3))}}}),
			Organizers: calendar.Some([]calendar.OrganizerRef{{New: &calendar.OrganizerInput{Name: calendar.Some(fmt.Sprint("Org ", i%2))}}}),
			Categories: calendar.Some([]calendar.TermRef{{Name: fmt.Sprint("Cat ", i%2)}}),
			Tags:       calendar.Some([]calendar.TermRef{{Name: fmt.Sprint("Tag ", i%4)}, {Name: "all"}}),
		}, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
	}
	week := calendar.EventQuery{StartDate: day.Format(time.DateOnly), EndDate: day.AddDate(0, 0, 7).Format(time.DateOnly)}
	category := week
	category.Categories = []string{ev.Categories[0].Slug}
	reads := []struct {
		name  string
		limit int
		op    func() error
	}{
		{"GetEvent", 2, func() error {
			got, err := cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
			if err == nil && (len(got.Venues) != 1 || len(got.Organizers) != 1 || len(got.Categories) != 1 || len(got.Tags) != 2) {
				err = fmt.Errorf("embeds of %+v", got)
			}
			return err
		}},
		{"ListEvents 7 days", 2, func() error {
			p, err := cal.ListEvents(system, week)
			if err == nil && (p.Total != 20 || len(p.Events[0].Venues) != 1 || len(p.Events[0].Tags) != 2) {
				err = fmt.Errorf("page of %d events, total %d", len(p.Events), p.Total)
			}
			return err
		}},
		{"ListEvents category", 3, func() error {
			p, err := cal.ListEvents(system, category)
			if err == nil && (p.Total != 10 || len(p.Events[0].Organizers) != 1 || len(p.Events[0].Categories) != 1) {
				err = fmt.Errorf("page of %d events, total %d", len(p.Events), p.Total)
			}
			return err
		}},
	}
	for _, r := range reads {
		if err := r.op(); err != nil { // warm: scripts loaded, term counts cached
			t.Fatal(r.name, err)
		}
	}
	for _, r := range reads {
		n := h.trips(t, r.op)
		t.Logf("%-20s %d round trips", r.name, n)
		if n > r.limit {
			t.Errorf("%s: %d round trips, want ≤ %d", r.name, n, r.limit)
		}
	}
}
