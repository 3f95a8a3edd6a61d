package httpadapter

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter/openapitest"
	"github.com/eventcal/eventcal/memstore"
	"github.com/getkin/kin-openapi/openapi3"
)

// Every exchange of env.do is checked against the OpenAPI document the
// adapter serves, with kin-openapi through openapitest: the response must
// match the documented status and schema, and a request the document calls
// invalid must not be accepted. So the document cannot drift from what is
// served (wire §7).

var (
	docOnce    sync.Once
	docChecker *openapitest.Checker
	docErr     error
)

// canonicalBase is where the document's server lives in the tests.
const canonicalBase = "http://" + testHost + testNS

// openapiChecker loads the document a handler serves, once per test binary.
func openapiChecker(t testing.TB) *openapitest.Checker {
	t.Helper()
	docOnce.Do(func() {
		h := New(calendar.New(memstore.New()), WithRoot("/wp-json"), WithLogger(discardLogger()))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", canonicalBase+"/doc", nil))
		docChecker, docErr = openapitest.Load(rec.Body.Bytes(), "/wp-json/tribe/events/v1")
	})
	if docErr != nil {
		t.Fatalf("the OpenAPI document does not load: %v", docErr)
	}
	return docChecker
}

// checkExchange validates one request and its recorded response.
func checkExchange(t testing.TB, req *http.Request, body []byte, rec *httptest.ResponseRecorder) {
	t.Helper()
	openapiChecker(t).Check(t, req, body, rec.Code, rec.Header(), rec.Body.Bytes())
}

// readAll returns the request body and puts a fresh reader back.
func readAll(t testing.TB, r *http.Request) []byte {
	t.Helper()
	if r.Body == nil {
		return nil
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b
}

// The document itself loads and validates as OpenAPI 3 with kin-openapi,
// names both security schemes and gives every operation a 4xx response.
func TestOpenAPIDocumentIsComplete(t *testing.T) {
	openapiChecker(t)
	h := New(calendar.New(memstore.New()), WithRoot("/wp-json"), WithLogger(discardLogger()))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", canonicalBase+"/doc", nil))
	doc, err := openapi3.NewLoader().LoadFromData(rec.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"basic", "bearer"} {
		if doc.Components.SecuritySchemes[name] == nil {
			t.Errorf("no security scheme %s", name)
		}
	}
	n := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			n++
			has4xx := false
			for code := range op.Responses.Map() {
				has4xx = has4xx || strings.HasPrefix(code, "4")
			}
			if !has4xx {
				t.Errorf("%s %s has no 4xx response", method, path)
			}
			if method != "GET" && !strings.HasSuffix(path, "import") && op.Security == nil {
				t.Errorf("%s %s names no security", method, path)
			}
		}
	}
	get := doc.Paths.Find("/events/{id}").Get
	if get.Responses.Status(200).Value.Headers["ETag"] == nil || get.Parameters.GetByInAndName("header", "If-None-Match") == nil {
		t.Errorf("single GET lacks ETag / If-None-Match")
	}
	if doc.Paths.Find("/events/{id}").Put.Parameters.GetByInAndName("header", "If-Match") == nil {
		t.Errorf("update lacks If-Match")
	}
	list := doc.Paths.Find("/events").Get.Responses.Status(200).Value.Headers
	for _, hd := range []string{"X-TEC-Total", "X-TEC-TotalPages", "Link"} {
		if list[hd] == nil {
			t.Errorf("list lacks header %s", hd)
		}
	}
	venue := doc.Paths.Find("/events").Post.RequestBody.Value.Content.Get("application/json").Schema.Value.Properties["venue"].Value
	if len(venue.AnyOf) == 0 || venue.AnyOf[2].Ref != "#/components/schemas/VenueWrite" {
		t.Errorf("event venue write is not typed: %+v", venue)
	}
	if n < 40 {
		t.Errorf("only %d operations", n)
	}
}

// The checker catches drift: an answer that breaks the document fails.
func TestOpenAPICheckCatchesDrift(t *testing.T) {
	req := httptest.NewRequest("GET", canonicalBase+"/events/1", nil)
	rec := httptest.NewRecorder()
	writeBody(rec, 200, []byte(`{"id":"not a number"}`))
	ft := &fakeT{TB: t}
	checkExchange(ft, req, nil, rec)
	if !ft.failed {
		t.Errorf("a response of the wrong shape passed the check")
	}
	req = httptest.NewRequest("GET", canonicalBase+"/events?page=abc", nil)
	rec = httptest.NewRecorder()
	writeBody(rec, 200, []byte(`{"events":[],"rest_url":"x","total":0,"total_pages":0}`))
	ft = &fakeT{TB: t}
	checkExchange(ft, req, nil, rec)
	if !ft.failed {
		t.Errorf("an accepted request the document calls invalid passed the check")
	}
}

type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Helper()               {}
