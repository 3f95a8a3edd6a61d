package httpadapter

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/url"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
)

// decodeEventQuery runs the list-argument pipeline on a query string.
func decodeEventQuery(t *testing.T, raw string) (calendar.EventQuery, error) {
	t.Helper()
	vals, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	args, err := parseFormValues(vals)
	if err != nil {
		return calendar.EventQuery{}, err
	}
	var v calendar.Validation
	q := readEventQuery(args, &v)
	return q, v.Err()
}

func TestArraysInEveryForm(t *testing.T) {
	want := calendar.EventQuery{Venue: []int64{3, 5}, Categories: []string{"jazz", "7"}}
	for _, raw := range []string{
		"venue=3,5&categories=jazz,7",
		"venue=3&venue=5&categories=jazz&categories=7",
		"venue[]=3&venue[]=5&categories[]=jazz&categories[]=7",
		"venue[1]=5&venue[0]=3&categories[0]=jazz&categories[1]=7",
		"venue=%203%20,,5,&categories=jazz,%207",
	} {
		q, err := decodeEventQuery(t, raw)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if diff := cmp.Diff(want, q); diff != "" {
			t.Errorf("%s (-want +got):\n%s", raw, diff)
		}
	}
	// JSON arrays (a DELETE or override body can carry list-like arguments).
	args, err := decodeJSONBody([]byte(`{"venue":[3,"5"],"categories":["jazz",7]}`))
	if err != nil {
		t.Fatal(err)
	}
	var v calendar.Validation
	q := readEventQuery(args, &v)
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, q); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
}

func TestBooleansAndIntegers(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want calendar.EventQuery
		bad  []string
	}{
		{"featured=TRUE&strict_dates=yes&geoloc=0", calendar.EventQuery{Featured: ptr(true), StrictDates: true, Geoloc: ptr(false)}, nil},
		{"featured=1&strict_dates=On", calendar.EventQuery{Featured: ptr(true), StrictDates: true}, nil},
		{"strict_dates=off&featured=False", calendar.EventQuery{Featured: ptr(false)}, nil},
		{"featured=yes", calendar.EventQuery{}, []string{"featured"}}, // yes/no only for the three loose ones
		{"page=2&per_page=20&post_parent=9", calendar.EventQuery{Page: 2, PerPage: 20, PostParent: 9}, nil},
		{"page=%2B2&per_page=1e2&post_parent=-9", calendar.EventQuery{}, []string{"page", "per_page", "post_parent"}},
		{"page=0", calendar.EventQuery{}, []string{"page"}},
		{"page=99999999999999999999", calendar.EventQuery{}, []string{"page"}},
		{"per_page=99999999999999999999", calendar.EventQuery{}, []string{"per_page"}},           // beyond int64: no integer
		{"per_page=9223372036854775807", calendar.EventQuery{PerPage: 9223372036854775807}, nil}, // clamped by the calendar
		{"page=%201&per_page=5%20", calendar.EventQuery{}, []string{"page", "per_page"}},         // integers take no spaces
		{"geoloc_lat=NaN&geoloc_lng=Inf", calendar.EventQuery{}, []string{"geoloc_lat", "geoloc_lng"}},
		{"geoloc_lat=40.5&geoloc_lng=-73", calendar.EventQuery{GeolocLat: ptr(40.5), GeolocLng: ptr(-73.0)}, nil},
		{"featured=&page=", calendar.EventQuery{}, []string{"featured", "page"}}, // an empty typed argument is bad input
		{"unknown=1&search=a,b", calendar.EventQuery{Search: "a,b"}, nil},
	} {
		q, err := decodeEventQuery(t, c.raw)
		if c.bad != nil {
			ce, ok := err.(*calendar.Error)
			if !ok {
				t.Errorf("%s: want invalid params %v, got %v", c.raw, c.bad, err)
				continue
			}
			var names []string
			for k := range ce.Params {
				names = append(names, k)
			}
			if diff := cmp.Diff(c.bad, sortStrings(names)); diff != "" || ce.Reason != "rest_invalid_param" {
				t.Errorf("%s: %s %s", c.raw, ce.Reason, diff)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.raw, err)
			continue
		}
		if diff := cmp.Diff(c.want, q); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.raw, diff)
		}
	}
}

func TestVenueListLooseBooleans(t *testing.T) {
	var v calendar.Validation
	q := readVenueQuery(map[string]any{"has_events": "no", "only_with_upcoming": "YES", "status": "publish,draft"}, &v)
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	want := calendar.VenueQuery{HasEvents: ptr(false), OnlyWithUpcoming: true, Status: []string{"publish", "draft"}}
	if diff := cmp.Diff(want, q); diff != "" {
		t.Error(diff)
	}
}

