package calendar

import (
	"strings"
	"testing"
	"time"
)

const dateTestLayout = "2006-01-02 15:04:05"

// dateTestZones are the zones every table case runs in: no DST, a half-hour
// offset, and two DST zones on either side of the Atlantic.
var dateTestZones = []string{"UTC", "America/New_York", "Asia/Kolkata", "Europe/Berlin"}

func dateTestLoc(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("LoadLocation(%q): %v", name, err)
	}
	return loc
}

// dateTestNow is Friday 2024-03-08 15:04:05Z: a Friday in all four test zones
// (10:04:05 in New York, 20:34:05 in Kolkata, 16:04:05 in Berlin), two days
// before the US spring-forward.
var dateTestNow = time.Date(2024, 3, 8, 15, 4, 5, 0, time.UTC)

// dateTestWall builds the expected instant from a wall-clock string with the
// standard library's parser, independently of ParseDate. "{clock}" stands for
// now's clock time in loc.
func dateTestWall(t *testing.T, wall string, loc *time.Location) time.Time {
	t.Helper()
	wall = strings.ReplaceAll(wall, "{clock}", dateTestNow.In(loc).Format("15:04:05"))
	want, err := time.ParseInLocation(dateTestLayout, wall, loc)
	if err != nil {
		t.Fatalf("bad expectation %q: %v", wall, err)
	}
	return want
}

