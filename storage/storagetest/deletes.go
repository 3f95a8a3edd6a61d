package storagetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

var deleteTests = []conformanceTest{
	{"Deletes/VenueUnlinked", testDeleteVenue},
	{"Deletes/OrganizerUnlinked", testDeleteOrganizer},
	{"Deletes/ParentCleared", testDeleteParent},
	{"Deletes/StaleVersion", testDeleteStale},
	{"Deletes/CategoryUnlinkedAndReparented", testDeleteCategory},
	{"Deletes/TagUnlinked", testDeleteTag},
	{"Deletes/ConcurrentWithUpdates", testDeleteConcurrentWithUpdates},
}

// expectCascade checks that event before was rewritten by a delete: version
// +1 and exactly the changes mutate describes, nothing else.
func expectCascade(t *testing.T, r calendar.Repository, before *calendar.PostRecord, mutate func(p *calendar.PostRecord)) {
	t.Helper()
	want := before.Clone()
	mutate(want)
	want.Version = before.Version + 1
	got := mustGetPost(t, r, before.ID)
	got.Modified = want.Modified // the driver may or may not stamp the write
	if d := diffPost(want, got); d != "" {
		t.Errorf("event %d after the delete (-want +got):\n%s", before.ID, d)
	}
}

func expectUntouched(t *testing.T, r calendar.Repository, before *calendar.PostRecord) {
	t.Helper()
	if d := diffPost(before, mustGetPost(t, r, before.ID)); d != "" {
		t.Errorf("event %d changed by an unrelated delete (-want +got):\n%s", before.ID, d)
	}
}

func expectNoList(t *testing.T, r calendar.Repository, what string, q *calendar.PostQuery) {
	t.Helper()
	q.Kind = calendar.KindEvent
	if page := mustList(t, r, q); page.Total != 0 || len(page.Records) != 0 {
		t.Errorf("list by %s after its delete: total %d, ids %v; want none", what, page.Total, postIDs(page.Records))
	}
}

func event(t *testing.T, r calendar.Repository, slug string, set func(p *calendar.PostRecord)) *calendar.PostRecord {
	p := newEvent(slug, t0)
	set(p)
	return mustCreatePost(t, r, p)
}

func testDeleteVenue(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	v1 := mustCreatePost(t, r, newVenue("v1"))
	v2 := mustCreatePost(t, r, newVenue("v2"))
	o := mustCreatePost(t, r, newOrganizer("o"))
	cat := mustCreateTerm(t, r, newCategory("c", 0))
	both := event(t, r, "both", func(p *calendar.PostRecord) {
		p.VenueIDs, p.OrganizerIDs, p.CategoryIDs = []int64{v1.ID, v2.ID}, []int64{o.ID}, []int64{cat.ID}
	})
	only := event(t, r, "only", func(p *calendar.PostRecord) { p.VenueIDs = []int64{v1.ID} })
	other := event(t, r, "other", func(p *calendar.PostRecord) { p.VenueIDs = []int64{v2.ID} })
	none := event(t, r, "none", func(p *calendar.PostRecord) {})

	mustDeletePost(t, r, v1.ID, v1.Version)
	expectCascade(t, r, both, func(p *calendar.PostRecord) { p.VenueIDs = []int64{v2.ID} })
	expectCascade(t, r, only, func(p *calendar.PostRecord) { p.VenueIDs = nil })
	expectUntouched(t, r, other)
	expectUntouched(t, r, none)
	if _, err := r.GetPost(ctx, v1.ID); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("deleted venue still readable: %v", err)
	}
	expectNoList(t, r, "deleted venue", &calendar.PostQuery{VenueIDs: []int64{v1.ID}})
	page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, VenueIDs: []int64{v2.ID}})
	if want := []int64{both.ID, other.ID}; !slices.Equal(postIDs(page.Records), want) {
		t.Errorf("list by remaining venue: ids %v, want %v", postIDs(page.Records), want)
	}
	page = mustList(t, r, &calendar.PostQuery{Kind: calendar.KindVenue})
	if !slices.Equal(postIDs(page.Records), []int64{v2.ID}) || page.Total != 1 {
		t.Errorf("venue list after delete: ids %v total %d, want [%d]", postIDs(page.Records), page.Total, v2.ID)
	}
}

