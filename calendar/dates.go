package calendar

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseDate parses s in the calendar's date grammar. Forms without an offset
// are wall-clock times in loc; relative forms are computed from now (in loc).
// It returns an error (a plain error whose message says what is wrong; the
// caller names the argument) for anything else. A nil loc means UTC. The
// result is always expressed in loc; nothing depends on the process's local
// zone.
//
// The grammar. Leading and trailing white space is ignored, words are
// case-insensitive, and only ASCII is accepted; "ws" is one or more spaces or
// tabs:
//
//	date      = absolute | unix | relative
//	absolute  = YYYY "-" MM "-" DD [ ("T" | ws) ( HH ":" MM [ ":" SS ] | time ) ]
//	          | YYYY "-" MM "-" DD ("T" | ws) HH ":" MM ":" SS [ "." 1*9DIGIT ] ( "Z" | ("+" | "-") HH ":" MM )
//	unix      = 1*12DIGIT                       ; seconds since 1970-01-01T00:00:00Z
//	relative  = ( "now" | "today" | "tomorrow" | "yesterday"
//	            | ("next" | "last") ws weekday
//	            | [ "+" | "-" ] 1*5DIGIT [ ws ] unit ) [ ws time ]
//	unit      = "day" | "days" | "week" | "weeks" | "month" | "months" | "year" | "years"
//	weekday   = "monday" | "mon" | "tuesday" | "tue" | … | "sunday" | "sun"
//	time      = H [ ":" MM [ ":" SS ] ] [ [ ws ] ( "am" | "pm" ) ]   ; H is 1 or 2 digits
//
// Absolute forms: a date may be followed by the same times as the relative
// forms ("2026-12-24 4pm", "2026-12-24 4:30 pm", "2026-12-24 16:30").
// Dates written with slashes or dots ("24/12/2026") are refused with a
// message naming the expected form: day and month order differ by country.
// The year is 1000-9999, the month 01-12, the day must exist
// in that month (2023-02-29 is rejected), hours 00-23, minutes and seconds
// 00-59, offset hours 00-23 and minutes 00-59; every field has exactly the
// digits shown. A date without a time is the start of that day. The RFC 3339
// form (with "Z" or an offset) names an instant and ignores loc except for
// the zone the result is expressed in; "T" and "Z" may be lower case, and a space may
// stand for "T". Fractional seconds are only accepted in that form, because a
// wall-clock time is always whole seconds. A string of digits only is a Unix
// timestamp in seconds (so "2024" is 1970-01-01T00:33:44Z, not a year), up to
// 9999-12-31T23:59:59Z.
//
// Relative forms are computed on now's wall clock in loc. "now" (and "+0
// days") is exactly now;
// "today", "tomorrow" and "yesterday" are the start of that day; "next
// <weekday>" is the first such day strictly after today and "last <weekday>"
// the last one strictly before today (on a Friday, "next friday" is 7 days
// ahead), both at the start of the day. "+N unit" and "-N unit" add or
// subtract N calendar units keeping now's clock time; a number without a sign counts
// forward ("3 days" is "+3 days"). Units are added on the calendar like
// time.AddDate: a day keeps the wall-clock time across a DST change (it is 23
// or 25 hours long), and months and years normalise an overflowing day
// ("+1 month" on January 31 gives March 2 or 3). A trailing time replaces the
// clock (seconds and sub-seconds become those given, or 0): with "am"/"pm" the
// hour is 1-12 (12am is 00, 12pm is 12), otherwise 0-23. The resulting year
// must be 1000-9999.
//
// A wall-clock time that does not exist in loc (skipped by a DST change) is
// moved forward by the length of the gap: it is read with the offset in force
// before the change (2024-03-10 02:30 in America/New_York is 03:30 EDT,
// 07:30Z; a skipped midnight, as in America/Santiago, becomes 01:00, the
// start of that day). A wall-clock time that exists twice (repeated by a DST
// change) is its first occurrence (2024-11-03 01:30 in America/New_York is
// 01:30 EDT, 05:30Z). Both are results time.Date's documentation allows ("a
// time that is correct in one of the two zones involved in the transition"),
// but time.Date itself picks differently depending on the zone, so the choice
// is made explicitly here and is the same in every zone. Callers that must
// reject such times can compare the result's wall clock with the input.
func ParseDate(s string, loc *time.Location, now time.Time) (time.Time, error) {
	if loc == nil {
		loc = time.UTC
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, errors.New("date is empty")
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return time.Time{}, fmt.Errorf("date %s contains a non-ASCII character", dateQuote(s))
		}
	}
	lower := strings.ToLower(s)
	var t time.Time
	var err error
	switch c := lower[0]; {
	case c >= '0' && c <= '9' && dateAllDigits(lower):
		t, err = dateParseUnix(lower)
		t = t.In(loc)
	case c >= '0' && c <= '9' && len(lower) >= 5 && lower[4] == '-':
		t, err = dateParseAbsolute(lower, loc)
	case c >= '0' && c <= '9' && dateSlashed(lower):
		err = errors.New("expected YYYY-MM-DD, for example 2026-12-24 (dates with / or . are ambiguous)")
	default:
		t, err = dateParseRelative(lower, loc, now)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("invalid date %s: %w", dateQuote(s), err)
	}
	return t, nil
}

