package httpadapter

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/ical"
)

// Handler serves the REST API of one calendar. Create it with New; it is
// safe for concurrent use.
type Handler struct {
	cal        calendar.Calendar
	cfg        config
	log        *slog.Logger
	siteHost   string   // host of WithSiteURL, for global ids
	namespaces []string // canonical first
	routes     []*Route
	mux        *http.ServeMux // routes within a namespace, from the route table
	events     *postKind[calendar.Event, calendar.EventInput, calendar.EventQuery]
	venues     *postKind[calendar.Venue, calendar.VenueInput, calendar.VenueQuery]
	organizers *postKind[calendar.Organizer, calendar.OrganizerInput, calendar.OrganizerQuery]
	ical       *ical.Exporter
	renders    *renderCache // encoded events (rendercache.go)
}

// New returns the handler serving cal. See the package documentation for
// how to mount it.
func New(cal calendar.Calendar, opts ...Option) *Handler {
	h := &Handler{cal: cal, cfg: config{bodyLimit: DefaultBodyLimit, bodyWait: DefaultBodyReadTimeout, realm: DefaultRealm, corsOrigin: map[string]bool{}},
		renders: newRenderCache(renderCacheSize)}
	for _, o := range opts {
		o(&h.cfg)
	}
	h.log = h.cfg.log
	if h.log == nil {
		h.log = slog.Default()
	}
	h.siteHost = h.cfg.siteURL
	if u, err := url.Parse(h.cfg.siteURL); err == nil && u.Host != "" {
		h.siteHost = u.Host
	}
	h.namespaces = append([]string{Namespace}, h.cfg.aliases...)
	h.events = eventKind()
	h.venues = venueKind()
	h.organizers = organizerKind()
	h.ical = ical.NewExporter(cal, h.cfg.icalExport...)
	h.routes = h.routeTable()
	h.mux = http.NewServeMux()
	for _, rt := range h.routes {
		rt := rt
		if rt.docOnly {
			continue
		}
		for _, m := range rt.Methods {
			h.mux.HandleFunc(m+" "+muxPath(rt.Path), func(w http.ResponseWriter, r *http.Request) { h.serveRoute(rt, w, r) })
		}
	}
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s := stateFrom(r.Context())
		h.writeError(w, r, errNoRoute(s.method, s.path))
	})
	return h
}

// muxPath turns a route path into a ServeMux pattern path.
func muxPath(p string) string {
	if p == "" {
		return "/{$}"
	}
	return p
}

// Register adds the handler to mux under its root, and under every language
// prefix when language segments are enabled. It needs WithRoot: without a
// root, mount the handler yourself (e.g. behind http.StripPrefix). Paths
// under an unknown language segment do not reach the handler through these
// patterns; mount it on "/" as well to answer them, like any other unknown
// path, with a JSON 404 rest_no_route.
func (h *Handler) Register(mux *http.ServeMux) {
	root := h.cfg.root
	if root == "" || root == "/" {
		mux.Handle("/", h)
		return
	}
	mux.Handle(root+"/", h)
	if h.cfg.langs {
		for _, l := range calendar.Languages {
			mux.Handle("/"+string(l)+root+"/", h)
		}
	}
}

// reqState is what one request carries from ServeHTTP to its route.
type reqState struct {
	method    string // after method override
	path      string // as requested, for messages
	lang      calendar.Lang
	links     links
	principal calendar.Principal
	query     url.Values
	args      map[string]any
	views     viewHook // the calendar.ViewCache of an event read (postKind.viewCtx)
}

type stateKey struct{}

func stateFrom(ctx context.Context) *reqState {
	s, _ := ctx.Value(stateKey{}).(*reqState)
	return s
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s := &reqState{method: r.Method, path: r.URL.Path}
	h.startBodyDeadline(w, r)
	recordRoute(r.Context(), UnmatchedRoute)
	if r.Method == http.MethodPost {
		m := r.Header.Get("X-HTTP-Method-Override")
		if m == "" && strings.Contains(r.URL.RawQuery, "_method") {
			m = r.URL.Query().Get("_method")
		}
		switch m = strings.ToUpper(strings.TrimSpace(m)); m {
		case http.MethodPut, http.MethodPatch, http.MethodDelete:
			s.method = m
		}
	}
	h.cors(w, r)
	prefix, rest, rawRest, ok := h.split(r, s)
	if !ok {
		if root, isRoot := h.discoveryPrefix(r); isRoot && r.Method != http.MethodOptions {
			h.serveDiscovery(w, r, s, root)
			return
		}
		h.writeError(w, r, errNoRoute(s.method, s.path))
		return
	}
	if r.Method == http.MethodOptions {
		h.preflight(w, r)
		return
	}
	s.links = h.makeLinks(r, prefix)
	// WithContext makes a shallow copy: the route mux sees the path within
	// the namespace and the overridden method, the caller's request stays as is.
	inner := r.WithContext(context.WithValue(r.Context(), stateKey{}, s))
	inner.Method = s.method
	inner.URL = &url.URL{Path: rest, RawPath: rawRest, RawQuery: r.URL.RawQuery}
	h.mux.ServeHTTP(w, inner)
}

