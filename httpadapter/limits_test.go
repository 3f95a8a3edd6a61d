package httpadapter

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// TestDotAndEmptySegments: paths with empty or dot segments are 404
// rest_no_route, through the handler alone and behind a ServeMux with Guard
// (which would otherwise redirect them with 307).
func TestDotAndEmptySegments(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	mux := http.NewServeMux()
	e.h.Register(mux)
	mux.Handle("/", e.h)
	guarded := e.h.Guard(mux)
	id := itoa(f.event)
	cases := []struct{ method, path string }{
		{"DELETE", testNS + "/events//" + id},
		{"GET", testNS + "/events/by-slug/.."},
		{"GET", testNS + "/events/./" + id},
		{"GET", testNS + "/events/" + id + "/."},
		{"GET", testNS + "/events/%2e%2e/venues"},
		{"GET", testNS + "/events/by-slug/%2E"},
		{"GET", "/wp-json//calendar/events/v1/events"},
		{"GET", "/fr/../wp-json/calendar/events/v1/events"},
		{"GET", testNS + "/events//"},
	}
	for _, c := range cases {
		for name, h := range map[string]http.Handler{"handler": e.h, "guarded mux": guarded} {
			req := httptest.NewRequest(c.method, "http://"+testHost+"/", nil)
			req.URL.RawPath, req.URL.Path = c.path, mustUnescape(t, c.path)
			req.RequestURI = c.path
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			var body map[string]any
			json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != 404 || body["code"] != "rest_no_route" {
				t.Errorf("%s: %s %s: %d %s", name, c.method, c.path, rec.Code, rec.Body)
			}
		}
	}
	// Without Guard the mux redirects: the reason Guard exists.
	req := httptest.NewRequest("DELETE", "http://"+testHost+testNS+"/events//"+id, nil)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	if rec.Code != http.StatusTemporaryRedirect {
		t.Errorf("a bare ServeMux answered %d; this test assumes it redirects unclean paths", rec.Code)
	}
	// The bare root goes to the API too (its discovery index, wire §1), not
	// to the mux's slash redirect.
	for _, p := range []string{"/wp-json", "/fr/wp-json"} {
		if r := doHandler(t, guarded, "GET", p); r.Code != 200 || r.obj()["namespaces"] == nil {
			t.Errorf("GET %s through Guard: %d %s", p, r.Code, r.Raw)
		}
		if r := doHandler(t, mux, "GET", p); r.Code < 300 || r.Code > 399 {
			t.Errorf("GET %s: a bare ServeMux answered %d; this test assumes it redirects", p, r.Code)
		}
	}
	// Clean paths still pass through Guard, trailing slash included.
	for _, p := range []string{testNS + "/events/" + id, testNS + "/events/", "/fr" + testNS + "/events"} {
		if r := doHandler(t, guarded, "GET", p); r.Code != 200 {
			t.Errorf("GET %s through Guard: %d %s", p, r.Code, r.Raw)
		}
	}
	// The event was not deleted by any of the attempts.
	e.do("GET", testNS+"/events/"+id, nil).must(t, 200)
}

func mustUnescape(t *testing.T, p string) string {
	t.Helper()
	u, err := url.PathUnescape(p)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestCleanSegments(t *testing.T) {
	for p, want := range map[string]bool{
		"/": true, "/a": true, "/a/": true, "/a/b": true, "/a/b/": true, "/a/.b": true, "/a/..b": true,
		"/a/%2e%2ex": true, "/a/b%2F..": true,
		"": false, "a": false, "//": false, "/a//b": false, "/a/./b": false, "/a/../b": false, "/a/.": false,
		"/a/..": false, "/a/%2e": false, "/a/%2E%2e/b": false, "/a//": false, "/./": false,
	} {
		if got := cleanSegments(p); got != want {
			t.Errorf("cleanSegments(%q) = %v, want %v", p, got, want)
		}
	}
}

// slowCalendar takes its time creating terms, and reports whether the
// request context was cancelled meanwhile.
type slowCalendar struct {
	calendar.Calendar
	delay time.Duration
}

func (s slowCalendar) CreateTerm(ctx context.Context, tax calendar.Taxonomy, in calendar.TermInput, opt calendar.WriteOptions) (*calendar.Term, error) {
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return nil, fmt.Errorf("request context cancelled while working: %w", ctx.Err())
	}
	return s.Calendar.CreateTerm(ctx, tax, in, opt)
}

// TestBodyReadTimeout runs the adapter on a real listener: a body that
// stalls is answered 408 rest_request_timeout (JSON, connection closed)
// after the configured wait; a body that arrives in time is served, and a
// handler working longer than the wait after reading it is not cancelled.
func TestBodyReadTimeout(t *testing.T) {
	e := newEnv(t)
	const wait = 300 * time.Millisecond
	users, _ := BasicAuth(testUsers)
	h := New(slowCalendar{e.cal, 3 * wait}, WithRoot("/wp-json"), WithAuthenticator(users),
		WithBodyReadTimeout(wait), WithLogger(discardLogger()))
	srv := httptest.NewServer(h)
	defer srv.Close()
	addr := srv.Listener.Addr().String()

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"name":"trickled tag, never finished"}`
	fmt.Fprintf(conn, "POST %s/tags HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		testNS, b64("editor:editor-pw"), len(body)+100, body)
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	took := time.Since(start)
	b, _ := io.ReadAll(res.Body)
	var eb map[string]any
	json.Unmarshal(b, &eb)
	if res.StatusCode != 408 || eb["code"] != "rest_request_timeout" || !res.Close {
		t.Errorf("stalled body: %d close=%v %s", res.StatusCode, res.Close, b)
	}
	if took < wait {
		t.Errorf("answered after %v, before the wait of %v", took, wait)
	}
	if d, _ := eb["data"].(map[string]any); d["status"] != float64(408) {
		t.Errorf("error data: %v", eb["data"])
	}
	// Nothing was created from the partial body.
	if r := e.do("GET", testNS+"/tags?search=trickled&hide_empty=false", nil).must(t, 200); r.obj()["total"] != float64(0) {
		t.Errorf("partial body created a tag: %s", r.Raw)
	}

	// A body in time, then a handler that works three times the wait.
	req, _ := http.NewRequest("POST", srv.URL+testNS+"/tags", strings.NewReader(`{"name":"slow but fine"}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("editor", "editor-pw")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Errorf("create after the body arrived in time: %d %s", res.StatusCode, b)
	}
}

// TestBodyReadTimeoutOff: WithBodyReadTimeout(0) sets no deadline.
func TestBodyReadTimeoutOff(t *testing.T) {
	e := newEnv(t, WithBodyReadTimeout(0))
	req := httptest.NewRequest("POST", "http://"+testHost+testNS+"/tags", strings.NewReader(`{"name":"x"}`))
	if e.h.startBodyDeadline(httptest.NewRecorder(), req) {
		t.Error("deadline set although turned off")
	}
	e2 := newEnv(t)
	if e2.h.cfg.bodyWait != DefaultBodyReadTimeout {
		t.Errorf("default wait %v", e2.h.cfg.bodyWait)
	}
}
