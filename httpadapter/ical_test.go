package httpadapter

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
	"github.com/eventcal/eventcal/calendar/ical/icaljstest"
	"github.com/google/go-cmp/cmp"
)

// icalEnv is the fixture plus events in several zones, across a DST change,
// all-day, floating, and with texts that need escaping.
func icalEnv(t *testing.T) (*env, fixture) {
	e := newEnv(t)
	f := e.fixture()
	e.mkEvent(idAuthor, "Café, jazz; blues\nnight 🎷", "2026-12-05 20:00", "", func(in *calendar.EventInput) {
		in.EndDate = calendar.Some("2026-12-05 23:30")
		in.TimeZone = calendar.Some("Europe/Paris")
		in.Description = calendar.Some("a\r\nEND:VEVENT\r\nBEGIN:VCALENDAR\r\nb, c; d\\e")
		in.Categories = calendar.Some([]calendar.TermRef{{ID: f.jazz}, {Name: "Rock, Pop"}})
		in.Venues = calendar.Some([]calendar.VenueRef{{ID: f.venue}})
	})
	e.mkEvent(idAuthor, "Spring forward", "2027-03-28 01:30", "", func(in *calendar.EventInput) {
		in.EndDate = calendar.Some("2027-03-28 04:00")
		in.TimeZone = calendar.Some("Europe/Berlin")
	})
	e.mkEvent(idAuthor, "Floating in the site zone", "2027-03-14 01:00", "", func(in *calendar.EventInput) {
		in.EndDate = calendar.Some("2027-03-14 05:00")
	})
	e.mkEvent(idAuthor, "Tokyo", "2027-01-10 09:00", "", func(in *calendar.EventInput) {
		in.EndDate = calendar.Some("2027-01-10 10:00")
		in.TimeZone = calendar.Some("Asia/Tokyo")
	})
	e.mkEvent(idAuthor, "Whole days", "2027-02-01", "", func(in *calendar.EventInput) {
		in.EndDate = calendar.Some("2027-02-03")
		in.AllDay = calendar.Some(true)
	})
	e.mkEvent(idAuthor, "Long ago", "2026-09-01 10:00", "")
	return e, f
}

// jsonEvents reads every page of an event list through the JSON API.
func (e *env) jsonEvents(path string, opts ...reqOpt) []map[string]any {
	e.t.Helper()
	var out []map[string]any
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	for page := 1; ; page++ {
		r := e.do("GET", fmt.Sprintf("%s%sper_page=50&page=%d", path, sep, page), nil, opts...).must(e.t, 200)
		for _, ev := range r.obj()["events"].([]any) {
			out = append(out, ev.(map[string]any))
		}
		if float64(page) >= r.obj()["total_pages"].(float64) {
			return out
		}
	}
}

func utcOf(t *testing.T, s string) string {
	v, err := time.Parse("2006-01-02 15:04:05", s)
	if err != nil {
		t.Fatal(err)
	}
	return v.Format(time.RFC3339)
}

