package httpadapter

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEveryRouteAndMethod drives each route of the table with each of its
// methods through the handler, on both namespaces.
func TestEveryRouteAndMethod(t *testing.T) {
	for _, ns := range []string{"/wp-json/calendar/events/v1", "/wp-json/tribe/events/v1"} {
		t.Run(ns, func(t *testing.T) {
			e := newEnv(t)
			f := e.fixture()
			id := func(p string, n int64) string { return fmt.Sprintf("%s%s/%d", ns, p, n) }
			type step struct {
				method, path string
				body         any
				who          string
				want         int
			}
			steps := []step{
				{"GET", ns, nil, "", 200},
				{"GET", ns + "/doc", nil, "", 200},
				{"GET", ns + "/events", nil, "", 200},
				{"POST", ns + "/events", map[string]any{"title": "New", "start_date": "2026-12-05 10:00", "end_date": "2026-12-05 11:00"}, "admin", 201},
				{"GET", id("/events", f.event), nil, "", 200},
				{"GET", ns + "/events/by-slug/jazz-night", nil, "", 200},
				{"POST", id("/events", f.event), map[string]any{"excerpt": "a"}, "admin", 200},
				{"PUT", id("/events", f.event), map[string]any{"excerpt": "b"}, "admin", 200},
				{"PATCH", id("/events", f.event), map[string]any{"excerpt": "c"}, "admin", 200},
				{"POST", ns + "/events/by-slug/jazz-night", map[string]any{"excerpt": "d"}, "admin", 200},
				{"PUT", ns + "/events/by-slug/jazz-night", map[string]any{"excerpt": "e"}, "admin", 200},
				{"PATCH", ns + "/events/by-slug/jazz-night", map[string]any{"excerpt": "f"}, "admin", 200},
				{"GET", ns + "/venues", nil, "", 200},
				{"POST", ns + "/venues", map[string]any{"venue": "Red Hall"}, "admin", 201},
				{"GET", id("/venues", f.venue), nil, "", 200},
				{"GET", ns + "/venues/by-slug/blue-hall", nil, "", 200},
				{"POST", id("/venues", f.venue), map[string]any{"city": "A"}, "admin", 200},
				{"PUT", id("/venues", f.venue), map[string]any{"city": "B"}, "admin", 200},
				{"PATCH", id("/venues", f.venue), map[string]any{"city": "C"}, "admin", 200},
				{"POST", ns + "/venues/by-slug/blue-hall", map[string]any{"city": "D"}, "admin", 200},
				{"PUT", ns + "/venues/by-slug/blue-hall", map[string]any{"city": "E"}, "admin", 200},
				{"PATCH", ns + "/venues/by-slug/blue-hall", map[string]any{"city": "F"}, "admin", 200},
				{"GET", ns + "/organizers", nil, "", 200},
				{"POST", ns + "/organizers", map[string]any{"organizer": "Org Two"}, "admin", 201},
				{"GET", id("/organizers", f.org), nil, "", 200},
				{"GET", ns + "/organizers/by-slug/jazz-friends", nil, "", 200},
				{"POST", id("/organizers", f.org), map[string]any{"phone": "1"}, "admin", 200},
				{"PUT", id("/organizers", f.org), map[string]any{"phone": "2"}, "admin", 200},
				{"PATCH", id("/organizers", f.org), map[string]any{"phone": "3"}, "admin", 200},
				{"POST", ns + "/organizers/by-slug/jazz-friends", map[string]any{"phone": "4"}, "admin", 200},
				{"PUT", ns + "/organizers/by-slug/jazz-friends", map[string]any{"phone": "5"}, "admin", 200},
				{"PATCH", ns + "/organizers/by-slug/jazz-friends", map[string]any{"phone": "6"}, "admin", 200},
				{"GET", ns + "/categories", nil, "", 200},
				{"POST", ns + "/categories", map[string]any{"name": "Blues", "parent": f.music}, "admin", 201},
				{"GET", id("/categories", f.jazz), nil, "", 200},
				{"POST", id("/categories", f.jazz), map[string]any{"description": "x"}, "admin", 200},
				{"PUT", id("/categories", f.jazz), map[string]any{"description": "y"}, "admin", 200},
				{"PATCH", id("/categories", f.jazz), map[string]any{"description": "z"}, "admin", 200},
				{"GET", ns + "/tags", nil, "", 200},
				{"POST", ns + "/tags", map[string]any{"name": "Indoor"}, "admin", 201},
				{"GET", id("/tags", f.live), nil, "", 200},
				{"POST", id("/tags", f.live), map[string]any{"description": "x"}, "admin", 200},
				{"PUT", id("/tags", f.live), map[string]any{"description": "y"}, "admin", 200},
				{"PATCH", id("/tags", f.live), map[string]any{"description": "z"}, "admin", 200},
				// Deletes last: trash, then the by-slug forms, then terms.
				{"DELETE", id("/events", f.event), nil, "admin", 200},
				{"DELETE", id("/events", f.event), nil, "admin", 410},
				{"DELETE", ns + "/venues/by-slug/blue-hall", nil, "admin", 200},
				{"DELETE", id("/venues", f.venue), nil, "admin", 410},
				{"DELETE", id("/organizers", f.org), nil, "admin", 200},
				{"DELETE", ns + "/organizers/by-slug/jazz-friends", nil, "admin", 410},
				{"DELETE", ns + "/events/by-slug/new", map[string]any{"force": true}, "admin", 200},
				{"DELETE", id("/categories", f.jazz), nil, "admin", 200},
				{"DELETE", id("/tags", f.live), nil, "admin", 200},
				{"GET", id("/categories", f.jazz), nil, "", 400},
			}
			for _, s := range steps {
				var opts []reqOpt
				if s.who != "" {
					opts = append(opts, user(s.who))
				}
				r := e.do(s.method, s.path, s.body, opts...)
				if r.Code != s.want {
					t.Errorf("%s %s: %d, want %d: %s", s.method, s.path, r.Code, s.want, r.Raw)
					continue
				}
				if s.want == 201 {
					loc := r.Header.Get("Location")
					if !strings.HasPrefix(loc, site+ns+"/") || !strings.HasSuffix(loc, fmt.Sprint(r.obj()["id"])) {
						t.Errorf("%s %s: Location %q", s.method, s.path, loc)
					}
				}
				if ru, ok := r.obj()["rest_url"].(string); ok && !strings.HasPrefix(ru, site+ns+"/") {
					t.Errorf("%s %s: rest_url %v does not use the request's namespace", s.method, s.path, r.obj()["rest_url"])
				}
			}
		})
	}
}

