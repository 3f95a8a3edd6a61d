package calendar_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/eventcal/eventcal/calendar"
)

// snapshot is everything stored, to prove a refused write changed nothing.
func snapshot(t *testing.T, f *fixture) string {
	t.Helper()
	var b strings.Builder
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer} {
		p, err := f.repo.ListPosts(system, &calendar.PostQuery{Kind: k})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Records {
			b.WriteString(cmp.Diff(nil, r))
		}
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		ts, _ := f.repo.ListTerms(system, tax)
		for _, tm := range ts {
			b.WriteString(cmp.Diff(nil, tm))
		}
	}
	return b.String()
}

func TestEventValidationNamesEveryArgument(t *testing.T) {
	f := newFixture(t)
	v := f.mustVenue(system, calendar.VenueInput{Name: s("Hall")})
	ev := f.mustEvent(system, eventIn("Good", "2026-04-01 10:00", "2026-04-01 11:00"))
	before := snapshot(t, f)
	long := strings.Repeat("x", 1001)
	cases := []struct {
		name  string
		in    calendar.EventInput
		names []string
	}{
		{"missing required", calendar.EventInput{}, []string{"title", "start_date", "end_date"}},
		{"empty title", eventIn("  ", "2026-04-01", "2026-04-01"), []string{"title"}},
		{"long title", eventIn(long, "2026-04-01", "2026-04-01"), []string{"title"}},
		{"bad dates", eventIn("x", "April first", "2026-13-01"), []string{"start_date", "end_date"}},
		{"end before start", eventIn("x", "2026-04-02", "2026-04-01"), []string{"end_date"}},
		{"many at once", func() calendar.EventInput {
			in := eventIn("x", "2026-04-01 10:00", "2026-04-01 11:00")
			in.TimeZone = s("Mars/Olympus")
			in.Website = s("javascript:alert(1)")
			in.Image = s("ftp://example.com/a.png")
			in.Cost = calendar.Some([]string{strings.Repeat("9", 101)})
			in.Status = calendar.Some[calendar.Status]("sideways")
			in.Slug = s("!!!")
			in.Date = s("not a date")
			in.Venues = calendar.Some([]calendar.VenueRef{{ID: ev.ID}})
			in.Organizers = calendar.Some([]calendar.OrganizerRef{{ID: 99999}})
			in.Categories = calendar.Some([]calendar.TermRef{{ID: 12345}})
			in.PostParent = calendar.Some(v.ID)
			in.Description = s(strings.Repeat("d", 1<<20+1))
			return in
		}(), []string{"timezone", "website", "image", "cost", "status", "slug", "date", "venue", "organizer", "categories", "post_parent", "description"}},
		{"nested venue without a name", func() calendar.EventInput {
			in := eventIn("x", "2026-04-01 10:00", "2026-04-01 11:00")
			in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{City: s("Paris")}}})
			return in
		}(), []string{"venue"}},
		{"invalid UTF-8", eventIn("bad \xff byte", "2026-04-01", "2026-04-01"), []string{"title"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.cal.CreateEvent(as(editor), tc.in, calendar.WriteOptions{})
			wantParams(t, err, tc.names...)
			if after := snapshot(t, f); after != before {
				t.Fatalf("a refused create changed stored data")
			}
		})
	}
	// The same arguments refused on update, by id and by slug, change nothing.
	for _, ref := range []calendar.Ref{calendar.ByID(ev.ID), calendar.BySlug(ev.Slug)} {
		_, err := f.cal.UpdateEvent(as(editor), ref, calendar.EventInput{EndDate: s("2026-03-31"), Website: s("nope"), Title: s("")}, calendar.WriteOptions{})
		wantParams(t, err, "end_date", "website", "title")
	}
	// A category given by a new name is not created when the write is refused.
	in := eventIn("x", "2026-04-01 10:00", "bad")
	in.Categories = calendar.Some([]calendar.TermRef{{Name: "Brand new"}})
	_, err := f.cal.CreateEvent(as(editor), in, calendar.WriteOptions{})
	wantParams(t, err, "end_date")
	if after := snapshot(t, f); after != before {
		t.Fatalf("a refused write created a term or changed data")
	}
}

