package storagetest

import (
	"context"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

var isolationTests = []conformanceTest{
	{"Isolation/Posts", testIsolationPosts},
	{"Isolation/Terms", testIsolationTerms},
}

// scribble changes every mutable part of a post in place: maps, slices and
// pointed-to values.
func scribble(p *calendar.PostRecord) {
	p.Title["en"] = "scribbled"
	p.Description["xx"] = "scribbled"
	if len(p.VenueIDs) > 0 {
		p.VenueIDs[0] = -1
	}
	if len(p.Cost) > 0 {
		p.Cost[0] = "scribbled"
	}
	if p.ShowMap != nil {
		*p.ShowMap = !*p.ShowMap
	}
	if p.GeoLat != nil {
		*p.GeoLat = -1
	}
	p.Slug = "scribbled"
}

// testIsolationPosts: records passed in are not retained and records
// returned are not shared, by any method.
func testIsolationPosts(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	v := mustCreatePost(t, r, newVenue("v"))
	in := newEvent("e", t0)
	in.VenueIDs = []int64{v.ID}
	created := mustCreatePost(t, r, in)
	want := created.Clone()
	scribble(in)
	scribble(created)
	if d := diffPost(want, mustGetPost(t, r, want.ID)); d != "" {
		t.Fatalf("changing the CreatePost input or result changed the store (-want +got):\n%s", d)
	}

	up := want.Clone()
	up.Title = calendar.Text{"en": "updated"}
	updated := mustUpdatePost(t, r, up)
	want = updated.Clone()
	scribble(up)
	scribble(updated)
	if d := diffPost(want, mustGetPost(t, r, want.ID)); d != "" {
		t.Fatalf("changing the UpdatePost input or result changed the store (-want +got):\n%s", d)
	}

	readers := map[string]func() *calendar.PostRecord{
		"GetPost": func() *calendar.PostRecord { return mustGetPost(t, r, want.ID) },
		"GetPosts": func() *calendar.PostRecord {
			ps, err := r.GetPosts(ctx, []int64{want.ID})
			if err != nil || len(ps) != 1 {
				t.Fatalf("GetPosts: %v, %v", ps, err)
			}
			return ps[0]
		},
		"PostBySlug": func() *calendar.PostRecord {
			p, err := r.PostBySlug(ctx, calendar.KindEvent, want.Slug)
			if err != nil {
				t.Fatal(err)
			}
			return p
		},
		"ListPosts": func() *calendar.PostRecord {
			page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, VenueIDs: []int64{v.ID}})
			if len(page.Records) != 1 {
				t.Fatalf("ListPosts by venue: %v", postIDs(page.Records))
			}
			return page.Records[0]
		},
	}
	for name, read := range readers {
		scribble(read())
		if d := diffPost(want, mustGetPost(t, r, want.ID)); d != "" {
			t.Errorf("changing the record %s returned changed the store (-want +got):\n%s", name, d)
		}
	}
	vw := mustGetPost(t, r, v.ID)
	scribble(vw)
	if got := mustGetPost(t, r, v.ID); got.Title["en"] == "scribbled" || *got.GeoLat == -1 {
		t.Errorf("changing a returned venue changed the store")
	}
}

func testIsolationTerms(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	in := newCategory("c", 0)
	created := mustCreateTerm(t, r, in)
	want := created.Clone()
	in.Name["en"], created.Name["en"], created.Description["en"] = "x", "x", "x"
	if d := diffTerm(want, mustGetTerm(t, r, want.ID)); d != "" {
		t.Fatalf("changing the CreateTerm input or result changed the store (-want +got):\n%s", d)
	}
	up := want.Clone()
	updated := mustUpdateTerm(t, r, up)
	want = updated.Clone()
	up.Name["en"], updated.Name["en"] = "y", "y"
	if d := diffTerm(want, mustGetTerm(t, r, want.ID)); d != "" {
		t.Fatalf("changing the UpdateTerm input or result changed the store (-want +got):\n%s", d)
	}
	readers := map[string]func() *calendar.TermRecord{
		"GetTerm": func() *calendar.TermRecord { return mustGetTerm(t, r, want.ID) },
		"GetTerms": func() *calendar.TermRecord {
			ts, err := r.GetTerms(ctx, []int64{want.ID})
			if err != nil || len(ts) != 1 {
				t.Fatalf("GetTerms: %v, %v", ts, err)
			}
			return ts[0]
		},
		"TermBySlug": func() *calendar.TermRecord {
			tr, err := r.TermBySlug(ctx, calendar.TaxonomyCategory, want.Slug)
			if err != nil {
				t.Fatal(err)
			}
			return tr
		},
		"ListTerms": func() *calendar.TermRecord {
			ts, err := r.ListTerms(ctx, calendar.TaxonomyCategory)
			if err != nil || len(ts) != 1 {
				t.Fatalf("ListTerms: %v, %v", ts, err)
			}
			return ts[0]
		},
	}
	for name, read := range readers {
		got := read()
		got.Name["en"], got.Description["en"], got.Slug = "z", "z", "z"
		if d := diffTerm(want, mustGetTerm(t, r, want.ID)); d != "" {
			t.Errorf("changing the term %s returned changed the store (-want +got):\n%s", name, d)
		}
	}
}