func TestParseDateWallClockForms(t *testing.T) {
	// Each input is a wall-clock time in the zone (absolute without offset) or
	// relative to dateTestNow; want is the wall clock it must name.
	cases := []struct{ in, want string }{
		// Absolute forms.
		{"2024-05-06", "2024-05-06 00:00:00"},
		{"2024-02-29", "2024-02-29 00:00:00"},
		{"1000-01-01", "1000-01-01 00:00:00"},
		{"9999-12-31 23:59:59", "9999-12-31 23:59:59"},
		{"2024-05-06 07:08", "2024-05-06 07:08:00"},
		{"2024-05-06 07:08:09", "2024-05-06 07:08:09"},
		{"2024-05-06T07:08", "2024-05-06 07:08:00"},
		{"2024-05-06T07:08:09", "2024-05-06 07:08:09"},
		{"2024-05-06t07:08:09", "2024-05-06 07:08:09"},
		{"  2024-05-06   07:08:09\t", "2024-05-06 07:08:09"},
		{"2024-12-31 00:00", "2024-12-31 00:00:00"},
		// Absolute dates take the times of the relative forms too.
		{"2018-01-01 4pm", "2018-01-01 16:00:00"},
		{"2018-01-01 4 pm", "2018-01-01 16:00:00"},
		{"2018-01-01 4:30 pm", "2018-01-01 16:30:00"},
		{"2018-01-01 12am", "2018-01-01 00:00:00"},
		{"2018-01-01T9am", "2018-01-01 09:00:00"},
		{"2024-01-01 9:00", "2024-01-01 09:00:00"},
		{"2024-01-01 10", "2024-01-01 10:00:00"},
		{"2024-01-01 10:00am", "2024-01-01 10:00:00"},
		{"2024-01-01 11:15:30 PM", "2024-01-01 23:15:30"},
		// now, today, tomorrow, yesterday.
		{"now", "2024-03-08 {clock}"},
		{"NOW", "2024-03-08 {clock}"},
		{"today", "2024-03-08 00:00:00"},
		{"Today", "2024-03-08 00:00:00"},
		{"tomorrow", "2024-03-09 00:00:00"},
		{"yesterday", "2024-03-07 00:00:00"},
		{"now 18:30", "2024-03-08 18:30:00"},
		{"today 12am", "2024-03-08 00:00:00"},
		{"today 12pm", "2024-03-08 12:00:00"},
		{"today 12:30am", "2024-03-08 00:30:00"},
		{"tomorrow 9am", "2024-03-09 09:00:00"},
		{"tomorrow 9 AM", "2024-03-09 09:00:00"},
		{" Tomorrow   9pm ", "2024-03-09 21:00:00"},
		{"tomorrow 9:30pm", "2024-03-09 21:30:00"},
		{"tomorrow 11:59:59pm", "2024-03-09 23:59:59"},
		{"tomorrow 7", "2024-03-09 07:00:00"},
		{"tomorrow 0:00", "2024-03-09 00:00:00"},
		{"tomorrow 07:05", "2024-03-09 07:05:00"},
		{"yesterday 23:59:59", "2024-03-07 23:59:59"},
		// Weekdays: now is a Friday, and next/last are strictly after/before today.
		{"next friday", "2024-03-15 00:00:00"},
		{"next fri", "2024-03-15 00:00:00"},
		{"next saturday", "2024-03-09 00:00:00"},
		{"next sat", "2024-03-09 00:00:00"},
		{"next sunday", "2024-03-10 00:00:00"},
		{"next monday 9am", "2024-03-11 09:00:00"},
		{"next tue", "2024-03-12 00:00:00"},
		{"next wednesday", "2024-03-13 00:00:00"},
		{"next thu", "2024-03-14 00:00:00"},
		{"NEXT Friday 18:30", "2024-03-15 18:30:00"},
		{"last friday", "2024-03-01 00:00:00"},
		{"last thursday", "2024-03-07 00:00:00"},
		{"last thu 6pm", "2024-03-07 18:00:00"},
		{"last sat", "2024-03-02 00:00:00"},
		{"last  mon", "2024-03-04 00:00:00"},
		// Offsets in calendar units.
		{"+1 day", "2024-03-09 {clock}"},
		{"+1 days", "2024-03-09 {clock}"},
		{"+2 days", "2024-03-10 {clock}"}, // across the US spring-forward: same wall clock
		{"+3days", "2024-03-11 {clock}"},
		{"3 days", "2024-03-11 {clock}"},
		{"-3 days", "2024-03-05 {clock}"},
		{"+0 days", "2024-03-08 {clock}"},
		{"-0 week", "2024-03-08 {clock}"},
		{"+1 week", "2024-03-15 {clock}"},
		{"+2 weeks 7:05pm", "2024-03-22 19:05:00"},
		{"-1 weeks", "2024-03-01 {clock}"},
		{"+1 month", "2024-04-08 {clock}"},
		{"-1 month", "2024-02-08 {clock}"},
		{"+12 months", "2025-03-08 {clock}"},
		{"+1 year", "2025-03-08 {clock}"},
		{"-2 years 8am", "2022-03-08 08:00:00"},
		{"+00001 YEARS", "2025-03-08 {clock}"},
		{"-99999 days", "1750-05-25 {clock}"},
		{"+1 day 12:00am", "2024-03-09 00:00:00"},
		{"+1 day 23:59:59", "2024-03-09 23:59:59"},
	}
	for _, zone := range dateTestZones {
		loc := dateTestLoc(t, zone)
		for _, c := range cases {
			got, err := ParseDate(c.in, loc, dateTestNow)
			if err != nil {
				t.Errorf("%s: ParseDate(%q): %v", zone, c.in, err)
				continue
			}
			want := dateTestWall(t, c.want, loc)
			if !got.Equal(want) {
				t.Errorf("%s: ParseDate(%q) = %v, want %v", zone, c.in, got, want)
			}
			if got.Location() != loc {
				t.Errorf("%s: ParseDate(%q) is in %v, want the given zone", zone, c.in, got.Location())
			}
		}
	}
}

