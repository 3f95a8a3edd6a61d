package ical_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
	"github.com/eventcal/eventcal/calendar/ical/icaljstest"
)

// Injection: texts holding CRLF, END:VEVENT, BEGIN:VCALENDAR and property
// lines never make a property or component, read by ical.js or line by line.
func TestNoInjection(t *testing.T) {
	cal := newCal(t)
	evil := []string{
		"x\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil\r\nSUMMARY:evil",
		"y\nEND:VCALENDAR\nBEGIN:VCALENDAR\nX-EVIL:1",
		"z\rBEGIN:VALARM\rACTION:DISPLAY\rEND:VALARM",
		"w\u2028ATTACH:http://evil\u0085DESCRIPTION:evil",
		"v\x00\x0bRRULE:FREQ=DAILY",
	}
	for i, s := range evil {
		in := timed(s, "2026-12-0"+string(rune('1'+i))+" 10:00", "2026-12-0"+string(rune('1'+i))+" 11:00", "Europe/Paris")
		in.Description = calendar.Some(s + "\r\n" + s)
		lat, lng := 1.5, 2.5
		in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some("V" + s),
			Address: calendar.Some(s), GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lng)}}})
		in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: &calendar.OrganizerInput{Name: calendar.Some("O" + s)}}})
		in.Categories = calendar.Some([]calendar.TermRef{{Name: "C" + strings.ReplaceAll(s, ",", "")}})
		mk(t, cal, in)
	}
	b := export(t, system, ical.NewExporter(cal, ical.WithCalendarName("N\r\nX-EVIL:1")), calendar.EventQuery{})

	allowed := map[string]bool{"BEGIN": true, "END": true, "UID": true, "DTSTAMP": true, "DTSTART": true, "DTEND": true,
		"SUMMARY": true, "DESCRIPTION": true, "URL": true, "LOCATION": true, "GEO": true, "ORGANIZER": true,
		"CATEGORIES": true, "STATUS": true, "CREATED": true, "LAST-MODIFIED": true, "SEQUENCE": true,
		"VERSION": true, "PRODID": true, "CALSCALE": true, "METHOD": true, "X-WR-CALNAME": true, "X-WR-TIMEZONE": true,
		"REFRESH-INTERVAL": true, "X-PUBLISHED-TTL": true, "TZID": true, "TZOFFSETFROM": true, "TZOFFSETTO": true, "TZNAME": true}
	var comps []string
	for _, l := range unfold(t, b) {
		name := l[:strings.IndexAny(l, ";:")]
		if !allowed[name] {
			t.Errorf("unexpected property %q", l)
		}
		if name == "BEGIN" || name == "END" {
			comps = append(comps, l)
		}
	}
	want := []string{"BEGIN:VCALENDAR", "BEGIN:VTIMEZONE", "BEGIN:STANDARD", "END:STANDARD", "END:VTIMEZONE"}
	for range evil {
		want = append(want, "BEGIN:VEVENT", "END:VEVENT")
	}
	want = append(want, "END:VCALENDAR")
	if !slices.Equal(comps, want) {
		t.Errorf("components %q", comps)
	}

	got := icaljstest.Parse(t, b)
	if len(got.Events) != len(evil) || len(got.Tree.Children) != len(evil)+1 {
		t.Fatalf("ical.js sees %d events, %d components", len(got.Events), len(got.Tree.Children))
	}
	for i, c := range got.Tree.Children[1:] {
		if len(c.Children) != 0 {
			t.Errorf("event %d has sub-components %v", i, c.Children)
		}
		seen := map[string]bool{}
		for _, p := range c.Props {
			if seen[p] {
				t.Errorf("event %d: %s twice", i, p)
			}
			seen[p] = true
		}
		if len(c.Props) != 15 { // UID DTSTAMP DTSTART DTEND SUMMARY DESCRIPTION URL LOCATION GEO ORGANIZER CATEGORIES STATUS CREATED LAST-MODIFIED SEQUENCE
			t.Errorf("event %d: properties %v", i, c.Props)
		}
		if g := got.Events[i]; !strings.Contains(g.Summary.Value, "\n") && !strings.HasPrefix(g.Summary.Value, "w") && !strings.HasPrefix(g.Summary.Value, "v") {
			t.Errorf("event %d: summary %q lost its line break", i, g.Summary.Value)
		}
	}
}

