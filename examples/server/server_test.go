package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter/openapitest"
)

// start runs the server's wiring on a real TCP listener on 127.0.0.1:0.
func start(t *testing.T, cfg config) (base string, logs *logBuffer) {
	t.Helper()
	logs = &logBuffer{}
	cfg.Log = slog.New(slog.NewTextHandler(logs, nil))
	srv, err := newServer(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Every exchange under the API's namespaces is checked against the
	// OpenAPI document this server serves.
	hs := httpServer(cfg, documented(t, srv.Handler))
	go hs.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		srv.Close()
	})
	return "http://" + ln.Addr().String(), logs
}

// documented wraps h so that every exchange under the API's namespaces is
// checked against the OpenAPI document h serves (openapitest).
func documented(t testing.TB, h http.Handler) http.Handler {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1"+apiNS+"/doc", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s/doc: %d %s", apiNS, rec.Code, rec.Body)
	}
	docMu.Lock()
	defer docMu.Unlock()
	c := docCheckers[rec.Body.String()]
	if c == nil { // loading a document costs seconds under -race: once per content
		var err error
		if c, err = openapitest.Load(rec.Body.Bytes(), "/wp-json/tribe/events/v1"); err != nil {
			t.Fatal(err)
		}
		docCheckers[rec.Body.String()] = c
	}
	return c.Handler(t, h)
}

var (
	docMu       sync.Mutex
	docCheckers = map[string]*openapitest.Checker{}
)

// logBuffer collects log lines written by the server's goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func getJSON(t *testing.T, req *http.Request) (*http.Response, map[string]any) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	b, _ := io.ReadAll(res.Body)
	if len(b) > 0 {
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v: %s", req.URL, err, b)
		}
	}
	return res, m
}

func TestServerOverTCP(t *testing.T) {
	usersFile := writeUsers(t, "boss:pw:administrator\nsub:pw2:subscriber:10\n")
	base, logs := start(t, config{Store: "mem", UsersFile: usersFile, Demo: true, TimeZone: "America/New_York",
		SiteURL: "https://events.example", CORSOrigin: "https://app.example",
		Now: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }})

	// Demo data: at least 30 upcoming events, two languages.
	res, list := getJSON(t, mustReq(t, "GET", base+"/wp-json/tribe/events/v1/events?per_page=50", ""))
	if res.StatusCode != 200 || list["total"].(float64) < 30 {
		t.Fatalf("%d total %v", res.StatusCode, list["total"])
	}
	first := list["events"].([]any)[0].(map[string]any)
	if !strings.HasPrefix(first["url"].(string), "https://events.example/event/") {
		t.Errorf("site url not used: %v", first["url"])
	}
	_, fr := getJSON(t, mustReq(t, "GET", base+"/fr/wp-json/calendar/events/v1/events?per_page=1", ""))
	if frTitle := fr["events"].([]any)[0].(map[string]any)["title"]; frTitle == first["title"] {
		t.Errorf("no French title: %v", frTitle)
	}
	_, venues := getJSON(t, mustReq(t, "GET", base+"/wp-json/calendar/events/v1/venues", ""))
	if venues["total"].(float64) < 3 || venues["venues"].([]any)[0].(map[string]any)["geo_lat"] == nil {
		t.Errorf("venues %v", venues["total"])
	}
	_, cats := getJSON(t, mustReq(t, "GET", base+"/wp-json/calendar/events/v1/categories?hide_empty=false", ""))
	hasParent := false
	for _, c := range cats["categories"].([]any) {
		if c.(map[string]any)["parent"].(float64) != 0 {
			hasParent = true
		}
	}
	if !hasParent {
		t.Error("no category with a parent")
	}
	// Users from the file: the admin creates, the subscriber may not.
	req := mustReq(t, "POST", base+"/wp-json/calendar/events/v1/events", `{"title":"TCP","start_date":"2026-12-24 18:00","end_date":"2026-12-24 20:00"}`)
	req.SetBasicAuth("boss", "pw")
	if res, body := getJSON(t, req); res.StatusCode != 201 || body["author"] != "1" {
		t.Errorf("create: %d %v", res.StatusCode, body)
	}
	req = mustReq(t, "POST", base+"/wp-json/calendar/events/v1/events", `{"title":"x"}`)
	req.SetBasicAuth("sub", "pw2")
	if res, _ := getJSON(t, req); res.StatusCode != 403 {
		t.Errorf("subscriber create: %d", res.StatusCode)
	}
	// CORS and the home page.
	req = mustReq(t, "GET", base+"/wp-json/calendar/events/v1/events", "")
	req.Header.Set("Origin", "https://app.example")
	if res, _ := getJSON(t, req); res.Header.Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Error("CORS origin not configured")
	}
	res, err := http.Get(base + "/")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("home: %v %v", res, err)
	}
	res.Body.Close()
	// Each request is logged, credentials never.
	if !strings.Contains(logs.String(), "path=/wp-json/calendar/events/v1/events") || strings.Contains(logs.String(), "pw2") {
		t.Errorf("log: %s", logs.String())
	}
}

