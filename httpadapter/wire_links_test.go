package httpadapter

import (
	"net/url"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// json_ld is part of single GETs only: create and update answers match the
// event as it appears in a list (wire §3).
func TestJSONLDOnlyOnSingleGET(t *testing.T) {
	e := newEnv(t)
	created := e.do("POST", testNS+"/events", map[string]any{"title": "LD", "start_date": "2026-12-01 10:00", "end_date": "2026-12-01 11:00",
		"venue": map[string]any{"venue": "Hall"}}, user("admin")).must(t, 201)
	if _, ok := created.obj()["json_ld"]; ok {
		t.Errorf("create answer carries json_ld")
	}
	id := itoa(int64(created.obj()["id"].(float64)))
	if _, ok := e.do("POST", testNS+"/events/"+id, map[string]any{"title": "LD2"}, user("admin")).must(t, 200).obj()["json_ld"]; ok {
		t.Errorf("update answer carries json_ld")
	}
	if _, ok := e.do("GET", testNS+"/events/"+id, nil).must(t, 200).obj()["json_ld"]; !ok {
		t.Errorf("single GET lacks json_ld")
	}
	venue := itoa(int64(created.obj()["venue"].(map[string]any)["id"].(float64)))
	if _, ok := e.do("PATCH", testNS+"/venues/"+venue, map[string]any{"city": "Paris"}, user("admin")).must(t, 200).obj()["json_ld"]; ok {
		t.Errorf("venue update answer carries json_ld")
	}
	if _, ok := e.do("GET", testNS+"/venues/"+venue, nil).must(t, 200).obj()["json_ld"]; !ok {
		t.Errorf("venue single GET lacks json_ld")
	}
}

// The event password unlocks a protected event by slug as by id (domain §4).
func TestBySlugHonoursPassword(t *testing.T) {
	e := newEnv(t)
	e.mkEvent(0, "Secret", "2026-12-01 10:00", "publish", func(in *calendar.EventInput) {
		in.Slug = calendar.Some("secret")
		in.Password = calendar.Some("open sesame")
	})
	if r := e.do("GET", testNS+"/events/by-slug/secret", nil); r.Code != 403 || r.errCode() != "event-password-protected" {
		t.Fatalf("without password: %d %s", r.Code, r.Raw)
	}
	if r := e.do("GET", testNS+"/events/by-slug/secret?password=wrong", nil); r.Code != 403 {
		t.Fatalf("wrong password: %d %s", r.Code, r.Raw)
	}
	r := e.do("GET", testNS+"/events/by-slug/secret?password="+url.QueryEscape("open sesame"), nil).must(t, 200)
	if r.obj()["title"] != "Secret" {
		t.Errorf("unlocked by slug: %v", r.obj()["title"])
	}
}

// Item rest_urls keep the requested translation_language, and page urls are
// valid URIs even for non-ASCII slugs (wire §6).
func TestItemURLsKeepLanguageAndAreURIs(t *testing.T) {
	e := newEnv(t)
	id := e.mkEvent(0, "Tokyo jazz", "2026-12-01 10:00", "publish", func(in *calendar.EventInput) {
		in.Slug = calendar.Some("東京-ジャズ")
	})
	r := e.do("GET", testNS+"/events?translation_language=fr&start_date=2026-11-01", nil).must(t, 200)
	ev := r.obj()["events"].([]any)[0].(map[string]any)
	if want := "http://" + testHost + testNS + "/events/" + itoa(id) + "?translation_language=fr"; ev["rest_url"] != want {
		t.Errorf("rest_url %v, want %s", ev["rest_url"], want)
	}
	u := ev["url"].(string)
	if want := "http://" + testHost + "/event/" + url.PathEscape("東京-ジャズ") + "/"; u != want {
		t.Errorf("url %q, want %q", u, want)
	}
	for _, c := range u {
		if c > 0x7e {
			t.Fatalf("url %q holds non-ASCII text", u)
		}
	}
	if _, err := url.ParseRequestURI(u); err != nil {
		t.Errorf("url %q: %v", u, err)
	}
	// Without the argument, rest_url is the bare record URL.
	r = e.do("GET", testNS+"/events/"+itoa(id), nil).must(t, 200)
	if s := r.obj()["rest_url"].(string); strings.Contains(s, "?") {
		t.Errorf("rest_url without a language: %s", s)
	}
}

// The API root answers a discovery index, and the namespace index's up link
// points at it (wire §1).
func TestDiscoveryRoot(t *testing.T) {
	e := newEnv(t)
	idx := e.do("GET", testNS, nil).must(t, 200)
	up := idx.obj()["_links"].(map[string]any)["up"].([]any)[0].(map[string]any)["href"].(string)
	path := strings.TrimPrefix(up, "http://"+testHost)
	root := e.do("GET", path, nil).must(t, 200)
	ns, _ := root.obj()["namespaces"].([]any)
	if len(ns) != 2 || ns[0] != "calendar/events/v1" || ns[1] != "tribe/events/v1" {
		t.Errorf("namespaces %v", ns)
	}
	routes, _ := root.obj()["routes"].(map[string]any)
	for _, k := range []string{"/calendar/events/v1", "/calendar/events/v1/events", `/tribe/events/v1/events/(?P<id>\d+)`} {
		if _, ok := routes[k]; !ok {
			t.Errorf("routes lack %s", k)
		}
	}
	if root.obj()["name"] == nil {
		t.Errorf("no name: %s", root.Raw)
	}
	for _, p := range []string{"/wp-json", "/fr/wp-json/"} {
		e.do("GET", p, nil).must(t, 200)
	}
	if r := e.do("POST", "/wp-json/", nil); r.Code != 404 || r.errCode() != "rest_no_route" {
		t.Errorf("POST root: %d %s", r.Code, r.Raw)
	}
	if r := e.do("GET", "/xx/wp-json/", nil); r.Code != 404 {
		t.Errorf("unknown language root: %d", r.Code)
	}
}
