package ical_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
)

// occurrenceList is what the JSON list shows of cal's events from 2027 on:
// start, title and whether the occurrence is detached, in start order.
func occurrenceList(t *testing.T, cal calendar.Calendar) []string {
	t.Helper()
	var out []string
	for _, ev := range listAll(t, system, cal, calendar.EventQuery{StartDate: "2027-01-01"}) {
		detached := ev.Series != nil && ev.Series.Detached
		out = append(out, fmt.Sprintf("%s %s series=%v detached=%v", ev.Start.UTC().Format(time.RFC3339), ev.Title, ev.Series != nil, detached))
	}
	return out
}

// Export of a series (rule, a deleted occurrence as EXDATE, a moved
// occurrence as override) imported into an empty calendar gives the same
// list; importing the feed again changes nothing.
func TestSeriesRoundTrip(t *testing.T) {
	src := newCal(t)
	in := timed("Choir", "2027-03-02 19:00", "2027-03-02 21:00", "Europe/Berlin") // across Europe's DST change
	in.Recurrence = calendar.Some([]string{"RRULE:FREQ=WEEKLY;COUNT=6"})
	series := mk(t, src, in)
	occ := listAll(t, system, src, calendar.EventQuery{PostParent: series.ID})
	if len(occ) != 6 {
		t.Fatalf("%d occurrences", len(occ))
	}
	if _, err := src.DeleteEvent(system, calendar.ByID(occ[1].ID), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	moved := occ[3].Start.Add(90 * time.Minute)
	if _, err := src.UpdateEvent(system, calendar.ByID(occ[3].ID), calendar.EventInput{Title: calendar.Some("Choir, guests"),
		StartDate: calendar.Some(moved.Format("2006-01-02 15:04")), EndDate: calendar.Some(moved.Add(2 * time.Hour).Format("2006-01-02 15:04"))},
		calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	day := timed("Open day", "2027-04-03", "2027-04-03", "")
	day.AllDay = calendar.Some(true)
	day.Recurrence = calendar.Some([]string{"RRULE:FREQ=MONTHLY;BYDAY=1SA;COUNT=3"})
	mk(t, src, day)
	mk(t, src, timed("Solo", "2027-03-10 18:00", "2027-03-10 19:00", "Europe/Berlin"))

	x := ical.NewExporter(src, testSite, ical.WithClock(func() time.Time { return now }))
	feed := export(t, system, x, calendar.EventQuery{Series: calendar.SeriesRecords, StartDate: "2027-01-01"})

	dst := newCal(t)
	rep, err := ical.Import(as(editor), dst, bytes.NewReader(feed))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Created != 3 || rep.Updated != 1 || rep.Unchanged != 0 || len(rep.Skipped) != 0 {
		t.Fatalf("report %+v\n%s", rep, feed)
	}
	want, got := occurrenceList(t, src), occurrenceList(t, dst)
	if len(want) != 5+3+1 || !slices.Equal(got, want) {
		t.Errorf("imported list\n%q\nsource list\n%q\n%s", got, want, feed)
	}

	again, err := ical.Import(as(editor), dst, bytes.NewReader(feed))
	if err != nil {
		t.Fatal(err)
	}
	if again.Created != 0 || again.Updated != 0 || again.Unchanged != 4 || len(again.Skipped) != 0 {
		t.Errorf("second import: %+v", again)
	}
	if got := occurrenceList(t, dst); !slices.Equal(got, want) {
		t.Errorf("after the second import\n%q", got)
	}
}

const clubV1 = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:club@example.org
RECURRENCE-ID;TZID=Europe/Berlin:20270112T190000
DTSTART;TZID=Europe/Berlin:20270112T200000
DTEND;TZID=Europe/Berlin:20270112T220000
SUMMARY:Club\, late
END:VEVENT
BEGIN:VEVENT
UID:club@example.org
DTSTAMP:20261120T000000Z
LAST-MODIFIED:20261120T000000Z
DTSTART;TZID=Europe/Berlin:20270105T190000
DTEND;TZID=Europe/Berlin:20270105T210000
RRULE:FREQ=WEEKLY;COUNT=5
EXDATE;TZID=Europe/Berlin:20270119T190000
SUMMARY:Club
END:VEVENT
BEGIN:VEVENT
UID:club@example.org
RECURRENCE-ID;TZID=Europe/Berlin:20270119T190000
DTSTART;TZID=Europe/Berlin:20270119T193000
DTEND;TZID=Europe/Berlin:20270119T213000
SUMMARY:Club (cancelled week)
END:VEVENT
BEGIN:VEVENT
UID:hourly@example.org
DTSTART:20270105T100000Z
DTEND:20270105T103000Z
RRULE:FREQ=HOURLY;COUNT=3
SUMMARY:Hourly
END:VEVENT
BEGIN:VEVENT
UID:orphan@example.org
RECURRENCE-ID:20270105T100000Z
DTSTART:20270105T110000Z
SUMMARY:Orphan
END:VEVENT
END:VCALENDAR
`

func importString(t *testing.T, cal calendar.Calendar, s string) *ical.Report {
	t.Helper()
	rep, err := ical.Import(as(editor), cal, strings.NewReader(strings.ReplaceAll(s, "\n", "\r\n")))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func clubList(t *testing.T, cal *calendar.Service) []string {
	t.Helper()
	club := byUID(t, cal, "club@example.org")
	var out []string
	for _, ev := range listAll(t, system, cal, calendar.EventQuery{PostParent: club.ID, StartDate: "2027-01-01"}) {
		out = append(out, fmt.Sprintf("%s %s %v", ev.Start.UTC().Format("01-02T15:04"), ev.Title, ev.Series.Detached))
	}
	return out
}

// Overrides are matched by UID and recurrence id wherever they stand in the
// file; one at an EXDATE, one without a series and a rule the calendar
// refuses are skipped with their reason; a newer file with a changed rule
// updates the series and keeps the detached occurrence.
func TestImportSeriesOverridesAndRuleChange(t *testing.T) {
	cal := newCal(t)
	rep := importString(t, cal, clubV1)
	if rep.Created != 1 || rep.Updated != 1 || rep.Unchanged != 0 || len(rep.Skipped) != 3 {
		t.Fatalf("report %+v", rep)
	}
	why := skipped(rep)
	if r := why["club@example.org"]; !strings.Contains(r, "EXDATE") || !strings.Contains(r, "20270119T190000") {
		t.Errorf("override at an EXDATE: %q", r)
	}
	if r := why["hourly@example.org"]; !strings.Contains(r, "recurrence") || !strings.Contains(r, "HOURLY") {
		t.Errorf("FREQ=HOURLY: %q", r)
	}
	if r := why["orphan@example.org"]; !strings.Contains(r, "no series") {
		t.Errorf("override without series: %q", r)
	}
	want := []string{"01-05T18:00 Club false", "01-12T19:00 Club, late true", "01-26T18:00 Club false", "02-02T18:00 Club false"}
	if got := clubList(t, cal); !slices.Equal(got, want) {
		t.Errorf("occurrences %q, want %q", got, want)
	}

	again := importString(t, cal, clubV1)
	if again.Created != 0 || again.Updated != 0 || again.Unchanged != 2 || len(again.Skipped) != 3 {
		t.Errorf("second import: %+v", again)
	}

	// A later version: two more weeks, a new title for the series.
	v2 := strings.NewReplacer("COUNT=5", "COUNT=7", "LAST-MODIFIED:20261120T000000Z", "LAST-MODIFIED:20261123T000000Z",
		"SUMMARY:Club\n", "SUMMARY:Club night\n").Replace(clubV1)
	rep = importString(t, cal, v2)
	if rep.Created != 0 || rep.Updated != 1 || rep.Unchanged != 1 || len(rep.Skipped) != 3 {
		t.Errorf("changed rule: %+v", rep)
	}
	if got := byUID(t, cal, "club@example.org").Recurrence; !slices.Contains(got, "RRULE:FREQ=WEEKLY;COUNT=7") {
		t.Errorf("series recurrence %q", got)
	}
	want = []string{"01-05T18:00 Club night false", "01-12T19:00 Club, late true", "01-26T18:00 Club night false",
		"02-02T18:00 Club night false", "02-09T18:00 Club night false", "02-16T18:00 Club night false"}
	if got := clubList(t, cal); !slices.Equal(got, want) {
		t.Errorf("after the changed rule %q, want %q", got, want)
	}

	// A later version without rule lines: a single event again, whose
	// overrides name no series.
	v3 := strings.NewReplacer("RRULE:FREQ=WEEKLY;COUNT=5\n", "", "EXDATE;TZID=Europe/Berlin:20270119T190000\n", "",
		"LAST-MODIFIED:20261120T000000Z", "LAST-MODIFIED:20261124T000000Z").Replace(clubV1)
	rep = importString(t, cal, v3)
	if rep.Updated != 1 || len(rep.Skipped) != 4 || !strings.Contains(skipped(rep)["club@example.org"], "not recurring") {
		t.Errorf("rule removed: %+v", rep)
	}
	if club := byUID(t, cal, "club@example.org"); club.Recurrence != nil || club.Title != "Club" {
		t.Errorf("rule removed: recurrence %q, title %q", club.Recurrence, club.Title)
	}
	if all := occurrenceList(t, cal); len(all) != 1 {
		t.Errorf("rule removed: the list holds %q", all)
	}
}

// Zone parameters of the rule lines: a Windows zone name is written as the
// IANA zone it stands for; one the calendar does not know makes the
// calendar refuse the series, and the VEVENT is skipped naming the line.
func TestImportSeriesZoneParams(t *testing.T) {
	cal := newCal(t)
	rep := importString(t, cal, `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:win@example.org
DTSTART;TZID=W. Europe Standard Time:20270105T190000
DTEND;TZID=W. Europe Standard Time:20270105T200000
RRULE:FREQ=DAILY;COUNT=3
EXDATE;TZID=W. Europe Standard Time:20270106T190000
SUMMARY:Daily
END:VEVENT
BEGIN:VEVENT
UID:mars@example.org
DTSTART:20270105T190000Z
RRULE:FREQ=DAILY;COUNT=3
EXDATE;TZID=Mars/Olympus_Mons:20270106T190000
SUMMARY:Mars
END:VEVENT
END:VCALENDAR
`)
	if rep.Created != 1 || len(rep.Skipped) != 1 {
		t.Fatalf("report %+v", rep)
	}
	if r := skipped(rep)["mars@example.org"]; !strings.Contains(r, "recurrence") {
		t.Errorf("unknown TZID: %q", r)
	}
	win := byUID(t, cal, "win@example.org")
	if !slices.Contains(win.Recurrence, "EXDATE;TZID=Europe/Berlin:20270106T190000") {
		t.Errorf("recurrence %q", win.Recurrence)
	}
	var starts []string
	for _, ev := range listAll(t, system, cal, calendar.EventQuery{PostParent: win.ID, StartDate: "2027-01-01"}) {
		starts = append(starts, ev.Start.UTC().Format(time.RFC3339))
	}
	if want := []string{"2027-01-05T18:00:00Z", "2027-01-07T18:00:00Z"}; !slices.Equal(starts, want) {
		t.Errorf("occurrences %q, want %q", starts, want)
	}
}