// StartOfDay returns 00:00:00 of t's day in loc (a nil loc means UTC). It is
// built from the calendar date rather than by adding hours, so it is right on days
// that are 23 or 25 hours long; where a DST change skips midnight, the day
// starts at the instant of the change (01:00 local), never on the day before.
// Skipped and repeated clocks are resolved as in ParseDate.
func StartOfDay(t time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	y, m, d := t.In(loc).Date()
	return dateWall(y, m, d, 0, 0, 0, 0, loc, false)
}

// EndOfDay returns 23:59:59 of t's day in loc (a nil loc means UTC), built
// from the calendar date like StartOfDay. Where a DST change repeats
// 23:59:59 (a fall-back at midnight), it is the later occurrence, so the day
// covers every instant whose date is that day. The result has no sub-second
// part, matching the whole-second wall-clock strings the calendar reads and
// writes.
func EndOfDay(t time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	y, m, d := t.In(loc).Date()
	return dateWall(y, m, d, 23, 59, 59, 0, loc, true)
}

// dateWall returns the instant the wall clock y-m-d hh:mm:ss.ns names in loc,
// like time.Date, but resolves clocks that a DST change skips or repeats the
// same way in every zone. time.Date only promises a time "correct in one of
// the two zones involved in the transition", and in practice its choice
// depends on the sign of the zone's offset (a skipped 02:30 becomes 01:30 EST
// in New York but 03:30 CEST in Berlin). Here a skipped clock is read with the
// offset in force before the change, so it moves forward by the length of the
// gap (02:30 becomes 03:30 in both), and a repeated clock is its earlier
// occurrence, or its later one if late is set.
func dateWall(y int, mo time.Month, d, hh, mm, ss, ns int, loc *time.Location, late bool) time.Time {
	t := time.Date(y, mo, d, hh, mm, ss, ns, loc)
	w := time.Date(y, mo, d, hh, mm, ss, ns, time.UTC) // the wall clock, as if it were UTC
	_, before := w.Add(-24 * time.Hour).In(loc).Zone()
	_, after := w.Add(24 * time.Hour).In(loc).Zone()
	if before == after {
		return t // no change of offset nearby: time.Date is exact
	}
	_, used := t.Zone()
	var best time.Time
	found := false
	for _, off := range [...]int{before, after, used} {
		c := w.Add(-time.Duration(off) * time.Second).In(loc)
		if _, o := c.Zone(); o != off {
			continue // off is not in force at c, so c does not show the wall clock
		}
		if !found || (late && c.After(best)) || (!late && c.Before(best)) {
			best, found = c, true
		}
	}
	if found {
		return best
	}
	return w.Add(-time.Duration(before) * time.Second).In(loc)
}