func TestParseDateInstantForms(t *testing.T) {
	// RFC 3339 and Unix timestamps name instants: the zone does not matter.
	cases := []struct{ in, want string }{
		{"2024-05-06T07:08:09Z", "2024-05-06T07:08:09Z"},
		{"2024-05-06t07:08:09z", "2024-05-06T07:08:09Z"},
		{"2024-05-06 07:08:09Z", "2024-05-06T07:08:09Z"},
		{"2024-05-06T07:08:09+05:30", "2024-05-06T07:08:09+05:30"},
		{"2024-05-06T07:08:09-04:00", "2024-05-06T07:08:09-04:00"},
		{"2024-05-06T07:08:09+00:00", "2024-05-06T07:08:09Z"},
		{"2024-05-06T07:08:09.5Z", "2024-05-06T07:08:09.5Z"},
		{"2024-05-06T07:08:09.123456789+01:00", "2024-05-06T07:08:09.123456789+01:00"},
		{"2024-05-06T23:30:00-23:59", "2024-05-06T23:30:00-23:59"},
		{"9999-12-31T23:59:59-01:00", "9999-12-31T23:59:59-01:00"},
		{"0", "1970-01-01T00:00:00Z"},
		{"1700000000", "2023-11-14T22:13:20Z"},
		{"0001700000000", "2023-11-14T22:13:20Z"},
		{"2024", "1970-01-01T00:33:44Z"},
		{"253402300799", "9999-12-31T23:59:59Z"},
	}
	for _, zone := range dateTestZones {
		loc := dateTestLoc(t, zone)
		for _, c := range cases {
			got, err := ParseDate(c.in, loc, dateTestNow)
			if err != nil {
				t.Errorf("%s: ParseDate(%q): %v", zone, c.in, err)
				continue
			}
			want, err := time.Parse(time.RFC3339Nano, c.want)
			if err != nil {
				t.Fatalf("bad expectation %q: %v", c.want, err)
			}
			if !got.Equal(want) {
				t.Errorf("%s: ParseDate(%q) = %v, want %v", zone, c.in, got, want)
			}
			if got.Location() != loc {
				t.Errorf("%s: ParseDate(%q) is in %v, want the given zone", zone, c.in, got.Location())
			}
		}
	}
}

func TestParseDateKeepsNowExactly(t *testing.T) {
	now := time.Date(2024, 3, 8, 15, 4, 5, 123456789, time.UTC)
	loc := dateTestLoc(t, "Asia/Kolkata")
	got, err := ParseDate("now", loc, now)
	if err != nil || !got.Equal(now) {
		t.Fatalf("ParseDate(now) = %v, %v; want %v", got, err, now)
	}
	got, err = ParseDate("+1 week", loc, now)
	if want := now.AddDate(0, 0, 7); err != nil || !got.Equal(want) {
		t.Fatalf("ParseDate(+1 week) = %v, %v; want %v", got, err, want)
	}
	// now in the second run of a repeated hour (01:30 EST after 01:30 EDT)
	// stays itself; a day later is the same wall clock.
	ny := dateTestLoc(t, "America/New_York")
	repeated := time.Date(2024, 11, 3, 6, 30, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"now":     repeated,
		"+0 days": repeated,
		"+1 day":  time.Date(2024, 11, 4, 1, 30, 0, 0, ny),
		"-1 day":  time.Date(2024, 11, 2, 1, 30, 0, 0, ny),
	} {
		if got, err := ParseDate(in, ny, repeated); err != nil || !got.Equal(want) {
			t.Errorf("ParseDate(%q) at %v = %v, %v; want %v", in, repeated.In(ny), got, err, want)
		}
	}
	// A given time replaces the whole clock, sub-seconds included.
	got, err = ParseDate("now 10:00", loc, now)
	if want := time.Date(2024, 3, 8, 10, 0, 0, 0, loc); err != nil || !got.Equal(want) {
		t.Fatalf("ParseDate(now 10:00) = %v, %v; want %v", got, err, want)
	}
}

