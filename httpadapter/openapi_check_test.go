package httpadapter

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Every exchange of env.do is checked against the OpenAPI document the
// adapter serves, with kin-openapi (an independent implementation of
// OpenAPI 3): the response must match the documented status and schema,
// and a request the document calls invalid must not be accepted. So the
// document cannot drift from what is served (wire §7).

func init() {
	openapi3filter.RegisterBodyDecoder("text/calendar", openapi3filter.PlainBodyDecoder)
}

var (
	docOnce   sync.Once
	docRouter routers.Router
	docErr    error
)

// canonicalBase is where the document's server lives in the tests.
const canonicalBase = "http://" + testHost + testNS

func openapiRouter(t testing.TB) routers.Router {
	t.Helper()
	docOnce.Do(func() {
		h := New(calendar.New(memstore.New()), WithRoot("/wp-json"), WithLogger(discardLogger()))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", canonicalBase+"/doc", nil))
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(rec.Body.Bytes())
		if err != nil {
			docErr = err
			return
		}
		if docErr = doc.Validate(context.Background()); docErr != nil {
			return
		}
		docRouter, docErr = gorillamux.NewRouter(doc)
	})
	if docErr != nil {
		t.Fatalf("the OpenAPI document does not load: %v", docErr)
	}
	return docRouter
}

// canonicalURL maps a request URL (language segment, namespace alias,
// trailing slash) to the document's server, or reports that it is outside
// the namespace.
func canonicalURL(u *url.URL) (*url.URL, bool) {
	p := u.EscapedPath()
	if seg, rest, ok := strings.Cut(strings.TrimPrefix(p, "/"), "/"); ok && calendar.Lang(seg).Valid() {
		p = "/" + rest
	}
	p = strings.Replace(p, "/wp-json/tribe/events/v1", testNS, 1)
	if p != testNS && !strings.HasPrefix(p, testNS+"/") {
		return nil, false
	}
	if len(p) > len(testNS)+1 {
		p = strings.TrimSuffix(p, "/")
	} else {
		p = testNS + "/" // the namespace index is "/" in the document
	}
	out, err := url.Parse("http://" + testHost + p)
	if err != nil {
		return nil, false
	}
	out.RawQuery = u.RawQuery
	return out, true
}

// checkExchange validates one request and its recorded response.
func checkExchange(t testing.TB, req *http.Request, body []byte, rec *httptest.ResponseRecorder) {
	t.Helper()
	if req.Method == http.MethodHead || req.Method == http.MethodOptions {
		return
	}
	u, ok := canonicalURL(req.URL)
	if !ok {
		return
	}
	method := req.Method
	if method == http.MethodPost {
		m := req.Header.Get("X-HTTP-Method-Override")
		if m == "" {
			m = req.URL.Query().Get("_method")
		}
		switch m = strings.ToUpper(strings.TrimSpace(m)); m {
		case http.MethodPut, http.MethodPatch, http.MethodDelete:
			method = m
		}
	}
	q := u.Query()
	q.Del("_method")
	u.RawQuery = q.Encode()
	vreq, err := http.NewRequest(method, u.String(), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	vreq.Header = req.Header.Clone()
	router := openapiRouter(t)
	route, params, err := router.FindRoute(vreq)
	ok2xx := rec.Code < 400
	if err != nil {
		if ok2xx {
			t.Errorf("OpenAPI: %s %s answered %d but the document has no such operation: %v", method, u, rec.Code, err)
		}
		return
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true, MultiError: true}
	in := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil && ok2xx {
		t.Errorf("OpenAPI: the document rejects %s %s (body %.200s) that the server accepted with %d:\n%v", method, u, body, rec.Code, err)
	}
	if rec.Code == http.StatusNotModified {
		return // no body; the document lists 304 with its ETag
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code, Header: rec.Header(), Options: opts}
	out.SetBodyBytes(rec.Body.Bytes())
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("OpenAPI: the %d answer to %s %s does not match the document:\n%v\nbody: %.400s", rec.Code, method, u, err, rec.Body.String())
	}
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
	openapiRouter(t)
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
