package httpadapter

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
)

// invalidParams returns the argument names a 400 answer names.
func invalidParams(t *testing.T, r *resp) []string {
	t.Helper()
	if r.errCode() != "rest_invalid_param" {
		t.Fatalf("error code %q, want rest_invalid_param: %s", r.errCode(), r.Raw)
	}
	var out []string
	for k := range r.obj()["data"].(map[string]any)["params"].(map[string]any) {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// A series carries its lines and no series link; an occurrence carries an
// empty rule and its link, with the recurrence id in the site zone (the
// zone `date` is written in) and in UTC.
func TestRenderSeriesMembers(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	l := &links{site: "http://example.test", host: "example.test", rest: "http://example.test/wp-json/calendar/events/v1"}
	render := func(ev *calendar.Event) map[string]any {
		var e enc
		l.event(&e, ev, false)
		var m map[string]any
		if err := json.Unmarshal(e.b, &m); err != nil {
			t.Fatalf("%v\n%s", err, e.b)
		}
		return m
	}
	start := time.Date(2026, 3, 31, 19, 0, 0, 0, berlin) // New York and Berlin both on summer time
	series := &calendar.Event{ID: 5, Slug: "choir", Date: time.Date(2026, 1, 1, 9, 0, 0, 0, ny), Start: start, End: start.Add(time.Hour),
		TimeZone: "Europe/Berlin", Recurrence: []string{"RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10", "EXDATE;TZID=Europe/Berlin:20260407T190000"}}
	m := render(series)
	if diff := cmp.Diff([]any{"RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10", "EXDATE;TZID=Europe/Berlin:20260407T190000"}, m["recurrence"]); diff != "" {
		t.Errorf("series recurrence (-want +got):\n%s", diff)
	}
	if m["series"] != nil {
		t.Errorf("series link of a series: %v", m["series"])
	}
	occ := *series
	occ.ID, occ.Slug, occ.Recurrence = 9, "choir-2026-03-31", nil
	occ.Series = &calendar.SeriesLink{ID: 5, RecurrenceID: start, Detached: true}
	m = render(&occ)
	want := map[string]any{"id": float64(5), "rest_url": "http://example.test/wp-json/calendar/events/v1/events/5",
		"recurrence_id": "2026-03-31 13:00:00", "recurrence_id_utc": "2026-03-31 17:00:00", "detached": true}
	if diff := cmp.Diff(want, m["series"]); diff != "" {
		t.Errorf("occurrence series link (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{}, m["recurrence"]); diff != "" {
		t.Errorf("occurrence recurrence (-want +got):\n%s", diff)
	}
}

func TestDecodeRecurrenceAndScope(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  map[string]any
		want  calendar.Opt[[]string]
		scope calendar.Scope
		bad   []string
	}{
		{name: "absent"},
		{name: "array", args: map[string]any{"recurrence": []any{"RRULE:FREQ=DAILY;COUNT=3", " EXDATE:20260102T100000Z "}},
			want: calendar.Some([]string{"RRULE:FREQ=DAILY;COUNT=3", "EXDATE:20260102T100000Z"})},
		{name: "lines", args: map[string]any{"recurrence": "RRULE:FREQ=WEEKLY\r\n\r\nRDATE:20260105T100000Z\nEXDATE:20260112T100000Z\n"},
			want: calendar.Some([]string{"RRULE:FREQ=WEEKLY", "RDATE:20260105T100000Z", "EXDATE:20260112T100000Z"})},
		{name: "null clears", args: map[string]any{"recurrence": nil}, want: calendar.Some([]string{})},
		{name: "empty array clears", args: map[string]any{"recurrence": []any{}}, want: calendar.Some([]string{})},
		{name: "empty string clears", args: map[string]any{"recurrence": ""}, want: calendar.Some([]string{})},
		{name: "number", args: map[string]any{"recurrence": json.Number("3")}, bad: []string{"recurrence"}},
		{name: "object", args: map[string]any{"recurrence": map[string]any{"a": "b"}}, bad: []string{"recurrence"}},
		{name: "array of numbers", args: map[string]any{"recurrence": []any{"RRULE:FREQ=DAILY", true}}, bad: []string{"recurrence"}},
		{name: "scope this", args: map[string]any{"scope": "this"}, scope: calendar.ScopeThis},
		{name: "scope following", args: map[string]any{"scope": "following"}, scope: calendar.ScopeFollowing},
		{name: "scope repeated", args: map[string]any{"scope": []any{"this", "following"}}, scope: calendar.ScopeFollowing},
		{name: "scope bogus", args: map[string]any{"scope": "all"}, bad: []string{"scope"}},
		{name: "scope number", args: map[string]any{"scope": json.Number("1")}, bad: []string{"scope"}},
	} {
		var v calendar.Validation
		in := decodeEvent(c.args, &v, false)
		var bad []string
		if err := v.Err(); err != nil {
			var ve *calendar.Error
			if !errors.As(err, &ve) {
				t.Fatalf("%s: %v", c.name, err)
			}
			for k := range ve.Params {
				bad = append(bad, k)
			}
			slices.Sort(bad)
		}
		if !slices.Equal(bad, c.bad) {
			t.Errorf("%s: invalid %v, want %v", c.name, bad, c.bad)
		}
		if c.bad == nil && (in.Recurrence.Set != c.want.Set || !slices.Equal(in.Recurrence.Value, c.want.Value) || in.Scope != c.scope) {
			t.Errorf("%s: recurrence %+v scope %q, want %+v %q", c.name, in.Recurrence, in.Scope, c.want, c.scope)
		}
	}
}

// Through the real handlers: bad `recurrence`, `scope` and `series` are 400
// naming the argument, and nothing is stored.
func TestRecurrenceArgumentsOverHTTP(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	body := func(extra map[string]any) map[string]any {
		b := map[string]any{"title": "Choir", "start_date": "2026-12-01 19:00:00", "end_date": "2026-12-01 21:00:00"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	before := e.do("GET", testNS+"/events?status=publish,draft,pending,private,future", nil, user("admin")).must(t, 200).obj()["total"]
	for _, c := range []struct {
		extra map[string]any
		param string
	}{
		{map[string]any{"recurrence": 7}, "recurrence"},
		{map[string]any{"recurrence": []any{"RRULE:FREQ=WEEKLY", 3}}, "recurrence"},
		{map[string]any{"scope": "everything"}, "scope"},
	} {
		r := e.do("POST", testNS+"/events", body(c.extra), user("admin")).must(t, 400)
		if got := invalidParams(t, r); !slices.Contains(got, c.param) {
			t.Errorf("POST with %v: params %v, want %q named", c.extra, got, c.param)
		}
		r = e.do("POST", fmt.Sprintf("%s/events/%d", testNS, f.event), c.extra, user("admin")).must(t, 400)
		if got := invalidParams(t, r); !slices.Contains(got, c.param) {
			t.Errorf("update with %v: params %v, want %q named", c.extra, got, c.param)
		}
	}
	after := e.do("GET", testNS+"/events?status=publish,draft,pending,private,future", nil, user("admin")).must(t, 200).obj()["total"]
	if before != after {
		t.Errorf("refused writes changed the number of events: %v then %v", before, after)
	}
	r := e.do("GET", testNS+"/events?series=all", nil).must(t, 400)
	if got := invalidParams(t, r); !slices.Contains(got, "series") {
		t.Errorf("series=all: params %v", got)
	}
	for _, mode := range []string{"occurrences", "series"} {
		e.do("GET", testNS+"/events?series="+mode, nil).must(t, 200)
	}
}

// The OpenAPI document describes the members and the arguments.
func TestDocDescribesRecurrence(t *testing.T) {
	e := newEnv(t)
	doc := e.do("GET", testNS+"/doc", nil).must(t, 200).obj()
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	props := schemas["Event"].(map[string]any)["properties"].(map[string]any)
	if props["recurrence"] == nil || props["series"] == nil {
		t.Errorf("Event schema lacks recurrence or series: %v", props)
	}
	link, _ := json.Marshal(schemas["SeriesLink"])
	for _, k := range []string{"recurrence_id", "recurrence_id_utc", "detached", "rest_url", `"nullable":true`} {
		if !strings.Contains(string(link), k) {
			t.Errorf("SeriesLink schema lacks %s: %s", k, link)
		}
	}
	paths := doc["paths"].(map[string]any)
	op := func(path, method string) string {
		b, _ := json.Marshal(paths[path].(map[string]any)[method])
		return string(b)
	}
	if s := op("/events", "get"); !strings.Contains(s, `"series"`) || !strings.Contains(s, `"occurrences"`) {
		t.Errorf("GET /events does not document series: %s", s)
	}
	if s := op("/events", "post"); !strings.Contains(s, `"recurrence"`) || strings.Contains(s, `"scope"`) {
		t.Errorf("POST /events: recurrence documented, scope not: %s", s)
	}
	if s := op("/events/{id}", "post"); !strings.Contains(s, `"recurrence"`) || !strings.Contains(s, `"following"`) {
		t.Errorf("POST /events/{id} does not document recurrence and scope: %s", s)
	}
}

// The feed takes the list's `series` argument and refuses the same values.
func TestFeedSeriesArgument(t *testing.T) {
	e := newEnv(t)
	r := e.do("GET", testNS+"/events.ics?series=everything", nil).must(t, 400)
	if got := invalidParams(t, r); !slices.Contains(got, "series") {
		t.Errorf("feed series=everything: params %v", got)
	}
	e.do("GET", testNS+"/events.ics?series=series", nil).must(t, 200)
}

// End to end through the handlers: a series created with its rule as one
// string of lines, its occurrences listed by post_parent with their series
// link (recurrence id in the site zone, New York here), the series record
// hidden from the default list and shown with series=series.
func TestSeriesOverHTTP(t *testing.T) {
	e := newEnv(t)
	r := e.do("POST", testNS+"/events", map[string]any{"title": "Choir", "start_date": "2026-12-01 19:00:00",
		"end_date": "2026-12-01 21:00:00", "timezone": "Europe/Berlin",
		"recurrence": "RRULE:FREQ=WEEKLY;COUNT=4\nEXDATE;TZID=Europe/Berlin:20261208T190000\n"}, user("admin")).must(t, 201)
	s := r.obj()
	if diff := cmp.Diff([]any{"RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE;TZID=Europe/Berlin:20261208T190000"}, s["recurrence"]); diff != "" {
		t.Errorf("created series recurrence (-want +got):\n%s", diff)
	}
	if s["series"] != nil {
		t.Errorf("series link on the series: %v", s["series"])
	}
	id := int64(s["id"].(float64))
	occ := e.do("GET", fmt.Sprintf("%s/events?post_parent=%d", testNS, id), nil).must(t, 200).obj()
	events := occ["events"].([]any)
	if len(events) != 3 {
		t.Fatalf("%d occurrences, want 3 (4 weeks, one excepted)", len(events))
	}
	wantRID := []string{"2026-12-01 13:00:00", "2026-12-15 13:00:00", "2026-12-22 13:00:00"} // 19:00 Berlin in New York
	for i, ev := range events {
		link := ev.(map[string]any)["series"].(map[string]any)
		if link["id"].(float64) != float64(id) || link["recurrence_id"] != wantRID[i] || link["detached"] != false ||
			link["rest_url"] != fmt.Sprintf("http://%s%s/events/%d", testHost, testNS, id) {
			t.Errorf("occurrence %d: series link %v", i, link)
		}
		if r := ev.(map[string]any)["recurrence"].([]any); len(r) != 0 {
			t.Errorf("occurrence %d: recurrence %v", i, r)
		}
	}
	ids := func(q string) []float64 {
		var out []float64
		for _, ev := range e.do("GET", testNS+"/events?"+q, nil).must(t, 200).obj()["events"].([]any) {
			out = append(out, ev.(map[string]any)["id"].(float64))
		}
		return out
	}
	if slices.Contains(ids("search=choir"), float64(id)) {
		t.Error("the series record is listed by default")
	}
	if got := ids("search=choir&series=series"); !slices.Equal(got, []float64{float64(id)}) {
		t.Errorf("series=series lists %v, want only the series %d", got, id)
	}
}

// TestSeriesSplitOverHTTP: scope=following on an occurrence splits the
// series; If-Match applies to the occurrence addressed, and another author
// may not split someone else's series.
func TestSeriesSplitOverHTTP(t *testing.T) {
	e := newEnv(t)
	s := e.do("POST", testNS+"/events", map[string]any{"title": "Run", "start_date": "2026-12-01 07:00:00",
		"end_date": "2026-12-01 08:00:00", "recurrence": []any{"RRULE:FREQ=DAILY;COUNT=5"}}, user("author")).must(t, 201).obj()
	id := int64(s["id"].(float64))
	events := e.do("GET", fmt.Sprintf("%s/events?post_parent=%d", testNS, id), nil).must(t, 200).obj()["events"].([]any)
	if len(events) != 5 {
		t.Fatalf("%d occurrences, want 5", len(events))
	}
	third := int64(events[2].(map[string]any)["id"].(float64))
	path := fmt.Sprintf("%s/events/%d", testNS, third)
	etag := e.do("GET", path, nil).must(t, 200).Header.Get("ETag")
	body := map[string]any{"scope": "following", "title": "Later run"}
	e.do("POST", path, body, user("author2")).must(t, 403)
	e.do("POST", path, body, user("author"), header("If-Match", `"e`+fmt.Sprint(third)+`-999"`)).must(t, 412)
	got := e.do("POST", path, body, user("author"), header("If-Match", etag)).must(t, 200).obj()
	link, _ := got["series"].(map[string]any)
	if got["title"] != "Later run" || link == nil || int64(link["id"].(float64)) == id {
		t.Fatalf("split answer: title %v series %v", got["title"], got["series"])
	}
	count := func(parent int64) int {
		return len(e.do("GET", fmt.Sprintf("%s/events?post_parent=%d", testNS, parent), nil).must(t, 200).obj()["events"].([]any))
	}
	if old, tail := count(id), count(int64(link["id"].(float64))); old != 2 || tail != 3 {
		t.Errorf("after the split: old series %d occurrences, new %d; want 2 and 3", old, tail)
	}
}
