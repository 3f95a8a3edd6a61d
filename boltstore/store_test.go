package boltstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

func TestRoundTripSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cal.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	v := mustCreate(t, s, post(calendar.KindVenue, "hall", base))
	e := event("gig", base)
	e.VenueIDs = []int64{v.ID}
	e.Cost = []string{"10"}
	created := mustCreate(t, s, e)
	if created.ID != v.ID+1 || created.Version != 1 {
		t.Fatalf("created id %d version %d, want id %d version 1", created.ID, created.Version, v.ID+1)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.GetPost(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(created, got); d != "" {
		t.Errorf("after reopen (-created +got):\n%s", d)
	}
	bySlug, err := s.PostBySlug(ctx, calendar.KindEvent, "gig")
	if err != nil || bySlug.ID != created.ID {
		t.Errorf("PostBySlug = %v, %v; want id %d", bySlug, err, created.ID)
	}
	mustCheck(t, s)
}

func TestSlugsPerKindAndClashes(t *testing.T) {
	s := openTemp(t)
	a := mustCreate(t, s, event("same", base))
	b := mustCreate(t, s, event("same", base))
	v := mustCreate(t, s, post(calendar.KindVenue, "same", base))
	if a.Slug != "same" || b.Slug != "same-2" || v.Slug != "same" {
		t.Fatalf("slugs %q %q %q, want same same-2 same (venue)", a.Slug, b.Slug, v.Slug)
	}
	// Renaming a frees its slug, which the next clash then gets.
	a.Slug = "other"
	if _, err := s.UpdatePost(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	c := mustCreate(t, s, event("same", base))
	if c.Slug != "same" {
		t.Errorf("slug after release = %q, want same", c.Slug)
	}
	mustCheck(t, s)
}

func TestUpdateCompareAndSet(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	e := mustCreate(t, s, event("a", base))
	stale := e.Clone()
	e.Title = calendar.Text{"en": "new"}
	upd, err := s.UpdatePost(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	if upd.Version != 2 {
		t.Fatalf("version after update = %d, want 2", upd.Version)
	}
	stale.Title = calendar.Text{"en": "lost"}
	if _, err := s.UpdatePost(ctx, stale); !errors.Is(err, calendar.ErrConflict) {
		t.Fatalf("stale update error = %v, want ErrConflict", err)
	}
	if err := s.DeletePost(ctx, e.ID, 1); !errors.Is(err, calendar.ErrConflict) {
		t.Fatalf("stale delete error = %v, want ErrConflict", err)
	}
	got, _ := s.GetPost(ctx, e.ID)
	if got.Title["en"] != "new" || got.Version != 2 {
		t.Errorf("stored %q v%d, want new v2", got.Title["en"], got.Version)
	}
	moved := got.Clone()
	moved.Kind = calendar.KindVenue
	if _, err := s.UpdatePost(ctx, moved); !errors.Is(err, calendar.ErrInvalid) {
		t.Errorf("kind change error = %v, want ErrInvalid", err)
	}
	mustCheck(t, s)
}

func TestDeletePostCascades(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	v1 := mustCreate(t, s, post(calendar.KindVenue, "v1", base))
	v2 := mustCreate(t, s, post(calendar.KindVenue, "v2", base))
	o := mustCreate(t, s, post(calendar.KindOrganizer, "o", base))
	parent := mustCreate(t, s, event("parent", base))
	e := event("child", base)
	e.VenueIDs, e.OrganizerIDs, e.PostParent = []int64{v1.ID, v2.ID}, []int64{o.ID}, parent.ID
	child := mustCreate(t, s, e)

	if err := s.DeletePost(ctx, v1.ID, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePost(ctx, parent.ID, parent.Version); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetPost(ctx, child.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.VenueIDs, []int64{v2.ID}) || got.PostParent != 0 || got.Version != 3 {
		t.Errorf("child venues %v parent %d version %d; want [%d] 0 3", got.VenueIDs, got.PostParent, got.Version, v2.ID)
	}
	if _, err := s.PostBySlug(ctx, calendar.KindVenue, "v1"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("deleted venue by slug: %v, want ErrNotFound", err)
	}
	page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, VenueIDs: []int64{v1.ID}})
	if err != nil || page.Total != 0 {
		t.Errorf("events of deleted venue: %+v, %v; want none", page, err)
	}
	// Ids are never reused.
	n := mustCreate(t, s, post(calendar.KindVenue, "v3", base))
	if n.ID != child.ID+1 {
		t.Errorf("new id %d, want %d", n.ID, child.ID+1)
	}
	mustCheck(t, s)
}

func TestDeleteTermCascades(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	top := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "top"})
	mid := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "mid", Parent: top.ID})
	leaf := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "leaf", Parent: mid.ID})
	tag := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "mid"})
	e := event("e", base)
	e.CategoryIDs, e.TagIDs = []int64{mid.ID, leaf.ID}, []int64{tag.ID}
	ev := mustCreate(t, s, e)

	if err := s.DeleteTerm(ctx, mid.ID, 0); err != nil {
		t.Fatal(err)
	}
	gotLeaf, err := s.GetTerm(ctx, leaf.ID)
	if err != nil || gotLeaf.Parent != top.ID || gotLeaf.Version != 2 {
		t.Errorf("leaf after parent delete: %+v, %v; want parent %d version 2", gotLeaf, err, top.ID)
	}
	gotEv, _ := s.GetPost(ctx, ev.ID)
	if !slices.Equal(gotEv.CategoryIDs, []int64{leaf.ID}) || gotEv.Version != 2 {
		t.Errorf("event categories %v version %d; want [%d] 2", gotEv.CategoryIDs, gotEv.Version, leaf.ID)
	}
	if tg, err := s.TermBySlug(ctx, calendar.TaxonomyTag, "mid"); err != nil || tg.ID != tag.ID {
		t.Errorf("tag with the deleted category's slug: %v, %v", tg, err)
	}
	cats, _ := s.ListTerms(ctx, calendar.TaxonomyCategory)
	if ids := []int64{cats[0].ID, cats[1].ID}; len(cats) != 2 || !slices.Equal(ids, []int64{top.ID, leaf.ID}) {
		t.Errorf("categories left: %v", cats)
	}
	mustCheck(t, s)
}

