package ical

import (
	"bufio"
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical/icaljstest"
)

// writeSeriesFeed writes a VCALENDAR of the given events, with the
// VTIMEZONE of zone covering [from, to], the way Feed.Write does.
func writeSeriesFeed(t *testing.T, zone string, from, to time.Time, evs ...*calendar.Event) []byte {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	bw := bufio.NewWriter(&buf)
	l := &lineWriter{w: bw}
	zs := &zoneSpan{loc: loc}
	zs.add(from, to)
	zones := map[string]*zoneSpan{zone: zs}
	l.prop("BEGIN", "VCALENDAR")
	l.prop("VERSION", "2.0")
	l.prop("PRODID", "-//eventcal//test//EN")
	writeVTimezone(l, zone, zs)
	e := eventWriter{l: l, cfg: &exportConfig{uidHost: "example.test", siteURL: "http://example.test"}, zones: zones, grouped: true}
	for _, ev := range evs {
		e.write(ev)
	}
	l.prop("END", "VCALENDAR")
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A series with an RRULE across a DST change, an EXDATE in the series'
// zone, an RDATE without TZID (the series' zone) and a detached, moved
// occurrence: ical.js expands exactly the occurrences the calendar has.
func TestSeriesExpandedByICALJS(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	at := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, berlin) }
	start := at(2026, 3, 17, 19, 0) // two weeks before Europe's DST change
	series := &calendar.Event{ID: 40, Slug: "choir", Title: "Choir", Status: calendar.StatusPublish,
		Date: start, Modified: start, Start: start, End: start.Add(2 * time.Hour), TimeZone: "Europe/Berlin",
		Recurrence: []string{"RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8", "EXDATE;TZID=Europe/Berlin:20260331T190000",
			"RDATE:20260420T190000"}}
	moved := &calendar.Event{ID: 45, Slug: "choir-2026-04-14", Title: "Choir, special guest", Status: calendar.StatusPublish,
		Date: start, Modified: start, Start: at(2026, 4, 14, 20, 30), End: at(2026, 4, 14, 22, 30), TimeZone: "Europe/Berlin",
		Series: &calendar.SeriesLink{ID: 40, RecurrenceID: at(2026, 4, 14, 19, 0), Detached: true}}
	ics := writeSeriesFeed(t, "Europe/Berlin", start, at(2026, 6, 1, 0, 0), series, moved)
	text := string(ics)
	for _, want := range []string{"\r\nRRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8\r\n", "\r\nEXDATE:20260331T170000Z\r\n",
		"\r\nRDATE:20260420T170000Z\r\n", "\r\nRECURRENCE-ID;TZID=Europe/Berlin:20260414T190000\r\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("feed lacks %q:\n%s", strings.TrimSpace(want), text)
		}
	}
	if n := strings.Count(text, "UID:example.test?id=40\r\n"); n != 2 {
		t.Errorf("%d VEVENTs carry the series' UID, want 2 (the series and its override)", n)
	}

	got := icaljstest.Parse(t, ics)
	type occ struct{ rid, start, summary string }
	var have []occ
	for _, o := range got.Expanded {
		if o.UID != "example.test?id=40" {
			t.Errorf("occurrence of UID %q", o.UID)
		}
		have = append(have, occ{o.RecurrenceID.UTC, o.Start.UTC, o.Summary})
	}
	z := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	var want []occ
	for _, d := range []time.Time{at(2026, 3, 17, 19, 0), at(2026, 3, 24, 19, 0), at(2026, 4, 7, 19, 0),
		at(2026, 4, 14, 19, 0), at(2026, 4, 20, 19, 0), at(2026, 4, 21, 19, 0), at(2026, 4, 28, 19, 0),
		at(2026, 5, 5, 19, 0)} {
		o := occ{z(d), z(d), "Choir"}
		if d.Day() == 14 {
			o.start, o.summary = z(moved.Start), "Choir, special guest"
		}
		want = append(want, o)
	}
	if !slices.Equal(have, want) {
		t.Errorf("ical.js expands\n%v\nwant\n%v", have, want)
	}
}

// An all-day yearly series on 29 February: dates stay dates, the override
// of one occurrence names it by date.
func TestAllDaySeriesExpandedByICALJS(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	series := &calendar.Event{ID: 7, Slug: "leap", Title: "Leap day", Status: calendar.StatusPublish, AllDay: true,
		Date: day(2028, 1, 1), Modified: day(2028, 1, 1), Start: day(2028, 2, 29), End: day(2028, 2, 29).Add(23 * time.Hour),
		TimeZone: "UTC", Recurrence: []string{"RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=3", "EXDATE;VALUE=DATE:20320229"}}
	over := &calendar.Event{ID: 9, Slug: "leap-2036-02-29", Title: "Leap day party", Status: calendar.StatusPublish, AllDay: true,
		Date: day(2028, 1, 1), Modified: day(2028, 1, 1), Start: day(2036, 2, 29), End: day(2036, 2, 29).Add(23 * time.Hour),
		TimeZone: "UTC", Series: &calendar.SeriesLink{ID: 7, RecurrenceID: day(2036, 2, 29), Detached: true}}
	ics := writeSeriesFeed(t, "UTC", day(2028, 1, 1), day(2037, 1, 1), series, over)
	got := icaljstest.Parse(t, ics)
	var have []string
	for _, o := range got.Expanded {
		have = append(have, o.RecurrenceID.Date+" "+o.Start.Date+" "+o.Summary)
	}
	want := []string{"2028-02-29 2028-02-29 Leap day", "2036-02-29 2036-02-29 Leap day party"}
	if !slices.Equal(have, want) {
		t.Errorf("ical.js expands %q, want %q\n%s", have, want, ics)
	}
}
