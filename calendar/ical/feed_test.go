package ical_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
	"github.com/eventcal/eventcal/calendar/ical/icaljstest"
)

// richCalendar holds events in several zones, across DST changes, all-day
// and floating ones, and texts that need escaping.
func richCalendar(t *testing.T) *calendar.Service {
	cal := newCal(t)
	lat, lng := 52.5200066, 13.404954
	venue := &calendar.VenueInput{Name: calendar.Some("Club; \"Ost\", Hall 2"), Address: calendar.Some("Holzmarktstraße 25"),
		City: calendar.Some("Berlin"), Zip: calendar.Some("10243"), Country: calendar.Some("Germany"),
		GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lng)}
	org := &calendar.OrganizerInput{Name: calendar.Some("Smith, John: \"Jr\"; Ltd"), Email: calendar.Some("john@example.org")}
	noMail := &calendar.OrganizerInput{Name: calendar.Some("Quiet Org")}

	in := timed("Spring forward in Berlin", "2027-03-28 01:30", "2027-03-28 03:30", "Europe/Berlin")
	in.Venues = calendar.Some([]calendar.VenueRef{{New: venue}})
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: org}})
	in.Categories = calendar.Some([]calendar.TermRef{{Name: "Jazz"}, {Name: "Rock, Pop"}, {Name: "Blues; Soul"}})
	mk(t, cal, in)

	in = timed("Fall back in New York", "2026-11-01 00:30", "2026-11-01 01:30", "America/New_York")
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: noMail}})
	mk(t, cal, in)
	mk(t, cal, timed("Kolkata evening", "2026-12-24 18:00", "2026-12-24 20:00", "Asia/Kolkata"))
	mk(t, cal, timed("Lord Howe half-hour DST", "2027-04-04 01:00", "2027-04-04 03:00", "Australia/Lord_Howe"))
	mk(t, cal, timed("In UTC", "2026-12-01 10:00", "2026-12-01 11:00", "UTC"))
	mk(t, cal, timed("Offset zone", "2026-12-02 10:00", "2026-12-02 11:15", "UTC+5:30"))
	mk(t, cal, timed("Floating, site zone", "2027-03-14 01:30", "2027-03-14 04:00", ""))
	mk(t, cal, timed("Far ahead", "2031-07-01 20:00", "2031-07-01 22:00", "Europe/Berlin"))

	ad := timed("One day", "2026-12-31", "2026-12-31", "")
	ad.AllDay = calendar.Some(true)
	mk(t, cal, ad)
	ad = timed("Three days in Sydney", "2027-01-08", "2027-01-10", "Australia/Sydney")
	ad.AllDay = calendar.Some(true)
	mk(t, cal, ad)

	in = timed("Café, jazz; blues\nnight 🎷 back\\slash", "2026-12-05 20:00", "2026-12-05 23:00", "Europe/Paris")
	in.Description = calendar.Some("Line one\r\nEND:VEVENT\r\nBEGIN:VCALENDAR\nUID:evil\rSUMMARY:evil\n" +
		strings.Repeat("日本語のテキスト🎺 ", 20) + "\x00\x07 tail")
	in.Website = calendar.Some("https://example.org/jazz?a=1&b=2")
	mk(t, cal, in)
	return cal
}

