package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Multi-record writes (storage guarantee 1): Repository.Apply.
var writeTests = []conformanceTest{
	{"Writes/CreatesEveryStep", testApplyCreatesEveryStep},
	{"Writes/AllOrNothing", testApplyAllOrNothing},
	{"Writes/UpdatesAndDeletesTogether", testApplyUpdatesAndDeletes},
	{"Writes/InjectedFailure", testApplyInjectedFailure},
	{"Writes/GivenIDs", testApplyGivenIDs},
	{"Writes/UIDs", testApplyUIDs},
}

// Faulty is implemented by a driver's test wrapper that can make a write fail
// inside the driver after some of its steps were already carried out — an
// I/O error, a dropped connection: the failure atomicity must survive. The
// suite's InjectedFailure case runs only for drivers that offer it.
type Faulty interface {
	// FailApplyAfter makes the next Apply fail with err once n of its
	// steps have been applied in the driver.
	FailApplyAfter(n int, err error)
}

// snapshot is everything a repository holds, for before/after comparisons.
type snapshot struct {
	posts []*calendar.PostRecord
	terms []*calendar.TermRecord
}

func takeSnapshot(t *testing.T, r calendar.Repository) snapshot {
	t.Helper()
	var s snapshot
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer} {
		s.posts = append(s.posts, mustList(t, r, &calendar.PostQuery{Kind: k}).Records...)
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		terms, err := r.ListTerms(context.Background(), tax)
		if err != nil {
			t.Fatalf("ListTerms(%s): %v", tax, err)
		}
		s.terms = append(s.terms, terms...)
	}
	return s
}

func (s snapshot) diff(o snapshot) string {
	if len(s.posts) != len(o.posts) || len(s.terms) != len(o.terms) {
		return fmt.Sprintf("%d posts and %d terms, then %d posts and %d terms", len(s.posts), len(s.terms), len(o.posts), len(o.terms))
	}
	for i := range s.posts {
		if d := diffPost(s.posts[i], o.posts[i]); d != "" {
			return d
		}
	}
	for i := range s.terms {
		if d := diffTerm(s.terms[i], o.terms[i]); d != "" {
			return d
		}
	}
	return ""
}

func mustApply(t *testing.T, r calendar.Repository, w *calendar.Write) *calendar.WriteResult {
	t.Helper()
	res, err := r.Apply(context.Background(), w)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if len(res.Steps) != len(w.Steps) {
		t.Fatalf("Apply returned %d results for %d steps", len(res.Steps), len(w.Steps))
	}
	return res
}

// named returns a venue or organizer fixture named name in its language.
func named(p *calendar.PostRecord, name string) *calendar.PostRecord {
	p.Title = calendar.Text{p.Lang: name}
	return p
}

func namedTerm(tr *calendar.TermRecord, name string) *calendar.TermRecord {
	tr.Name = calendar.Text{tr.Lang: name}
	return tr
}

// An event with a new venue, organizer, category and tag, linked by
// placeholders, is stored in one write with every link resolved.
func testApplyCreatesEveryStep(t *testing.T, r calendar.Repository) {
	ev := newEvent("gala", t0)
	ev.VenueIDs = []int64{calendar.StepRef(0)}
	ev.OrganizerIDs = []int64{calendar.StepRef(1)}
	ev.CategoryIDs = []int64{calendar.StepRef(2)}
	ev.TagIDs = []int64{calendar.StepRef(3)}
	child := newCategory("child", calendar.StepRef(2))
	w := &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: named(newVenue("hall"), "Grand Hall"), Now: t0},
		{Op: calendar.OpEnsurePost, Post: named(newOrganizer("org"), "Big Org"), Now: t0},
		{Op: calendar.OpEnsureTerm, Term: namedTerm(newCategory("music", 0), "Music")},
		{Op: calendar.OpCreateTerm, Term: namedTerm(newTag("late"), "Late")},
		{Op: calendar.OpCreatePost, Post: ev},
		{Op: calendar.OpCreateTerm, Term: child},
	}}
	res := mustApply(t, r, w)
	venue, org, cat, tag, got, sub := res.Steps[0].Post, res.Steps[1].Post, res.Steps[2].Term, res.Steps[3].Term, res.Steps[4].Post, res.Steps[5].Term
	for i, s := range res.Steps {
		if s.Found {
			t.Errorf("step %d: Found on an empty store", i)
		}
	}
	if venue == nil || org == nil || cat == nil || tag == nil || got == nil || sub == nil {
		t.Fatalf("missing results: %+v", res.Steps)
	}
	want := ev.Clone()
	want.ID, want.Version = got.ID, 1
	want.VenueIDs, want.OrganizerIDs = []int64{venue.ID}, []int64{org.ID}
	want.CategoryIDs, want.TagIDs = []int64{cat.ID}, []int64{tag.ID}
	if d := diffPost(want, got); d != "" {
		t.Errorf("event as returned (-want +got):\n%s", d)
	}
	if d := diffPost(want, mustGetPost(t, r, got.ID)); d != "" {
		t.Errorf("event as stored (-want +got):\n%s", d)
	}
	if s := mustGetTerm(t, r, sub.ID); s.Parent != cat.ID {
		t.Errorf("child category parent = %d, want %d (placeholder for step 2)", s.Parent, cat.ID)
	}
	for _, p := range []*calendar.PostRecord{venue, org} {
		if st := mustGetPost(t, r, p.ID); st.Version != 1 || st.Slug != p.Slug {
			t.Errorf("%s as stored: version %d slug %q", p.Kind, st.Version, st.Slug)
		}
	}
	// The event is found through every index its links feed.
	for _, q := range []*calendar.PostQuery{
		{Kind: calendar.KindEvent, VenueIDs: []int64{venue.ID}}, {Kind: calendar.KindEvent, OrganizerIDs: []int64{org.ID}},
		{Kind: calendar.KindEvent, CategoryIDs: []int64{cat.ID}}, {Kind: calendar.KindEvent, TagIDs: []int64{tag.ID}},
	} {
		if page := mustList(t, r, q); page.Total != 1 || page.Records[0].ID != got.ID {
			t.Errorf("list %+v: total %d, want the event", *q, page.Total)
		}
	}
}

