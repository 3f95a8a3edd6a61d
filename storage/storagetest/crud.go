package storagetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

var crudTests = []conformanceTest{
	{"Posts/RoundTrip", testPostRoundTrip},
	{"Posts/UpdateRoundTrip", testPostUpdateRoundTrip},
	{"Posts/OneIDSequence", testPostIDSequence},
	{"Posts/GetPostsOrder", testGetPostsOrder},
	{"Posts/SlugPerKind", testPostSlugPerKind},
	{"Posts/KindIsFixed", testPostKindFixed},
	{"Terms/RoundTrip", testTermRoundTrip},
	{"Terms/OwnIDSequence", testTermIDSequence},
	{"Terms/GetTermsOrder", testGetTermsOrder},
	{"Terms/SlugPerTaxonomy", testTermSlugPerTaxonomy},
	{"Terms/ListTerms", testListTerms},
	{"Terms/TaxonomyIsFixed", testTermTaxonomyFixed},
	{"NotFound", testNotFound},
}

// testPostRoundTrip: every field of every post kind comes back as sent, with
// the id and version the driver assigns; versions sent are ignored.
func testPostRoundTrip(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	series := newEvent("e", t0)
	series.UID = "uid-e@example.com"
	series.Recurrence = []string{"RRULE:FREQ=WEEKLY;COUNT=3", "EXDATE;TZID=Europe/Paris:20260308T110000"}
	occurrence := newEvent("occ", t0)
	occurrence.RecurrenceID, occurrence.Detached = t0.Add(7*24*time.Hour), true
	for _, in := range []*calendar.PostRecord{series, occurrence, newVenue("v"), newOrganizer("o")} {
		in.Version = 42 // must be ignored
		got := mustCreatePost(t, r, in)
		if got.ID <= 0 {
			t.Errorf("%s: CreatePost invented id %d", in.Kind, got.ID)
		}
		if got.Version != 1 {
			t.Errorf("%s: CreatePost version = %d, want 1", in.Kind, got.Version)
		}
		want := in.Clone()
		want.ID, want.Version = got.ID, 1
		if d := diffPost(want, got); d != "" {
			t.Errorf("%s: CreatePost returned (-want +got):\n%s", in.Kind, d)
		}
		if d := diffPost(want, mustGetPost(t, r, got.ID)); d != "" {
			t.Errorf("%s: GetPost (-want +got):\n%s", in.Kind, d)
		}
		bySlug, err := r.PostBySlug(ctx, in.Kind, in.Slug)
		if err != nil {
			t.Fatalf("%s: PostBySlug(%q): %v", in.Kind, in.Slug, err)
		}
		if d := diffPost(want, bySlug); d != "" {
			t.Errorf("%s: PostBySlug (-want +got):\n%s", in.Kind, d)
		}
	}
}

// testPostUpdateRoundTrip: an update replaces every field, links included,
// and bumps the version by one.
func testPostUpdateRoundTrip(t *testing.T, r calendar.Repository) {
	v1 := mustCreatePost(t, r, newVenue("v1"))
	v2 := mustCreatePost(t, r, newVenue("v2"))
	o1 := mustCreatePost(t, r, newOrganizer("o1"))
	parent := mustCreatePost(t, r, newEvent("parent", t0))
	ev := mustCreatePost(t, r, newEvent("e", t0))
	c11, c12 := mustCreateTerm(t, r, newCategory("c11", 0)), mustCreateTerm(t, r, newCategory("c12", 0))
	t13 := mustCreateTerm(t, r, newTag("t13"))

	up := ev.Clone()
	up.Status = calendar.StatusDraft
	up.Title = calendar.Text{"de": "Neu"}
	up.Description, up.Excerpt = nil, calendar.Text{"de": "kurz"}
	up.Start, up.End = t0.Add(240*time.Hour), t0.Add(250*time.Hour)
	up.AllDay, up.Sticky, up.Featured, up.HideFromListings = true, false, false, true
	up.ShowMap, up.ShowMapLink = nil, ptr(false)
	up.Cost = []string{"free"}
	up.Password = ""
	up.PostParent = parent.ID
	up.VenueIDs = []int64{v2.ID, v1.ID}
	up.OrganizerIDs = []int64{o1.ID}
	up.CategoryIDs = []int64{c11.ID, c12.ID}
	up.TagIDs = []int64{t13.ID}
	up.UID = "uid-updated"
	up.Recurrence = []string{"RRULE:FREQ=DAILY;COUNT=2"}
	up.Modified = t0.Add(time.Hour)
	got := mustUpdatePost(t, r, up)
	want := up.Clone()
	want.Version = 2
	if d := diffPost(want, got); d != "" {
		t.Errorf("UpdatePost returned (-want +got):\n%s", d)
	}
	if d := diffPost(want, mustGetPost(t, r, ev.ID)); d != "" {
		t.Errorf("GetPost after update (-want +got):\n%s", d)
	}

	vup := v1.Clone()
	vup.GeoLat, vup.GeoLng = nil, nil
	vup.City = "Lyon"
	got = mustUpdatePost(t, r, vup)
	vup.Version = 2
	if d := diffPost(vup, mustGetPost(t, r, v1.ID)); d != "" || got.Version != 2 {
		t.Errorf("venue update: version %d, GetPost (-want +got):\n%s", got.Version, d)
	}
}

