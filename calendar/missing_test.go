package calendar_test

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// Missing records and empty collections, on every kind of operation.
func TestMissingRecordsAndEmptyLists(t *testing.T) {
	f := newFixture(t)
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		p, err := f.cal.ListTerms(as(anonymous), tax, calendar.TermQuery{})
		if err != nil || p.Total != 0 || p.TotalPages != 0 || p.Terms == nil || len(p.Terms) != 0 {
			t.Fatalf("empty %s list: %+v %v", tax, p, err)
		}
		_, err = f.cal.UpdateTerm(system, tax, 404, calendar.TermInput{Name: s("x")}, calendar.WriteOptions{})
		wantParams(t, err, "id")
		_, err = f.cal.DeleteTerm(system, tax, 404, calendar.DeleteOptions{})
		wantParams(t, err, "id")
	}
	_, err := f.cal.ListTerms(system, "bogus", calendar.TermQuery{})
	wantParams(t, err, "taxonomy")
	_, err = f.cal.CreateTerm(system, "bogus", calendar.TermInput{Name: s("x")}, calendar.WriteOptions{})
	wantParams(t, err, "taxonomy")

	vp, err := f.cal.ListVenues(as(anonymous), calendar.VenueQuery{})
	if err != nil || vp.Total != 0 || len(vp.Venues) != 0 {
		t.Fatalf("empty venue list: %+v %v", vp, err)
	}
	ep, err := f.cal.ListEvents(as(anonymous), calendar.EventQuery{})
	if err != nil || ep.Total != 0 || ep.Events == nil {
		t.Fatalf("empty event list: %+v %v", ep, err)
	}
	_, err = f.cal.DeleteEvent(system, calendar.ByID(404), calendar.DeleteOptions{})
	wantErr(t, err, calendar.CodeNotFound, "rest-event-not-found")
	_, err = f.cal.UpdateEvent(system, calendar.BySlug("nothing-here"), calendar.EventInput{Title: s("x")}, calendar.WriteOptions{})
	wantParams(t, err, "slug")
	_, err = f.cal.DeleteVenue(system, calendar.ByID(404), calendar.DeleteOptions{Force: true})
	wantParams(t, err, "id")
	_, err = f.cal.UpdateOrganizer(system, calendar.ByID(404), calendar.OrganizerInput{}, calendar.WriteOptions{})
	wantParams(t, err, "id")
}
