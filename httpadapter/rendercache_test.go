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
// embed is never served. (The calendar's part of the key has its own test:
// calendar.TestViewCacheNeverStale.)
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
		fmt.Sprintf("%s/events/%d?password=pw", testNS, f.event),
		testNS + "/events?start_date=2026-01-01",
		testNS + "/events?start_date=2026-01-01&translation_language=fr",
	}
	callers := []string{"", "editor", "author", "subscriber"}
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

// TestRequestKeyCoversTheRequest changes each request part the encoded
// bytes depend on and expects a new key (the calendar's part of the key is
// tested by calendar.TestViewCacheNeverStale).
func TestRequestKeyCoversTheRequest(t *testing.T) {
	base := links{site: "http://s", host: "s", rest: "http://s/ns"}
	want := string(appendRequestKey(nil, &base, false))
	changes := map[string]func(l *links) bool{
		"withLD": func(*links) bool { return true },
		"site":   func(l *links) bool { l.site = "http://t"; return false },
		"host":   func(l *links) bool { l.host = "t"; return false },
		"rest":   func(l *links) bool { l.rest = "http://s/fr/ns"; return false },
		"query":  func(l *links) bool { l.query = "?translation_language=fr"; return false },
		"moved":  func(l *links) bool { l.site, l.host = "http://ss", ""; return false },
	}
	for name, change := range changes {
		l := base
		ld := change(&l)
		if string(appendRequestKey(nil, &l, ld)) == want {
			t.Errorf("%s: the key did not change", name)
		}
	}
}

// TestRenderCacheAnswers checks the cache is asked before a view is
// built: once an event's bytes are kept, a list and a GET send the kept
// bytes (here marked in the title) rather than writing the event again.
func TestRenderCacheAnswers(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	cache := e.h.renders
	paths := []string{fmt.Sprintf("%s/events/%d", testNS, f.event), testNS + "/events?start_date=2026-01-01"}
	for _, p := range paths {
		e.do("GET", p, nil)
	}
	cache.mu.Lock()
	if len(cache.cur) == 0 {
		t.Fatal("nothing was kept")
	}
	for k, b := range cache.cur {
		marked := bytes.Replace(*b, []byte(`"title":"`), []byte(`"title":"KEPT `), 1)
		cache.cur[k] = &marked
	}
	cache.mu.Unlock()
	for _, p := range paths {
		if got := e.do("GET", p, nil); !bytes.Contains([]byte(got.Raw), []byte(`"title":"KEPT `)) {
			t.Errorf("GET %s wrote the event again: %s", p, got.Raw)
		}
	}
}

// TestRenderCacheBounded fills the cache past its size: it keeps at most
// that many entries, and an entry asked for again survives the turnover.
func TestRenderCacheBounded(t *testing.T) {
	c := newRenderCache(8)
	c.put([]byte("kept"), &[]byte{'k'})
	for i := 0; i < 20; i++ {
		if _, ok := c.get([]byte("kept")); !ok {
			t.Fatalf("entry asked for at every put was dropped after %d puts", i)
		}
		c.put([]byte(fmt.Sprint(i)), &[]byte{'v'})
		if n := len(c.cur) + len(c.old); n > 8 {
			t.Fatalf("%d entries in a cache of 8", n)
		}
	}
	if _, ok := c.get([]byte("0")); ok {
		t.Error("the oldest entry was never dropped")
	}
}
