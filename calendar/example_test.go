package calendar_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// A calendar on the in-memory store: create an event with a venue made on
// the fly, then list what is coming up.
func Example() {
	now := func() time.Time { return time.Date(2026, 3, 6, 12, 0, 0, 0, time.UTC) }
	cal := calendar.New(memstore.New(), calendar.WithClock(now))
	ctx := calendar.WithPrincipal(context.Background(), calendar.System) // trusted code, every right

	_, err := cal.CreateEvent(ctx, calendar.EventInput{
		Title:     calendar.Some("Jazz Night"),
		StartDate: calendar.Some("2026-03-13 20:00"),
		EndDate:   calendar.Some("2026-03-13 23:00"),
		TimeZone:  calendar.Some("Europe/Paris"),
		Venues:    calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some("Le Duc")}}}),
	}, calendar.WriteOptions{})
	if err != nil {
		panic(err)
	}
	page, err := cal.ListEvents(ctx, calendar.EventQuery{})
	if err != nil {
		panic(err)
	}
	for _, ev := range page.Events {
		fmt.Println(ev.Slug, ev.Start.Format("2006-01-02 15:04 MST"), ev.Venues[0].Name)
	}
	// Output: jazz-night 2026-03-13 20:00 CET Le Duc
}

// Operations run as the principal on the context; errors carry a code.
func ExampleWithPrincipal() {
	cal := calendar.New(memstore.New())
	visitor := calendar.WithPrincipal(context.Background(), calendar.Anonymous)
	_, err := cal.CreateEvent(visitor, calendar.EventInput{Title: calendar.Some("Nope")}, calendar.WriteOptions{})
	fmt.Println(errors.Is(err, calendar.ErrUnauthenticated), calendar.CodeOf(err))

	contributor := calendar.WithPrincipal(context.Background(), calendar.Principal{ID: 7, Role: calendar.RoleContributor})
	ev, err := cal.CreateEvent(contributor, calendar.EventInput{
		Title: calendar.Some("Poetry slam"), StartDate: calendar.Some("2030-01-01 19:00"), EndDate: calendar.Some("2030-01-01 21:00"),
		Status: calendar.Some(calendar.StatusPublish),
	}, calendar.WriteOptions{})
	fmt.Println(ev.Status, err)
	// Output:
	// true unauthenticated
	// pending <nil>
}

// Every bad argument is named at once.
func ExampleError() {
	cal := calendar.New(memstore.New())
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	_, err := cal.CreateEvent(ctx, calendar.EventInput{
		Title: calendar.Some("x"), StartDate: calendar.Some("soonish"), EndDate: calendar.Some("2026-02-30"),
	}, calendar.WriteOptions{})
	var ce *calendar.Error
	if errors.As(err, &ce) {
		fmt.Println(ce.Code, ce.Reason, len(ce.Params))
		fmt.Println(ce.Params["start_date"] != "", ce.Params["end_date"] != "")
	}
	// Output:
	// invalid rest_invalid_param 2
	// true true
}

// Updates are partial: only the fields that are set change.
func ExampleService_UpdateEvent() {
	cal := calendar.New(memstore.New())
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	ev, _ := cal.CreateEvent(ctx, calendar.EventInput{
		Title: calendar.Some("Talk"), Description: calendar.Some("About Go"),
		StartDate: calendar.Some("2030-05-01 10:00"), EndDate: calendar.Some("2030-05-01 11:00"),
	}, calendar.WriteOptions{})
	up, _ := cal.UpdateEvent(ctx, calendar.ByID(ev.ID), calendar.EventInput{Title: calendar.Some("Causerie")},
		calendar.WriteOptions{Lang: "fr", IfVersion: ev.Version})
	en, _ := cal.GetEvent(ctx, calendar.BySlug("talk"), calendar.ReadOptions{Lang: "en"})
	fmt.Println(up.Title, "/", en.Title, "/", up.Description, "/ version", up.Version)
	// Output: Causerie / Talk / About Go / version 2
}