func TestUpdateMethodsChangeTheRecord(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	for _, m := range []string{"POST", "PUT", "PATCH"} {
		r := e.do(m, fmt.Sprintf("%s/events/%d", testNS, f.event), map[string]any{"title": "T " + m}, user("admin")).must(t, 200)
		got, err := e.cal.GetEvent(as(idAdmin), refID(f.event), readOpts())
		if err != nil || got.Title != "T "+m || r.obj()["title"] != "T "+m {
			t.Errorf("%s: stored %q, answered %v (%v)", m, got.Title, r.obj()["title"], err)
		}
	}
}

func TestNoRoute(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	for _, c := range []struct{ method, path string }{
		{"GET", testNS + "/nothing"},
		{"PUT", testNS + "/events"},
		{"DELETE", testNS + "/events"},
		{"GET", testNS + "/events/12abc"},
		{"GET", testNS + "/events/by-slug"},
		{"GET", testNS + "/events/by-slug/"},
		{"GET", testNS + "/categories/by-slug/music"},
		{"POST", testNS + "/doc"},
		{"GET", "/wp-json/other/v1/events"},
		{"GET", "/xx/wp-json/calendar/events/v1/events"}, // unknown language segment
		{"GET", "/wp-json/calendar/events/v1x/events"},
		{"GET", testNS + "//events"},
		{"GET", testNS + "/events/../venues"},
		{"TRACE", fmt.Sprintf("%s/events/%d", testNS, f.event)},
	} {
		r := e.do(c.method, c.path, nil)
		if r.Code != 404 || r.errCode() != "rest_no_route" {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.Code, r.Raw)
			continue
		}
		msg, _ := r.obj()["message"].(string)
		if !strings.Contains(msg, c.method) || !strings.Contains(msg, "/wp-json/") {
			t.Errorf("%s %s: message %q does not name method and path", c.method, c.path, msg)
		}
		if diff := cmp.Diff(map[string]any{"status": float64(404)}, r.obj()["data"]); diff != "" {
			t.Errorf("data: %s", diff)
		}
	}
}

