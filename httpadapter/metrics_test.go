package httpadapter

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sample is one parsed line of the text exposition format.
type sample struct {
	name   string
	labels map[string]string
	value  float64
}

var (
	metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	labelName  = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
)

// parseExposition parses the Prometheus text format strictly: HELP and
// TYPE comments before the samples of their family, valid names, quoted
// and escaped label values, float values, one family per TYPE.
func parseExposition(t *testing.T, text string) (samples []sample, types map[string]string) {
	t.Helper()
	types = map[string]string{}
	if !strings.HasSuffix(text, "\n") {
		t.Fatalf("exposition does not end with a line feed")
	}
	family := ""
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		fail := func(why string) { t.Fatalf("line %d %q: %s", i+1, line, why) }
		if strings.HasPrefix(line, "#") {
			f := strings.SplitN(line, " ", 4)
			if len(f) < 4 || (f[1] != "HELP" && f[1] != "TYPE") || !metricName.MatchString(f[2]) {
				fail("bad comment")
			}
			if f[1] == "TYPE" {
				if _, dup := types[f[2]]; dup {
					fail("second TYPE for a family")
				}
				if !slices.Contains([]string{"counter", "gauge", "histogram", "summary", "untyped"}, f[3]) {
					fail("unknown type")
				}
				types[f[2]] = f[3]
				family = f[2]
			}
			continue
		}
		s := sample{labels: map[string]string{}}
		rest := line
		j := strings.IndexAny(rest, "{ ")
		if j < 0 {
			fail("no value")
		}
		s.name, rest = rest[:j], rest[j:]
		if !metricName.MatchString(s.name) {
			fail("bad metric name")
		}
		if base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s.name, "_bucket"), "_sum"), "_count"); s.name != family && base != family {
			fail("sample outside its family " + family)
		}
		if rest[0] == '{' {
			rest = rest[1:]
			for rest[0] != '}' {
				eq := strings.IndexByte(rest, '=')
				if eq < 0 || !labelName.MatchString(rest[:eq]) || rest[eq+1] != '"' {
					fail("bad label")
				}
				name := rest[:eq]
				rest = rest[eq+2:]
				var val strings.Builder
				for {
					if rest == "" {
						fail("unterminated label value")
					}
					c := rest[0]
					rest = rest[1:]
					if c == '"' {
						break
					}
					if c == '\\' {
						switch rest[0] {
						case '\\', '"':
							val.WriteByte(rest[0])
						case 'n':
							val.WriteByte('\n')
						default:
							fail("bad escape")
						}
						rest = rest[1:]
						continue
					}
					if c == '\n' {
						fail("raw line feed in a label value")
					}
					val.WriteByte(c)
				}
				if _, dup := s.labels[name]; dup {
					fail("duplicate label")
				}
				s.labels[name] = val.String()
				if rest[0] == ',' {
					rest = rest[1:]
				}
			}
			rest = rest[1:]
		}
		if !strings.HasPrefix(rest, " ") {
			fail("no space before the value")
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		if err != nil {
			fail("bad value")
		}
		s.value = v
		samples = append(samples, s)
	}
	return samples, types
}

func find(samples []sample, name string, labels map[string]string) (float64, bool) {
	for _, s := range samples {
		if s.name != name || len(s.labels) != len(labels) {
			continue
		}
		match := true
		for k, v := range labels {
			if s.labels[k] != v {
				match = false
			}
		}
		if match {
			return s.value, true
		}
	}
	return 0, false
}