// dateMaxUnix is 9999-12-31T23:59:59Z, the last instant a Unix timestamp may name.
const dateMaxUnix = 253402300799

// dateQuote quotes an input for an error message, shortening long inputs so
// a hostile value cannot blow up error responses and logs.
func dateQuote(s string) string {
	const limit = 64
	if len(s) > limit {
		return strconv.Quote(s[:limit]) + "…"
	}
	return strconv.Quote(s)
}

func dateAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func dateParseUnix(s string) (time.Time, error) {
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	if len(s) > 12 {
		return time.Time{}, errors.New("unix timestamp is too large")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > dateMaxUnix {
		return time.Time{}, errors.New("unix timestamp is too large")
	}
	return time.Unix(n, 0).UTC(), nil
}

// dateScanner walks an ASCII, lower-cased input one byte at a time.
type dateScanner struct {
	s string
	i int
}

func (p *dateScanner) done() bool { return p.i >= len(p.s) }

func (p *dateScanner) peek() byte {
	if p.done() {
		return 0
	}
	return p.s[p.i]
}

// accept consumes c if it is next.
func (p *dateScanner) accept(c byte) bool {
	if p.peek() == c && !p.done() {
		p.i++
		return true
	}
	return false
}

// space consumes a run of spaces and tabs and reports whether there was one.
func (p *dateScanner) space() bool {
	start := p.i
	for !p.done() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
	return p.i > start
}

// digits consumes between lo and hi digits and returns their value; ok is
// false if fewer than lo digits are next or more than hi follow.
func (p *dateScanner) digits(lo, hi int) (n int, count int, ok bool) {
	for !p.done() && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		if count == hi {
			return 0, count, false
		}
		n = n*10 + int(p.s[p.i]-'0')
		count++
		p.i++
	}
	return n, count, count >= lo
}

