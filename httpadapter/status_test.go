package httpadapter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
)

// errBody is the error envelope of wire §5 as decoded JSON.
func errBody(code string, status int, extra map[string]any) map[string]any {
	data := map[string]any{"status": float64(status)}
	for k, v := range extra {
		data[k] = v
	}
	return map[string]any{"code": code, "data": data}
}

// withoutMessage drops the message, which is prose.
func withoutMessage(r *resp) map[string]any {
	m := map[string]any{}
	for k, v := range r.obj() {
		if k != "message" {
			m[k] = v
		}
	}
	if msg, _ := r.obj()["message"].(string); msg == "" {
		m["message"] = "<empty>"
	}
	return m
}

func TestStatusCodes(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	draft := e.mkEvent(idContributor, "Draft Party", "2026-12-03 10:00", "draft")
	trashed := e.mkEvent(idAuthor, "Old Party", "2026-12-03 10:00", "")
	if _, err := e.cal.DeleteEvent(as(idAuthor), refID(trashed), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	locked := e.mkEvent(idAuthor, "Secret Party", "2026-12-03 10:00", "", func(in *calendar.EventInput) { in.Password = calendar.Some("s3cret") })
	draftVenue := must[*calendar.Venue](t)(e.cal.CreateVenue(as(idContributor), calendar.VenueInput{Name: calendar.Some("Hidden Hall")}, calendar.WriteOptions{}))
	p := func(format string, a ...any) string { return testNS + fmt.Sprintf(format, a...) }

	cases := []struct {
		name         string
		method, path string
		body         any
		opts         []reqOpt
		want         map[string]any
	}{
		{"event id that is no post", "GET", p("/events/99999"), nil, nil, errBody("rest-event-not-found", 404, nil)},
		{"event id that is a venue", "GET", p("/events/%d", f.venue), nil, nil, errBody("rest-invalid-event-id", 400, nil)},
		{"venue id that is no venue", "GET", p("/venues/%d", f.event), nil, nil, nil},
		{"organizer id unknown", "GET", p("/organizers/99999"), nil, nil, nil},
		{"category id unknown", "GET", p("/categories/99999"), nil, nil, nil},
		{"tag id unknown", "GET", p("/tags/99999"), nil, nil, nil},
		{"event slug unknown", "GET", p("/events/by-slug/no-such"), nil, nil, nil},
		{"venue slug unknown", "GET", p("/venues/by-slug/no-such"), nil, nil, nil},
		{"anonymous write", "POST", p("/events"), map[string]any{"title": "x"}, nil, errBody("rest_forbidden", 401, nil)},
		{"subscriber write", "POST", p("/events"), map[string]any{"title": "x"}, []reqOpt{user("subscriber")}, errBody("rest_forbidden", 403, nil)},
		{"contributor creates a tag", "POST", p("/tags"), map[string]any{"name": "x"}, []reqOpt{user("contributor")}, errBody("rest_forbidden", 403, nil)},
		{"draft read by anonymous", "GET", p("/events/%d", draft), nil, nil, errBody("event-not-accessible", 403, nil)},
		{"trashed read by anonymous", "GET", p("/events/%d", trashed), nil, nil, errBody("event-no-longer-available", 403, nil)},
		{"protected read without password", "GET", p("/events/%d", locked), nil, nil, errBody("event-password-protected", 403, nil)},
		{"draft venue read by anonymous", "GET", p("/venues/%d", draftVenue.ID), nil, nil, errBody("venue-not-accessible", 403, nil)},
		{"delete trashed", "DELETE", p("/events/%d", trashed), nil, []reqOpt{user("admin")}, errBody("event-is-in-trash", 410, nil)},
		{"term exists", "POST", p("/categories"), map[string]any{"name": "Music"}, []reqOpt{user("admin")}, errBody("term_exists", 400, map[string]any{"term_id": float64(f.music)})},
		{"parent on tags", "POST", p("/tags"), map[string]any{"name": "New", "parent": 1}, []reqOpt{user("admin")}, errBody("rest_taxonomy_not_hierarchical", 400, nil)},
		{"stale If-Match", "PATCH", p("/events/%d", f.event), map[string]any{"title": "x"}, []reqOpt{user("admin"), header("If-Match", etag('e', f.event, 999))}, errBody("rest_precondition_failed", 412, nil)},
		{"missing required", "POST", p("/events"), map[string]any{"description": "x"}, []reqOpt{user("admin")}, errBody("rest_missing_callback_param", 400, map[string]any{"params": []any{"start_date", "end_date", "title"}})},
		{"bad credentials", "GET", p("/events"), nil, []reqOpt{header("Authorization", "Basic YWRtaW46d3Jvbmc=")}, errBody("rest_invalid_credentials", 401, nil)},
		{"bad bearer", "GET", p("/events"), nil, []reqOpt{header("Authorization", "Bearer nope")}, errBody("rest_invalid_credentials", 401, nil)},
		{"malformed JSON", "POST", p("/events"), `{"title": "x",`, []reqOpt{user("admin")}, errBody("rest_invalid_json", 400, nil)},
		{"unsupported media type", "POST", p("/events"), "title=x", []reqOpt{user("admin"), header("Content-Type", "text/plain")}, errBody("rest_unsupported_media_type", 415, nil)},
		{"too large", "POST", p("/events"), `{"description":"` + strings.Repeat("a", DefaultBodyLimit) + `"}`, []reqOpt{user("admin")}, errBody("rest_request_too_large", 413, nil)},
		{"ticketed true", "GET", p("/events?ticketed=true"), nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(c.method, c.path, c.body, c.opts...)
			if c.want == nil { // 400 rest_invalid_param naming an argument
				if r.Code != 400 || (r.errCode() != "rest_invalid_param") {
					t.Fatalf("%d %s", r.Code, r.Raw)
				}
				return
			}
			if diff := cmp.Diff(c.want, withoutMessage(r)); diff != "" {
				t.Errorf("%d (-want +got):\n%s", r.Code, diff)
			}
			if int(c.want["data"].(map[string]any)["status"].(float64)) != r.Code {
				t.Errorf("HTTP status %d does not match data.status", r.Code)
			}
		})
	}
	// The ticketed refusal carries its specific code.
	r := e.do("GET", p("/events?ticketed=1"), nil).must(t, 400)
	if d := r.obj()["data"].(map[string]any)["details"].(map[string]any)["ticketed"].(map[string]any)["code"]; d != "event-tickets-not-active" {
		t.Errorf("ticketed detail %v", d)
	}
	// Password unlocks the protected event on the by-id route.
	e.do("GET", p("/events/%d?password=s3cret", locked), nil).must(t, 200)
}