// TestFeedVisibility: an anonymous feed holds what an anonymous list holds —
// no drafts, no private or pending events, password-protected content
// blanked — while an editor's feed holds more.
func TestFeedVisibility(t *testing.T) {
	cal := newCal(t)
	pub := timed("Public", "2026-12-01 10:00", "2026-12-01 11:00", "")
	pub.Description = calendar.Some("public text")
	mk(t, cal, pub)
	for _, st := range []string{"draft", "private", "pending"} {
		in := timed("Secret "+st, "2026-12-02 10:00", "2026-12-02 11:00", "")
		in.Status = calendar.Some(calendar.Status(st))
		in.Description = calendar.Some("secret " + st + " text")
		mk(t, cal, in)
	}
	prot := timed("Locked", "2026-12-03 10:00", "2026-12-03 11:00", "")
	prot.Password = calendar.Some("pw")
	prot.Description = calendar.Some("protected text")
	prot.Website = calendar.Some("https://protected.example/")
	prot.Categories = calendar.Some([]calendar.TermRef{{Name: "hidden-category"}})
	prot.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some("Hidden venue")}}})
	mk(t, cal, prot)
	hidden := timed("Hidden from listings", "2026-12-04 10:00", "2026-12-04 11:00", "")
	hidden.HideFromListings = calendar.Some(true)
	mk(t, cal, hidden)

	x := ical.NewExporter(cal)
	anon := string(export(t, calendar.WithPrincipal(t.Context(), calendar.Anonymous), x, calendar.EventQuery{}))
	for _, secret := range []string{"Secret", "secret", "protected text", "protected.example", "hidden-category", "Hidden"} {
		if strings.Contains(anon, secret) {
			t.Errorf("anonymous feed holds %q", secret)
		}
	}
	for _, want := range []string{"SUMMARY:Public", "public text", "SUMMARY:Locked"} {
		if !strings.Contains(anon, want) {
			t.Errorf("anonymous feed lacks %q", want)
		}
	}
	ed := string(export(t, as(editor), x, calendar.EventQuery{}))
	for _, want := range []string{"Secret draft", "Secret private", "Secret pending", "protected text", "Hidden venue", "STATUS:TENTATIVE"} {
		if !strings.Contains(ed, want) {
			t.Errorf("editor's feed lacks %q", want)
		}
	}
	if strings.Contains(ed, "Hidden from listings") {
		t.Error("hide_from_listings event in a feed")
	}
}

// TestFeedWindow: without date arguments a feed reaches back 30 days and has
// no upper bound; WithPastDays moves the bound; a date argument replaces it.
func TestFeedWindow(t *testing.T) {
	cal := newCal(t)
	mk(t, cal, timed("Ended 29 days ago", "2026-10-24 10:00", "2026-10-24 11:00", ""))
	mk(t, cal, timed("Ended 31 days ago", "2026-10-22 10:00", "2026-10-22 11:00", ""))
	mk(t, cal, timed("In five years", "2031-11-22 10:00", "2031-11-22 11:00", ""))
	titles := func(b []byte) []string {
		var out []string
		for _, l := range unfold(t, b) {
			if s, ok := strings.CutPrefix(l, "SUMMARY:"); ok {
				out = append(out, s)
			}
		}
		return out
	}
	x := ical.NewExporter(cal)
	if got := titles(export(t, system, x, calendar.EventQuery{})); !slices.Equal(got, []string{"Ended 29 days ago", "In five years"}) {
		t.Errorf("default window: %q", got)
	}
	if got := titles(export(t, system, ical.NewExporter(cal, ical.WithPastDays(40)), calendar.EventQuery{})); len(got) != 3 {
		t.Errorf("40 days: %q", got)
	}
	if got := titles(export(t, system, x, calendar.EventQuery{StartDate: "2026-10-01", EndDate: "2026-10-31"})); len(got) != 2 {
		t.Errorf("date arguments: %q", got)
	}
	// Paging arguments are ignored: the feed is the whole result.
	if got := titles(export(t, system, x, calendar.EventQuery{Page: 2, PerPage: 1})); len(got) != 2 {
		t.Errorf("paging: %q", got)
	}
	// Errors are the list's.
	if _, err := x.Feed(system, calendar.EventQuery{StartDate: "24/12/2026"}); calendar.CodeOf(err) != calendar.CodeInvalid {
		t.Errorf("bad date: %v", err)
	}
}

