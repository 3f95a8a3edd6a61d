package calendar_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/eventcal/eventcal/calendar"
)

// listWorld is a small calendar for exercising every list filter.
type listWorld struct {
	*fixture
	e                map[string]int64 // events by short name
	v1, v2, v3       int64            // venues: Berlin (coords), Nowhere (none), Potsdam (coords)
	o1               int64
	jazz, rock, free int64
}

func newListWorld(t *testing.T) *listWorld {
	f := newFixture(t)
	w := &listWorld{fixture: f, e: map[string]int64{}}
	lat := func(v float64) calendar.Opt[*float64] { return calendar.Some(&v) }
	w.v1 = f.mustVenue(system, calendar.VenueInput{Name: s("Berlin Hall"), City: s("Berlin"), GeoLat: lat(52.52), GeoLng: lat(13.405)}).ID
	w.v2 = f.mustVenue(system, calendar.VenueInput{Name: s("Nowhere Barn")}).ID
	w.v3 = f.mustVenue(system, calendar.VenueInput{Name: s("Potsdam Stage"), GeoLat: lat(52.39), GeoLng: lat(13.06)}).ID
	w.o1 = f.mustOrganizer(system, calendar.OrganizerInput{Name: s("Org One")}).ID
	w.jazz = f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Jazz")}).ID
	w.rock = f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Rock")}).ID
	w.free = f.mustTerm(calendar.TaxonomyTag, calendar.TermInput{Name: s("Free")}).ID

	add := func(name, title, start, end string, mod func(*calendar.EventInput)) {
		in := eventIn(title, start, end)
		if mod != nil {
			mod(&in)
		}
		w.e[name] = f.mustEvent(system, in).ID
	}
	add("past", "Past", "2026-03-01 10:00", "2026-03-01 11:00", nil)
	add("ongoing", "Ongoing fair", "2026-03-05 09:00", "2026-03-08 18:00", nil)
	add("tonight", "Tonight", "2026-03-06 20:00", "2026-03-06 22:00", nil)
	add("jazz", "Next week jazz", "2026-03-13 19:00", "2026-03-13 21:00", func(in *calendar.EventInput) {
		in.Categories = calendar.Some([]calendar.TermRef{{ID: w.jazz}})
		in.Tags = calendar.Some([]calendar.TermRef{{ID: w.free}})
		in.Venues = calendar.Some([]calendar.VenueRef{{ID: w.v1}})
		in.Featured = calendar.Some(true)
	})
	add("far", "Far future", "2028-05-01 10:00", "2028-05-01 11:00", nil)
	add("hidden", "Hidden", "2026-03-10 10:00", "2026-03-10 11:00", func(in *calendar.EventInput) {
		in.HideFromListings = calendar.Some(true)
	})
	add("child", "Child", "2026-03-14 10:00", "2026-03-14 11:00", func(in *calendar.EventInput) {
		in.PostParent = calendar.Some(w.e["jazz"])
		in.Venues = calendar.Some([]calendar.VenueRef{{ID: w.v2}})
		in.Organizers = calendar.Some([]calendar.OrganizerRef{{ID: w.o1}})
		in.Description = s("a quiet matinee")
	})
	add("rock", "Rock", "2026-03-20 20:00", "2026-03-20 23:00", func(in *calendar.EventInput) {
		in.Categories = calendar.Some([]calendar.TermRef{{ID: w.rock}})
		in.Venues = calendar.Some([]calendar.VenueRef{{ID: w.v3}})
	})
	return w
}

