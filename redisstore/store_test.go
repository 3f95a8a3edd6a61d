package redisstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func event(title string, start time.Time) *calendar.PostRecord {
	return &calendar.PostRecord{Kind: calendar.KindEvent, Status: calendar.StatusPublish, Author: 1, Date: t0,
		Modified: t0, Slug: title, Lang: "en", Title: calendar.Text{"en": title},
		Start: start, End: start.Add(2 * time.Hour), TimeZone: "UTC"}
}

func mustCreate(t *testing.T, s *Store, p *calendar.PostRecord) *calendar.PostRecord {
	t.Helper()
	got, err := s.CreatePost(context.Background(), p)
	if err != nil {
		t.Fatalf("create %q: %v", p.Slug, err)
	}
	return got
}

func mustTerm(t *testing.T, s *Store, tax calendar.Taxonomy, slug string, parent int64) *calendar.TermRecord {
	t.Helper()
	got, err := s.CreateTerm(context.Background(), &calendar.TermRecord{Taxonomy: tax, Slug: slug, Lang: "en",
		Name: calendar.Text{"en": slug}, Parent: parent})
	if err != nil {
		t.Fatalf("create term %q: %v", slug, err)
	}
	return got
}

// The slug script must pick exactly calendar.SlugCandidate's candidates,
// including the rune-boundary truncation of long multi-byte bases.
func TestSlugCandidatesMatchCalendar(t *testing.T) {
	s := newTestStore(t, singleClient(t))
	bases := []string{"party", strings.Repeat("é", 100), "x" + strings.Repeat("€", 66), strings.Repeat("a", 200)}
	for _, base := range bases {
		for n := 1; n <= 12; n++ {
			p := event("t", t0)
			p.Slug = base
			got := mustCreate(t, s, p)
			if want := calendar.SlugCandidate(base, n); got.Slug != want {
				t.Fatalf("base %q, create #%d: slug %q, want %q", base, n, got.Slug, want)
			}
			stored, err := s.PostBySlug(context.Background(), calendar.KindEvent, got.Slug)
			if err != nil || stored.ID != got.ID {
				t.Fatalf("PostBySlug(%q) = %v, %v; want id %d", got.Slug, stored, err, got.ID)
			}
		}
	}
}

// Records are stored through a template the script completes; what comes
// back must be exactly what went in, whatever bytes the slug holds.
func TestRecordsRoundTrip(t *testing.T) {
	s := newTestStore(t, singleClient(t))
	ctx := context.Background()
	yes, lat, lng := true, 48.85, 2.35
	hall := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "hall"})
	var orgs []int64
	for _, slug := range []string{"o1", "o2"} {
		orgs = append(orgs, mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindOrganizer, Date: t0, Slug: slug}).ID)
	}
	c3, t4 := mustTerm(t, s, calendar.TaxonomyCategory, "c3", 0), mustTerm(t, s, calendar.TaxonomyTag, "t4", 0)
	p := event(`odd "slug" \ with/<&>`+"\x01\ttabs-ü", t0)
	p.Description = calendar.Text{"en": "desc", "fr": "déc"}
	p.Cost, p.VenueIDs, p.OrganizerIDs, p.CategoryIDs, p.TagIDs = []string{"5"}, []int64{hall.ID}, []int64{orgs[1], orgs[0]}, []int64{c3.ID}, []int64{t4.ID}
	p.ShowMap = &yes
	got := mustCreate(t, s, p)
	want := p.Clone()
	want.ID, want.Version = got.ID, 1
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("create returned (-want +got):\n%s", diff)
	}
	read, err := s.GetPost(ctx, got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, read); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
	v := &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusDraft, Date: t0, Slug: "v", Lang: "fr",
		Title: calendar.Text{"fr": "Salle"}, GeoLat: &lat, GeoLng: &lng, City: "Paris"}
	gv := mustCreate(t, s, v)
	if gv.ID != got.ID+1 {
		t.Fatalf("venue id %d, want %d: posts share one sequence", gv.ID, got.ID+1)
	}
	rv, err := s.GetPost(ctx, gv.ID)
	if err != nil || rv.City != "Paris" || *rv.GeoLat != lat {
		t.Fatalf("venue read back %+v, %v", rv, err)
	}
	term := mustTerm(t, s, calendar.TaxonomyCategory, `c"\`, 0)
	rt, err := s.TermBySlug(ctx, calendar.TaxonomyCategory, `c"\`)
	if err != nil || rt.ID != term.ID || rt.Version != 1 {
		t.Fatalf("TermBySlug = %+v, %v", rt, err)
	}
}