func TestGeneratedAdmin(t *testing.T) {
	var out strings.Builder
	srv, err := newServer(context.Background(), config{Store: "mem", Out: &out, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	line := out.String()
	i := strings.Index(line, "password ")
	if i < 0 {
		t.Fatalf("no password printed: %q", line)
	}
	pw := strings.Fields(line[i+len("password "):])[0]
	if len(pw) < 16 {
		t.Errorf("weak password %q", pw)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	hs := &http.Server{Handler: srv.Handler}
	go hs.Serve(ln)
	defer hs.Close()
	req := mustReq(t, "POST", "http://"+ln.Addr().String()+"/wp-json/calendar/events/v1/tags", `{"name":"x"}`)
	req.SetBasicAuth("admin", pw)
	if res, _ := getJSON(t, req); res.StatusCode != 201 {
		t.Errorf("admin with the printed password: %d", res.StatusCode)
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []config{{Store: "nope"}, {TimeZone: "Mars/Base"}, {UsersFile: "/nonexistent/users"}} {
		if _, err := newServer(context.Background(), cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

func mustReq(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// TestBoltStoreKeepsData: -store bolt writes to -db and a restart sees it.
func TestBoltStoreKeepsData(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cal.db")
	users := writeUsers(t, "boss:pw:administrator\n")
	cfg := config{Store: "bolt", DB: db, UsersFile: users, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	srv, err := newServer(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	hs := &http.Server{Handler: srv.Handler}
	go hs.Serve(ln)
	req := mustReq(t, "POST", "http://"+ln.Addr().String()+"/wp-json/calendar/events/v1/venues", `{"venue":"Durable Hall"}`)
	req.SetBasicAuth("boss", "pw")
	if res, _ := getJSON(t, req); res.StatusCode != 201 {
		t.Fatalf("create: %d", res.StatusCode)
	}
	hs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	base, _ := start(t, cfg)
	if res, body := getJSON(t, mustReq(t, "GET", base+"/wp-json/calendar/events/v1/venues/by-slug/durable-hall", "")); res.StatusCode != 200 || body["venue"] != "Durable Hall" {
		t.Errorf("after restart: %d %v", res.StatusCode, body)
	}
}

// TestDemoLoadsOnce: -demo on a durable store that already holds events does
// not add a second copy of the sample data.
func TestDemoLoadsOnce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	cfg := config{Store: "bolt", DB: db, Demo: true, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	count := func() int {
		srv, err := newServer(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		p, err := srv.Calendar.ListEvents(calendar.WithPrincipal(context.Background(), calendar.System), calendar.EventQuery{StartDate: "1970-01-01", PerPage: 1})
		if err != nil {
			t.Fatal(err)
		}
		return p.Total
	}
	first := count()
	if first < 30 {
		t.Fatalf("demo loaded %d events, want at least 30", first)
	}
	if again := count(); again != first {
		t.Fatalf("second -demo run: %d events, want %d", again, first)
	}
}

// TestTwoInstancesShareRedis: two servers on one Redis prefix are one calendar.
func TestTwoInstancesShareRedis(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	prefix := fmt.Sprintf("servertest-%d", time.Now().UnixNano())
	users := writeUsers(t, "boss:pw:administrator\n")
	cfg := config{Store: "redis", RedisURL: url, RedisPrefix: prefix, UsersFile: users}
	probe, err := newServer(context.Background(), cfg)
	if err != nil {
		if os.Getenv("EVENTCAL_REQUIRE_REDIS") == "1" {
			t.Fatalf("redis at %s: %v", url, err)
		}
		t.Skipf("no Redis at %s (%v); start one with: redis-server --port 6379 --save '' --daemonize yes", url, err)
	}
	probe.Close()
	t.Cleanup(func() { cleanRedisPrefix(t, url, prefix) })
	a, _ := start(t, cfg)
	b, _ := start(t, cfg)
	req := mustReq(t, "POST", a+"/wp-json/calendar/events/v1/events", `{"title":"Shared","start_date":"2030-01-01 10:00","end_date":"2030-01-01 11:00"}`)
	req.SetBasicAuth("boss", "pw")
	if res, _ := getJSON(t, req); res.StatusCode != 201 {
		t.Fatalf("create on a: %d", res.StatusCode)
	}
	res, body := getJSON(t, mustReq(t, "GET", b+"/wp-json/calendar/events/v1/events/by-slug/shared", ""))
	if res.StatusCode != 200 || body["title"] != "Shared" {
		t.Fatalf("read on b: %d %v", res.StatusCode, body)
	}
}

// cleanRedisPrefix deletes the keys of one test calendar.
func cleanRedisPrefix(t *testing.T, url, prefix string) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	ctx := context.Background()
	iter := c.Scan(ctx, 0, "{"+prefix+"}*", 500).Iterator()
	for iter.Next(ctx) {
		c.Del(ctx, iter.Val())
	}
}

// TestUnknownPathsGetJSON404: an unknown language segment or path outside the
// API gets the API's rest_no_route error, not a plain-text 404.
func TestUnknownPathsGetJSON404(t *testing.T) {
	base, _ := start(t, config{Store: "mem"})
	for _, path := range []string{"/xx/wp-json/tribe/events/v1/events", "/wp-json/tribe/events/v1/nope", "/elsewhere"} {
		res, body := getJSON(t, mustReq(t, "GET", base+path, ""))
		if res.StatusCode != 404 || body["code"] != "rest_no_route" {
			t.Errorf("GET %s: %d %v", path, res.StatusCode, body)
		}
	}
	res, body := getJSON(t, mustReq(t, "GET", base+"/fr/wp-json/tribe/events/v1/events", ""))
	if res.StatusCode != 200 || body["total"] == nil {
		t.Errorf("known language segment: %d %v", res.StatusCode, body)
	}
}
