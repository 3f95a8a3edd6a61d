package httpadapter

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// List arguments are read straight from the request's argument map (query
// string, form or JSON body, already merged) by one typed reader per
// argument, the same way write fields are (decode_input.go): no flattening
// to strings and no second decoder. A scalar argument takes its last value
// when repeated; a list argument takes JSON arrays, repeated and key[] keys
// and comma lists alike.

// errIntRange is the message for digits beyond int64.
const errIntRange = "must be an integer of at most 19 digits (within 64 bits)."

// queryReader reads list arguments, recording each bad one in v, so one
// error names them all.
type queryReader struct {
	args map[string]any
	v    *calendar.Validation
}

// Wire type names, for "x is not of type …" messages.
const (
	typString  = "string"
	typInteger = "integer"
	typBoolean = "boolean"
	typNumber  = "number"
)

// scalarText renders a JSON scalar as text; objects and arrays are not scalars.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// texts returns the text values of argument name, typed typ for messages;
// ok is false when it is absent or bad (then recorded). A list argument
// gives every non-blank comma-separated item; a scalar gives its last value.
// Values of types other than string and integer are trimmed (integers take
// no spaces, wire §2). An empty value is bad input for typed arguments and
// for nonEmpty texts (enumerations and exact names), and "not given"
// otherwise.
func (r *queryReader) texts(name, typ string, list, nonEmpty bool) ([]string, bool) {
	raw, ok := r.args[name]
	if !ok || raw == nil {
		return nil, false
	}
	var items []any
	switch x := raw.(type) {
	case []any:
		items = x
	case map[string]any:
		r.v.Add(name, name+" is not of type "+typ+".")
		return nil, false
	default:
		items = []any{x}
	}
	var vals []string
	empty := false
	for _, it := range items {
		s, ok := scalarText(it)
		if !ok {
			r.v.Add(name, name+" is not of type "+typ+".")
			return nil, false
		}
		if list {
			for _, p := range strings.Split(s, ",") {
				if p = strings.TrimSpace(p); p != "" {
					vals = append(vals, p)
				}
			}
			continue
		}
		if typ != typString && typ != typInteger {
			s = strings.TrimSpace(s)
		}
		if s == "" && (typ != typString || nonEmpty) {
			empty = true
			continue
		}
		vals = append(vals, s)
	}
	if len(vals) == 0 {
		if empty {
			r.v.Add(name, name+" must not be empty.")
		}
		return nil, false
	}
	if !list {
		vals = vals[len(vals)-1:]
	}
	return vals, true
}

// text reads a string argument into dst.
func text[T ~string](r *queryReader, name string, dst *T) {
	if vals, ok := r.texts(name, typString, false, false); ok {
		*dst = T(vals[0])
	}
}

// exactText reads a string argument for which empty is bad input.
func (r *queryReader) exactText(name string, dst *string) {
	if vals, ok := r.texts(name, typString, false, true); ok {
		*dst = vals[0]
	}
}

// strs reads a list of texts (ids or slugs, statuses).
func (r *queryReader) strs(name string, dst *[]string) {
	if vals, ok := r.texts(name, typString, true, false); ok {
		*dst = vals
	}
}

// integer parses one integer value of argument name, recording a bad one.
func (r *queryReader) integer(name, s string) (int64, bool) {
	if n, ok := parseDigits(s); ok {
		return n, true
	}
	if isDigits(s) {
		r.v.Add(name, name+" "+errIntRange)
	} else {
		r.v.Add(name, name+" is not of type integer.")
	}
	return 0, false
}

// int64 reads an integer argument into dst.
func (r *queryReader) int64(name string, dst *int64) {
	if vals, ok := r.texts(name, typInteger, false, false); ok {
		if n, ok := r.integer(name, vals[0]); ok {
			*dst = n
		}
	}
}

// int64p reads an optional integer argument (nil when absent).
func (r *queryReader) int64p(name string, dst **int64) {
	if vals, ok := r.texts(name, typInteger, false, false); ok {
		if n, ok := r.integer(name, vals[0]); ok {
			*dst = &n
		}
	}
}

// int64s reads a list of integers (ids).
func (r *queryReader) int64s(name string, dst *[]int64) {
	vals, ok := r.texts(name, typInteger, true, false)
	if !ok {
		return
	}
	out := make([]int64, 0, len(vals))
	for _, s := range vals {
		n, ok := r.integer(name, s)
		if !ok {
			return
		}
		out = append(out, n)
	}
	*dst = out
}

// paging reads page or per_page: a positive integer. A value beyond the
// maximum page size is the calendar's to clamp.
func (r *queryReader) paging(name string, dst *int) {
	vals, ok := r.texts(name, typInteger, false, false)
	if !ok {
		return
	}
	n, ok := r.integer(name, vals[0])
	switch {
	case !ok:
	case n > math.MaxInt:
		r.v.Add(name, name+" "+errIntRange)
	case n < 1:
		r.v.Add(name, name+" must be a positive integer.")
	default:
		*dst = int(n)
	}
}

