package calendar

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/teambition/rrule-go"
)

// Limits on recurrence input, so one request cannot make the calendar parse
// or expand without bound. Occurrence counts are bounded by the
// MaxOccurrences option.
const (
	// MaxRecurrenceLines is the most lines a recurrence may have.
	MaxRecurrenceLines = 100
	// MaxRecurrenceLineLen is the longest recurrence line in bytes.
	MaxRecurrenceLineLen = 32 << 10
	// MaxRecurrenceInterval is the largest INTERVAL of a rule.
	MaxRecurrenceInterval = 1000
	// MaxExceptionDates is the most EXDATE values a recurrence may have
	// (deleting occurrences one by one adds them).
	MaxExceptionDates = 10000
)

// recurrenceProbeYears is how far the calendar looks for the first instance of
// a rule before calling it one that never occurs: every pattern of dates and
// weekdays that occurs at all repeats within a 400-year Gregorian cycle.
const recurrenceProbeYears = 401

// rulePart is one NAME=VALUE part of an RRULE, kept in the order given so that
// a rewritten rule (UNTIL on a split) reads like the one that was sent.
type rulePart struct{ name, value string }

// recurRule is a validated RRULE.
type recurRule struct {
	parts []rulePart
	opt   rrule.ROption // Dtstart, Until and Count are filled in at expansion
	count int           // 0: none
	until time.Time     // zero: none; the last instant an occurrence may start
}

// recurDate is one RDATE or EXDATE value.
type recurDate struct {
	at      time.Time // the instant (for a DATE: the series' time of day on it)
	dateOny bool      // VALUE=DATE: an EXDATE removes every occurrence on that day
	day     civilDay
}

type civilDay struct {
	y int
	m time.Month
	d int
}

func dayOf(t time.Time) civilDay { y, m, d := t.Date(); return civilDay{y, m, d} }

// Recurrence is a validated RFC 5545 recurrence set (RRULE, RDATE, EXDATE
// lines) anchored at a series' start in its zone. Build one with
// ParseRecurrence; its occurrences come from Occurrences.
type Recurrence struct {
	start   time.Time // DTSTART, in loc
	loc     *time.Location
	rule    *recurRule
	rdates  []recurDate
	exdates []recurDate
	lines   []string
}

// recurErr is a refusal of a recurrence, with the reason.
func recurErr(format string, a ...any) error { return errors.New(fmt.Sprintf(format, a...)) }

