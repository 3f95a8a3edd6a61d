package redisstore

import (
	"context"
	"reflect"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// The SharedReads guarantees on a single node (see storagetest), and what
// is Redis' own: the decoded cache also hands one term to every reader of
// the same bytes, and without the cache the view is the Store itself.
func TestSharedReads(t *testing.T) {
	storagetest.RunSharedReads(t, singleFactory, true)

	ctx := context.Background()
	s := newTestStore(t, singleClient(t))
	term := mustTerm(t, s, calendar.TaxonomyTag, "live", 0)
	view := s.SharedReads()
	_, terms, err := view.(calendar.LinkedReader).GetLinked(ctx, nil, []int64{term.ID})
	if err != nil {
		t.Fatal(err)
	}
	terms2, err := view.GetTerms(ctx, []int64{term.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(terms) != 1 || len(terms2) != 1 || !reflect.DeepEqual(terms[0], term) || terms2[0] != terms[0] {
		t.Fatalf("the view answers unlike the store, or copies a term: %+v %+v", terms, terms2)
	}

	off, err := New(singleClient(t), WithPrefix("unused"), WithDecodedCache(0))
	if err != nil {
		t.Fatal(err)
	}
	if off.SharedReads() != calendar.Repository(off) {
		t.Error("without a decoded cache, the view is not the Store itself")
	}
}
