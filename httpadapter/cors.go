package httpadapter

import (
	"net/http"
	"strings"
)

// CORS (wire §1): only configured origins get the Access-Control headers;
// the headers a list or record response carries are exposed to them.

const (
	corsExpose  = "X-TEC-Total, X-TEC-TotalPages, ETag, Link, Location"
	corsMethods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
	corsHeaders = "Authorization, Content-Type, If-Match, If-None-Match, X-HTTP-Method-Override"
)

func (h *Handler) allowedOrigin(origin string) bool {
	if origin == "" {
		return false
	}
	return h.cfg.corsAny || h.cfg.corsOrigin[strings.ToLower(strings.TrimRight(origin, "/"))]
}

// cors sets the response headers for an allowed origin.
func (h *Handler) cors(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if !h.allowedOrigin(origin) {
		return
	}
	hd := w.Header()
	hd.Set("Access-Control-Allow-Origin", origin)
	hd.Add("Vary", "Origin")
	hd.Set("Access-Control-Allow-Credentials", "true")
	hd.Set("Access-Control-Expose-Headers", corsExpose)
}

// preflight answers OPTIONS: the methods and headers allowed for an allowed
// origin, just the Allow header otherwise.
func (h *Handler) preflight(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Allow", corsMethods)
	if h.allowedOrigin(r.Header.Get("Origin")) {
		hd.Set("Access-Control-Allow-Methods", corsMethods)
		hd.Set("Access-Control-Allow-Headers", corsHeaders)
		hd.Set("Access-Control-Max-Age", "600")
	}
	w.WriteHeader(http.StatusNoContent)
}