// A write whose last step fails leaves nothing of the steps before it: not
// the records, not their slugs, not their names.
func testApplyAllOrNothing(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	existing := mustCreatePost(t, r, newEvent("kept", t0))
	jazz := mustCreateTerm(t, r, namedTerm(newCategory("jazz", 0), "Jazz"))
	venue := mustCreatePost(t, r, newVenue("old-venue"))
	before := takeSnapshot(t, r)

	stale := existing.Clone()
	stale.Version = existing.Version + 5
	linkMissingVenue := newEvent("orphan", t0)
	linkMissingVenue.VenueIDs = []int64{venue.ID + 1000}
	linkTermAsVenue := newEvent("wrong-kind", t0)
	linkTermAsVenue.VenueIDs = []int64{calendar.StepRef(1)} // a term, not a venue
	linkDeleted := newEvent("to-deleted", t0)
	linkDeleted.VenueIDs = []int64{venue.ID}
	takenName := namedTerm(newCategory("jazz-again", 0), "  JAZZ ")
	forward := newEvent("forward", t0)
	forward.TagIDs = []int64{calendar.StepRef(9)}
	givenTaken := newVenue("given")
	givenTaken.ID = existing.ID

	for _, tc := range []struct {
		name string
		last []calendar.Step
		is   error
	}{
		{"version conflict", []calendar.Step{{Op: calendar.OpUpdatePost, Post: stale}}, calendar.ErrConflict},
		{"missing link", []calendar.Step{{Op: calendar.OpCreatePost, Post: linkMissingVenue}}, calendar.ErrNotFound},
		{"link of the wrong kind", []calendar.Step{{Op: calendar.OpCreatePost, Post: linkTermAsVenue}}, nil},
		{"link deleted earlier in the write", []calendar.Step{{Op: calendar.OpDeletePost, ID: venue.ID}, {Op: calendar.OpCreatePost, Post: linkDeleted}}, calendar.ErrNotFound},
		{"term name taken", []calendar.Step{{Op: calendar.OpCreateTerm, Term: takenName}}, calendar.ErrNameTaken},
		{"placeholder of a later step", []calendar.Step{{Op: calendar.OpCreatePost, Post: forward}}, nil},
		{"delete of a missing record", []calendar.Step{{Op: calendar.OpDeletePost, ID: existing.ID + 1000}}, calendar.ErrNotFound},
		{"delete with a stale version", []calendar.Step{{Op: calendar.OpDeletePost, ID: existing.ID, Version: 99}}, calendar.ErrConflict},
		{"given id taken", []calendar.Step{{Op: calendar.OpCreatePost, Post: givenTaken}}, calendar.ErrConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := newEvent("first", t0)
			first.CategoryIDs = []int64{calendar.StepRef(1), jazz.ID}
			steps := []calendar.Step{
				{Op: calendar.OpEnsurePost, Post: named(newVenue("new-hall"), "New Hall"), Now: t0},
				{Op: calendar.OpEnsureTerm, Term: namedTerm(newCategory("brand-new", 0), "Brand New")},
				{Op: calendar.OpCreateTerm, Term: namedTerm(newTag("fresh"), "Fresh")},
				{Op: calendar.OpCreatePost, Post: first},
				{Op: calendar.OpUpdatePost, Post: existing.Clone()},
			}
			steps = append(steps, tc.last...)
			_, err := r.Apply(ctx, &calendar.Write{Steps: steps})
			if err == nil {
				t.Fatal("Apply succeeded")
			}
			var se *calendar.StepError
			if !errors.As(err, &se) || se.Step != len(steps)-1 {
				t.Errorf("err = %v, want a *StepError for step %d", err, len(steps)-1)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err = %v, want it to wrap %v", err, tc.is)
			}
			if d := before.diff(takeSnapshot(t, r)); d != "" {
				t.Fatalf("a failed write changed the store: %s", d)
			}
			for _, sl := range []struct {
				kind calendar.Kind
				slug string
			}{{calendar.KindVenue, "new-hall"}, {calendar.KindEvent, "first"}} {
				if _, err := r.PostBySlug(ctx, sl.kind, sl.slug); !errors.Is(err, calendar.ErrNotFound) {
					t.Errorf("slug %q of a failed write is held: %v", sl.slug, err)
				}
			}
			for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
				for _, name := range []string{"Brand New", "Fresh"} {
					if terms, err := r.TermsByName(ctx, tax, name); err != nil || len(terms) != 0 {
						t.Errorf("name %q of a failed write is held: %d terms, %v", name, len(terms), err)
					}
				}
			}
			if page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindVenue, Name: "New Hall"}); page.Total != 0 {
				t.Errorf("the name index lists a venue of a failed write")
			}
		})
	}
	// The same write without the failing step goes through, names and
	// slugs included: the failures reserved nothing.
	res := mustApply(t, r, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: named(newVenue("new-hall"), "New Hall"), Now: t0},
		{Op: calendar.OpCreateTerm, Term: namedTerm(newTag("fresh"), "Fresh")},
	}})
	if res.Steps[0].Post.Slug != "new-hall" || res.Steps[1].Term.Slug != "fresh" || res.Steps[0].Found {
		t.Errorf("after failed writes: venue slug %q found %v, tag slug %q", res.Steps[0].Post.Slug, res.Steps[0].Found, res.Steps[1].Term.Slug)
	}
}