// testPostIDSequence: events, venues and organizers draw from one sequence,
// terms do not advance it, and a deleted id is never handed out again.
func testPostIDSequence(t *testing.T, r calendar.Repository) {
	e := mustCreatePost(t, r, newEvent("e", t0))
	v := mustCreatePost(t, r, newVenue("v"))
	mustCreateTerm(t, r, newTag("t"))
	o := mustCreatePost(t, r, newOrganizer("o"))
	if v.ID != e.ID+1 || o.ID != v.ID+1 {
		t.Fatalf("post ids event %d, venue %d, organizer %d: want one consecutive sequence", e.ID, v.ID, o.ID)
	}
	mustDeletePost(t, r, o.ID, 0)
	mustDeletePost(t, r, v.ID, 0)
	next := mustCreatePost(t, r, newVenue("v"))
	if next.ID <= o.ID {
		t.Errorf("id %d handed out after ids up to %d were used and deleted", next.ID, o.ID)
	}
	if _, err := r.GetPost(context.Background(), o.ID); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("GetPost(deleted %d) err = %v, want ErrNotFound", o.ID, err)
	}
}

// testGetPostsOrder: GetPosts returns the found posts in the order asked.
func testGetPostsOrder(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	var all []*calendar.PostRecord
	for _, p := range []*calendar.PostRecord{newEvent("a", t0), newVenue("b"), newOrganizer("c"), newEvent("d", t0.Add(-time.Hour)), newVenue("e")} {
		all = append(all, mustCreatePost(t, r, p))
	}
	gone := mustCreatePost(t, r, newEvent("gone", t0))
	mustDeletePost(t, r, gone.ID, 0)
	ask := []int64{all[3].ID, gone.ID, all[0].ID, 1 << 40, all[4].ID, all[1].ID}
	got, err := r.GetPosts(ctx, ask)
	if err != nil {
		t.Fatalf("GetPosts: %v", err)
	}
	want := []*calendar.PostRecord{all[3], all[0], all[4], all[1]}
	if len(got) != len(want) {
		t.Fatalf("GetPosts(%v) returned ids %v, want %v", ask, postIDs(got), postIDs(want))
	}
	for i := range want {
		if d := diffPost(want[i], got[i]); d != "" {
			t.Errorf("GetPosts[%d] (-want +got):\n%s", i, d)
		}
	}
	got, err = r.GetPosts(ctx, nil)
	if err != nil || len(got) != 0 {
		t.Errorf("GetPosts(nil) = %v, %v; want nothing, no error", postIDs(got), err)
	}
}

// testPostSlugPerKind: slugs are unique per kind, so an event, a venue and
// an organizer may share one, and lookups are per kind.
func testPostSlugPerKind(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	e := mustCreatePost(t, r, newEvent("shared", t0))
	v := mustCreatePost(t, r, newVenue("shared"))
	o := mustCreatePost(t, r, newOrganizer("shared"))
	for _, p := range []*calendar.PostRecord{e, v, o} {
		if p.Slug != "shared" {
			t.Errorf("%s got slug %q, want %q: slugs are unique per kind only", p.Kind, p.Slug, "shared")
		}
		got, err := r.PostBySlug(ctx, p.Kind, "shared")
		if err != nil || got.ID != p.ID {
			t.Errorf("PostBySlug(%s, shared) = %v, %v; want id %d", p.Kind, got, err, p.ID)
		}
	}
	only := mustCreatePost(t, r, newEvent("only-event", t0))
	if _, err := r.PostBySlug(ctx, calendar.KindVenue, only.Slug); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("PostBySlug(venue, %q) of an event slug: err = %v, want ErrNotFound", only.Slug, err)
	}
	if _, err := r.PostBySlug(ctx, calendar.KindEvent, "Only-Event"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("PostBySlug is exact: other case err = %v, want ErrNotFound", err)
	}
}