func TestEveryBadArgumentAtOnce(t *testing.T) {
	e := newEnv(t)
	r := e.do("GET", testNS+"/events?page=x&per_page=-1&featured=maybe&venue=a,b&geoloc_lat=north&strict_dates=perhaps", nil).must(t, 400)
	params := r.obj()["data"].(map[string]any)["params"].(map[string]any)
	var names []string
	for k := range params {
		names = append(names, k)
	}
	want := []string{"featured", "geoloc_lat", "page", "per_page", "strict_dates", "venue"}
	if diff := cmp.Diff(want, sortStrings(names)); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	if params["page"] != "page is not of type integer." {
		t.Errorf("message %q", params["page"])
	}
	r = e.do("POST", testNS+"/events", map[string]any{"title": []any{map[string]any{}}, "all_day": "sometimes", "author": "me",
		"venue": []any{true}, "start_date": "2026-12-01", "end_date": "2026-12-01"}, user("admin")).must(t, 400)
	params = r.obj()["data"].(map[string]any)["params"].(map[string]any)
	names = names[:0]
	for k := range params {
		names = append(names, k)
	}
	if diff := cmp.Diff([]string{"all_day", "author", "title", "venue"}, sortStrings(names)); diff != "" {
		t.Errorf("write params (-want +got):\n%s", diff)
	}
}

// failing is a Calendar whose every list fails with err.
type failing struct {
	calendar.Calendar
	err error
}

func (f failing) ListEvents(context.Context, calendar.EventQuery) (*calendar.EventPage, error) {
	return nil, f.err
}

