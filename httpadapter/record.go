package httpadapter

import (
	"net/http"
	"strconv"

	"github.com/eventcal/eventcal/calendar"
)

// The by-id and by-slug routes of every kind (events, venues, organizers,
// categories, tags) name one record in the path and answer with that record
// under its ETag; the two halves they share live here.

// routeRef returns the record named by the path: {id} or {slug}. A zero or
// malformed id, or an empty slug, is answered as an unknown route.
func routeRef(s *reqState) (calendar.Ref, error) {
	if raw, ok := s.args["id"].(string); ok {
		id, ok := parseDigits(raw)
		if !ok && isDigits(raw) {
			// Digits match the route; beyond int64 they are a bad id, by the
			// same rule as every integer argument (wire §2).
			return calendar.Ref{}, invalidArg("id", errIntRange)
		}
		if !ok || id <= 0 {
			return calendar.Ref{}, errNoRoute(s.method, s.path)
		}
		return calendar.ByID(id), nil
	}
	slug, _ := s.args["slug"].(string)
	if slug == "" {
		return calendar.Ref{}, errNoRoute(s.method, s.path)
	}
	return calendar.BySlug(slug), nil
}

// recordHead sets the ETag of a single-record response, and its Location
// when status is 201 Created. A conditional GET or HEAD whose copy is current
// is answered 304 here, and false tells the caller to write no body.
func recordHead(w http.ResponseWriter, r *http.Request, s *reqState, letter byte, plural string, id, version int64, status int) bool {
	tag := etag(letter, id, version)
	w.Header().Set("ETag", tag)
	if status == http.StatusOK && (r.Method == http.MethodGet || r.Method == http.MethodHead) && notModified(r, tag) {
		w.WriteHeader(http.StatusNotModified)
		return false
	}
	if status == http.StatusCreated {
		w.Header().Set("Location", s.links.rest+"/"+plural+"/"+strconv.FormatInt(id, 10))
	}
	return true
}
