package tectest

import (
	"cmp"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Namespace is the original plugin's REST namespace.
const Namespace = "tribe/events/v1"

// ServeHTTP serves the site: the home page (with the API discovery Link
// header), /wp-json/… and /?rest_route=/….
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	if s.faults.hit(w, r, s) {
		return
	}
	s.serve(w, r)
}

func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	site := "http://" + r.Host
	route, pretty := "", false
	switch {
	case r.URL.Query().Has("rest_route") && r.URL.Path == "/":
		route = r.URL.Query().Get("rest_route")
	case !s.PlainPermalinks && (r.URL.Path == "/wp-json" || strings.HasPrefix(r.URL.Path, "/wp-json/")):
		route, pretty = strings.TrimPrefix(r.URL.Path, "/wp-json"), true
	case r.URL.Path == "/":
		api := site + "/wp-json/"
		if s.PlainPermalinks {
			api = site + "/?rest_route=/"
		}
		w.Header().Set("Link", "<"+api+`>; rel="https://api.w.org/"`)
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		fmt.Fprint(w, "<!doctype html><title>Test Site</title><p>Events</p>")
		return
	default:
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
		return
	}
	v := &view{site: site, host: r.Host, zone: s.Zone, now: s.now()}
	v.restURL = func(rt string) string {
		if pretty {
			return site + "/wp-json/" + Namespace + rt
		}
		return site + "/?rest_route=/" + Namespace + rt
	}
	if user, pass, ok := r.BasicAuth(); ok {
		want, known := s.Users[user]
		if !known {
			writeError(w, http.StatusUnauthorized, "invalid_username", "Unknown username. Check again or try your email address.", nil)
			return
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(pass)) != 1 {
			writeError(w, http.StatusUnauthorized, "incorrect_password", "The provided password is an invalid application password.", nil)
			return
		}
		v.admin = true
	}
	route = strings.TrimSuffix(route, "/")
	if route == "" {
		s.rootIndex(w, v)
		return
	}
	rest, ok := strings.CutPrefix(route, "/"+Namespace)
	if !ok {
		writeError(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
		return
	}
	if rest == "" {
		writeJSON(w, http.StatusOK, NewObject().Set("namespace", Namespace).Set("routes", NewObject()))
		return
	}
	coll, idText, single := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
	q := r.URL.Query()
	q.Del("rest_route")
	s.mu.Lock()
	defer s.mu.Unlock()
	if single {
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil || id <= 0 {
			writeError(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
			return
		}
		s.single(w, v, coll, id)
		return
	}
	switch coll {
	case "events", "venues", "organizers":
		s.postList(w, v, coll, q)
	case "categories", "tags":
		s.termList(w, v, coll, q)
	default:
		writeError(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
	}
}

func (s *Site) rootIndex(w http.ResponseWriter, v *view) {
	_, off := v.now.In(s.Zone).Zone()
	writeJSON(w, http.StatusOK, NewObject().Set("name", "Test Site").Set("description", "").
		Set("url", v.site).Set("home", v.site).Set("gmt_offset", float64(off)/3600).
		Set("timezone_string", s.Zone.String()).
		Set("namespaces", []string{"oembed/1.0", Namespace, "wp/v2"}).
		Set("authentication", NewObject().Set("application-passwords", NewObject())).
		Set("routes", NewObject()))
}

func (s *Site) single(w http.ResponseWriter, v *view, coll string, id int64) {
	notAccessible := func(kind string, p *Post) bool {
		if v.canRead(p) {
			return false
		}
		if kind == "event" && p.Status == "trash" {
			writeError(w, http.StatusForbidden, "event-no-longer-available", "The requested event is no longer available.", nil)
		} else {
			writeError(w, http.StatusForbidden, kind+"-not-accessible", "The requested "+kind+" is not accessible.", nil)
		}
		return true
	}
	invalid := func(arg, msg string) {
		writeError(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): "+arg,
			NewObject().Set("params", NewObject().Set(arg, msg)))
	}
	switch coll {
	case "events":
		e, ok := s.events[id]
		if !ok {
			if s.venues[id] != nil || s.organizers[id] != nil {
				writeError(w, http.StatusBadRequest, "rest-invalid-event-id", fmt.Sprintf("%d is not a valid event id.", id), nil)
			} else {
				writeError(w, http.StatusNotFound, "rest-event-not-found", fmt.Sprintf("Event %d not found.", id), nil)
			}
			return
		}
		if !notAccessible("event", &e.Post) {
			writeJSON(w, http.StatusOK, s.patchedPost(id, s.event(v, e, true)))
		}
	case "venues":
		vn, ok := s.venues[id]
		if !ok {
			invalid("id", fmt.Sprintf("%d is not a valid venue id", id))
			return
		}
		if !notAccessible("venue", &vn.Post) {
			writeJSON(w, http.StatusOK, s.patchedPost(id, s.venue(v, vn, true)))
		}
	case "organizers":
		og, ok := s.organizers[id]
		if !ok {
			invalid("id", fmt.Sprintf("%d is not a valid organizer id", id))
			return
		}
		if !notAccessible("organizer", &og.Post) {
			writeJSON(w, http.StatusOK, s.patchedPost(id, s.organizer(v, og, true)))
		}
	case "categories", "tags":
		t, ok := s.terms[id]
		if !ok || collection(t.Taxonomy) != "/"+coll {
			invalid("id", fmt.Sprintf("%d is not a valid term id", id))
			return
		}
		writeJSON(w, http.StatusOK, s.term(v, t))
	default:
		writeError(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
	}
}

// paging reads page and per_page; ok is false when an error was written.
func (s *Site) paging(w http.ResponseWriter, q url.Values) (page, perPage int, ok bool) {
	page, perPage = 1, 9
	for _, a := range []struct {
		name string
		dst  *int
	}{{"page", &page}, {"per_page", &perPage}} {
		if !q.Has(a.name) {
			continue
		}
		n, err := strconv.Atoi(q.Get(a.name))
		if err != nil || n <= 0 {
			writeError(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): "+a.name,
				NewObject().Set("params", NewObject().Set(a.name, a.name+" is not of type integer.")))
			return 0, 0, false
		}
		*a.dst = n
	}
	limit := cmp.Or(s.MaxPerPage, 50)
	if perPage > limit {
		if s.RejectLargePerPage {
			writeError(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): per_page",
				NewObject().Set("params", NewObject().Set("per_page", fmt.Sprintf("per_page must be between 1 (inclusive) and %d (inclusive).", limit))))
			return 0, 0, false
		}
		perPage = limit
	}
	return page, perPage, true
}

