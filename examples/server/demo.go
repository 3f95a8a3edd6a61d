package main

import (
	"context"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

type demoVenue struct {
	name, address, city, zip, country string
	lat, lng                          float64
}

var demoVenues = []demoVenue{
	{"Blue Note Hall", "131 W 3rd St", "New York", "10012", "United States", 40.7309, -74.0005},
	{"Riverside Park Stage", "Riverside Dr & W 103rd St", "New York", "10025", "United States", 40.8003, -73.9707},
	{"Le Petit Théâtre", "12 Rue de la Gaîté", "Paris", "75014", "France", 48.8389, 2.3226},
	{"Community Library", "455 5th Ave", "New York", "10016", "United States", 40.7532, -73.9822},
}

var demoOrganizers = []struct{ name, email, phone, website string }{
	{"City Arts Council", "info@cityarts.example", "+1 212 555 0100", "https://cityarts.example"},
	{"Jazz Friends", "hello@jazzfriends.example", "+1 212 555 0199", "https://jazzfriends.example"},
	{"Atelier Lumière", "contact@atelier.example", "+33 1 55 55 01 01", "https://atelier.example"},
}

// Events in English with their French titles.
var demoEvents = []struct {
	en, fr, cat string
	tags        []string
	cost        []string
}{
	{"Jazz Night", "Soirée jazz", "jazz", []string{"live", "evening"}, []string{"$15", "$25"}},
	{"Open Air Concert", "Concert en plein air", "concerts", []string{"outdoor", "family"}, []string{"0"}},
	{"Poetry Reading", "Lecture de poésie", "literature", []string{"evening"}, nil},
	{"Painting Workshop", "Atelier de peinture", "workshops", []string{"family", "hands-on"}, []string{"$30"}},
	{"Film Screening", "Projection de film", "cinema", []string{"evening"}, []string{"$8"}},
	{"Book Fair", "Salon du livre", "literature", []string{"family"}, []string{"0"}},
	{"Chamber Music Matinee", "Matinée de musique de chambre", "concerts", []string{"live"}, []string{"$20", "$35", "$50"}},
	{"Photography Walk", "Promenade photo", "workshops", []string{"outdoor", "hands-on"}, []string{"$12"}},
	{"Late Jam Session", "Jam session nocturne", "jazz", []string{"live", "evening"}, []string{"$10"}},
}

// loadDemo creates sample data through the Calendar API as admin (the zero
// principal: as System, with the calendar's default author).
func loadDemo(ctx context.Context, cal calendar.Calendar, admin calendar.Principal, zone *time.Location, now time.Time) error {
	if admin.ID == 0 {
		admin = calendar.System
	}
	ctx = calendar.WithPrincipal(ctx, admin)
	fr := calendar.WriteOptions{Lang: "fr"}
	var venueIDs, orgIDs []int64
	for _, v := range demoVenues {
		lat, lng := v.lat, v.lng
		rec, err := cal.CreateVenue(ctx, calendar.VenueInput{
			Name: calendar.Some(v.name), Address: calendar.Some(v.address), City: calendar.Some(v.city),
			Zip: calendar.Some(v.zip), Country: calendar.Some(v.country),
			GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lng),
			Description: calendar.Some("A venue of the demo calendar."),
		}, calendar.WriteOptions{})
		if err != nil {
			return fmt.Errorf("venue %s: %w", v.name, err)
		}
		if _, err := cal.UpdateVenue(ctx, calendar.ByID(rec.ID), calendar.VenueInput{
			Description: calendar.Some("Un lieu du calendrier de démonstration."),
		}, fr); err != nil {
			return fmt.Errorf("venue %s (fr): %w", v.name, err)
		}
		venueIDs = append(venueIDs, rec.ID)
	}
	for _, o := range demoOrganizers {
		rec, err := cal.CreateOrganizer(ctx, calendar.OrganizerInput{
			Name: calendar.Some(o.name), Email: calendar.Some(o.email), Phone: calendar.Some(o.phone),
			Website: calendar.Some(o.website),
		}, calendar.WriteOptions{})
		if err != nil {
			return fmt.Errorf("organizer %s: %w", o.name, err)
		}
		orgIDs = append(orgIDs, rec.ID)
	}
	// Categories: "Music" is the parent of "Jazz" and "Concerts".
	cats := map[string]int64{}
	for _, c := range []struct{ slug, en, fr, parent string }{
		{"music", "Music", "Musique", ""}, {"jazz", "Jazz", "Jazz", "music"}, {"concerts", "Concerts", "Concerts", "music"},
		{"literature", "Literature", "Littérature", ""}, {"workshops", "Workshops", "Ateliers", ""}, {"cinema", "Cinema", "Cinéma", ""},
	} {
		in := calendar.TermInput{Name: calendar.Some(c.en), Slug: calendar.Some(c.slug)}
		if c.parent != "" {
			in.Parent = calendar.Some(cats[c.parent])
		}
		t, err := cal.CreateTerm(ctx, calendar.TaxonomyCategory, in, calendar.WriteOptions{})
		if err != nil {
			return fmt.Errorf("category %s: %w", c.en, err)
		}
		if _, err := cal.UpdateTerm(ctx, calendar.TaxonomyCategory, t.ID, calendar.TermInput{Name: calendar.Some(c.fr)}, fr); err != nil {
			return fmt.Errorf("category %s (fr): %w", c.en, err)
		}
		cats[c.slug] = t.ID
	}
	today := time.Date(now.In(zone).Year(), now.In(zone).Month(), now.In(zone).Day(), 0, 0, 0, 0, zone)
	for i := 0; i < 36; i++ {
		d := demoEvents[i%len(demoEvents)]
		start := today.AddDate(0, 0, 1+i*42/36).Add(time.Duration(17+i%4) * time.Hour)
		end := start.Add(time.Duration(2+i%3) * time.Hour)
		var tags []calendar.TermRef
		for _, t := range d.tags {
			tags = append(tags, calendar.TermRef{Name: t})
		}
		title := d.en
		if i >= len(demoEvents) {
			title = fmt.Sprintf("%s #%d", d.en, i/len(demoEvents)+1)
		}
		in := calendar.EventInput{
			Title:       calendar.Some(title),
			Description: calendar.Some("Demo event: " + d.en + "."),
			StartDate:   calendar.Some(start.Format("2006-01-02 15:04:05")),
			EndDate:     calendar.Some(end.Format("2006-01-02 15:04:05")),
			Venues:      calendar.Some([]calendar.VenueRef{{ID: venueIDs[i%len(venueIDs)]}}),
			Organizers:  calendar.Some([]calendar.OrganizerRef{{ID: orgIDs[i%len(orgIDs)]}}),
			Categories:  calendar.Some([]calendar.TermRef{{ID: cats[d.cat]}}),
			Tags:        calendar.Some(tags),
			Featured:    calendar.Some(i%7 == 0),
		}
		if d.cost != nil {
			in.Cost = calendar.Some(d.cost)
		}
		ev, err := cal.CreateEvent(ctx, in, calendar.WriteOptions{})
		if err != nil {
			return fmt.Errorf("event %s: %w", title, err)
		}
		frTitle := d.fr
		if i >= len(demoEvents) {
			frTitle = fmt.Sprintf("%s nº%d", d.fr, i/len(demoEvents)+1)
		}
		if _, err := cal.UpdateEvent(ctx, calendar.ByID(ev.ID), calendar.EventInput{
			Title: calendar.Some(frTitle), Description: calendar.Some("Événement de démonstration : " + d.fr + "."),
		}, fr); err != nil {
			return fmt.Errorf("event %s (fr): %w", title, err)
		}
	}
	return demoSeries(ctx, cal, today, venueIDs[0], cats["jazz"])
}