func TestLookupErrors(t *testing.T) {
	f := newFixture(t)
	v := f.mustVenue(system, calendar.VenueInput{Name: s("Hall")})
	ev := f.mustEvent(system, eventIn("E", "2026-04-01 10:00", "2026-04-01 11:00"))
	_, err := f.cal.GetEvent(system, calendar.ByID(9999), calendar.ReadOptions{})
	wantErr(t, err, calendar.CodeNotFound, "rest-event-not-found")
	_, err = f.cal.GetEvent(system, calendar.ByID(v.ID), calendar.ReadOptions{})
	wantErr(t, err, calendar.CodeInvalid, "rest-invalid-event-id")
	_, err = f.cal.GetVenue(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
	wantParams(t, err, "id")
	_, err = f.cal.GetOrganizer(system, calendar.ByID(9999), calendar.ReadOptions{})
	wantParams(t, err, "id")
	_, err = f.cal.GetEvent(system, calendar.BySlug("no-such-event"), calendar.ReadOptions{})
	wantParams(t, err, "slug")
	_, err = f.cal.GetVenue(system, calendar.BySlug("e"), calendar.ReadOptions{})
	wantParams(t, err, "slug")
	_, err = f.cal.GetEvent(system, calendar.ByID(-3), calendar.ReadOptions{})
	wantParams(t, err, "id")
	_, err = f.cal.GetTerm(system, calendar.TaxonomyTag, 77, calendar.ReadOptions{})
	wantParams(t, err, "id")
	// By-slug lookups are exact on the normalised slug.
	got, err := f.cal.GetEvent(system, calendar.BySlug(" E "), calendar.ReadOptions{})
	if err != nil || got.ID != ev.ID {
		t.Fatalf("normalised slug lookup: %v %v", got, err)
	}
	// A cancelled context stops the work.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.cal.ListEvents(ctx, calendar.EventQuery{}); err == nil {
		t.Fatalf("cancelled context: no error")
	}
}

func TestVenueAndOrganizerValidation(t *testing.T) {
	f := newFixture(t)
	lat := 100.0
	_, err := f.cal.CreateVenue(system, calendar.VenueInput{Name: s("V"), GeoLat: calendar.Some(&lat), Website: s("example.com")}, calendar.WriteOptions{})
	wantParams(t, err, "geo_lat", "website")
	_, err = f.cal.CreateVenue(system, calendar.VenueInput{Name: s("V"), GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lat)}, calendar.WriteOptions{})
	wantParams(t, err, "geo_lat")
	_, err = f.cal.CreateVenue(system, calendar.VenueInput{}, calendar.WriteOptions{})
	wantParams(t, err, "venue")
	_, err = f.cal.CreateOrganizer(system, calendar.OrganizerInput{Name: s("O"), Email: s("not-an-email")}, calendar.WriteOptions{})
	wantParams(t, err, "email")
	_, err = f.cal.CreateOrganizer(system, calendar.OrganizerInput{}, calendar.WriteOptions{})
	wantParams(t, err, "organizer")
	o := f.mustOrganizer(system, calendar.OrganizerInput{Name: s("O"), Email: s("a@b.example"), Phone: s("+1 555")})
	if o.Email != "a@b.example" || o.Phone != "+1 555" {
		t.Fatalf("organizer = %+v", o)
	}
}

