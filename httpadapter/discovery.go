package httpadapter

import (
	"net/http"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// The API root ({root}/) answers a discovery index in WordPress's shape
// (wire §1), so clients that find the API from the root work, and the
// namespace index's _links.up leads somewhere. Like the namespace index it is
// built from h.routes.

// discoveryPrefix reports whether the request names the API root itself
// (optionally under a language segment), and returns that escaped prefix.
func (h *Handler) discoveryPrefix(r *http.Request) (string, bool) {
	p := r.URL.EscapedPath()
	if !cleanSegments(p) {
		return "", false
	}
	pos := 0
	if h.cfg.langs {
		if seg, _, found := strings.Cut(strings.TrimPrefix(p, "/"), "/"); found {
			if tail := p[1+len(seg):]; calendar.Lang(seg).Valid() && (tail == h.cfg.root || strings.HasPrefix(tail, h.cfg.root+"/")) {
				pos = 1 + len(seg)
			}
		}
	}
	switch strings.TrimSuffix(p[pos:], "/") {
	case h.cfg.root:
		return p[:pos] + h.cfg.root, true
	}
	return "", false
}

// serveDiscovery writes {name, namespaces, routes, _links} for the root.
func (h *Handler) serveDiscovery(w http.ResponseWriter, r *http.Request, s *reqState, prefix string) {
	if s.method != http.MethodGet && s.method != http.MethodHead {
		h.writeError(w, r, errNoRoute(s.method, s.path))
		return
	}
	s.links = h.makeLinks(r, prefix)
	base := s.links.rest
	routes := map[string]any{}
	for _, ns := range h.namespaces {
		routes["/"+ns] = map[string]any{"namespace": ns, "methods": []string{http.MethodGet},
			"_links": map[string]any{"self": []any{map[string]any{"href": base + "/" + ns}}}}
		for _, rt := range h.routes {
			key := wpPath(ns, rt.Path)
			if key == "/"+ns {
				continue // the namespace index, listed above
			}
			if old, ok := routes[key].(map[string]any); ok {
				old["methods"] = append(old["methods"].([]string), rt.Methods...)
				continue
			}
			routes[key] = map[string]any{"namespace": ns, "methods": append([]string(nil), rt.Methods...)}
		}
	}
	body := map[string]any{
		"name":        "eventcal",
		"description": "Calendar of events (REST interface compatible with The Events Calendar).",
		"url":         s.links.site,
		"namespaces":  h.namespaces,
		"routes":      routes,
		"_links":      map[string]any{"self": []any{map[string]any{"href": base + "/"}}},
	}
	if err := writeJSONValue(w, body); err != nil {
		h.writeError(w, r, err)
	}
}