func TestTrailingSlashHeadAndLanguage(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	if _, err := e.cal.UpdateEvent(as(idAuthor), refID(f.event), evTitle("Soirée jazz"), writeLang("fr")); err != nil {
		t.Fatal(err)
	}
	a := e.do("GET", testNS+"/events", nil).must(t, 200)
	b := e.do("GET", testNS+"/events/", nil).must(t, 200)
	if a.Raw != b.Raw {
		t.Errorf("trailing slash changes the answer")
	}
	e.do("GET", fmt.Sprintf("%s/events/%d/", testNS, f.event), nil).must(t, 200)
	h := e.do("HEAD", fmt.Sprintf("%s/events/%d", testNS, f.event), nil).must(t, 200)
	if h.Header.Get("ETag") == "" {
		t.Error("HEAD without ETag")
	}
	e.do("HEAD", testNS+"/events", nil).must(t, 200)
	// Language: segment, argument, and the argument winning over the segment.
	title := func(r *resp) any { return r.obj()["title"] }
	p := fmt.Sprintf("/wp-json/calendar/events/v1/events/%d", f.event)
	if got := title(e.do("GET", "/fr"+p, nil).must(t, 200)); got != "Soirée jazz" {
		t.Errorf("segment fr: %v", got)
	}
	if got := title(e.do("GET", p+"?translation_language=fr", nil).must(t, 200)); got != "Soirée jazz" {
		t.Errorf("argument fr: %v", got)
	}
	if got := title(e.do("GET", "/fr"+p+"?translation_language=en", nil).must(t, 200)); got != "Jazz Night" {
		t.Errorf("argument en over segment fr: %v", got)
	}
	r := e.do("GET", "/fr"+p, nil)
	if ru := r.obj()["rest_url"]; ru != site+"/fr"+p {
		t.Errorf("rest_url keeps the language segment: %v", ru)
	}
	r = e.do("GET", p+"?translation_language=xx", nil).must(t, 400)
	if r.errCode() != "rest_invalid_param" || r.obj()["data"].(map[string]any)["params"].(map[string]any)["translation_language"] == nil {
		t.Errorf("bad language: %s", r.Raw)
	}
	// Writing through a language segment writes that language.
	e.do("PATCH", "/de"+p, map[string]any{"title": "Jazzabend"}, user("admin")).must(t, 200)
	if got := title(e.do("GET", p+"?translation_language=de", nil)); got != "Jazzabend" {
		t.Errorf("de after write: %v", got)
	}
	if got := title(e.do("GET", p, nil)); got != "Jazz Night" {
		t.Errorf("en after de write: %v", got)
	}
}

func TestMethodOverride(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	p := fmt.Sprintf("%s/events/%d", testNS, f.event)
	r := e.do("POST", p, nil, user("admin"), header("X-HTTP-Method-Override", "DELETE")).must(t, 200)
	if r.obj()["status"] != "trash" {
		t.Errorf("override DELETE did not trash: %v", r.obj()["status"])
	}
	r = e.do("POST", p+"?_method=delete", nil, user("admin")).must(t, 410)
	if r.errCode() != "event-is-in-trash" {
		t.Errorf("_method=delete on trashed: %s", r.Raw)
	}
	// Override is only honoured on POST.
	e.do("GET", p+"?_method=DELETE", nil, user("admin")).must(t, 200)
	got, _ := e.cal.GetEvent(as(idAdmin), refID(f.event), readOpts())
	if got.Status != "trash" {
		t.Errorf("status %s", got.Status)
	}
}

func TestMountedBehindStripPrefix(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	h := New(e.cal) // no root: paths start at the namespace
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", h))
	e.h = nil
	r := doHandler(t, mux, "GET", fmt.Sprintf("/api/calendar/events/v1/events/%d", f.event))
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Raw)
	}
	if got := r.obj()["rest_url"]; got != fmt.Sprintf("%s/api/calendar/events/v1/events/%d", site, f.event) {
		t.Errorf("rest_url %v", got)
	}
}
