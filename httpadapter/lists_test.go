package httpadapter

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
)

func TestEventListEnvelopeAndPaging(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 20; i++ {
		e.mkEvent(idAuthor, fmt.Sprintf("Gig %02d", i), fmt.Sprintf("2026-12-%02d 20:00", i+1), "")
	}
	r := e.do("GET", testNS+"/events?per_page=7&search=gig&page=2&featured=0&status[]=publish", nil).must(t, 200)
	if got := topLevelKeys(t, r.Raw); !cmp.Equal(got, []string{"events", "rest_url", "next_rest_url", "previous_rest_url", "total", "total_pages"}) {
		t.Errorf("keys %v", got)
	}
	m := r.obj()
	if m["total"] != float64(20) || m["total_pages"] != float64(3) || len(m["events"].([]any)) != 7 {
		t.Fatalf("total %v pages %v n %d", m["total"], m["total_pages"], len(m["events"].([]any)))
	}
	mk := func(page int) string {
		v := url.Values{"per_page": {"7"}, "search": {"gig"}, "page": {fmt.Sprint(page)}, "featured": {"0"}, "status[]": {"publish"}}
		return rest + "/events?" + v.Encode()
	}
	if m["rest_url"] != mk(2) || m["next_rest_url"] != mk(3) || m["previous_rest_url"] != mk(1) {
		t.Errorf("urls:\n%v\n%v\n%v", m["rest_url"], m["next_rest_url"], m["previous_rest_url"])
	}
	if r.Header.Get("X-TEC-Total") != "20" || r.Header.Get("X-TEC-TotalPages") != "3" {
		t.Errorf("headers %v", r.Header)
	}
	if want := fmt.Sprintf(`<%s>; rel="next", <%s>; rel="prev"`, mk(3), mk(1)); r.Header.Get("Link") != want {
		t.Errorf("Link %q\nwant %q", r.Header.Get("Link"), want)
	}
	// Following next pages visits every event once, in start order.
	seen := map[any]bool{}
	var last string
	next := testNS + "/events?per_page=7&search=gig&featured=0"
	for next != "" {
		r := e.do("GET", next, nil).must(t, 200)
		for _, ev := range r.obj()["events"].([]any) {
			ev := ev.(map[string]any)
			if seen[ev["id"]] || ev["utc_start_date"].(string) < last {
				t.Errorf("repeat or out of order: %v", ev["id"])
			}
			seen[ev["id"]], last = true, ev["utc_start_date"].(string)
		}
		n, _ := r.obj()["next_rest_url"].(string)
		next = strings.TrimPrefix(n, site)
	}
	if len(seen) != 20 {
		t.Errorf("visited %d events", len(seen))
	}
	// Page 1: no previous; last page: no next.
	r = e.do("GET", testNS+"/events?per_page=7", nil).must(t, 200)
	if _, ok := r.obj()["previous_rest_url"]; ok {
		t.Error("previous on page 1")
	}
	r = e.do("GET", testNS+"/events?per_page=7&page=3", nil).must(t, 200)
	if _, ok := r.obj()["next_rest_url"]; ok {
		t.Error("next on the last page")
	}
	// Past the end: 404 for posts.
	r = e.do("GET", testNS+"/events?per_page=7&page=4", nil).must(t, 404)
	if r.errCode() != "event-archive-page-not-found" {
		t.Errorf("past the end: %s", r.Raw)
	}
	// per_page above the maximum is clamped and the rest_url says so.
	r = e.do("GET", testNS+"/events?per_page=500", nil).must(t, 200)
	if !strings.Contains(r.obj()["rest_url"].(string), "per_page=50") || len(r.obj()["events"].([]any)) != 20 {
		t.Errorf("clamp: %v", r.obj()["rest_url"])
	}
	// Default per_page is 9.
	r = e.do("GET", testNS+"/events", nil).must(t, 200)
	if len(r.obj()["events"].([]any)) != 9 || r.obj()["total_pages"] != float64(3) {
		t.Errorf("default page size")
	}
}

func TestEmptyLists(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ coll, code string }{
		{"events", "event-archive-page-not-found"}, {"venues", "venue-archive-page-not-found"},
		{"organizers", "organizer-archive-page-not-found"}, {"categories", ""}, {"tags", ""},
	} {
		r := e.do("GET", testNS+"/"+c.coll, nil).must(t, 200)
		if fmt.Sprint(r.obj()[c.coll]) != "[]" || r.obj()["total"] != float64(0) || r.obj()["total_pages"] != float64(0) {
			t.Errorf("%s empty page 1: %s", c.coll, r.Raw)
		}
		r = e.do("GET", testNS+"/"+c.coll+"?page=2", nil)
		if c.code == "" {
			if r.Code != 200 || fmt.Sprint(r.obj()[c.coll]) != "[]" {
				t.Errorf("%s page 2: %d %s", c.coll, r.Code, r.Raw)
			}
			continue
		}
		if r.Code != 404 || r.errCode() != c.code {
			t.Errorf("%s page 2: %d %s", c.coll, r.Code, r.Raw)
		}
	}
}

