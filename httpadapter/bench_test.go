package httpadapter

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// The benchmarks run requests through the handler in-process on memstore
// with 10k events. BenchmarkBaselinePreEncoded writes a pre-encoded body of
// the same size as GET one event, so the two figures give the adapter's
// overhead (target: GET one event at ≥ 50% of the baseline's throughput).

const benchEvents = 10000

var (
	benchOnce sync.Once
	benchH    *Handler
	benchID   int64
	benchBody []byte
)

func benchSetup(b *testing.B) {
	benchOnce.Do(func() {
		cal := calendar.New(memstore.New(), calendar.WithClock(func() time.Time { return now }))
		ctx := as(0)
		lat, lng := 40.7, -74.0
		v, err := cal.CreateVenue(ctx, calendar.VenueInput{Name: calendar.Some("Bench Hall"), City: calendar.Some("New York"),
			GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lng)}, calendar.WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		o, err := cal.CreateOrganizer(ctx, calendar.OrganizerInput{Name: calendar.Some("Bench Org")}, calendar.WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		start := now.AddDate(0, 0, 1)
		for i := 0; i < benchEvents; i++ {
			s := start.Add(time.Duration(i) * 90 * time.Minute)
			ev, err := cal.CreateEvent(ctx, calendar.EventInput{
				Title: calendar.Some(fmt.Sprintf("Bench event %d", i)), Description: calendar.Some("A benchmark event with a description."),
				StartDate: calendar.Some(s.Format(time.RFC3339)), EndDate: calendar.Some(s.Add(time.Hour).Format(time.RFC3339)),
				Cost:       calendar.Some([]string{"$10", "$20"}),
				Venues:     calendar.Some([]calendar.VenueRef{{ID: v.ID}}),
				Organizers: calendar.Some([]calendar.OrganizerRef{{ID: o.ID}}),
				Categories: calendar.Some([]calendar.TermRef{{Name: "Music"}}),
			}, calendar.WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if i == benchEvents/2 {
				benchID = ev.ID
			}
		}
		benchH = New(cal, WithRoot("/wp-json"), WithAuthenticator(mustTable()), WithLogger(discardLogger()))
		rec := httptest.NewRecorder()
		benchH.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("http://%s%s/events/%d", testHost, testNS, benchID), nil))
		if rec.Code != 200 {
			b.Fatalf("setup GET: %d %s", rec.Code, rec.Body)
		}
		benchBody = rec.Body.Bytes()
	})
}

func mustTable() *UserTable {
	t, err := BasicAuth(testUsers)
	if err != nil {
		panic(err)
	}
	return t
}

// discardWriter is a ResponseWriter that keeps nothing, so the benchmarks
// measure the handler and not the recorder.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

func benchGet(b *testing.B, h http.Handler, path string) {
	req := httptest.NewRequest("GET", "http://"+testHost+path, nil)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clear(w.h)
		h.ServeHTTP(w, req)
	}
}

func BenchmarkGetEvent(b *testing.B) {
	benchSetup(b)
	b.SetBytes(int64(len(benchBody)))
	benchGet(b, benchH, fmt.Sprintf("%s/events/%d", testNS, benchID))
}

func BenchmarkListEventsPage(b *testing.B) {
	benchSetup(b)
	benchGet(b, benchH, testNS+"/events?per_page=9&page=3")
}

func BenchmarkCreateEvent(b *testing.B) {
	benchCreate(b, func(i int) string { return fmt.Sprintf("Posted %d", i) })
}

// BenchmarkCreateEventSameTitle posts one title over and over: every create
// probes the slugs taken so far ("posted", "posted-2", …), the cost of the
// -2, -3, … slug rule for a title repeated thousands of times.
func BenchmarkCreateEventSameTitle(b *testing.B) {
	benchCreate(b, func(int) string { return "Posted" })
}

func benchCreate(b *testing.B, title func(int) string) {
	benchSetup(b)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := `{"title":"` + title(i) + `","start_date":"2027-01-05 20:00","end_date":"2027-01-05 22:00","cost":"$5","categories":["Music"]}`
		req := httptest.NewRequest("POST", "http://"+testHost+testNS+"/events", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("admin", "admin-pw")
		clear(w.h)
		benchH.ServeHTTP(w, req)
	}
}

// BenchmarkBaselinePreEncoded is a handler that only writes a pre-encoded
// event body of the same size, with the same headers.
func BenchmarkBaselinePreEncoded(b *testing.B) {
	benchSetup(b)
	body := benchBody
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentTypeJSON)
		w.Header().Set("ETag", `"e1-1"`)
		w.WriteHeader(http.StatusOK)
		w.Write(body)
	})
	b.SetBytes(int64(len(body)))
	benchGet(b, h, fmt.Sprintf("%s/events/%d", testNS, benchID))
}

// stubCalendar answers GetEvent with a fixed event, isolating the adapter's
// own cost (routing, auth, arguments, rendering) from the calendar's. Like
// calendar.Service it asks the context's ViewCache first, under a fixed key.
type stubCalendar struct {
	calendar.Calendar
	ev *calendar.Event
}

func (s stubCalendar) GetEvent(ctx context.Context, _ calendar.Ref, _ calendar.ReadOptions) (*calendar.Event, error) {
	vc := calendar.ViewCacheFrom(ctx)
	if vc == nil {
		return s.ev, nil
	}
	key := []byte("stub")
	if c := vc.CachedView(key); c != nil {
		return &calendar.Event{ID: s.ev.ID, Version: s.ev.Version, Cached: c}, nil
	}
	ev := *s.ev
	ev.ViewKey = key
	return &ev, nil
}

func BenchmarkGetEventAdapterOnly(b *testing.B) {
	benchSetup(b)
	ev, err := benchH.cal.GetEvent(as(0), calendar.ByID(benchID), calendar.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	h := New(stubCalendar{ev: ev}, WithRoot("/wp-json"), WithAuthenticator(mustTable()), WithLogger(discardLogger()))
	b.SetBytes(int64(len(benchBody)))
	benchGet(b, h, fmt.Sprintf("%s/events/%d", testNS, benchID))
}
