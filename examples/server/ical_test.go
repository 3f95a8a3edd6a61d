package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDemoFeed: the -demo data is in the iCalendar feed of the running
// server, and a category filter narrows it like the JSON list does.
func TestDemoFeed(t *testing.T) {
	base, _ := start(t, config{Store: "mem", Demo: true, TimeZone: "America/New_York",
		Now: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }})
	get := func(path string) (*http.Response, string) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, string(b)
	}
	res, feed := get("/wp-json/tribe/events/v1/events.ics")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/calendar; charset=utf-8" || res.Header.Get("ETag") == "" {
		t.Fatalf("%d %v", res.StatusCode, res.Header)
	}
	_, list := getJSON(t, mustReq(t, "GET", base+"/wp-json/tribe/events/v1/events?per_page=50&ends_after=-31%20days", ""))
	events := list["events"].([]any)
	if list["total"].(float64) != float64(len(events)) {
		t.Fatalf("the demo outgrew one page of 50 (%v events): read every page", list["total"])
	}
	// One VEVENT per single event; a series once, plus one per detached
	// occurrence (under the series' UID).
	wantVEVENTs := vevents(events)
	if len(events) == 0 || strings.Count(feed, "BEGIN:VEVENT") != wantVEVENTs {
		t.Fatalf("feed has %d VEVENTs, the list %d events making %d VEVENTs", strings.Count(feed, "BEGIN:VEVENT"), len(events), wantVEVENTs)
	}
	unfolded := strings.ReplaceAll(feed, "\r\n ", "")
	for _, ev := range events {
		e := ev.(map[string]any)
		uid := e["global_id"].(string)
		if s, ok := e["series"].(map[string]any); ok {
			uid = strings.TrimSuffix(uid, fmt.Sprint(e["id"])) + fmt.Sprint(s["id"])
		}
		if !strings.Contains(unfolded, "\r\nUID:"+uid+"\r\n") {
			t.Errorf("event %v (%v) not in the feed", e["id"], e["title"])
		}
	}
	_, jazz := get("/wp-json/tribe/events/v1/events.ics?categories=jazz")
	_, jazzList := getJSON(t, mustReq(t, "GET", base+"/wp-json/tribe/events/v1/events?per_page=50&ends_after=-31%20days&categories=jazz", ""))
	if n := strings.Count(jazz, "BEGIN:VEVENT"); n == 0 || n != vevents(jazzList["events"].([]any)) || n >= len(events) {
		t.Errorf("categories=jazz: %d VEVENTs of %d", n, len(events))
	}
	if !strings.Contains(feed, "X-WR-TIMEZONE:America/New_York\r\n") || !strings.Contains(feed, "BEGIN:VTIMEZONE\r\n") {
		t.Error("feed header")
	}
}

// vevents is how many VEVENTs the feed of a JSON list holds: one per single
// event, one per series, one per detached occurrence.
func vevents(events []any) int {
	n, series := 0, map[float64]bool{}
	for _, ev := range events {
		s, ok := ev.(map[string]any)["series"].(map[string]any)
		switch {
		case !ok:
			n++
		case !series[s["id"].(float64)]:
			series[s["id"].(float64)] = true
			n++
			if s["detached"].(bool) {
				n++
			}
		case s["detached"].(bool):
			n++
		}
	}
	return n
}
