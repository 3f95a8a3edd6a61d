package httpadapter

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// FuzzGuardedPaths: whatever the path, the API behind Guard and a ServeMux
// never answers with a redirect, and cleanSegments agrees with path.Clean
// on paths without escapes.
func FuzzGuardedPaths(f *testing.F) {
	for _, p := range []string{"/", "/wp-json", "/wp-json/", "/fr/wp-json", "/wp-json/calendar/events/v1/events//1",
		"/wp-json/calendar/events/v1/events/by-slug/..", "/wp-json/./calendar", "/a/%2e%2e/b", "/x/../wp-json/calendar/events/v1",
		"/wp-json/tribe/events/v1/events/1/", "//", "/fr/../de/wp-json/calendar/events/v1/events", "/de/wp-json", "/xx/wp-json"} {
		f.Add(p)
	}
	api := New(calendar.New(memstore.New()), WithRoot("/wp-json"), WithLanguageSegments(true),
		WithNamespaceAliases("tribe/events/v1"), WithLogger(discardLogger()))
	mux := http.NewServeMux()
	api.Register(mux)
	mux.Handle("/", api)
	h := api.Guard(mux)
	f.Fuzz(func(t *testing.T, p string) {
		if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "?# \t\r\n") {
			return
		}
		un, err := url.PathUnescape(p)
		if err != nil {
			return
		}
		u := &url.URL{Path: un, RawPath: p}
		if u.EscapedPath() != p {
			return // not a form a client can send as is
		}
		req := httptest.NewRequest("GET", "http://example.test/", nil)
		req.URL, req.RequestURI = u, p
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 300 && rec.Code < 400 {
			t.Fatalf("GET %q: redirect %d to %q", p, rec.Code, rec.Header().Get("Location"))
		}
		if !strings.Contains(p, "%") {
			clean := path.Clean(p)
			if strings.HasSuffix(p, "/") && clean != "/" {
				clean += "/"
			}
			if cleanSegments(p) != (clean == p) {
				t.Fatalf("cleanSegments(%q) = %v, path.Clean gives %q", p, cleanSegments(p), clean)
			}
		}
	})
}