func TestUpdateCompareAndSet(t *testing.T) {
	s := newTestStore(t, singleClient(t))
	ctx := context.Background()
	a := mustCreate(t, s, event("a", t0))
	mustCreate(t, s, event("b", t0))

	up := a.Clone()
	up.Slug = "b" // taken by the other event: suffixed
	up.Start = t0.Add(48 * time.Hour)
	got, err := s.UpdatePost(ctx, up)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || got.Slug != "b-2" {
		t.Fatalf("update gave version %d slug %q, want 2 and b-2", got.Version, got.Slug)
	}
	if _, err := s.PostBySlug(ctx, calendar.KindEvent, "a"); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("old slug still reserved: %v", err)
	}
	// The first event's old start must have left the index.
	page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Start: calendar.TimeRange{To: t0.Add(time.Hour)}})
	if err != nil || page.Total != 1 || page.Records[0].Slug != "b" {
		t.Fatalf("window before move: %+v, %v", page, err)
	}

	stale := a.Clone()
	stale.Title = calendar.Text{"en": "lost"}
	if _, err := s.UpdatePost(ctx, stale); !errors.Is(err, calendar.ErrConflict) {
		t.Fatalf("stale update: %v, want ErrConflict", err)
	}
	if err := s.DeletePost(ctx, a.ID, 1); !errors.Is(err, calendar.ErrConflict) {
		t.Fatalf("stale delete: %v, want ErrConflict", err)
	}
	read, _ := s.GetPost(ctx, a.ID)
	if read.Version != 2 || read.Title["en"] != "a" {
		t.Fatalf("a refused write changed the record: %+v", read)
	}
	wrongKind := read.Clone()
	wrongKind.Kind = calendar.KindVenue
	if _, err := s.UpdatePost(ctx, wrongKind); !errors.Is(err, calendar.ErrInvalid) {
		t.Fatalf("update with another kind: %v, want ErrInvalid", err)
	}
	if _, err := s.UpdatePost(ctx, &calendar.PostRecord{ID: 999999, Kind: calendar.KindEvent, Version: 1}); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("update of a missing post: %v", err)
	}
}

