package httpadapter

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// The iCalendar benchmarks serve feeds of icalBenchEvents events over a real
// listener, so time to first byte is what a subscriber sees. The baseline is
// the same events fetched as JSON, page by page (50 per page), which is what
// a client without the feed has to do.
//
//	go test -run '^$' -bench 'ICal' -benchmem -benchtime 5x ./httpadapter/

const icalBenchEvents = 10000

var (
	icalBenchOnce sync.Once
	icalBenchSrv  *httptest.Server
)

func icalBenchServer(b *testing.B) string {
	icalBenchOnce.Do(func() {
		berlin, err := time.LoadLocation("Europe/Berlin")
		if err != nil {
			b.Fatal(err)
		}
		cal := calendar.New(memstore.New(), calendar.WithClock(func() time.Time { return now }), calendar.WithSiteZone(berlin))
		ctx := as(0)
		zones := []string{"", "Europe/Berlin", "America/New_York", "Asia/Tokyo"}
		var venues []calendar.VenueRef
		for i := 0; i < 20; i++ {
			lat, lng := 52.5+float64(i)/100, 13.4
			v, err := cal.CreateVenue(ctx, calendar.VenueInput{Name: calendar.Some(fmt.Sprintf("Hall %d", i)), Address: calendar.Some("Street 1"),
				City: calendar.Some("Berlin"), GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lng)}, calendar.WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			venues = append(venues, calendar.VenueRef{ID: v.ID})
		}
		start := now.AddDate(0, 0, 1)
		for i := 0; i < icalBenchEvents; i++ {
			s := start.Add(time.Duration(i) * 90 * time.Minute)
			in := calendar.EventInput{
				Title:       calendar.Some(fmt.Sprintf("Bench event %d, with; punctuation", i)),
				Description: calendar.Some("A benchmark event with a description long enough to be folded once or twice — Ünïcödé 🎷."),
				StartDate:   calendar.Some(s.Format(time.RFC3339)), EndDate: calendar.Some(s.Add(time.Hour).Format(time.RFC3339)),
				Venues:     calendar.Some([]calendar.VenueRef{venues[i%len(venues)]}),
				Categories: calendar.Some([]calendar.TermRef{{Name: fmt.Sprintf("Category %d", i%5)}}),
			}
			if z := zones[i%len(zones)]; z != "" {
				in.TimeZone = calendar.Some(z)
			}
			if _, err := cal.CreateEvent(ctx, in, calendar.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		h := New(cal, WithLogger(discardLogger()))
		icalBenchSrv = httptest.NewServer(h)
	})
	return icalBenchSrv.URL + "/"
}

// fetch GETs url and returns the time to the first body byte and the body size.
func fetch(b *testing.B, url string, hdr ...string) (ttfb time.Duration, n int64, status int) {
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	t0 := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var one [1]byte
	k, _ := io.ReadFull(resp.Body, one[:])
	ttfb = time.Since(t0)
	rest, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	return ttfb, int64(k) + rest, resp.StatusCode
}

func BenchmarkICalFeed(b *testing.B) {
	base := icalBenchServer(b) + "calendar/events/v1/events.ics?start_date=2026-01-01"
	var ttfb time.Duration
	var size int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, n, st := fetch(b, base)
		if st != 200 || n < int64(icalBenchEvents)*300 {
			b.Fatalf("status %d, %d bytes", st, n)
		}
		ttfb += t
		size = n
	}
	b.ReportMetric(float64(ttfb.Milliseconds())/float64(b.N), "ms-ttfb")
	b.ReportMetric(float64(size)/1e6, "MB-body")
}

func BenchmarkICalFeed304(b *testing.B) {
	base := icalBenchServer(b) + "calendar/events/v1/events.ics?start_date=2026-01-01"
	req, _ := http.NewRequest("HEAD", base, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	tag := resp.Header.Get("ETag")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, st := fetch(b, base, "If-None-Match", tag); st != 304 {
			b.Fatalf("status %d", st)
		}
	}
}

// BenchmarkICalBaselineJSONPages fetches the same events as JSON, 50 per page.
func BenchmarkICalBaselineJSONPages(b *testing.B) {
	base := icalBenchServer(b) + "calendar/events/v1/events?start_date=2026-01-01&per_page=50&page="
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for p := 1; p <= icalBenchEvents/50; p++ {
			if _, _, st := fetch(b, fmt.Sprint(base, p)); st != 200 {
				b.Fatalf("page %d: status %d", p, st)
			}
		}
	}
}

// BenchmarkICalFeedPeakHeap reports how much the heap grows while a feed is
// served, for feeds of different sizes: streaming keeps it flat. The
// collector runs at GOGC=5 meanwhile, so the figure is live memory rather
// than garbage awaiting collection.
func BenchmarkICalFeedPeakHeap(b *testing.B) {
	srv := icalBenchServer(b)
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	for _, n := range []int{1000, icalBenchEvents} {
		// Events start 90 minutes apart: the first n start before this date.
		until := now.AddDate(0, 0, 1).Add(time.Duration(n) * 90 * time.Minute).Format(time.RFC3339)
		url := srv + "calendar/events/v1/events.ics?strict_dates=true&start_date=2026-01-01&starts_before=" + until
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			var peak uint64
			for i := 0; i < b.N; i++ {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				before := ms.HeapAlloc
				var max atomic.Uint64
				done := make(chan struct{})
				go func() {
					var ms runtime.MemStats
					for {
						select {
						case <-done:
							return
						case <-time.After(2 * time.Millisecond):
							runtime.ReadMemStats(&ms)
							if ms.HeapAlloc > max.Load() {
								max.Store(ms.HeapAlloc)
							}
						}
					}
				}()
				if _, _, st := fetch(b, url); st != 200 {
					b.Fatalf("status %d", st)
				}
				close(done)
				if m := max.Load(); m > before && m-before > peak {
					peak = m - before
				}
			}
			b.ReportMetric(float64(peak)/1e6, "MB-peak-heap-growth")
		})
	}
}