// TestICalFeedMatchesJSON: the feed, read by ical.js, holds every event of
// the JSON list with the same window, with equal times, texts, categories,
// location and GEO.
func TestICalFeedMatchesJSON(t *testing.T) {
	e, _ := icalEnv(t)
	r := e.do("GET", testNS+"/events.ics", nil).must(t, 200)
	if ct := r.Header.Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	got := icaljstest.Parse(t, []byte(r.Raw))
	want := e.jsonEvents(testNS + "/events?ends_after=" + url.QueryEscape("-31 days"))
	if len(want) != 6 || len(got.Events) != len(want) {
		t.Fatalf("feed has %d events, the JSON list %d", len(got.Events), len(want))
	}
	for i, w := range want {
		g := got.Events[i]
		title := w["title"].(string)
		if g.UID != w["global_id"] || g.Summary.Value != title {
			t.Errorf("%d: UID %q summary %q, want %v %q", i, g.UID, g.Summary.Value, w["global_id"], title)
		}
		if d := strings.ReplaceAll(w["description"].(string), "\r\n", "\n"); d != "" && (g.Description == nil || g.Description.Value != d) {
			t.Errorf("%s: description %+v", title, g.Description)
		}
		if w["all_day"] == true {
			if g.Start.Date != w["start_date"].(string)[:10] || g.End.Date != "2027-02-04" {
				t.Errorf("%s: dates %+v %+v", title, g.Start, g.End)
			}
		} else {
			if g.Start.UTC != utcOf(t, w["utc_start_date"].(string)) || g.End.UTC != utcOf(t, w["utc_end_date"].(string)) {
				t.Errorf("%s: %+v – %+v, want %s – %s", title, g.Start, g.End, w["utc_start_date"], w["utc_end_date"])
			}
			if g.Start.TZID != w["timezone"] {
				t.Errorf("%s: TZID %q, want %v", title, g.Start.TZID, w["timezone"])
			}
		}
		var cats []string
		for _, c := range w["categories"].([]any) {
			cats = append(cats, c.(map[string]any)["name"].(string))
		}
		if !slices.Equal(cats, g.Categories) {
			t.Errorf("%s: categories %q, want %q", title, g.Categories, cats)
		}
		if v, ok := w["venue"].(map[string]any); ok {
			if g.Location == nil || !strings.HasPrefix(g.Location.Value, v["venue"].(string)+", "+v["address"].(string)) {
				t.Errorf("%s: location %+v", title, g.Location)
			}
			if !slices.Equal(g.Geo, []float64{v["geo_lat"].(float64), v["geo_lng"].(float64)}) {
				t.Errorf("%s: geo %v", title, g.Geo)
			}
		} else if g.Location != nil {
			t.Errorf("%s: location %+v without a venue", title, g.Location)
		}
		if website := w["website"].(string); g.URL != website {
			t.Errorf("%s: URL %q, want %q", title, g.URL, website)
		}
	}
	// Every list argument applies: categories by slug (with descendants), search.
	byCat := icaljstest.Parse(t, []byte(e.do("GET", testNS+"/events.ics?categories=music", nil).must(t, 200).Raw))
	if len(byCat.Events) != 2 {
		t.Errorf("categories=music: %d events", len(byCat.Events))
	}
	// Paging is ignored, even when it would be invalid in a list.
	if n := len(icaljstest.Parse(t, []byte(e.do("GET", testNS+"/events.ics?page=x&per_page=1", nil).must(t, 200).Raw)).Events); n != len(want) {
		t.Errorf("paging arguments: %d events", n)
	}
	bad := e.do("GET", testNS+"/events.ics?start_date=24/12/2026", nil).must(t, 400)
	if bad.errCode() != "rest_invalid_param" {
		t.Errorf("bad date: %s", bad.Raw)
	}
}

func TestICalNegotiation(t *testing.T) {
	e, f := icalEnv(t)
	for accept, ical := range map[string]bool{
		"text/calendar":                         true,
		"text/calendar, */*;q=0.1":              true,
		"application/json;q=0.5, text/calendar": true,
		"application/json, text/calendar":       false,
		"*/*":                                   false,
		"":                                      false,
		"text/calendar;q=0":                     false,
		"text/*":                                false,
	} {
		r := e.do("GET", testNS+"/events", nil, header("Accept", accept)).must(t, 200)
		if isCal := strings.HasPrefix(r.Header.Get("Content-Type"), "text/calendar"); isCal != ical {
			t.Errorf("Accept %q: Content-Type %q", accept, r.Header.Get("Content-Type"))
		}
		if !slices.Contains(r.Header.Values("Vary"), "Accept") {
			t.Errorf("Accept %q: no Vary: Accept", accept)
		}
	}
	one := e.do("GET", testNS+"/events/"+itoa(f.event), nil, header("Accept", "text/calendar")).must(t, 200)
	if !strings.Contains(one.Raw, "SUMMARY:Jazz Night\r\n") || strings.Count(one.Raw, "BEGIN:VEVENT") != 1 {
		t.Errorf("single event as iCalendar:\n%s", one.Raw)
	}
}

