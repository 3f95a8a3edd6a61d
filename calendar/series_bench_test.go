package calendar_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

func benchRepos(b *testing.B) map[string]func() calendar.Repository {
	return map[string]func() calendar.Repository{
		"memstore": func() calendar.Repository { return memstore.New() },
		"boltstore": func() calendar.Repository {
			s, err := boltstore.Open(filepath.Join(b.TempDir(), "b.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
	}
}

// A daily series of 730 occurrences: one write of 731 records.
func BenchmarkSeriesCreate730(b *testing.B) {
	for name, repo := range benchRepos(b) {
		b.Run(name, func(b *testing.B) {
			cal := calendar.New(repo(), calendar.WithClock(func() time.Time { return testNow }))
			for b.Loop() {
				if _, err := cal.CreateEvent(system, seriesIn("Daily", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=DAILY;COUNT=730"), calendar.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Recompute after a change of time: every occurrence is rewritten.
func BenchmarkSeriesRecompute730(b *testing.B) {
	for name, repo := range benchRepos(b) {
		b.Run(name, func(b *testing.B) {
			cal := calendar.New(repo(), calendar.WithClock(func() time.Time { return testNow }))
			ser, err := cal.CreateEvent(system, seriesIn("Daily", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=DAILY;COUNT=730"), calendar.WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			hours := []string{"2026-03-10 18:00", "2026-03-10 19:00"}
			i := 0
			for b.Loop() {
				i++
				in := calendar.EventInput{StartDate: s(hours[i%2]), EndDate: s("2026-03-10 20:00")}
				if _, err := cal.UpdateEvent(system, calendar.ByID(ser.ID), in, calendar.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// ExtendSeries over 200 open-ended weekly series (24-month horizon), one
// week later: it reads every event to find the series, then each series'
// occurrences.
func BenchmarkSeriesExtend200(b *testing.B) {
	for name, repo := range benchRepos(b) {
		b.Run(name, func(b *testing.B) {
			c := &clock{t: testNow}
			cal := calendar.New(repo(), calendar.WithClock(c.Now))
			for range 200 {
				if _, err := cal.CreateEvent(system, seriesIn("Weekly", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=WEEKLY"), calendar.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			week := 0
			for b.Loop() {
				week++
				c.Set(testNow.AddDate(0, 0, 7*week))
				if n, err := cal.ExtendSeries(system); err != nil || n != 200 {
					b.Fatalf("extended %d, %v", n, err)
				}
			}
		})
	}
}