func TestParseDateCalendarArithmetic(t *testing.T) {
	utc := time.UTC
	cases := []struct {
		now  time.Time
		in   string
		want time.Time
	}{
		// Months overflow like time.AddDate: January 31 + 1 month is "February 31".
		{time.Date(2024, 1, 31, 8, 0, 0, 0, utc), "+1 month", time.Date(2024, 3, 2, 8, 0, 0, 0, utc)},
		{time.Date(2023, 1, 31, 8, 0, 0, 0, utc), "+1 month", time.Date(2023, 3, 3, 8, 0, 0, 0, utc)},
		{time.Date(2024, 3, 31, 8, 0, 0, 0, utc), "-1 month", time.Date(2024, 3, 2, 8, 0, 0, 0, utc)},
		{time.Date(2024, 2, 29, 8, 0, 0, 0, utc), "+1 year", time.Date(2025, 3, 1, 8, 0, 0, 0, utc)},
		{time.Date(2024, 12, 31, 8, 0, 0, 0, utc), "tomorrow", time.Date(2025, 1, 1, 0, 0, 0, 0, utc)},
		{time.Date(2024, 1, 1, 8, 0, 0, 0, utc), "yesterday", time.Date(2023, 12, 31, 0, 0, 0, 0, utc)},
		{time.Date(2024, 12, 30, 8, 0, 0, 0, utc), "next wed", time.Date(2025, 1, 1, 0, 0, 0, 0, utc)},
		{time.Date(2024, 1, 1, 8, 0, 0, 0, utc), "last sunday", time.Date(2023, 12, 31, 0, 0, 0, 0, utc)},
		// Relative forms work on now's wall clock in loc, not in now's own zone:
		// 2024-03-08 23:30 in UTC is already Saturday in Kolkata.
		{time.Date(2024, 3, 8, 23, 30, 0, 0, utc), "today", time.Date(2024, 3, 9, 0, 0, 0, 0, dateTestLoc(t, "Asia/Kolkata"))},
		// 23:30 on March 8 in New York is 10:00 on March 9 in Kolkata.
		{time.Date(2024, 3, 8, 23, 30, 0, 0, dateTestLoc(t, "America/New_York")), "tomorrow", time.Date(2024, 3, 10, 0, 0, 0, 0, dateTestLoc(t, "Asia/Kolkata"))},
	}
	for _, c := range cases {
		got, err := ParseDate(c.in, c.want.Location(), c.now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("ParseDate(%q) at %v = %v, %v; want %v", c.in, c.now, got, err, c.want)
		}
	}
}

func TestParseDateAcrossDST(t *testing.T) {
	ny := dateTestLoc(t, "America/New_York")
	berlin := dateTestLoc(t, "Europe/Berlin")
	cases := []struct {
		name    string
		loc     *time.Location
		now     time.Time
		in      string
		want    string        // wall clock in loc
		elapsed time.Duration // real time from now to the result
	}{
		{"US spring-forward day is 23h", ny, time.Date(2024, 3, 9, 12, 0, 0, 0, ny), "+1 day", "2024-03-10 12:00:00", 23 * time.Hour},
		{"US fall-back day is 25h", ny, time.Date(2024, 11, 2, 12, 0, 0, 0, ny), "+1 day", "2024-11-03 12:00:00", 25 * time.Hour},
		{"US spring-forward week", ny, time.Date(2024, 3, 7, 9, 30, 0, 0, ny), "+1 week", "2024-03-14 09:30:00", 7*24*time.Hour - time.Hour},
		{"US backwards over spring-forward", ny, time.Date(2024, 3, 11, 9, 0, 0, 0, ny), "-2 days", "2024-03-09 09:00:00", -(2*24*time.Hour - time.Hour)},
		{"EU spring-forward", berlin, time.Date(2024, 3, 30, 18, 0, 0, 0, berlin), "+1 day", "2024-03-31 18:00:00", 23 * time.Hour},
		{"EU fall-back", berlin, time.Date(2024, 10, 26, 18, 0, 0, 0, berlin), "tomorrow 6pm", "2024-10-27 18:00:00", 25 * time.Hour},
		{"EU month across spring-forward", berlin, time.Date(2024, 3, 15, 18, 0, 0, 0, berlin), "+1 month", "2024-04-15 18:00:00", 31*24*time.Hour - time.Hour},
	}
	for _, c := range cases {
		got, err := ParseDate(c.in, c.loc, c.now)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if wall := got.In(c.loc).Format(dateTestLayout); wall != c.want {
			t.Errorf("%s: wall clock %s, want %s", c.name, wall, c.want)
		}
		if d := got.Sub(c.now); d != c.elapsed {
			t.Errorf("%s: %v after now, want %v", c.name, d, c.elapsed)
		}
	}
}

