package calendar

import (
	"strings"
	"testing"
	"time"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := ParseZone(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestParseRecurrenceRefuses(t *testing.T) {
	loc := mustZone(t, "Europe/Berlin")
	start := time.Date(2026, 1, 6, 20, 0, 0, 0, loc) // a Tuesday
	long := "RDATE:" + strings.Repeat("20260110T100000Z,", 9999) + "20260111T100000Z"
	var many []string
	for range 11 {
		many = append(many, "RDATE:"+strings.Repeat("20260110T100000Z,", 999)+"20260111T100000Z")
	}
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"RRULE:FREQ=HOURLY"}, "FREQ=HOURLY is not supported"},
		{[]string{"RRULE:FREQ=SECONDLY"}, "FREQ=SECONDLY is not supported"},
		{[]string{"RRULE:FREQ=FORTNIGHTLY"}, "is not a frequency"},
		{[]string{"RRULE:FREQ=DAILY;UNTIL=20251231T000000Z"}, "UNTIL before start"},
		{[]string{"RRULE:FREQ=MONTHLY;BYDAY=9MO"}, "BYDAY=9MO never occurs"},
		{[]string{"RRULE:FREQ=DAILY;COUNT=1000000"}, "COUNT must be 1 to 1000"},
		{[]string{"RRULE:FREQ=DAILY;BYHOUR=9"}, "BYHOUR is not supported"},
		{[]string{"RRULE:FREQ=DAILY;BYMINUTE=9"}, "BYMINUTE is not supported"},
		{[]string{"EXRULE:FREQ=DAILY"}, "EXRULE is not supported"},
		{[]string{"RRULE:FREQ=DAILY", "RRULE:FREQ=WEEKLY"}, "at most one RRULE"},
		{[]string{"RRULE:FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z"}, "COUNT and UNTIL"},
		{[]string{"RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"}, "BYMONTHDAY never occurs"},
		{[]string{"RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29"}, "yields no occurrence"}, // 2026, 2030, … are never leap years
		{[]string{"RRULE:FREQ=WEEKLY;BYWEEKNO=3"}, "BYWEEKNO is only allowed with FREQ=YEARLY"},
		{[]string{"RRULE:FREQ=DAILY;BYSETPOS=1"}, "BYSETPOS needs another BY part"},
		{[]string{"RRULE:FREQ=WEEKLY;BYDAY=2TU"}, "ordinal is only allowed"},
		{[]string{"RRULE:FREQ=DAILY;X-NAME=1"}, "is not a supported RRULE part"},
		{[]string{"RRULE:FREQ=DAILY;INTERVAL=0"}, "INTERVAL must be"},
		{[]string{"RRULE:"}, "RRULE is empty"},
		{[]string{"FREQ=DAILY"}, "expected NAME:VALUE"},
		{[]string{"DTSTART:20260101T000000Z"}, "not a recurrence line"},
		{[]string{"RDATE:2026-01-10"}, "is not a date"},
		{[]string{"RDATE:20260110"}, "say RDATE;VALUE=DATE"},
		{[]string{"RDATE;VALUE=PERIOD:20260110T000000Z/PT1H"}, "VALUE=PERIOD is not supported"},
		{[]string{"EXDATE;TZID=Mars/Base:20260110T000000"}, "unknown time zone"},
		{[]string{""}, "empty"},
		{many, "at most 1000 RDATE values"},
		{[]string{long}, "longer than 32768 bytes"},
	} {
		_, err := ParseRecurrence(c.lines, start, loc, 1000)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60q: error %v, want one containing %q", c.lines, err, c.want)
		}
	}
}

func fmtStarts(ts []time.Time, loc *time.Location) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.In(loc).Format("2006-01-02 15:04 MST")
	}
	return out
}

func TestRecurrenceWallClockAcrossDST(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	// 02:30 does not exist on 2026-03-08: it moves forward by the gap;
	// the day after is 02:30 again.
	r, err := ParseRecurrence([]string{"RRULE:FREQ=DAILY;COUNT=3"}, time.Date(2026, 3, 7, 2, 30, 0, 0, ny), ny, 1000)
	if err != nil {
		t.Fatal(err)
	}
	got, more := r.Occurrences(time.Time{}, 10)
	want := []string{"2026-03-07 02:30 EST", "2026-03-08 03:30 EDT", "2026-03-09 02:30 EDT"}
	if strings.Join(fmtStarts(got, ny), ",") != strings.Join(want, ",") || more {
		t.Errorf("gap: got %v (more %v), want %v", fmtStarts(got, ny), more, want)
	}
	// 01:30 happens twice on 2026-11-01: the first one is taken.
	r, _ = ParseRecurrence([]string{"RRULE:FREQ=DAILY;COUNT=2"}, time.Date(2026, 10, 31, 1, 30, 0, 0, ny), ny, 1000)
	got, _ = r.Occurrences(time.Time{}, 10)
	if g := fmtStarts(got, ny); g[1] != "2026-11-01 01:30 EDT" {
		t.Errorf("overlap: got %v, want the EDT (first) 01:30", g)
	}
	// A weekly 20:00 stays at 20:00 across the change (the UTC hour moves).
	ber := mustZone(t, "Europe/Berlin")
	r, _ = ParseRecurrence([]string{"RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3"}, time.Date(2026, 3, 17, 20, 0, 0, 0, ber), ber, 1000)
	got, _ = r.Occurrences(time.Time{}, 10)
	if g := strings.Join(fmtStarts(got, ber), ","); g != "2026-03-17 20:00 CET,2026-03-24 20:00 CET,2026-03-31 20:00 CEST" {
		t.Errorf("weekly across DST: %s", g)
	}
	// Lord Howe shifts by 30 minutes: 02:15 is skipped on 2026-10-04.
	lh := mustZone(t, "Australia/Lord_Howe")
	r, _ = ParseRecurrence([]string{"RRULE:FREQ=DAILY;COUNT=2"}, time.Date(2026, 10, 3, 2, 15, 0, 0, lh), lh, 1000)
	got, _ = r.Occurrences(time.Time{}, 10)
	if g := got[1].In(lh).Format("15:04"); g != "02:45" {
		t.Errorf("Lord Howe gap: second occurrence at %s, want 02:45", g)
	}
}