// testPostKindFixed: an update may not change a post's kind.
func testPostKindFixed(t *testing.T, r calendar.Repository) {
	v := mustCreatePost(t, r, newVenue("v"))
	up := v.Clone()
	up.Kind = calendar.KindOrganizer
	if _, err := r.UpdatePost(context.Background(), up); err == nil {
		t.Fatal("UpdatePost changing the kind of a venue succeeded")
	}
	if d := diffPost(v, mustGetPost(t, r, v.ID)); d != "" {
		t.Errorf("refused kind change altered the post (-want +got):\n%s", d)
	}
}

func testTermRoundTrip(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	parent := mustCreateTerm(t, r, newCategory("root", 0))
	for _, in := range []*calendar.TermRecord{newCategory("child", parent.ID), newTag("tag")} {
		in.Version = 9 // must be ignored
		got := mustCreateTerm(t, r, in)
		want := in.Clone()
		want.ID, want.Version = got.ID, 1
		if got.ID <= 0 {
			t.Errorf("CreateTerm invented id %d", got.ID)
		}
		if d := diffTerm(want, got); d != "" {
			t.Errorf("CreateTerm (-want +got):\n%s", d)
		}
		if d := diffTerm(want, mustGetTerm(t, r, got.ID)); d != "" {
			t.Errorf("GetTerm (-want +got):\n%s", d)
		}
		bySlug, err := r.TermBySlug(ctx, in.Taxonomy, in.Slug)
		if err != nil {
			t.Fatalf("TermBySlug: %v", err)
		}
		if d := diffTerm(want, bySlug); d != "" {
			t.Errorf("TermBySlug (-want +got):\n%s", d)
		}
		up := got.Clone()
		up.Name = calendar.Text{"fr": "Nouveau"}
		up.Description = nil
		up.Parent = 0
		upd := mustUpdateTerm(t, r, up)
		up.Version = 2
		if d := diffTerm(up, upd); d != "" {
			t.Errorf("UpdateTerm (-want +got):\n%s", d)
		}
		if d := diffTerm(up, mustGetTerm(t, r, got.ID)); d != "" {
			t.Errorf("GetTerm after update (-want +got):\n%s", d)
		}
	}
}

// testTermIDSequence: categories and tags share one sequence of their own;
// posts do not advance it; deleted ids are not reused.
func testTermIDSequence(t *testing.T, r calendar.Repository) {
	c := mustCreateTerm(t, r, newCategory("c", 0))
	mustCreatePost(t, r, newEvent("e", t0))
	mustCreatePost(t, r, newVenue("v"))
	tg := mustCreateTerm(t, r, newTag("t"))
	if tg.ID != c.ID+1 {
		t.Fatalf("term ids %d then %d: want one consecutive sequence, not advanced by posts", c.ID, tg.ID)
	}
	if err := r.DeleteTerm(context.Background(), tg.ID, 0); err != nil {
		t.Fatal(err)
	}
	next := mustCreateTerm(t, r, newTag("t"))
	if next.ID <= tg.ID {
		t.Errorf("term id %d handed out after %d was used and deleted", next.ID, tg.ID)
	}
}

func testGetTermsOrder(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	a := mustCreateTerm(t, r, newCategory("a", 0))
	b := mustCreateTerm(t, r, newTag("b"))
	c := mustCreateTerm(t, r, newCategory("c", a.ID))
	got, err := r.GetTerms(ctx, []int64{c.ID, 1 << 40, a.ID, b.ID})
	if err != nil {
		t.Fatal(err)
	}
	want := []*calendar.TermRecord{c, a, b}
	if len(got) != len(want) {
		t.Fatalf("GetTerms ids %v, want %v", termIDs(got), termIDs(want))
	}
	for i := range want {
		if d := diffTerm(want[i], got[i]); d != "" {
			t.Errorf("GetTerms[%d] (-want +got):\n%s", i, d)
		}
	}
	if got, err := r.GetTerms(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("GetTerms(nil) = %v, %v; want nothing", termIDs(got), err)
	}
}