func TestTermListEnvelope(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	for _, n := range []string{"Alpha", "Beta", "Gamma"} {
		must[*calendar.Term](t)(e.cal.CreateTerm(as(idAdmin), calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some(n)}, calendar.WriteOptions{}))
	}
	r := e.do("GET", testNS+"/categories?hide_empty=false&per_page=2&page=2&orderby=name", nil).must(t, 200)
	if got := topLevelKeys(t, r.Raw); !cmp.Equal(got, []string{"rest_url", "total", "total_pages", "categories", "next_rest_url", "previous_rest_url"}) {
		t.Errorf("keys %v", got)
	}
	var names []any
	for _, c := range r.obj()["categories"].([]any) {
		names = append(names, c.(map[string]any)["name"])
	}
	if diff := cmp.Diff([]any{"Gamma", "Jazz"}, names); diff != "" || r.obj()["total"] != float64(5) {
		t.Errorf("page 2 of names: %s total %v", diff, r.obj()["total"])
	}
	// hide_empty defaults to true: only used terms.
	r = e.do("GET", testNS+"/categories", nil).must(t, 200)
	if r.obj()["total"] != float64(1) {
		t.Errorf("hide_empty default: %s", r.Raw)
	}
	r = e.do("GET", testNS+"/categories?order=sideways", nil).must(t, 400)
	_ = f
}

// TestPageURLsMatchEncode checks the page URLs against url.Values.Encode
// with page and per_page set, for arguments sorting before, between and
// after them, repeated, empty and needing escapes.
func TestPageURLsMatchEncode(t *testing.T) {
	queries := []url.Values{
		{},
		{"page": {"3"}},
		{"per_page": {"7", "8"}, "page": {"x"}},
		{"a": {"1"}, "pa": {""}, "pagf": {"2", "3"}, "password": {"p w"}, "per_pagf": {"&="}, "z": {"é/?"}},
		{"start_date": {"2026-01-01"}, "categories": {"a,b"}},
		{"pag": {"1"}, "page_": {"2"}, "per": {"3"}, "per_page_": {"4"}, "": {"empty key"}},
	}
	for _, q := range queries {
		s := &reqState{query: q, links: links{rest: "http://h/ns"}}
		urls := newPageURLs(s, "/events")
		for _, pp := range [][2]int{{1, 9}, {12, 50}} {
			want := make(url.Values, len(q)+2)
			for k, v := range q {
				want[k] = v
			}
			want.Set("page", strconv.Itoa(pp[0]))
			want.Set("per_page", strconv.Itoa(pp[1]))
			if got, w := urls.url(pp[0], pp[1]), "http://h/ns/events?"+want.Encode(); got != w {
				t.Errorf("query %v page %v:\ngot  %s\nwant %s", q, pp, got, w)
			}
		}
	}
}

// Page URLs keep every other argument of the request, in url.Values.Encode's
// order, whichever side of "page" and "per_page" their names sort on,
// repeated values, escaping and empty values included.
func TestPageURLsMatchValuesEncode(t *testing.T) {
	queries := []url.Values{
		{},
		{"page": {"3"}, "per_page": {"5"}},
		{"a": {"1"}, "pa": {"x"}, "page_x": {"y"}, "pb": {"z"}, "per_pagez": {"w"}, "z": {"q", "r"}},
		{"search": {"jazz & blues"}, "status[]": {"publish", "draft"}, "categories": {"a b", "ü"}},
		{"pag": {""}, "page": {"9"}, "pe": {"1"}, "per": {"2"}, "q": {""}},
	}
	for _, q := range queries {
		s := &reqState{query: q, links: links{rest: "https://example.com/wp-json/tribe/events/v1"}}
		urls := newPageURLs(s, "/events")
		for _, pp := range [][2]int{{1, 10}, {2, 7}, {1 << 20, 50}} {
			want := url.Values{}
			for k, v := range q {
				want[k] = v
			}
			want.Set("page", strconv.Itoa(pp[0]))
			want.Set("per_page", strconv.Itoa(pp[1]))
			if got, w := urls.url(pp[0], pp[1]), s.links.rest+"/events?"+want.Encode(); got != w {
				t.Errorf("query %v, page %v:\n got %s\nwant %s", q, pp, got, w)
			}
		}
	}
}
