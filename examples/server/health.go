package main

import (
	"context"
	"errors"
	"math"
	"net/http"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// defaultReadyTimeout bounds the store check of /readyz: a load balancer
// asks often, and a store that needs longer is not ready to serve.
const defaultReadyTimeout = 2 * time.Second

// healthz answers while the process serves HTTP at all.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeStatus(w, http.StatusOK, "ok")
}

// readyz answers 200 when the store answers a cheap read (a post id that
// never exists: one key look-up on every driver) within the deadline,
// 503 otherwise.
func (s *server) readyz(cfg config) http.HandlerFunc {
	wait := cfg.ReadyTimeout
	if wait <= 0 {
		wait = defaultReadyTimeout
	}
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), wait)
		defer cancel()
		_, err := s.repo.GetPost(ctx, math.MaxInt64)
		if err != nil && !errors.Is(err, calendar.ErrNotFound) {
			cfg.Log.WarnContext(r.Context(), "not ready: store unreachable", "err", err)
			writeStatus(w, http.StatusServiceUnavailable, "unavailable")
			return
		}
		writeStatus(w, http.StatusOK, "ready")
	}
}

// writeStatus sends a small JSON status document that is never cached.
func writeStatus(w http.ResponseWriter, code int, status string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write([]byte(`{"status":"` + status + `"}` + "\n"))
}
