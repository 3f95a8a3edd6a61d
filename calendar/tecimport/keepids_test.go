package tecimport_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/tecimport"
	"github.com/eventcal/eventcal/calendar/tecimport/tectest"
	"github.com/eventcal/eventcal/memstore"
)

// TestKeepIDsReportsTakenIDs: resuming with WithKeepIDs into a calendar
// whose own records hold some of the site's ids, each such site record is
// stored (not skipped) under another id and reported, a record moves only
// when its id was held when it was stored (by an own record or one moved
// before it), every other record keeps the site's id, and no own record is
// touched.
func TestKeepIDsReportsTakenIDs(t *testing.T) {
	f := newFixture(t, tectest.GenerateOptions{Seed: 31, Events: 40, Venues: 8, Organizers: 6, Categories: 4, Tags: 6})
	repo := memstore.New()
	svc := newCalendar(t, repo)
	own := map[int64]bool{}
	for i := range 5 {
		ev, err := svc.CreateEvent(system(), calendar.EventInput{Title: calendar.Some(fmt.Sprintf("Own %d", i)),
			StartDate: calendar.Some("2026-05-01 10:00"), EndDate: calendar.Some("2026-05-01 11:00")}, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		own[ev.ID] = true
	}
	sum, err := tecimport.Run(system(), svc, f.srv.URL, tecimport.WithCredentials(siteUser, sitePass), tecimport.WithKeepIDs(), fast)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.KeptIDs {
		t.Fatal("WithKeepIDs: ids not kept")
	}
	type key struct {
		kind calendar.Kind
		id   int64
	}
	// held is every id in use when a record is stored: the own records,
	// then each record as the import stores it, in report order.
	held := maps.Clone(own)
	reported := map[key]int64{}
	for _, p := range sum.Problems {
		var id, stored int64
		if _, err := fmt.Sscanf(p.Err.Error(), "id %d is held by another record; stored as %d", &id, &stored); err != nil {
			continue
		}
		if p.Skipped || id != p.ID {
			t.Errorf("%v: want a record stored under another id, not skipped", p)
		}
		if !held[id] {
			t.Errorf("%v: id %d was held by no own and no moved record", p, id)
		}
		reported[key{p.Kind, p.ID}] = stored
		held[stored] = true
	}
	if len(reported) == 0 {
		t.Fatalf("nothing reported although own events hold ids %v: %v", own, sum.Problems)
	}
	host := hostOf(f.srv.URL)
	check := func(k key) {
		got, err := repo.PostByUID(system(), k.kind, host+"?id="+itoa(k.id))
		if err != nil {
			t.Errorf("%s %d not stored: %v", k.kind, k.id, err)
			return
		}
		stored, moved := reported[k]
		switch {
		case own[k.id] && !moved:
			t.Errorf("%s %d: id held by an own event, not reported", k.kind, k.id)
		case moved && got.ID != stored:
			t.Errorf("%s %d reported stored as %d, is %d", k.kind, k.id, stored, got.ID)
		case !moved && got.ID != k.id:
			t.Errorf("%s %d stored as %d without a report", k.kind, k.id, got.ID)
		}
	}
	for _, e := range f.site.Events() {
		if !f.site.Broken(e.ID) {
			check(key{calendar.KindEvent, e.ID})
		}
	}
	for _, v := range f.site.Venues() {
		check(key{calendar.KindVenue, v.ID})
	}
	for _, o := range f.site.Organizers() {
		check(key{calendar.KindOrganizer, o.ID})
	}
	for id := range own {
		p, err := repo.GetPost(system(), id)
		if err != nil || !strings.HasPrefix(p.Title["en"], "Own ") {
			t.Errorf("own event %d overwritten: %v %v", id, p, err)
		}
	}
}