func testDeleteOrganizer(t *testing.T, r calendar.Repository) {
	o1 := mustCreatePost(t, r, newOrganizer("o1"))
	o2 := mustCreatePost(t, r, newOrganizer("o2"))
	o3 := mustCreatePost(t, r, newOrganizer("o3"))
	v := mustCreatePost(t, r, newVenue("v"))
	// A tag whose id equals the deleted organizer's: the sequences are
	// separate, and deleting the organizer must not unlink the tag.
	tagIn := newTag("same-id")
	tagIn.ID = o2.ID
	tag := mustCreateTerm(t, r, tagIn)
	e := event(t, r, "e", func(p *calendar.PostRecord) {
		p.OrganizerIDs, p.VenueIDs, p.TagIDs = []int64{o3.ID, o2.ID, o1.ID}, []int64{v.ID}, []int64{tag.ID}
	})
	mustDeletePost(t, r, o2.ID, 0)
	// Order of the remaining organizers is kept; a tag with the same number
	// as the organizer is another record and stays.
	expectCascade(t, r, e, func(p *calendar.PostRecord) { p.OrganizerIDs = []int64{o3.ID, o1.ID} })
	expectNoList(t, r, "deleted organizer", &calendar.PostQuery{OrganizerIDs: []int64{o2.ID}})
	page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, OrganizerIDs: []int64{o1.ID, o3.ID}})
	if !slices.Equal(postIDs(page.Records), []int64{e.ID}) {
		t.Errorf("list by remaining organizers: ids %v, want [%d]", postIDs(page.Records), e.ID)
	}
}

func testDeleteParent(t *testing.T, r calendar.Repository) {
	v := mustCreatePost(t, r, newVenue("v"))
	parent := event(t, r, "parent", func(p *calendar.PostRecord) { p.VenueIDs = []int64{v.ID} })
	var kids []*calendar.PostRecord
	for i := 0; i < 3; i++ {
		kids = append(kids, event(t, r, "kid", func(p *calendar.PostRecord) {
			p.PostParent = parent.ID
			p.VenueIDs = []int64{v.ID}
			p.Start = t0.Add(time.Duration(i) * time.Hour)
		}))
	}
	other := event(t, r, "other-parent", func(*calendar.PostRecord) {})
	stranger := event(t, r, "stranger", func(p *calendar.PostRecord) { p.PostParent = other.ID })
	mustDeletePost(t, r, parent.ID, 0)
	for _, k := range kids {
		expectCascade(t, r, k, func(p *calendar.PostRecord) { p.PostParent = 0 })
	}
	expectUntouched(t, r, stranger)
	expectNoList(t, r, "deleted parent", &calendar.PostQuery{PostParent: parent.ID})
	page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, VenueIDs: []int64{v.ID}})
	if !slices.Equal(postIDs(page.Records), postIDs(kids)) {
		t.Errorf("list by venue after parent delete: %v, want %v", postIDs(page.Records), postIDs(kids))
	}
}

// testDeleteStale: a delete carrying a wrong version removes nothing.
func testDeleteStale(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	v := mustCreatePost(t, r, newVenue("v"))
	v = mustUpdatePost(t, r, v) // version 2
	e := event(t, r, "e", func(p *calendar.PostRecord) { p.VenueIDs = []int64{v.ID} })
	for _, version := range []int64{1, 3} {
		if err := r.DeletePost(ctx, v.ID, version); !errors.Is(err, calendar.ErrConflict) {
			t.Errorf("DeletePost(version %d, stored 2): err = %v, want ErrConflict", version, err)
		}
	}
	if d := diffPost(v, mustGetPost(t, r, v.ID)); d != "" {
		t.Errorf("refused delete changed the venue:\n%s", d)
	}
	expectUntouched(t, r, e)
	if page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, VenueIDs: []int64{v.ID}}); page.Total != 1 {
		t.Errorf("refused delete unlinked the venue: list total %d", page.Total)
	}
	c := mustCreateTerm(t, r, newCategory("c", 0))
	if err := r.DeleteTerm(ctx, c.ID, 2); !errors.Is(err, calendar.ErrConflict) {
		t.Errorf("DeleteTerm with wrong version: err = %v, want ErrConflict", err)
	}
	mustGetTerm(t, r, c.ID)
	if err := r.DeleteTerm(ctx, c.ID, 1); err != nil {
		t.Errorf("DeleteTerm with the right version: %v", err)
	}
	mustDeletePost(t, r, v.ID, 2)
}