func TestNamesOnWrite(t *testing.T) {
	f := newFixture(t)
	hall := f.mustVenue(system, calendar.VenueInput{Name: s("Blue Note")})
	jazz := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Jazz")})
	in := eventIn("Gig", "2026-04-01 20:00", "2026-04-01 23:00")
	in.Categories = calendar.Some([]calendar.TermRef{{Name: "jazz"}, {Name: "Late Shows"}, {Name: "late shows"}})
	in.Tags = calendar.Some([]calendar.TermRef{{Name: "Free Entry"}})
	in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: s("blue note"), City: s("NYC")}}})
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: &calendar.OrganizerInput{Name: s("New Org")}}, {New: &calendar.OrganizerInput{Name: s("Second")}}})
	// Authors may create categories but not tags: the whole write is refused
	// and nothing it named by value is created.
	_, err := f.cal.CreateEvent(as(author), in, calendar.WriteOptions{})
	wantParams(t, err, "tags")
	if p, _ := f.cal.ListOrganizers(system, calendar.OrganizerQuery{}); p.Total != 0 {
		t.Fatalf("refused write created organizers")
	}
	in.Tags = calendar.Opt[[]calendar.TermRef]{}
	ev, err := f.cal.CreateEvent(as(author), in, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Venues) != 1 || ev.Venues[0].ID != hall.ID {
		t.Fatalf("venue by the same name should link the existing one: %+v", ev.Venues)
	}
	if len(ev.Categories) != 2 || ev.Categories[0].ID != jazz.ID || ev.Categories[1].Name != "Late Shows" {
		t.Fatalf("categories = %+v", ev.Categories)
	}
	for _, o := range ev.Organizers {
		if o.Modified.IsZero() || o.Date.IsZero() {
			t.Fatalf("organizer created inside an event write lacks dates: %+v", o)
		}
	}
	if len(ev.Organizers) != 2 || ev.Organizers[0].Name != "New Org" || ev.Organizers[1].Name != "Second" {
		t.Fatalf("organizers keep their order: %+v", ev.Organizers)
	}
	// Standalone create with an existing name returns the existing record.
	again := f.mustVenue(system, calendar.VenueInput{Name: s("BLUE NOTE")})
	if again.ID != hall.ID {
		t.Fatalf("duplicate venue created: %d vs %d", again.ID, hall.ID)
	}
	// Unknown names for terms the caller may not create are invalid.
	in2 := eventIn("Gig 2", "2026-04-01 20:00", "2026-04-01 23:00")
	in2.Categories = calendar.Some([]calendar.TermRef{{Name: "Unknown genre"}})
	_, err = f.cal.CreateEvent(as(contributor), in2, calendar.WriteOptions{})
	wantParams(t, err, "categories")
}

func TestTermRules(t *testing.T) {
	f := newFixture(t)
	jazz := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Jazz")})
	_, err := f.cal.CreateTerm(system, calendar.TaxonomyCategory, calendar.TermInput{Name: s("jazz")}, calendar.WriteOptions{})
	if ce := wantErr(t, err, calendar.CodeInvalid, "term_exists"); ce.TermID != jazz.ID {
		t.Fatalf("term_exists names %d, want %d", ce.TermID, jazz.ID)
	}
	// Same name under another parent is fine; slug gets a suffix.
	sub, err := f.cal.CreateTerm(system, calendar.TaxonomyCategory, calendar.TermInput{Name: s("Jazz"), Parent: calendar.Some(jazz.ID)}, calendar.WriteOptions{})
	if err != nil || sub.Slug != "jazz-2" {
		t.Fatalf("nested same name: %+v %v", sub, err)
	}
	_, err = f.cal.UpdateTerm(system, calendar.TaxonomyCategory, sub.ID, calendar.TermInput{Slug: s("jazz")}, calendar.WriteOptions{})
	wantErr(t, err, calendar.CodeInvalid, "duplicate_term_slug")
	_, err = f.cal.UpdateTerm(system, calendar.TaxonomyCategory, jazz.ID, calendar.TermInput{Parent: calendar.Some(sub.ID)}, calendar.WriteOptions{})
	wantParams(t, err, "parent")
	_, err = f.cal.CreateTerm(system, calendar.TaxonomyTag, calendar.TermInput{Name: s("t"), Parent: calendar.Some(jazz.ID)}, calendar.WriteOptions{})
	wantErr(t, err, calendar.CodeInvalid, "rest_taxonomy_not_hierarchical")
	_, err = f.cal.CreateTerm(system, calendar.TaxonomyTag, calendar.TermInput{Description: s("no name")}, calendar.WriteOptions{})
	wantParams(t, err, "name")
	// An empty description clears it.
	withDesc := f.mustTerm(calendar.TaxonomyTag, calendar.TermInput{Name: s("Described"), Description: s("words")})
	cleared, err := f.cal.UpdateTerm(system, calendar.TaxonomyTag, withDesc.ID, calendar.TermInput{Description: s("")}, calendar.WriteOptions{})
	if err != nil || cleared.Description != "" {
		t.Fatalf("clearing description: %+v %v", cleared, err)
	}
	_, err = f.cal.GetTerm(system, calendar.TaxonomyTag, jazz.ID, calendar.ReadOptions{})
	wantParams(t, err, "id")
}