// statuses decides which statuses a list shows; ok is false when an error was written.
func statuses(w http.ResponseWriter, v *view, q url.Values) ([]string, bool) {
	asked := q.Get("status")
	if asked == "" {
		if v.admin {
			return []string{"publish", "future", "draft", "pending", "private"}, true
		}
		return []string{"publish"}, true
	}
	var out []string
	for _, st := range strings.Split(asked, ",") {
		st = strings.TrimSpace(st)
		switch st {
		case "publish":
		case "future", "draft", "pending", "private", "trash":
			if !v.admin {
				writeError(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): status",
					NewObject().Set("params", NewObject().Set("status", "you may not list posts with status "+strconv.Quote(st))))
				return nil, false
			}
		default:
			writeError(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): status",
				NewObject().Set("params", NewObject().Set("status", strconv.Quote(st)+" is not a status")))
			return nil, false
		}
		out = append(out, st)
	}
	return out, true
}

// listDate parses a list date argument in the site zone: a day (start or
// end of it) or a date-time.
func listDate(s string, loc *time.Location, endOfDay bool) (time.Time, error) {
	if t, err := time.ParseInLocation(wpTime, s, loc); err == nil {
		return t, nil
	}
	t, err := time.ParseInLocation("2006-01-02", s, loc)
	if err != nil {
		return time.Time{}, err
	}
	if endOfDay {
		t = t.AddDate(0, 0, 1).Add(-time.Second)
	}
	return t, nil
}