// Deleting a venue, an organizer, a parent event, a category or a tag
// unlinks it from every event atomically, with Version+1 on each.
func TestDeleteUnlinks(t *testing.T) {
	s := newTestStore(t, singleClient(t))
	ctx := context.Background()
	venue := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "hall"})
	org := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindOrganizer, Status: calendar.StatusPublish, Date: t0, Slug: "org"})
	cat := mustTerm(t, s, calendar.TaxonomyCategory, "music", 0)
	child := mustTerm(t, s, calendar.TaxonomyCategory, "jazz", cat.ID)
	grand := mustTerm(t, s, calendar.TaxonomyCategory, "bebop", child.ID)
	tag := mustTerm(t, s, calendar.TaxonomyTag, "free", 0)
	parent := mustCreate(t, s, event("parent", t0))
	ev := event("child", t0.Add(time.Hour))
	ev.VenueIDs, ev.OrganizerIDs, ev.CategoryIDs, ev.TagIDs, ev.PostParent = []int64{venue.ID}, []int64{org.ID}, []int64{cat.ID, child.ID}, []int64{tag.ID}, parent.ID
	ev = mustCreate(t, s, ev)

	count := func(q calendar.PostQuery) int {
		t.Helper()
		q.Kind = calendar.KindEvent
		page, err := s.ListPosts(ctx, &q)
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	for name, q := range map[string]calendar.PostQuery{
		"venue": {VenueIDs: []int64{venue.ID}}, "organizer": {OrganizerIDs: []int64{org.ID}},
		"category": {CategoryIDs: []int64{cat.ID}}, "tag": {TagIDs: []int64{tag.ID}}, "parent": {PostParent: parent.ID},
	} {
		if n := count(q); n != 1 {
			t.Fatalf("by %s before delete: %d events, want 1", name, n)
		}
	}
	steps := []struct {
		name  string
		del   func() error
		check func(*calendar.PostRecord) bool
		q     calendar.PostQuery
	}{
		{"venue", func() error { return s.DeletePost(ctx, venue.ID, 0) }, func(p *calendar.PostRecord) bool { return len(p.VenueIDs) == 0 }, calendar.PostQuery{VenueIDs: []int64{venue.ID}}},
		{"organizer", func() error { return s.DeletePost(ctx, org.ID, 1) }, func(p *calendar.PostRecord) bool { return len(p.OrganizerIDs) == 0 }, calendar.PostQuery{OrganizerIDs: []int64{org.ID}}},
		{"parent", func() error { return s.DeletePost(ctx, parent.ID, 1) }, func(p *calendar.PostRecord) bool { return p.PostParent == 0 }, calendar.PostQuery{PostParent: parent.ID}},
		{"category", func() error { return s.DeleteTerm(ctx, cat.ID, 0) }, func(p *calendar.PostRecord) bool { return slices.Equal(p.CategoryIDs, []int64{child.ID}) }, calendar.PostQuery{CategoryIDs: []int64{cat.ID}}},
		{"tag", func() error { return s.DeleteTerm(ctx, tag.ID, 1) }, func(p *calendar.PostRecord) bool { return len(p.TagIDs) == 0 }, calendar.PostQuery{TagIDs: []int64{tag.ID}}},
	}
	version := ev.Version
	for _, st := range steps {
		if err := st.del(); err != nil {
			t.Fatalf("delete %s: %v", st.name, err)
		}
		got, err := s.GetPost(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		version++
		if !st.check(got) || got.Version != version {
			t.Fatalf("after deleting the %s the event is %+v (version %d, want %d)", st.name, got, got.Version, version)
		}
		if n := count(st.q); n != 0 {
			t.Fatalf("by deleted %s: %d events", st.name, n)
		}
	}
	if n := count(calendar.PostQuery{CategoryIDs: []int64{child.ID}}); n != 1 {
		t.Fatalf("the surviving category lost its event: %d", n)
	}
	// The child category took the deleted category's parent (none).
	c, err := s.GetTerm(ctx, child.ID)
	if err != nil || c.Parent != 0 || c.Version != 2 {
		t.Fatalf("child after parent delete: %+v, %v", c, err)
	}
	if err := s.DeleteTerm(ctx, child.ID, 0); err != nil {
		t.Fatal(err)
	}
	g, err := s.GetTerm(ctx, grand.ID)
	if err != nil || g.Parent != 0 || g.Version != 2 {
		t.Fatalf("grandchild after delete: %+v, %v", g, err)
	}
	terms, err := s.ListTerms(ctx, calendar.TaxonomyCategory)
	if err != nil || len(terms) != 1 || terms[0].ID != grand.ID {
		t.Fatalf("ListTerms = %v, %v", terms, err)
	}
	if err := s.DeletePost(ctx, venue.ID, 0); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
	if _, err := s.PostBySlug(ctx, calendar.KindVenue, "hall"); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatalf("deleted venue's slug still resolves: %v", err)
	}
	// The freed slug is reusable as is.
	if v := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Date: t0, Slug: "hall"}); v.Slug != "hall" {
		t.Fatalf("freed slug reused as %q", v.Slug)
	}
	checkConsistency(t, s.c, s)
}

