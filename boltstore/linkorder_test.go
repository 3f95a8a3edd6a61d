package boltstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	bolt "go.etcd.io/bbolt"
)

// A file of layout 3 (no link_order) gets it built from the records at
// Open, in the opening transaction: Check agrees, the stamp moves to the
// current layout, and the lists by one venue, organizer, category or tag
// answer as before.
func TestMigrateLayout3BuildsLinkOrder(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	path := s.db.Path()
	d := countData(t, s, rand.New(rand.NewPCG(8, 9)), 200)
	var queries []*calendar.PostQuery
	for _, ln := range []struct {
		ids []int64
		set func(q *calendar.PostQuery, id int64)
	}{
		{d.venues, func(q *calendar.PostQuery, id int64) { q.VenueIDs = []int64{id} }},
		{d.organizers, func(q *calendar.PostQuery, id int64) { q.OrganizerIDs = []int64{id} }},
		{d.categories, func(q *calendar.PostQuery, id int64) { q.CategoryIDs = []int64{id} }},
		{d.tags, func(q *calendar.PostQuery, id int64) { q.TagIDs = []int64{id} }},
	} {
		for _, id := range ln.ids {
			q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: base, Limit: 5,
				Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}, End: calendar.TimeRange{From: base}}
			ln.set(q, id)
			queries = append(queries, q)
		}
	}
	list := func(s *Store) []*calendar.PostPage {
		var out []*calendar.PostPage
		for _, q := range queries {
			pg, err := s.ListPosts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, pg)
		}
		return out
	}
	want := list(s)
	if entries := linkOrderEntries(t, s); entries == 0 {
		t.Fatal("no link_order entries: the test proves nothing")
	}
	s.Close()

	// Turn the file back into layout 3.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bLinkOrder); err != nil {
			return err
		}
		return tx.Bucket(bMeta).Put(kLayout, u64(3))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	s2, err := Open(path)
	if err != nil {
		t.Fatalf("Open layout 3: %v", err)
	}
	defer s2.Close()
	mustCheck(t, s2)
	if linkOrderEntries(t, s2) == 0 {
		t.Fatal("no link_order built")
	}
	if got := list(s2); !reflect.DeepEqual(got, want) {
		t.Errorf("lists after the migration differ from before")
	}
	s2.Close()
	if f, l, _ := stampOf(t, path); f != 2 || l != LayoutVersion {
		t.Errorf("stamp after migration: format %d layout %d", f, l)
	}
}

func linkOrderEntries(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bLinkOrder).Stats().KeyN
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// Check holds link_order to the records: an entry missing, or one left
// behind, is reported.
func TestCheckFindsWrongLinkOrder(t *testing.T) {
	s := openTemp(t)
	cat := mustCreateTerm(t, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "jazz", Lang: "en", Name: calendar.Text{"en": "Jazz"}})
	e := event("one", base)
	e.CategoryIDs = []int64{cat.ID}
	e = mustCreate(t, s, e)
	key := linkOrderKey(calendar.KindCategory, cat.ID, e)
	for _, tc := range []struct {
		name string
		fn   func(b *bolt.Bucket) error
	}{
		{"missing", func(b *bolt.Bucket) error { return b.Delete(key) }},
		{"orphan", func(b *bolt.Bucket) error {
			if err := b.Put(key, encodeSummary(e)); err != nil {
				return err
			}
			return b.Put(linkOrderKey(calendar.KindTag, cat.ID, e), encodeSummary(e))
		}},
	} {
		if err := s.db.Update(func(tx *bolt.Tx) error { return tc.fn(tx.Bucket(bLinkOrder)) }); err != nil {
			t.Fatal(err)
		}
		err := s.Check(context.Background())
		if !errors.Is(err, ErrInconsistent) || !strings.Contains(err.Error(), "link_order") || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: Check = %v", tc.name, err)
		}
	}
}
