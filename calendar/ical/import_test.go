package ical_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
)

func importFile(t *testing.T, ctx context.Context, cal calendar.Calendar, name string, opts ...ical.ImportOption) *ical.Report {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := ical.Import(ctx, cal, f, opts...)
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return rep
}

func byUID(t *testing.T, cal *calendar.Service, uid string) *calendar.Event {
	t.Helper()
	ev, err := cal.GetEventByUID(system, uid, calendar.ReadOptions{})
	if err != nil {
		t.Fatalf("event %s: %v", uid, err)
	}
	return ev
}

func skipped(rep *ical.Report) map[string]string {
	m := map[string]string{}
	for _, s := range rep.Skipped {
		m[s.UID] = s.Reason
	}
	return m
}

func wantTimes(t *testing.T, ev *calendar.Event, start, end, zone string) {
	t.Helper()
	if got := ev.Start.UTC().Format(time.RFC3339); got != start {
		t.Errorf("%s: start %s, want %s", ev.Title, got, start)
	}
	if got := ev.End.UTC().Format(time.RFC3339); got != end {
		t.Errorf("%s: end %s, want %s", ev.Title, got, end)
	}
	if ev.TimeZone != zone {
		t.Errorf("%s: zone %s, want %s", ev.Title, ev.TimeZone, zone)
	}
}

func TestImportGoogle(t *testing.T) {
	cal := newCal(t)
	rep := importFile(t, as(editor), cal, "google.ics")
	if rep.Created != 4 || rep.Updated != 0 || rep.Unchanged != 0 || len(rep.Skipped) != 0 {
		t.Fatalf("report %+v", rep)
	}
	weekly := byUID(t, cal, "weekly-session@google.com")
	if !slices.Equal(weekly.Recurrence, []string{"RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=4"}) {
		t.Errorf("weekly session: recurrence %q", weekly.Recurrence)
	}
	if occ := listAll(t, system, cal, calendar.EventQuery{PostParent: weekly.ID, StartDate: "2027-01-01"}); len(occ) != 4 ||
		occ[3].Start.UTC().Format(time.RFC3339) != "2027-02-05T18:00:00Z" {
		t.Errorf("weekly session: %d occurrences", len(occ))
	}
	ev := byUID(t, cal, "4k2j3h4g5f6d7s8a9@google.com")
	wantTimes(t, ev, "2027-03-26T19:30:00Z", "2027-03-26T22:00:00Z", "Europe/Berlin")
	if ev.Title != "Jazz am Freitag: Trio Nordlicht" {
		t.Errorf("title %q", ev.Title)
	}
	wantDesc := "Mit dem Trio Nordlicht; Eintritt frei, Spenden willkommen.\n\nEinlass ab 20 Uhr. Eine sehr lange Beschreibung, die über mehrere Zeilen gefaltet wird, mit Umlauten wie ä, ö, ü und einem Emoji 🎷 am Ende."
	if ev.Description != wantDesc {
		t.Errorf("description %q", ev.Description)
	}
	if len(ev.Venues) != 1 || ev.Venues[0].Name != "Jazzclub Ost, Holzmarktstraße 25, 10243 Berlin, Deutschland" {
		t.Errorf("venue %+v", ev.Venues)
	}
	utc := byUID(t, cal, "utc-event-1@google.com")
	// UTC times keep their instant and take the calendar's X-WR-TIMEZONE.
	wantTimes(t, utc, "2027-01-10T09:00:00Z", "2027-01-10T11:00:00Z", "Europe/Berlin")
	if len(utc.Organizers) != 1 || utc.Organizers[0].Name != "Anna Müller" || utc.Organizers[0].Email != "anna@example.org" {
		t.Errorf("organizer %+v", utc.Organizers)
	}
	day := byUID(t, cal, "allday-may-day@google.com")
	if !day.AllDay || day.Start.Format("2006-01-02") != "2027-05-01" || day.End.Format("2006-01-02") != "2027-05-01" {
		t.Errorf("all-day %v %v – %v", day.AllDay, day.Start, day.End)
	}
	var cats []string
	for _, c := range day.Categories {
		cats = append(cats, c.Name)
	}
	if !slices.Equal(cats, []string{"Feiertag", "Festival"}) {
		t.Errorf("categories %q", cats)
	}
}

