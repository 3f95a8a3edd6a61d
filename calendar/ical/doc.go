// Package ical reads and writes calendar events as iCalendar (RFC 5545):
// subscribable feeds out of any event query, and .ics files in.
//
// It sits beside package calendar and works only through the
// calendar.Calendar interface, so every feed shows exactly what the caller on
// the context may see in an event list (password-protected content blanked),
// and every import writes with the caller's rights.
//
// Export: an Exporter turns an event query into a Feed. Building the Feed
// pages through the query once to compute its validator (ETag and
// Last-Modified) and the time zones it needs; Feed.Write pages through it a
// second time and streams the calendar, so memory does not grow with the
// number of events. The bytes are deterministic: the same events give the
// same feed, ordered by start then id, CRLF line ends, lines folded at 75
// octets on UTF-8 boundaries, TEXT values escaped, and one VTIMEZONE per zone
// used, generated from Go's zone database with the real transitions over the
// span of the exported events.
//
// Import: Import reads an iCalendar stream and creates or updates one event
// per VEVENT, idempotently by UID, and reports what it did. Time zones may be
// IANA names, Windows names (as Outlook writes them) or custom VTIMEZONE
// blocks matched to a zone by their rules.
//
// Content lines are written by this package (the writers of the iCalendar
// libraries we compared either did not fold or did not quote parameters and
// escape carriage returns correctly) and read with
// github.com/arran4/golang-ical.
package ical
