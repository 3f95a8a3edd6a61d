package ical_test

import (
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
	"github.com/eventcal/eventcal/calendar/ical/icaljstest"
)

// A feed (occurrences listed, or series=series) holds each series once, with its rule (a deleted
// occurrence as EXDATE) and its detached occurrence as an override: the
// occurrences ical.js expands are those of the JSON list, DST week included.
func TestSeriesFeedExpandsLikeTheList(t *testing.T) {
	cal := newCal(t)
	in := timed("Choir", "2027-03-02 19:00", "2027-03-02 21:00", "Europe/Berlin") // across Europe's DST change
	in.Recurrence = calendar.Some([]string{"RRULE:FREQ=WEEKLY;COUNT=6"})
	series := mk(t, cal, in)
	occ := listAll(t, system, cal, calendar.EventQuery{PostParent: series.ID})
	if len(occ) != 6 {
		t.Fatalf("%d occurrences", len(occ))
	}
	// Delete the second (an EXDATE), move the fourth (detached).
	if _, err := cal.DeleteEvent(system, calendar.ByID(occ[1].ID), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	moved := occ[3].Start.Add(90 * time.Minute)
	if _, err := cal.UpdateEvent(system, calendar.ByID(occ[3].ID), calendar.EventInput{Title: calendar.Some("Choir, guests"),
		StartDate: calendar.Some(moved.Format("2006-01-02 15:04")), EndDate: calendar.Some(moved.Add(2 * time.Hour).Format("2006-01-02 15:04"))},
		calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	single := mk(t, cal, timed("Solo", "2027-03-10 18:00", "2027-03-10 19:00", "Europe/Berlin"))

	x := ical.NewExporter(cal, testSite, ical.WithClock(func() time.Time { return now }))
	for _, mode := range []calendar.SeriesMode{calendar.SeriesOccurrences, calendar.SeriesRecords} {
		checkSeriesFeed(t, cal, export(t, system, x, calendar.EventQuery{Series: mode, StartDate: "2027-01-01"}), single.ID)
	}
	// A window holding one occurrence only brings the whole series.
	feed := export(t, system, x, calendar.EventQuery{StartDate: "2027-03-16", EndDate: "2027-03-16"})
	if got := icaljstest.Parse(t, feed); len(got.Events) != 2 || len(got.Expanded) != 5 {
		t.Errorf("one-day window: %d VEVENTs, %d occurrences expanded; want the series and its override, 5", len(got.Events), len(got.Expanded))
	}
}

func checkSeriesFeed(t *testing.T, cal calendar.Calendar, feed []byte, single int64) {
	t.Helper()
	got := icaljstest.Parse(t, feed)
	if len(got.Events) != 3 {
		t.Fatalf("%d VEVENTs (series, override, single event), want 3:\n%s", len(got.Events), feed)
	}
	var have []string
	for _, o := range got.Expanded {
		have = append(have, o.Start.UTC+" "+o.Summary)
	}
	var want []string
	for _, ev := range listAll(t, system, cal, calendar.EventQuery{StartDate: "2027-01-01"}) {
		if ev.ID == single {
			continue
		}
		want = append(want, ev.Start.UTC().Format(time.RFC3339)+" "+ev.Title)
	}
	slices.Sort(have)
	slices.Sort(want)
	if len(want) != 5 || !slices.Equal(have, want) {
		t.Errorf("ical.js expands\n%q\nthe list has\n%q\n%s", have, want, feed)
	}
}
