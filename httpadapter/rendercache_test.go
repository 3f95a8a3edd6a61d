package httpadapter

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// TestRenderCacheNeverStale changes, one at a time, everything an encoded
// event depends on besides its own record — the embedded venue, organizer
// and category, a term count, a venue's visibility, the event's password —
// and after each change asks for the event and a list as several callers,
// in several languages. Every answer of the caching handler must be byte for
// byte the answer of the same handler with its cache off, so an outdated
// embed is never served.
func TestRenderCacheNeverStale(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	cache := e.h.renders
	if cache == nil {
		t.Fatal("the handler has no render cache")
	}
	paths := []string{
		fmt.Sprintf("%s/events/%d", testNS, f.event),
		fmt.Sprintf("%s/events/%d?translation_language=fr", testNS, f.event),
		fmt.Sprintf("/fr%s/events/%d", testNS, f.event),
		testNS + "/events?start_date=2026-01-01",
		testNS + "/events?start_date=2026-01-01&translation_language=fr",
	}
	callers := []string{"", "editor", "author"}
	check := func(step string) {
		t.Helper()
		for _, p := range paths {
			for _, who := range callers {
				var opts []reqOpt
				if who != "" {
					opts = append(opts, user(who))
				}
				e.h.renders = cache
				e.do("GET", p, nil, opts...) // fills the cache
				got := e.do("GET", p, nil, opts...)
				e.h.renders = nil
				want := e.do("GET", p, nil, opts...)
				e.h.renders = cache
				if got.Code != want.Code || !bytes.Equal([]byte(got.Raw), []byte(want.Raw)) {
					t.Errorf("%s: GET %s as %q: cached answer differs from a fresh one:\ncached %d %s\nfresh  %d %s", step, p, who, got.Code, got.Raw, want.Code, want.Raw)
				}
			}
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
	ok(e.cal.UpdateVenue(as(idAuthor), calendar.ByID(f.venue), calendar.VenueInput{Name: calendar.Some("Green Hall")}, calendar.WriteOptions{}))
	check("venue renamed")
	ok(e.cal.UpdateVenue(as(idAuthor), calendar.ByID(f.venue), calendar.VenueInput{Name: calendar.Some("Salle verte")}, fr))
	check("venue translated")
	ok(e.cal.UpdateOrganizer(as(idAuthor), calendar.ByID(f.org), calendar.OrganizerInput{Phone: calendar.Some("555-0200")}, calendar.WriteOptions{}))
	check("organizer changed")
	ok(e.cal.UpdateTerm(as(idAuthor), calendar.TaxonomyCategory, f.jazz, calendar.TermInput{Name: calendar.Some("Cool Jazz")}, calendar.WriteOptions{}))
	check("category renamed")
	ok(e.cal.UpdateTerm(as(idEditor), calendar.TaxonomyTag, f.live, calendar.TermInput{Description: calendar.Some("on stage")}, calendar.WriteOptions{}))
	check("tag changed")
	e.mkEvent(idAuthor, "Second set", "2026-12-02 20:00", "publish", func(in *calendar.EventInput) {
		in.Categories = calendar.Some([]calendar.TermRef{{ID: f.jazz}})
	})
	check("category count grew")
	ok(e.cal.UpdateVenue(as(idAuthor), calendar.ByID(f.venue), calendar.VenueInput{Status: calendar.Some(calendar.StatusDraft)}, calendar.WriteOptions{}))
	check("venue made a draft")
	ok(e.cal.UpdateEvent(as(idAuthor), calendar.ByID(f.event), calendar.EventInput{Title: calendar.Some("Nuit jazz")}, fr))
	check("event translated")
	ok(e.cal.UpdateEvent(as(idAuthor), calendar.ByID(f.event), calendar.EventInput{Password: calendar.Some("pw")}, calendar.WriteOptions{}))
	check("event protected")
}

// TestEventKeyCoversTheView changes each part of a view that no record
// version stands for, and each request part, and expects a new cache key.
func TestEventKeyCoversTheView(t *testing.T) {
	base := func() (*links, *calendar.Event) {
		l := &links{site: "http://s", host: "s", rest: "http://s/ns"}
		ev := &calendar.Event{ID: 1, Version: 2, Lang: "en", Status: calendar.StatusPublish,
			Image:      &calendar.Image{URL: "u", Sizes: map[string]calendar.ImageSize{"thumb": {URL: "t", Width: 1}}},
			Categories: []calendar.Term{{ID: 3, Version: 1, Count: 5}}, Tags: []calendar.Term{{ID: 4, Version: 1, Count: 1}},
			Venues:     []calendar.Venue{{ID: 5, Version: 1, Status: calendar.StatusPublish}},
			Organizers: []calendar.Organizer{{ID: 6, Version: 1, Status: calendar.StatusPublish}}}
		return l, ev
	}
	l, ev := base()
	want := string(appendEventKey(nil, l, ev, false))
	changes := map[string]func(l *links, ev *calendar.Event) bool{
		"withLD":    func(*links, *calendar.Event) bool { return true },
		"site":      func(l *links, _ *calendar.Event) bool { l.site = "http://t"; return false },
		"rest":      func(l *links, _ *calendar.Event) bool { l.rest = "http://s/fr/ns"; return false },
		"query":     func(l *links, _ *calendar.Event) bool { l.query = "?translation_language=fr"; return false },
		"version":   func(_ *links, ev *calendar.Event) bool { ev.Version++; return false },
		"lang":      func(_ *links, ev *calendar.Event) bool { ev.Lang = "fr"; return false },
		"status":    func(_ *links, ev *calendar.Event) bool { ev.Status = calendar.StatusDraft; return false },
		"protected": func(_ *links, ev *calendar.Event) bool { ev.Protected = true; return false },
		"image url": func(_ *links, ev *calendar.Event) bool { ev.Image.URL = "v"; return false },
		"image size": func(_ *links, ev *calendar.Event) bool {
			ev.Image.Sizes["thumb"] = calendar.ImageSize{URL: "t", Width: 2}
			return false
		},
		"no image":          func(_ *links, ev *calendar.Event) bool { ev.Image = nil; return false },
		"term count":        func(_ *links, ev *calendar.Event) bool { ev.Categories[0].Count++; return false },
		"term version":      func(_ *links, ev *calendar.Event) bool { ev.Tags[0].Version++; return false },
		"term moved":        func(_ *links, ev *calendar.Event) bool { ev.Tags, ev.Categories = ev.Categories, ev.Tags; return false },
		"venue version":     func(_ *links, ev *calendar.Event) bool { ev.Venues[0].Version++; return false },
		"venue status":      func(_ *links, ev *calendar.Event) bool { ev.Venues[0].Status = calendar.StatusPrivate; return false },
		"venue hidden":      func(_ *links, ev *calendar.Event) bool { ev.Venues = nil; return false },
		"venue image":       func(_ *links, ev *calendar.Event) bool { ev.Venues[0].Image = &calendar.Image{URL: "v"}; return false },
		"organizer version": func(_ *links, ev *calendar.Event) bool { ev.Organizers[0].Version++; return false },
		"organizer hidden":  func(_ *links, ev *calendar.Event) bool { ev.Organizers = nil; return false },
	}
	for name, change := range changes {
		l, ev := base()
		ld := change(l, ev)
		if string(appendEventKey(nil, l, ev, ld)) == want {
			t.Errorf("%s: the key did not change", name)
		}
	}
}

// TestRenderCacheBounded fills the cache past its size: it keeps at most
// that many entries, and an entry asked for again survives the turnover.
func TestRenderCacheBounded(t *testing.T) {
	c := newRenderCache(8)
	c.put([]byte("kept"), []byte("k"))
	for i := 0; i < 20; i++ {
		if _, ok := c.get([]byte("kept")); !ok {
			t.Fatalf("entry asked for at every put was dropped after %d puts", i)
		}
		c.put([]byte(fmt.Sprint(i)), []byte("v"))
		if n := len(c.cur) + len(c.old); n > 8 {
			t.Fatalf("%d entries in a cache of 8", n)
		}
	}
	if _, ok := c.get([]byte("0")); ok {
		t.Error("the oldest entry was never dropped")
	}
}
