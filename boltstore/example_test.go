package boltstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
)

func Example() {
	dir, err := os.MkdirTemp("", "eventcal")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	store, err := boltstore.Open(filepath.Join(dir, "eventcal.db"), boltstore.WithTimeout(time.Second))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()

	// A store is usually handed to calendar.New; here it is used directly.
	ctx := context.Background()
	start := time.Date(2026, 6, 21, 18, 0, 0, 0, time.UTC)
	created, err := store.CreatePost(ctx, &calendar.PostRecord{
		Kind: calendar.KindEvent, Status: calendar.StatusPublish, Slug: "summer-concert", Lang: "en",
		Title: calendar.Text{"en": "Summer concert"}, Start: start, End: start.Add(2 * time.Hour),
	})
	if err != nil {
		log.Fatal(err)
	}
	got, err := store.PostBySlug(ctx, calendar.KindEvent, "summer-concert")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.ID == created.ID, got.Version, got.Title["en"], got.Start.Format(time.RFC3339))
	// Output: true 1 Summer concert 2026-06-21T18:00:00Z
}

// An event, the venue it names and a tag created by name, written as one
// transaction: either all three are stored or none is. A second write naming
// the same venue and tag reuses them.
func ExampleStore_Apply() {
	dir, err := os.MkdirTemp("", "eventcal")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := boltstore.Open(filepath.Join(dir, "eventcal.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()

	ctx := context.Background()
	start := time.Date(2026, 6, 21, 18, 0, 0, 0, time.UTC)
	write := func(slug string) *calendar.Write {
		return &calendar.Write{Steps: []calendar.Step{
			{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish,
				Slug: "park-stage", Lang: "en", Title: calendar.Text{"en": "Park Stage"}}},
			{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "open-air",
				Lang: "en", Name: calendar.Text{"en": "Open air"}}},
			{Op: calendar.OpCreatePost, Post: &calendar.PostRecord{Kind: calendar.KindEvent, Status: calendar.StatusPublish,
				Slug: slug, Lang: "en", Title: calendar.Text{"en": slug}, Start: start, End: start.Add(2 * time.Hour),
				// Placeholders for the records of steps 0 and 1.
				VenueIDs: []int64{calendar.StepRef(0)}, TagIDs: []int64{calendar.StepRef(1)}}},
		}}
	}
	first, err := store.Apply(ctx, write("concert"))
	if err != nil {
		log.Fatal(err)
	}
	second, err := store.Apply(ctx, write("encore"))
	if err != nil {
		log.Fatal(err)
	}
	venue, tag, event := second.Steps[0], second.Steps[1], second.Steps[2]
	fmt.Println(venue.Found, tag.Found, venue.Post.ID == first.Steps[0].Post.ID)
	fmt.Println(event.Post.VenueIDs[0] == venue.Post.ID, event.Post.TagIDs[0] == tag.Term.ID)
	// Output:
	// true true true
	// true true
}