// demoSeries adds a recurring event in both languages: a weekly jam session
// on 12 Tuesdays, the third left out (EXDATE), and the fifth changed on its
// own (a detached occurrence).
func demoSeries(ctx context.Context, cal calendar.Calendar, today time.Time, venue, jazz int64) error {
	fr := calendar.WriteOptions{Lang: "fr"}
	first := today.AddDate(0, 0, 1+(int(time.Tuesday)-int(today.Weekday())+6)%7).Add(19*time.Hour + 30*time.Minute)
	skipped := first.AddDate(0, 0, 14)
	series, err := cal.CreateEvent(ctx, calendar.EventInput{
		Title:       calendar.Some("Tuesday Jam Session"),
		Description: calendar.Some("Demo series: an open jam every Tuesday, bring your instrument."),
		StartDate:   calendar.Some(first.Format("2006-01-02 15:04:05")),
		EndDate:     calendar.Some(first.Add(150 * time.Minute).Format("2006-01-02 15:04:05")),
		Venues:      calendar.Some([]calendar.VenueRef{{ID: venue}}),
		Categories:  calendar.Some([]calendar.TermRef{{ID: jazz}}),
		Cost:        calendar.Some([]string{"0"}),
		Recurrence: calendar.Some([]string{"RRULE:FREQ=WEEKLY;COUNT=12",
			"EXDATE:" + skipped.UTC().Format("20060102T150405Z")}),
	}, calendar.WriteOptions{})
	if err != nil {
		return fmt.Errorf("series: %w", err)
	}
	if _, err := cal.UpdateEvent(ctx, calendar.ByID(series.ID), calendar.EventInput{
		Title:       calendar.Some("Jam session du mardi"),
		Description: calendar.Some("Série de démonstration : une jam ouverte chaque mardi, venez avec votre instrument."),
	}, fr); err != nil {
		return fmt.Errorf("series (fr): %w", err)
	}
	occ, err := cal.ListEvents(ctx, calendar.EventQuery{PostParent: series.ID, StartDate: first.Format("2006-01-02"), PerPage: 20})
	if err != nil {
		return fmt.Errorf("series occurrences: %w", err)
	}
	if len(occ.Events) < 4 {
		return fmt.Errorf("series: %d occurrences listed", len(occ.Events))
	}
	special := occ.Events[3] // the fifth Tuesday: the third is skipped
	if _, err := cal.UpdateEvent(ctx, calendar.ByID(special.ID), calendar.EventInput{
		Title:       calendar.Some("Tuesday Jam Session: guest night"),
		Description: calendar.Some("This week a guest trio opens the jam."),
	}, calendar.WriteOptions{}); err != nil {
		return fmt.Errorf("detached occurrence: %w", err)
	}
	if _, err := cal.UpdateEvent(ctx, calendar.ByID(special.ID), calendar.EventInput{
		Title:       calendar.Some("Jam session du mardi : soirée invités"),
		Description: calendar.Some("Cette semaine, un trio invité ouvre la jam."),
	}, fr); err != nil {
		return fmt.Errorf("detached occurrence (fr): %w", err)
	}
	return nil
}
