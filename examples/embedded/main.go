// Command embedded is the smallest useful eventcal program: a calendar on the
// in-memory store, filled with a venue, an organizer, categories and a few
// events in two languages, and one page of the event list printed in each
// language. Copy it as the start of your own integration.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"text/tabwriter"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

func main() {
	if err := run(context.Background(), time.Now()); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, now time.Time) error {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		return err
	}
	cal := calendar.New(memstore.New(),
		calendar.WithSiteZone(paris),
		calendar.WithDefaultLanguage("en"),
		calendar.WithClock(func() time.Time { return now }),
	)
	// This is trusted application code, so it says so with the System
	// principal. A context without a principal is anonymous; act for a user
	// with calendar.WithPrincipal to have their rights checked.
	ctx = calendar.WithPrincipal(ctx, calendar.System)
	en := calendar.WriteOptions{Lang: "en"}

	venue, err := cal.CreateVenue(ctx, calendar.VenueInput{
		Name:    calendar.Some("Le Petit Journal"),
		Address: calendar.Some("71 Boulevard Saint-Michel"),
		City:    calendar.Some("Paris"),
		Country: calendar.Some("France"),
		GeoLat:  calendar.Some(ptr(48.8443)),
		GeoLng:  calendar.Some(ptr(2.3400)),
	}, en)
	if err != nil {
		return err
	}
	org, err := cal.CreateOrganizer(ctx, calendar.OrganizerInput{
		Name:  calendar.Some("Hot Club de Paris"),
		Email: calendar.Some("hello@hotclub.example"),
	}, en)
	if err != nil {
		return err
	}
	music, err := cal.CreateTerm(ctx, calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Music")}, en)
	if err != nil {
		return err
	}

	type show struct{ en, fr string }
	shows := []show{{"Gypsy jazz night", "Soirée jazz manouche"}, {"Swing dance class", "Cours de danse swing"}, {"Jam session", "Bœuf musical"}}
	for i, sh := range shows {
		day := now.In(paris).AddDate(0, 0, 2+7*i).Format("2006-01-02")
		ev, err := cal.CreateEvent(ctx, calendar.EventInput{
			Title:      calendar.Some(sh.en),
			StartDate:  calendar.Some(day + " 20:30"),
			EndDate:    calendar.Some(day + " 23:30"),
			Cost:       calendar.Some([]string{"€15"}),
			Venues:     calendar.Some([]calendar.VenueRef{{ID: venue.ID}}),
			Organizers: calendar.Some([]calendar.OrganizerRef{{ID: org.ID}}),
			Categories: calendar.Some([]calendar.TermRef{{ID: music.ID}, {Name: "Jazz"}}), // "Jazz" is created
		}, en)
		if err != nil {
			return err
		}
		// The French text of the same record.
		if _, err := cal.UpdateEvent(ctx, calendar.ByID(ev.ID), calendar.EventInput{Title: calendar.Some(sh.fr)},
			calendar.WriteOptions{Lang: "fr"}); err != nil {
			return err
		}
	}

	for _, lang := range []calendar.Lang{"en", "fr"} {
		page, err := cal.ListEvents(ctx, calendar.EventQuery{Lang: lang})
		if err != nil {
			return err
		}
		fmt.Printf("Upcoming events (%s), %d in all:\n", lang, page.Total)
		w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
		for _, ev := range page.Events {
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", ev.Start.Format("Mon 02 Jan 15:04"), ev.Title, ev.Venues[0].Name, ev.Categories[1].Name)
		}
		w.Flush()
	}
	return nil
}

func ptr(f float64) *float64 { return &f }