func TestRecurrenceSetRules(t *testing.T) {
	loc := mustZone(t, "Europe/Berlin")
	start := time.Date(2026, 1, 6, 19, 0, 0, 0, loc) // Tuesday
	// Every 2nd Tuesday, 5 times, one excepted by EXDATE (local and UTC
	// forms), one day added by RDATE;VALUE=DATE (at the start's time).
	r, err := ParseRecurrence([]string{
		"RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=5",
		"EXDATE:20260203T190000",
		"EXDATE:20260303T180000Z",
		"RDATE;VALUE=DATE:20260110",
		"RDATE;TZID=America/New_York:20260112T130000",
	}, start, loc, 1000)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := r.Occurrences(time.Time{}, 100)
	want := "2026-01-06 19:00 CET,2026-01-10 19:00 CET,2026-01-12 19:00 CET,2026-01-20 19:00 CET,2026-02-17 19:00 CET"
	if g := strings.Join(fmtStarts(got, loc), ","); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
	// DTSTART counts as the first instance even when the rule would not
	// produce it (RFC 5545), and COUNT includes it.
	r, _ = ParseRecurrence([]string{"RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=2"}, start, loc, 1000)
	got, _ = r.Occurrences(time.Time{}, 100)
	if g := strings.Join(fmtStarts(got, loc), ","); g != "2026-01-06 19:00 CET,2026-01-07 19:00 CET" {
		t.Errorf("unsynchronised start: %s", g)
	}
	// An open-ended rule stops at the bound and reports more past the limit.
	r, _ = ParseRecurrence([]string{"RRULE:FREQ=DAILY"}, start, loc, 1000)
	if got, more := r.Occurrences(start.AddDate(0, 0, 9), 100); len(got) != 10 || more || r.Bounded() {
		t.Errorf("bounded window: %d starts, more %v, bounded %v", len(got), more, r.Bounded())
	}
	if got, more := r.Occurrences(start.AddDate(1, 0, 0), 50); len(got) != 50 || !more {
		t.Errorf("limit: %d starts, more %v", len(got), more)
	}
	// UNTIL as a DATE includes that whole day in the zone.
	r, _ = ParseRecurrence([]string{"RRULE:FREQ=DAILY;UNTIL=20260108"}, start, loc, 1000)
	if got, _ := r.Occurrences(time.Time{}, 100); len(got) != 3 {
		t.Errorf("UNTIL date: %v", fmtStarts(got, loc))
	}
	// Leap day yearly: only leap years.
	r, _ = ParseRecurrence([]string{"RRULE:FREQ=YEARLY;COUNT=3"}, time.Date(2028, 2, 29, 9, 0, 0, 0, loc), loc, 1000)
	if got, _ := r.Occurrences(time.Time{}, 100); strings.Join(fmtStarts(got, loc), ",") != "2028-02-29 09:00 CET,2032-02-29 09:00 CET,2036-02-29 09:00 CET" {
		t.Errorf("leap day: %v", fmtStarts(got, loc))
	}
}

func TestRewriteRule(t *testing.T) {
	lines := []string{"RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=TU", "EXDATE:20260113T180000Z"}
	got := rewriteRule(lines, func(p []rulePart) []rulePart {
		return setRulePart(setRulePart(p, "COUNT", ""), "UNTIL", "20260201T000000Z")
	})
	if got[0] != "RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260201T000000Z" || got[1] != lines[1] || lines[0] != "RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=TU" {
		t.Errorf("rewrite: %q (input now %q)", got, lines)
	}
	if ex := withExdate(lines, time.Date(2026, 1, 20, 18, 0, 0, 0, time.UTC)); ex[2] != "EXDATE:20260120T180000Z" || len(lines) != 2 {
		t.Errorf("exdate: %q", ex)
	}
}
