package webhooks

import (
	"context"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// RecordMatcher decides each kind's changes from the stored records, a
// subcategory counting as its parent; the dispatcher with it delivers only
// what a filtered subscription asked for.
func TestRecordMatcher(t *testing.T) {
	ctx := context.Background()
	repo := memstore.New()
	cal := calendar.New(repo)
	sys := calendar.WithPrincipal(ctx, calendar.System)
	term := func(name string, parent int64) int64 {
		in := calendar.TermInput{Name: calendar.Some(name)}
		if parent != 0 {
			in.Parent = calendar.Some(parent)
		}
		tm, err := cal.CreateTerm(sys, calendar.TaxonomyCategory, in, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return tm.ID
	}
	music, sport := term("Music", 0), term("Sport", 0)
	jazz := term("Jazz", music)
	event := func(title string, cat int64, venue string) *calendar.Event {
		in := calendar.EventInput{Title: calendar.Some(title), StartDate: calendar.Some("2026-05-01 20:00"), EndDate: calendar.Some("2026-05-01 22:00"),
			Categories: calendar.Some([]calendar.TermRef{{ID: cat}}), Venues: calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some(venue)}}})}
		ev, err := cal.CreateEvent(sys, in, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	gig, match := event("Gig", jazz, "Club"), event("Match", sport, "Stadium")
	club := gig.Venues[0].ID
	m := RecordMatcher(repo)
	for _, c := range []struct {
		name   string
		f      Filter
		change Change
		want   bool
	}{
		{"event in a subcategory", Filter{Categories: []int64{music}}, Change{Kind: KindEvent, ID: gig.ID}, true},
		{"event in another category", Filter{Categories: []int64{music}}, Change{Kind: KindEvent, ID: match.ID}, false},
		{"event at the venue", Filter{Venues: []int64{club}}, Change{Kind: KindEvent, ID: gig.ID}, true},
		{"event elsewhere", Filter{Venues: []int64{club}}, Change{Kind: KindEvent, ID: match.ID}, false},
		{"both lists must hold", Filter{Venues: []int64{club}, Categories: []int64{sport}}, Change{Kind: KindEvent, ID: gig.ID}, false},
		{"deleted event", Filter{Categories: []int64{music}}, Change{Kind: KindEvent, ID: 99999}, true},
		{"the venue itself", Filter{Venues: []int64{club}}, Change{Kind: KindVenue, ID: club}, true},
		{"another venue", Filter{Venues: []int64{club}}, Change{Kind: KindVenue, ID: match.Venues[0].ID}, false},
		{"a venue under a category filter", Filter{Categories: []int64{music}}, Change{Kind: KindVenue, ID: club}, true},
		{"a subcategory", Filter{Categories: []int64{music}}, Change{Kind: KindCategory, ID: jazz}, true},
		{"another category", Filter{Categories: []int64{music}}, Change{Kind: KindCategory, ID: sport}, false},
		{"a tag", Filter{Categories: []int64{music}}, Change{Kind: KindTag, ID: 5}, true},
	} {
		got, err := m.Match(ctx, c.f, c.change)
		if err != nil || got != c.want {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}

	// Delivered through the dispatcher: only the music events' changes.
	src := NewCalendarChanges(repo)
	last, err := src.Last(ctx)
	if err != nil {
		t.Fatal(err)
	}
	store := NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	rc := newReceiver(t, nil)
	mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{"event.updated"},
		Filter: Filter{Categories: []int64{music}}, Progress: Progress{Cursor: last}})
	start(t, New(src, store, append(testOptions(), WithMatcher(m))...))
	for _, id := range []int64{match.ID, gig.ID, match.ID, gig.ID} {
		if _, err := cal.UpdateEvent(sys, calendar.ByID(id), calendar.EventInput{Cost: calendar.Some([]string{"5"})}, calendar.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the music updates", func() bool { return len(rc.acked()) >= 2 })
	for _, d := range rc.all() {
		if d.Payload.Data.ID != gig.ID {
			t.Errorf("delivered a change of %d, outside the filter", d.Payload.Data.ID)
		}
	}
}