// wantText is what a TEXT value reads back as: line breaks become LF,
// other control characters are dropped.
func wantText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// TestFeedReadByICalJS: every event of the list is in the feed with the same
// instants (across DST changes, in several zones, all-day and floating),
// texts, categories, location, GEO and organizer, as ical.js reads it.
func TestFeedReadByICalJS(t *testing.T) {
	cal := richCalendar(t)
	x := ical.NewExporter(cal, testSite, ical.WithCalendarName("Jazz, etc."))
	ctx := as(admin)
	feed := export(t, ctx, x, calendar.EventQuery{})
	// The list with the feed's default window: ended at most 30 days ago, no upper bound.
	want := listAll(t, ctx, cal, calendar.EventQuery{EndsAfter: "-31 days"})
	if len(want) != 11 {
		t.Fatalf("%d events listed, want 11", len(want))
	}
	got := icaljstest.Parse(t, feed)
	compareFeed(t, want, got, "cal.example", "")
	// ical.js leaves the values of X- properties as written; RFC 5545 makes
	// them TEXT, so the comma is escaped.
	if got.Calendar["x-wr-calname"] != `Jazz\, etc.` || got.Calendar["x-wr-timezone"] != "America/New_York" ||
		got.Calendar["method"] != "PUBLISH" || got.Calendar["calscale"] != "GREGORIAN" || got.Calendar["version"] != "2.0" {
		t.Errorf("calendar properties %v", got.Calendar)
	}
	var zones []string
	for _, c := range got.Tree.Children {
		if c.Name == "vtimezone" {
			zones = append(zones, fmt.Sprint(len(c.Children)))
		}
	}
	// Berlin, New York, Kolkata, Lord Howe, UTC, UTC+5:30, Paris (all-day events need none).
	if len(zones) != 7 {
		t.Errorf("%d VTIMEZONEs, want 7", len(zones))
	}
}

func compareFeed(t *testing.T, want []calendar.Event, got *icaljstest.Result, host, lang string) {
	t.Helper()
	if len(got.Events) != len(want) {
		t.Fatalf("ical.js read %d events, the list has %d", len(got.Events), len(want))
	}
	for i, ev := range want {
		g := got.Events[i]
		name := ev.Title
		if g.UID != fmt.Sprintf("%s?id=%d", host, ev.ID) {
			t.Errorf("%s: UID %q", name, g.UID)
		}
		if g.Summary == nil || g.Summary.Value != wantText(ev.Title) {
			t.Errorf("%s: SUMMARY %+v", name, g.Summary)
		} else if l := g.Summary.Language; (l == nil) != (lang == "") || l != nil && *l != lang {
			t.Errorf("%s: SUMMARY LANGUAGE %v, want %q", name, l, lang)
		}
		if d := wantText(ev.Description); d == "" && g.Description != nil || d != "" && (g.Description == nil || g.Description.Value != d) {
			t.Errorf("%s: DESCRIPTION %+v, want %q", name, g.Description, d)
		}
		if ev.AllDay {
			y, m, d := ev.End.Date()
			endDay := time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
			if g.Start.Date != ev.Start.Format("2006-01-02") || g.End.Date != endDay {
				t.Errorf("%s: all-day %+v – %+v, want %s – %s (exclusive)", name, g.Start, g.End, ev.Start.Format("2006-01-02"), endDay)
			}
		} else {
			for _, p := range []struct {
				what string
				got  *icaljstest.Time
				want time.Time
			}{{"start", g.Start, ev.Start}, {"end", g.End, ev.End}} {
				if p.got == nil || p.got.Error != "" || p.got.UTC != p.want.UTC().Format(time.RFC3339) {
					t.Errorf("%s: %s %+v, want %s", name, p.what, p.got, p.want.UTC().Format(time.RFC3339))
					continue
				}
				wantZone := ev.TimeZone
				if repeatedWall(p.want) {
					wantZone = "" // UTC: see TestRepeatedHourInUTC
				}
				if p.got.TZID != wantZone {
					t.Errorf("%s: %s TZID %q, want %q", name, p.what, p.got.TZID, wantZone)
				}
				if wantZone != "" && p.got.Local != p.want.Format("2006-01-02T15:04:05") {
					t.Errorf("%s: %s local %s, want %s", name, p.what, p.got.Local, p.want.Format("2006-01-02T15:04:05"))
				}
			}
		}
		var cats []string
		for _, c := range ev.Categories {
			cats = append(cats, c.Name)
		}
		if !slices.Equal(g.Categories, cats) {
			t.Errorf("%s: CATEGORIES %q, want %q", name, g.Categories, cats)
		}
		if len(ev.Venues) == 0 {
			if g.Location != nil || g.Geo != nil {
				t.Errorf("%s: LOCATION %+v GEO %v without a venue", name, g.Location, g.Geo)
			}
		} else {
			v := ev.Venues[0]
			loc := strings.Join([]string{v.Name, v.Address, v.City, v.Zip, v.Country}, ", ")
			if g.Location == nil || g.Location.Value != loc {
				t.Errorf("%s: LOCATION %+v, want %q", name, g.Location, loc)
			}
			if v.GeoLat != nil && !slices.Equal(g.Geo, []float64{*v.GeoLat, *v.GeoLng}) {
				t.Errorf("%s: GEO %v", name, g.Geo)
			}
		}
		if len(ev.Organizers) == 0 {
			if g.Organizer != nil {
				t.Errorf("%s: ORGANIZER %+v", name, g.Organizer)
			}
		} else {
			o := ev.Organizers[0]
			value := "mailto:" + o.Email
			if o.Email == "" {
				value = "https://cal.example/organizer/" + o.Slug + "/"
			}
			// A DQUOTE cannot stand in a parameter value; it becomes an apostrophe.
			cn := strings.ReplaceAll(o.Name, `"`, "'")
			if g.Organizer == nil || g.Organizer.CN == nil || *g.Organizer.CN != cn || g.Organizer.Value != value {
				t.Errorf("%s: ORGANIZER %+v, want CN %q %s", name, g.Organizer, cn, value)
			}
		}
		url := ev.Website
		if url == "" {
			url = "https://cal.example/event/" + ev.Slug + "/"
		}
		if g.URL != url {
			t.Errorf("%s: URL %q, want %q", name, g.URL, url)
		}
		if g.Status != "CONFIRMED" || g.Sequence == nil || *g.Sequence != int(ev.Version-1) {
			t.Errorf("%s: STATUS %q SEQUENCE %v", name, g.Status, g.Sequence)
		}
	}
}

