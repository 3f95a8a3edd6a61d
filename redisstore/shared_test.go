package redisstore

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// The SharedReads view answers like the Store, hands the same kept record
// to every reader of the same bytes (no copy), and sees every write: the
// record a reader held is never modified by it. The Store itself still
// hands out copies.
func TestSharedReads(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t, singleClient(t))
	view := s.SharedReads()
	start := time.Now().UTC().Truncate(time.Second).Add(48 * time.Hour)
	ev := event("night", start)
	ev.Cost = []string{"$5"}
	ev = mustCreate(t, s, ev)
	term := mustTerm(t, s, calendar.TaxonomyTag, "live", 0)

	held, err := view.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	again, err := view.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := view.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Start: calendar.TimeRange{From: start.Add(-time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	linked, terms, err := view.(calendar.LinkedReader).GetLinked(ctx, []int64{ev.ID}, []int64{term.ID})
	if err != nil {
		t.Fatal(err)
	}
	terms2, err := view.GetTerms(ctx, []int64{term.ID})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(held, ev) || again != held || len(listed.Records) != 1 || listed.Records[0] != held ||
		len(linked) != 1 || linked[0] != held || len(terms) != 1 || !reflect.DeepEqual(terms[0], term) || terms2[0] != terms[0] {
		t.Fatalf("the view answers unlike the store, or copies: %+v %+v %+v %+v %+v", held, again, listed, linked, terms)
	}
	own, err := s.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if own == held || !reflect.DeepEqual(own, held) {
		t.Fatalf("the Store handed out the view's record, or another one: %p %p", own, held)
	}
	own.Title["en"], own.Cost[0] = "changed in place", "$0"
	if held.Title["en"] != "night" || held.Cost[0] != "$5" {
		t.Fatalf("changing the Store's copy changed the view's record: %+v", held)
	}

	heldCopy := held.Clone()
	up := ev.Clone()
	up.Title["en"], up.Cost[0] = "Day", "$6"
	if _, err := s.UpdatePost(ctx, up); err != nil {
		t.Fatal(err)
	}
	after, err := view.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after == held || after.Title["en"] != "Day" || after.Cost[0] != "$6" {
		t.Fatalf("the view missed the write: %+v", after)
	}
	if !reflect.DeepEqual(held, heldCopy) {
		t.Fatalf("a write modified a record the view handed out: %+v, was %+v", held, heldCopy)
	}

	off, err := New(singleClient(t), WithPrefix("unused"), WithDecodedCache(0))
	if err != nil {
		t.Fatal(err)
	}
	if off.SharedReads() != calendar.Repository(off) {
		t.Error("without a decoded cache, the view is not the Store itself")
	}
}
