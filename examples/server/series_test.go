package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// TestDemoSeries: the -demo data holds a weekly series over HTTP: hidden
// from the list itself, 11 occurrences (12 Tuesdays, one excepted), one of
// them detached with its own texts, in English and French.
func TestDemoSeries(t *testing.T) {
	base, _ := start(t, config{Store: "mem", Demo: true, TimeZone: "Europe/Paris",
		Now: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }})
	api := base + "/wp-json/tribe/events/v1"
	_, list := getJSON(t, mustReq(t, "GET", api+"/events?series=series&search=jam%20tuesday", ""))
	var seriesID float64
	for _, e := range list["events"].([]any) {
		ev := e.(map[string]any)
		if r := ev["recurrence"].([]any); len(r) == 2 {
			seriesID = ev["id"].(float64)
			if !strings.HasPrefix(r[0].(string), "RRULE:FREQ=WEEKLY;COUNT=12") || !strings.HasPrefix(r[1].(string), "EXDATE:") {
				t.Errorf("series rule %v", r)
			}
		}
	}
	if seriesID == 0 {
		t.Fatalf("no demo series in %v", list["events"])
	}
	for _, lang := range []string{"", "/fr"} {
		_, occ := getJSON(t, mustReq(t, "GET", fmt.Sprintf("%s%s/events?post_parent=%d&per_page=50", base, lang+"/wp-json/tribe/events/v1", int64(seriesID)), ""))
		events := occ["events"].([]any)
		if len(events) != 11 {
			t.Fatalf("%q: %d occurrences, want 11", lang, len(events))
		}
		detached := 0
		for i, e := range events {
			ev := e.(map[string]any)
			s := ev["series"].(map[string]any)
			if s["id"].(float64) != seriesID {
				t.Errorf("occurrence %d: series %v", i, s)
			}
			if s["detached"].(bool) {
				detached++
				want := map[string]string{"": "Tuesday Jam Session: guest night", "/fr": "Jam session du mardi : soirée invités"}[lang]
				if ev["title"] != want {
					t.Errorf("%q: detached title %q, want %q", lang, ev["title"], want)
				}
			} else if want := map[string]string{"": "Tuesday Jam Session", "/fr": "Jam session du mardi"}[lang]; ev["title"] != want {
				t.Errorf("%q: occurrence %d title %q, want %q", lang, i, ev["title"], want)
			}
		}
		if detached != 1 {
			t.Errorf("%q: %d detached occurrences, want 1", lang, detached)
		}
	}
}

// The server's maintenance extends open-ended series as time passes: at
// start, and on every tick.
func TestSeriesMaintenance(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).Unix())
	clock := func() time.Time { return time.Unix(now.Load(), 0).UTC() }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := newServer(context.Background(), config{Store: "mem", Now: clock, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	series, err := srv.Calendar.CreateEvent(ctx, calendar.EventInput{Title: calendar.Some("Weekly"),
		StartDate: calendar.Some("2026-11-24 19:00"), EndDate: calendar.Some("2026-11-24 20:00"),
		Recurrence: calendar.Some([]string{"RRULE:FREQ=WEEKLY"})}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		p, err := srv.Calendar.ListEvents(ctx, calendar.EventQuery{PostParent: series.ID, StartDate: "2026-01-01", EndDate: "2035-01-01", PerPage: 1})
		if err != nil {
			t.Fatal(err)
		}
		return p.Total
	}
	before := count()
	now.Store(clock().AddDate(0, 3, 0).Unix()) // three months on: ~13 more weeks in the horizon
	mctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { maintainSeries(mctx, srv.Calendar, 10*time.Millisecond, log); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	for count() < before+12 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	if got := count(); got < before+12 {
		t.Errorf("%d occurrences after three months of maintenance, %d before", got, before)
	}
	// At start: extendSeries alone catches up too, and is idempotent.
	now.Store(clock().AddDate(0, 1, 0).Unix())
	mid := count()
	extendSeries(context.Background(), srv.Calendar, log)
	after := count()
	extendSeries(context.Background(), srv.Calendar, log)
	if after <= mid || count() != after {
		t.Errorf("extendSeries: %d, then %d, then %d occurrences", mid, after, count())
	}
}
