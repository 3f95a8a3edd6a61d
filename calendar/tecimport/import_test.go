package tecimport_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/tecimport"
	"github.com/eventcal/eventcal/calendar/tecimport/tectest"
	"github.com/eventcal/eventcal/memstore"
	"github.com/google/go-cmp/cmp"
)

// expected counts the records of each kind Generate made and how many of
// them are broken.
func expected(f *fixture) map[calendar.Kind][2]int {
	out := map[calendar.Kind][2]int{}
	add := func(k calendar.Kind, broken bool) {
		c := out[k]
		c[0]++
		if broken {
			c[1]++
		}
		out[k] = c
	}
	for _, t := range f.site.Terms("tribe_events_cat") {
		add(calendar.KindCategory, f.site.BrokenTerm(t.ID))
	}
	for _, t := range f.site.Terms("post_tag") {
		add(calendar.KindTag, f.site.BrokenTerm(t.ID))
	}
	for _, v := range f.site.Venues() {
		add(calendar.KindVenue, f.site.Broken(v.ID))
	}
	for _, o := range f.site.Organizers() {
		add(calendar.KindOrganizer, f.site.Broken(o.ID))
	}
	for _, e := range f.site.Events() {
		add(calendar.KindEvent, f.site.Broken(e.ID))
	}
	return out
}

// TestImportEveryRecord imports a generated site with credentials into an
// empty calendar and reads every record back through eventcal's own REST
// interface: each equals the original's representation field by field,
// apart from the host in URLs (ids, slugs, texts, dates, zones, costs,
// flags, images, links and embedded records, term parents and counts).
// The broken records, and only they, are reported and skipped.
func TestImportEveryRecord(t *testing.T) {
	f := newFixture(t, tectest.DefaultGenerate)
	svc := newCalendar(t, nil)
	var progress bytes.Buffer
	sum, err := tecimport.Run(system(), svc, f.srv.URL, tecimport.WithCredentials(siteUser, sitePass),
		tecimport.WithSourceAuthors(), tecimport.WithProgress(&progress, 0), fast)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, progress.String())
	}
	if !sum.KeptIDs {
		t.Error("an empty calendar did not keep the site's ids")
	}
	want := expected(f)
	for k, c := range want {
		got := sum.Kind(k)
		if got.Read != c[0] || got.Created != c[0]-c[1] || got.Failed != c[1] || got.Updated != 0 || got.Unchanged != 0 {
			t.Errorf("%s: got %+v, want %d read, %d created, %d failed", k, got, c[0], c[0]-c[1], c[1])
		}
	}
	skipped := sum.Skipped()
	if len(skipped) != len(f.gen.BrokenPosts)+len(f.gen.BrokenTerms) || len(skipped) != len(sum.Problems) {
		t.Errorf("problems: %v; want exactly the %d broken records skipped", sum.Problems, len(f.gen.BrokenPosts)+len(f.gen.BrokenTerms))
	}
	for _, p := range skipped {
		if p.Kind.IsPost() && !slices.Contains(f.gen.BrokenPosts, p.ID) || !p.Kind.IsPost() && !slices.Contains(f.gen.BrokenTerms, p.ID) {
			t.Errorf("skipped %v, which is not broken", p)
		}
	}
	if !strings.Contains(progress.String(), "events: ") || !strings.Contains(progress.String(), "skipped event") {
		t.Errorf("progress lacks counts or problems:\n%s", progress.String())
	}
	var out bytes.Buffer
	sum.WriteTo(&out)
	if !strings.Contains(out.String(), "total") || !strings.Contains(out.String(), "the site's ids kept") {
		t.Errorf("summary:\n%s", out.String())
	}

	ours := serveCalendar(t, svc)
	compareAll(t, f, ours)

	// Hidden events are not listed by the original; the probe found them.
	hidden := 0
	for _, e := range f.site.Events() {
		if e.HideFromListings && !f.site.Broken(e.ID) {
			hidden++
			if _, err := svc.GetEvent(system(), calendar.ByID(e.ID), calendar.ReadOptions{}); err != nil {
				t.Errorf("hidden event %d: %v", e.ID, err)
			}
		}
	}
	if hidden == 0 {
		t.Fatal("the generated site has no hidden event to find")
	}

	// The comparison sees a difference in any field: change three
	// records at the site only; they differ (and the events embedding
	// them), for the changed field only.
	evs, vns, tgs := f.site.Events(), f.site.Venues(), f.site.Terms("post_tag")
	f.site.UpdateEvent(evs[10].ID, func(e *tectest.Event) { e.Featured = !e.Featured })
	f.site.UpdateVenue(vns[7].ID, func(v *tectest.Venue) { v.Zip = "99999" })
	f.site.UpdateTerm(tgs[3].ID, func(tg *tectest.Term) { tg.Description = "changed" })
	diffs := strings.Join(diffAll(t, f, ours), "\n")
	for _, route := range []string{"/events/" + itoa(evs[10].ID), "/venues/" + itoa(vns[7].ID), "/tags/" + itoa(tgs[3].ID)} {
		if !strings.Contains(diffs, route+" differs") {
			t.Errorf("a change of %s at the site went unnoticed", route)
		}
	}
	for _, line := range strings.Split(diffs, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "- ") && !strings.Contains(line, "featured") &&
			!strings.Contains(line, "99999") && !strings.Contains(line, "changed") {
			t.Errorf("unexpected difference: %s", line)
		}
	}
}

