package ical_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
	"github.com/eventcal/eventcal/memstore"
)

// crlfToLF lets the examples' output be compared line by line.
type crlfToLF struct{}

func (crlfToLF) Write(p []byte) (int, error) {
	os.Stdout.WriteString(strings.ReplaceAll(string(p), "\r\n", "\n"))
	return len(p), nil
}

func ExampleExporter_Feed() {
	clock := func() time.Time { return time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC) }
	cal := calendar.New(memstore.New(), calendar.WithClock(clock))
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	cal.CreateEvent(ctx, calendar.EventInput{
		Title:     calendar.Some("Jazz Night"),
		StartDate: calendar.Some("2026-12-04 20:00"), EndDate: calendar.Some("2026-12-04 23:00"),
		TimeZone: calendar.Some("Europe/Paris"),
	}, calendar.WriteOptions{})

	x := ical.NewExporter(cal, ical.WithSite("https://events.example", ""), ical.WithCalendarName("Jazz"))
	// Anonymous: the feed shows what an anonymous event list shows.
	feed, err := x.Feed(context.Background(), calendar.EventQuery{})
	if err != nil {
		panic(err)
	}
	feed.Write(context.Background(), crlfToLF{})
	// Output:
	// BEGIN:VCALENDAR
	// VERSION:2.0
	// PRODID:-//eventcal//eventcal//EN
	// CALSCALE:GREGORIAN
	// METHOD:PUBLISH
	// X-WR-CALNAME:Jazz
	// X-WR-TIMEZONE:UTC
	// REFRESH-INTERVAL;VALUE=DURATION:PT1H
	// X-PUBLISHED-TTL:PT1H
	// BEGIN:VTIMEZONE
	// TZID:Europe/Paris
	// BEGIN:STANDARD
	// DTSTART:20261025T030000
	// TZOFFSETFROM:+0200
	// TZOFFSETTO:+0100
	// TZNAME:CET
	// END:STANDARD
	// END:VTIMEZONE
	// BEGIN:VEVENT
	// UID:events.example?id=1
	// DTSTAMP:20261101T090000Z
	// DTSTART;TZID=Europe/Paris:20261204T200000
	// DTEND;TZID=Europe/Paris:20261204T230000
	// SUMMARY:Jazz Night
	// URL:https://events.example/event/jazz-night/
	// STATUS:CONFIRMED
	// CREATED:20261101T090000Z
	// LAST-MODIFIED:20261101T090000Z
	// SEQUENCE:0
	// END:VEVENT
	// END:VCALENDAR
}

func ExampleImport() {
	cal := calendar.New(memstore.New())
	editor := calendar.WithPrincipal(context.Background(), calendar.Principal{ID: 2, Role: calendar.RoleEditor})
	file := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//EN\r\n" +
		"BEGIN:VEVENT\r\nUID:42@example.org\r\nDTSTAMP:20261101T090000Z\r\n" +
		"DTSTART;TZID=W. Europe Standard Time:20261204T200000\r\nDURATION:PT3H\r\n" +
		"SUMMARY:Jazz Night\r\nLOCATION:Le Duc\\, Paris\r\nCATEGORIES:Jazz,Live\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:43@example.org\r\nDTSTAMP:20261101T090000Z\r\nSUMMARY:No date\r\nEND:VEVENT\r\n" +
		"END:VCALENDAR\r\n"
	for i := 0; i < 2; i++ {
		rep, err := ical.Import(editor, cal, strings.NewReader(file))
		if err != nil {
			panic(err)
		}
		fmt.Printf("created %d, unchanged %d, skipped %v\n", rep.Created, rep.Unchanged, rep.Skipped)
	}
	ev, _ := cal.GetEventByUID(editor, "42@example.org", calendar.ReadOptions{})
	fmt.Println(ev.Title, ev.Start, ev.TimeZone, ev.Venues[0].Name)
	// Output:
	// created 1, unchanged 0, skipped [{43@example.org DTSTART is missing}]
	// created 0, unchanged 1, skipped [{43@example.org DTSTART is missing}]
	// Jazz Night 2026-12-04 20:00:00 +0100 CET Europe/Berlin Le Duc, Paris
}