// TestFeedTranslated: translation_language gives the texts of that language,
// marked with LANGUAGE.
func TestFeedTranslated(t *testing.T) {
	cal := newCal(t)
	ev := mk(t, cal, timed("Concert", "2026-12-05 20:00", "2026-12-05 22:00", "Europe/Paris"))
	if _, err := cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: calendar.Some("Le concert, enfin"),
		Description: calendar.Some("Une soirée")}, calendar.WriteOptions{Lang: "fr"}); err != nil {
		t.Fatal(err)
	}
	x := ical.NewExporter(cal, testSite)
	q := calendar.EventQuery{Lang: "fr"}
	got := icaljstest.Parse(t, export(t, system, x, q))
	compareFeed(t, listAll(t, system, cal, calendar.EventQuery{Lang: "fr", EndsAfter: "-31 days"}), got, "cal.example", "fr")
	if got.Events[0].Summary.Value != "Le concert, enfin" {
		t.Errorf("summary %q", got.Events[0].Summary.Value)
	}
	// The default language carries no LANGUAGE parameter.
	got = icaljstest.Parse(t, export(t, system, x, calendar.EventQuery{}))
	compareFeed(t, listAll(t, system, cal, calendar.EventQuery{EndsAfter: "-31 days"}), got, "cal.example", "")
}

