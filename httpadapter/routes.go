package httpadapter

import (
	"context"
	"net/http"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// Arg describes one argument of a route, as the namespace index and the
// OpenAPI document show it.
type Arg struct {
	Name        string
	Type        string // integer, number, boolean, string, array, object or "" (untyped)
	Items       string // item type of an array
	Required    bool
	Description string
	Default     any
	Enum        []string
}

// Route is one entry of the route table: the router, the namespace index and
// the OpenAPI document are all generated from the same slice.
type Route struct {
	Methods []string
	Path    string // relative to the namespace, ServeMux syntax: "/events/{id}"
	Summary string
	Args    []Arg

	need     calendar.Role // least role that may ever call it; "" for reads
	pathArgs []string
	serve    serveFunc
	media    string // media type answered (and read, on POST) when not JSON
	rawBody  bool   // the route reads the request body itself
	docOnly  bool   // served by another route's handler (a ".ics" suffix); documented only
}

type serveFunc func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error

// Routes returns the route table the handler serves.
func (h *Handler) Routes() []Route {
	out := make([]Route, len(h.routes))
	for i, r := range h.routes {
		out[i] = *r
	}
	return out
}

var (
	get     = []string{http.MethodGet}
	post    = []string{http.MethodPost}
	del     = []string{http.MethodDelete}
	updates = []string{http.MethodPost, http.MethodPut, http.MethodPatch}
)

var langArg = Arg{Name: "translation_language", Type: "string", Description: "Language of the content read or written.",
	Enum: []string{"ar", "nl", "en", "fr", "de", "pl", "pt-br", "ro", "ru", "es"}}

// withLang returns a new slice: args followed by translation_language.
func withLang(args ...Arg) []Arg {
	return append(append(make([]Arg, 0, len(args)+1), args...), langArg)
}

var (
	idArg       = Arg{Name: "id", Type: "integer", Required: true, Description: "Unique id of the record."}
	slugArg     = Arg{Name: "slug", Type: "string", Required: true, Description: "Slug of the record."}
	passwordArg = Arg{Name: "password", Type: "string", Description: "The password of a password-protected event."}
	forceArg    = Arg{Name: "force", Type: "boolean", Default: false, Description: "Remove the record for good instead of moving it to the trash (administrators and editors)."}
	pageArgs    = []Arg{
		{Name: "page", Type: "integer", Default: 1, Description: "Page of the result set to return."},
		{Name: "per_page", Type: "integer", Default: 9, Description: "Number of records per page (at most the configured maximum, 50 by default)."},
	}
	statusArg = Arg{Name: "status", Type: "array", Items: "string", Description: "Post statuses to list.",
		Enum: []string{"publish", "future", "draft", "pending", "private", "trash"}}
	dateArgs = []Arg{
		{Name: "author", Type: "integer", Description: "Author (user id)."},
		{Name: "date", Type: "string", Description: "Publication date."},
		{Name: "date_utc", Type: "string", Description: "Publication date in UTC; wins over date."},
	}
	statusWrite = Arg{Name: "status", Type: "string", Description: "Post status.",
		Enum: []string{"publish", "future", "draft", "pending", "private", "trash"}}
	imageArg = Arg{Name: "image", Type: "string", Description: "Featured image: an absolute http(s) URL or an image id."}
)

func eventListArgs() []Arg {
	a := append([]Arg{}, pageArgs...)
	a = append(a,
		Arg{Name: "start_date", Type: "string", Description: "Events that start on or after this date."},
		Arg{Name: "end_date", Type: "string", Description: "Events that end on or before this date."},
		Arg{Name: "starts_before", Type: "string", Description: "Events that start before this date."},
		Arg{Name: "starts_after", Type: "string", Description: "Events that start after this date."},
		Arg{Name: "ends_before", Type: "string", Description: "Events that end before this date."},
		Arg{Name: "ends_after", Type: "string", Description: "Events that end after this date."},
		Arg{Name: "strict_dates", Type: "boolean", Default: false, Description: "Use date arguments at the exact times given instead of whole days."},
		Arg{Name: "search", Type: "string", Description: "Events whose title, description or excerpt contain every word."},
		Arg{Name: "categories", Type: "array", Items: "string", Description: "Category ids or slugs (any of)."},
		Arg{Name: "tags", Type: "array", Items: "string", Description: "Tag ids or slugs (any of)."},
		Arg{Name: "venue", Type: "array", Items: "integer", Description: "Venue ids (any of)."},
		Arg{Name: "organizer", Type: "array", Items: "integer", Description: "Organizer ids (any of)."},
		Arg{Name: "featured", Type: "boolean", Description: "Only featured (true) or not featured (false) events."},
		statusArg,
		Arg{Name: "geoloc", Type: "boolean", Description: "Only events whose venue has (true) or lacks (false) coordinates."},
		Arg{Name: "geoloc_lat", Type: "number", Description: "Latitude of the centre of a radius search; needs geoloc_lng."},
		Arg{Name: "geoloc_lng", Type: "number", Description: "Longitude of the centre of a radius search; needs geoloc_lat."},
		Arg{Name: "geoloc_radius", Type: "number", Default: 25, Description: "Radius of the search in km."},
		Arg{Name: "include", Type: "array", Items: "integer", Description: "Only these event ids; date filters are ignored."},
		Arg{Name: "post_parent", Type: "integer", Description: "Children of this event."},
		Arg{Name: "ticketed", Type: "boolean", Description: "false matches every event; true is refused (no ticketing)."},
		Arg{Name: "series", Type: "string", Default: "occurrences", Enum: []string{"occurrences", "series"},
			Description: "occurrences: the occurrences of recurring events and single events; series: the series records (with their rule) instead of the occurrences they make, for clients that expand rules themselves."},
	)
	return withLang(a...)
}

func linkedListArgs(kind string) []Arg {
	a := append([]Arg{}, pageArgs...)
	a = append(a,
		Arg{Name: "search", Type: "string", Description: "Only " + kind + "s where every word appears in one field."},
		Arg{Name: "event", Type: "integer", Description: "Only " + kind + "s linked to this event."},
		Arg{Name: "has_events", Type: "boolean", Description: "Only " + kind + "s linked (true) or not linked (false) to events."},
		Arg{Name: "only_with_upcoming", Type: "boolean", Default: false, Description: "Only " + kind + "s linked to an event that has not ended."},
		statusArg,
	)
	return withLang(a...)
}

func termListArgs(hier bool) []Arg {
	a := append([]Arg{}, pageArgs...)
	a = append(a,
		Arg{Name: "search", Type: "string", Description: "Terms whose name or slug contains the string."},
		Arg{Name: "exclude", Type: "array", Items: "string", Description: "Term ids or slugs to leave out."},
		Arg{Name: "include", Type: "array", Items: "string", Description: "Only these term ids or slugs."},
		Arg{Name: "order", Type: "string", Default: "asc", Enum: []string{"asc", "desc"}, Description: "Sort direction."},
		Arg{Name: "orderby", Type: "string", Default: "name", Enum: []string{"id", "include", "name", "slug", "count", "parent", "description", "none"}, Description: "Term attribute to sort by."},
		Arg{Name: "hide_empty", Type: "boolean", Default: true, Description: "Hide terms used by no published event."},
	)
	if hier {
		a = append(a, Arg{Name: "parent", Type: "integer", Description: "Only children of this category (0: top level)."})
	}
	a = append(a,
		Arg{Name: "post", Type: "integer", Description: "Only terms of this event."},
		Arg{Name: "event", Type: "integer", Description: "Alias of post; wins over it."},
		Arg{Name: "slug", Type: "string", Description: "Only the term with this slug."},
	)
	return withLang(a...)
}

func eventWriteArgs(create, bySlug bool) []Arg {
	var a []Arg
	if !bySlug {
		a = append(a, Arg{Name: "slug", Type: "string", Description: "Event slug."})
	}
	a = append(a,
		Arg{Name: "title", Type: "string", Required: create, Description: "Event title."},
		Arg{Name: "start_date", Type: "string", Required: create, Description: "Start date and time."},
		Arg{Name: "end_date", Type: "string", Required: create, Description: "End date and time."},
		Arg{Name: "description", Type: "string", Description: "Description."},
		Arg{Name: "excerpt", Type: "string", Description: "Excerpt."},
		statusWrite,
		Arg{Name: "timezone", Type: "string", Description: "Time zone of the event: an IANA name or UTC±H[:MM]."},
		Arg{Name: "all_day", Type: "boolean", Default: false, Description: "Whether the event lasts all day."},
		imageArg,
		Arg{Name: "cost", Type: "", Description: "Cost: a string or an array of strings."},
		Arg{Name: "website", Type: "string", Description: "Website URL of the event."},
		Arg{Name: "show_map", Type: "boolean", Description: "Whether the event shows a map."},
		Arg{Name: "show_map_link", Type: "boolean", Description: "Whether the event shows a map link."},
		Arg{Name: "hide_from_listings", Type: "boolean", Description: "Whether the event is left out of lists."},
		Arg{Name: "sticky", Type: "boolean", Description: "Whether the event is pinned."},
		Arg{Name: "featured", Type: "boolean", Description: "Whether the event is featured."},
		Arg{Name: "categories", Type: "array", Items: "string", Description: "Category ids, slugs or names (unknown names are created)."},
		Arg{Name: "tags", Type: "array", Items: "string", Description: "Tag ids, slugs or names (unknown names are created)."},
		Arg{Name: "venue", Type: "array", Items: "", Description: "Venue ids, {\"id\": n} objects or venue objects to create."},
		Arg{Name: "organizer", Type: "array", Items: "", Description: "Organizer ids, {\"id\": n} objects or organizer objects to create."},
		Arg{Name: "post_parent", Type: "integer", Description: "Id of the parent event."},
		Arg{Name: "recurrence", Type: "", Description: "RFC 5545 lines making the event a series: at most one RRULE (FREQ DAILY to YEARLY), any RDATE and EXDATE; an array of strings or one string of lines. An empty value makes a series a single event again."},
	)
	if !create {
		a = append(a, Arg{Name: "scope", Type: "string", Default: "this", Enum: []string{"this", "following"},
			Description: "On an occurrence of a series: this detaches and changes it alone; following splits the series there and changes the new series."})
	}
	a = append(a, dateArgs...)
	if !bySlug {
		a = append(a, passwordArg)
	}
	return a
}

// linkedWriteHead returns the write arguments venues and organizers start
// with: slug (not on by-slug routes), the name under the kind's own key
// (required on create), description, excerpt, status and image.
func linkedWriteHead(kind, label string, create, bySlug bool) []Arg {
	var a []Arg
	if !bySlug {
		a = append(a, Arg{Name: "slug", Type: "string", Description: label + " slug."})
	}
	return append(a, Arg{Name: kind, Type: "string", Required: create, Description: label + " name."},
		Arg{Name: "description", Type: "string", Description: "Description."},
		Arg{Name: "excerpt", Type: "string", Description: "Excerpt."},
		statusWrite, imageArg)
}

func venueWriteArgs(create, bySlug bool) []Arg {
	a := linkedWriteHead("venue", "Venue", create, bySlug)
	for _, f := range []string{"address", "city", "country", "province", "state", "zip", "phone", "stateprovince", "website"} {
		a = append(a, Arg{Name: f, Type: "string", Description: "Venue " + f + "."})
	}
	a = append(a,
		Arg{Name: "show_map", Type: "boolean", Description: "Whether the venue shows a map."},
		Arg{Name: "show_map_link", Type: "boolean", Description: "Whether the venue shows a map link."},
		Arg{Name: "geo_lat", Type: "number", Description: "Latitude, with geo_lng."},
		Arg{Name: "geo_lng", Type: "number", Description: "Longitude, with geo_lat."},
	)
	return append(a, dateArgs...)
}

func organizerWriteArgs(create, bySlug bool) []Arg {
	a := linkedWriteHead("organizer", "Organizer", create, bySlug)
	a = append(a,
		Arg{Name: "phone", Type: "string", Description: "Phone number."},
		Arg{Name: "website", Type: "string", Description: "Website URL."},
		Arg{Name: "email", Type: "string", Description: "Email address."},
	)
	return append(a, dateArgs...)
}

func termWriteArgs(create, hier bool) []Arg {
	a := []Arg{
		{Name: "name", Type: "string", Required: create, Description: "Term name."},
		{Name: "description", Type: "string", Description: "Term description."},
		{Name: "slug", Type: "string", Description: "Term slug."},
	}
	if hier {
		a = append(a, Arg{Name: "parent", Type: "integer", Description: "Id of the parent category (0: top level)."})
	}
	return a
}

// postRoutes builds the ten routes of one post kind.
func postRoutes[V, I, Q any](h *Handler, k *postKind[V, I, Q], list []Arg, write func(create, bySlug bool) []Arg) []*Route {
	c := "/" + k.plural
	one := strings.TrimSuffix(k.plural, "s")
	idRead, slugRead := []Arg{idArg}, []Arg{slugArg}
	if k.pwd {
		idRead = append(idRead, passwordArg)
		slugRead = append(slugRead, passwordArg)
	}
	return []*Route{
		{Methods: get, Path: c, Summary: "List " + k.plural, Args: list, serve: k.listH(h)},
		{Methods: post, Path: c, Summary: "Create " + article(one), Args: withLang(write(true, false)...), need: calendar.RoleContributor, serve: k.createH(h)},
		{Methods: get, Path: c + "/{id}", Summary: "Read " + article(one), Args: withLang(idRead...), serve: k.getH(h)},
		{Methods: updates, Path: c + "/{id}", Summary: "Update " + article(one), Args: withLang(append([]Arg{idArg}, write(false, false)...)...), need: calendar.RoleContributor, serve: k.updateH(h)},
		{Methods: del, Path: c + "/{id}", Summary: "Delete " + article(one), Args: withLang(append(append([]Arg{}, idRead...), forceArg)...), need: calendar.RoleContributor, serve: k.deleteH(h)},
		{Methods: get, Path: c + "/by-slug/{slug}", Summary: "Read " + article(one) + " by slug", Args: withLang(slugRead...), serve: k.getH(h)},
		{Methods: updates, Path: c + "/by-slug/{slug}", Summary: "Update " + article(one) + " found by slug", Args: withLang(append([]Arg{slugArg}, write(false, true)...)...), need: calendar.RoleContributor, serve: k.updateH(h)},
		{Methods: del, Path: c + "/by-slug/{slug}", Summary: "Delete " + article(one) + " by slug", Args: withLang(append(append([]Arg{}, slugRead...), forceArg)...), need: calendar.RoleContributor, serve: k.deleteH(h)},
	}
}

func termRoutes(h *Handler, k *termKind, need calendar.Role) []*Route {
	c := "/" + k.plural
	hier := k.tax.Hierarchical()
	one := "a category"
	if !hier {
		one = "a tag"
	}
	rec := k.records()
	return []*Route{
		{Methods: get, Path: c, Summary: "List " + k.plural, Args: termListArgs(hier), serve: k.listH(h)},
		{Methods: post, Path: c, Summary: "Create " + one, Args: withLang(termWriteArgs(true, hier)...), need: need, serve: rec.createH(h)},
		{Methods: get, Path: c + "/{id}", Summary: "Read " + one, Args: withLang(idArg), serve: rec.getH(h)},
		{Methods: updates, Path: c + "/{id}", Summary: "Update " + one, Args: withLang(append([]Arg{idArg}, termWriteArgs(false, hier)...)...), need: need, serve: rec.updateH(h)},
		{Methods: del, Path: c + "/{id}", Summary: "Delete " + one, Args: withLang(idArg), need: need, serve: rec.deleteH(h)},
	}
}

func article(noun string) string {
	if strings.IndexByte("aeiou", noun[0]) >= 0 {
		return "an " + noun
	}
	return "a " + noun
}

// routeTable is every route of the seed's route list (wire §1).
func (h *Handler) routeTable() []*Route {
	rs := []*Route{
		{Methods: get, Path: "", Summary: "Namespace index", Args: []Arg{
			{Name: "namespace", Type: "string", Description: "The namespace.", Default: Namespace},
			{Name: "context", Type: "string", Description: "Scope of the request.", Default: "view"},
		}, serve: h.indexH},
		{Methods: get, Path: "/doc", Summary: "OpenAPI 3.0 description of the namespace", serve: h.docH},
	}
	rs = append(rs, postRoutes(h, h.events, eventListArgs(), eventWriteArgs)...)
	rs = append(rs, postRoutes(h, h.venues, linkedListArgs("venue"), venueWriteArgs)...)
	rs = append(rs, postRoutes(h, h.organizers, linkedListArgs("organizer"), organizerWriteArgs)...)
	rs = append(rs, termRoutes(h, categoryKind, calendar.RoleAuthor)...)
	rs = append(rs, termRoutes(h, tagKind, calendar.RoleEditor)...)
	rs = append(rs, h.icalRoutes(rs)...)
	rs = append(rs, h.changesRoute())
	rs = append(rs, h.webhookRoutes()...)
	for _, r := range rs {
		for _, seg := range strings.Split(r.Path, "/") {
			if i, j := strings.IndexByte(seg, '{'), strings.IndexByte(seg, '}'); i >= 0 && j > i {
				r.pathArgs = append(r.pathArgs, seg[i+1:j])
			}
		}
	}
	return rs
}