func TestCloseTwiceAndUseAfterClose(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "cal.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.GetPost(context.Background(), 1); !errors.Is(err, calendar.ErrUnavailable) {
		t.Errorf("GetPost after Close: %v, want ErrUnavailable", err)
	}
	if _, err := s.CreatePost(context.Background(), event("x", base)); !errors.Is(err, calendar.ErrUnavailable) {
		t.Errorf("CreatePost after Close: %v, want ErrUnavailable", err)
	}
}

func TestContextCancelled(t *testing.T) {
	s := openTemp(t)
	seedBulk(t, s, 2000, 30*24*time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent}); !errors.Is(err, context.Canceled) {
		t.Errorf("ListPosts: %v, want context.Canceled", err)
	}
	if _, err := s.CreatePost(ctx, event("x", base)); !errors.Is(err, context.Canceled) {
		t.Errorf("CreatePost: %v, want context.Canceled", err)
	}
	// A deadline that passes during the walk stops it between cursor steps.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	q := &calendar.PostQuery{Kind: calendar.KindEvent, Search: []string{"nomatch"}}
	l := &cancelAfter{Context: ctx, after: 3}
	if _, err := s.ListPosts(l, q); !errors.Is(err, context.Canceled) {
		t.Errorf("ListPosts cancelled mid-walk: %v, want context.Canceled", err)
	}
	if l.calls <= 3 {
		t.Errorf("ctx checked %d times; want checks during the walk", l.calls)
	}
}

