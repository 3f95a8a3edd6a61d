package calendar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// FuzzListEvents feeds arbitrary list arguments to a small calendar: every
// call returns a page or a *calendar.Error, never panics, and a page never
// holds more events than its size.
func FuzzListEvents(f *testing.F) {
	f.Add("2026-03-06", "tomorrow 9am", "jazz", "1,2", "publish", int64(1), 1, 9, true)
	f.Add("", "", "", "", "", int64(0), 0, 0, false)
	f.Add("+3 weeks", "next friday", "Ночь", "no-such,7", "draft,trash", int64(-4), -1, 500, true)
	f.Add("\xff", "9999-12-31 23:59:59", "   ", ",,,", "PUBLISH", int64(1<<40), 1<<30, 1<<30, false)
	base := newFuzzCalendar(f)
	f.Fuzz(func(t *testing.T, start, end, search, cats, status string, id int64, page, perPage int, strict bool) {
		for _, p := range []calendar.Principal{anonymous, contributor, admin} {
			q := calendar.EventQuery{StartDate: start, EndsBefore: end, Search: search, Categories: []string{cats},
				Status: []string{status}, Include: []int64{id}, Venue: []int64{id}, Page: page, PerPage: perPage, StrictDates: strict}
			if id%2 == 0 {
				q.Include = nil
			}
			res, err := base.ListEvents(as(p), q)
			checkOutcome(t, err)
			if err == nil && len(res.Events) > res.PerPage {
				t.Fatalf("page of %d holds %d events", res.PerPage, len(res.Events))
			}
		}
	})
}

// FuzzCreateEvent feeds arbitrary write fields: a write either succeeds with
// a readable event or fails with a *calendar.Error and changes nothing.
func FuzzCreateEvent(f *testing.F) {
	f.Add("Jazz", "2026-04-01 20:00", "2026-04-01 23:00", "Europe/Paris", "https://x.example", "$5", "Jazz,Rock", "publish")
	f.Add("", "", "", "", "", "", "", "")
	f.Add("\x00bad", "yesterday", "last monday 25:00", "UTC+99", "javascript:1", strings.Repeat("9", 200), ",", "trash")
	cal := newFuzzCalendar(f)
	f.Fuzz(func(t *testing.T, title, start, end, tz, website, cost, cats, status string) {
		in := calendar.EventInput{Title: s(title), StartDate: s(start), EndDate: s(end), TimeZone: s(tz),
			Website: s(website), Cost: calendar.Some([]string{cost}), Status: calendar.Some(calendar.Status(status))}
		var refs []calendar.TermRef
		for _, c := range strings.Split(cats, ",") {
			refs = append(refs, calendar.TermRef{Name: c})
		}
		in.Categories = calendar.Some(refs)
		for _, p := range []calendar.Principal{contributor, editor} {
			ev, err := cal.CreateEvent(as(p), in, calendar.WriteOptions{})
			checkOutcome(t, err)
			if err != nil {
				continue
			}
			got, err := cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
			if err != nil || got.Slug == "" || got.End.Before(got.Start) {
				t.Fatalf("created event reads back as %+v, %v", got, err)
			}
		}
	})
}

// newFuzzCalendar is a calendar with a few records of every kind.
func newFuzzCalendar(f *testing.F) *calendar.Service {
	cal := calendar.New(memstore.New(), calendar.WithClock(testClock))
	jazz, err := cal.CreateTerm(system, calendar.TaxonomyCategory, calendar.TermInput{Name: s("Jazz")}, calendar.WriteOptions{})
	if err != nil {
		f.Fatal(err)
	}
	lat := 48.85
	v, err := cal.CreateVenue(system, calendar.VenueInput{Name: s("Hall"), GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lat)}, calendar.WriteOptions{})
	if err != nil {
		f.Fatal(err)
	}
	for i, st := range []string{"publish", "draft", "private", "publish"} {
		in := eventIn("Event "+st, "2026-03-0"+string(rune('6'+i))+" 20:00", "2026-03-10 23:00")
		in.Status = calendar.Some(calendar.Status(st))
		in.Author = calendar.Some(contributor.ID)
		in.Categories = calendar.Some([]calendar.TermRef{{ID: jazz.ID}})
		in.Venues = calendar.Some([]calendar.VenueRef{{ID: v.ID}})
		if _, err := cal.CreateEvent(system, in, calendar.WriteOptions{}); err != nil {
			f.Fatal(err)
		}
	}
	return cal
}

func checkOutcome(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if calendar.CodeOf(err) == calendar.CodeInternal {
		t.Fatalf("internal error: %v", err)
	}
}

func testClock() time.Time { return testNow }
