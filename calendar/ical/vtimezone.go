package ical

import (
	"strconv"
	"time"
)

// The VTIMEZONE of a zone is generated from Go's zone database: one
// STANDARD or DAYLIGHT observance per period in force during the span of the
// exported events, each with the instant it began written as local time of
// the offset before it (RFC 5545 §3.6.5). Listing the real transitions,
// instead of a yearly rule, keeps past rule changes exact (a zone that moved
// its DST dates, or stopped observing DST, is right on both sides of the
// change) and is understood by every reader.

// zoneSpan is one zone used by a feed and the instants it must cover.
type zoneSpan struct {
	loc      *time.Location
	from, to time.Time
}

func (z *zoneSpan) add(start, end time.Time) {
	if z.from.IsZero() || start.Before(z.from) {
		z.from = start
	}
	if end.After(z.to) {
		z.to = end
	}
}

// covers reports whether [start, end] lies in the span the VTIMEZONE was
// written for.
func (z *zoneSpan) covers(start, end time.Time) bool {
	return !start.Before(z.from) && !end.After(z.to)
}

// writeVTimezone writes the VTIMEZONE of z.loc named tzid.
func writeVTimezone(l *lineWriter, tzid string, z *zoneSpan) {
	l.prop("BEGIN", "VTIMEZONE")
	l.start("TZID")
	l.text(tzid)
	l.end()
	t := z.from
	for {
		start, end := t.In(z.loc).ZoneBounds()
		writeObservance(l, z.loc, t, start)
		if end.IsZero() || end.After(z.to) {
			break
		}
		t = end
	}
	l.prop("END", "VTIMEZONE")
}

// writeObservance writes the period of loc in force at t, which began at
// start (zero: it has been in force since the beginning of the database).
func writeObservance(l *lineWriter, loc *time.Location, t, start time.Time) {
	at := t.In(loc)
	name, offset := at.Zone()
	before := offset
	var onset string
	if start.IsZero() {
		// In force since forever: any onset not after t will do; the day
		// before t's date keeps the output a function of the data alone.
		y, m, d := at.Date()
		onset = time.Date(y, m, d-1, 0, 0, 0, 0, time.UTC).Format(localLayout)
	} else {
		_, before = start.Add(-time.Second).In(loc).Zone()
		onset = start.UTC().Add(time.Duration(before) * time.Second).Format(localLayout)
	}
	kind := "STANDARD"
	if at.IsDST() {
		kind = "DAYLIGHT"
	}
	l.prop("BEGIN", kind)
	l.prop("DTSTART", onset)
	l.prop("TZOFFSETFROM", utcOffset(before))
	l.prop("TZOFFSETTO", utcOffset(offset))
	if name != "" {
		l.start("TZNAME")
		l.text(name)
		l.end()
	}
	l.prop("END", kind)
}

// utcOffset formats seconds east of UTC as RFC 5545 UTC-OFFSET: +HHMM, or
// +HHMMSS when the offset has seconds (local mean times do).
func utcOffset(sec int) string {
	sign := byte('+')
	if sec < 0 {
		sign, sec = '-', -sec
	}
	b := []byte{sign}
	b = appendTwo(b, sec/3600)
	b = appendTwo(b, sec/60%60)
	if s := sec % 60; s != 0 {
		b = appendTwo(b, s)
	}
	return string(b)
}

func appendTwo(b []byte, n int) []byte {
	if n < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(n), 10)
}

// Layouts of DATE-TIME (local and UTC) and DATE values.
const (
	localLayout = "20060102T150405"
	utcLayout   = "20060102T150405Z"
	dateLayout  = "20060102"
)
