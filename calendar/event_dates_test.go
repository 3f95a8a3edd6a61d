package calendar_test

import (
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

func mustLoad(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestEventZonesAndDST(t *testing.T) {
	f := newFixture(t)
	in := eventIn("Across the switch", "2026-03-07 20:00", "2026-03-08 20:00")
	in.TimeZone = s("America/New_York")
	ev := f.mustEvent(system, in)
	wantStart := time.Date(2026, 3, 8, 1, 0, 0, 0, time.UTC) // 20:00 EST
	wantEnd := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)   // 20:00 EDT
	if !ev.Start.Equal(wantStart) || !ev.End.Equal(wantEnd) {
		t.Fatalf("instants %v – %v, want %v – %v", ev.Start.UTC(), ev.End.UTC(), wantStart, wantEnd)
	}
	if got := ev.Start.Format("2006-01-02 15:04:05 MST"); got != "2026-03-07 20:00:00 EST" {
		t.Fatalf("local start = %s", got)
	}
	if got := ev.End.Format("2006-01-02 15:04:05 MST"); got != "2026-03-08 20:00:00 EDT" {
		t.Fatalf("local end = %s", got)
	}
	// Offset zones.
	in = eventIn("Offset", "2026-04-01 10:00", "2026-04-01 11:00")
	in.TimeZone = s("UTC+5:30")
	ev = f.mustEvent(system, in)
	if !ev.Start.Equal(time.Date(2026, 4, 1, 4, 30, 0, 0, time.UTC)) || ev.TimeZone != "UTC+5:30" {
		t.Fatalf("offset zone: %v %q", ev.Start.UTC(), ev.TimeZone)
	}
	// RFC 3339 input keeps its own offset.
	in = eventIn("RFC", "2026-04-01T10:00:00+02:00", "2026-04-01T11:00:00Z")
	ev = f.mustEvent(system, in)
	if !ev.Start.Equal(time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)) || !ev.End.Equal(time.Date(2026, 4, 1, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("rfc3339: %v %v", ev.Start.UTC(), ev.End.UTC())
	}
}

func TestAllDayAndPartialDates(t *testing.T) {
	f := newFixture(t)
	in := eventIn("Fair", "2026-04-01 15:00", "2026-04-02 09:00")
	in.AllDay = calendar.Some(true)
	in.TimeZone = s("Asia/Kolkata")
	ev := f.mustEvent(system, in)
	if got := ev.Start.Format("2006-01-02 15:04:05"); got != "2026-04-01 00:00:00" {
		t.Fatalf("all-day start %s", got)
	}
	if got := ev.End.Format("2006-01-02 15:04:05"); got != "2026-04-02 23:59:59" {
		t.Fatalf("all-day end %s", got)
	}
	// One date alone on update must still keep end ≥ start.
	plain := f.mustEvent(system, eventIn("Talk", "2026-04-01 10:00", "2026-04-01 11:00"))
	_, err := f.cal.UpdateEvent(system, calendar.ByID(plain.ID), calendar.EventInput{StartDate: s("2026-04-01 12:00")}, calendar.WriteOptions{})
	wantParams(t, err, "end_date")
	up, err := f.cal.UpdateEvent(system, calendar.ByID(plain.ID), calendar.EventInput{EndDate: s("2026-04-01 12:30")}, calendar.WriteOptions{})
	if err != nil || up.End.Format("15:04") != "12:30" || up.Start.Format("15:04") != "10:00" {
		t.Fatalf("end alone: %v %v", up, err)
	}
	// Changing only the zone keeps the wall-clock times.
	up, err = f.cal.UpdateEvent(system, calendar.ByID(plain.ID), calendar.EventInput{TimeZone: s("Europe/Berlin")}, calendar.WriteOptions{})
	if err != nil || up.Start.Format("15:04 MST") != "10:00 CEST" {
		t.Fatalf("zone change: %v %v", up.Start, err)
	}
	// Relative dates resolve against the calendar's clock.
	rel := f.mustEvent(system, eventIn("Soon", "tomorrow 9am", "tomorrow 10:30"))
	if got := rel.Start.Format("2006-01-02 15:04"); got != "2026-03-07 09:00" {
		t.Fatalf("tomorrow 9am = %s", got)
	}
}

func TestPublicationDates(t *testing.T) {
	f := newFixture(t, calendar.WithSiteZone(mustLoad(t, "Europe/Berlin")))
	in := eventIn("Pub", "2026-04-01 10:00", "2026-04-01 11:00")
	in.Date = s("2026-03-01 10:00")
	in.DateUTC = s("2026-03-02 10:00")
	ev := f.mustEvent(system, in)
	if !ev.Date.Equal(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("date_utc should win: %v", ev.Date.UTC())
	}
	if ev.Date.Location().String() != "Europe/Berlin" {
		t.Fatalf("publication date shown in %s, want the site zone", ev.Date.Location())
	}
	// An event without its own zone is in the site zone.
	if ev.TimeZone != "Europe/Berlin" || ev.Start.Format("15:04 MST") != "10:00 CEST" {
		t.Fatalf("site zone event: %q %s", ev.TimeZone, ev.Start.Format("15:04 MST"))
	}
	// Lists filter in the site zone: 2026-04-01 starts at 00:00 Berlin time.
	p, err := f.cal.ListEvents(system, calendar.EventQuery{StartDate: "2026-04-01", EndDate: "2026-04-01"})
	if err != nil || p.Total != 1 {
		t.Fatalf("site-zone day window: %v %v", p, err)
	}
}

// Results never depend on the process's local zone.
func TestIndependentOfLocalZone(t *testing.T) {
	saved := time.Local
	defer func() { time.Local = saved }()
	var first []string
	for _, zone := range []string{"UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"} {
		time.Local = mustLoad(t, zone)
		f := newFixture(t)
		var got []string
		for _, in := range []calendar.EventInput{
			eventIn("a", "2026-03-08 01:30", "2026-03-08 03:30"),
			eventIn("b", "today", "tomorrow 18:00"),
			eventIn("c", "+2 weeks", "+3 weeks"),
			eventIn("d", "1775000000", "1775003600"),
		} {
			ev := f.mustEvent(system, in)
			got = append(got, ev.Start.UTC().String(), ev.End.UTC().String(), ev.Start.Format(time.DateTime))
		}
		p, err := f.cal.ListEvents(system, calendar.EventQuery{StartsAfter: "2026-03-07", EndsBefore: "2026-04-10"})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Events {
			got = append(got, e.Title)
		}
		if first == nil {
			first = got
			continue
		}
		for i := range first {
			if first[i] != got[i] {
				t.Fatalf("TZ=%s: %q differs from %q", zone, got[i], first[i])
			}
		}
	}
}