// boolean parses a boolean argument: true/false/1/0 (any case) and, when
// loose, yes/no/on/off (wire §2).
func (r *queryReader) boolean(name string, loose bool) (bool, bool) {
	vals, ok := r.texts(name, typBoolean, false, false)
	if !ok {
		return false, false
	}
	b, ok := parseBool(vals[0], loose)
	if !ok {
		r.v.Add(name, name+" is not of type boolean.")
	}
	return b, ok
}

// flag reads a boolean argument into dst.
func (r *queryReader) flag(name string, loose bool, dst *bool) {
	if b, ok := r.boolean(name, loose); ok {
		*dst = b
	}
}

// flagp reads an optional boolean argument (nil when absent).
func (r *queryReader) flagp(name string, loose bool, dst **bool) {
	if b, ok := r.boolean(name, loose); ok {
		*dst = &b
	}
}

// number reads an optional finite number.
func (r *queryReader) number(name string, dst **float64) {
	vals, ok := r.texts(name, typNumber, false, false)
	if !ok {
		return
	}
	f, err := strconv.ParseFloat(vals[0], 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		r.v.Add(name, name+" is not of type number.")
		return
	}
	*dst = &f
}

// parseBool accepts true/false/1/0 (any case) and, when loose, yes/no/on/off.
func parseBool(s string, loose bool) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	case "yes", "on":
		return true, loose
	case "no", "off":
		return false, loose
	}
	return false, false
}

// parseDigits accepts decimal digits only (no sign, no spaces), within int64.
func parseDigits(s string) (int64, bool) {
	if !isDigits(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// readEventQuery reads the arguments of an event list (and feed).
func readEventQuery(args map[string]any, v *calendar.Validation) calendar.EventQuery {
	var q calendar.EventQuery
	r := &queryReader{args: args, v: v}
	r.paging("page", &q.Page)
	r.paging("per_page", &q.PerPage)
	text(r, "start_date", &q.StartDate)
	text(r, "end_date", &q.EndDate)
	text(r, "starts_before", &q.StartsBefore)
	text(r, "starts_after", &q.StartsAfter)
	text(r, "ends_before", &q.EndsBefore)
	text(r, "ends_after", &q.EndsAfter)
	r.flag("strict_dates", true, &q.StrictDates)
	text(r, "search", &q.Search)
	r.strs("categories", &q.Categories)
	r.strs("tags", &q.Tags)
	r.int64s("venue", &q.Venue)
	r.int64s("organizer", &q.Organizer)
	r.flagp("featured", false, &q.Featured)
	r.strs("status", &q.Status)
	r.flagp("geoloc", false, &q.Geoloc)
	r.number("geoloc_lat", &q.GeolocLat)
	r.number("geoloc_lng", &q.GeolocLng)
	r.number("geoloc_radius", &q.GeolocRadius)
	r.int64s("include", &q.Include)
	r.int64("post_parent", &q.PostParent)
	r.flagp("ticketed", false, &q.Ticketed)
	text(r, "translation_language", &q.Lang)
	text(r, "series", &q.Series)
	return q
}

// readVenueQuery reads the arguments of a venue list.
func readVenueQuery(args map[string]any, v *calendar.Validation) calendar.VenueQuery {
	var q calendar.VenueQuery
	r := &queryReader{args: args, v: v}
	r.paging("page", &q.Page)
	r.paging("per_page", &q.PerPage)
	text(r, "search", &q.Search)
	r.int64("event", &q.Event)
	r.flagp("has_events", true, &q.HasEvents)
	r.flag("only_with_upcoming", true, &q.OnlyWithUpcoming)
	r.strs("status", &q.Status)
	text(r, "translation_language", &q.Lang)
	return q
}

// readOrganizerQuery reads the arguments of an organizer list: the same as
// a venue list's (the conversion stops compiling if they ever differ).
func readOrganizerQuery(args map[string]any, v *calendar.Validation) calendar.OrganizerQuery {
	return calendar.OrganizerQuery(readVenueQuery(args, v))
}

// readTermQuery reads the arguments of a category or tag list.
func readTermQuery(args map[string]any, v *calendar.Validation) calendar.TermQuery {
	var q calendar.TermQuery
	r := &queryReader{args: args, v: v}
	r.paging("page", &q.Page)
	r.paging("per_page", &q.PerPage)
	text(r, "search", &q.Search)
	r.strs("exclude", &q.Exclude)
	r.strs("include", &q.Include)
	r.exactText("order", &q.Order)
	r.exactText("orderby", &q.OrderBy)
	r.flagp("hide_empty", false, &q.HideEmpty)
	r.int64p("parent", &q.Parent)
	r.int64("post", &q.Post)
	r.int64("event", &q.Event)
	r.exactText("slug", &q.Slug)
	text(r, "translation_language", &q.Lang)
	return q
}