func TestInternalAndUnavailableErrorsLeakNothing(t *testing.T) {
	secret := "dial tcp 10.0.0.7:6379: /var/lib/secret/path connection refused"
	for _, c := range []struct {
		err    error
		status int
		code   string
	}{
		{errors.New(secret), 500, "rest_internal_error"},
		{fmt.Errorf("wrapped: %w", &calendar.Error{Code: calendar.CodeUnavailable, Message: secret, Err: errors.New(secret)}), 503, "rest_storage_unavailable"},
		{&calendar.Error{Code: calendar.CodeInternal, Reason: "boom", Message: secret}, 500, "rest_internal_error"},
	} {
		var logged strings.Builder
		h := New(failing{err: c.err}, WithLogger(textLogger(&logged)))
		r := doHandler(t, h, "GET", "/calendar/events/v1/events")
		if r.Code != c.status || r.errCode() != c.code {
			t.Errorf("%v: %d %s", c.err, r.Code, r.Raw)
		}
		if strings.Contains(r.Raw, "10.0.0.7") || strings.Contains(r.Raw, "/var/lib") {
			t.Errorf("response leaks internals: %s", r.Raw)
		}
		if !strings.Contains(logged.String(), "10.0.0.7") {
			t.Errorf("details not logged: %q", logged.String())
		}
	}
}

// Arguments the adapter cannot decode and those only the calendar can judge
// are named in one error; permissions still come before both.
func TestDecodeAndDomainErrorsTogether(t *testing.T) {
	e := newEnv(t)
	r := e.do("GET", testNS+"/events?per_page=abc&start_date=garbage&categories=no-such-category", nil).must(t, 400)
	params := r.obj()["data"].(map[string]any)["params"].(map[string]any)
	var names []string
	for k := range params {
		names = append(names, k)
	}
	if diff := cmp.Diff([]string{"categories", "per_page", "start_date"}, sortStrings(names)); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	r = e.do("POST", testNS+"/events", map[string]any{"title": "x", "featured": "maybe", "start_date": "2026-12-01", "end_date": "nope"}, user("admin")).must(t, 400)
	params = r.obj()["data"].(map[string]any)["params"].(map[string]any)
	if _, ok := params["featured"]; !ok {
		t.Errorf("featured not named: %v", params)
	}
	if _, ok := params["end_date"]; !ok {
		t.Errorf("end_date not named: %v", params)
	}
	// Bad arguments from callers without the right: 401/403, never 400.
	e.do("POST", testNS+"/events", map[string]any{"featured": "maybe"}).must(t, 401)
	other := e.mkEvent(idAuthor2, "Theirs", "2026-12-01 10:00", "publish")
	e.do("PATCH", fmt.Sprintf("%s/events/%d", testNS, other), map[string]any{"featured": "maybe", "end_date": "nope"}, user("contributor")).must(t, 403)
}

// A write whose only fault is an argument the adapter could not decode is
// refused naming just that argument, and nothing of it is stored: the
// calendar checks the rest without writing.
func TestUndecodableArgumentStopsTheWrite(t *testing.T) {
	e := newEnv(t)
	only := func(r *resp, name string) {
		t.Helper()
		params := r.obj()["data"].(map[string]any)["params"].(map[string]any)
		if _, ok := params[name]; !ok || len(params) != 1 {
			t.Errorf("params %v, want only %s", params, name)
		}
	}
	only(e.do("POST", testNS+"/events", map[string]any{"title": "Must not exist", "start_date": "2026-12-01 10:00",
		"end_date": "2026-12-01 11:00", "featured": "maybe", "venue": map[string]any{"venue": "Must Not Exist Hall"}}, user("admin")).must(t, 400), "featured")
	if n := e.do("GET", testNS+"/events?search=Must+not+exist&start_date=2000-01-01", nil).must(t, 200).obj()["total"]; n != float64(0) {
		t.Errorf("the refused event was stored: total %v", n)
	}
	if n := e.do("GET", testNS+"/venues?search=Must+Not+Exist", nil).must(t, 200).obj()["total"]; n != float64(0) {
		t.Errorf("the refused event's venue was stored: total %v", n)
	}
	own := e.mkEvent(0, "Unchanged", "2026-12-01 10:00", "publish")
	only(e.do("PATCH", fmt.Sprintf("%s/events/%d", testNS, own), map[string]any{"title": "Changed", "all_day": "sometimes"}, user("admin")).must(t, 400), "all_day")
	if got := e.do("GET", fmt.Sprintf("%s/events/%d", testNS, own), nil).must(t, 200).obj()["title"]; got != "Unchanged" {
		t.Errorf("title after a refused update: %v", got)
	}
	only(e.do("POST", testNS+"/categories", map[string]any{"name": "Not Stored", "parent": "first"}, user("admin")).must(t, 400), "parent")
	if n := e.do("GET", testNS+"/categories?search=Not+Stored&hide_empty=false", nil).must(t, 200).obj()["total"]; n != float64(0) {
		t.Errorf("the refused category was stored: total %v", n)
	}
}
