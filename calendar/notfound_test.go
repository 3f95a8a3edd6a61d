package calendar_test

import (
	"errors"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// TestMissingRecordsAreNotFound: in Go, an id or slug that names no record
// of the kind matches ErrNotFound, by id and by slug alike, while the code
// stays what the REST interface answers (400 for slugs and for non-event ids).
func TestMissingRecordsAreNotFound(t *testing.T) {
	f := newFixture(t)
	ctx := as(admin)
	ev := f.mustEvent(ctx, eventIn("Concert", "2026-04-01 20:00", "2026-04-01 22:00"))
	_, errEventID := f.cal.GetEvent(ctx, calendar.ByID(9999), calendar.ReadOptions{})
	_, errEventSlug := f.cal.GetEvent(ctx, calendar.BySlug("nope"), calendar.ReadOptions{})
	_, errVenueAsEvent := f.cal.GetVenue(ctx, calendar.ByID(ev.ID), calendar.ReadOptions{})
	_, errVenueSlug := f.cal.GetVenue(ctx, calendar.BySlug("nope"), calendar.ReadOptions{})
	_, errTermID := f.cal.GetTerm(ctx, calendar.TaxonomyTag, 9999, calendar.ReadOptions{})
	_, errTermSlug := f.cal.GetTermBySlug(ctx, calendar.TaxonomyTag, "nope", calendar.ReadOptions{})
	for name, err := range map[string]error{
		"event id": errEventID, "event slug": errEventSlug, "venue id of an event": errVenueAsEvent,
		"venue slug": errVenueSlug, "tag id": errTermID, "tag slug": errTermSlug,
	} {
		if !errors.Is(err, calendar.ErrNotFound) {
			t.Errorf("%s: %v does not match ErrNotFound", name, err)
		}
	}
	if c := calendar.CodeOf(errEventSlug); c != calendar.CodeInvalid {
		t.Errorf("event slug: code %s, want the wire's invalid", c)
	}
	wantParams(t, errTermSlug, "slug")
	// A record that exists but may not be read is not "not found".
	draft := f.mustEvent(ctx, calendar.EventInput{Title: s("Draft"), StartDate: s("2026-04-02 20:00"), EndDate: s("2026-04-02 21:00"), Status: calendar.Some(calendar.StatusDraft)})
	if _, err := f.cal.GetEvent(as(anonymous), calendar.ByID(draft.ID), calendar.ReadOptions{}); errors.Is(err, calendar.ErrNotFound) || err == nil {
		t.Errorf("a draft read anonymously: %v, want forbidden", err)
	}
}

// TestGetTermBySlug reads a term by its slug in a language.
func TestGetTermBySlug(t *testing.T) {
	f := newFixture(t)
	jazz := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Jazz"), Slug: s("jazz")})
	got, err := f.cal.GetTermBySlug(as(anonymous), calendar.TaxonomyCategory, "JAZZ", calendar.ReadOptions{})
	if err != nil || got.ID != jazz.ID || got.Name != "Jazz" {
		t.Fatalf("by slug: %+v, %v", got, err)
	}
	if _, err := f.cal.GetTermBySlug(as(anonymous), calendar.TaxonomyTag, "jazz", calendar.ReadOptions{}); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("a category's slug as a tag: %v", err)
	}
	_, err = f.cal.GetTermBySlug(as(anonymous), calendar.TaxonomyCategory, "  ", calendar.ReadOptions{})
	wantParams(t, err, "slug")
}

// TestBlankedFlagsReadSafely: a protected event read without its password
// has its flags blanked in lists; the accessors say false instead of panicking, and
// say true for a set flag once unlocked.
func TestBlankedFlagsReadSafely(t *testing.T) {
	f := newFixture(t)
	in := eventIn("Secret", "2026-04-01 20:00", "2026-04-01 22:00")
	in.Password, in.Featured, in.Sticky, in.ShowMap = s("pw"), calendar.Some(true), calendar.Some(true), calendar.Some(true)
	ev := f.mustEvent(as(admin), in)
	// Lists show protected events blanked (a single read asks for the password).
	page, err := f.cal.ListEvents(as(anonymous), calendar.EventQuery{Include: []int64{ev.ID}})
	if err != nil || len(page.Events) != 1 {
		t.Fatalf("list: %v, %v", page, err)
	}
	locked := &page.Events[0]
	if !locked.Protected || locked.Featured != nil {
		t.Fatalf("not blanked: %+v", locked)
	}
	if locked.IsFeatured() || locked.IsSticky() || locked.MapShown() || locked.MapLinkShown() || locked.HiddenFromListings() {
		t.Error("a blanked flag read as true")
	}
	open, err := f.cal.GetEvent(as(anonymous), calendar.ByID(ev.ID), calendar.ReadOptions{Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	if !open.IsFeatured() || !open.IsSticky() || !open.MapShown() || open.HiddenFromListings() {
		t.Errorf("unlocked flags: featured %v sticky %v map %v hidden %v", open.IsFeatured(), open.IsSticky(), open.MapShown(), open.HiddenFromListings())
	}
}
