package boltstore

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// termReads are the four ways to read one term, each returning the term
// with this id (and slug) among what it answers.
func termReads(repo calendar.Repository, tax calendar.Taxonomy, id int64, slug string) map[string]func(context.Context) (*calendar.TermRecord, error) {
	find := func(ts []*calendar.TermRecord, err error) (*calendar.TermRecord, error) {
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if t.ID == id {
				return t, nil
			}
		}
		return nil, fmt.Errorf("term %d not in %v", id, ts)
	}
	return map[string]func(context.Context) (*calendar.TermRecord, error){
		"GetTerm": func(ctx context.Context) (*calendar.TermRecord, error) { return repo.GetTerm(ctx, id) },
		"GetTerms": func(ctx context.Context) (*calendar.TermRecord, error) {
			return find(repo.GetTerms(ctx, []int64{id + 1000, id}))
		},
		"TermBySlug": func(ctx context.Context) (*calendar.TermRecord, error) { return repo.TermBySlug(ctx, tax, slug) },
		"ListTerms":  func(ctx context.Context) (*calendar.TermRecord, error) { return find(repo.ListTerms(ctx, tax)) },
	}
}

// Terms read through SharedReads are the term cache's own records: the
// same record on every read of unchanged bytes, never the one the Store
// hands out (a copy the caller may change), never changed by a write, and
// the new record once the term was written.
func TestSharedReadsTerms(t *testing.T) {
	ctx := t.Context()
	s := openTemp(t)
	view := s.SharedReads()
	parent := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "music", Lang: "en", Name: calendar.Text{"en": "Music"}})
	cat := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "jazz", Lang: "en", Name: calendar.Text{"en": "Jazz"},
		Description: calendar.Text{"en": "Swing"}, Parent: parent.ID})
	mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "live", Lang: "en", Name: calendar.Text{"en": "Live"}})

	shared := termReads(view, calendar.TaxonomyCategory, cat.ID, cat.Slug)
	own := termReads(s, calendar.TaxonomyCategory, cat.ID, cat.Slug)
	var held *calendar.TermRecord
	for name, read := range shared {
		got, err := read(ctx)
		if err != nil {
			t.Fatalf("view %s: %v", name, err)
		}
		if !reflect.DeepEqual(got, cat) {
			t.Fatalf("view %s = %+v, want %+v", name, got, cat)
		}
		if held == nil {
			held = got
		} else if got != held {
			t.Errorf("view %s copied the cached term", name)
		}
	}
	for name, read := range own {
		got, err := read(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got == held {
			t.Fatalf("%s handed out the view's term instead of a copy", name)
		}
		if !reflect.DeepEqual(got, cat) {
			t.Fatalf("%s = %+v, want %+v", name, got, cat)
		}
		got.Name["en"], got.Description["en"], got.Parent = "scribbled", "scribbled", 0
	}
	if !reflect.DeepEqual(held, cat) {
		t.Fatalf("a caller's change to its copy changed the cached term: %+v", held)
	}
	for name, read := range own {
		if got, _ := read(ctx); !reflect.DeepEqual(got, cat) {
			t.Fatalf("%s after a caller changed its copy: %+v", name, got)
		}
	}

	heldCopy := held.Clone()
	up := cat.Clone()
	up.Name["en"], up.Parent = "Bebop", 0
	if _, err := s.UpdateTerm(ctx, up); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(held, heldCopy) {
		t.Errorf("the write modified the term the view handed out: %+v", held)
	}
	for name, read := range shared {
		got, err := read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got == held || got.Name["en"] != "Bebop" || got.Parent != 0 || got.Version != cat.Version+1 {
			t.Errorf("view %s serves a stale term after the write: %+v", name, got)
		}
	}
}

// Without a cache, every read decodes a term of its own.
func TestSharedReadsTermsNoCache(t *testing.T) {
	ctx := t.Context()
	s := openTemp(t, WithCacheSize(0))
	cat := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "jazz", Lang: "en", Name: calendar.Text{"en": "Jazz"}})
	for name, read := range termReads(s.SharedReads(), calendar.TaxonomyCategory, cat.ID, cat.Slug) {
		a, errA := read(ctx)
		b, errB := read(ctx)
		if errA != nil || errB != nil || a == b || !reflect.DeepEqual(a, cat) || !reflect.DeepEqual(b, cat) {
			t.Errorf("view %s without a cache: %+v %+v (%v, %v)", name, a, b, errA, errB)
		}
	}
}

// Reading terms through the view while they are written is race-free (run
// with -race) and never shows a term half written.
func TestSharedReadsTermsWhileWriting(t *testing.T) {
	ctx := t.Context()
	s := openTemp(t, WithNoSync())
	view := s.SharedReads()
	cat := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "jazz", Lang: "en", Name: calendar.Text{"en": "Jazz 0"}})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 30 {
			cur, err := s.GetTerm(ctx, cat.ID)
			if err != nil {
				t.Error(err)
				return
			}
			cur.Name["en"] = fmt.Sprint("Jazz ", i+1)
			if _, err := s.UpdateTerm(ctx, cur); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 200 {
		for name, read := range termReads(view, calendar.TaxonomyCategory, cat.ID, cat.Slug) {
			got, err := read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got.Name["en"] != fmt.Sprint("Jazz ", got.Version-1) {
				t.Fatalf("view %s: version %d named %q", name, got.Version, got.Name["en"])
			}
		}
	}
	wg.Wait()
}
