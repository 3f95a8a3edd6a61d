package redisstore

import (
	"context"
	"errors"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// A calendar written with another encoding or key layout is refused on
// write, and nothing is written.
func TestForeignFormatRefused(t *testing.T) {
	c := singleClient(t)
	s := newTestStore(t, c)
	ctx := context.Background()
	if _, err := s.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "a", Lang: "en", Name: calendar.Text{"en": "A"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Get(ctx, s.k.format()).Result(); got != storeFormat {
		t.Fatalf("format key = %q, want %q", got, storeFormat)
	}
	c.Set(ctx, s.k.format(), "1.1", 0) // the layout before the window indexes
	_, err := s.CreatePost(ctx, &calendar.PostRecord{Kind: calendar.KindVenue, Slug: "v", Lang: "en", Title: calendar.Text{"en": "V"}})
	if !errors.Is(err, storage.ErrBadRecord) {
		t.Fatalf("write on a foreign layout: %v", err)
	}
	if n, _ := c.Exists(ctx, s.k.post(1)).Result(); n != 0 {
		t.Fatalf("a refused write stored a record")
	}
}