// Updates with their version checks, deletes with their cascades and creates
// commit together.
func testApplyUpdatesAndDeletes(t *testing.T, r calendar.Repository) {
	v := mustCreatePost(t, r, newVenue("v"))
	a := mustCreatePost(t, r, newEvent("a", t0))
	b := event(t, r, "b", func(p *calendar.PostRecord) { p.VenueIDs = []int64{v.ID} })
	upA := a.Clone()
	upA.Title = calendar.Text{"en": "A again"}
	c := newEvent("c", t0.Add(time.Hour))
	c.PostParent = a.ID
	res := mustApply(t, r, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpUpdatePost, Post: upA},
		{Op: calendar.OpDeletePost, ID: v.ID, Version: v.Version},
		{Op: calendar.OpCreatePost, Post: c},
	}})
	if got := mustGetPost(t, r, a.ID); got.Version != 2 || got.Title["en"] != "A again" {
		t.Errorf("updated event: version %d title %q", got.Version, got.Title["en"])
	}
	if res.Steps[0].Post.Version != 2 || res.Steps[1].Post != nil || res.Steps[2].Post.PostParent != a.ID {
		t.Errorf("results: %+v", res.Steps)
	}
	if _, err := r.GetPost(context.Background(), v.ID); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("deleted venue: %v", err)
	}
	if got := mustGetPost(t, r, b.ID); len(got.VenueIDs) != 0 || got.Version != b.Version+1 {
		t.Errorf("cascade of the delete: venues %v version %d", got.VenueIDs, got.Version)
	}
	if page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: a.ID}); page.Total != 1 {
		t.Errorf("children of a: %d", page.Total)
	}
	// Two updates of one record in one write: the second must carry the
	// version the first produced.
	up1 := mustGetPost(t, r, a.ID)
	up2 := up1.Clone()
	up2.Version++
	up2.Title = calendar.Text{"en": "twice"}
	mustApply(t, r, &calendar.Write{Steps: []calendar.Step{{Op: calendar.OpUpdatePost, Post: up1}, {Op: calendar.OpUpdatePost, Post: up2}}})
	if got := mustGetPost(t, r, a.ID); got.Version != up1.Version+2 || got.Title["en"] != "twice" {
		t.Errorf("two updates in one write: version %d title %q", got.Version, got.Title["en"])
	}
}

