package calendar_test

import (
	"context"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// A recurring event: every second Tuesday at 19:00 in Berlin, ten times.
// The series and its ten occurrences are written at once; each occurrence is
// an ordinary event linked to its series.
func ExampleService_CreateEvent_recurring() {
	now := func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }
	cal := calendar.New(memstore.New(), calendar.WithClock(now))
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)

	series, err := cal.CreateEvent(ctx, calendar.EventInput{
		Title:      calendar.Some("Choir rehearsal"),
		StartDate:  calendar.Some("2026-03-10 19:00"),
		EndDate:    calendar.Some("2026-03-10 21:00"),
		TimeZone:   calendar.Some("Europe/Berlin"),
		Status:     calendar.Some(calendar.StatusPublish),
		Recurrence: calendar.Some([]string{"RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=10"}),
	}, calendar.WriteOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(series.Recurrence)

	// A second Tuesday after the switch to summer time: still 19:00.
	third, err := cal.GetEvent(ctx, calendar.BySlug("choir-rehearsal-2026-04-07"), calendar.ReadOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(third.Start.Format("Mon 2006-01-02 15:04 MST"), third.Series.ID == series.ID)
	// Output:
	// [RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=10]
	// Tue 2026-04-07 19:00 CEST true
}
