package httpadapter

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func details(y, mo, d, h, mi, s string) map[string]any {
	return map[string]any{"year": y, "month": mo, "day": d, "hour": h, "minutes": mi, "seconds": s}
}

func gid(id int64) string { return fmt.Sprintf("%s?id=%d", testHost, id) }

const (
	site = "http://" + testHost
	rest = site + testNS
)

func expectedVenue(f fixture, withLD bool) map[string]any {
	v := map[string]any{
		"id": float64(f.venue), "author": "3", "status": "publish",
		"date": "2026-11-22 07:00:00", "date_utc": "2026-11-22 12:00:00",
		"modified": "2026-11-22 07:00:00", "modified_utc": "2026-11-22 12:00:00",
		"url": site + "/venue/blue-hall/", "venue": "Blue Hall", "slug": "blue-hall",
		"address": "1 Main St", "city": "Boston", "state": "MA", "zip": "02110", "phone": "555-0100",
		"website": "https://blue.example", "stateprovince": "MA", "geo_lat": 42.36, "geo_lng": -71.06,
		"show_map": true, "show_map_link": true,
		"global_id": gid(f.venue), "global_id_lineage": []any{gid(f.venue)},
	}
	if withLD {
		v["json_ld"] = map[string]any{
			"@context": "http://schema.org", "@type": "Place", "name": "Blue Hall", "url": site + "/venue/blue-hall/",
			"address": map[string]any{"@type": "PostalAddress", "streetAddress": "1 Main St", "addressLocality": "Boston",
				"addressRegion": "MA", "postalCode": "02110"},
			"geo":       map[string]any{"@type": "GeoCoordinates", "latitude": 42.36, "longitude": -71.06},
			"telephone": "555-0100", "sameAs": "https://blue.example",
		}
	}
	return v
}

func expectedOrganizer(f fixture, withLD bool) map[string]any {
	o := map[string]any{
		"id": float64(f.org), "author": "3", "status": "publish",
		"date": "2026-11-22 07:00:00", "date_utc": "2026-11-22 12:00:00",
		"modified": "2026-11-22 07:00:00", "modified_utc": "2026-11-22 12:00:00",
		"url": site + "/organizer/jazz-friends/", "organizer": "Jazz Friends", "slug": "jazz-friends",
		"phone": "555-0199", "website": "https://jazz.example", "email": "hi@jazz.example",
		"global_id": gid(f.org), "global_id_lineage": []any{gid(f.org)},
	}
	if withLD {
		o["json_ld"] = map[string]any{"@context": "http://schema.org", "@type": "Person", "name": "Jazz Friends",
			"url": site + "/organizer/jazz-friends/", "telephone": "555-0199", "email": "hi@jazz.example", "sameAs": "https://jazz.example"}
	}
	return o
}

func expectedEvent(f fixture, withLD bool) map[string]any {
	ev := map[string]any{
		"id": float64(f.event), "global_id": gid(f.event), "global_id_lineage": []any{gid(f.event)},
		"author": "3", "status": "publish",
		"date": "2026-11-22 07:00:00", "date_utc": "2026-11-22 12:00:00",
		"modified": "2026-11-22 07:00:00", "modified_utc": "2026-11-22 12:00:00",
		"url": site + "/event/jazz-night/", "rest_url": fmt.Sprintf("%s/events/%d", rest, f.event),
		"title": "Jazz Night", "description": "<b>Hot</b> & cool", "excerpt": "short", "slug": "jazz-night",
		"image":      map[string]any{"url": "https://img.example/poster.JPG", "id": float64(0), "extension": "jpg"},
		"all_day":    false,
		"start_date": "2026-12-01 20:00:00", "start_date_details": details("2026", "12", "01", "20", "00", "00"),
		"end_date": "2026-12-01 23:00:00", "end_date_details": details("2026", "12", "01", "23", "00", "00"),
		"utc_start_date": "2026-12-02 01:00:00", "utc_start_date_details": details("2026", "12", "02", "01", "00", "00"),
		"utc_end_date": "2026-12-02 04:00:00", "utc_end_date_details": details("2026", "12", "02", "04", "00", "00"),
		"timezone": "America/New_York", "timezone_abbr": "EST",
		"cost": "$10 – $20",
		"cost_details": map[string]any{"currency_symbol": "$", "currency_code": "USD", "currency_position": "prefix",
			"values": []any{"10", "20"}},
		"website": site + "/event/jazz-night/", "show_map": true, "show_map_link": true,
		"hide_from_listings": false, "sticky": false, "featured": true,
		"categories": []any{map[string]any{
			"name": "Jazz", "slug": "jazz", "term_group": float64(0), "term_taxonomy_id": float64(f.jazz),
			"taxonomy": "tribe_events_cat", "description": "", "parent": float64(f.music), "count": float64(1),
			"filter": "raw", "id": float64(f.jazz), "urls": map[string]any{
				"self": fmt.Sprintf("%s/categories/%d", rest, f.jazz), "collection": rest + "/categories",
				"up": fmt.Sprintf("%s/categories/%d", rest, f.music)}}},
		"tags": []any{map[string]any{
			"name": "Live", "slug": "live", "term_group": float64(0), "term_taxonomy_id": float64(f.live),
			"taxonomy": "post_tag", "description": "", "parent": float64(0), "count": float64(1),
			"filter": "raw", "id": float64(f.live), "urls": map[string]any{
				"self": fmt.Sprintf("%s/tags/%d", rest, f.live), "collection": rest + "/tags"}}},
		"venue":      expectedVenue(f, false),
		"organizer":  []any{expectedOrganizer(f, false)},
		"recurrence": []any{},
		"series":     nil,
	}
	if withLD {
		ev["json_ld"] = map[string]any{
			"@context": "http://schema.org", "@type": "Event", "name": "Jazz Night", "description": "<b>Hot</b> & cool",
			"image": "https://img.example/poster.JPG", "url": site + "/event/jazz-night/",
			"startDate": "2026-12-01T20:00:00-05:00", "endDate": "2026-12-01T23:00:00-05:00",
			"location": map[string]any{"@type": "Place", "name": "Blue Hall", "url": site + "/venue/blue-hall/",
				"address": map[string]any{"@type": "PostalAddress", "streetAddress": "1 Main St", "addressLocality": "Boston",
					"addressRegion": "MA", "postalCode": "02110"},
				"geo":       map[string]any{"@type": "GeoCoordinates", "latitude": 42.36, "longitude": -71.06},
				"telephone": "555-0100", "sameAs": "https://blue.example"},
			"organizer": map[string]any{"@type": "Person", "name": "Jazz Friends", "url": site + "/organizer/jazz-friends/",
				"telephone": "555-0199", "email": "hi@jazz.example", "sameAs": "https://jazz.example"},
			"offers": map[string]any{"@type": "Offer", "price": "10", "priceCurrency": "USD", "url": site + "/event/jazz-night/"},
		}
	}
	return ev
}

