// Package openapitest checks HTTP exchanges with an eventcal handler against
// the OpenAPI document the handler serves at {ns}/doc, with kin-openapi (an
// independent implementation of OpenAPI 3): a response must match the
// documented status, headers and schema, and a request the document calls
// invalid must not have been accepted. Tests of the adapter and of servers
// built on it use it so the document cannot drift from what is served.
//
// It is meant for tests only: importing it brings kin-openapi into the
// importing test binary, never into a program.
package openapitest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

var registerOnce sync.Once

// Checker validates exchanges against one loaded document.
type Checker struct {
	router  routers.Router
	server  *url.URL // the document's server: scheme, host and namespace path
	ns      string   // the canonical namespace path, e.g. /wp-json/calendar/events/v1
	aliases []string // other namespace paths serving the same routes
}

// Load reads and validates the document doc (the body of GET {ns}/doc).
// Requests are checked whatever host they were sent to: the document's
// server (the site URL, or the origin it was fetched from) stands for any.
// aliases are other namespace paths the handler serves the same routes
// under (httpadapter.WithNamespaceAliases), e.g. "/wp-json/tribe/events/v1".
func Load(doc []byte, aliases ...string) (*Checker, error) {
	registerOnce.Do(func() {
		openapi3filter.RegisterBodyDecoder("text/calendar", openapi3filter.PlainBodyDecoder)
	})
	d, err := openapi3.NewLoader().LoadFromData(doc)
	if err != nil {
		return nil, fmt.Errorf("openapitest: the document does not load: %w", err)
	}
	if err := d.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapitest: the document is not valid OpenAPI 3: %w", err)
	}
	if len(d.Servers) == 0 {
		return nil, fmt.Errorf("openapitest: the document names no server")
	}
	server, err := url.Parse(d.Servers[0].URL)
	if err != nil || server.Host == "" {
		return nil, fmt.Errorf("openapitest: the document's server %q is not an absolute URL", d.Servers[0].URL)
	}
	r, err := gorillamux.NewRouter(d)
	if err != nil {
		return nil, fmt.Errorf("openapitest: %w", err)
	}
	return &Checker{router: r, server: server, ns: strings.TrimSuffix(server.EscapedPath(), "/"), aliases: aliases}, nil
}

// canonicalURL maps a request URL (language segment, namespace alias,
// trailing slash) to the document's server, or reports that it is outside
// the namespace.
func (c *Checker) canonicalURL(u *url.URL) (*url.URL, bool) {
	p := u.EscapedPath()
	if seg, rest, ok := strings.Cut(strings.TrimPrefix(p, "/"), "/"); ok && calendar.Lang(seg).Valid() {
		p = "/" + rest
	}
	for _, a := range c.aliases {
		if p == a || strings.HasPrefix(p, a+"/") {
			p = c.ns + strings.TrimPrefix(p, a)
			break
		}
	}
	if p != c.ns && !strings.HasPrefix(p, c.ns+"/") {
		return nil, false
	}
	if len(p) > len(c.ns)+1 {
		p = strings.TrimSuffix(p, "/")
	} else {
		p = c.ns + "/" // the namespace index is "/" in the document
	}
	out, err := url.Parse(c.server.Scheme + "://" + c.server.Host + p)
	if err != nil {
		return nil, false
	}
	out.RawQuery = u.RawQuery
	return out, true
}

// Check validates one exchange: req as sent with its body reqBody, and the
// answer's status, header and body. Requests outside the namespace, HEAD
// and OPTIONS are not checked. Failures are reported with t.Errorf only, so
// Check may run on a server's goroutine while the test is running.
func (c *Checker) Check(t testing.TB, req *http.Request, reqBody []byte, status int, header http.Header, body []byte) {
	t.Helper()
	if req.Method == http.MethodHead || req.Method == http.MethodOptions {
		return
	}
	u, ok := c.canonicalURL(req.URL)
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
	vreq, err := http.NewRequest(method, u.String(), bytes.NewReader(reqBody))
	if err != nil {
		t.Errorf("OpenAPI: %v", err)
		return
	}
	vreq.Header = req.Header.Clone()
	route, params, err := c.router.FindRoute(vreq)
	ok2xx := status < 400
	if err != nil {
		if ok2xx {
			t.Errorf("OpenAPI: %s %s answered %d but the document has no such operation: %v", method, u, status, err)
		}
		return
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true, MultiError: true}
	in := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil && ok2xx {
		t.Errorf("OpenAPI: the document rejects %s %s (body %.200s) that the server accepted with %d:\n%v", method, u, reqBody, status, err)
	}
	if status == http.StatusNotModified {
		return // no body; the document lists 304 with its ETag
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header, Options: opts}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("OpenAPI: the %d answer to %s %s does not match the document:\n%v\nbody: %.400s", status, method, u, err, body)
	}
}

// Handler wraps h so that every exchange it serves is checked, for servers
// tested over a real listener. The request body is recorded as the handler
// reads it (so body limits and timeouts behave as without the check), and
// the answer as it is written.
func (c *Checker) Handler(t testing.TB, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sent bytes.Buffer
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = &teeBody{ReadCloser: r.Body, copy: &sent}
		}
		rec := &recorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
			rec.header = w.Header().Clone()
		}
		c.Check(t, r, sent.Bytes(), rec.status, rec.header, rec.body.Bytes())
	})
}

// maxRecorded bounds what is kept of one body: enough for any document the
// tests exchange, and a test streaming more does not pile it up.
const maxRecorded = 8 << 20

type teeBody struct {
	io.ReadCloser
	copy *bytes.Buffer
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.copy.Len()+n <= maxRecorded {
		b.copy.Write(p[:n])
	}
	return n, err
}

// recorder passes the answer on and keeps its status, header and body.
type recorder struct {
	http.ResponseWriter
	status int
	header http.Header
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 && code >= 200 {
		r.status, r.header = code, r.ResponseWriter.Header().Clone()
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	if r.body.Len()+len(p) <= maxRecorded {
		r.body.Write(p)
	}
	return r.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection (flushes,
// deadlines) through the recorder.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Flush passes flushes on, for streamed answers.
func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Transport wraps base (nil: http.DefaultTransport) so that every exchange
// a client makes through it is checked, for servers running in another
// process.
func (c *Checker) Transport(t testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &checkedTransport{t: t, c: c, base: base}
}

type checkedTransport struct {
	t    testing.TB
	c    *Checker
	base http.RoundTripper
}

func (ct *checkedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var sent []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		sent = b
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	res, err := ct.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	got, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(got))
	ct.c.Check(ct.t, req, sent, res.StatusCode, res.Header, got)
	return res, nil
}