func TestSlugs(t *testing.T) {
	f := newFixture(t)
	a := f.mustEvent(system, eventIn("Café Déjà Vu!", "2026-04-01 20:00", "2026-04-01 23:00"))
	if a.Slug != "cafe-deja-vu" {
		t.Fatalf("slug = %q", a.Slug)
	}
	b := f.mustEvent(system, eventIn("Cafe deja vu", "2026-04-01 20:00", "2026-04-01 23:00"))
	if b.Slug != "cafe-deja-vu-2" {
		t.Fatalf("clash slug = %q", b.Slug)
	}
	// Trashed posts keep their slug, so a restore never clashes.
	if _, err := f.cal.DeleteEvent(system, calendar.ByID(a.ID), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	c := f.mustEvent(system, eventIn("Café déjà vu", "2026-04-01 20:00", "2026-04-01 23:00"))
	if c.Slug != "cafe-deja-vu-3" {
		t.Fatalf("slug next to a trashed one = %q", c.Slug)
	}
	// Other kinds have their own slug space.
	v := f.mustVenue(system, calendar.VenueInput{Name: s("Café Déjà Vu")})
	if v.Slug != "cafe-deja-vu" {
		t.Fatalf("venue slug = %q", v.Slug)
	}
	// A slug sent on update that clashes is suffixed; the response shows it.
	up, err := f.cal.UpdateEvent(system, calendar.ByID(c.ID), calendar.EventInput{Slug: s("Cafe Deja Vu 2")}, calendar.WriteOptions{})
	if err != nil || up.Slug != "cafe-deja-vu-2-2" {
		t.Fatalf("update slug: %v %v", up.Slug, err)
	}
	ru := f.mustEvent(system, eventIn("Ночь джаза", "2026-04-01 20:00", "2026-04-01 23:00"))
	if ru.Slug != "ночь-джаза" {
		t.Fatalf("cyrillic slug = %q", ru.Slug)
	}
}

// ValidateOnly checks rights and arguments as the write would and writes
// nothing: an accepted write returns (nil, nil) and leaves the store as it
// was; a refused one returns the error the write would have.
func TestValidateOnly(t *testing.T) {
	f := newFixture(t)
	check := calendar.WriteOptions{ValidateOnly: true}
	count := func() int {
		t.Helper()
		p, err := f.cal.ListEvents(system, calendar.EventQuery{StartDate: "2000-01-01"})
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.cal.ListVenues(system, calendar.VenueQuery{})
		if err != nil {
			t.Fatal(err)
		}
		hide := false
		tg, err := f.cal.ListTerms(system, calendar.TaxonomyTag, calendar.TermQuery{HideEmpty: &hide})
		if err != nil {
			t.Fatal(err)
		}
		return p.Total*10000 + v.Total*100 + tg.Total
	}
	ev := f.mustEvent(system, eventIn("Kept", "2026-04-01 20:00", "2026-04-01 23:00"))
	before := count()

	in := eventIn("Checked", "2026-04-02 20:00", "2026-04-02 23:00")
	in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: s("New Hall")}}})
	in.Tags = calendar.Some([]calendar.TermRef{{Name: "brand-new-tag"}})
	if got, err := f.cal.CreateEvent(as(admin), in, check); got != nil || err != nil {
		t.Errorf("valid create: %v %v", got, err)
	}
	bad := eventIn("x", "2026-04-01", "never")
	_, err := f.cal.CreateEvent(as(admin), bad, check)
	wantParams(t, err, "end_date")
	_, err = f.cal.CreateEvent(as(anonymous), in, check)
	wantErr(t, err, calendar.CodeUnauthenticated, "rest_forbidden")

	if got, err := f.cal.UpdateEvent(as(admin), calendar.ByID(ev.ID), calendar.EventInput{Title: s("Changed")}, check); got != nil || err != nil {
		t.Errorf("valid update: %v %v", got, err)
	}
	_, err = f.cal.UpdateEvent(as(admin), calendar.ByID(ev.ID), calendar.EventInput{StartDate: s("never")}, check)
	wantParams(t, err, "start_date")
	_, err = f.cal.UpdateEvent(as(admin), calendar.ByID(999999), calendar.EventInput{Title: s("x")}, check)
	if !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("update of a missing event: %v", err)
	}
	if got, err := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{}); err != nil || got.Title != "Kept" || got.Version != ev.Version {
		t.Errorf("after validate-only update: %+v %v", got, err)
	}

	if got, err := f.cal.CreateVenue(as(admin), calendar.VenueInput{Name: s("Checked Hall")}, check); got != nil || err != nil {
		t.Errorf("venue create: %v %v", got, err)
	}
	_, err = f.cal.CreateVenue(as(admin), calendar.VenueInput{}, check)
	wantErr(t, err, calendar.CodeInvalid, "rest_missing_callback_param")
	if got, err := f.cal.CreateOrganizer(as(admin), calendar.OrganizerInput{Name: s("Checked Org")}, check); got != nil || err != nil {
		t.Errorf("organizer create: %v %v", got, err)
	}
	vn := f.mustVenue(system, calendar.VenueInput{Name: s("Old Hall")})
	before = count()
	if got, err := f.cal.UpdateVenue(as(admin), calendar.ByID(vn.ID), calendar.VenueInput{Name: s("Renamed Hall")}, check); got != nil || err != nil {
		t.Errorf("venue update: %v %v", got, err)
	}
	if got, _ := f.cal.GetVenue(system, calendar.ByID(vn.ID), calendar.ReadOptions{}); got.Name != "Old Hall" {
		t.Errorf("venue renamed by a validate-only update: %q", got.Name)
	}

	if got, err := f.cal.CreateTerm(as(admin), calendar.TaxonomyTag, calendar.TermInput{Name: s("checked-tag")}, check); got != nil || err != nil {
		t.Errorf("term create: %v %v", got, err)
	}
	tag, err := f.cal.CreateTerm(system, calendar.TaxonomyTag, calendar.TermInput{Name: s("kept-tag")}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before = count()
	if got, err := f.cal.UpdateTerm(as(admin), calendar.TaxonomyTag, tag.ID, calendar.TermInput{Name: s("renamed-tag")}, check); got != nil || err != nil {
		t.Errorf("term update: %v %v", got, err)
	}
	_, err = f.cal.UpdateTerm(as(admin), calendar.TaxonomyTag, tag.ID, calendar.TermInput{Name: s("")}, check)
	wantParams(t, err, "name")
	if got, _ := f.cal.GetTerm(system, calendar.TaxonomyTag, tag.ID, calendar.ReadOptions{}); got.Name != "kept-tag" {
		t.Errorf("term renamed by a validate-only update: %q", got.Name)
	}
	if after := count(); after != before {
		t.Errorf("validate-only writes stored something: %d records before, %d after", before, after)
	}
}

// A date message says what was expected and does not repeat the argument
// name, which the error already carries (wire: data.params is name → message).
func TestDateMessagesNameTheExpectedForm(t *testing.T) {
	f := newFixture(t)
	_, err := f.cal.CreateEvent(as(admin), calendar.EventInput{Title: calendar.Some("x"),
		StartDate: calendar.Some("24/12/2026"), EndDate: calendar.Some("2026-12-24 4pm")}, calendar.WriteOptions{})
	var ce *calendar.Error
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	msg := ce.Params["start_date"]
	if !strings.Contains(msg, "YYYY-MM-DD") || strings.HasPrefix(msg, "start_date") {
		t.Errorf("start_date message %q: want the expected form, without the argument name", msg)
	}
	if _, bad := ce.Params["end_date"]; bad {
		t.Errorf("end_date %q refused: %q", "2026-12-24 4pm", ce.Params["end_date"])
	}
	_, err = f.cal.ListEvents(as(admin), calendar.EventQuery{StartDate: "2026-13-01"})
	if !errors.As(err, &ce) || strings.HasPrefix(ce.Params["start_date"], "start_date") || ce.Params["start_date"] == "" {
		t.Errorf("list filter message: %v", err)
	}
}
