package httpadapter

import (
	"net/http"
	"strings"
	"testing"
)

// badArg checks a 400 rest_invalid_param naming arg.
func badArg(t *testing.T, r *resp, arg, what string) {
	t.Helper()
	if r.Code != 400 || r.errCode() != "rest_invalid_param" {
		t.Errorf("%s: %d %s, want 400 rest_invalid_param", what, r.Code, r.Raw)
		return
	}
	data, _ := r.obj()["data"].(map[string]any)
	params, _ := data["params"].(map[string]any)
	msg, ok := params[arg].(string)
	if !ok {
		t.Errorf("%s: data.params lacks %s: %s", what, arg, r.Raw)
		return
	}
	if strings.Count(msg, arg+":") > 0 {
		t.Errorf("%s: message repeats the argument name: %q", what, msg)
	}
}

// Empty values of typed or enumerated arguments are bad input, not "not
// given" (wire §2).
func TestEmptyValuesAreInvalid(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	for _, c := range []struct{ path, arg string }{
		{"/categories?order=", "order"},
		{"/categories?orderby=", "orderby"},
		{"/categories?parent=", "parent"},
		{"/categories?post=", "post"},
		{"/categories?event=", "event"},
		{"/categories?slug=", "slug"},
		{"/tags?slug=", "slug"},
		{"/tags?order=", "order"},
		{"/events?featured=", "featured"},
		{"/venues?event=", "event"},
	} {
		badArg(t, e.do("GET", testNS+c.path, nil), c.arg, c.path)
	}
	badArg(t, e.do("POST", testNS+"/categories", map[string]any{"name": "Empty parent", "parent": ""}, user("admin")), "parent", "create parent \"\"")
	badArg(t, e.do("POST", testNS+"/categories/"+itoa(f.jazz), map[string]any{"parent": ""}, user("admin")), "parent", "update parent \"\"")
	// null still means "clear" on writes: top level.
	e.do("POST", testNS+"/categories/"+itoa(f.jazz), map[string]any{"parent": nil}, user("admin")).must(t, 200)
}

// Integers are decimal digits only, within int64, for every argument and
// path id alike; larger values are 400 naming the argument (wire §2), while
// per_page within int64 is still clamped to the maximum (wire §4).
func TestIntegerRule(t *testing.T) {
	e := newEnv(t)
	e.fixture()
	huge := "99999999999999999999999"
	for _, c := range []struct{ path, arg string }{
		{"/events?page=%201", "page"},
		{"/events?page=1%20", "page"},
		{"/events?per_page=%205", "per_page"},
		{"/events?per_page=+5", "per_page"},
		{"/events?per_page=-5", "per_page"},
		{"/events?per_page=" + huge, "per_page"},
		{"/events?page=" + huge, "page"},
		{"/venues?per_page=" + huge, "per_page"},
		{"/categories?page=" + huge, "page"},
		{"/events/" + huge, "id"},
		{"/venues/" + huge, "id"},
		{"/categories/" + huge, "id"},
		{"/events?include=" + huge, "include"},
	} {
		badArg(t, e.do("GET", testNS+c.path, nil), c.arg, c.path)
	}
	r := e.do("GET", testNS+"/events?per_page=9223372036854775807&start_date=2000-01-01", nil).must(t, 200)
	if r.Header.Get("X-TEC-TotalPages") != "1" {
		t.Errorf("per_page within int64 is clamped: total pages %q", r.Header.Get("X-TEC-TotalPages"))
	}
	if r := e.do("GET", testNS+"/events?page=9223372036854775807", nil); r.Code != 404 || r.errCode() != "event-archive-page-not-found" {
		t.Errorf("page within int64 past the end: %d %s", r.Code, r.Raw)
	}
	badArg(t, e.do("DELETE", testNS+"/events/"+huge, nil, user("admin")), "id", "DELETE huge id")
}

// One value where one is expected; exact lower-case statuses; a value of
// the wrong JSON type is invalid, never missing (wire §2).
func TestWriteValueShapes(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	base := func(extra map[string]any) map[string]any {
		m := map[string]any{"title": "Shapes", "start_date": "2026-12-01 10:00", "end_date": "2026-12-01 11:00"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	before := e.do("GET", testNS+"/events/"+itoa(f.event), nil).must(t, 200).obj()["title"]
	badArg(t, e.do("POST", testNS+"/events/"+itoa(f.event), map[string]any{"title": "Overwritten", "translation_language": []any{"fr", "de"}}, user("admin")),
		"translation_language", "translation_language array")
	if after := e.do("GET", testNS+"/events/"+itoa(f.event), nil).must(t, 200).obj()["title"]; after != before {
		t.Errorf("a refused write changed the title: %v → %v", before, after)
	}
	badArg(t, e.do("POST", testNS+"/events", base(map[string]any{"status": []any{"draft", "publish"}}), user("admin")), "status", "status array")
	badArg(t, e.do("POST", testNS+"/events", base(map[string]any{"status": "PUBLISH"}), user("admin")), "status", "status PUBLISH")
	badArg(t, e.do("POST", testNS+"/venues", map[string]any{"venue": "V", "status": "Publish"}, user("admin")), "status", "venue status Publish")
	badArg(t, e.do("POST", testNS+"/events", base(map[string]any{"start_date": true}), user("admin")), "start_date", "start_date true")
	badArg(t, e.do("POST", testNS+"/events", base(map[string]any{"title": 123}), user("admin")), "title", "title 123")
	badArg(t, e.do("POST", testNS+"/venues", map[string]any{"venue": "V", "city": 5}, user("admin")), "city", "city 5")
	badArg(t, e.do("POST", testNS+"/events", base(map[string]any{"venue": map[string]any{"venue": 7}}), user("admin")), "venue.venue", "nested venue name 7")
	// Lower-case statuses and numbers where the spec takes them still work.
	e.do("POST", testNS+"/events", base(map[string]any{"status": "draft", "cost": 5, "image": false}), user("admin")).must(t, 201)
	e.do("POST", testNS+"/events?status=draft", base(nil), user("admin"), header("Content-Type", "application/json")).must(t, 201)
}

// A JSON body sent without Content-Type: application/json gets a 400 that
// says so, not "missing parameters" (wire §2).
func TestJSONWithoutContentType(t *testing.T) {
	e := newEnv(t)
	body := `{"title":"x","start_date":"2026-12-01 10:00","end_date":"2026-12-01 11:00"}`
	for _, ct := range []string{"application/x-www-form-urlencoded", ""} {
		r := e.do("POST", testNS+"/events", body, user("admin"), func(r *http.Request) {
			if ct == "" {
				r.Header.Del("Content-Type")
			} else {
				r.Header.Set("Content-Type", ct)
			}
		})
		if r.Code != 400 || !strings.Contains(r.obj()["message"].(string), "Content-Type: application/json") {
			t.Errorf("JSON as %q: %d %s", ct, r.Code, r.Raw)
		}
	}
	// A real form body still works.
	e.do("POST", testNS+"/events", "title=x&start_date=2026-12-01+10:00&end_date=2026-12-01+11:00", user("admin"),
		header("Content-Type", "application/x-www-form-urlencoded")).must(t, 201)
}