// cancelAfter is a context whose Err turns to Canceled after a few calls,
// standing in for a cancellation that arrives in the middle of a walk.
type cancelAfter struct {
	context.Context
	after, calls int
}

func (c *cancelAfter) Err() error {
	if c.calls++; c.calls > c.after {
		return context.Canceled
	}
	return nil
}

func TestCheckFindsCorruption(t *testing.T) {
	s := openTemp(t)
	v := mustCreate(t, s, post(calendar.KindVenue, "hall", base))
	e := event("e", base)
	e.VenueIDs = []int64{v.ID}
	ev := mustCreate(t, s, e)
	mustCheck(t, s)
	// Remove one index entry behind the store's back: Check must notice.
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bVenueEvents).Delete(linkKey(v.ID, ev.ID))
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); !errors.Is(err, ErrInconsistent) {
		t.Fatalf("Check after removing an index entry: %v, want ErrInconsistent", err)
	}
	// Put it back and add an orphan instead.
	if err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bVenueEvents).Put(linkKey(v.ID, ev.ID), nil); err != nil {
			return err
		}
		return tx.Bucket(bTagEvents).Put(linkKey(99, ev.ID), nil)
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); !errors.Is(err, ErrInconsistent) {
		t.Fatalf("Check with an orphan entry: %v, want ErrInconsistent", err)
	}
}

func TestWithTimeoutDefault(t *testing.T) {
	c := defaultConfig()
	WithTimeout(0)(&c)
	if c.timeout != DefaultTimeout {
		t.Errorf("WithTimeout(0) = %v, want %v", c.timeout, DefaultTimeout)
	}
	WithTimeout(time.Second)(&c)
	if c.timeout != time.Second {
		t.Errorf("WithTimeout(1s) = %v", c.timeout)
	}
}

// TestCacheNeverStale reads a post (caching it), changes it, and reads it
// again, through every read path; then mutates what it got and reads again.
func TestCacheNeverStale(t *testing.T) {
	s := openTemp(t, WithCacheSize(2))
	ctx := context.Background()
	e := mustCreate(t, s, event("cached", base))
	for _, read := range []func() (*calendar.PostRecord, error){
		func() (*calendar.PostRecord, error) { return s.GetPost(ctx, e.ID) },
		func() (*calendar.PostRecord, error) { return s.PostBySlug(ctx, calendar.KindEvent, "cached") },
		func() (*calendar.PostRecord, error) {
			ps, err := s.GetPosts(ctx, []int64{e.ID})
			if err != nil || len(ps) != 1 {
				return nil, fmt.Errorf("GetPosts: %v, %v", ps, err)
			}
			return ps[0], nil
		},
		func() (*calendar.PostRecord, error) {
			pg, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
			if err != nil || len(pg.Records) != 1 {
				return nil, fmt.Errorf("ListPosts: %v, %v", pg, err)
			}
			return pg.Records[0], nil
		},
	} {
		before, err := read()
		if err != nil {
			t.Fatal(err)
		}
		before.Title["en"] = "scribbled on by the caller"
		upd := before.Clone()
		upd.Title = calendar.Text{"en": fmt.Sprint("version ", before.Version+1)}
		if _, err := s.UpdatePost(ctx, upd); err != nil {
			t.Fatal(err)
		}
		after, err := read()
		if err != nil {
			t.Fatal(err)
		}
		if after.Version != before.Version+1 || after.Title["en"] != upd.Title["en"] {
			t.Fatalf("read after update: version %d title %q; want %d %q", after.Version, after.Title["en"], before.Version+1, upd.Title["en"])
		}
		again, _ := read()
		again.Title["en"] = "scribbled again"
		if fresh, _ := read(); fresh.Title["en"] != upd.Title["en"] {
			t.Fatalf("a caller's change leaked into the cache: %q", fresh.Title["en"])
		}
	}
}