func TestParseDateGapAndOverlap(t *testing.T) {
	// Wall-clock times that do not exist move forward by the gap; times that
	// exist twice are the first occurrence, the same way in zones west and
	// east of UTC (time.Date alone would differ), as documented on ParseDate.
	cases := []struct {
		zone, in, want string // want is an RFC 3339 instant
	}{
		{"America/New_York", "2024-03-10 02:30", "2024-03-10T07:30:00Z"},    // gap: 03:30 EDT
		{"America/New_York", "2024-03-10 02:00:00", "2024-03-10T07:00:00Z"}, // gap start: 03:00 EDT
		{"America/New_York", "2024-03-10 01:59:59", "2024-03-10T06:59:59Z"}, // last second before
		{"America/New_York", "2024-03-10 03:00", "2024-03-10T07:00:00Z"},
		{"America/New_York", "2024-11-03 01:30", "2024-11-03T05:30:00Z"}, // overlap: first occurrence (EDT)
		{"America/New_York", "2024-11-03 02:00", "2024-11-03T07:00:00Z"},
		{"Europe/Berlin", "2024-03-31 02:30", "2024-03-31T01:30:00Z"}, // gap: 03:30 CEST
		{"Europe/Berlin", "2024-10-27 02:30", "2024-10-27T00:30:00Z"}, // overlap: first occurrence (CEST)
		{"Europe/Berlin", "2024-10-27 03:00", "2024-10-27T02:00:00Z"},
		{"Australia/Lord_Howe", "2024-10-06 02:15", "2024-10-05T15:45:00Z"}, // 30-minute gap: 02:45 +11
		{"Australia/Lord_Howe", "2024-04-07 01:45", "2024-04-06T14:45:00Z"}, // 30-minute overlap: first (+11)
		// A skipped midnight: the day starts at the change (01:00 -03), not on the day before.
		{"America/Santiago", "2024-09-08", "2024-09-08T04:00:00Z"},
		{"America/Santiago", "2024-09-08 00:00", "2024-09-08T04:00:00Z"},
		{"America/Santiago", "2024-09-08 00:30", "2024-09-08T04:30:00Z"},
		{"America/Santiago", "2024-09-08 01:00", "2024-09-08T04:00:00Z"},
	}
	for _, c := range cases {
		loc := dateTestLoc(t, c.zone)
		got, err := ParseDate(c.in, loc, dateTestNow)
		want, _ := time.Parse(time.RFC3339, c.want)
		if err != nil || !got.Equal(want) {
			t.Errorf("%s: ParseDate(%q) = %v, %v; want %v", c.zone, c.in, got, err, want.In(loc))
		}
	}
	santiago := dateTestLoc(t, "America/Santiago")
	now := time.Date(2024, 9, 7, 12, 0, 0, 0, santiago)
	startOfDay := time.Date(2024, 9, 8, 4, 0, 0, 0, time.UTC)
	for _, in := range []string{"tomorrow", "next sunday", "+1 day 0:00", "tomorrow 12am"} {
		got, err := ParseDate(in, santiago, now)
		if err != nil || !got.Equal(startOfDay) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", in, got, err, startOfDay.In(santiago))
		}
	}
}

