package tecimport_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/tecimport"
	"github.com/eventcal/eventcal/calendar/tecimport/tectest"
	"github.com/eventcal/eventcal/httpadapter"
	"github.com/eventcal/eventcal/memstore"
	"github.com/google/go-cmp/cmp"
)

const (
	siteUser = "migrator"
	sitePass = "abcd EFGH 1234 ijkl"
)

// clock is the instant both the site and the calendar live at, so that
// scheduled posts and term counts agree.
var clock = time.Date(2026, 3, 10, 15, 4, 5, 0, time.UTC)

func now() time.Time { return clock }

func siteZone(t testing.TB) *time.Location {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// fixture is a generated site served on a real listener.
type fixture struct {
	site *tectest.Site
	gen  tectest.Generated
	srv  *httptest.Server
}

func newFixture(t testing.TB, o tectest.GenerateOptions) *fixture {
	t.Helper()
	site := tectest.New(siteZone(t))
	site.Now = now
	site.Users[siteUser] = sitePass
	gen := site.Generate(o)
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	return &fixture{site: site, gen: gen, srv: srv}
}

func system() context.Context {
	return calendar.WithPrincipal(context.Background(), calendar.System)
}

// newCalendar is a calendar in the site's zone on memstore.
func newCalendar(t testing.TB, repo calendar.Repository) *calendar.Service {
	if repo == nil {
		repo = memstore.New()
	}
	return calendar.New(repo, calendar.WithSiteZone(siteZone(t)), calendar.WithClock(now))
}

// fast retries keep the fault tests quick.
var fast = tecimport.WithRetry(6, time.Millisecond, 20*time.Millisecond)

// serveCalendar serves svc the way the example server does (alias
// tribe/events/v1), with one administrator.
func serveCalendar(t testing.TB, svc *calendar.Service) *httptest.Server {
	t.Helper()
	users, err := httpadapter.BasicAuth([]httpadapter.User{{Name: siteUser, Password: sitePass, Role: calendar.RoleAdministrator, ID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	h := httpadapter.New(svc, httpadapter.WithRoot("/wp-json"), httpadapter.WithNamespaceAliases(tectest.Namespace),
		httpadapter.WithAuthenticator(users))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// getJSON reads one representation as an administrator.
func getJSON(t testing.TB, base, route string) (map[string]any, int) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/wp-json/"+tectest.Namespace+route, nil)
	req.SetBasicAuth(siteUser, sitePass)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("GET %s: %v: %s", route, err, b)
	}
	return m, resp.StatusCode
}

// comparable rewrites a representation so that the original's and
// eventcal's can be compared field by field: the host of every URL and
// global id becomes HOST, percent-encoding in URLs and slugs is undone
// (WordPress writes %d0, Go %D0), titles and names are decoded from HTML
// entities (the original encodes them, eventcal stores the characters),
// images keep the fields eventcal stores (url, extension: it never fetches
// an image to learn its size), and json_ld (derived data) and eventcal's own
// recurrence members (recurrence, series: the original's free interface has
// no recurring events) are left out.
func comparable(v any, hosts ...string) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			switch {
			case k == "json_ld" || k == "recurrence" || k == "series":
				continue
			case k == "image":
				if img, ok := val.(map[string]any); ok {
					val = map[string]any{"url": img["url"], "extension": img["extension"]}
				}
			case k == "title" || k == "name" || k == "venue" || k == "organizer":
				if s, ok := val.(string); ok {
					val = html.UnescapeString(s)
				}
			case k == "slug":
				if s, ok := val.(string); ok {
					if d, err := url.PathUnescape(s); err == nil {
						val = strings.ToLower(d)
					}
				}
			}
			out[k] = comparable(val, hosts...)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = comparable(x[i], hosts...)
		}
		return out
	case string:
		for _, h := range hosts {
			x = strings.ReplaceAll(x, h, "HOST")
		}
		if strings.HasPrefix(x, "http") {
			if d, err := url.PathUnescape(x); err == nil {
				x = strings.ToLower(d)
			}
		}
		return x
	}
	return v
}

// routeOf is the collection route of a site record.
type record struct {
	route string // "/events/12"
	id    int64
}

// siteRecords lists every record of the site that is not broken.
func (f *fixture) records() []record {
	var out []record
	add := func(coll string, id int64, broken bool) {
		if !broken {
			out = append(out, record{coll + "/" + strconv.FormatInt(id, 10), id})
		}
	}
	for _, t := range f.site.Terms("tribe_events_cat") {
		add("/categories", t.ID, f.site.BrokenTerm(t.ID))
	}
	for _, t := range f.site.Terms("post_tag") {
		add("/tags", t.ID, f.site.BrokenTerm(t.ID))
	}
	for _, v := range f.site.Venues() {
		add("/venues", v.ID, f.site.Broken(v.ID))
	}
	for _, o := range f.site.Organizers() {
		add("/organizers", o.ID, f.site.Broken(o.ID))
	}
	for _, e := range f.site.Events() {
		add("/events", e.ID, f.site.Broken(e.ID))
	}
	return out
}

// diffAll reads every record from the site and from eventcal (same ids)
// and returns one line per record that differs.
func diffAll(t *testing.T, f *fixture, ours *httptest.Server) []string {
	t.Helper()
	hosts := []string{hostOf(f.srv.URL), hostOf(ours.URL)}
	var diffs []string
	for _, r := range f.records() {
		src, code := getJSON(t, f.srv.URL, r.route)
		if code != http.StatusOK {
			t.Fatalf("site %s: HTTP %d %v", r.route, code, src)
		}
		got, code := getJSON(t, ours.URL, r.route)
		if code != http.StatusOK {
			diffs = append(diffs, fmt.Sprintf("eventcal %s: HTTP %d %v", r.route, code, got))
			continue
		}
		if d := cmp.Diff(comparable(src, hosts...), comparable(got, hosts...)); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s differs (-site +eventcal):\n%s", r.route, d))
		}
	}
	return diffs
}

// compareAll fails t unless every record of the site equals eventcal's.
func compareAll(t *testing.T, f *fixture, ours *httptest.Server) {
	t.Helper()
	diffs := diffAll(t, f, ours)
	for i, d := range diffs {
		if i == 5 {
			break
		}
		t.Error(d)
	}
	if len(diffs) > 0 {
		t.Errorf("%d of %d records differ", len(diffs), len(f.records()))
	}
}

func hostOf(u string) string {
	p, _ := url.Parse(u)
	return p.Host
}

func counts(s *tecimport.Summary) string {
	var b strings.Builder
	for _, k := range s.Kinds {
		fmt.Fprintf(&b, "%s %+v\n", k.Kind, *k)
	}
	return b.String()
}