func (s *Site) postList(w http.ResponseWriter, v *view, coll string, q url.Values) {
	page, perPage, ok := s.paging(w, q)
	if !ok {
		return
	}
	sts, ok := statuses(w, v, q)
	if !ok {
		return
	}
	type item struct {
		p   *Post
		key time.Time
		obj func() *Object
	}
	var items []item
	visible := func(p *Post) bool { return slices.Contains(sts, effectiveStatus(p, v.now)) }
	switch coll {
	case "events":
		from, to := time.Time{}, time.Time{}
		window := !q.Has("start_date") && !q.Has("end_date")
		if window {
			y, m, d := v.now.In(s.Zone).Date()
			from = time.Date(y, m, d, 0, 0, 0, 0, s.Zone)
			to = v.now.AddDate(0, 24, 0)
		}
		for _, a := range []struct {
			name string
			dst  *time.Time
			end  bool
		}{{"start_date", &from, false}, {"end_date", &to, true}} {
			if !q.Has(a.name) {
				continue
			}
			t, err := listDate(q.Get(a.name), s.Zone, a.end)
			if err != nil {
				writeError(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): "+a.name,
					NewObject().Set("params", NewObject().Set(a.name, "not a date")))
				return
			}
			*a.dst = t
		}
		for _, e := range s.events {
			if e.HideFromListings || !visible(&e.Post) {
				continue
			}
			if window && (e.End.Before(from) || !e.Start.Before(to)) ||
				!window && (!from.IsZero() && e.Start.Before(from) || !to.IsZero() && e.End.After(to)) {
				continue
			}
			items = append(items, item{&e.Post, e.Start, func() *Object { return s.patchedPost(e.ID, s.event(v, e, false)) }})
		}
		slices.SortFunc(items, func(a, b item) int { return cmp.Or(a.key.Compare(b.key), cmp.Compare(a.p.ID, b.p.ID)) })
	case "venues":
		for _, vn := range s.venues {
			if visible(&vn.Post) {
				items = append(items, item{&vn.Post, vn.Date, func() *Object { return s.patchedPost(vn.ID, s.venue(v, vn, false)) }})
			}
		}
	case "organizers":
		for _, og := range s.organizers {
			if visible(&og.Post) {
				items = append(items, item{&og.Post, og.Date, func() *Object { return s.patchedPost(og.ID, s.organizer(v, og, false)) }})
			}
		}
	}
	if coll != "events" {
		slices.SortFunc(items, func(a, b item) int { return cmp.Or(b.key.Compare(a.key), cmp.Compare(b.p.ID, a.p.ID)) })
	}
	total := len(items)
	start := (page - 1) * perPage
	if start >= total && page > 1 {
		kind := strings.TrimSuffix(coll, "s")
		writeError(w, http.StatusNotFound, kind+"-archive-page-not-found", "The requested "+kind+" archive page does not exist", nil)
		return
	}
	objs := []any{}
	for _, it := range items[min(start, total):min(start+perPage, total)] {
		objs = append(objs, it.obj())
	}
	body := NewObject().Set(coll, objs)
	s.envelope(w, v, body, "/"+coll, q, page, perPage, total, false)
}

// envelope adds rest_url, next/previous URLs and totals to a list body and
// writes it with the X-TEC headers.
func (s *Site) envelope(w http.ResponseWriter, v *view, body *Object, route string, q url.Values, page, perPage, total int, termOrder bool) {
	pages := 0
	if total > 0 {
		pages = (total + perPage - 1) / perPage
	}
	at := func(p int) string {
		c := maps.Clone(q)
		c.Set("per_page", strconv.Itoa(perPage))
		c.Set("page", strconv.Itoa(p))
		return queryURL(v.restURL(route), c)
	}
	var links []string
	if termOrder {
		items, _ := body.Get(strings.TrimPrefix(route, "/"))
		body = NewObject().Set("rest_url", at(page)).Set("total", total).Set("total_pages", pages).Set(strings.TrimPrefix(route, "/"), items)
	} else {
		body.Set("rest_url", at(page))
	}
	if page < pages {
		body.Set("next_rest_url", at(page+1))
		links = append(links, "<"+at(page+1)+`>; rel="next"`)
	}
	if page > 1 {
		body.Set("previous_rest_url", at(page-1))
		links = append(links, "<"+at(page-1)+`>; rel="prev"`)
	}
	if !termOrder {
		body.Set("total", total).Set("total_pages", pages)
	}
	w.Header().Set("X-TEC-Total", strconv.Itoa(total))
	w.Header().Set("X-TEC-TotalPages", strconv.Itoa(pages))
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Site) termList(w http.ResponseWriter, v *view, coll string, q url.Values) {
	page, perPage, ok := s.paging(w, q)
	if !ok {
		return
	}
	tax := "tribe_events_cat"
	if coll == "tags" {
		tax = "post_tag"
	}
	hideEmpty := true
	if h := q.Get("hide_empty"); h != "" {
		hideEmpty = !(h == "0" || strings.EqualFold(h, "false"))
	}
	var ts []*Term
	for _, t := range s.terms {
		if t.Taxonomy == tax && (!hideEmpty || s.termCount(v, t.ID) > 0) {
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b *Term) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) })
	total := len(ts)
	start := min((page-1)*perPage, total)
	objs := []any{}
	for _, t := range ts[start:min(start+perPage, total)] {
		objs = append(objs, s.term(v, t))
	}
	s.envelope(w, v, NewObject().Set(coll, objs), "/"+coll, q, page, perPage, total, true)
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

func writeError(w http.ResponseWriter, status int, code, msg string, data *Object) {
	if data == nil {
		data = NewObject()
	}
	data.Set("status", status)
	writeJSON(w, status, NewObject().Set("code", code).Set("message", msg).Set("data", data))
}