// word consumes a run of letters.
func (p *dateScanner) word() string {
	start := p.i
	for !p.done() && p.s[p.i] >= 'a' && p.s[p.i] <= 'z' {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *dateScanner) rest() string { return p.s[p.i:] }

// field consumes exactly width digits naming what, in [lo, hi].
func (p *dateScanner) field(what string, width, lo, hi int) (int, error) {
	n, _, ok := p.digits(width, width)
	if !ok {
		return 0, fmt.Errorf("%s must be %d digits", what, width)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%s %0*d is out of range %0*d-%0*d", what, width, n, width, lo, width, hi)
	}
	return n, nil
}

func dateParseAbsolute(s string, loc *time.Location) (time.Time, error) {
	p := &dateScanner{s: s}
	year, err := p.field("year", 4, 1000, 9999)
	if err != nil {
		return time.Time{}, err
	}
	if !p.accept('-') {
		return time.Time{}, errors.New("expected YYYY-MM-DD")
	}
	month, err := p.field("month", 2, 1, 12)
	if err != nil {
		return time.Time{}, err
	}
	if !p.accept('-') {
		return time.Time{}, errors.New("expected YYYY-MM-DD")
	}
	day, err := p.field("day", 2, 1, 31)
	if err != nil {
		return time.Time{}, err
	}
	if last := dateDaysIn(year, time.Month(month)); day > last {
		return time.Time{}, fmt.Errorf("day %02d does not exist in %04d-%02d", day, year, month)
	}
	if p.done() {
		return dateWall(year, time.Month(month), day, 0, 0, 0, 0, loc, false), nil
	}
	if !p.accept('t') && !p.space() {
		return time.Time{}, fmt.Errorf("unexpected %q after the date (want a time like 18:30 or 4pm)", p.rest())
	}
	// The times of the relative forms ("4pm", "4:30 pm", "16:30") first;
	// what they do not take (offsets, fractions) is RFC 3339's.
	if !dateRFC3339Time(p.rest()) {
		hh, mm, ss, err := dateParseClock(p)
		if err != nil {
			return time.Time{}, err
		}
		return dateWall(year, time.Month(month), day, hh, mm, ss, 0, loc, false), nil
	}
	hour, err := p.field("hour", 2, 0, 23)
	if err != nil {
		return time.Time{}, err
	}
	if !p.accept(':') {
		return time.Time{}, errors.New("expected HH:MM after the date")
	}
	minute, err := p.field("minute", 2, 0, 59)
	if err != nil {
		return time.Time{}, err
	}
	sec, hasSec := 0, false
	if p.accept(':') {
		if sec, err = p.field("second", 2, 0, 59); err != nil {
			return time.Time{}, err
		}
		hasSec = true
	}
	if p.done() {
		return dateWall(year, time.Month(month), day, hour, minute, sec, 0, loc, false), nil
	}
	// What follows must be RFC 3339's optional fraction and mandatory offset.
	if !hasSec {
		return time.Time{}, fmt.Errorf("unexpected %q after the time (an offset needs HH:MM:SS)", p.rest())
	}
	nsec := 0
	if p.accept('.') {
		frac, count, ok := p.digits(1, 9)
		if !ok {
			return time.Time{}, errors.New("fractional seconds must be 1 to 9 digits")
		}
		for ; count < 9; count++ {
			frac *= 10
		}
		nsec = frac
		if p.done() {
			return time.Time{}, errors.New("fractional seconds need an offset or Z")
		}
	}
	var zone *time.Location
	switch {
	case p.accept('z'):
		zone = time.UTC
	case p.peek() == '+' || p.peek() == '-':
		sign := 1
		if p.s[p.i] == '-' {
			sign = -1
		}
		p.i++
		oh, err := p.field("offset hour", 2, 0, 23)
		if err != nil {
			return time.Time{}, err
		}
		if !p.accept(':') {
			return time.Time{}, errors.New("offset must be ±HH:MM")
		}
		om, err := p.field("offset minute", 2, 0, 59)
		if err != nil {
			return time.Time{}, err
		}
		zone = time.FixedZone("", sign*(oh*3600+om*60))
	default:
		return time.Time{}, fmt.Errorf("unexpected %q after the time", p.rest())
	}
	if !p.done() {
		return time.Time{}, fmt.Errorf("unexpected %q after the offset", p.rest())
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, zone).In(loc), nil
}

// dateDaysIn returns the number of days in the month.
func dateDaysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

var dateWeekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "sun": time.Sunday,
	"monday": time.Monday, "mon": time.Monday,
	"tuesday": time.Tuesday, "tue": time.Tuesday,
	"wednesday": time.Wednesday, "wed": time.Wednesday,
	"thursday": time.Thursday, "thu": time.Thursday,
	"friday": time.Friday, "fri": time.Friday,
	"saturday": time.Saturday, "sat": time.Saturday,
}