func TestImportOutlook(t *testing.T) {
	cal := newCal(t)
	rep := importFile(t, as(admin), cal, "outlook.ics")
	if rep.Created != 4 || len(rep.Skipped) != 1 || !strings.Contains(skipped(rep)["outlook-unknown-zone"], "Nowhere Standard Time") {
		t.Fatalf("report %+v", rep)
	}
	ev := byUID(t, cal, "040000008200E00074C5B7101A82E00800000000D0A6C3A0B7F1DA01000000000000000010000000F4A1F2")
	// "W. Europe Standard Time" is Europe/Berlin (CLDR); 31 March 2027 is summer time.
	wantTimes(t, ev, "2027-03-31T08:00:00Z", "2027-03-31T10:00:00Z", "Europe/Berlin")
	if ev.Description != "Quarterly review.\nAgenda: numbers, plans; questions.\n" {
		t.Errorf("description %q", ev.Description)
	}
	if len(ev.Organizers) != 1 || ev.Organizers[0].Name != "Doe, Jane" || ev.Organizers[0].Email != "jane.doe@example.com" {
		t.Errorf("organizer %+v", ev.Organizers)
	}
	// The repeated hour: a wall clock that occurs twice is its first occurrence (EDT).
	ny := byUID(t, cal, "outlook-ny-fallback")
	wantTimes(t, ny, "2027-11-07T05:30:00Z", "2027-11-07T07:30:00Z", "America/New_York")
	// A custom VTIMEZONE is matched by its rules to an Australian eastern zone.
	syd := byUID(t, cal, "outlook-custom-zone")
	if syd.Start.UTC().Format(time.RFC3339) != "2027-01-20T07:00:00Z" || syd.End.UTC().Format(time.RFC3339) != "2027-01-20T09:00:00Z" {
		t.Errorf("custom zone times %v %v", syd.Start.UTC(), syd.End.UTC())
	}
	sydney, _ := time.LoadLocation("Australia/Sydney")
	loc, err := time.LoadLocation(syd.TimeZone)
	if err != nil || !strings.HasPrefix(syd.TimeZone, "Australia/") {
		t.Fatalf("custom zone %q: %v", syd.TimeZone, err)
	}
	for d := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2029; d = d.Add(6 * time.Hour) {
		if _, a := d.In(loc).Zone(); func() bool { _, b := d.In(sydney).Zone(); return a != b }() {
			t.Fatalf("%s differs from Sydney at %v", syd.TimeZone, d)
		}
	}
	off := byUID(t, cal, "outlook-allday")
	if !off.AllDay || off.Start.Format("2006-01-02") != "2027-04-12" || off.End.Format("2006-01-02") != "2027-04-14" {
		t.Errorf("all-day %v – %v", off.Start, off.End)
	}
}

func TestImportApple(t *testing.T) {
	cal := newCal(t)
	rep := importFile(t, as(editor), cal, "apple.ics")
	sk := skipped(rep)
	if rep.Created != 4 || len(rep.Skipped) != 4 {
		t.Fatalf("report %+v", rep)
	}
	for uid, why := range map[string]string{"apple-bad-date": "DTSTART", "apple-no-summary": "SUMMARY",
		"apple-cancelled": "CANCELLED", "apple-broken-line": "not a valid content line"} {
		if !strings.Contains(sk[uid], why) {
			t.Errorf("%s skipped for %q, want %q", uid, sk[uid], why)
		}
	}
	dinner := byUID(t, cal, "5F3E2A1B-1C2D-4E5F-8A9B-0C1D2E3F4A5B")
	wantTimes(t, dinner, "2027-03-14T00:00:00Z", "2027-03-14T04:00:00Z", "America/New_York") // EST: the day before the switch
	if dinner.Website != "https://lucia.example/reservations?id=42" {
		t.Errorf("website %q", dinner.Website)
	}
	if v := dinner.Venues; len(v) != 1 || v[0].Name != "Lucia's\n12 Bleecker St, New York, NY 10012" ||
		v[0].GeoLat == nil || *v[0].GeoLat != 40.725 || *v[0].GeoLng != -73.994 {
		t.Errorf("venue %+v", v)
	}
	// DURATION across the spring-forward gap: two exact hours.
	gap := byUID(t, cal, "apple-duration")
	wantTimes(t, gap, "2027-03-14T06:30:00Z", "2027-03-14T08:30:00Z", "America/New_York")
	// Floating: the site zone (New York here).
	fl := byUID(t, cal, "apple-floating")
	wantTimes(t, fl, "2027-03-20T12:00:00Z", "2027-03-20T13:00:00Z", "America/New_York")
	camp := byUID(t, cal, "apple-allday-duration")
	if !camp.AllDay || camp.Start.Format("2006-01-02") != "2027-06-01" || camp.End.Format("2006-01-02") != "2027-06-03" {
		t.Errorf("camp %v – %v", camp.Start, camp.End)
	}
}