func TestICalSingleEvent(t *testing.T) {
	e, f := icalEnv(t)
	slug := e.do("GET", testNS+"/events/"+itoa(f.event), nil).must(t, 200).obj()["slug"].(string)
	for _, path := range []string{"/events/" + itoa(f.event) + ".ics", "/events/by-slug/" + slug + ".ics", "/tribe/events/v1/events/" + itoa(f.event) + ".ics"} {
		full := testNS + path
		if strings.HasPrefix(path, "/tribe") {
			full = "/wp-json" + path
		}
		r := e.do("GET", full, nil).must(t, 200)
		got := icaljstest.Parse(t, []byte(r.Raw))
		if len(got.Events) != 1 || got.Events[0].Summary.Value != "Jazz Night" || got.Events[0].UID != testHost+"?id="+itoa(f.event) {
			t.Errorf("%s: %+v", path, got.Events)
		}
		if got.Events[0].Organizer == nil || got.Events[0].Organizer.Value != "mailto:hi@jazz.example" {
			t.Errorf("%s: organizer %+v", path, got.Events[0].Organizer)
		}
	}
	e.do("GET", testNS+"/events/999999.ics", nil).must(t, 404)
	if r := e.do("PUT", testNS+"/events/by-slug/"+slug+".ics", map[string]any{"title": "x"}, user("admin")); r.errCode() != "rest_no_route" {
		t.Errorf("PUT on a .ics path: %d %s", r.Code, r.Raw)
	}
	locked := e.mkEvent(idAuthor, "Locked", "2026-12-10 10:00", "", func(in *calendar.EventInput) {
		in.Password = calendar.Some("pw")
		in.Description = calendar.Some("the secret")
	})
	e.do("GET", testNS+"/events/"+itoa(locked)+".ics", nil).must(t, 403)
	r := e.do("GET", testNS+"/events/"+itoa(locked)+".ics?password=pw", nil).must(t, 200)
	if !strings.Contains(r.Raw, "the secret") {
		t.Errorf("password did not unlock:\n%s", r.Raw)
	}
}

func TestICalConditional(t *testing.T) {
	e, f := icalEnv(t)
	r := e.do("GET", testNS+"/events.ics", nil).must(t, 200)
	tag, lm := r.Header.Get("ETag"), r.Header.Get("Last-Modified")
	if !strings.HasPrefix(tag, `"ics-`) || lm == "" {
		t.Fatalf("validators %q %q", tag, lm)
	}
	if r2 := e.do("GET", testNS+"/events.ics", nil).must(t, 200); r2.Raw != r.Raw || r2.Header.Get("ETag") != tag {
		t.Error("same data, different feed")
	}
	nm := e.do("GET", testNS+"/events.ics", nil, header("If-None-Match", tag)).must(t, 304)
	if nm.Raw != "" || nm.Header.Get("ETag") != tag {
		t.Errorf("304: %q %v", nm.Raw, nm.Header)
	}
	e.do("GET", testNS+"/events.ics", nil, header("If-Modified-Since", lm)).must(t, 304)
	// If-None-Match wins over If-Modified-Since.
	e.do("GET", testNS+"/events.ics", nil, header("If-None-Match", `"other"`), header("If-Modified-Since", lm)).must(t, 200)
	head := e.do("HEAD", testNS+"/events.ics", nil).must(t, 200)
	if head.Raw != "" || head.Header.Get("ETag") != tag {
		t.Errorf("HEAD: %q %v", head.Raw, head.Header)
	}
	// A change shows: new ETag, and the old validators no longer match.
	must[*calendar.Venue](t)(e.cal.UpdateVenue(as(idAdmin), calendar.ByID(f.venue), calendar.VenueInput{Name: calendar.Some("Red Hall")}, calendar.WriteOptions{}))
	after := e.do("GET", testNS+"/events.ics", nil, header("If-None-Match", tag)).must(t, 200)
	if after.Header.Get("ETag") == tag || !strings.Contains(after.Raw, "Red Hall") {
		t.Error("a venue change did not change the feed")
	}
	// The validator is per language and per caller.
	fr := e.do("GET", "/fr"+testNS+"/events.ics", nil).must(t, 200)
	if fr.Header.Get("ETag") == after.Header.Get("ETag") || !strings.Contains(fr.Raw, "SUMMARY;LANGUAGE=fr:") {
		t.Errorf("language segment: %s", fr.Header.Get("ETag"))
	}
	if e.do("GET", testNS+"/events.ics?translation_language=fr", nil).must(t, 200).Header.Get("ETag") != fr.Header.Get("ETag") {
		t.Error("translation_language and the language segment differ")
	}
	e.mkEvent(idAuthor, "Draft", "2026-12-20 10:00", "draft")
	if e.do("GET", testNS+"/events.ics", nil, header("If-None-Match", after.Header.Get("ETag"))).Code != http.StatusNotModified {
		t.Error("an anonymous feed changed with a draft")
	}
	if e.do("GET", testNS+"/events.ics", nil, user("editor"), header("If-None-Match", after.Header.Get("ETag"))).Code != http.StatusOK {
		t.Error("an editor's feed did not change with a draft")
	}
}