func dateParseRelative(s string, loc *time.Location, now time.Time) (time.Time, error) {
	base := now.In(loc)
	y, m, d := base.Date()
	hh, mm, ss := base.Clock()
	ns := base.Nanosecond()
	p := &dateScanner{s: s}
	switch c := p.peek(); {
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
		sign := 1
		if p.accept('-') {
			sign = -1
		} else {
			p.accept('+')
		}
		n, _, ok := p.digits(1, 5)
		if !ok {
			return time.Time{}, errors.New("a relative offset needs a number of 1 to 5 digits")
		}
		n *= sign
		p.space()
		switch unit := p.word(); unit {
		case "day", "days":
			d += n
		case "week", "weeks":
			d += 7 * n
		case "month", "months":
			m += time.Month(n)
		case "year", "years":
			y += n
		case "":
			return time.Time{}, errors.New("a relative offset needs a unit (day, week, month or year)")
		default:
			return time.Time{}, fmt.Errorf("unknown unit %q (want day, week, month or year)", unit)
		}
	default:
		switch w := p.word(); w {
		case "now":
		case "today":
			hh, mm, ss, ns = 0, 0, 0, 0
		case "tomorrow":
			d++
			hh, mm, ss, ns = 0, 0, 0, 0
		case "yesterday":
			d--
			hh, mm, ss, ns = 0, 0, 0, 0
		case "next", "last":
			if !p.space() {
				return time.Time{}, fmt.Errorf("%q needs a weekday", w)
			}
			name := p.word()
			wd, ok := dateWeekdays[name]
			if !ok {
				return time.Time{}, fmt.Errorf("unknown weekday %q", name)
			}
			delta := (int(wd) - int(base.Weekday()) + 7) % 7 // 0..6 days ahead
			if w == "next" {
				if delta == 0 {
					delta = 7
				}
			} else {
				delta -= 7 // -7..-1 days back
			}
			d += delta
			hh, mm, ss, ns = 0, 0, 0, 0
		case "":
			return time.Time{}, errors.New("not a date")
		default:
			return time.Time{}, fmt.Errorf("unknown word %q", w)
		}
	}
	if !p.done() {
		if !p.space() {
			return time.Time{}, fmt.Errorf("unexpected %q", p.rest())
		}
		var err error
		if hh, mm, ss, err = dateParseClock(p); err != nil {
			return time.Time{}, err
		}
		ns = 0
	}
	// "now" and "+0 days" are now itself, even in the second run of an hour a
	// DST change repeats, which dateWall would read as the first run.
	t := base
	by, bm, bd := base.Date()
	bh, bmin, bs := base.Clock()
	if y != by || m != bm || d != bd || hh != bh || mm != bmin || ss != bs || ns != base.Nanosecond() {
		t = dateWall(y, m, d, hh, mm, ss, ns, loc, false)
	}
	if yr := t.Year(); yr < 1000 || yr > 9999 {
		return time.Time{}, fmt.Errorf("year %d is out of range 1000-9999", yr)
	}
	return t, nil
}

// dateRFC3339Time reports whether s is a time with an offset or a fraction
// (HH:MM[:SS] followed by "z", "+", "-" or "."), the one form the clock
// grammar of the relative forms does not cover.
func dateRFC3339Time(s string) bool {
	digit := func(i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	if !digit(0) || !digit(1) || len(s) < 6 || s[2] != ':' || !digit(3) || !digit(4) {
		return false
	}
	i := 5
	if i < len(s) && s[i] == ':' && digit(6) && digit(7) {
		i = 8
	}
	return i < len(s) && strings.IndexByte("z+-.", s[i]) >= 0
}

// dateSlashed reports whether a date-like value uses / or . between its
// first digits, as 24/12/2026 or 24.12.2026 do.
func dateSlashed(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i < len(s) && (s[i] == '/' || s[i] == '.')
}

// dateParseClock parses the time that may follow a relative form, up to the
// end of the input.
func dateParseClock(p *dateScanner) (hour, minute, sec int, err error) {
	hour, _, ok := p.digits(1, 2)
	if !ok {
		return 0, 0, 0, fmt.Errorf("unexpected %q (want a time like 9am or 18:30)", p.rest())
	}
	if p.accept(':') {
		if minute, err = p.field("minute", 2, 0, 59); err != nil {
			return 0, 0, 0, err
		}
		if p.accept(':') {
			if sec, err = p.field("second", 2, 0, 59); err != nil {
				return 0, 0, 0, err
			}
		}
	}
	p.space()
	switch suffix := p.word(); suffix {
	case "":
		if hour > 23 {
			return 0, 0, 0, fmt.Errorf("hour %d is out of range 0-23", hour)
		}
	case "am", "pm":
		if hour < 1 || hour > 12 {
			return 0, 0, 0, fmt.Errorf("hour %d is out of range 1-12 for %s", hour, suffix)
		}
		hour %= 12
		if suffix == "pm" {
			hour += 12
		}
	default:
		return 0, 0, 0, fmt.Errorf("unexpected %q after the time (want am or pm)", suffix)
	}
	if !p.done() {
		return 0, 0, 0, fmt.Errorf("unexpected %q after the time", p.rest())
	}
	return hour, minute, sec, nil
}