func TestParseDateInvalid(t *testing.T) {
	cases := []struct {
		in      string
		wantMsg string // a fragment the message must contain, if any
	}{
		{"", "empty"},
		{"   \t\n", "empty"},
		{"2024-13-01", "month 13"},
		{"2024-00-10", "month 00"},
		{"2024-02-30", "day 30"},
		{"2023-02-29", "day 29"},
		{"2024-04-31", "day 31"},
		{"2024-01-32", "day 32"},
		{"2024-01-00", "day 00"},
		{"2024-1-01", "month"},
		{"2024-01-1", "day"},
		{"24-01-01", ""},
		{"0999-01-01", "year 0999"},
		{"0000-01-01", "year"},
		{"10000-01-01", "year"},
		{"2024-01-01 24:00", "hour 24"},
		{"2024-01-01 23:60", "minute 60"},
		{"2024-01-01 23:59:60", "second 60"},
		{"2024-01-01 09:0", "minute"},
		{"2024-01-01 09:000", "minute"},
		{"2024-01-01T", "want a time"},
		{"2024-01-01 10:00 junk", "unexpected"},
		{"2024-01-01 13pm", "hour 13"},
		{"2024-01-01 4 o'clock", "unexpected"},
		{"24/12/2026", "expected YYYY-MM-DD"},
		{"2026/12/24", "expected YYYY-MM-DD"},
		{"24.12.2026", "expected YYYY-MM-DD"},
		{"12/24/2026 4pm", "expected YYYY-MM-DD"},
		{"2024-01-01x", "unexpected"},
		{"2024-01-01T10:00Z", "HH:MM:SS"},
		{"2024-01-01T10:00:00+5:30", "offset hour"},
		{"2024-01-01T10:00:00+0530", "offset"},
		{"2024-01-01T10:00:00+24:00", "offset hour 24"},
		{"2024-01-01T10:00:00+05:60", "offset minute 60"},
		{"2024-01-01T10:00:00+05:30:00", "unexpected"},
		{"2024-01-01T10:00:00 +05:30", "unexpected"},
		{"2024-01-01T10:00:00.Z", "fractional"},
		{"2024-01-01T10:00:00.1234567890Z", "fractional"},
		{"2024-01-01 10:00:00.5", "offset"},
		{"2024-01-01T10:00:00Z junk", "unexpected"},
		{"2024-01-01T10:00:00ZZ", "unexpected"},
		{"2024/01/01", ""},
		{"01/02/2024", ""},
		{"24:00", ""},
		{"10:00", ""},
		{"1234567890123", "too large"},
		{"999999999999", "too large"},
		{strings.Repeat("9", 1000), "too large"},
		{"-1700000000", ""},
		{"1.5 days", ""},
		{"tomorrow 24:00", "hour 24"},
		{"tomorrow 13pm", "hour 13"},
		{"tomorrow 0am", "hour 0"},
		{"tomorrow 00pm", "hour 0"},
		{"tomorrow 9:60", "minute 60"},
		{"tomorrow 9:5", "minute"},
		{"tomorrow 9:05:60", "second 60"},
		{"tomorrow 123", ""},
		{"tomorrow 9am junk", "unexpected"},
		{"tomorrow 9 a.m.", ""},
		{"tomorrow 9xm", "xm"},
		{"tomorrow9am", "unexpected"},
		{"tomorrow at 9am", ""},
		{"tomorrow 9am pm", "unexpected"},
		{"today tomorrow", ""},
		{"now now", ""},
		{"nowish", "nowish"},
		{"noon", "noon"},
		{"next funday", "funday"},
		{"next", "weekday"},
		{"last  ", "weekday"},
		{"next friday friday", ""},
		{"next month", "month"},
		{"nextfriday", ""},
		{"next thurs", "thurs"},
		{"+1 fortnight", "fortnight"},
		{"+1", "unit"},
		{"+1 ", "unit"},
		{"+ 1 day", "digits"},
		{"++1 day", "digits"},
		{"+-1 day", "digits"},
		{"+123456 days", "digits"},
		{"+99999 years", "year"},
		{"-9999 years", "year"},
		{"+1 days ago", ""},
		{"+1 day9am", ""},
		{"+1 hour", "hour"},
		{"-", ""},
		{"+", ""},
		{"T", ""},
		{"Z", ""},
		{"\xff", "non-ASCII"},
		{"2024-01-01\xff", "non-ASCII"},
		{"2024-01-01 10:00\xc3", "non-ASCII"},
		{"2024-01-01\x00", ""},
		{"tomorrow\x00", ""},
		{"née", "non-ASCII"},
		{"１２３", "non-ASCII"},
		{"२०२४-०१-०१", "non-ASCII"},
		{"now" + strings.Repeat(" ", 10) + "x", ""},
		{strings.Repeat("next ", 1000), ""},
	}
	loc := dateTestLoc(t, "Europe/Berlin")
	for _, c := range cases {
		got, err := ParseDate(c.in, loc, dateTestNow)
		if err == nil {
			t.Errorf("ParseDate(%q) = %v, want an error", c.in, got)
			continue
		}
		if !got.IsZero() {
			t.Errorf("ParseDate(%q) returned %v with its error, want the zero time", c.in, got)
		}
		if !strings.Contains(err.Error(), c.wantMsg) {
			t.Errorf("ParseDate(%q) error %q does not mention %q", c.in, err, c.wantMsg)
		}
		if len(err.Error()) > 300 {
			t.Errorf("ParseDate(%q) error is %d bytes long; hostile input must not inflate it", c.in[:20], len(err.Error()))
		}
	}
}