// TestReimport: the same files again change nothing and create nothing.
func TestReimport(t *testing.T) {
	cal := newCal(t)
	for _, f := range []string{"google.ics", "outlook.ics", "apple.ics"} {
		first := importFile(t, as(editor), cal, f)
		again := importFile(t, as(editor), cal, f)
		if again.Created != 0 || again.Updated != 0 || again.Unchanged != first.Created || len(again.Skipped) != len(first.Skipped) {
			t.Errorf("%s again: %+v after %+v", f, again, first)
		}
	}
	total := len(listAll(t, system, cal, calendar.EventQuery{StartDate: "2026-01-01"}))
	if total != 3+4+4+4 { // google.ics: 3 single events and a series of 4
		t.Errorf("%d events after importing twice", total)
	}
}

// TestImportUpdates: a newer version updates; an older one, or the same
// version with local edits, does not; CANCELLED trashes.
func TestImportUpdates(t *testing.T) {
	cal := newCal(t)
	v1 := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:u-1\r\nDTSTAMP:20261120T000000Z\r\n" +
		"LAST-MODIFIED:%s\r\nDTSTART:20270105T100000Z\r\nDTEND:20270105T110000Z\r\nSUMMARY:%s\r\n%sEND:VEVENT\r\nEND:VCALENDAR\r\n"
	run := func(mod, title, extra string) *ical.Report {
		rep, err := ical.Import(as(editor), cal, strings.NewReader(strings.ReplaceAll(strings.ReplaceAll(strings.Replace(v1, "%s", mod, 1), "SUMMARY:%s", "SUMMARY:"+title), "%s", extra)))
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if r := run("20261120T000000Z", "First", ""); r.Created != 1 {
		t.Fatalf("%+v", r)
	}
	// The calendar's clock is 2026-11-22: a version modified later is newer.
	if r := run("20261123T000000Z", "Second", "DESCRIPTION:words\r\nLOCATION:Hall\r\nCATEGORIES:A\r\n"); r.Updated != 1 {
		t.Fatalf("newer: %+v", r)
	}
	if ev := byUID(t, cal, "u-1"); ev.Title != "Second" || ev.Description != "words" || len(ev.Venues) != 1 || len(ev.Categories) != 1 {
		t.Errorf("updated %+v", ev)
	}
	// A newer version without them clears what the file no longer says.
	if r := run("20261123T010000Z", "Second", ""); r.Updated != 1 {
		t.Fatalf("newer, fewer fields: %+v", r)
	}
	if ev := byUID(t, cal, "u-1"); ev.Description != "" || len(ev.Venues) != 0 || len(ev.Categories) != 0 {
		t.Errorf("not cleared %+v", ev)
	}
	if r := run("20261121T000000Z", "Older", ""); r.Unchanged != 1 {
		t.Fatalf("older: %+v", r)
	}
	if r := run("20261124T000000Z", "Gone", "STATUS:CANCELLED\r\n"); r.Updated != 1 {
		t.Fatalf("cancelled: %+v", r)
	}
	if ev := byUID(t, cal, "u-1"); ev.Status != calendar.StatusTrash {
		t.Errorf("status %s", ev.Status)
	}
	if r := run("20261124T000000Z", "Gone", "STATUS:CANCELLED\r\n"); r.Unchanged != 1 {
		t.Fatalf("cancelled again: %+v", r)
	}
}

func TestImportErrors(t *testing.T) {
	cal := newCal(t)
	for _, s := range []string{"", "hello", "{\"json\":true}", "BEGIN:VEVENT\r\nEND:VEVENT\r\n", "<html>"} {
		if _, err := ical.Import(as(editor), cal, strings.NewReader(s)); !errors.Is(err, ical.ErrNotICalendar) {
			t.Errorf("%q: %v", s, err)
		}
	}
	big := bytes.Repeat([]byte("X"), 2000)
	if _, err := ical.Import(as(editor), cal, bytes.NewReader(big), ical.WithMaxBytes(1000)); !errors.Is(err, ical.ErrTooLarge) {
		t.Errorf("size: %v", err)
	}
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\n")
	for i := 0; i < 3; i++ {
		b.WriteString("BEGIN:VEVENT\r\nUID:n" + string(rune('0'+i)) + "\r\nDTSTART;VALUE=DATE:20270101\r\nSUMMARY:x\r\nEND:VEVENT\r\n")
	}
	b.WriteString("END:VCALENDAR\r\n")
	if _, err := ical.Import(as(editor), cal, strings.NewReader(b.String()), ical.WithMaxEvents(2)); !errors.Is(err, ical.ErrTooManyEvents) {
		t.Errorf("count: %v", err)
	}
	if n := len(listAll(t, system, cal, calendar.EventQuery{StartDate: "2020-01-01"})); n != 0 {
		t.Errorf("%d events written by refused imports", n)
	}
	// Refusals by the calendar are per event: an anonymous caller imports nothing.
	rep, err := ical.Import(calendar.WithPrincipal(context.Background(), calendar.Anonymous), cal, strings.NewReader(b.String()))
	if err != nil || rep.Created != 0 || len(rep.Skipped) != 3 {
		t.Errorf("anonymous: %+v %v", rep, err)
	}
}

// TestImportZoneBounds: a VTIMEZONE too large to evaluate cheaply spoils
// only the events that use it.
func TestImportZoneBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:Huge\r\n")
	for i := 0; i < 100; i++ {
		b.WriteString("BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n")
	}
	b.WriteString("END:VTIMEZONE\r\n")
	b.WriteString("BEGIN:VEVENT\r\nUID:huge\r\nDTSTART;TZID=Huge:20270101T100000\r\nSUMMARY:a\r\nEND:VEVENT\r\n")
	b.WriteString("BEGIN:VEVENT\r\nUID:fine\r\nDTSTART;TZID=Europe/Rome:20270101T100000\r\nSUMMARY:b\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
	rep, err := ical.Import(as(editor), newCal(t), strings.NewReader(b.String()))
	if err != nil || rep.Created != 1 || len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, "observances") {
		t.Errorf("%+v %v", rep, err)
	}
}

// TestImportOnBolt: the UID look-up works on a durable store too, and
// survives reopening it.
func TestImportOnBolt(t *testing.T) {
	path := t.TempDir() + "/cal.db"
	open := func() (*calendar.Service, func()) {
		st, err := boltstore.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return calendar.New(st, calendar.WithClock(func() time.Time { return now }), calendar.WithSiteZone(newYork(t))), func() { st.Close() }
	}
	cal, closeIt := open()
	first := importFile(t, as(editor), cal, "outlook.ics")
	closeIt()
	cal, closeIt = open()
	defer closeIt()
	again := importFile(t, as(editor), cal, "outlook.ics")
	if first.Created != 4 || again.Created != 0 || again.Unchanged != 4 {
		t.Errorf("first %+v, again %+v", first, again)
	}
	if ev := byUID(t, cal, "outlook-custom-zone"); ev.Title != "Sydney drinks" {
		t.Errorf("%+v", ev)
	}
}