// TestICalPermissions: anonymous feeds never hold drafts, private or
// pending events, nor password-protected content.
func TestICalPermissions(t *testing.T) {
	e, _ := icalEnv(t)
	for _, st := range []string{"draft", "pending", "private"} {
		e.mkEvent(idAuthor, "Secret "+st, "2026-12-12 10:00", st, func(in *calendar.EventInput) {
			in.Description = calendar.Some("secret text")
		})
	}
	e.mkEvent(idAuthor, "Locked", "2026-12-13 10:00", "", func(in *calendar.EventInput) {
		in.Password = calendar.Some("pw")
		in.Description = calendar.Some("protected text")
		in.Categories = calendar.Some([]calendar.TermRef{{Name: "Hush"}})
	})
	for _, who := range []reqOpt{func(*http.Request) {}, user("subscriber"), user("contributor")} {
		raw := e.do("GET", testNS+"/events.ics", nil, who).must(t, 200).Raw
		for _, s := range []string{"Secret", "secret text", "protected text", "Hush"} {
			if strings.Contains(raw, s) {
				t.Errorf("feed holds %q", s)
			}
		}
		if !strings.Contains(raw, "SUMMARY:Locked") {
			t.Error("protected event missing (its title stays, as in lists)")
		}
	}
	if e.do("GET", testNS+"/events.ics?status=draft", nil).Code != 400 {
		t.Error("anonymous status=draft not refused")
	}
	raw := e.do("GET", testNS+"/events.ics", nil, user("editor")).must(t, 200).Raw
	if !strings.Contains(raw, "Secret draft") || !strings.Contains(raw, "protected text") {
		t.Error("editor's feed lacks drafts or protected content")
	}
}

