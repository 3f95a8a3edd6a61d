package calendar

import "time"

// Write fields and list bounds take dates as strings because that is what
// the REST interface receives (relative forms like "tomorrow 4pm" included).
// Go callers holding a time.Time use these two instead of formatting it.

// FormatDate returns t as a string ParseDate reads back as the same instant:
// RFC 3339 with t's offset and, when t has them, fractional seconds. Use it
// for the date bounds of list queries (EventQuery.StartDate, …); with
// StrictDates the bounds are these instants, without it some are moved to
// the end of their day as the REST interface does.
func FormatDate(t time.Time) string { return t.Format(time.RFC3339Nano) }

// At returns t as a set write field (EventInput.StartDate, EndDate, Date,
// DateUTC). The instant is kept; an event's start and end are shown on the
// wall clock of the event's zone, whatever zone t is in.
func At(t time.Time) Opt[string] { return Some(FormatDate(t)) }