// split finds the language segment, root and namespace in the request path.
// It returns the escaped URL prefix up to and including the namespace and the
// rest of the path (unescaped and escaped) with any trailing slash removed.
func (h *Handler) split(r *http.Request, s *reqState) (prefix, rest, rawRest string, ok bool) {
	p := r.URL.EscapedPath()
	if !cleanSegments(p) {
		return "", "", "", false
	}
	pos := 0
	if h.cfg.langs {
		if seg, _, found := strings.Cut(strings.TrimPrefix(p, "/"), "/"); found {
			if l := calendar.Lang(seg); l.Valid() && strings.HasPrefix(p[1+len(seg):], h.cfg.root+"/") {
				s.lang = l
				pos = 1 + len(seg)
			}
		}
	}
	if !strings.HasPrefix(p[pos:], h.cfg.root+"/") {
		return "", "", "", false
	}
	pos += len(h.cfg.root) + 1
	for _, ns := range h.namespaces {
		tail := p[pos:]
		if !strings.HasPrefix(tail, ns) || (len(tail) > len(ns) && tail[len(ns)] != '/') {
			continue
		}
		pos += len(ns)
		raw := strings.TrimSuffix(p[pos:], "/")
		if raw == "" {
			raw = "/"
		}
		un, err := url.PathUnescape(raw)
		if err != nil {
			return "", "", "", false
		}
		if un == raw {
			raw = ""
		}
		return p[:pos], un, raw, true
	}
	return "", "", "", false
}

// makeLinks works out the URLs representations need. A prefix removed by
// http.StripPrefix is recovered from RequestURI so rest_url values point
// where the client actually called.
func (h *Handler) makeLinks(r *http.Request, prefix string) links {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	origin := scheme + "://" + r.Host
	stripped := ""
	ru := r.RequestURI
	if ru != "" && ru[0] != '/' { // absolute form: "http://host/path"
		if u, err := url.ParseRequestURI(ru); err == nil {
			ru = u.EscapedPath()
		} else {
			ru = ""
		}
	}
	if ru != "" {
		if i := strings.IndexByte(ru, '?'); i >= 0 {
			ru = ru[:i]
		}
		if ep := r.URL.EscapedPath(); len(ru) > len(ep) && strings.HasSuffix(ru, ep) {
			stripped = ru[:len(ru)-len(ep)]
		}
	}
	l := links{site: h.cfg.siteURL, host: h.siteHost, rest: origin + stripped + prefix, cache: h.renders}
	if l.site == "" {
		l.site, l.host = origin, r.Host
	}
	return l
}

// serveRoute runs one route: authentication, the coarse write check, the
// arguments, then the operation.
func (h *Handler) serveRoute(rt *Route, w http.ResponseWriter, r *http.Request) {
	s := stateFrom(r.Context())
	recordRoute(r.Context(), h.cfg.root+"/"+Namespace+rt.Path)
	if err := h.prepare(rt, w, r, s); err != nil {
		h.writeError(w, r, err)
		return
	}
	ctx := calendar.WithPrincipal(r.Context(), s.principal)
	if err := rt.serve(ctx, w, r, s); err != nil {
		h.writeError(w, r, err)
	}
}

func (h *Handler) prepare(rt *Route, w http.ResponseWriter, r *http.Request, s *reqState) error {
	s.principal = calendar.Anonymous
	if h.cfg.auth != nil {
		p, ok, err := h.cfg.auth.Authenticate(r)
		if err != nil {
			return errInvalidCredentials()
		}
		if ok && p.IsSystem() {
			// The wire never acts as System: an authenticator that
			// hands it out is misconfigured, and the request is refused.
			h.log.ErrorContext(r.Context(), "httpadapter: authenticator returned the System principal; refused")
			return errInvalidCredentials()
		}
		if ok {
			s.principal = p
		}
	}
	if rt.need != "" {
		if err := mayWrite(s.principal, rt.need); err != nil {
			return err
		}
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return invalidArg("query", "The query string is not validly encoded.")
	}
	delete(q, "_method")
	s.query = q
	qa, err := parseFormValues(q)
	if err != nil {
		return err
	}
	var body map[string]any
	switch s.method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		if rt.rawBody {
			break
		}
		if body, err = h.readRequestBody(w, r); err != nil {
			return err
		}
	}
	path := map[string]any{}
	for _, name := range rt.pathArgs {
		path[name] = r.PathValue(name)
	}
	s.args = mergeArgs(qa, body, path)
	return nil
}

// requestLang is translation_language, else the URL's language segment.
func (s *reqState) requestLang(v *calendar.Validation) calendar.Lang {
	if raw, ok := s.args["translation_language"]; ok && raw != nil {
		t, isText := raw.(string)
		if !isText { // an array or another JSON type: one language is expected
			v.Add("translation_language", "translation_language must be one language code.")
			return s.lang
		}
		if t = strings.TrimSpace(t); t != "" {
			l := calendar.Lang(strings.ToLower(t))
			if !l.Valid() {
				v.Add("translation_language", "translation_language is not one of ar, nl, en, fr, de, pl, pt-br, ro, ru, es.")
				return l
			}
			s.links.query = "?translation_language=" + string(l)
			return l
		}
	}
	return s.lang
}

var encPool = sync.Pool{New: func() any { return &enc{b: make([]byte, 0, 8192)} }}

func getEnc() *enc {
	e := encPool.Get().(*enc)
	e.b, e.comma = e.b[:0], false
	return e
}

func putEnc(e *enc) {
	if cap(e.b) <= 1<<20 {
		encPool.Put(e)
	}
}

// Header values of every JSON body, shared (net/http never modifies a
// header value; Set and Add replace or copy the slice).
var (
	hdrJSON    = []string{contentTypeJSON}
	hdrNosniff = []string{"nosniff"}
)

// writeBody sends a JSON body. Its length is known, so it goes out with a
// Content-Length rather than in chunks (fewer bytes and writes for a list
// page larger than net/http's buffer).
func writeBody(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h["Content-Type"] = hdrJSON
	h["X-Content-Type-Options"] = hdrNosniff
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(status)
	w.Write(b)
}