func TestICalDocumented(t *testing.T) {
	e := newEnv(t)
	doc := e.do("GET", testNS+"/doc", nil).must(t, 200).obj()
	paths := doc["paths"].(map[string]any)
	for _, p := range []string{"/events.ics", "/events/{id}.ics", "/events/by-slug/{slug}.ics"} {
		op, _ := paths[p].(map[string]any)["get"].(map[string]any)
		if op == nil {
			t.Errorf("%s not documented", p)
			continue
		}
		content := op["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)
		if content["text/calendar"] == nil {
			t.Errorf("%s: content %v", p, content)
		}
	}
	idx := e.do("GET", testNS+"/", nil).must(t, 200).obj()["routes"].(map[string]any)
	if idx["/"+Namespace+`/events/(?P<id>\d+)\.ics`] == nil {
		t.Error("index lacks the single-event feed")
	}
}

const importBody = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\nX-WR-TIMEZONE:Europe/Berlin\r\n" +
	"BEGIN:VEVENT\r\nUID:imp-1@test\r\nDTSTAMP:20261120T000000Z\r\nDTSTART;TZID=Europe/Berlin:20270326T203000\r\n" +
	"DTEND;TZID=Europe/Berlin:20270326T230000\r\nSUMMARY:Imported\\, at last\r\nLOCATION:Club Ost\r\nCATEGORIES:Jazz,Live\r\nEND:VEVENT\r\n" +
	"BEGIN:VEVENT\r\nUID:imp-2@test\r\nDTSTAMP:20261120T000000Z\r\nDTSTART:2027-03-27\r\nSUMMARY:Bad date\r\nEND:VEVENT\r\n" +
	"END:VCALENDAR\r\n"

func icalPost(body string, opts ...reqOpt) []reqOpt {
	return append([]reqOpt{header("Content-Type", "text/calendar; charset=utf-8")}, opts...)
}

func TestICalImport(t *testing.T) {
	e := newEnv(t)
	r := e.do("POST", testNS+"/events/import", importBody, icalPost(importBody, user("editor"))...).must(t, 200)
	want := map[string]any{"created": float64(1), "updated": float64(0), "unchanged": float64(0),
		"skipped": []any{map[string]any{"uid": "imp-2@test", "reason": `DTSTART "2027-03-27" is not a date or date-time`}}}
	if diff := cmp.Diff(want, r.JSON); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	ev, err := e.cal.GetEventByUID(as(idAdmin), "imp-1@test", calendar.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Title != "Imported, at last" || ev.TimeZone != "Europe/Berlin" || len(ev.Venues) != 1 || len(ev.Categories) != 2 {
		t.Errorf("imported %+v", ev)
	}
	// Again: nothing changes.
	r = e.do("POST", testNS+"/events/import", importBody, icalPost(importBody, user("admin"))...).must(t, 200)
	if r.obj()["unchanged"] != float64(1) || r.obj()["created"] != float64(0) {
		t.Errorf("again: %s", r.Raw)
	}
	// The language of the request is the language written.
	fr := strings.ReplaceAll(strings.ReplaceAll(importBody, "imp-1@test", "imp-fr@test"), "Imported\\, at last", "Importé")
	e.do("POST", "/fr"+testNS+"/events/import", fr, icalPost(fr, user("editor"))...).must(t, 200)
	if ev, err := e.cal.GetEventByUID(as(idAdmin), "imp-fr@test", calendar.ReadOptions{Lang: "fr"}); err != nil || ev.Title != "Importé" {
		t.Errorf("french import: %v %v", ev, err)
	}
}

func TestICalImportRefusals(t *testing.T) {
	e := newEnv(t, WithICalImport(ical.WithMaxBytes(2000)))
	// Callers below editor are refused before the body is read: a body
	// that is not even iCalendar gets 401/403, not 400.
	for who, status := range map[string]int{"": 401, "subscriber": 403, "contributor": 403, "author": 403} {
		opts := icalPost("junk")
		if who != "" {
			opts = append(opts, user(who))
		}
		if r := e.do("POST", testNS+"/events/import", "junk", opts...); r.Code != status || r.errCode() != "rest_forbidden" {
			t.Errorf("%q: %d %s", who, r.Code, r.Raw)
		}
	}
	if n := len(e.jsonEvents(testNS+"/events?status=publish,draft,pending,private", user("admin"))); n != 0 {
		t.Errorf("%d events after refused imports", n)
	}
	if r := e.do("POST", testNS+"/events/import", "hello", icalPost("hello", user("editor"))...); r.Code != 400 || r.errCode() != "rest_invalid_ical" {
		t.Errorf("not iCalendar: %d %s", r.Code, r.Raw)
	}
	if r := e.do("POST", testNS+"/events/import", importBody, user("editor")); r.Code != 415 {
		t.Errorf("JSON content type: %d %s", r.Code, r.Raw)
	}
	big := importBody + strings.Repeat("X", 2000)
	if r := e.do("POST", testNS+"/events/import", big, icalPost(big, user("editor"))...); r.Code != 413 {
		t.Errorf("too large: %d %s", r.Code, r.Raw)
	}
}
