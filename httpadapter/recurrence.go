package httpadapter

import (
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// Recurring events on the wire: the representation members `recurrence`
// and `series`, the write arguments `recurrence` and `scope`, and the list
// argument `series`. The rules themselves are the calendar's: the adapter
// only moves lines and names in and out.

// recurrence reads the rule lines of a series: an array of strings, or one
// string whose lines are separated by newlines (what a form field or a
// pasted iCalendar block gives). Blank lines are dropped; null or an empty
// value clears the rule (the series becomes a single event).
func (r *inputReader) recurrence(name string, dst *calendar.Opt[[]string]) {
	raw, ok := r.args[name]
	if !ok {
		return
	}
	var items []any
	switch x := raw.(type) {
	case nil:
		*dst = calendar.Some([]string{})
		return
	case string:
		items = []any{x}
	case []any:
		items = x
	default:
		r.v.Add(r.prefix+name, r.prefix+name+" must be an array of strings or a string of lines.")
		return
	}
	out := []string{}
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			r.v.Add(r.prefix+name, r.prefix+name+" must be an array of strings or a string of lines.")
			return
		}
		for line := range strings.Lines(s) {
			if line = strings.TrimSpace(line); line != "" {
				out = append(out, line)
			}
		}
	}
	*dst = calendar.Some(out)
}

// scope reads which records an update of an occurrence reaches.
func (r *inputReader) scope(name string, dst *calendar.Scope) {
	raw, ok := r.args[name]
	if !ok || raw == nil {
		return
	}
	if xs, ok := raw.([]any); ok && len(xs) > 0 {
		raw = xs[len(xs)-1] // repeated form keys: the last one wins
	}
	s, ok := raw.(string)
	if !ok {
		s = "?"
	}
	switch sc := calendar.Scope(strings.TrimSpace(s)); sc {
	case "", calendar.ScopeThis, calendar.ScopeFollowing:
		*dst = sc
	default:
		r.v.Add(r.prefix+name, r.prefix+name+` must be "this" or "following".`)
	}
}

// seriesMembers writes `recurrence` and `series` (after `organizer`). The
// recurrence id is written in the site zone, as `date` is: the calendar
// hands Date over in that zone.
func (l *links) seriesMembers(e *enc, ev *calendar.Event) {
	e.key("recurrence")
	e.open('[')
	for _, line := range ev.Recurrence {
		e.str(line)
	}
	e.close(']')
	e.key("series")
	if ev.Series == nil {
		e.null()
		return
	}
	e.open('{')
	e.key("id")
	e.int(ev.Series.ID)
	e.key("rest_url")
	l.restURL(e, "/events", ev.Series.ID)
	e.localAndUTC("recurrence_id", "recurrence_id_utc", ev.Series.RecurrenceID.In(ev.Date.Location()))
	e.key("detached")
	e.bool(ev.Series.Detached)
	e.close('}')
}
