package ical

import (
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// A series is written as one VEVENT whose DTSTART/DTEND are the rule's and
// which carries the rule lines after DTEND; a detached occurrence is a
// VEVENT with the series' UID and a RECURRENCE-ID, its original start.
//
// RDATE and EXDATE date-times are written in UTC: a time without TZID means
// the series' zone in the calendar but floating time to a reader, and a
// TZID may name a zone the feed has no VTIMEZONE for. UTC names the same
// instant to every reader, which compares exceptions by instant.

// rule writes the recurrence lines of series ev.
func (e *eventWriter) rule(ev *calendar.Event) {
	for _, line := range ev.Recurrence {
		head, value, ok := strings.Cut(line, ":")
		if !ok {
			continue // the calendar validated the lines; nothing else can be written
		}
		params := strings.Split(head, ";")
		name := strings.ToUpper(params[0])
		switch name {
		case "RRULE":
			e.l.start("RRULE")
			e.l.raw(value)
			e.l.end()
		case "RDATE", "EXDATE":
			e.dates(name, params[1:], value, ev)
		}
	}
}

// dates writes an RDATE or EXDATE line: dates as they are, date-times in UTC.
func (e *eventWriter) dates(name string, params []string, value string, ev *calendar.Event) {
	loc := ev.Start.Location()
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		switch strings.ToUpper(k) {
		case "VALUE":
			if strings.EqualFold(v, "DATE") {
				e.l.start(name)
				e.l.param("VALUE", "DATE")
				e.l.raw(value)
				e.l.end()
				return
			}
		case "TZID":
			z, err := time.LoadLocation(strings.Trim(v, `"`))
			if err != nil {
				return
			}
			loc = z
		}
	}
	var out []string
	for _, item := range strings.Split(value, ",") {
		var t time.Time
		var err error
		if strings.HasSuffix(item, "Z") {
			t, err = time.Parse(utcLayout, item)
		} else {
			t, err = time.ParseInLocation(localLayout, item, loc)
		}
		if err != nil {
			continue
		}
		out = append(out, t.UTC().Format(utcLayout))
	}
	if len(out) == 0 {
		return
	}
	e.l.start(name)
	e.l.raw(strings.Join(out, ","))
	e.l.end()
}

// recurrenceID writes the RECURRENCE-ID of occurrence ev in the form of its
// DTSTART: a date for all-day events, else local time with the TZID when
// the feed's VTIMEZONE covers it, else UTC.
func (e *eventWriter) recurrenceID(ev *calendar.Event) {
	rid := ev.Series.RecurrenceID
	l := e.l
	if ev.AllDay {
		l.start("RECURRENCE-ID")
		l.param("VALUE", "DATE")
		l.raw(rid.In(ev.Start.Location()).Format(dateLayout))
		l.end()
		return
	}
	if z := e.zones[ev.TimeZone]; z != nil && z.covers(rid, rid) && !repeated(rid, z.loc) {
		l.start("RECURRENCE-ID")
		l.param("TZID", ev.TimeZone)
		l.raw(rid.In(z.loc).Format(localLayout))
		l.end()
		return
	}
	l.prop("RECURRENCE-ID", rid.UTC().Format(utcLayout))
}

// seriesUID is the UID of the series of occurrence ev: its global id.
func seriesUID(c *exportConfig, ev *calendar.Event) string {
	return c.uidHost + "?id=" + strconv.FormatInt(ev.Series.ID, 10)
}
