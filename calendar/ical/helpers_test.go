package ical_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
	"github.com/eventcal/eventcal/memstore"
)

// now is the test clock: Sunday 22 Nov 2026, 12:00 UTC.
var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

var (
	admin       = calendar.Principal{ID: 1, Role: calendar.RoleAdministrator}
	editor      = calendar.Principal{ID: 2, Role: calendar.RoleEditor}
	author      = calendar.Principal{ID: 3, Role: calendar.RoleAuthor}
	contributor = calendar.Principal{ID: 4, Role: calendar.RoleContributor}
)

func as(p calendar.Principal) context.Context {
	return calendar.WithPrincipal(context.Background(), p)
}

var system = calendar.WithPrincipal(context.Background(), calendar.System)

func newYork(t testing.TB) *time.Location {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// newCal is an empty calendar on memstore, site zone New York, fixed clock.
func newCal(t testing.TB) *calendar.Service {
	return calendar.New(memstore.New(), calendar.WithClock(func() time.Time { return now }),
		calendar.WithSiteZone(newYork(t)))
}

// mk creates an event as System, failing the test on error.
func mk(t testing.TB, cal calendar.Calendar, in calendar.EventInput) *calendar.Event {
	t.Helper()
	ev, err := cal.CreateEvent(system, in, calendar.WriteOptions{})
	if err != nil {
		t.Fatalf("create %q: %v", in.Title.Value, err)
	}
	return ev
}

func timed(title, start, end, zone string) calendar.EventInput {
	in := calendar.EventInput{Title: calendar.Some(title), StartDate: calendar.Some(start), EndDate: calendar.Some(end)}
	if zone != "" {
		in.TimeZone = calendar.Some(zone)
	}
	return in
}

var testSite = ical.WithSite("https://cal.example", "")

// export writes the feed of q as ctx's caller.
func export(t testing.TB, ctx context.Context, x *ical.Exporter, q calendar.EventQuery, opts ...ical.ExportOption) []byte {
	t.Helper()
	f, err := x.Feed(ctx, q, opts...)
	if err != nil {
		t.Fatalf("feed: %v", err)
	}
	var b bytes.Buffer
	if err := f.Write(ctx, &b); err != nil {
		t.Fatalf("write: %v", err)
	}
	return b.Bytes()
}

// listAll reads every page of q, as the JSON list would give them.
func listAll(t testing.TB, ctx context.Context, cal calendar.Calendar, q calendar.EventQuery) []calendar.Event {
	t.Helper()
	var out []calendar.Event
	q.PerPage = 50
	for page := 1; ; page++ {
		q.Page = page
		p, err := cal.ListEvents(ctx, q)
		if err != nil {
			t.Fatalf("list page %d: %v", page, err)
		}
		out = append(out, p.Events...)
		if page >= p.TotalPages {
			return out
		}
	}
}

// unfold joins folded lines and splits the stream into content lines.
func unfold(t testing.TB, b []byte) []string {
	t.Helper()
	s := string(b)
	if !strings.HasSuffix(s, "\r\n") {
		t.Fatalf("stream does not end in CRLF")
	}
	s = strings.ReplaceAll(s, "\r\n ", "")
	lines := strings.Split(strings.TrimSuffix(s, "\r\n"), "\r\n")
	for _, l := range lines {
		if strings.ContainsAny(l, "\r\n") {
			t.Fatalf("bare CR or LF in line %q", l)
		}
	}
	return lines
}
