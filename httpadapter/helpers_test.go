package httpadapter

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// now is the fixed clock of every test: Sunday 22 Nov 2026, 12:00 UTC.
var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

const (
	idAdmin        = 1
	idEditor       = 2
	idAuthor       = 3
	idContributor  = 4
	idSubscriber   = 5
	idAuthor2      = 6
	idContributor2 = 7
)

var testUsers = []User{
	{Name: "admin", Password: "admin-pw", Role: calendar.RoleAdministrator, ID: idAdmin},
	{Name: "editor", Password: "editor-pw", Role: calendar.RoleEditor, ID: idEditor},
	{Name: "author", Password: "author-pw", Role: calendar.RoleAuthor, ID: idAuthor},
	{Name: "contributor", Password: "contributor-pw", Role: calendar.RoleContributor, ID: idContributor},
	{Name: "subscriber", Password: "subscriber-pw", Role: calendar.RoleSubscriber, ID: idSubscriber},
	{Name: "author2", Password: "author2-pw", Role: calendar.RoleAuthor, ID: idAuthor2},
	{Name: "contributor2", Password: "contributor2-pw", Role: calendar.RoleContributor, ID: idContributor2},
}

// env is one calendar on memstore behind the adapter.
type env struct {
	t   *testing.T
	cal *calendar.Service
	h   *Handler
}

const (
	testNS   = "/wp-json/calendar/events/v1"
	testHost = "example.test"
)

func newEnv(t *testing.T, opts ...Option) *env {
	t.Helper()
	users, err := BasicAuth(testUsers)
	if err != nil {
		t.Fatal(err)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	cal := calendar.New(memstore.New(), calendar.WithClock(func() time.Time { return now }),
		calendar.WithUsers(users), calendar.WithSiteZone(ny))
	base := []Option{WithRoot("/wp-json"), WithNamespaceAliases("tribe/events/v1"), WithLanguageSegments(true),
		WithAuthenticator(Chain(users, BearerAuth(map[string]calendar.Principal{"tok-editor": {ID: idEditor, Role: calendar.RoleEditor}}))),
		WithLogger(discardLogger())}
	return &env{t: t, cal: cal, h: New(cal, append(base, opts...)...)}
}

// as returns a context acting as the user with that id (0: System).
func as(id int64) context.Context {
	for _, u := range testUsers {
		if u.ID == id {
			return calendar.WithPrincipal(context.Background(), calendar.Principal{ID: u.ID, Role: u.Role})
		}
	}
	return calendar.WithPrincipal(context.Background(), calendar.System)
}

// resp is a recorded response with its body decoded as JSON (when it is).
type resp struct {
	Code   int
	Header http.Header
	Raw    string
	JSON   any
}

func (r *resp) obj() map[string]any {
	m, _ := r.JSON.(map[string]any)
	return m
}

func (r *resp) errCode() string {
	s, _ := r.obj()["code"].(string)
	return s
}

type reqOpt func(*http.Request)

func user(name string) reqOpt {
	return func(r *http.Request) {
		for _, u := range testUsers {
			if u.Name == name {
				r.SetBasicAuth(u.Name, u.Password)
			}
		}
	}
}

func header(k, v string) reqOpt { return func(r *http.Request) { r.Header.Set(k, v) } }

// do sends a request; a string body is sent as JSON unless a Content-Type
// option says otherwise.
func (e *env) do(method, path string, body any, opts ...reqOpt) *resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, "http://"+testHost+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, o := range opts {
		o(req)
	}
	sent := readAll(e.t, req)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	checkExchange(e.t, req, sent, rec) // against the OpenAPI document (openapi_check_test.go)
	out := &resp{Code: rec.Code, Header: rec.Header(), Raw: rec.Body.String()}
	if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &out.JSON); err != nil {
			e.t.Fatalf("%s %s: body is not JSON: %v\n%s", method, path, err, rec.Body.String())
		}
	}
	return out
}

// must fails the test unless the response has the wanted status.
func (r *resp) must(t *testing.T, status int) *resp {
	t.Helper()
	if r.Code != status {
		t.Fatalf("status %d, want %d; body %s", r.Code, status, r.Raw)
	}
	return r
}

func ptr[T any](v T) *T { return &v }

// topLevelKeys returns the keys of a JSON object in document order.
func topLevelKeys(t *testing.T, raw string) []string {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(raw))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func refID(id int64) calendar.Ref { return calendar.ByID(id) }

func readOpts() calendar.ReadOptions { return calendar.ReadOptions{} }

func writeLang(l calendar.Lang) calendar.WriteOptions { return calendar.WriteOptions{Lang: l} }

func evTitle(s string) calendar.EventInput { return calendar.EventInput{Title: calendar.Some(s)} }

// doHandler sends a body-less request to any handler.
func doHandler(t *testing.T, h http.Handler, method, path string) *resp {
	t.Helper()
	req := httptest.NewRequest(method, "http://"+testHost+path, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	checkExchange(t, req, nil, rec)
	out := &resp{Code: rec.Code, Header: rec.Header(), Raw: rec.Body.String()}
	if rec.Body.Len() > 0 && strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(rec.Body.Bytes(), &out.JSON); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func sortStrings(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func textLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func splitComma(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
