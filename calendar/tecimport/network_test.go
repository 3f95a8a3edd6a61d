package tecimport_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/tecimport"
	"github.com/eventcal/eventcal/calendar/tecimport/tectest"
)

var small = tectest.GenerateOptions{Seed: 4, Events: 150, Venues: 30, Organizers: 30, Categories: 12, Tags: 30, Broken: true}

// TestNetworkCutsAreRetried cuts the connection in the middle of the run
// (before any answer, in the middle of a body, and with 503s): every cut
// request is retried and the result is the same as on a clean network.
func TestNetworkCutsAreRetried(t *testing.T) {
	for _, fault := range []struct {
		name string
		f    tectest.Fault
	}{{"cut", tectest.Cut}, {"mid-body", tectest.CutMidBody}, {"503", tectest.Unavailable}} {
		t.Run(fault.name, func(t *testing.T) {
			f := newFixture(t, small)
			svc := newCalendar(t, nil)
			f.site.FailNext(12, 3, fault.f) // after the discovery and the first lists
			var progress strings.Builder
			sum, err := tecimport.Run(system(), svc, f.srv.URL, tecimport.WithCredentials(siteUser, sitePass),
				tecimport.WithSourceAuthors(), tecimport.WithProgress(&progress, 0), fast)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := f.site.FaultsServed(); got != 3 {
				t.Fatalf("%d faults served, want 3", got)
			}
			// net/http itself retries a GET whose reused connection closed
			// before any answer, so a plain cut may not reach our retries.
			want := int64(3)
			if fault.f == tectest.Cut {
				want = 1
			}
			if sum.Retries < want {
				t.Errorf("%d retries for 3 failed requests", sum.Retries)
			}
			if !strings.Contains(progress.String(), "retrying in") {
				t.Errorf("retries not reported:\n%s", progress.String())
			}
			if len(sum.Problems) != len(f.gen.BrokenPosts)+len(f.gen.BrokenTerms) {
				t.Errorf("problems beyond the broken records: %v", sum.Problems)
			}
			compareAll(t, f, serveCalendar(t, svc))
		})
	}
}

// TestNetworkDownGivesUp: a site that stays unreachable ends the page with
// a reported error after the configured tries, and the run goes on with the
// next page.
func TestNetworkDownGivesUp(t *testing.T) {
	f := newFixture(t, small)
	svc := newCalendar(t, nil)
	f.site.FailNext(6, 4, tectest.CutMidBody) // one whole page: 4 tries
	sum, err := tecimport.Run(system(), svc, f.srv.URL, tecimport.WithCredentials(siteUser, sitePass),
		tecimport.WithRetry(4, 0, 0), tecimport.WithPerPage(20))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	var pageErr *tecimport.PageError
	found := false
	for _, p := range sum.Problems {
		if errors.As(p.Err, &pageErr) && strings.Contains(p.Err.Error(), "giving up after 4 tries") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no page reported lost: %v", sum.Problems)
	}
	if sum.Total().Created == 0 {
		t.Error("the run stopped at the lost page")
	}
}

// TestDiscovery finds the interface from the site's home page (Link
// header), from /wp-json/, from the namespace URL, and on a site without
// pretty permalinks (/?rest_route=/).
func TestDiscovery(t *testing.T) {
	f := newFixture(t, tectest.GenerateOptions{Seed: 5, Events: 5, Venues: 2, Organizers: 2, Categories: 2, Tags: 2})
	for _, from := range []string{f.srv.URL, f.srv.URL + "/", f.srv.URL + "/wp-json", f.srv.URL + "/wp-json/",
		f.srv.URL + "/wp-json/tribe/events/v1", f.srv.URL + "/wp-json/tribe/events/v1/events?per_page=3",
		strings.TrimPrefix(f.srv.URL, "http://")} {
		c, err := tecimport.Connect(context.Background(), from, fast)
		if strings.HasPrefix(from, "127.") {
			// A bare host means https, which the test server does not speak.
			if err == nil {
				t.Errorf("%s: connected over https to a plain server", from)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", from, err)
			continue
		}
		if got, want := c.Site().API, f.srv.URL+"/wp-json/tribe/events/v1"; got != want {
			t.Errorf("%s: API %s, want %s", from, got, want)
		}
		if c.Site().TimeZone != "America/New_York" {
			t.Errorf("%s: site zone %q", from, c.Site().TimeZone)
		}
	}

	plain := tectest.New(siteZone(t))
	plain.Now, plain.PlainPermalinks = now, true
	plain.Generate(tectest.GenerateOptions{Seed: 6, Events: 30, Venues: 5, Organizers: 5, Categories: 4, Tags: 4})
	srv := httptest.NewServer(plain)
	defer srv.Close()
	c, err := tecimport.Connect(context.Background(), srv.URL, fast)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Site().API, "rest_route=") {
		t.Errorf("plain permalinks: API %s", c.Site().API)
	}
	svc := newCalendar(t, nil)
	sum, err := tecimport.Run(system(), svc, srv.URL+"/?rest_route=/", fast)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Kind(calendar.KindEvent).Created == 0 || sum.Kind(calendar.KindVenue).Created == 0 {
		t.Errorf("nothing imported through ?rest_route=: %s", counts(sum))
	}

	// Not a site of the original plugin.
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	if _, err := tecimport.Connect(context.Background(), other.URL, fast); !errors.Is(err, tecimport.ErrNotFound) {
		t.Errorf("a site without the interface: %v", err)
	}
}

// TestPerPageFallback: a site that refuses large pages (as WordPress core
// does above 100) is read with 50, then with its default.
func TestPerPageFallback(t *testing.T) {
	f := newFixture(t, small)
	f.site.RejectLargePerPage = true
	svc := newCalendar(t, nil)
	sum, err := tecimport.Run(system(), svc, f.srv.URL, tecimport.WithCredentials(siteUser, sitePass), tecimport.WithSourceAuthors(), fast)
	if err != nil {
		t.Fatal(err)
	}
	want := expected(f)
	if got := sum.Kind(calendar.KindEvent); got.Created != want[calendar.KindEvent][0]-want[calendar.KindEvent][1] {
		t.Errorf("events: %+v, want %v", got, want[calendar.KindEvent])
	}
	// 150 events read 50 a page: far fewer requests than the default 9 a page would need.
	if sum.Requests > 200 {
		t.Errorf("%d requests: the page size did not stay at 50", sum.Requests)
	}
	compareAll(t, f, serveCalendar(t, svc))
}

// TestOnlySystemImports: an import as anyone but System is refused before
// the site is read.
func TestOnlySystemImports(t *testing.T) {
	f := newFixture(t, tectest.GenerateOptions{Seed: 7, Events: 5})
	svc := newCalendar(t, nil)
	admin := calendar.WithPrincipal(context.Background(), calendar.Principal{ID: 1, Role: calendar.RoleAdministrator})
	for _, ctx := range []context.Context{context.Background(), admin} {
		if _, err := tecimport.Run(ctx, svc, f.srv.URL); !errors.Is(err, calendar.ErrForbidden) && !errors.Is(err, calendar.ErrUnauthenticated) {
			t.Errorf("import as a non-system caller: %v", err)
		}
	}
}
