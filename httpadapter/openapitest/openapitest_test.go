package openapitest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter"
	"github.com/eventcal/eventcal/httpadapter/openapitest"
	"github.com/eventcal/eventcal/memstore"
)

const ns = "/wp-json/calendar/events/v1"

// recT records failures instead of failing the test, so the checker's own
// verdicts can be tested. Handler reports from the server's goroutines.
type recT struct {
	testing.TB
	mu   sync.Mutex
	msgs []string
}

func (r *recT) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, format)
}
func (r *recT) Helper() {}
func (r *recT) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.msgs) > 0
}

func checker(t *testing.T, api http.Handler) *openapitest.Checker {
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, httptest.NewRequest("GET", "http://site.example"+ns+"/doc", nil))
	c, err := openapitest.Load(rec.Body.Bytes(), "/wp-json/tribe/events/v1")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func send(t *testing.T, method, url, body string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
}

// Over a real listener: what the adapter serves passes, under its own
// namespace and an alias; an answer or an accepted request that breaks the
// document fails.
func TestHandlerOverAListener(t *testing.T) {
	api := httpadapter.New(calendar.New(memstore.New()), httpadapter.WithRoot("/wp-json"),
		httpadapter.WithNamespaceAliases("tribe/events/v1"))
	c := checker(t, api)

	rt := &recT{TB: t}
	srv := httptest.NewServer(c.Handler(rt, api))
	send(t, "GET", srv.URL+ns+"/events?per_page=2", "")
	send(t, "GET", srv.URL+"/wp-json/tribe/events/v1/categories", "")
	send(t, "GET", srv.URL+ns+"/events?page=abc", "")
	send(t, "POST", srv.URL+ns+"/events", `{"title":"x"}`) // 401
	srv.Close()                                            // waits for the checks, which run after each answer
	if rt.failed() {
		t.Errorf("exchanges of the adapter failed the check: %v", rt.msgs)
	}

	liar := http.NewServeMux()
	liar.HandleFunc("GET "+ns+"/events/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"not a number"}`)
	})
	liar.HandleFunc("POST "+ns+"/events", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
	})
	for _, tc := range []struct{ method, path, body string }{
		{"GET", ns + "/events/1", ""},
		{"POST", ns + "/events", `{"title":123}`},
	} {
		rt := &recT{TB: t}
		srv := httptest.NewServer(c.Handler(rt, liar))
		send(t, tc.method, srv.URL+tc.path, tc.body)
		srv.Close()
		if !rt.failed() {
			t.Errorf("%s %s: the check passed what breaks the document", tc.method, tc.path)
		}
	}

	// The same through a checking client, for a server in another process.
	plain := httptest.NewServer(liar)
	defer plain.Close()
	rt = &recT{TB: t}
	client := &http.Client{Transport: c.Transport(rt, nil)}
	res, err := client.Get(plain.URL + ns + "/events/1")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(res.Body); string(b) != `{"id":"not a number"}` || !rt.failed() {
		t.Errorf("transport: body %q, failed %v", b, rt.failed())
	}
	good := httptest.NewServer(api)
	defer good.Close()
	rt = &recT{TB: t}
	client = &http.Client{Transport: c.Transport(rt, nil)}
	if res, err := client.Post(good.URL+ns+"/events", "application/json", strings.NewReader(`{"title":"x"}`)); err != nil || res.StatusCode != 401 || rt.failed() {
		t.Errorf("transport on the adapter: %v %v %v", res, err, rt.msgs)
	}
}
