package ical_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
)

// The import benchmarks read a file of importEvents VEVENTs (five zones, a
// venue and categories from small sets, as a real calendar's export has)
// into an empty calendar on memstore. The baseline creates the same events
// with CreateEvent directly, so the ratio is the cost of reading iCalendar
// and of the UID look-ups.
//
//	go test -run '^$' -bench Import -benchmem -benchtime 3x ./calendar/ical/

const importEvents = 5000

func importFileOf(n int) ([]byte, []calendar.EventInput) {
	var b bytes.Buffer
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nX-WR-TIMEZONE:Europe/Berlin\r\n")
	zones := []string{"Europe/Berlin", "America/New_York", "Asia/Tokyo", "W. Europe Standard Time", ""}
	var ins []calendar.EventInput
	start := time.Date(2027, 1, 1, 18, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		s := start.Add(time.Duration(i) * 3 * time.Hour)
		z := zones[i%len(zones)]
		fmt.Fprintf(&b, "BEGIN:VEVENT\r\nUID:bench-%d@example.org\r\nDTSTAMP:20261120T000000Z\r\n", i)
		if z == "" {
			fmt.Fprintf(&b, "DTSTART:%s\r\nDTEND:%s\r\n", s.Format("20060102T150405Z"), s.Add(2*time.Hour).Format("20060102T150405Z"))
		} else {
			fmt.Fprintf(&b, "DTSTART;TZID=%s:%s\r\nDURATION:PT2H\r\n", z, s.Format("20060102T150405"))
		}
		fmt.Fprintf(&b, "SUMMARY:Concert %d\\, with friends\r\nDESCRIPTION:A long description of concert %d\\; doors at 7\\nand more text to fold: Ünïcödé 🎷🎷🎷.\r\n", i, i)
		fmt.Fprintf(&b, "LOCATION:Hall %d\r\nCATEGORIES:Music,Genre %d\r\nEND:VEVENT\r\n", i%20, i%7)
		ins = append(ins, calendar.EventInput{
			Title: calendar.Some(fmt.Sprintf("Concert %d, with friends", i)), Description: calendar.Some("A long description"),
			StartDate: calendar.Some(s.Format(time.RFC3339)), EndDate: calendar.Some(s.Add(2 * time.Hour).Format(time.RFC3339)),
			Venues:     calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some(fmt.Sprintf("Hall %d", i%20))}}}),
			Categories: calendar.Some([]calendar.TermRef{{Name: "Music"}, {Name: fmt.Sprintf("Genre %d", i%7)}}),
		})
	}
	b.WriteString("END:VCALENDAR\r\n")
	return b.Bytes(), ins
}

func BenchmarkImport(b *testing.B) {
	data, _ := importFileOf(importEvents)
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		cal := newCal(b)
		b.StartTimer()
		rep, err := ical.Import(system, cal, bytes.NewReader(data))
		if err != nil || rep.Created != importEvents {
			b.Fatalf("%+v %v", rep, err)
		}
	}
}

// BenchmarkImportAgain imports the file into a calendar that holds it
// already: every VEVENT is looked up by UID and found unchanged.
func BenchmarkImportAgain(b *testing.B) {
	data, _ := importFileOf(importEvents)
	cal := newCal(b)
	if _, err := ical.Import(system, cal, bytes.NewReader(data)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := ical.Import(system, cal, bytes.NewReader(data))
		if err != nil || rep.Unchanged != importEvents {
			b.Fatalf("%+v %v", rep, err)
		}
	}
}

func BenchmarkImportBaselineCreateEvent(b *testing.B) {
	_, ins := importFileOf(importEvents)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		cal := newCal(b)
		b.StartTimer()
		for _, in := range ins {
			if _, err := cal.CreateEvent(system, in, calendar.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkExportFeed writes the feed of the imported events (Go API, no HTTP).
func BenchmarkExportFeed(b *testing.B) {
	data, _ := importFileOf(importEvents)
	cal := newCal(b)
	if _, err := ical.Import(system, cal, bytes.NewReader(data)); err != nil {
		b.Fatal(err)
	}
	x := ical.NewExporter(cal)
	q := calendar.EventQuery{StartDate: "2027-01-01"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := x.Feed(system, q)
		if err != nil {
			b.Fatal(err)
		}
		var out bytes.Buffer
		if err := f.Write(system, &out); err != nil || f.Len() != importEvents {
			b.Fatal(err, f.Len())
		}
	}
}