// TestSecondRunUpdates runs the import twice: the second run creates
// nothing that exists, updates exactly what changed at the site (an event's
// title, dates, venue and tags, a venue's city, a category's name and
// parent, an organizer's email), creates what is new (with a fresh id, the
// calendar being no longer empty) and leaves the rest untouched.
func TestSecondRunUpdates(t *testing.T) {
	f := newFixture(t, tectest.DefaultGenerate)
	svc := newCalendar(t, nil)
	opts := []tecimport.Option{tecimport.WithCredentials(siteUser, sitePass), tecimport.WithSourceAuthors(), fast}
	first, err := tecimport.Run(system(), svc, f.srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	again, err := tecimport.Run(system(), svc, f.srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ft, at := first.Total(), again.Total()
	if at.Created != 0 || at.Updated != 0 || at.Unchanged != ft.Created || at.Failed != ft.Failed {
		t.Fatalf("an unchanged site: second run %+v after %+v", at, ft)
	}
	if again.KeptIDs {
		t.Error("a calendar that is no longer empty kept ids")
	}

	// Change the site.
	events := f.site.Events()
	var ev tectest.Event
	for _, e := range events {
		if e.Status == "publish" && !f.site.Broken(e.ID) && !e.HideFromListings && len(e.Venues) == 1 {
			ev = e
			break
		}
	}
	venues, orgs := f.site.Venues(), f.site.Organizers()
	cats, tags := f.site.Terms("tribe_events_cat"), f.site.Terms("post_tag")
	later := clock.Add(-time.Minute)
	f.site.UpdateEvent(ev.ID, func(e *tectest.Event) {
		e.Title = "Renamed – “New” & improved"
		e.Start, e.End = e.Start.Add(time.Hour), e.End.Add(2*time.Hour)
		e.Venues = []int64{venues[3].ID}
		e.Tags = []int64{tags[0].ID, tags[1].ID}
		e.Modified = later
	})
	f.site.UpdateVenue(venues[5].ID, func(v *tectest.Venue) { v.City = "Montréal"; v.Modified = later })
	f.site.UpdateOrganizer(orgs[2].ID, func(o *tectest.Organizer) { o.Email = "new@example.org"; o.Modified = later })
	f.site.UpdateTerm(cats[4].ID, func(c *tectest.Term) { c.Name = "Renamed category"; c.Parent = cats[0].ID })
	newID := f.site.AddEvent(tectest.Event{Post: tectest.Post{Author: 2, Status: "publish", Date: later, Modified: later,
		Slug: "brand-new", Title: "Brand new"}, Start: clock.Add(48 * time.Hour), End: clock.Add(50 * time.Hour),
		TimeZone: "Europe/Paris", Venues: []int64{venues[0].ID}, Categories: []int64{cats[2].ID}})

	third, err := tecimport.Run(system(), svc, f.srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	want := map[calendar.Kind][2]int{ // created, updated
		calendar.KindEvent: {1, 1}, calendar.KindVenue: {0, 1}, calendar.KindOrganizer: {0, 1},
		calendar.KindCategory: {0, 1}, calendar.KindTag: {0, 0},
	}
	for k, w := range want {
		if got := third.Kind(k); got.Created != w[0] || got.Updated != w[1] {
			t.Errorf("%s after changes: %+v, want %d created, %d updated", k, got, w[0], w[1])
		}
	}
	if tt := third.Total(); tt.Created+tt.Updated+tt.Unchanged+tt.Failed != tt.Read || tt.Unchanged != ft.Created-4 {
		t.Errorf("third run %+v; want everything else unchanged (%d)", tt, ft.Created-4)
	}

	// The changed records equal the site again; the new one too, under its new id.
	ours := serveCalendar(t, svc)
	hosts := []string{hostOf(f.srv.URL), hostOf(ours.URL)}
	for _, route := range []string{"/events/" + itoa(ev.ID), "/venues/" + itoa(venues[5].ID),
		"/organizers/" + itoa(orgs[2].ID), "/categories/" + itoa(cats[4].ID)} {
		src, _ := getJSON(t, f.srv.URL, route)
		got, _ := getJSON(t, ours.URL, route)
		if d := cmp.Diff(comparable(src, hosts...), comparable(got, hosts...)); d != "" {
			t.Errorf("%s after the sync (-site +eventcal):\n%s", route, d)
		}
	}
	var created *calendar.Event
	page, err := svc.ListEvents(system(), calendar.EventQuery{Search: "Brand new", StartDate: "2000-01-01"})
	if err != nil || len(page.Events) != 1 {
		t.Fatalf("new event: %v %+v", err, page)
	}
	created = &page.Events[0]
	if created.ID == newID {
		t.Logf("the new event happens to have the site's id %d", newID)
	}
	src, _ := getJSON(t, f.srv.URL, "/events/"+itoa(newID))
	got, _ := getJSON(t, ours.URL, "/events/"+itoa(created.ID))
	for _, m := range []map[string]any{src, got} {
		for _, k := range []string{"id", "global_id", "global_id_lineage", "rest_url"} {
			delete(m, k)
		}
	}
	if d := cmp.Diff(comparable(src, hosts...), comparable(got, hosts...)); d != "" {
		t.Errorf("new event (-site +eventcal):\n%s", d)
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// TestWrongCredentials: a site that answers 401 to the credentials stops
// the run with an error naming the user, before anything is written.
func TestWrongCredentials(t *testing.T) {
	f := newFixture(t, tectest.GenerateOptions{Seed: 2, Events: 20, Venues: 5, Organizers: 5, Categories: 5, Tags: 5})
	svc := newCalendar(t, nil)
	sum, err := tecimport.Run(system(), svc, f.srv.URL, tecimport.WithCredentials(siteUser, "wrong password"), fast)
	if !errors.Is(err, tecimport.ErrCredentials) {
		t.Fatalf("err = %v, want ErrCredentials", err)
	}
	if !strings.Contains(err.Error(), `"`+siteUser+`"`) || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "application password") {
		t.Errorf("the error does not name the user, the status and what to check: %v", err)
	}
	if sum.Total().Created != 0 {
		t.Errorf("records written despite refused credentials: %+v", sum.Total())
	}
	if empty, err := svc.IsEmpty(system()); err != nil || !empty {
		t.Errorf("calendar not empty after a refused run: %v %v", empty, err)
	}
	if _, retries := sum.Requests, sum.Retries; retries != 0 {
		t.Errorf("a 401 was retried %d times", retries)
	}
}

// TestAnonymous: without credentials only what the site shows anyone is
// imported — no draft, pending, private, scheduled or trashed record.
func TestAnonymous(t *testing.T) {
	f := newFixture(t, tectest.GenerateOptions{Seed: 3, Events: 120, Venues: 30, Organizers: 30, Categories: 10, Tags: 20})
	svc := newCalendar(t, nil)
	sum, err := tecimport.Run(system(), svc, f.srv.URL, fast)
	if err != nil {
		t.Fatal(err)
	}
	published := 0
	for _, e := range f.site.Events() {
		_, err := svc.GetEvent(system(), calendar.ByID(e.ID), calendar.ReadOptions{})
		public := e.Status == "publish" || e.Status == "future" && !e.Date.After(clock)
		if public && err != nil {
			t.Errorf("published event %d not imported: %v", e.ID, err)
		}
		if !public && err == nil {
			t.Errorf("%s event %d imported without credentials", e.Status, e.ID)
		}
		if public {
			published++
		}
	}
	if got := sum.Kind(calendar.KindEvent).Created; got != published {
		t.Errorf("created %d events, want the %d published", got, published)
	}
}

// TestImportIntoNonEmptyCalendar: into a calendar that already holds
// records, every record gets a new id and every link is translated: each
// event links the venues, organizers, categories and tags that carry the
// site's records' global ids and slugs.
func TestImportIntoNonEmptyCalendar(t *testing.T) {
	f := newFixture(t, tectest.GenerateOptions{Seed: 12, Events: 150, Venues: 25, Organizers: 20, Categories: 12, Tags: 25})
	repo := memstore.New()
	svc := newCalendar(t, repo)
	for i := range 7 { // take the ids the site uses
		if _, err := svc.CreateEvent(system(), calendar.EventInput{Title: calendar.Some(fmt.Sprintf("Own %d", i)),
			StartDate: calendar.Some("2026-05-01 10:00"), EndDate: calendar.Some("2026-05-01 11:00"),
			Tags: calendar.Some([]calendar.TermRef{{Name: fmt.Sprintf("own-%d", i)}})}, calendar.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := tecimport.Run(system(), svc, f.srv.URL, tecimport.WithCredentials(siteUser, sitePass), fast)
	if err != nil {
		t.Fatal(err)
	}
	if sum.KeptIDs || sum.Total().Failed != 0 {
		t.Fatalf("summary: kept %v, %+v, %v", sum.KeptIDs, sum.Total(), sum.Problems)
	}
	ctx := context.Background()
	host := hostOf(f.srv.URL)
	uidOf := func(id int64) string { return host + "?id=" + itoa(id) }
	ours := func(kind calendar.Kind, siteID int64) *calendar.PostRecord {
		p, err := repo.PostByUID(ctx, kind, uidOf(siteID))
		if err != nil {
			t.Fatalf("%s %d: %v", kind, siteID, err)
		}
		return p
	}
	termSlug := map[int64]string{}
	for _, tax := range []string{"tribe_events_cat", "post_tag"} {
		for _, tm := range f.site.Terms(tax) {
			termSlug[tm.ID] = tm.Slug
		}
	}
	moved := 0
	for _, e := range f.site.Events() {
		p := ours(calendar.KindEvent, e.ID)
		if p.ID != e.ID {
			moved++
		}
		if !p.Start.Equal(e.Start) || p.Title["en"] != e.Title {
			t.Errorf("event %d: %v %q", e.ID, p.Start, p.Title)
		}
		var wantVenues, gotVenues []int64
		for _, v := range e.Venues {
			wantVenues = append(wantVenues, ours(calendar.KindVenue, v).ID)
		}
		gotVenues = p.VenueIDs
		if !slices.Equal(wantVenues, gotVenues) {
			t.Errorf("event %d venues %v, want %v", e.ID, gotVenues, wantVenues)
		}
		var wantOrgs []int64
		for _, o := range e.Organizers {
			wantOrgs = append(wantOrgs, ours(calendar.KindOrganizer, o).ID)
		}
		if !slices.Equal(wantOrgs, p.OrganizerIDs) {
			t.Errorf("event %d organizers %v, want %v", e.ID, p.OrganizerIDs, wantOrgs)
		}
		for _, l := range []struct {
			site []int64
			got  []int64
		}{{e.Categories, p.CategoryIDs}, {e.Tags, p.TagIDs}} {
			var want, got []string
			for _, id := range l.site {
				want = append(want, termSlug[id])
			}
			terms, _ := repo.GetTerms(ctx, l.got)
			for _, tm := range terms {
				got = append(got, tm.Slug)
			}
			if !slices.Equal(want, got) {
				t.Errorf("event %d terms %v, want %v", e.ID, got, want)
			}
		}
	}
	if moved == 0 {
		t.Error("no event got a new id: the test proves nothing")
	}
	// Category parents are translated too.
	for _, c := range f.site.Terms("tribe_events_cat") {
		got, err := repo.TermBySlug(ctx, calendar.TaxonomyCategory, c.Slug)
		if err != nil {
			t.Fatal(err)
		}
		want := int64(0)
		if c.Parent != 0 {
			parent, _ := repo.TermBySlug(ctx, calendar.TaxonomyCategory, termSlug[c.Parent])
			want = parent.ID
		}
		if got.Parent != want {
			t.Errorf("category %s: parent %d, want %d", c.Slug, got.Parent, want)
		}
	}
}