// TestWriteBodies sends the same event in JSON, urlencoded and multipart
// bodies and in the query string, and checks the stored result is the same.
func TestWriteBodies(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	venueObj := map[string]any{"venue": "Green Room", "city": "Salem", "geo_lat": "42.5", "geo_lng": -70.9}
	jsonBody := map[string]any{"title": "Body Test", "start_date": "2026-12-10 19:00", "end_date": "2026-12-10 21:00",
		"categories": []any{f.jazz, "Blues"}, "tags": "live,brand-new", "venue": []any{venueObj, map[string]any{"id": f.venue}},
		"organizer": fmt.Sprint(f.org), "cost": []any{"10", 25}, "all_day": false, "featured": "1"}
	form := url.Values{
		"title": {"Body Test"}, "start_date": {"2026-12-10 19:00"}, "end_date": {"2026-12-10 21:00"},
		"categories[]": {fmt.Sprint(f.jazz), "Blues"}, "tags": {"live", "brand-new"},
		"venue[0][venue]": {"Green Room"}, "venue[0][city]": {"Salem"}, "venue[0][geo_lat]": {"42.5"}, "venue[0][geo_lng]": {"-70.9"},
		"venue[1][id]": {fmt.Sprint(f.venue)}, "organizer[0]": {fmt.Sprint(f.org)}, "cost[]": {"10", "25"},
		"all_day": {"0"}, "featured": {"true"},
	}
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	for k, vs := range form {
		for _, v := range vs {
			mw.WriteField(k, v)
		}
	}
	mw.Close()

	var results []map[string]any
	for i, send := range []func() *resp{
		func() *resp { return e.do("POST", testNS+"/events", jsonBody, user("admin")) },
		func() *resp {
			return e.do("POST", testNS+"/events", form.Encode(), user("admin"), header("Content-Type", "application/x-www-form-urlencoded"))
		},
		func() *resp {
			return e.do("POST", testNS+"/events", mp.Bytes(), user("admin"), header("Content-Type", mw.FormDataContentType()))
		},
		func() *resp { return e.do("POST", testNS+"/events?"+form.Encode(), nil, user("admin")) },
	} {
		r := send().must(t, 201)
		m := r.obj()
		// Normalise what differs between records: ids, slugs, urls.
		for _, k := range []string{"id", "global_id", "global_id_lineage", "slug", "url", "rest_url", "website", "json_ld"} {
			delete(m, k)
		}
		for _, tax := range []string{"categories", "tags"} {
			for _, term := range m[tax].([]any) {
				delete(term.(map[string]any), "count") // grows with every create
			}
		}
		results = append(results, m)
		if i > 0 {
			if diff := cmp.Diff(results[0], m); diff != "" {
				t.Errorf("body form %d differs from JSON (-json +got):\n%s", i, diff)
			}
		}
	}
	got := results[0]
	if got["cost"] != "10 – 25" || got["featured"] != true {
		t.Errorf("cost %v featured %v", got["cost"], got["featured"])
	}
	venues := got["venue"].([]any)
	if len(venues) != 2 || venues[0].(map[string]any)["venue"] != "Green Room" || venues[1].(map[string]any)["venue"] != "Blue Hall" {
		t.Errorf("venues %v", venues)
	}
	var cats []any
	for _, c := range got["categories"].([]any) {
		cats = append(cats, c.(map[string]any)["name"])
	}
	if diff := cmp.Diff([]any{"Jazz", "Blues"}, cats); diff != "" {
		t.Errorf("categories %s", diff)
	}
}

func TestArgumentPrecedence(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	// JSON body over query string.
	r := e.do("PATCH", fmt.Sprintf("%s/events/%d?title=FromQuery&excerpt=q", testNS, f.event), map[string]any{"title": "FromJSON"}, user("admin")).must(t, 200)
	if r.obj()["title"] != "FromJSON" || r.obj()["excerpt"] != "q" {
		t.Errorf("title %v excerpt %v", r.obj()["title"], r.obj()["excerpt"])
	}
	// Form body over query string.
	r = e.do("PATCH", fmt.Sprintf("%s/events/%d?title=FromQuery", testNS, f.event), "title=FromForm", user("admin"),
		header("Content-Type", "application/x-www-form-urlencoded")).must(t, 200)
	if r.obj()["title"] != "FromForm" {
		t.Errorf("title %v", r.obj()["title"])
	}
	// Path values win over an id in the body.
	r = e.do("PATCH", fmt.Sprintf("%s/events/%d", testNS, f.event), map[string]any{"id": f.venue, "excerpt": "path wins"}, user("admin")).must(t, 200)
	if r.obj()["id"] != float64(f.event) {
		t.Errorf("id %v", r.obj()["id"])
	}
	// By-slug routes: the slug names the record; it is not renamed.
	r = e.do("PATCH", testNS+"/events/by-slug/jazz-night", map[string]any{"slug": "other", "excerpt": "x"}, user("admin")).must(t, 200)
	if r.obj()["slug"] != "jazz-night" {
		t.Errorf("slug %v", r.obj()["slug"])
	}
	// Nulls and empty values clear.
	r = e.do("PATCH", fmt.Sprintf("%s/events/%d", testNS, f.event), map[string]any{"excerpt": nil, "cost": nil, "image": false, "venue": []any{}}, user("admin")).must(t, 200)
	if r.obj()["excerpt"] != "" || r.obj()["cost"] != "" || r.obj()["image"] != false || fmt.Sprint(r.obj()["venue"]) != "[]" {
		t.Errorf("cleared: excerpt %v cost %v image %v venue %v", r.obj()["excerpt"], r.obj()["cost"], r.obj()["image"], r.obj()["venue"])
	}
}
