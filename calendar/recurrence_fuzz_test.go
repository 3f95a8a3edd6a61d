package calendar

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseRecurrence feeds arbitrary lines to the parser: it must never
// panic or hang, and what it accepts must expand within its limits.
func FuzzParseRecurrence(f *testing.F) {
	for _, s := range []string{
		"RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10",
		"RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20301231T000000Z",
		"RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO;WKST=SU",
		"RRULE:FREQ=MONTHLY;BYMONTHDAY=-1,15;BYSETPOS=1",
		"RRULE:FREQ=YEARLY;BYYEARDAY=-1,100",
		"RDATE;VALUE=DATE:20260110,20260111\nEXDATE;TZID=Europe/London:20260110T100000",
		"RRULE:FREQ=MONTHLY;BYDAY=9MO",
		"RRULE:FREQ=HOURLY",
		"EXRULE:FREQ=DAILY",
		"RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO",
	} {
		f.Add(s)
	}
	loc, _ := ParseZone("America/New_York")
	start := time.Date(2026, 3, 1, 2, 30, 0, 0, loc)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRecurrence(strings.Split(s, "\n"), start, loc, 100)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty message")
			}
			return
		}
		got, _ := r.Occurrences(start.AddDate(2, 0, 0), 100)
		if len(got) == 0 || len(got) > 100 {
			t.Fatalf("%q: %d occurrences", s, len(got))
		}
		for i := 1; i < len(got); i++ {
			if !got[i].After(got[i-1]) {
				t.Fatalf("%q: occurrences out of order at %d", s, i)
			}
		}
	})
}
