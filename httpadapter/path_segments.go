package httpadapter

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// cleanSegments reports whether an escaped path is free of empty segments
// (a trailing slash apart) and of dot segments, plain or percent-encoded
// ("%2e%2e" names the same segment as ".." to anything that normalises URLs).
func cleanSegments(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		switch {
		case s == "":
			if i != len(segs)-1 {
				return false
			}
		case s == "." || s == "..":
			return false
		case strings.Contains(s, "%"):
			if u, err := url.PathUnescape(s); err == nil && (u == "." || u == "..") {
				return false
			}
		}
	}
	return true
}

// Guard wraps next, typically the http.ServeMux the handler is registered
// on, so that any request whose path has an empty or dot segment ("//",
// "/./", "/../", also percent-encoded) is answered by the handler with 404
// rest_no_route. A ServeMux redirects such paths to their cleaned form
// (307) before matching any pattern, which would send a DELETE of
// "/events//1" on to "/events/1"; the handler alone cannot prevent that
// once it sits behind a mux.
//
//	mux := http.NewServeMux()
//	h.Register(mux)
//	srv := &http.Server{Handler: h.Guard(mux)}
//
// The root itself without its trailing slash ("/wp-json", "/fr/wp-json") is
// answered by the handler too, where the mux would redirect it to "/wp-json/".
func (h *Handler) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.EscapedPath(); !cleanSegments(p) || h.isBareRoot(p) {
			h.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isBareRoot reports whether p is the root, or a language segment and the
// root, without a trailing slash.
func (h *Handler) isBareRoot(p string) bool {
	root := h.cfg.root
	if root == "" || root == "/" {
		return false
	}
	if p == root {
		return true
	}
	if !h.cfg.langs || !strings.HasSuffix(p, root) {
		return false
	}
	seg := strings.TrimPrefix(strings.TrimSuffix(p, root), "/")
	return seg != "" && !strings.Contains(seg, "/") && calendar.Lang(seg).Valid()
}