func TestParseDateNilLocationIsUTC(t *testing.T) {
	for _, in := range []string{"2024-05-06 07:08", "tomorrow 9am", "1700000000"} {
		a, errA := ParseDate(in, nil, dateTestNow)
		b, errB := ParseDate(in, time.UTC, dateTestNow)
		if errA != nil || errB != nil || !a.Equal(b) || a.Location() != time.UTC {
			t.Errorf("ParseDate(%q, nil) = %v, %v; ParseDate(%q, UTC) = %v, %v", in, a, errA, in, b, errB)
		}
	}
}

// TestDatesIgnoreProcessZone proves the results do not depend on time.Local
// (the process's TZ): the same inputs give the same instants and wall clocks
// whatever time.Local is.
func TestDatesIgnoreProcessZone(t *testing.T) {
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	inputs := []string{
		"2024-03-10 02:30", "2024-05-06", "2024-05-06T07:08:09+05:30", "1700000000",
		"now", "today", "tomorrow 9am", "yesterday", "next friday", "last sun 18:30",
		"+1 day", "+2 weeks 7:05pm", "-1 month", "+1 year",
	}
	zones := []string{"UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata"}
	locals := []string{"UTC", "Pacific/Chatham", "America/Los_Angeles", "Asia/Tokyo", "Pacific/Kiritimati"}
	type result struct {
		unix int64
		wall string
	}
	var reference map[string]result
	for _, local := range locals {
		time.Local = dateTestLoc(t, local)
		// now is built in the process zone on purpose: only its instant may matter.
		now := time.Date(2024, 3, 8, 15, 4, 5, 0, time.UTC).Local()
		got := map[string]result{}
		for _, zone := range zones {
			loc := dateTestLoc(t, zone)
			for _, in := range inputs {
				r, err := ParseDate(in, loc, now)
				if err != nil {
					t.Fatalf("TZ=%s %s: ParseDate(%q): %v", local, zone, in, err)
				}
				got[zone+" "+in] = result{r.UnixNano(), r.Format(time.RFC3339Nano)}
			}
			day := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC).Local()
			got[zone+" start"] = result{StartOfDay(day, loc).UnixNano(), StartOfDay(day, loc).Format(time.RFC3339)}
			got[zone+" end"] = result{EndOfDay(day, loc).UnixNano(), EndOfDay(day, loc).Format(time.RFC3339)}
		}
		if reference == nil {
			reference = got
			continue
		}
		for k, want := range reference {
			if got[k] != want {
				t.Errorf("TZ=%s: %s = %v, want %v (as under TZ=%s)", local, k, got[k], want, locals[0])
			}
		}
	}
}

