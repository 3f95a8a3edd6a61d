package httpadapter

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// fixture is a small published calendar: a venue, an organizer, a category
// with a parent, a tag and one event using them all, written by the author.
type fixture struct {
	venue, org, music, jazz, live, event int64
}

func (e *env) fixture() fixture {
	t := e.t
	t.Helper()
	ctx := as(idAuthor)
	lat, lng := 42.36, -71.06
	v, err := e.cal.CreateVenue(ctx, calendar.VenueInput{
		Name: calendar.Some("Blue Hall"), Address: calendar.Some("1 Main St"), City: calendar.Some("Boston"),
		State: calendar.Some("MA"), Zip: calendar.Some("02110"), Phone: calendar.Some("555-0100"),
		Website: calendar.Some("https://blue.example"), GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lng),
	}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.cal.CreateOrganizer(ctx, calendar.OrganizerInput{
		Name: calendar.Some("Jazz Friends"), Email: calendar.Some("hi@jazz.example"), Phone: calendar.Some("555-0199"),
		Website: calendar.Some("https://jazz.example"),
	}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	music, err := e.cal.CreateTerm(ctx, calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Music"), Description: calendar.Some("All music")}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	jazz, err := e.cal.CreateTerm(ctx, calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Jazz"), Parent: calendar.Some(music.ID)}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	live, err := e.cal.CreateTerm(as(idEditor), calendar.TaxonomyTag, calendar.TermInput{Name: calendar.Some("Live")}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := e.cal.CreateEvent(ctx, calendar.EventInput{
		Title: calendar.Some("Jazz Night"), Description: calendar.Some("<b>Hot</b> & cool"), Excerpt: calendar.Some("short"),
		StartDate: calendar.Some("2026-12-01 20:00"), EndDate: calendar.Some("2026-12-01 23:00"),
		TimeZone: calendar.Some("America/New_York"), Cost: calendar.Some([]string{"$20", "$10"}),
		Image: calendar.Some("https://img.example/poster.JPG"), Featured: calendar.Some(true),
		Venues:     calendar.Some([]calendar.VenueRef{{ID: v.ID}}),
		Organizers: calendar.Some([]calendar.OrganizerRef{{ID: o.ID}}),
		Categories: calendar.Some([]calendar.TermRef{{ID: jazz.ID}}),
		Tags:       calendar.Some([]calendar.TermRef{{ID: live.ID}}),
	}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{venue: v.ID, org: o.ID, music: music.ID, jazz: jazz.ID, live: live.ID, event: ev.ID}
}

// mkEvent creates a minimal event as user id (0: system) and returns its id.
func (e *env) mkEvent(uid int64, title, start, status string, extra ...func(*calendar.EventInput)) int64 {
	e.t.Helper()
	in := calendar.EventInput{Title: calendar.Some(title), StartDate: calendar.Some(start), EndDate: calendar.Some(start)}
	if status != "" {
		in.Status = calendar.Some(calendar.Status(status))
	}
	for _, f := range extra {
		f(&in)
	}
	ev, err := e.cal.CreateEvent(as(uid), in, calendar.WriteOptions{})
	if err != nil {
		e.t.Fatalf("create %q: %v", title, err)
	}
	return ev.ID
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