// Every list answer equals brute force over all records: MatchPost filter,
// ComparePosts order, exact total — whichever index the script picked.
func TestListMatchesBruteForce(t *testing.T) {
	s := newTestStore(t, singleClient(t))
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	var all []*calendar.PostRecord
	var venues, cats, tags []int64
	for i := range 3 {
		cats = append(cats, mustTerm(t, s, calendar.TaxonomyCategory, fmt.Sprint("c", i), 0).ID)
	}
	for i := range 2 {
		tags = append(tags, mustTerm(t, s, calendar.TaxonomyTag, fmt.Sprint("t", i), 0).ID)
	}
	parent := mustCreate(t, s, event("parent", t0))
	all = append(all, parent)
	for i := range 4 {
		v := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish,
			Date: t0.Add(time.Duration(i%2) * time.Hour), Slug: "v", Title: calendar.Text{"en": fmt.Sprint("venue ", i)}})
		venues = append(venues, v.ID)
		all = append(all, v)
	}
	statuses := []calendar.Status{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPrivate}
	for i := range 150 {
		// Coarse starts make many ties, so the id tie-break is exercised;
		// some differ by less than a microsecond.
		start := t0.Add(time.Duration(rng.IntN(40)) * 6 * time.Hour).Add(time.Duration(rng.IntN(3)) * 300 * time.Nanosecond)
		p := event(fmt.Sprintf("e%d", i), start)
		p.End = start.Add(time.Duration(rng.IntN(72)) * time.Hour)
		p.Status = statuses[rng.IntN(len(statuses))]
		p.Date = t0.Add(time.Duration(rng.IntN(10)-5) * 24 * time.Hour)
		p.Author = int64(1 + rng.IntN(3))
		p.Featured = rng.IntN(4) == 0
		p.HideFromListings = rng.IntN(6) == 0
		if rng.IntN(2) == 0 {
			p.VenueIDs = []int64{venues[rng.IntN(len(venues))]}
		}
		p.CategoryIDs = []int64{cats[rng.IntN(3)], cats[rng.IntN(3)]}
		p.TagIDs = []int64{tags[rng.IntN(2)]}
		if rng.IntN(5) == 0 {
			p.PostParent = parent.ID
		}
		if rng.IntN(3) == 0 {
			p.Title["en"] = "Jazz night " + p.Title["en"]
		}
		all = append(all, mustCreate(t, s, p))
	}
	now := t0.Add(24 * time.Hour)
	yes, no := true, false
	pub := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
	queries := []calendar.PostQuery{
		{},
		{Start: calendar.TimeRange{From: t0.Add(48 * time.Hour), To: t0.Add(96 * time.Hour)}},
		{Start: calendar.TimeRange{From: t0.Add(48 * time.Hour), To: t0.Add(96 * time.Hour), FromExclusive: true, ToExclusive: true}},
		{Start: calendar.TimeRange{From: t0.Add(48*time.Hour + 300*time.Nanosecond)}},
		{End: calendar.TimeRange{From: now}, Visible: pub, ExcludeHidden: true},
		{End: calendar.TimeRange{To: now}, Start: calendar.TimeRange{From: t0}},
		{Visible: pub},
		{Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusFuture}, Owner: 2, OwnStatuses: []calendar.Status{calendar.StatusDraft, calendar.StatusPrivate}}},
		{Featured: &yes}, {Featured: &no},
		{VenueIDs: venues[:2]}, {NotVenueIDs: venues[:1]}, {CategoryIDs: cats[:2]}, {TagIDs: tags[1:]}, {TagIDs: tags[1:], Featured: &yes},
		{PostParent: parent.ID}, {Search: []string{"jazz"}}, {Name: "JAZZ night e3"}, {Name: " VENUE  2"},
		{ExcludeIDs: []int64{all[10].ID, all[11].ID}},
		{IDs: []int64{all[20].ID, all[5].ID, all[20].ID, 999999}},
		{CategoryIDs: cats[2:], Start: calendar.TimeRange{From: t0.Add(24 * time.Hour), To: t0.Add(200 * time.Hour)}},
		{Start: calendar.TimeRange{From: t0.Add(time.Hour), To: t0}},
	}
	for i, base := range queries {
		for _, kind := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue} {
			for _, win := range [][2]int{{0, 0}, {0, 7}, {7, 7}, {140, 20}} {
				q := base
				q.Kind, q.Now, q.Lang, q.Offset, q.Limit = kind, now, "en", win[0], win[1]
				var want []*calendar.PostRecord
				for _, p := range all {
					if storage.MatchPost(&q, p) {
						want = append(want, p)
					}
				}
				storage.SortPosts(want)
				page, err := s.ListPosts(ctx, &q)
				if err != nil {
					t.Fatalf("query %d: %v", i, err)
				}
				if page.Total != len(want) {
					t.Fatalf("query %d kind %v: total %d, want %d", i, kind, page.Total, len(want))
				}
				if diff := cmp.Diff(storage.Window(want, &q), page.Records); diff != "" {
					t.Fatalf("query %d kind %v window %v (-want +got):\n%s", i, kind, win, diff)
				}
			}
		}
	}
}