func TestStartAndEndOfDay(t *testing.T) {
	cases := []struct {
		zone       string
		t          time.Time
		start, end string // wall clocks in zone
		length     time.Duration
	}{
		{"UTC", time.Date(2024, 5, 6, 13, 0, 0, 0, time.UTC), "2024-05-06 00:00:00", "2024-05-06 23:59:59", 24*time.Hour - time.Second},
		// 02:00Z on March 8 is still March 7 in New York.
		{"America/New_York", time.Date(2024, 3, 8, 2, 0, 0, 0, time.UTC), "2024-03-07 00:00:00", "2024-03-07 23:59:59", 24*time.Hour - time.Second},
		// 20:00Z on March 8 is already March 9 in Kolkata.
		{"Asia/Kolkata", time.Date(2024, 3, 8, 20, 0, 0, 0, time.UTC), "2024-03-09 00:00:00", "2024-03-09 23:59:59", 24*time.Hour - time.Second},
		{"America/New_York", time.Date(2024, 3, 10, 15, 0, 0, 0, time.UTC), "2024-03-10 00:00:00", "2024-03-10 23:59:59", 23*time.Hour - time.Second},
		{"America/New_York", time.Date(2024, 11, 3, 15, 0, 0, 0, time.UTC), "2024-11-03 00:00:00", "2024-11-03 23:59:59", 25*time.Hour - time.Second},
		{"Europe/Berlin", time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC), "2024-03-31 00:00:00", "2024-03-31 23:59:59", 23*time.Hour - time.Second},
		{"Europe/Berlin", time.Date(2024, 10, 27, 12, 0, 0, 0, time.UTC), "2024-10-27 00:00:00", "2024-10-27 23:59:59", 25*time.Hour - time.Second},
		// Midnight does not exist: the day starts at 01:00 and is 23 hours long.
		{"America/Santiago", time.Date(2024, 9, 8, 15, 0, 0, 0, time.UTC), "2024-09-08 01:00:00", "2024-09-08 23:59:59", 23*time.Hour - time.Second},
		// 23:00-24:00 happens twice: the day ends at the second 23:59:59 and is 25 hours long.
		{"America/Santiago", time.Date(2024, 4, 6, 15, 0, 0, 0, time.UTC), "2024-04-06 00:00:00", "2024-04-06 23:59:59", 25*time.Hour - time.Second},
	}
	for _, c := range cases {
		loc := dateTestLoc(t, c.zone)
		start, end := StartOfDay(c.t, loc), EndOfDay(c.t, loc)
		if got := start.In(loc).Format(dateTestLayout); got != c.start {
			t.Errorf("%s: StartOfDay(%v) = %s, want %s", c.zone, c.t, got, c.start)
		}
		if got := end.In(loc).Format(dateTestLayout); got != c.end {
			t.Errorf("%s: EndOfDay(%v) = %s, want %s", c.zone, c.t, got, c.end)
		}
		if got := end.Sub(start); got != c.length {
			t.Errorf("%s: day of %v spans %v, want %v", c.zone, c.t, got, c.length)
		}
		if start.After(c.t) || end.Add(time.Second).Before(c.t) {
			t.Errorf("%s: [%v, %v] does not contain %v", c.zone, start, end, c.t)
		}
	}
	if got := StartOfDay(time.Date(2024, 5, 6, 13, 14, 15, 16, time.UTC), nil); !got.Equal(time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("StartOfDay with nil loc = %v, want UTC midnight", got)
	}
	if got := EndOfDay(time.Date(2024, 5, 6, 13, 14, 15, 16, time.UTC), nil); !got.Equal(time.Date(2024, 5, 6, 23, 59, 59, 0, time.UTC)) {
		t.Errorf("EndOfDay with nil loc = %v, want UTC 23:59:59", got)
	}
}