// ParseRecurrence validates RFC 5545 recurrence lines for a series that
// starts at start (DTSTART) in loc: at most one "RRULE:…" and any number of
// "RDATE[;VALUE=DATE|;TZID=…]:…" and "EXDATE[;VALUE=DATE|;TZID=…]:…".
// A date-time without TZID or Z is a wall-clock time in loc; a DATE is the
// start's time of day on that day. maxOccurrences bounds COUNT and the RDATE
// values. The error says what is wrong in words meant for the caller, like
// "FREQ=HOURLY is not supported" or "UNTIL before start".
//
// Supported: FREQ DAILY, WEEKLY, MONTHLY, YEARLY; INTERVAL, COUNT, UNTIL,
// BYDAY (with ordinals where RFC 5545 allows them), BYMONTHDAY (negative
// too), BYMONTH, BYYEARDAY, BYWEEKNO, BYSETPOS, WKST. Refused: EXRULE,
// sub-daily frequencies, BYHOUR, BYMINUTE, BYSECOND (the time of day is the
// start's), a rule that never yields an instance.
func ParseRecurrence(lines []string, start time.Time, loc *time.Location, maxOccurrences int) (*Recurrence, error) {
	if loc == nil {
		loc = time.UTC
	}
	if len(lines) > MaxRecurrenceLines {
		return nil, recurErr("at most %d lines are allowed", MaxRecurrenceLines)
	}
	r := &Recurrence{start: start.In(loc), loc: loc}
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if len(line) > MaxRecurrenceLineLen {
			return nil, recurErr("line %d is longer than %d bytes", i+1, MaxRecurrenceLineLen)
		}
		if line == "" {
			return nil, recurErr("line %d is empty", i+1)
		}
		if err := r.parseLine(line, maxOccurrences); err != nil {
			return nil, recurErr("line %d: %v", i+1, err)
		}
		r.lines = append(r.lines, line)
	}
	if len(r.rdates) > maxOccurrences {
		return nil, recurErr("at most %d RDATE values are allowed", maxOccurrences)
	}
	if len(r.exdates) > MaxExceptionDates {
		return nil, recurErr("at most %d EXDATE values are allowed", MaxExceptionDates)
	}
	if r.rule != nil {
		if err := r.probe(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Lines returns the recurrence lines as stored.
func (r *Recurrence) Lines() []string { return slices.Clone(r.lines) }

// Bounded reports whether the set is finite: no rule, or a rule with COUNT or UNTIL.
func (r *Recurrence) Bounded() bool {
	return r.rule == nil || r.rule.count > 0 || !r.rule.until.IsZero()
}

func (r *Recurrence) parseLine(line string, maxOcc int) error {
	colon := strings.IndexByte(line, ':')
	if colon < 0 {
		return recurErr("expected NAME:VALUE, like RRULE:FREQ=WEEKLY")
	}
	head, value := line[:colon], line[colon+1:]
	params := strings.Split(head, ";")
	name := strings.ToUpper(params[0])
	switch name {
	case "RRULE":
		if len(params) > 1 {
			return recurErr("RRULE takes no parameters")
		}
		if r.rule != nil {
			return recurErr("at most one RRULE is allowed")
		}
		rule, err := parseRule(value, r.start, r.loc, maxOcc)
		if err != nil {
			return err
		}
		r.rule = rule
		return nil
	case "RDATE", "EXDATE":
		dates, err := parseDateList(name, params[1:], value, r.start, r.loc)
		if err != nil {
			return err
		}
		if name == "RDATE" {
			r.rdates = append(r.rdates, dates...)
		} else {
			r.exdates = append(r.exdates, dates...)
		}
		return nil
	case "EXRULE":
		return recurErr("EXRULE is not supported (RFC 5545 deprecates it; use EXDATE)")
	case "DTSTART", "DTEND":
		return recurErr("%s is not a recurrence line (the event's start_date and end_date are the rule's start and end)", name)
	}
	return recurErr("%s is not a recurrence line (want RRULE, RDATE or EXDATE)", quoteShort(name))
}

func quoteShort(s string) string {
	if len(s) > 32 {
		s = truncateUTF8(s, 32) + "…"
	}
	return strconv.Quote(s)
}

var dayNames = [...]string{"MO", "TU", "WE", "TH", "FR", "SA", "SU"}

var weekdays = map[string]rrule.Weekday{"MO": rrule.MO, "TU": rrule.TU, "WE": rrule.WE, "TH": rrule.TH,
	"FR": rrule.FR, "SA": rrule.SA, "SU": rrule.SU}

func parseRule(value string, start time.Time, loc *time.Location, maxOcc int) (*recurRule, error) {
	rule := &recurRule{}
	seen := map[string]bool{}
	if strings.TrimSpace(value) == "" {
		return nil, recurErr("RRULE is empty")
	}
	for _, p := range strings.Split(value, ";") {
		k, v, ok := strings.Cut(p, "=")
		k = strings.ToUpper(strings.TrimSpace(k))
		v = strings.ToUpper(strings.TrimSpace(v))
		if !ok || k == "" || v == "" {
			return nil, recurErr("RRULE part %s is not NAME=VALUE", quoteShort(p))
		}
		if seen[k] {
			return nil, recurErr("RRULE has %s twice", k)
		}
		seen[k] = true
		rule.parts = append(rule.parts, rulePart{k, v})
	}
	if !seen["FREQ"] {
		return nil, recurErr("RRULE needs FREQ")
	}
	o := &rule.opt
	o.Interval = 1
	for _, p := range rule.parts {
		var err error
		switch p.name {
		case "FREQ":
			switch p.value {
			case "DAILY":
				o.Freq = rrule.DAILY
			case "WEEKLY":
				o.Freq = rrule.WEEKLY
			case "MONTHLY":
				o.Freq = rrule.MONTHLY
			case "YEARLY":
				o.Freq = rrule.YEARLY
			case "HOURLY", "MINUTELY", "SECONDLY":
				return nil, recurErr("FREQ=%s is not supported (events repeat daily, weekly, monthly or yearly)", p.value)
			default:
				return nil, recurErr("FREQ=%s is not a frequency", quoteShort(p.value))
			}
		case "INTERVAL":
			o.Interval, err = ruleInt(p, 1, MaxRecurrenceInterval)
		case "COUNT":
			rule.count, err = ruleInt(p, 1, maxOcc)
			if err != nil {
				err = recurErr("COUNT must be 1 to %d (the most occurrences of a series)", maxOcc)
			}
		case "UNTIL":
			rule.until, err = parseUntil(p.value, loc)
		case "BYDAY":
			o.Byweekday, err = parseByDay(p.value)
		case "BYMONTHDAY":
			o.Bymonthday, err = ruleInts(p, 1, 31, true)
		case "BYYEARDAY":
			o.Byyearday, err = ruleInts(p, 1, 366, true)
		case "BYWEEKNO":
			o.Byweekno, err = ruleInts(p, 1, 53, true)
		case "BYMONTH":
			o.Bymonth, err = ruleInts(p, 1, 12, false)
		case "BYSETPOS":
			o.Bysetpos, err = ruleInts(p, 1, 366, true)
		case "WKST":
			wd, ok := weekdays[p.value]
			if !ok {
				return nil, recurErr("WKST=%s is not a weekday (MO, TU, WE, TH, FR, SA or SU)", quoteShort(p.value))
			}
			o.Wkst = wd
		case "BYHOUR", "BYMINUTE", "BYSECOND":
			return nil, recurErr("%s is not supported (the time of day is the start's)", p.name)
		default:
			return nil, recurErr("%s is not a supported RRULE part", quoteShort(p.name))
		}
		if err != nil {
			return nil, err
		}
	}
	if rule.count > 0 && !rule.until.IsZero() {
		return nil, recurErr("COUNT and UNTIL must not both be given")
	}
	if !rule.until.IsZero() && rule.until.Before(start) {
		return nil, recurErr("UNTIL before start")
	}
	if err := rule.checkCombinations(); err != nil {
		return nil, err
	}
	return rule, nil
}

func ruleInt(p rulePart, lo, hi int) (int, error) {
	n, err := strconv.Atoi(p.value)
	if err != nil || n < lo || n > hi || strings.HasPrefix(p.value, "+") {
		return 0, recurErr("%s must be a whole number from %d to %d", p.name, lo, hi)
	}
	return n, nil
}

// ruleInts parses a comma list of integers whose size is lo..hi, negated too
// when neg is set (0 is never allowed).
func ruleInts(p rulePart, lo, hi int, neg bool) ([]int, error) {
	var out []int
	for _, s := range strings.Split(p.value, ",") {
		n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
		a := n
		if a < 0 && neg {
			a = -a
		}
		if err != nil || a < lo || a > hi || s == "" {
			if neg {
				return nil, recurErr("%s values must be %d to %d or -%d to -%d, not %s", p.name, lo, hi, hi, lo, quoteShort(s))
			}
			return nil, recurErr("%s values must be %d to %d, not %s", p.name, lo, hi, quoteShort(s))
		}
		out = append(out, n)
	}
	return out, nil
}

func parseByDay(v string) ([]rrule.Weekday, error) {
	var out []rrule.Weekday
	for _, s := range strings.Split(v, ",") {
		if len(s) < 2 {
			return nil, recurErr("BYDAY value %s is not a weekday like MO, 2TU or -1FR", quoteShort(s))
		}
		wd, ok := weekdays[s[len(s)-2:]]
		if !ok {
			return nil, recurErr("BYDAY value %s is not a weekday like MO, 2TU or -1FR", quoteShort(s))
		}
		if num := s[:len(s)-2]; num != "" {
			n, err := strconv.Atoi(strings.TrimPrefix(num, "+"))
			if err != nil || n == 0 || n > 53 || n < -53 {
				return nil, recurErr("BYDAY=%s: the ordinal must be 1 to 53 or -1 to -53", s)
			}
			wd = wd.Nth(n)
		}
		out = append(out, wd)
	}
	return out, nil
}

// checkCombinations refuses what RFC 5545 forbids and patterns that can
// never happen, with a reason.
func (rule *recurRule) checkCombinations() error {
	o := &rule.opt
	freq := map[rrule.Frequency]string{rrule.DAILY: "DAILY", rrule.WEEKLY: "WEEKLY", rrule.MONTHLY: "MONTHLY", rrule.YEARLY: "YEARLY"}[o.Freq]
	if len(o.Byweekno) > 0 && o.Freq != rrule.YEARLY {
		return recurErr("BYWEEKNO is only allowed with FREQ=YEARLY")
	}
	if len(o.Byyearday) > 0 && o.Freq != rrule.YEARLY {
		return recurErr("BYYEARDAY is not allowed with FREQ=%s", freq)
	}
	if len(o.Bymonthday) > 0 && o.Freq == rrule.WEEKLY {
		return recurErr("BYMONTHDAY is not allowed with FREQ=WEEKLY")
	}
	maxOrd := 0 // the largest ordinal a BYDAY may have here
	switch {
	case o.Freq == rrule.MONTHLY || (o.Freq == rrule.YEARLY && len(o.Bymonth) > 0):
		maxOrd = 5
	case o.Freq == rrule.YEARLY && len(o.Byweekno) == 0:
		maxOrd = 53
	}
	for _, wd := range o.Byweekday {
		n := wd.N()
		if n == 0 {
			continue
		}
		if maxOrd == 0 {
			if o.Freq == rrule.YEARLY {
				return recurErr("BYDAY=%d%s: an ordinal is not allowed with BYWEEKNO", n, dayNames[wd.Day()])
			}
			return recurErr("BYDAY=%d%s: an ordinal is only allowed with FREQ=MONTHLY or YEARLY", n, dayNames[wd.Day()])
		}
		if n > maxOrd || n < -maxOrd {
			unit := "month"
			if maxOrd == 53 {
				unit = "year"
			}
			return recurErr("BYDAY=%d%s never occurs: a %s has at most %d of a weekday", n, dayNames[wd.Day()], unit, maxOrd)
		}
	}
	if len(o.Bysetpos) > 0 && len(o.Byweekday)+len(o.Bymonthday)+len(o.Byyearday)+len(o.Byweekno)+len(o.Bymonth) == 0 {
		return recurErr("BYSETPOS needs another BY part (BYDAY, BYMONTHDAY, …) to pick from")
	}
	if len(o.Bymonthday) > 0 {
		// A day of month larger than every allowed month is never reached.
		months := o.Bymonth
		if len(months) == 0 {
			months = []int{1}
		}
		longest := 0
		for _, m := range months {
			longest = max(longest, daysIn(time.Month(m)))
		}
		if !slices.ContainsFunc(o.Bymonthday, func(d int) bool { return d <= longest && -d <= longest }) {
			return recurErr("BYMONTHDAY never occurs in the months of the rule")
		}
	}
	return nil
}

// daysIn is the most days month m has (February: 29).
func daysIn(m time.Month) int {
	return time.Date(2000, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// parseUntil reads UNTIL: a UTC date-time (…Z), a floating date-time (a wall
// clock in loc) or a DATE (the whole day in loc counts).
func parseUntil(v string, loc *time.Location) (time.Time, error) {
	d, err := parseICalValue(v, loc, time.Time{})
	if err != nil {
		return time.Time{}, recurErr("UNTIL: %v", err)
	}
	if d.dateOny {
		return dateWall(d.day.y, d.day.m, d.day.d, 23, 59, 59, 0, loc, true), nil
	}
	return d.at, nil
}

// parseICalValue reads one DATE (YYYYMMDD) or DATE-TIME (YYYYMMDDTHHMMSS,
// optional Z) value; a floating date-time is a wall-clock time in loc, and a
// DATE takes the time of day of tod (in loc).
func parseICalValue(v string, loc *time.Location, tod time.Time) (recurDate, error) {
	bad := recurErr("%s is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, optionally with Z)", quoteShort(v))
	num := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil && !strings.ContainsAny(s, "+-")
	}
	if len(v) < 8 {
		return recurDate{}, bad
	}
	y, ok1 := num(v[:4])
	mo, ok2 := num(v[4:6])
	d, ok3 := num(v[6:8])
	if !ok1 || !ok2 || !ok3 || y < 1000 || mo < 1 || mo > 12 || d < 1 || d > time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return recurDate{}, bad
	}
	day := civilDay{y, time.Month(mo), d}
	if len(v) == 8 {
		w := tod.In(loc)
		at := dateWall(y, day.m, d, w.Hour(), w.Minute(), w.Second(), 0, loc, false)
		return recurDate{at: at, dateOny: true, day: day}, nil
	}
	utc := strings.HasSuffix(v, "Z")
	rest := strings.TrimSuffix(v[8:], "Z")
	if len(rest) != 7 || rest[0] != 'T' {
		return recurDate{}, bad
	}
	hh, ok1 := num(rest[1:3])
	mm, ok2 := num(rest[3:5])
	ss, ok3 := num(rest[5:7])
	if !ok1 || !ok2 || !ok3 || hh > 23 || mm > 59 || ss > 59 {
		return recurDate{}, bad
	}
	if utc {
		return recurDate{at: time.Date(y, day.m, d, hh, mm, ss, 0, time.UTC)}, nil
	}
	return recurDate{at: dateWall(y, day.m, d, hh, mm, ss, 0, loc, false)}, nil
}

func parseDateList(name string, params []string, value string, start time.Time, loc *time.Location) ([]recurDate, error) {
	dateOnly, zone := false, loc
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		switch strings.ToUpper(k) {
		case "VALUE":
			switch strings.ToUpper(v) {
			case "DATE":
				dateOnly = true
			case "DATE-TIME":
			default:
				return nil, recurErr("%s;VALUE=%s is not supported (want DATE or DATE-TIME)", name, strings.Trim(quoteShort(strings.ToUpper(v)), `"`))
			}
		case "TZID":
			z, err := ParseZone(strings.Trim(v, `"`))
			if err != nil {
				return nil, recurErr("%s;TZID: %v", name, err)
			}
			zone = z
		default:
			return nil, recurErr("%s parameter %s is not supported (want VALUE or TZID)", name, quoteShort(k))
		}
	}
	if strings.TrimSpace(value) == "" {
		return nil, recurErr("%s has no value", name)
	}
	var out []recurDate
	for _, s := range strings.Split(value, ",") {
		s = strings.ToUpper(strings.TrimSpace(s))
		d, err := parseICalValue(s, zone, start)
		if err != nil {
			return nil, recurErr("%s: %v", name, err)
		}
		if dateOnly != d.dateOny {
			if dateOnly {
				return nil, recurErr("%s;VALUE=DATE: %s is not a date (YYYYMMDD)", name, quoteShort(s))
			}
			return nil, recurErr("%s: %s is a date; say %s;VALUE=DATE", name, quoteShort(s), name)
		}
		if d.dateOny {
			// A DATE is the series' own day in its zone, at its time of day.
			w := start.In(loc)
			d.at = dateWall(d.day.y, d.day.m, d.day.d, w.Hour(), w.Minute(), w.Second(), 0, loc, false)
		}
		out = append(out, d)
	}
	return out, nil
}
