package storagetest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/eventcal/eventcal/calendar"
)

// t0 is the reference instant of the fixtures: whole seconds in UTC, which
// every driver encoding keeps exactly.
var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// newEvent returns an event with every event field set, so that a round trip
// proves the driver keeps each of them.
func newEvent(slug string, start time.Time) *calendar.PostRecord {
	return &calendar.PostRecord{
		Kind:             calendar.KindEvent,
		Status:           calendar.StatusPublish,
		Author:           7,
		Date:             t0.Add(-48 * time.Hour),
		Modified:         t0.Add(-24 * time.Hour),
		Slug:             slug,
		Lang:             "en",
		Title:            calendar.Text{"en": "Jazz night " + slug, "fr": "Soirée jazz " + slug},
		Description:      calendar.Text{"en": "<p>Live music</p>", "fr": "<p>Musique</p>"},
		Excerpt:          calendar.Text{"en": "Music"},
		Image:            "https://example.com/a.png",
		Website:          "https://example.com/",
		ShowMap:          ptr(false),
		ShowMapLink:      ptr(true),
		Start:            start,
		End:              start.Add(2 * time.Hour),
		TimeZone:         "Europe/Paris",
		AllDay:           false,
		Cost:             []string{"10", "15.50"},
		HideFromListings: false,
		Sticky:           true,
		Featured:         true,
		Password:         "secret",
	}
}

// newVenue returns a venue with every venue field set.
func newVenue(slug string) *calendar.PostRecord {
	return &calendar.PostRecord{
		Kind:          calendar.KindVenue,
		Status:        calendar.StatusPublish,
		Author:        3,
		Date:          t0.Add(-72 * time.Hour),
		Modified:      t0.Add(-72 * time.Hour),
		Slug:          slug,
		Lang:          "fr",
		Title:         calendar.Text{"fr": "Salle " + slug, "en": "Hall " + slug},
		Description:   calendar.Text{"fr": "Grande salle"},
		Website:       "https://venue.example/",
		Phone:         "+33 1 23 45 67 89",
		ShowMap:       ptr(true),
		Address:       "1 rue de la Paix",
		City:          "Paris",
		Country:       "France",
		Province:      "IDF",
		State:         "",
		Zip:           "75002",
		StateProvince: "IDF",
		GeoLat:        ptr(48.8686),
		GeoLng:        ptr(2.3314),
	}
}

// newOrganizer returns an organizer with every organizer field set.
func newOrganizer(slug string) *calendar.PostRecord {
	return &calendar.PostRecord{
		Kind:     calendar.KindOrganizer,
		Status:   calendar.StatusDraft,
		Author:   4,
		Date:     t0.Add(-96 * time.Hour),
		Modified: t0.Add(-96 * time.Hour),
		Slug:     slug,
		Lang:     "de",
		Title:    calendar.Text{"de": "Verein " + slug},
		Phone:    "+49 30 1234",
		Website:  "https://org.example/",
		Email:    "info@org.example",
	}
}

func newCategory(slug string, parent int64) *calendar.TermRecord {
	n := nameSuffix()
	return &calendar.TermRecord{
		Taxonomy:    calendar.TaxonomyCategory,
		Slug:        slug,
		Lang:        "en",
		Name:        calendar.Text{"en": "Category " + slug + n, "es": "Categoría " + slug + n},
		Description: calendar.Text{"en": "About " + slug},
		Parent:      parent,
	}
}

func newTag(slug string) *calendar.TermRecord {
	return &calendar.TermRecord{
		Taxonomy: calendar.TaxonomyTag,
		Slug:     slug,
		Lang:     "en",
		Name:     calendar.Text{"en": "Tag " + slug + nameSuffix()},
	}
}

// cmpOpts compare records by value: times with Equal (encodings may drop
// the monotonic reading or the location), nil and empty slices and maps alike
// (encodings may not tell them apart).
var cmpOpts = []cmp.Option{cmpopts.EquateEmpty()}

func diffPost(want, got *calendar.PostRecord) string { return cmp.Diff(want, got, cmpOpts...) }
func diffTerm(want, got *calendar.TermRecord) string { return cmp.Diff(want, got, cmpOpts...) }

func mustCreatePost(t testing.TB, r calendar.Repository, p *calendar.PostRecord) *calendar.PostRecord {
	t.Helper()
	got, err := r.CreatePost(context.Background(), p)
	if err != nil {
		t.Fatalf("CreatePost(%s %q): %v", p.Kind, p.Slug, err)
	}
	return got
}

func mustUpdatePost(t testing.TB, r calendar.Repository, p *calendar.PostRecord) *calendar.PostRecord {
	t.Helper()
	got, err := r.UpdatePost(context.Background(), p)
	if err != nil {
		t.Fatalf("UpdatePost(%d v%d): %v", p.ID, p.Version, err)
	}
	return got
}

func mustGetPost(t testing.TB, r calendar.Repository, id int64) *calendar.PostRecord {
	t.Helper()
	got, err := r.GetPost(context.Background(), id)
	if err != nil {
		t.Fatalf("GetPost(%d): %v", id, err)
	}
	return got
}

func mustDeletePost(t testing.TB, r calendar.Repository, id, version int64) {
	t.Helper()
	if err := r.DeletePost(context.Background(), id, version); err != nil {
		t.Fatalf("DeletePost(%d, %d): %v", id, version, err)
	}
}

func mustCreateTerm(t testing.TB, r calendar.Repository, tr *calendar.TermRecord) *calendar.TermRecord {
	t.Helper()
	got, err := r.CreateTerm(context.Background(), tr)
	if err != nil {
		t.Fatalf("CreateTerm(%s %q): %v", tr.Taxonomy, tr.Slug, err)
	}
	return got
}

func mustUpdateTerm(t testing.TB, r calendar.Repository, tr *calendar.TermRecord) *calendar.TermRecord {
	t.Helper()
	got, err := r.UpdateTerm(context.Background(), tr)
	if err != nil {
		t.Fatalf("UpdateTerm(%d v%d): %v", tr.ID, tr.Version, err)
	}
	return got
}

func mustGetTerm(t testing.TB, r calendar.Repository, id int64) *calendar.TermRecord {
	t.Helper()
	got, err := r.GetTerm(context.Background(), id)
	if err != nil {
		t.Fatalf("GetTerm(%d): %v", id, err)
	}
	return got
}

func mustList(t testing.TB, r calendar.Repository, q *calendar.PostQuery) *calendar.PostPage {
	t.Helper()
	page, err := r.ListPosts(context.Background(), q)
	if err != nil {
		t.Fatalf("ListPosts(%+v): %v", *q, err)
	}
	return page
}

// postIDs returns the ids of ps in order.
func postIDs(ps []*calendar.PostRecord) []int64 {
	ids := make([]int64, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return ids
}

func termIDs(ts []*calendar.TermRecord) []int64 {
	ids := make([]int64, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return ids
}

var nameSeq atomic.Int64

// nameSuffix makes fixture term names distinct: stores refuse two terms of
// one name at one level, and most tests are not about names.
func nameSuffix() string { return fmt.Sprintf(" #%d", nameSeq.Add(1)) }
