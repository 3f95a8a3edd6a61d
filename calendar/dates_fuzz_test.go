package calendar

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// dateFuzzSeeds covers every form of the grammar, the edges of every range,
// DST gaps and overlaps, and near misses.
var dateFuzzSeeds = []string{
	"2024-05-06", "2024-02-29", "1000-01-01", "9999-12-31",
	"2024-05-06 07:08", "2024-05-06 07:08:09", "2024-05-06T07:08", "2024-05-06T07:08:09",
	"2024-05-06t07:08:09", "2024-05-06T07:08:09Z", "2024-05-06 07:08:09z",
	"2024-05-06T07:08:09+05:30", "2024-05-06T07:08:09-23:59", "2024-05-06T07:08:09.123456789Z",
	"9999-12-31T23:59:59-23:59", "1000-01-01T00:00:00+23:59",
	"2024-03-10 02:30", "2024-11-03 01:30", "2024-03-31 02:30", "2024-10-27 02:30", "2024-09-08",
	"0", "1700000000", "253402300799", "253402300800", "0001700000000",
	"now", "today", "tomorrow", "yesterday", "NOW", "Tomorrow 9AM",
	"now 18:30", "today 12am", "tomorrow 9am", "tomorrow 9 pm", "yesterday 23:59:59", "tomorrow 7",
	"next friday", "next fri 18:30", "last sunday", "last mon 7:05pm", "next wednesday 0:00",
	"+1 day", "+2 days", "-3 days", "3 days", "+1 week", "+2 weeks 7:05pm", "-1 month",
	"+12 months", "+1 year", "-2 years 8am", "+99999 days", "-99999 days", "+7974 years", "-1024 years",
	"", " ", "2024-13-01", "2024-02-30", "2023-02-29", "24:00", "2024-01-01 24:00",
	"tomorrow 13pm", "tomorrow 0am", "next funday", "+1 fortnight", "2024-01-01 10:00 x",
	"+123456 days", "1234567890123", "\xff", "2024-01-01T10:00:00.Z", "2024-01-01 10:00:00.5",
}

// dateFuzzZones are the zones each input is parsed in: fixed, half-hour,
// DST on both sides of UTC, and a zone whose DST change skips midnight.
var dateFuzzZones = []string{"UTC", "Asia/Kolkata", "America/New_York", "Europe/Berlin", "America/Santiago"}

// dateFuzzIsAbsolute reports whether s (trimmed) is one of the absolute forms,
// by the same first-bytes rule the grammar uses.
func dateFuzzIsAbsolute(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 5 && s[0] >= '0' && s[0] <= '9' && s[4] == '-'
}

func FuzzParseDate(f *testing.F) {
	for _, s := range dateFuzzSeeds {
		f.Add(s)
	}
	locs := make([]*time.Location, len(dateFuzzZones))
	for i, name := range dateFuzzZones {
		locs[i] = dateTestLoc(f, name)
	}
	now := time.Date(2026, 11, 22, 4, 30, 15, 987654321, time.UTC)
	const layout = "2006-01-02 15:04:05"
	f.Fuzz(func(t *testing.T, in string) {
		for _, loc := range locs {
			got, err := ParseDate(in, loc, now)
			again, err2 := ParseDate(in, loc, now)
			if (err == nil) != (err2 == nil) || !got.Equal(again) {
				t.Fatalf("%s: ParseDate(%q) is not deterministic: %v, %v then %v, %v", loc, in, got, err, again, err2)
			}
			if err != nil {
				if !got.IsZero() {
					t.Fatalf("%s: ParseDate(%q) returned %v with error %v", loc, in, got, err)
				}
				if err.Error() == "" {
					t.Fatalf("%s: ParseDate(%q) returned an empty error", loc, in)
				}
				continue
			}
			if got.Location() != loc {
				t.Fatalf("%s: ParseDate(%q) = %v is not in the given zone", loc, in, got)
			}
			// Absolute forms carry a year of 1000-9999; an offset of up to
			// ±23:59 may carry the instant a day past either end.
			if y := got.UTC().Year(); y < 999 || y > 10000 {
				t.Fatalf("%s: ParseDate(%q) = %v, year out of range", loc, in, got)
			}
			// Relative forms are checked in loc, where their calendar arithmetic happens.
			if relative := !dateFuzzIsAbsolute(in) && !dateAllDigits(strings.TrimSpace(in)); relative {
				if y := got.Year(); y < 1000 || y > 9999 {
					t.Fatalf("%s: ParseDate(%q) = %v, year out of range", loc, in, got)
				}
			}
			// Case does not matter.
			if upper, err := ParseDate(strings.ToUpper(in), loc, now); err != nil || !upper.Equal(got) {
				t.Fatalf("%s: ParseDate(%q) = %v but upper-case gives %v, %v", loc, in, got, upper, err)
			}
			switch {
			case dateAllDigits(strings.TrimSpace(in)):
				back, err := ParseDate(strconv.FormatInt(got.Unix(), 10), loc, now)
				if err != nil || !back.Equal(got) {
					t.Fatalf("%s: ParseDate(%q) = %v, re-parsing its Unix time gives %v, %v", loc, in, got, back, err)
				}
			case dateFuzzIsAbsolute(in):
				if got.Year() < 1000 || got.Year() > 9999 {
					return // an offset pushed the wall clock in loc out of the grammar's years
				}
				wall := got.Format(layout)
				back, err := ParseDate(wall, loc, now)
				if err != nil {
					t.Fatalf("%s: ParseDate(%q) = %v, but its wall clock %q does not parse: %v", loc, in, got, wall, err)
				}
				if want := got.Truncate(time.Second); !back.Equal(want) {
					// Only a clock repeated by a DST change may name another
					// instant, and then the same wall clock, first occurrence.
					if back.Format(layout) != wall || !back.Before(want) {
						t.Fatalf("%s: ParseDate(%q) = %v, re-parsing %q gives %v", loc, in, got, wall, back)
					}
				}
			}
		}
	})
}
