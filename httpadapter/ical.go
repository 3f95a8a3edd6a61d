package httpadapter

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
)

// The iCalendar routes: the event list as a subscribable feed
// (/events.ics, or /events with Accept: text/calendar), one event as a
// feed (/events/{id}.ics, /events/by-slug/{slug}.ics) and the import of .ics
// files (/events/import). ServeMux patterns cannot hold "{id}.ics", so the
// single-event feeds are served by the JSON routes' handlers when the path
// value ends in ".ics"; their table entries are for the documentation.

const contentTypeICal = "text/calendar; charset=utf-8"

// WithICalExport configures the iCalendar feeds (calendar name, refresh
// interval, default window; see package ical). The site URL and host of the
// request (or WithSiteURL) are always used for event URLs and UIDs.
func WithICalExport(opts ...ical.ExportOption) Option {
	return func(c *config) { c.icalExport = append(c.icalExport, opts...) }
}

// WithICalImport configures POST /events/import (size and event-count
// limits; see package ical). The request language is always the write language.
func WithICalImport(opts ...ical.ImportOption) Option {
	return func(c *config) { c.icalImport = append(c.icalImport, opts...) }
}

func (h *Handler) icalRoutes(rs []*Route) []*Route {
	for _, rt := range rs {
		if rt.Methods[0] != http.MethodGet {
			if rt.Path == "/events/by-slug/{slug}" {
				rt.serve = icalReadOnly(rt.serve)
			}
			continue
		}
		switch rt.Path {
		case "/events":
			rt.serve = h.negotiate(rt.serve, h.icalFeedH)
		case "/events/{id}", "/events/by-slug/{slug}":
			rt.serve = h.icalSuffix(h.negotiate(rt.serve, h.icalEventH))
		}
	}
	listArgs := eventListArgs()[2:] // no paging: a feed is the whole result
	return []*Route{
		{Methods: get, Path: "/events.ics", Summary: "Events as an iCalendar feed (every list argument but paging)",
			Args: listArgs, serve: h.icalFeedH, media: "text/calendar"},
		{Methods: get, Path: "/events/{id}.ics", Summary: "An event as iCalendar",
			Args: withLang(idArg, passwordArg), media: "text/calendar", docOnly: true},
		{Methods: get, Path: "/events/by-slug/{slug}.ics", Summary: "An event found by slug as iCalendar",
			Args: withLang(slugArg), media: "text/calendar", docOnly: true},
		{Methods: post, Path: "/events/import", Summary: "Import events from an iCalendar file (editors and administrators)",
			Args: withLang(), need: calendar.RoleEditor, rawBody: true, media: "text/calendar", serve: h.icalImportH},
	}
}

// icalImportH imports a text/calendar body. The role check ran before the
// body was touched; the calendar checks each event write again.
func (h *Handler) icalImportH(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
	var v calendar.Validation
	lang := s.requestLang(&v)
	if err := v.Err(); err != nil {
		return err
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "text/calendar" {
		return &httpError{http.StatusUnsupportedMediaType, "rest_unsupported_media_type", "Send the file as text/calendar."}
	}
	opts := append(append([]ical.ImportOption{}, h.cfg.icalImport...), ical.WithLanguage(lang))
	rep, err := ical.Import(ctx, h.cal, r.Body, opts...)
	switch {
	case errors.Is(err, ical.ErrNotICalendar):
		return &httpError{http.StatusBadRequest, "rest_invalid_ical", "The body is not an iCalendar file (it must start with BEGIN:VCALENDAR)."}
	case errors.Is(err, ical.ErrTooLarge):
		return &httpError{http.StatusRequestEntityTooLarge, "rest_request_too_large", "The iCalendar file is larger than the import limit."}
	case errors.Is(err, ical.ErrTooManyEvents):
		return &httpError{http.StatusRequestEntityTooLarge, "rest_too_many_events", "The iCalendar file holds more events than the import limit."}
	case err != nil:
		return err
	}
	return writeJSONValue(w, rep)
}

// icalSuffix sends "/events/12.ics" and "/events/by-slug/x.ics" to the
// single-event feed.
func (h *Handler) icalSuffix(next serveFunc) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		for _, name := range [...]string{"id", "slug"} {
			if v, ok := s.args[name].(string); ok && strings.HasSuffix(v, ".ics") {
				s.args[name] = strings.TrimSuffix(v, ".ics")
				return h.icalEventH(ctx, w, r, s)
			}
		}
		return next(ctx, w, r, s)
	}
}

