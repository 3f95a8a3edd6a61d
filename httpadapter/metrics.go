package httpadapter

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// UnmatchedRoute is the route pattern recorded for a request no route
// matches (404 rest_no_route), so unknown paths share one label value.
const UnmatchedRoute = "unmatched"

type routeKey struct{}

type routeSlot struct{ pattern string }

// RecordRoute returns r with a slot the Handler fills with the route pattern
// it serves the request on, and a function that reads it once the request
// has been served. The pattern has the handler's root and the canonical
// namespace ("/wp-json/calendar/events/v1/events/{id}"): alias namespaces
// and language segments count as the same route. It is UnmatchedRoute for
// a path no route matches, and falls back to the pattern an http.ServeMux
// matched (r.Pattern) for requests the Handler did not serve.
func RecordRoute(r *http.Request) (*http.Request, func() string) {
	slot := &routeSlot{}
	r2 := r.WithContext(context.WithValue(r.Context(), routeKey{}, slot))
	return r2, func() string {
		switch {
		case slot.pattern != "":
			return slot.pattern
		case r2.Pattern != "":
			return r2.Pattern
		}
		return UnmatchedRoute
	}
}

// recordRoute fills the slot of RecordRoute, if any.
func recordRoute(ctx context.Context, pattern string) {
	if s, ok := ctx.Value(routeKey{}).(*routeSlot); ok {
		s.pattern = pattern
	}
}

// DefaultDurationBuckets are the upper bounds, in seconds, of the request
// duration histogram.
var DefaultDurationBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Metrics counts the requests a server answers by route pattern, method and
// status, with a histogram of their durations by route and method, and
// serves them in the Prometheus text exposition format (version 0.0.4).
// Label values stay few: routes are patterns, not paths, and methods
// outside the standard ones count as "other". It is safe for concurrent use.
type Metrics struct {
	prefix   string
	buckets  []float64
	inFlight atomic.Int64

	mu        sync.Mutex
	requests  map[requestKey]uint64
	durations map[durationKey]*histogram
}

type requestKey struct {
	route, method string
	status        int
}

type durationKey struct{ route, method string }

type histogram struct {
	counts []uint64 // per bucket, not cumulative
	sum    float64
	count  uint64
}

// NewMetrics returns an empty collector whose metric names start with
// prefix ("eventcal" gives eventcal_http_requests_total, …).
func NewMetrics(prefix string) *Metrics {
	return &Metrics{prefix: prefix, buckets: DefaultDurationBuckets,
		requests: map[requestKey]uint64{}, durations: map[durationKey]*histogram{}}
}

var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

// Observe records one answered request.
func (m *Metrics) Observe(route, method string, status int, d time.Duration) {
	if !knownMethods[method] {
		method = "other"
	}
	secs := d.Seconds()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[requestKey{route, method, status}]++
	dk := durationKey{route, method}
	h := m.durations[dk]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(m.buckets))}
		m.durations[dk] = h
	}
	if i, _ := slices.BinarySearch(m.buckets, secs); i < len(m.buckets) {
		h.counts[i]++
	}
	h.sum += secs
	h.count++
}

// Middleware records every request next answers, by the route pattern
// RecordRoute reports.
func (m *Metrics) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		m.inFlight.Add(1)
		defer m.inFlight.Add(-1)
		r, route := RecordRoute(r)
		sw := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		m.Observe(route(), r.Method, sw.Status(), time.Since(start))
	})
}

// Track counts a request in flight until the returned function is called,
// for servers that record with Observe rather than Middleware.
func (m *Metrics) Track() (done func()) {
	m.inFlight.Add(1)
	return func() { m.inFlight.Add(-1) }
}

// ServeHTTP writes the metrics in the Prometheus text format.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	bw := bufio.NewWriter(w)
	m.WriteText(bw)
	bw.Flush()
}

// WriteText writes the metrics in the Prometheus text format, series in a
// stable order.
func (m *Metrics) WriteText(w *bufio.Writer) {
	m.mu.Lock()
	reqs := make([]requestKey, 0, len(m.requests))
	for k := range m.requests {
		reqs = append(reqs, k)
	}
	counts := make(map[requestKey]uint64, len(m.requests))
	for k, v := range m.requests {
		counts[k] = v
	}
	durs := make([]durationKey, 0, len(m.durations))
	hists := make(map[durationKey]histogram, len(m.durations))
	for k, h := range m.durations {
		durs = append(durs, k)
		hists[k] = histogram{counts: slices.Clone(h.counts), sum: h.sum, count: h.count}
	}
	m.mu.Unlock()
	slices.SortFunc(reqs, func(a, b requestKey) int {
		return cmpChain(strings.Compare(a.route, b.route), strings.Compare(a.method, b.method), a.status-b.status)
	})
	slices.SortFunc(durs, func(a, b durationKey) int {
		return cmpChain(strings.Compare(a.route, b.route), strings.Compare(a.method, b.method))
	})

	name := m.prefix + "_http_requests_total"
	fmt.Fprintf(w, "# HELP %s Requests answered, by route pattern, method and status.\n# TYPE %s counter\n", name, name)
	for _, k := range reqs {
		fmt.Fprintf(w, "%s{route=%s,method=%s,status=\"%d\"} %d\n", name, labelValue(k.route), labelValue(k.method), k.status, counts[k])
	}
	name = m.prefix + "_http_request_duration_seconds"
	fmt.Fprintf(w, "# HELP %s Time from the request to the end of its answer, by route pattern and method.\n# TYPE %s histogram\n", name, name)
	for _, k := range durs {
		h := hists[k]
		labels := "route=" + labelValue(k.route) + ",method=" + labelValue(k.method)
		var cum uint64
		for i, le := range m.buckets {
			cum += h.counts[i]
			fmt.Fprintf(w, "%s_bucket{%s,le=\"%s\"} %d\n", name, labels, strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		fmt.Fprintf(w, "%s_bucket{%s,le=\"+Inf\"} %d\n", name, labels, h.count)
		fmt.Fprintf(w, "%s_sum{%s} %s\n", name, labels, strconv.FormatFloat(h.sum, 'g', -1, 64))
		fmt.Fprintf(w, "%s_count{%s} %d\n", name, labels, h.count)
	}
	name = m.prefix + "_http_requests_in_flight"
	fmt.Fprintf(w, "# HELP %s Requests being answered now.\n# TYPE %s gauge\n%s %d\n", name, name, name, m.inFlight.Load())
}

func cmpChain(cs ...int) int {
	for _, c := range cs {
		if c != 0 {
			return c
		}
	}
	return 0
}

// labelValue quotes a label value as the text format wants: backslash,
// double quote and line feed escaped.
func labelValue(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// statusRecorder remembers the status of a response. Unwrap lets
// http.ResponseController reach the connection through it.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Status is the status sent, 200 if the handler sent none.
func (w *statusRecorder) Status() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}
