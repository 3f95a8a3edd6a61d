package httpadapter

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// Write arguments become calendar inputs: an Opt is set only for keys that
// were sent, a null or empty value means "clear", and every argument of the
// wrong type is recorded so one error names them all.

type inputReader struct {
	args   map[string]any
	v      *calendar.Validation
	prefix string // "venue." for the fields of a nested venue, for messages
}

func (r *inputReader) bad(name, typ string) {
	r.v.Add(r.prefix+name, r.prefix+name+" is not of type "+typ+".")
}

func (r *inputReader) str(name string, dst *calendar.Opt[string]) {
	raw, ok := r.args[name]
	if !ok {
		return
	}
	switch x := raw.(type) {
	case nil:
		*dst = calendar.Some("")
	case string:
		*dst = calendar.Some(x)
	case []any:
		// A JSON array or a repeated form key: one value is expected
		// (wire §2), and guessing which one could overwrite the wrong text.
		r.v.Add(r.prefix+name, r.prefix+name+" must be a single value, not a list.")
	default:
		// A number or boolean is the wrong JSON type: reported, never
		// silently turned into text.
		r.bad(name, "string")
	}
}

func (r *inputReader) int(name string, dst *calendar.Opt[int64]) {
	raw, ok := r.args[name]
	if !ok {
		return
	}
	switch x := raw.(type) {
	case nil:
		*dst = calendar.Some(int64(0))
		return
	case json.Number:
		if n, err := strconv.ParseInt(x.String(), 10, 64); err == nil && n >= 0 {
			*dst = calendar.Some(n)
			return
		}
	case string:
		if x == "" { // null clears; an empty text is no integer (wire §2)
			r.v.Add(r.prefix+name, r.prefix+name+" must not be empty.")
			return
		}
		if n, ok := parseDigits(x); ok {
			*dst = calendar.Some(n)
			return
		}
		if isDigits(x) {
			r.v.Add(r.prefix+name, r.prefix+name+" "+errIntRange)
			return
		}
	}
	r.bad(name, "integer")
}

func (r *inputReader) bool(name string, dst *calendar.Opt[bool]) {
	raw, ok := r.args[name]
	if !ok {
		return
	}
	switch x := raw.(type) {
	case nil:
		*dst = calendar.Some(false)
		return
	case bool:
		*dst = calendar.Some(x)
		return
	case json.Number:
		if b, ok := parseBool(x.String(), false); ok {
			*dst = calendar.Some(b)
			return
		}
	case string:
		if strings.TrimSpace(x) == "" {
			*dst = calendar.Some(false)
			return
		}
		if b, ok := parseBool(x, false); ok {
			*dst = calendar.Some(b)
			return
		}
	}
	r.bad(name, "boolean")
}

func (r *inputReader) coord(name string, dst *calendar.Opt[*float64]) {
	raw, ok := r.args[name]
	if !ok {
		return
	}
	var s string
	switch x := raw.(type) {
	case nil:
		*dst = calendar.Some[*float64](nil)
		return
	case json.Number:
		s = x.String()
	case string:
		s = strings.TrimSpace(x)
		if s == "" {
			*dst = calendar.Some[*float64](nil)
			return
		}
	default:
		r.bad(name, "number")
		return
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		r.bad(name, "number")
		return
	}
	*dst = calendar.Some(&f)
}

// flag is the value of an optional boolean argument (false when absent),
// for options such as force that are not write fields.
func (r *inputReader) flag(name string) bool {
	var o calendar.Opt[bool]
	r.bool(name, &o)
	return o.Value
}

// text is the value of an optional string argument ("" when absent), for
// options such as the event password.
func (r *inputReader) text(name string) string {
	var o calendar.Opt[string]
	r.str(name, &o)
	return o.Value
}

// image takes a URL or an image id (string or number); false/null clear it.
func (r *inputReader) image(name string, dst *calendar.Opt[string]) {
	if raw, ok := r.args[name]; ok {
		switch x := raw.(type) {
		case bool:
			if !x {
				*dst = calendar.Some("")
				return
			}
		case json.Number:
			*dst = calendar.Some(x.String())
			return
		}
	}
	r.str(name, dst)
}

// list returns the items of an array argument: a JSON array, repeated or
// key[] form keys, or a comma-separated string. ok is false when absent.
func listItems(raw any) []any {
	switch x := raw.(type) {
	case nil:
		return []any{}
	case []any:
		var out []any
		for _, it := range x {
			if s, ok := it.(string); ok {
				out = appendCommaItems(out, s)
				continue
			}
			out = append(out, it)
		}
		return out
	case string:
		return appendCommaItems(nil, x)
	}
	return []any{raw}
}

