package memstore_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// TestSharedReadsNeverChange checks what the calendar's read path relies on
// when it renders stored records without copying them: the view answers
// like the store, and a record it handed out is never modified by a later
// write (the write stores a new record instead).
func TestSharedReadsNeverChange(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	view := s.SharedReads()
	start := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	ev, err := s.CreatePost(ctx, &calendar.PostRecord{Kind: calendar.KindEvent, Status: calendar.StatusPublish, Slug: "night",
		Lang: "en", Title: calendar.Text{"en": "Night"}, Start: start, End: start.Add(time.Hour), Cost: []string{"$5"}})
	if err != nil {
		t.Fatal(err)
	}
	term, err := s.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "live", Lang: "en", Name: calendar.Text{"en": "Live"}})
	if err != nil {
		t.Fatal(err)
	}
	held, err := view.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	bySlug, err := view.PostBySlug(ctx, calendar.KindEvent, "night")
	if err != nil {
		t.Fatal(err)
	}
	listed, err := view.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
	if err != nil {
		t.Fatal(err)
	}
	several, err := view.GetPosts(ctx, []int64{ev.ID, 999})
	if err != nil {
		t.Fatal(err)
	}
	terms, err := view.GetTerms(ctx, []int64{term.ID})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(held, ev) || bySlug != held || len(listed.Records) != 1 || listed.Records[0] != held ||
		len(several) != 1 || several[0] != held || len(terms) != 1 || !reflect.DeepEqual(terms[0], term) {
		t.Fatalf("the view answers unlike the store: %+v %+v %+v %+v %+v", held, bySlug, listed, several, terms)
	}
	heldCopy, termCopy := held.Clone(), terms[0].Clone()

	up := ev.Clone()
	up.Title["en"], up.Cost[0] = "Day", "$6"
	if _, err := s.UpdatePost(ctx, up); err != nil {
		t.Fatal(err)
	}
	tup := term.Clone()
	tup.Name["en"] = "Loud"
	if _, err := s.UpdateTerm(ctx, tup); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(held, heldCopy) || !reflect.DeepEqual(terms[0], termCopy) {
		t.Errorf("a write changed records already handed out: %+v %+v", held, terms[0])
	}
	now, err := view.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if now.Title["en"] != "Day" || now.Cost[0] != "$6" || now.Version != ev.Version+1 {
		t.Errorf("the view serves a stale record after the write: %+v", now)
	}
}
