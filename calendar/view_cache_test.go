package calendar_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// memoViews is a calendar.ViewCache that keeps every view it saw built.
type memoViews map[string]*calendar.Event

func (m memoViews) CachedView(key []byte) any {
	if ev, ok := m[string(key)]; ok {
		return ev
	}
	return nil
}

// resolver is an image resolver whose images change outside any record.
type resolver struct {
	mu   sync.Mutex
	imgs map[int64]calendar.Image
}

func (r *resolver) ResolveImage(_ context.Context, id int64) (*calendar.Image, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	img, ok := r.imgs[id]
	return &img, ok, nil
}

// TestViewCacheNeverStale changes, one at a time, everything an event view
// depends on — its record, embedded records, a term count, a venue's
// visibility, an image resolved at read time, the clock, a password — and
// after each reads the event and a list as several callers in two
// languages under a ViewCache that keeps every view built. Every view the
// cache answers for must equal the view built afresh without one, so a key
// never misses an input; and the cache must answer, so the test tests.
func TestViewCacheNeverStale(t *testing.T) {
	imgs := &resolver{imgs: map[int64]calendar.Image{
		42: {URL: "https://cdn.example/42.jpg", Width: 800}, 43: {URL: "https://cdn.example/43.jpg"}}}
	f := newFixture(t, calendar.WithImages(imgs))
	ctx := as(author)
	venue := f.mustVenue(ctx, calendar.VenueInput{Name: s("Blue Hall"), Image: s("43")})
	// Published by the clock below: its status changes with no new version.
	annex := f.mustVenue(as(editor), calendar.VenueInput{Name: s("Annex"),
		Status: calendar.Some(calendar.StatusFuture), DateUTC: s("2026-03-07 10:00:00")})
	org := f.mustOrganizer(ctx, calendar.OrganizerInput{Name: s("Ann")})
	cat := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Jazz")})
	tag := f.mustTerm(calendar.TaxonomyTag, calendar.TermInput{Name: s("live")})
	in := eventIn("Jazz night", "2026-04-01 20:00", "2026-04-01 23:00")
	in.Venues = calendar.Some([]calendar.VenueRef{{ID: venue.ID}, {ID: annex.ID}})
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{ID: org.ID}})
	in.Categories = calendar.Some([]calendar.TermRef{{ID: cat.ID}})
	in.Tags = calendar.Some([]calendar.TermRef{{ID: tag.ID}})
	in.Image = s("42")
	ev := f.mustEvent(as(editor), in) // an author may not link the scheduled venue
	sched := eventIn("Later", "2026-04-02 20:00", "2026-04-02 21:00")
	sched.Status, sched.DateUTC = calendar.Some(calendar.StatusFuture), s("2026-03-07 10:00:00")
	later := f.mustEvent(as(editor), sched)

	memo := memoViews{}
	type read func(ctx context.Context, lang calendar.Lang) ([]calendar.Event, error)
	reads := map[string]read{
		"get": func(ctx context.Context, lang calendar.Lang) ([]calendar.Event, error) {
			got, err := f.cal.GetEvent(ctx, calendar.ByID(ev.ID), calendar.ReadOptions{Lang: lang})
			if err != nil {
				return nil, err
			}
			return []calendar.Event{*got}, nil
		},
		"get with password": func(ctx context.Context, lang calendar.Lang) ([]calendar.Event, error) {
			got, err := f.cal.GetEvent(ctx, calendar.ByID(ev.ID), calendar.ReadOptions{Lang: lang, Password: "pw"})
			if err != nil {
				return nil, err
			}
			return []calendar.Event{*got}, nil
		},
		"get scheduled": func(ctx context.Context, lang calendar.Lang) ([]calendar.Event, error) {
			got, err := f.cal.GetEvent(ctx, calendar.ByID(later.ID), calendar.ReadOptions{Lang: lang})
			if err != nil {
				return nil, err
			}
			return []calendar.Event{*got}, nil
		},
		"list": func(ctx context.Context, lang calendar.Lang) ([]calendar.Event, error) {
			p, err := f.cal.ListEvents(ctx, calendar.EventQuery{StartDate: "2026-01-01", Lang: lang})
			if err != nil {
				return nil, err
			}
			return p.Events, nil
		},
	}
	callers := map[string]calendar.Principal{"anonymous": anonymous, "author": author, "author2": author2, "editor": editor}
	check := func(step string) {
		t.Helper()
		hits := 0
		for rn, rd := range reads {
			for cn, who := range callers {
				for _, lang := range []calendar.Lang{"", "fr"} {
					want, wantErr := rd(as(who), lang)
					for range 2 { // the first read may fill the cache, the second must hit
						got, err := rd(calendar.WithViewCache(as(who), memo), lang)
						if (err == nil) != (wantErr == nil) || len(got) != len(want) {
							t.Fatalf("%s: %s as %s in %q: %d views, %v; without the cache %d, %v", step, rn, cn, lang, len(got), err, len(want), wantErr)
						}
						for i := range got {
							v := got[i]
							if c, ok := v.Cached.(*calendar.Event); ok {
								hits++
								v = *c
							} else {
								if v.ViewKey == nil {
									t.Fatalf("%s: %s: a view built under a ViewCache has no key", step, rn)
								}
								memo[string(v.ViewKey)] = &got[i]
							}
							v.ViewKey = nil
							if !reflect.DeepEqual(v, want[i]) {
								t.Errorf("%s: %s as %s in %q: event %d from the cache differs from a fresh view:\ncached %+v\nfresh  %+v", step, rn, cn, lang, v.ID, v, want[i])
							}
						}
					}
				}
			}
		}
		if hits == 0 {
			t.Fatalf("%s: the cache never answered", step)
		}
	}
	ok := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	fr := calendar.WriteOptions{Lang: "fr"}
	check("start")
	ok(f.cal.UpdateVenue(ctx, calendar.ByID(venue.ID), calendar.VenueInput{Name: s("Green Hall")}, calendar.WriteOptions{}))
	check("venue renamed")
	ok(f.cal.UpdateVenue(ctx, calendar.ByID(venue.ID), calendar.VenueInput{Name: s("Salle verte")}, fr))
	check("venue translated")
	ok(f.cal.UpdateOrganizer(ctx, calendar.ByID(org.ID), calendar.OrganizerInput{Phone: s("555-0200")}, calendar.WriteOptions{}))
	check("organizer changed")
	ok(f.cal.UpdateTerm(as(editor), calendar.TaxonomyCategory, cat.ID, calendar.TermInput{Name: s("Cool Jazz")}, calendar.WriteOptions{}))
	check("category renamed")
	ok(f.cal.UpdateTerm(as(editor), calendar.TaxonomyTag, tag.ID, calendar.TermInput{Description: s("on stage")}, calendar.WriteOptions{}))
	check("tag changed")
	more := eventIn("Second set", "2026-04-03 20:00", "2026-04-03 21:00")
	more.Categories = calendar.Some([]calendar.TermRef{{ID: cat.ID}})
	f.mustEvent(ctx, more)
	check("category count grew")
	imgs.mu.Lock()
	imgs.imgs[42] = calendar.Image{URL: "https://cdn.example/42b.jpg", Width: 1024}
	imgs.mu.Unlock()
	check("event image changed where it is resolved")
	imgs.mu.Lock()
	imgs.imgs[43] = calendar.Image{URL: "https://cdn.example/43.jpg", Height: 10}
	imgs.mu.Unlock()
	check("venue image changed where it is resolved")
	ok(f.cal.UpdateVenue(ctx, calendar.ByID(venue.ID), calendar.VenueInput{Status: calendar.Some(calendar.StatusDraft)}, calendar.WriteOptions{}))
	check("venue made a draft")
	f.clock.Set(testNow.Add(24 * time.Hour))
	check("scheduled event and venue published by the clock")
	ok(f.cal.UpdateEvent(as(editor), calendar.ByID(ev.ID), calendar.EventInput{Title: s("Nuit jazz")}, fr))
	check("event translated")
	ok(f.cal.UpdateEvent(as(editor), calendar.ByID(ev.ID), calendar.EventInput{Password: s("pw")}, calendar.WriteOptions{}))
	check("event protected")
}