// TestFeedValidator: the ETag changes with every change that shows in the
// feed (an event, its venue, a category name, an event leaving the feed, the
// language) and with nothing else; Last-Modified moves with it.
func TestFeedValidator(t *testing.T) {
	cal := newCal(t)
	in := timed("Jazz", "2026-12-05 20:00", "2026-12-05 22:00", "")
	in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some("Hall")}}})
	in.Categories = calendar.Some([]calendar.TermRef{{Name: "Music"}})
	ev := mk(t, cal, in)
	other := mk(t, cal, timed("Other", "2026-12-06 20:00", "2026-12-06 22:00", ""))
	clock := now
	x := ical.NewExporter(cal, ical.WithClock(func() time.Time { return clock }))
	feed := func(q calendar.EventQuery) *ical.Feed {
		f, err := x.Feed(system, q)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	tags := map[string]string{}
	step := func(what string) *ical.Feed {
		t.Helper()
		clock = clock.Add(time.Minute)
		f := feed(calendar.EventQuery{})
		if again := feed(calendar.EventQuery{}); again.ETag() != f.ETag() || !again.LastModified().Equal(f.LastModified()) {
			t.Errorf("%s: two reads, two validators", what)
		}
		if prev, dup := tags[f.ETag()]; dup {
			t.Errorf("%s: same ETag as %s", what, prev)
		}
		tags[f.ETag()] = what
		if !f.LastModified().Equal(clock) {
			t.Errorf("%s: Last-Modified %v, want %v", what, f.LastModified(), clock)
		}
		return f
	}
	first := step("start")
	clock = clock.Add(time.Hour)
	if f := feed(calendar.EventQuery{}); f.ETag() != first.ETag() || !f.LastModified().Equal(first.LastModified()) {
		t.Error("validator changed without a change")
	}
	if _, err := cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: calendar.Some("Jazz!")}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	step("event title")
	if _, err := cal.UpdateVenue(system, calendar.ByID(ev.Venues[0].ID), calendar.VenueInput{Name: calendar.Some("Big Hall")}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	step("venue name")
	if _, err := cal.UpdateTerm(system, calendar.TaxonomyCategory, ev.Categories[0].ID, calendar.TermInput{Name: calendar.Some("Musique")}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	step("category name")
	if _, err := cal.DeleteEvent(system, calendar.ByID(other.ID), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	step("event trashed")
	fr, err := x.Feed(system, calendar.EventQuery{Lang: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if _, dup := tags[fr.ETag()]; dup {
		t.Error("French feed has the ETag of another")
	}
	if fr.Len() != 1 {
		t.Errorf("Len %d", fr.Len())
	}
}

// TestEventFeed: one event, as GetEvent reads it (errors included).
func TestEventFeed(t *testing.T) {
	cal := newCal(t)
	ev := mk(t, cal, timed("Only me", "2026-12-05 20:00", "2026-12-05 22:00", "Europe/Paris"))
	mk(t, cal, timed("Not me", "2026-12-05 20:00", "2026-12-05 22:00", ""))
	prot := timed("Locked", "2026-12-06 20:00", "2026-12-06 22:00", "")
	prot.Password = calendar.Some("pw")
	locked := mk(t, cal, prot)
	x := ical.NewExporter(cal, testSite)
	f, err := x.EventFeed(system, calendar.BySlug(ev.Slug), calendar.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(system, &b); err != nil {
		t.Fatal(err)
	}
	got := icaljstest.Parse(t, b.Bytes())
	compareFeed(t, []calendar.Event{*ev}, got, "cal.example", "")
	anon := calendar.WithPrincipal(t.Context(), calendar.Anonymous)
	if _, err := x.EventFeed(anon, calendar.ByID(locked.ID), calendar.ReadOptions{}); calendar.CodeOf(err) != calendar.CodeForbidden {
		t.Errorf("protected without password: %v", err)
	}
	if _, err := x.EventFeed(anon, calendar.ByID(locked.ID), calendar.ReadOptions{Password: "pw"}); err != nil {
		t.Errorf("protected with password: %v", err)
	}
	if _, err := x.EventFeed(anon, calendar.ByID(999), calendar.ReadOptions{}); calendar.CodeOf(err) != calendar.CodeNotFound {
		t.Errorf("missing: %v", err)
	}
}

// failAfter fails every write once n bytes went through.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("connection reset")
	}
	return len(p), nil
}

// TestFeedWriteError: a failing writer stops the feed with its error (the
// adapter then cuts the connection rather than end a short calendar).
func TestFeedWriteError(t *testing.T) {
	cal := newCal(t)
	for i := 0; i < 200; i++ {
		mk(t, cal, timed(fmt.Sprintf("Event %d", i), "2026-12-05 20:00", "2026-12-05 22:00", ""))
	}
	f, err := ical.NewExporter(cal).Feed(system, calendar.EventQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write(system, &failAfter{n: 40000}); err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Errorf("write error: %v", err)
	}
	ctx, cancel := context.WithCancel(system)
	cancel()
	if err := f.Write(ctx, io.Discard); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