func testTermSlugPerTaxonomy(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	c := mustCreateTerm(t, r, newCategory("music", 0))
	tg := mustCreateTerm(t, r, newTag("music"))
	if c.Slug != "music" || tg.Slug != "music" {
		t.Errorf("category slug %q, tag slug %q: want both %q (unique per taxonomy)", c.Slug, tg.Slug, "music")
	}
	for _, want := range []*calendar.TermRecord{c, tg} {
		got, err := r.TermBySlug(ctx, want.Taxonomy, "music")
		if err != nil || got.ID != want.ID {
			t.Errorf("TermBySlug(%s, music) = %v, %v; want id %d", want.Taxonomy, got, err, want.ID)
		}
	}
	mustCreateTerm(t, r, newTag("only-tag"))
	if _, err := r.TermBySlug(ctx, calendar.TaxonomyCategory, "only-tag"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("TermBySlug(category, only-tag) err = %v, want ErrNotFound", err)
	}
}

// testListTerms: every term of the taxonomy, ascending id, none of the other.
func testListTerms(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	var cats, tags []*calendar.TermRecord
	for i := 0; i < 6; i++ {
		cats = append(cats, mustCreateTerm(t, r, newCategory("c", 0)))
		tags = append(tags, mustCreateTerm(t, r, newTag("t")))
	}
	if err := r.DeleteTerm(ctx, cats[2].ID, 0); err != nil {
		t.Fatal(err)
	}
	cats = slices.Delete(cats, 2, 3)
	for tax, want := range map[calendar.Taxonomy][]*calendar.TermRecord{calendar.TaxonomyCategory: cats, calendar.TaxonomyTag: tags} {
		got, err := r.ListTerms(ctx, tax)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("ListTerms(%s) ids %v, want %v", tax, termIDs(got), termIDs(want))
		}
		for i := range want {
			if d := diffTerm(want[i], got[i]); d != "" {
				t.Errorf("ListTerms(%s)[%d] (-want +got):\n%s", tax, i, d)
			}
		}
	}
}

func testTermTaxonomyFixed(t *testing.T, r calendar.Repository) {
	c := mustCreateTerm(t, r, newCategory("c", 0))
	up := c.Clone()
	up.Taxonomy = calendar.TaxonomyTag
	if _, err := r.UpdateTerm(context.Background(), up); err == nil {
		t.Fatal("UpdateTerm moving a category to the tags succeeded")
	}
	if d := diffTerm(c, mustGetTerm(t, r, c.ID)); d != "" {
		t.Errorf("refused taxonomy change altered the term (-want +got):\n%s", d)
	}
}

// testNotFound: every lookup or write of a missing id or slug wraps ErrNotFound.
func testNotFound(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	e := mustCreatePost(t, r, newEvent("here", t0))
	c := mustCreateTerm(t, r, newCategory("here", 0))
	const missing = 1 << 40
	ghost := e.Clone()
	ghost.ID = missing
	ghostTerm := c.Clone()
	ghostTerm.ID = missing
	checks := map[string]func() error{
		"GetPost":    func() error { _, err := r.GetPost(ctx, missing); return err },
		"UpdatePost": func() error { _, err := r.UpdatePost(ctx, ghost); return err },
		"DeletePost": func() error { return r.DeletePost(ctx, missing, 0) },
		"PostBySlug": func() error { _, err := r.PostBySlug(ctx, calendar.KindEvent, "nowhere"); return err },
		"PostBySlug/otherKind": func() error {
			_, err := r.PostBySlug(ctx, calendar.KindOrganizer, "here")
			return err
		},
		"GetTerm":    func() error { _, err := r.GetTerm(ctx, missing); return err },
		"UpdateTerm": func() error { _, err := r.UpdateTerm(ctx, ghostTerm); return err },
		"DeleteTerm": func() error { return r.DeleteTerm(ctx, missing, 0) },
		"TermBySlug": func() error { _, err := r.TermBySlug(ctx, calendar.TaxonomyCategory, "nowhere"); return err },
		"TermBySlug/otherTaxonomy": func() error {
			_, err := r.TermBySlug(ctx, calendar.TaxonomyTag, "here")
			return err
		},
	}
	for name, call := range checks {
		if err := call(); !errors.Is(err, calendar.ErrNotFound) {
			t.Errorf("%s of a missing record: err = %v, want one wrapping ErrNotFound", name, err)
		}
	}
	mustDeletePost(t, r, e.ID, 0)
	if _, err := r.GetPost(ctx, e.ID); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("GetPost of a deleted post: err = %v, want ErrNotFound", err)
	}
	if _, err := r.PostBySlug(ctx, calendar.KindEvent, "here"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("PostBySlug of a deleted post: err = %v, want ErrNotFound", err)
	}
	if err := r.DeleteTerm(ctx, c.ID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.TermBySlug(ctx, calendar.TaxonomyCategory, "here"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("TermBySlug of a deleted term: err = %v, want ErrNotFound", err)
	}
}