// eventKeyOrder is the field order of wire §3.
var eventKeyOrder = []string{"id", "global_id", "global_id_lineage", "author", "status", "date", "date_utc",
	"modified", "modified_utc", "url", "rest_url", "title", "description", "excerpt", "slug", "image", "all_day",
	"start_date", "start_date_details", "end_date", "end_date_details", "utc_start_date", "utc_start_date_details",
	"utc_end_date", "utc_end_date_details", "timezone", "timezone_abbr", "cost", "cost_details", "website",
	"show_map", "show_map_link", "hide_from_listings", "sticky", "featured", "categories", "tags", "venue",
	"organizer", "recurrence", "series", "json_ld"}

func TestEventRepresentation(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	r := e.do("GET", fmt.Sprintf("%s/events/%d", testNS, f.event), nil).must(t, 200)
	if diff := cmp.Diff(expectedEvent(f, true), r.JSON); diff != "" {
		t.Errorf("single event (-want +got):\n%s", diff)
	}
	if got := topLevelKeys(t, r.Raw); !cmp.Equal(got, eventKeyOrder) {
		t.Errorf("key order:\n got %v\nwant %v", got, eventKeyOrder)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=UTF-8" {
		t.Errorf("Content-Type %q", ct)
	}
	// In a list: the same without json_ld.
	l := e.do("GET", testNS+"/events", nil).must(t, 200)
	evs := l.obj()["events"].([]any)
	if diff := cmp.Diff([]any{expectedEvent(f, false)}, evs); diff != "" {
		t.Errorf("listed event (-want +got):\n%s", diff)
	}
}

func TestVenueAndOrganizerRepresentation(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	r := e.do("GET", fmt.Sprintf("%s/venues/%d", testNS, f.venue), nil).must(t, 200)
	if diff := cmp.Diff(expectedVenue(f, true), r.JSON); diff != "" {
		t.Errorf("venue (-want +got):\n%s", diff)
	}
	wantOrder := []string{"id", "author", "status", "date", "date_utc", "modified", "modified_utc", "url", "venue", "slug",
		"address", "city", "state", "zip", "phone", "website", "stateprovince", "geo_lat", "geo_lng", "show_map",
		"show_map_link", "global_id", "global_id_lineage", "json_ld"}
	if got := topLevelKeys(t, r.Raw); !cmp.Equal(got, wantOrder) {
		t.Errorf("venue key order:\n got %v\nwant %v", got, wantOrder)
	}
	r = e.do("GET", testNS+"/organizers/by-slug/jazz-friends", nil).must(t, 200)
	if diff := cmp.Diff(expectedOrganizer(f, true), r.JSON); diff != "" {
		t.Errorf("organizer (-want +got):\n%s", diff)
	}
}

func TestTermRepresentation(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	r := e.do("GET", fmt.Sprintf("%s/categories/%d", testNS, f.jazz), nil).must(t, 200)
	want := map[string]any{"id": float64(f.jazz), "count": float64(1), "description": "", "name": "Jazz", "slug": "jazz",
		"taxonomy": "tribe_events_cat", "parent": float64(f.music), "meta": []any{}, "url": site + "/events/category/jazz/",
		"urls": map[string]any{"self": fmt.Sprintf("%s/categories/%d", rest, f.jazz), "collection": rest + "/categories",
			"up": fmt.Sprintf("%s/categories/%d", rest, f.music)}}
	if diff := cmp.Diff(want, r.JSON); diff != "" {
		t.Errorf("category (-want +got):\n%s", diff)
	}
	if got, wantKeys := topLevelKeys(t, r.Raw), []string{"id", "count", "description", "name", "slug", "taxonomy", "parent", "meta", "url", "urls"}; !cmp.Equal(got, wantKeys) {
		t.Errorf("category key order %v", got)
	}
	r = e.do("GET", fmt.Sprintf("%s/tags/%d", testNS, f.live), nil).must(t, 200)
	want = map[string]any{"id": float64(f.live), "count": float64(1), "description": "", "name": "Live", "slug": "live",
		"taxonomy": "post_tag", "meta": []any{}, "url": site + "/events/tag/live/",
		"urls": map[string]any{"self": fmt.Sprintf("%s/tags/%d", rest, f.live), "collection": rest + "/tags"}}
	if diff := cmp.Diff(want, r.JSON); diff != "" {
		t.Errorf("tag (-want +got):\n%s", diff)
	}
}