// A failure inside the driver after some steps were applied leaves nothing.
func testApplyInjectedFailure(t *testing.T, r calendar.Repository) {
	f, ok := r.(Faulty)
	if !ok {
		t.Skip("the driver's test wrapper offers no failure injection (its atomicity is proven by its own tests)")
	}
	existing := mustCreatePost(t, r, newEvent("kept", t0))
	before := takeSnapshot(t, r)
	boom := errors.New("injected failure")
	for n := 1; n <= 3; n++ {
		f.FailApplyAfter(n, boom)
		up := existing.Clone()
		up.Title = calendar.Text{"en": "changed"}
		_, err := r.Apply(context.Background(), &calendar.Write{Steps: []calendar.Step{
			{Op: calendar.OpEnsurePost, Post: named(newVenue("hall"), "Hall"), Now: t0},
			{Op: calendar.OpCreateTerm, Term: namedTerm(newTag("x"), "X")},
			{Op: calendar.OpUpdatePost, Post: up},
			{Op: calendar.OpCreatePost, Post: newEvent("new", t0)},
		}})
		if !errors.Is(err, boom) {
			t.Fatalf("after %d steps: err = %v, want the injected failure", n, err)
		}
		if d := before.diff(takeSnapshot(t, r)); d != "" {
			t.Fatalf("failure after %d steps changed the store: %s", n, d)
		}
	}
}

// A create may name its id (migration into an empty store); the sequence
// moves past it.
func testApplyGivenIDs(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	in := newVenue("given")
	in.ID = 500
	got := mustCreatePost(t, r, in)
	if got.ID != 500 {
		t.Fatalf("given id: got %d, want 500", got.ID)
	}
	next := mustCreatePost(t, r, newVenue("next"))
	if next.ID <= 500 {
		t.Errorf("next id %d is not past the given 500", next.ID)
	}
	low := newOrganizer("low")
	low.ID = 7
	if got := mustCreatePost(t, r, low); got.ID != 7 {
		t.Errorf("a free lower id: got %d, want 7", got.ID)
	}
	again := newEvent("again", t0)
	again.ID = 500
	if _, err := r.CreatePost(ctx, again); !errors.Is(err, calendar.ErrConflict) {
		t.Errorf("create with a held id: err = %v, want ErrConflict", err)
	}
	tr := newTag("given")
	tr.ID = 40
	if got := mustCreateTerm(t, r, tr); got.ID != 40 {
		t.Errorf("given term id: got %d", got.ID)
	}
	if got := mustCreateTerm(t, r, newTag("after")); got.ID <= 40 {
		t.Errorf("next term id %d is not past the given 40", got.ID)
	}
	dup := newCategory("dup", 0)
	dup.ID = 40
	if _, err := r.CreateTerm(ctx, dup); !errors.Is(err, calendar.ErrConflict) {
		t.Errorf("term create with a held id: err = %v, want ErrConflict", err)
	}
}

// UIDs are unique per kind and found by PostByUID.
func testApplyUIDs(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	a := newEvent("a", t0)
	a.UID = "abc@example.com"
	ga := mustCreatePost(t, r, a)
	if got, err := r.PostByUID(ctx, calendar.KindEvent, "abc@example.com"); err != nil || got.ID != ga.ID {
		t.Fatalf("PostByUID: %v, %v", got, err)
	}
	if _, err := r.PostByUID(ctx, calendar.KindVenue, "abc@example.com"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("PostByUID of another kind: %v", err)
	}
	b := newEvent("b", t0)
	b.UID = "abc@example.com"
	if _, err := r.CreatePost(ctx, b); !errors.Is(err, calendar.ErrConflict) {
		t.Errorf("second event with one UID: err = %v, want ErrConflict", err)
	}
	v := newVenue("v")
	v.UID = "abc@example.com" // another kind: allowed
	mustCreatePost(t, r, v)
	up := ga.Clone()
	up.UID = "new@example.com"
	mustUpdatePost(t, r, up)
	if _, err := r.PostByUID(ctx, calendar.KindEvent, "abc@example.com"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("old UID still found after update: %v", err)
	}
	b.UID = "abc@example.com"
	gb := mustCreatePost(t, r, b) // free again
	mustDeletePost(t, r, gb.ID, 0)
	if _, err := r.PostByUID(ctx, calendar.KindEvent, "abc@example.com"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("UID of a deleted post still found: %v", err)
	}
}
