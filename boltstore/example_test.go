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