func (w *listWorld) names(ids ...string) []int64 {
	out := []int64{}
	for _, n := range ids {
		out = append(out, w.e[n])
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func TestEventListFilters(t *testing.T) {
	w := newListWorld(t)
	cases := []struct {
		name string
		q    calendar.EventQuery
		want []string
	}{
		{"default window keeps ongoing, drops ended, far and hidden", calendar.EventQuery{}, []string{"ongoing", "tonight", "jazz", "child", "rock"}},
		{"start_date rounds to the start of the day", calendar.EventQuery{StartDate: "2026-03-06 20:30"}, []string{"tonight", "jazz", "child", "rock", "far"}},
		{"strict start_date", calendar.EventQuery{StartDate: "2026-03-06 20:30", StrictDates: true}, []string{"jazz", "child", "rock", "far"}},
		{"end_date rounds to the end of the day", calendar.EventQuery{EndDate: "2026-03-13"}, []string{"past", "ongoing", "tonight", "jazz"}},
		{"strict end_date", calendar.EventQuery{EndDate: "2026-03-13 20:00", StrictDates: true}, []string{"past", "ongoing", "tonight"}},
		{"starts_before non-strict", calendar.EventQuery{StartsBefore: "2026-03-06"}, []string{"past", "ongoing", "tonight"}},
		{"starts_before strict", calendar.EventQuery{StartsBefore: "2026-03-06", StrictDates: true}, []string{"past", "ongoing"}},
		{"starts_after non-strict", calendar.EventQuery{StartsAfter: "2026-03-13"}, []string{"child", "rock", "far"}},
		{"starts_after strict", calendar.EventQuery{StartsAfter: "2026-03-13", StrictDates: true}, []string{"jazz", "child", "rock", "far"}},
		{"ends_after", calendar.EventQuery{EndsAfter: "2026-03-07"}, []string{"ongoing", "jazz", "child", "rock", "far"}},
		{"ends_before", calendar.EventQuery{EndsBefore: "2026-03-06"}, []string{"past", "tonight"}},
		{"window from two arguments", calendar.EventQuery{StartDate: "2026-03-06", EndDate: "2026-03-14"}, []string{"tonight", "jazz", "child"}},
		{"include ignores dates", calendar.EventQuery{Include: w.names("far", "past"), StartDate: "2026-03-10"}, []string{"past", "far"}},
		{"include never shows hidden", calendar.EventQuery{Include: w.names("hidden", "past")}, []string{"past"}},
		{"search in title", calendar.EventQuery{Search: "JAZZ"}, []string{"jazz"}},
		{"search every word, description too", calendar.EventQuery{Search: "quiet child"}, []string{"child"}},
		{"search no match", calendar.EventQuery{Search: "jazz quiet"}, []string{}},
		{"category by slug", calendar.EventQuery{Categories: []string{"jazz"}}, []string{"jazz"}},
		{"categories any-of ids and slugs", calendar.EventQuery{Categories: []string{fmt.Sprint(w.rock), "jazz"}}, []string{"jazz", "rock"}},
		{"categories and tags AND", calendar.EventQuery{Categories: []string{"rock"}, Tags: []string{"free"}}, []string{}},
		{"tag", calendar.EventQuery{Tags: []string{"free"}}, []string{"jazz"}},
		{"venue", calendar.EventQuery{Venue: []int64{w.v1, w.v2}}, []string{"jazz", "child"}},
		{"organizer", calendar.EventQuery{Organizer: []int64{w.o1}}, []string{"child"}},
		{"featured", calendar.EventQuery{Featured: ptr(true)}, []string{"jazz"}},
		{"not featured", calendar.EventQuery{Featured: ptr(false)}, []string{"ongoing", "tonight", "child", "rock"}},
		{"post_parent", calendar.EventQuery{PostParent: w.e["jazz"]}, []string{"child"}},
		{"geoloc true", calendar.EventQuery{Geoloc: ptr(true)}, []string{"jazz", "rock"}},
		{"geoloc false", calendar.EventQuery{Geoloc: ptr(false)}, []string{"ongoing", "tonight", "child"}},
		{"radius default 25 km", calendar.EventQuery{GeolocLat: ptr(52.52), GeolocLng: ptr(13.405)}, []string{"jazz"}},
		{"radius 40 km reaches Potsdam", calendar.EventQuery{GeolocLat: ptr(52.52), GeolocLng: ptr(13.405), GeolocRadius: ptr(40.0)}, []string{"jazz", "rock"}},
		{"ticketed false matches all", calendar.EventQuery{Ticketed: ptr(false)}, []string{"ongoing", "tonight", "jazz", "child", "rock"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			page, err := w.cal.ListEvents(as(anonymous), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			want := w.names(tc.want...)
			if diff := cmp.Diff(want, eventIDs(page)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if page.Total != len(want) {
				t.Errorf("total = %d, want %d", page.Total, len(want))
			}
		})
	}
}

func TestEventListBadArguments(t *testing.T) {
	w := newListWorld(t)
	cases := []struct {
		q     calendar.EventQuery
		names []string
	}{
		{calendar.EventQuery{StartDate: "yesterdayish"}, []string{"start_date"}},
		{calendar.EventQuery{StartDate: "2026-02-30", EndsBefore: "soon"}, []string{"start_date", "ends_before"}},
		{calendar.EventQuery{Ticketed: ptr(true)}, []string{"ticketed"}},
		{calendar.EventQuery{GeolocLat: ptr(52.0)}, []string{"geoloc_lng"}},
		{calendar.EventQuery{GeolocLat: ptr(91.0), GeolocLng: ptr(0.0)}, []string{"geoloc_lat"}},
		{calendar.EventQuery{Categories: []string{"no-such"}}, []string{"categories"}},
		{calendar.EventQuery{Tags: []string{"999"}}, []string{"tags"}},
		{calendar.EventQuery{Venue: []int64{w.o1}}, []string{"venue"}},
		{calendar.EventQuery{Organizer: []int64{-1}}, []string{"organizer"}},
		{calendar.EventQuery{PostParent: w.v1}, []string{"post_parent"}},
		{calendar.EventQuery{Include: []int64{0}}, []string{"include"}},
		{calendar.EventQuery{Status: []string{"draft"}}, []string{"status"}},
		{calendar.EventQuery{Status: []string{"nonsense"}}, []string{"status"}},
		{calendar.EventQuery{Page: -1, PerPage: -5}, []string{"page", "per_page"}},
	}
	for _, tc := range cases {
		_, err := w.cal.ListEvents(as(anonymous), tc.q)
		wantParams(t, err, tc.names...)
	}
	_, err := w.cal.ListEvents(as(anonymous), calendar.EventQuery{Ticketed: ptr(true)})
	if ce := wantErr(t, err, calendar.CodeInvalid, "rest_invalid_param"); ce.Details["ticketed"].Code != "event-tickets-not-active" {
		t.Errorf("ticketed detail = %+v", ce.Details)
	}
	_, err = w.cal.ListEvents(system, calendar.EventQuery{Lang: "xx"})
	wantParams(t, err, "translation_language")
}

func TestEventListPaging(t *testing.T) {
	w := newListWorld(t)
	var seen []int64
	for page := 1; ; page++ {
		p, err := w.cal.ListEvents(as(anonymous), calendar.EventQuery{Page: page, PerPage: 2})
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if p.Total != 5 || p.TotalPages != 3 || p.PerPage != 2 || p.Page != page {
			t.Fatalf("page %d: total %d pages %d perPage %d", page, p.Total, p.TotalPages, p.PerPage)
		}
		seen = append(seen, eventIDs(p)...)
		if page == p.TotalPages {
			break
		}
	}
	if diff := cmp.Diff(w.names("ongoing", "tonight", "jazz", "child", "rock"), seen); diff != "" {
		t.Fatalf("paged ids (-want +got):\n%s", diff)
	}
	_, err := w.cal.ListEvents(as(anonymous), calendar.EventQuery{Page: 4, PerPage: 2})
	wantErr(t, err, calendar.CodeNotFound, "event-archive-page-not-found")
	p, err := w.cal.ListEvents(as(anonymous), calendar.EventQuery{PerPage: 5000})
	if err != nil || p.PerPage != calendar.DefaultMaxPerPage {
		t.Fatalf("per_page clamp: %v %v", p, err)
	}
	p, err = w.cal.ListEvents(as(anonymous), calendar.EventQuery{Search: "nothing matches this"})
	if err != nil || p.Total != 0 || p.TotalPages != 0 || len(p.Events) != 0 {
		t.Fatalf("empty first page: %+v %v", p, err)
	}
}

func TestEventListVisibility(t *testing.T) {
	f := newFixture(t)
	mk := func(p calendar.Principal, title, status string) int64 {
		in := eventIn(title, "2026-04-01 10:00", "2026-04-01 11:00")
		in.Author = calendar.Some(p.ID)
		in.Status = calendar.Some(calendar.Status(status))
		return f.mustEvent(system, in).ID
	}
	pub := mk(author2, "pub", "publish")
	ownDraft := mk(contributor, "own draft", "draft")
	otherDraft := mk(author2, "other draft", "draft")
	priv := mk(author2, "private", "private")
	trashed := mk(contributor, "trashed", "draft")
	if _, err := f.cal.DeleteEvent(system, calendar.ByID(trashed), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		p      calendar.Principal
		status []string
		want   []int64
	}{
		{anonymous, nil, []int64{pub}},
		{subscriber, []string{"publish"}, []int64{pub}},
		{contributor, nil, []int64{pub, ownDraft}},
		{contributor, []string{"draft"}, []int64{ownDraft}},
		{contributor, []string{"trash"}, []int64{trashed}},
		{editor, nil, []int64{pub, ownDraft, otherDraft, priv}},
		{editor, []string{"private,trash"}, []int64{priv, trashed}},
	}
	for _, tc := range cases {
		p, err := f.cal.ListEvents(as(tc.p), calendar.EventQuery{Status: tc.status})
		if err != nil {
			t.Fatalf("%s %v: %v", tc.p.Role, tc.status, err)
		}
		if diff := cmp.Diff(tc.want, eventIDs(p)); diff != "" {
			t.Errorf("%s %v (-want +got):\n%s", tc.p.Role, tc.status, diff)
		}
	}
}

func TestVenueAndOrganizerLists(t *testing.T) {
	w := newListWorld(t)
	names := func(p *calendar.VenuePage) []string {
		out := []string{}
		for _, v := range p.Venues {
			out = append(out, v.Name)
		}
		return out
	}
	list := func(q calendar.VenueQuery) []string {
		t.Helper()
		p, err := w.cal.ListVenues(as(anonymous), q)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != len(p.Venues) {
			t.Fatalf("total %d for %d venues", p.Total, len(p.Venues))
		}
		return names(p)
	}
	// Newest first (same publication second: higher id first).
	if diff := cmp.Diff([]string{"Potsdam Stage", "Nowhere Barn", "Berlin Hall"}, list(calendar.VenueQuery{})); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Berlin Hall"}, list(calendar.VenueQuery{Search: "berlin"})); diff != "" {
		t.Errorf("search by city:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Nowhere Barn"}, list(calendar.VenueQuery{Event: w.e["child"]})); diff != "" {
		t.Errorf("event filter:\n%s", diff)
	}
	// A fourth venue with no events at all.
	w.mustVenue(system, calendar.VenueInput{Name: s("Empty Room")})
	if diff := cmp.Diff([]string{"Potsdam Stage", "Nowhere Barn", "Berlin Hall"}, list(calendar.VenueQuery{HasEvents: ptr(true)})); diff != "" {
		t.Errorf("has_events true:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Empty Room"}, list(calendar.VenueQuery{HasEvents: ptr(false)})); diff != "" {
		t.Errorf("has_events false:\n%s", diff)
	}
	// Move the clock past the jazz evening and the matinee: only Potsdam has something upcoming.
	w.clock.Set(testNow.AddDate(0, 0, 10))
	if diff := cmp.Diff([]string{"Potsdam Stage"}, list(calendar.VenueQuery{OnlyWithUpcoming: true})); diff != "" {
		t.Errorf("only_with_upcoming:\n%s", diff)
	}
	_, err := w.cal.ListVenues(as(anonymous), calendar.VenueQuery{Event: w.v1})
	wantParams(t, err, "event")
	_, err = w.cal.ListVenues(as(anonymous), calendar.VenueQuery{Page: 9})
	wantErr(t, err, calendar.CodeNotFound, "venue-archive-page-not-found")

	op, err := w.cal.ListOrganizers(as(anonymous), calendar.OrganizerQuery{Event: w.e["child"]})
	if err != nil || len(op.Organizers) != 1 || op.Organizers[0].ID != w.o1 {
		t.Fatalf("organizers by event: %+v %v", op, err)
	}
	_, err = w.cal.ListOrganizers(as(anonymous), calendar.OrganizerQuery{Page: 2})
	wantErr(t, err, calendar.CodeNotFound, "organizer-archive-page-not-found")
}

func TestTermLists(t *testing.T) {
	w := newListWorld(t)
	sub := w.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Bebop"), Parent: calendar.Some(w.jazz), Description: s("fast")})
	unused := w.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Ambient")})
	in := eventIn("Bop", "2026-04-02 20:00", "2026-04-02 22:00")
	in.Categories = calendar.Some([]calendar.TermRef{{ID: sub.ID}, {ID: w.jazz}})
	w.mustEvent(system, in)

	list := func(q calendar.TermQuery) []string {
		t.Helper()
		p, err := w.cal.ListTerms(as(anonymous), calendar.TaxonomyCategory, q)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, tm := range p.Terms {
			out = append(out, fmt.Sprintf("%s:%d", tm.Name, tm.Count))
		}
		return out
	}
	f := false
	cases := []struct {
		name string
		q    calendar.TermQuery
		want []string
	}{
		{"hide_empty by default, by name", calendar.TermQuery{}, []string{"Bebop:1", "Jazz:2", "Rock:1"}},
		{"hide_empty false", calendar.TermQuery{HideEmpty: &f}, []string{"Ambient:0", "Bebop:1", "Jazz:2", "Rock:1"}},
		{"desc", calendar.TermQuery{Order: "desc"}, []string{"Rock:1", "Jazz:2", "Bebop:1"}},
		{"orderby count desc", calendar.TermQuery{OrderBy: "count", Order: "desc"}, []string{"Jazz:2", "Bebop:1", "Rock:1"}},
		{"orderby id", calendar.TermQuery{OrderBy: "id"}, []string{"Jazz:2", "Rock:1", "Bebop:1"}},
		{"parent", calendar.TermQuery{Parent: ptr(w.jazz)}, []string{"Bebop:1"}},
		{"parent 0 = top level", calendar.TermQuery{Parent: ptr(int64(0))}, []string{"Jazz:2", "Rock:1"}},
		{"include order", calendar.TermQuery{Include: []string{"rock", fmt.Sprint(w.jazz)}, OrderBy: "include"}, []string{"Rock:1", "Jazz:2"}},
		{"exclude", calendar.TermQuery{Exclude: []string{"jazz"}}, []string{"Bebop:1", "Rock:1"}},
		{"event", calendar.TermQuery{Event: w.e["rock"]}, []string{"Rock:1"}},
		{"slug", calendar.TermQuery{Slug: "bebop"}, []string{"Bebop:1"}},
		{"search", calendar.TermQuery{Search: "ja"}, []string{"Jazz:2"}},
		{"page past the end is empty", calendar.TermQuery{Page: 5}, []string{}},
	}
	for _, tc := range cases {
		if diff := cmp.Diff(tc.want, list(tc.q)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	_ = unused
	_, err := w.cal.ListTerms(as(anonymous), calendar.TaxonomyTag, calendar.TermQuery{Parent: ptr(int64(1))})
	wantErr(t, err, calendar.CodeInvalid, "rest_taxonomy_not_hierarchical")
	_, err = w.cal.ListTerms(as(anonymous), calendar.TaxonomyCategory, calendar.TermQuery{Order: "sideways", OrderBy: "color", Include: []string{"nope"}})
	wantParams(t, err, "order", "orderby", "include")
}