func testDeleteCategory(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	// The venue below gets an id equal to the deleted category's: made
	// first, while no post holds that id yet.
	root := mustCreateTerm(t, r, newCategory("root", 0))
	mid := mustCreateTerm(t, r, newCategory("mid", root.ID))
	venueIn := newVenue("same-id")
	venueIn.ID = mid.ID
	venue := mustCreatePost(t, r, venueIn)
	leaf1 := mustCreateTerm(t, r, newCategory("leaf1", mid.ID))
	leaf2 := mustCreateTerm(t, r, newCategory("leaf2", mid.ID))
	sibling := mustCreateTerm(t, r, newCategory("sibling", root.ID))
	tag := mustCreateTerm(t, r, newTag("tag"))
	e1 := event(t, r, "e1", func(p *calendar.PostRecord) {
		p.CategoryIDs, p.TagIDs = []int64{root.ID, mid.ID, leaf1.ID}, []int64{tag.ID}
	})
	e2 := event(t, r, "e2", func(p *calendar.PostRecord) { p.CategoryIDs = []int64{mid.ID} })
	e3 := event(t, r, "e3", func(p *calendar.PostRecord) {
		p.CategoryIDs, p.VenueIDs = []int64{sibling.ID}, []int64{venue.ID}
	})

	if err := r.DeleteTerm(ctx, mid.ID, mid.Version); err != nil {
		t.Fatal(err)
	}
	expectCascade(t, r, e1, func(p *calendar.PostRecord) { p.CategoryIDs = []int64{root.ID, leaf1.ID} })
	expectCascade(t, r, e2, func(p *calendar.PostRecord) { p.CategoryIDs = nil })
	expectUntouched(t, r, e3)
	for _, leaf := range []*calendar.TermRecord{leaf1, leaf2} {
		want := leaf.Clone()
		want.Parent, want.Version = root.ID, leaf.Version+1
		if d := diffTerm(want, mustGetTerm(t, r, leaf.ID)); d != "" {
			t.Errorf("child of the deleted category (-want +got):\n%s", d)
		}
	}
	if d := diffTerm(sibling, mustGetTerm(t, r, sibling.ID)); d != "" {
		t.Errorf("unrelated category changed:\n%s", d)
	}
	if _, err := r.GetTerm(ctx, mid.ID); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("deleted category readable: %v", err)
	}
	expectNoList(t, r, "deleted category", &calendar.PostQuery{CategoryIDs: []int64{mid.ID}})
	page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, CategoryIDs: []int64{leaf1.ID, sibling.ID}})
	if !slices.Equal(postIDs(page.Records), []int64{e1.ID, e3.ID}) {
		t.Errorf("list by remaining categories: %v, want [%d %d]", postIDs(page.Records), e1.ID, e3.ID)
	}
	// Deleting a top-level category makes its children top-level.
	if err := r.DeleteTerm(ctx, root.ID, 0); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{leaf1.ID, leaf2.ID, sibling.ID} {
		if got := mustGetTerm(t, r, id); got.Parent != 0 {
			t.Errorf("category %d parent %d after its top-level parent was deleted, want 0", id, got.Parent)
		}
	}
}

func testDeleteTag(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	t1 := mustCreateTerm(t, r, newTag("t1"))
	t2 := mustCreateTerm(t, r, newTag("t2"))
	cat := mustCreateTerm(t, r, newCategory("c", 0))
	e := event(t, r, "e", func(p *calendar.PostRecord) {
		p.TagIDs, p.CategoryIDs = []int64{t2.ID, t1.ID}, []int64{cat.ID}
	})
	if err := r.DeleteTerm(ctx, t1.ID, 0); err != nil {
		t.Fatal(err)
	}
	expectCascade(t, r, e, func(p *calendar.PostRecord) { p.TagIDs = []int64{t2.ID} })
	expectNoList(t, r, "deleted tag", &calendar.PostQuery{TagIDs: []int64{t1.ID}})
	if page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, TagIDs: []int64{t2.ID}, CategoryIDs: []int64{cat.ID}}); page.Total != 1 {
		t.Errorf("list by the remaining tag and category: total %d, want 1", page.Total)
	}
}

// testDeleteConcurrentWithUpdates: venues deleted while other goroutines
// rewrite the events linking them (read, change, write back the links they
// read, retry on conflict). The cascade bumps versions, so a write based on
// a read from before the delete conflicts and no event ends up linking a
// deleted venue.
func testDeleteConcurrentWithUpdates(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 10))
	var venues []*calendar.PostRecord
	for i := 0; i < 6; i++ {
		venues = append(venues, mustCreatePost(t, r, newVenue(fmt.Sprintf("v%d", i))))
	}
	var events []int64
	for i := 0; i < 30; i++ {
		e := newEvent(fmt.Sprintf("e%d", i), t0.Add(time.Duration(i)*time.Hour))
		e.VenueIDs = someIDs(rng, postIDs(venues), 3)
		events = append(events, mustCreatePost(t, r, e).ID)
	}
	doomed, kept := venues[:4], venues[4:]

	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				id := events[(w*7+i*11)%len(events)]
				for attempt := 0; ; attempt++ {
					cur, err := r.GetPost(ctx, id)
					if err != nil {
						errs <- err
						return
					}
					cur.Title = calendar.Text{"en": fmt.Sprintf("w%d i%d", w, i)}
					if _, err = r.UpdatePost(ctx, cur); err == nil {
						break
					}
					if !errors.Is(err, calendar.ErrConflict) || attempt > 10000 {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, v := range doomed {
			if err := r.DeletePost(ctx, v.ID, 0); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	all, err := r.GetPosts(ctx, events)
	if err != nil || len(all) != len(events) {
		t.Fatalf("GetPosts after the race: %d of %d events, %v", len(all), len(events), err)
	}
	for _, e := range all {
		for _, v := range doomed {
			if containsID(e.VenueIDs, v.ID) {
				t.Errorf("event %d still links deleted venue %d: a write from before the delete was not refused", e.ID, v.ID)
			}
		}
	}
	for _, v := range doomed {
		expectNoList(t, r, "a venue deleted during updates", &calendar.PostQuery{VenueIDs: []int64{v.ID}})
	}
	for _, v := range kept {
		checkQuery(t, r, all, &calendar.PostQuery{Kind: calendar.KindEvent, VenueIDs: []int64{v.ID}})
	}
}