// TestMetrics: requests through the middleware are counted by route
// pattern (aliases and language segments folded in), method and status;
// the histogram is consistent; the output parses as the text format.
func TestMetrics(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	m := NewMetrics("eventcal")
	mux := http.NewServeMux()
	e.h.Register(mux)
	mux.Handle("/", e.h)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {})
	h := m.Middleware(e.h.Guard(mux))
	do := func(method, path string, n int) {
		for range n {
			req := httptest.NewRequest(method, "http://"+testHost+path, nil)
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	}
	do("GET", testNS+"/events", 3)
	do("GET", "/wp-json/tribe/events/v1/events", 1)
	do("GET", "/fr"+testNS+"/events/", 1)
	do("GET", fmt.Sprintf("%s/events/%d", testNS, f.event), 2)
	do("GET", testNS+"/events/999999", 1)
	do("POST", testNS+"/tags", 1)
	do("GET", testNS+"/nothing", 1)
	do("GET", "/elsewhere", 1)
	do("GET", testNS+"//events", 1)
	do("BREW", testNS+"/events", 1)
	do("GET", "/healthz", 2)
	m.Observe(`odd "route"`+"\n\\", "GET", 200, 3*time.Second)

	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("content type %q", ct)
	}
	samples, types := parseExposition(t, rec.Body.String())
	if types["eventcal_http_requests_total"] != "counter" || types["eventcal_http_request_duration_seconds"] != "histogram" ||
		types["eventcal_http_requests_in_flight"] != "gauge" {
		t.Errorf("types %v", types)
	}
	events := "/wp-json/calendar/events/v1/events"
	for _, c := range []struct {
		route, method, status string
		want                  float64
	}{
		{events, "GET", "200", 5},
		{events + "/{id}", "GET", "200", 2},
		{events + "/{id}", "GET", "404", 1},
		{"/wp-json/calendar/events/v1/tags", "POST", "401", 1},
		{UnmatchedRoute, "GET", "404", 3},
		{UnmatchedRoute, "other", "404", 1},
		{"GET /healthz", "GET", "200", 2},
		{`odd "route"` + "\n\\", "GET", "200", 1},
	} {
		got, ok := find(samples, "eventcal_http_requests_total", map[string]string{"route": c.route, "method": c.method, "status": c.status})
		if !ok || got != c.want {
			t.Errorf("requests %s %s %s: %v (found %v), want %v", c.method, c.route, c.status, got, ok, c.want)
		}
	}
	// Histogram: cumulative buckets, +Inf = count = the requests of the route.
	var total float64
	for _, s := range samples {
		if s.name == "eventcal_http_requests_total" {
			total += s.value
		}
	}
	var counted float64
	for _, s := range samples {
		if s.name != "eventcal_http_request_duration_seconds_count" {
			continue
		}
		counted += s.value
		labels := map[string]string{"route": s.labels["route"], "method": s.labels["method"]}
		prev := 0.0
		for _, le := range append(slices.Clone(DefaultDurationBuckets), -1) {
			key := strconv.FormatFloat(le, 'g', -1, 64)
			if le < 0 {
				key = "+Inf"
			}
			labels["le"] = key
			v, ok := find(samples, "eventcal_http_request_duration_seconds_bucket", labels)
			if !ok || v < prev {
				t.Errorf("%v: bucket %s = %v (found %v) after %v", labels, key, v, ok, prev)
			}
			prev = v
		}
		if prev != s.value {
			t.Errorf("%v: +Inf %v != count %v", labels, prev, s.value)
		}
	}
	if counted != total || total != 16 {
		t.Errorf("histogram counts %v, requests %v, want 16", counted, total)
	}
	if v, _ := find(samples, "eventcal_http_request_duration_seconds_bucket", map[string]string{"route": `odd "route"` + "\n\\", "method": "GET", "le": "2.5"}); v != 0 {
		t.Errorf("a 3 s request in the 2.5 s bucket")
	}
	if v, _ := find(samples, "eventcal_http_request_duration_seconds_sum", map[string]string{"route": `odd "route"` + "\n\\", "method": "GET"}); v != 3 {
		t.Errorf("sum %v, want 3", v)
	}
	if v, ok := find(samples, "eventcal_http_requests_in_flight", map[string]string{}); !ok || v != 0 {
		t.Errorf("in flight %v %v", v, ok)
	}
}