// TestVTimezoneTransitions: for zones with unusual rules, events an hour
// before and after every transition of ten years are read back by ical.js
// at the same instants, with the feed's VTIMEZONE blocks.
func TestVTimezoneTransitions(t *testing.T) {
	cal := newCal(t)
	zones := []string{"Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago",
		"Asia/Tehran", "Europe/Dublin", "Africa/Casablanca", "America/Sao_Paulo", "Pacific/Apia", "Europe/Moscow"}
	from, to := time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	for _, z := range zones {
		loc, err := time.LoadLocation(z)
		if err != nil {
			t.Fatal(err)
		}
		for tr := from; ; {
			_, end := tr.In(loc).ZoneBounds()
			if end.IsZero() || end.After(to) {
				break
			}
			tr = end
			for _, d := range []time.Duration{-time.Hour, -time.Minute, 0, 30 * time.Minute, time.Hour} {
				s := tr.Add(d)
				mk(t, cal, timed(fmt.Sprintf("%s %s", z, s.Format(time.RFC3339)), s.Format(time.RFC3339),
					s.Add(90*time.Minute).Format(time.RFC3339), z))
				n++
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d events around transitions", n)
	}
	q := calendar.EventQuery{StartDate: "2017-01-01"}
	x := ical.NewExporter(cal, testSite)
	got := icaljstest.Parse(t, export(t, system, x, q))
	compareFeed(t, listAll(t, system, cal, q), got, "cal.example", "")
}

// repeatedWall reports whether t's wall clock in its zone also names another
// instant up to three hours away (the zone turns its clocks back over it).
func repeatedWall(t time.Time) bool {
	wall := t.Format("2006-01-02T15:04:05")
	for d := 15 * time.Minute; d <= 3*time.Hour; d += 15 * time.Minute {
		for _, o := range []time.Time{t.Add(d), t.Add(-d)} {
			if o.In(t.Location()).Format("2006-01-02T15:04:05") == wall {
				return true
			}
		}
	}
	return false
}

// TestRepeatedHourInUTC: a time in an hour the zone repeats is written in
// UTC, the only form every reader takes for the same instant; the other
// time of the event keeps its TZID.
func TestRepeatedHourInUTC(t *testing.T) {
	cal := newCal(t)
	mk(t, cal, timed("Second 1:30 in New York", "2027-11-07T06:30:00Z", "2027-11-07T08:00:00Z", "America/New_York"))
	lines := unfold(t, export(t, system, ical.NewExporter(cal), calendar.EventQuery{StartDate: "2027-11-01"}))
	if !slices.Contains(lines, "DTSTART:20271107T063000Z") || !slices.Contains(lines, "DTEND;TZID=America/New_York:20271107T030000") {
		t.Errorf("times:\n%s", strings.Join(lines, "\n"))
	}
}

// TestFeedLines: CRLF everywhere, no line over 75 octets, no UTF-8
// sequence split by a fold.
func TestFeedLines(t *testing.T) {
	cal := richCalendar(t)
	b := export(t, system, ical.NewExporter(cal, testSite), calendar.EventQuery{})
	if bytes.Contains(bytes.ReplaceAll(b, []byte("\r\n"), nil), []byte("\n")) ||
		bytes.Contains(bytes.ReplaceAll(b, []byte("\r\n"), nil), []byte("\r")) {
		t.Fatal("a line ends without CRLF")
	}
	folded := 0
	for _, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\r\n")), []byte("\r\n")) {
		if len(l) > 75 {
			t.Errorf("line of %d octets: %q", len(l), l)
		}
		if !utf8.Valid(l) {
			t.Errorf("line splits a UTF-8 sequence: %q", l)
		}
		if len(l) > 0 && l[0] == ' ' {
			folded++
		}
	}
	if folded < 5 {
		t.Errorf("only %d continuation lines; the fixtures need folding", folded)
	}
}

// TestFeedDeterministic: the same data gives the same bytes, from the same
// calendar read twice and from a second calendar built the same way.
func TestFeedDeterministic(t *testing.T) {
	a := export(t, system, ical.NewExporter(richCalendar(t), testSite), calendar.EventQuery{})
	x := ical.NewExporter(richCalendar(t), testSite)
	b := export(t, system, x, calendar.EventQuery{})
	c := export(t, system, x, calendar.EventQuery{})
	if !bytes.Equal(a, b) || !bytes.Equal(b, c) {
		t.Fatalf("feeds differ:\n%s\n----\n%s", a, b)
	}
}

// TestFeedOrder: VEVENTs come in list order, start then id.
func TestFeedOrder(t *testing.T) {
	cal := newCal(t)
	var want []string
	for i := 0; i < 120; i++ { // several pages of the calendar's largest page
		day := 1 + (i*7)%28
		ev := mk(t, cal, timed(fmt.Sprintf("e%03d", i), fmt.Sprintf("2027-02-%02d 10:00", day), fmt.Sprintf("2027-02-%02d 11:00", day), ""))
		_ = ev
	}
	for _, ev := range listAll(t, system, cal, calendar.EventQuery{}) {
		want = append(want, fmt.Sprintf("UID:localhost?id=%d", ev.ID))
	}
	var got []string
	for _, l := range unfold(t, export(t, system, ical.NewExporter(cal), calendar.EventQuery{})) {
		if strings.HasPrefix(l, "UID:") {
			got = append(got, l)
		}
	}
	if !slices.Equal(got, want) || len(got) != 120 {
		t.Fatalf("order:\n%v\nwant\n%v", got, want)
	}
}
