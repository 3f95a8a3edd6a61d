package ical_test

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
	"github.com/eventcal/eventcal/memstore"
)

// volatile are the lines that say when a record was written, which an
// import cannot carry over.
func stable(t *testing.T, b []byte) []string {
	var out []string
	for _, l := range unfold(t, b) {
		switch name := l[:strings.IndexAny(l, ";:")]; name {
		case "DTSTAMP", "CREATED", "LAST-MODIFIED", "SEQUENCE":
			continue
		}
		out = append(out, l)
	}
	return out
}

// TestRoundTrip: export → import into an empty calendar → export gives the
// same events, line for line but for the write times, with the same UIDs.
func TestRoundTrip(t *testing.T) {
	q := calendar.EventQuery{StartDate: "2026-01-01"}
	first := export(t, system, ical.NewExporter(richCalendar(t), testSite), q)
	empty := newCal(t)
	rep, err := ical.Import(as(admin), empty, bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Created != 11 || len(rep.Skipped) != 0 {
		t.Fatalf("import: %+v", rep)
	}
	second := export(t, system, ical.NewExporter(empty, testSite), q)
	a, b := stable(t, first), stable(t, second)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Errorf("line %d:\n first  %s\n second %s", i, a[i], b[i])
			}
		}
		t.Fatalf("%d vs %d lines", len(a), len(b))
	}
	// And importing the second export into the second calendar changes nothing.
	again, err := ical.Import(as(admin), empty, bytes.NewReader(second))
	if err != nil || again.Unchanged != 11 || again.Created+again.Updated != 0 {
		t.Errorf("re-import: %+v %v", again, err)
	}
}

// FuzzImport: no input makes Import panic, and no VEVENT is half written:
// the calendar holds exactly the events the report counts as created, and
// no venue, organizer or category that no event uses.
func FuzzImport(f *testing.F) {
	for _, name := range []string{"google.ics", "outlook.ics", "apple.ics"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270101T100000\r\nDURATION:P1W2DT3H\r\nSUMMARY:x\r\nLOCATION:y\r\nCATEGORIES:a,b\\,c\r\nEND:VEVENT\r\n"))
	f.Add([]byte("BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:z\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:+0000\nTZOFFSETTO:+0545\nEND:STANDARD\nEND:VTIMEZONE\nBEGIN:VEVENT\nDTSTART;TZID=z:20270101T000000\nSUMMARY:k\nEND:VEVENT\nEND:VCALENDAR\n"))
	f.Add([]byte(clubV1)) // series, overrides, a refused rule
	f.Fuzz(func(t *testing.T, data []byte) {
		repo := memstore.New()
		cal := calendar.New(repo, calendar.WithClock(func() time.Time { return now }))
		rep, err := ical.Import(system, cal, bytes.NewReader(data), ical.WithMaxEvents(50))
		if err != nil {
			if rep != nil && rep.Created > 0 {
				t.Fatalf("error %v after creating %d events", err, rep.Created)
			}
			return
		}
		// Read the store itself: list filters cannot reach every year a
		// fuzzed file may name.
		all := func(k calendar.Kind) []*calendar.PostRecord {
			p, err := repo.ListPosts(system, &calendar.PostQuery{Kind: k})
			if err != nil {
				t.Fatal(err)
			}
			return p.Records
		}
		// Occurrences come with their series: the records of the file are
		// those with a UID, every other one an occurrence of one of them.
		events := all(calendar.KindEvent)
		withUID := map[int64]bool{}
		for _, ev := range events {
			if ev.UID != "" {
				withUID[ev.ID] = true
			}
		}
		if len(withUID) != rep.Created {
			t.Fatalf("%d events stored, %d reported created", len(withUID), rep.Created)
		}
		used := map[int64]bool{}
		for _, ev := range events {
			if ev.UID == "" && !withUID[ev.PostParent] {
				t.Fatalf("event %d without UID nor series", ev.ID)
			}
			for _, id := range append(slices.Clone(ev.VenueIDs), ev.OrganizerIDs...) {
				used[id] = true
			}
		}
		for _, p := range append(all(calendar.KindVenue), all(calendar.KindOrganizer)...) {
			if !used[p.ID] {
				t.Fatalf("%s %q left by a failed event", p.Kind, p.Title)
			}
		}
	})
}
