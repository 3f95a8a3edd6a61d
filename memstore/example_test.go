package memstore_test

import (
	"context"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// A Store is a complete calendar.Repository held in memory: create records,
// then list them through the same queries every driver answers.
func ExampleNew() {
	ctx := context.Background()
	store := memstore.New()
	defer store.Close()

	venue, err := store.CreatePost(ctx, &calendar.PostRecord{
		Kind: calendar.KindVenue, Status: calendar.StatusPublish, Slug: "town-hall",
		Lang: "en", Title: calendar.Text{"en": "Town Hall"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2026, 6, 1, 19, 0, 0, 0, time.UTC)
	for _, title := range []string{"Concert", "Concert"} { // the second gets slug concert-2
		if _, err := store.CreatePost(ctx, &calendar.PostRecord{
			Kind: calendar.KindEvent, Status: calendar.StatusPublish, Slug: "concert",
			Lang: "en", Title: calendar.Text{"en": title},
			Start: start, End: start.Add(2 * time.Hour), VenueIDs: []int64{venue.ID},
		}); err != nil {
			fmt.Println(err)
			return
		}
		start = start.Add(24 * time.Hour)
	}

	page, err := store.ListPosts(ctx, &calendar.PostQuery{
		Kind:     calendar.KindEvent,
		VenueIDs: []int64{venue.ID},
		Start:    calendar.TimeRange{From: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)},
		Limit:    10,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("total:", page.Total)
	for _, e := range page.Records {
		fmt.Println(e.ID, e.Slug, e.Start.Format(time.DateOnly))
	}
	// Output:
	// total: 2
	// 2 concert 2026-06-01
	// 3 concert-2 2026-06-02
}
