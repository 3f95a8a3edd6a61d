package httpadapter_test

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter"
	"github.com/eventcal/eventcal/memstore"
)

// Guard keeps a ServeMux from redirecting paths with empty or dot segments:
// the API answers them 404 rest_no_route.
func ExampleHandler_Guard() {
	api := httpadapter.New(calendar.New(memstore.New()), httpadapter.WithRoot("/wp-json"))
	mux := http.NewServeMux()
	api.Register(mux)

	for _, h := range []http.Handler{mux, api.Guard(mux)} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("DELETE", "/wp-json/calendar/events/v1/events//1", nil))
		fmt.Println(rec.Code)
	}
	// Output:
	// 307
	// 404
}

// Metrics counts requests by route pattern and status; serve it on a path
// of your choice.
func ExampleMetrics() {
	api := httpadapter.New(calendar.New(memstore.New()), httpadapter.WithRoot("/wp-json"))
	metrics := httpadapter.NewMetrics("eventcal")
	mux := http.NewServeMux()
	api.Register(mux)
	mux.Handle("GET /metrics", metrics)
	h := metrics.Middleware(mux)

	for _, p := range []string{"/wp-json/calendar/events/v1/events/1", "/wp-json/calendar/events/v1/events/2"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", p, nil))
	}
	rec := httptest.NewRecorder()
	metrics.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "eventcal_http_requests_total{") {
			fmt.Println(sc.Text())
		}
	}
	// Output:
	// eventcal_http_requests_total{route="/wp-json/calendar/events/v1/events/{id}",method="GET",status="404"} 2
}
