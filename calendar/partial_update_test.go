package calendar_test

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// An update touches only the fields it sends; a sent empty value clears.
func TestPartialUpdates(t *testing.T) {
	f := newFixture(t)
	v := f.mustVenue(system, calendar.VenueInput{Name: s("Hall")})
	o := f.mustOrganizer(system, calendar.OrganizerInput{Name: s("Org")})
	c := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Cat")})
	in := eventIn("Full", "2026-04-01 10:00", "2026-04-01 11:00")
	in.Description, in.Excerpt, in.Website = s("desc"), s("exc"), s("https://e.example")
	in.Cost = calendar.Some([]string{"$5"})
	in.Featured, in.Sticky = calendar.Some(true), calendar.Some(true)
	in.Venues = calendar.Some([]calendar.VenueRef{{ID: v.ID}})
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{ID: o.ID}})
	in.Categories = calendar.Some([]calendar.TermRef{{ID: c.ID}})
	ev := f.mustEvent(system, in)

	up, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: s("Renamed")}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if up.Description != "desc" || up.Excerpt != "exc" || up.Website != "https://e.example" || len(up.Cost) != 1 ||
		!*up.Featured || !*up.Sticky || len(up.Venues) != 1 || len(up.Organizers) != 1 || len(up.Categories) != 1 ||
		!up.Start.Equal(ev.Start) || up.Slug != ev.Slug {
		t.Fatalf("a title-only update changed other fields: %+v", up)
	}
	up, err = f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{
		Description: s(""), Cost: calendar.Some([]string{}), Featured: calendar.Some(false),
		Venues: calendar.Some([]calendar.VenueRef{}), Categories: calendar.Some([]calendar.TermRef{}),
	}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if up.Description != "" || len(up.Cost) != 0 || *up.Featured || len(up.Venues) != 0 || len(up.Categories) != 0 ||
		len(up.Organizers) != 1 || up.Title != "Renamed" {
		t.Fatalf("sent empty values should clear exactly those fields: %+v", up)
	}
}

// Linking a venue the caller may not read is refused as if it did not exist.
func TestLinkingUnreadableRecords(t *testing.T) {
	f := newFixture(t)
	draft := f.mustVenue(as(author2), calendar.VenueInput{Name: s("Secret venue"), Status: calendar.Some(calendar.StatusDraft)})
	in := eventIn("Mine", "2026-04-01 10:00", "2026-04-01 11:00")
	in.Venues = calendar.Some([]calendar.VenueRef{{ID: draft.ID}})
	_, err := f.cal.CreateEvent(as(contributor), in, calendar.WriteOptions{})
	wantParams(t, err, "venue")
	if _, err := f.cal.CreateEvent(as(author2), in, calendar.WriteOptions{}); err != nil {
		t.Fatalf("the owner may link their own draft venue: %v", err)
	}
}