// appendCommaItems appends the non-blank comma-separated parts of s, so a
// string item and a whole string argument split the same way.
func appendCommaItems(out []any, s string) []any {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// cost takes a string or an array of strings (numbers accepted as text).
func (r *inputReader) cost(name string, dst *calendar.Opt[[]string]) {
	raw, ok := r.args[name]
	if !ok {
		return
	}
	var items []any
	switch x := raw.(type) {
	case nil:
		*dst = calendar.Some([]string{})
		return
	case []any:
		items = x
	default:
		items = []any{x}
	}
	out := []string{}
	for _, it := range items {
		switch s := it.(type) {
		case string:
			if strings.TrimSpace(s) != "" {
				out = append(out, s)
			}
		case json.Number:
			out = append(out, s.String())
		default:
			r.bad(name, "string")
			return
		}
	}
	*dst = calendar.Some(out)
}

// terms takes ids, slugs or names.
func (r *inputReader) terms(name string, dst *calendar.Opt[[]calendar.TermRef]) {
	raw, ok := r.args[name]
	if !ok {
		return
	}
	bad := func() { r.v.Add(name, name+" must hold term ids, slugs or names.") }
	refs := []calendar.TermRef{}
	for _, it := range listItems(raw) {
		switch x := it.(type) {
		case json.Number:
			n, err := strconv.ParseInt(x.String(), 10, 64)
			if err != nil || n <= 0 {
				bad()
				return
			}
			refs = append(refs, calendar.TermRef{ID: n})
		case string:
			if n, ok := parseDigits(x); ok {
				refs = append(refs, calendar.TermRef{ID: n})
			} else {
				refs = append(refs, calendar.TermRef{Name: x})
			}
		case map[string]any: // {"id": n} or {"name": "…"}
			var id calendar.Opt[int64]
			var nm calendar.Opt[string]
			sub := inputReader{args: x, v: r.v, prefix: name + "."}
			sub.int("id", &id)
			sub.str("name", &nm)
			if id.Value == 0 && nm.Value == "" {
				sub.str("slug", &nm)
			}
			if id.Value == 0 && strings.TrimSpace(nm.Value) == "" {
				bad()
				return
			}
			refs = append(refs, calendar.TermRef{ID: id.Value, Name: nm.Value})
		default:
			bad()
			return
		}
	}
	*dst = calendar.Some(refs)
}

// linkItem reads one venue/organizer reference: an id, {"id": n}, or an
// object of fields (nested is set).
func (r *inputReader) linkItem(name string, it any) (id int64, fields map[string]any, ok bool) {
	switch x := it.(type) {
	case json.Number:
		n, err := strconv.ParseInt(x.String(), 10, 64)
		return n, nil, err == nil && n > 0
	case string:
		n, ok := parseDigits(x)
		return n, nil, ok && n > 0
	case map[string]any:
		if raw, has := x["id"]; has && raw != nil {
			return r.linkItem(name, raw)
		}
		return 0, x, true
	}
	return 0, nil, false
}

// readLinks reads a list of venue or organizer links (a lone object counts
// as a list of one). Objects of fields are read with decode into an input to
// create; ref makes the link from an id, or from that input (id 0). what
// names the kind in the message.
func readLinks[R, I any](r *inputReader, name, what string, dst *calendar.Opt[[]R],
	decode func(map[string]any, *calendar.Validation, string, bool) I, ref func(id int64, in *I) R) {
	raw, ok := r.args[name]
	if !ok {
		return
	}
	if m, isObj := raw.(map[string]any); isObj {
		raw = []any{m}
	}
	refs := []R{}
	for _, it := range listItems(raw) {
		id, fields, ok := r.linkItem(name, it)
		if !ok {
			r.v.Add(name, name+" must hold "+what+" ids or "+what+" objects.")
			return
		}
		if fields != nil {
			in := decode(fields, r.v, name+".", false)
			refs = append(refs, ref(0, &in))
			continue
		}
		refs = append(refs, ref(id, nil))
	}
	*dst = calendar.Some(refs)
}

// venues reads the venue links of an event: ids or venue objects to create.
func (r *inputReader) venues(name string, dst *calendar.Opt[[]calendar.VenueRef]) {
	readLinks(r, name, "venue", dst, decodeVenue, func(id int64, in *calendar.VenueInput) calendar.VenueRef {
		return calendar.VenueRef{ID: id, New: in}
	})
}

// organizers reads the organizer links of an event, like venues.
func (r *inputReader) organizers(name string, dst *calendar.Opt[[]calendar.OrganizerRef]) {
	readLinks(r, name, "organizer", dst, decodeOrganizer, func(id int64, in *calendar.OrganizerInput) calendar.OrganizerRef {
		return calendar.OrganizerRef{ID: id, New: in}
	})
}

// decodeEvent reads the event write fields. On by-slug routes the slug names
// the record (path values win), so it is not a write field there; the
// password argument is a write field only where the seed lists it.
func decodeEvent(args map[string]any, v *calendar.Validation, bySlug bool) calendar.EventInput {
	var in calendar.EventInput
	r := inputReader{args: args, v: v}
	r.post("title", bySlug, postInput{&in.Title, &in.Description, &in.Excerpt, &in.Slug,
		&in.Status, &in.Author, &in.Date, &in.DateUTC, &in.Image})
	if !bySlug {
		r.str("password", &in.Password)
	}
	r.str("start_date", &in.StartDate)
	r.str("end_date", &in.EndDate)
	r.str("timezone", &in.TimeZone)
	r.bool("all_day", &in.AllDay)
	r.cost("cost", &in.Cost)
	r.str("website", &in.Website)
	r.bool("show_map", &in.ShowMap)
	r.bool("show_map_link", &in.ShowMapLink)
	r.bool("hide_from_listings", &in.HideFromListings)
	r.bool("sticky", &in.Sticky)
	r.bool("featured", &in.Featured)
	r.terms("categories", &in.Categories)
	r.terms("tags", &in.Tags)
	r.venues("venue", &in.Venues)
	r.organizers("organizer", &in.Organizers)
	r.int("post_parent", &in.PostParent)
	r.recurrence("recurrence", &in.Recurrence)
	r.scope("scope", &in.Scope)
	return in
}

// decodeVenue reads the venue write fields (also of a venue nested in an event).
func decodeVenue(args map[string]any, v *calendar.Validation, prefix string, bySlug bool) calendar.VenueInput {
	var in calendar.VenueInput
	r := inputReader{args: args, v: v, prefix: prefix}
	r.post("venue", bySlug, postInput{&in.Name, &in.Description, &in.Excerpt, &in.Slug,
		&in.Status, &in.Author, &in.Date, &in.DateUTC, &in.Image})
	r.str("address", &in.Address)
	r.str("city", &in.City)
	r.str("country", &in.Country)
	r.str("province", &in.Province)
	r.str("state", &in.State)
	r.str("zip", &in.Zip)
	r.str("phone", &in.Phone)
	r.str("stateprovince", &in.StateProvince)
	r.str("website", &in.Website)
	r.bool("show_map", &in.ShowMap)
	r.bool("show_map_link", &in.ShowMapLink)
	r.coord("geo_lat", &in.GeoLat)
	r.coord("geo_lng", &in.GeoLng)
	return in
}

// decodeOrganizer reads the organizer write fields.
func decodeOrganizer(args map[string]any, v *calendar.Validation, prefix string, bySlug bool) calendar.OrganizerInput {
	var in calendar.OrganizerInput
	r := inputReader{args: args, v: v, prefix: prefix}
	r.post("organizer", bySlug, postInput{&in.Name, &in.Description, &in.Excerpt, &in.Slug,
		&in.Status, &in.Author, &in.Date, &in.DateUTC, &in.Image})
	r.str("phone", &in.Phone)
	r.str("website", &in.Website)
	r.str("email", &in.Email)
	return in
}

// topLevel binds the field-name prefix of a venue or organizer decoder to
// "", for the records' own routes (nested records are read with "venue." etc.).
func topLevel[I any](decode func(map[string]any, *calendar.Validation, string, bool) I) func(map[string]any, *calendar.Validation, bool) I {
	return func(args map[string]any, v *calendar.Validation, bySlug bool) I {
		return decode(args, v, "", bySlug)
	}
}

// decodeTerm reads the category/tag write fields.
func decodeTerm(args map[string]any, v *calendar.Validation) calendar.TermInput {
	var in calendar.TermInput
	r := inputReader{args: args, v: v}
	r.str("name", &in.Name)
	r.str("description", &in.Description)
	r.str("slug", &in.Slug)
	r.int("parent", &in.Parent)
	return in
}
