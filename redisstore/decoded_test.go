package redisstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// The decoded cache never changes what a read returns: a record changed by
// another Store (another process) is read as it is now, a caller changing a
// record it got changes nothing for the next reader, and the cache stays
// within its size.
func TestDecodedCache(t *testing.T) {
	c := singleClient(t)
	ctx := context.Background()
	s := newTestStore(t, c, WithDecodedCache(4))
	other, err := New(c, WithPrefix(s.k.tag[1:len(s.k.tag)-2]), WithDecodedCache(0))
	if err != nil {
		t.Fatal(err)
	}
	ev := mustCreate(t, s, event("e", t0))
	cat := mustTerm(t, s, calendar.TaxonomyCategory, "music", 0)
	for range 2 { // decoded, then from the cache
		got := mustGetPost(t, s, ev.ID)
		if got.Title["en"] != "e" {
			t.Fatalf("title %q", got.Title["en"])
		}
		got.Title["en"] = "changed by the caller"
		got.VenueIDs = append(got.VenueIDs, 99)
		term := mustGetTerm(t, s, cat.ID)
		term.Name["en"] = "changed by the caller"
	}
	if got := mustGetPost(t, s, ev.ID); got.Title["en"] != "e" || len(got.VenueIDs) != 0 {
		t.Fatalf("a caller's change reached the cache: %+v", got)
	}
	if got := mustGetTerm(t, s, cat.ID); got.Name["en"] != "music" {
		t.Fatalf("a caller's change reached the cache: %+v", got)
	}

	upd := mustGetPost(t, other, ev.ID)
	upd.Title = calendar.Text{"en": "renamed elsewhere"}
	if _, err := other.UpdatePost(ctx, upd); err != nil {
		t.Fatal(err)
	}
	if got := mustGetPost(t, s, ev.ID); got.Title["en"] != "renamed elsewhere" {
		t.Fatalf("read after another Store's update: %q", got.Title["en"])
	}
	page := mustList(t, s, &calendar.PostQuery{Kind: calendar.KindEvent, Limit: 10})
	if len(page.Records) != 1 || page.Records[0].Title["en"] != "renamed elsewhere" {
		t.Fatalf("list after another Store's update: %+v", page.Records)
	}

	for i := range 10 {
		mustGetPost(t, s, mustCreate(t, s, event(fmt.Sprint("more", i), t0)).ID)
	}
	if n := len(s.decoded.posts); n > 4 {
		t.Fatalf("the cache holds %d posts, more than its size 4", n)
	}
}
