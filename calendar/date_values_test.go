package calendar_test

import (
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// TestTimeValuesInAndOut: a time.Time given through At and FormatDate comes
// back as the same instant, shown in the event's zone, and bounds a list.
func TestTimeValuesInAndOut(t *testing.T) {
	f := newFixture(t)
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	start := time.Date(2026, 4, 1, 20, 30, 15, 0, tokyo)
	in := calendar.EventInput{Title: s("Late show"), StartDate: calendar.At(start), EndDate: calendar.At(start.Add(2 * time.Hour)), TimeZone: s("Europe/Paris")}
	ev := f.mustEvent(as(admin), in)
	if !ev.Start.Equal(start) || ev.Start.Location().String() != "Europe/Paris" || ev.Start.Hour() != 13 || ev.Start.Second() != 15 {
		t.Fatalf("start %v (%s), want %v on the Paris wall clock", ev.Start, ev.Start.Location(), start)
	}
	for _, tc := range []struct {
		from, to time.Time
		want     int
	}{
		{start.Add(-time.Minute), start.Add(3 * time.Hour), 1},
		{start.Add(time.Second), start.Add(3 * time.Hour), 0},
	} {
		p, err := f.cal.ListEvents(as(admin), calendar.EventQuery{StartsAfter: calendar.FormatDate(tc.from), StartsBefore: calendar.FormatDate(tc.to), StrictDates: true})
		if err != nil || p.Total != tc.want {
			t.Errorf("window %v–%v: %v (%v), want %d", tc.from, tc.to, p, err, tc.want)
		}
	}
	if got, err := calendar.ParseDate(calendar.FormatDate(start.Add(123*time.Millisecond)), time.UTC, testNow); err != nil || !got.Equal(start.Add(123*time.Millisecond)) {
		t.Errorf("fractional seconds: %v, %v", got, err)
	}
}