// icalReadOnly answers writes to "/events/by-slug/x.ics" as to any path
// without a route: the feed of an event can only be read. (Slugs never
// hold a dot, so no event is lost to this.)
func icalReadOnly(next serveFunc) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		if v, _ := s.args["slug"].(string); strings.HasSuffix(v, ".ics") {
			return errNoRoute(s.method, s.path)
		}
		return next(ctx, w, r, s)
	}
}

// negotiate serves iCalendar instead of JSON when Accept prefers text/calendar.
func (h *Handler) negotiate(jsonH, icalH serveFunc) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		w.Header().Add("Vary", "Accept")
		if prefersICal(r.Header.Values("Accept")) {
			return icalH(ctx, w, r, s)
		}
		return jsonH(ctx, w, r, s)
	}
}

// prefersICal reports whether the Accept header ranks text/calendar above
// JSON: a higher quality, or the same quality from a more specific range
// ("text/calendar, */*" asks for iCalendar; "application/json,
// text/calendar" keeps JSON, the default).
func prefersICal(accept []string) bool {
	var qCal, qJSON float64
	var specCal, specJSON int
	for _, line := range accept {
		for _, part := range strings.Split(line, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			q := 1.0
			if v, ok := params["q"]; ok {
				if q, err = strconv.ParseFloat(v, 64); err != nil || q < 0 || q > 1 {
					continue
				}
			}
			spec := 0
			switch mt {
			case "*/*":
				spec = 1
			case "text/*", "application/*":
				spec = 2
			case "text/calendar", "application/json":
				spec = 3
			}
			if mt == "*/*" || mt == "text/*" || mt == "text/calendar" {
				if spec > specCal {
					qCal, specCal = q, spec
				}
			}
			if mt == "*/*" || mt == "application/*" || mt == "application/json" {
				if spec > specJSON {
					qJSON, specJSON = q, spec
				}
			}
		}
	}
	return specCal == 3 && qCal > 0 && (qCal > qJSON || qCal == qJSON && specJSON < 3)
}

// icalSite makes the feed's URLs and UIDs those of the JSON representations.
func icalSite(s *reqState) ical.ExportOption { return ical.WithSite(s.links.site, s.links.host) }

func (h *Handler) icalFeedH(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
	var v calendar.Validation
	lang := s.requestLang(&v)
	// Paging arguments are ignored, not checked: a feed is the whole result.
	delete(s.args, "page")
	delete(s.args, "per_page")
	q := readEventQuery(s.args, &v)
	bad := takeArgErrors(&v)
	q.Lang = lang
	feed, err := h.ical.Feed(ctx, q, icalSite(s))
	if err := bad.report(err); err != nil {
		return err
	}
	return h.serveFeed(ctx, w, r, feed)
}

func (h *Handler) icalEventH(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
	var v calendar.Validation
	opt := calendar.ReadOptions{Lang: s.requestLang(&v)}
	ref, err := routeRef(s)
	if err != nil {
		return err
	}
	if ref.ID != 0 {
		opt.Password = (&inputReader{args: s.args, v: &v}).text("password")
	}
	if err := v.Err(); err != nil {
		return err
	}
	feed, err := h.ical.EventFeed(ctx, ref, opt, icalSite(s))
	if err != nil {
		return err
	}
	return h.serveFeed(ctx, w, r, feed)
}

// serveFeed answers a prepared feed: 304 when the client's copy is current
// (If-None-Match, or If-Modified-Since without it), else the streamed feed.
func (h *Handler) serveFeed(ctx context.Context, w http.ResponseWriter, r *http.Request, feed *ical.Feed) error {
	hd := w.Header()
	hd.Set("ETag", feed.ETag())
	hd.Set("Last-Modified", feed.LastModified().Format(http.TimeFormat))
	if feedCurrent(r, feed) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	hd.Set("Content-Type", contentTypeICal)
	hd.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	if err := feed.Write(ctx, w); err != nil {
		// The status is sent: cut the connection so the client sees an
		// incomplete answer, not a short calendar.
		h.log.WarnContext(ctx, "ical feed interrupted", "path", r.URL.Path, "err", err)
		panic(http.ErrAbortHandler)
	}
	return nil
}

func feedCurrent(r *http.Request, feed *ical.Feed) bool {
	if r.Header.Get("If-None-Match") != "" {
		return notModified(r, feed.ETag())
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" {
		return false
	}
	t, err := http.ParseTime(ims)
	return err == nil && !feed.LastModified().After(t.Truncate(time.Second))
}
