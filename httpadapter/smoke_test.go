package httpadapter

import (
	"io"
	"log/slog"
	"testing"
)

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestSmoke(t *testing.T) {
	e := newEnv(t)
	r := e.do("POST", testNS+"/events", map[string]any{"title": "Jazz Night", "start_date": "2026-12-01 20:00", "end_date": "2026-12-01 23:00",
		"venue": map[string]any{"venue": "Blue Hall", "city": "Boston", "geo_lat": 42.3, "geo_lng": -71.1}, "organizer": []any{map[string]any{"organizer": "Ann"}},
		"categories": "Music, Jazz", "cost": []any{"$10", "$20"}}, user("admin"))
	t.Log(r.Code, r.Raw)
	r = e.do("GET", "/fr/wp-json/tribe/events/v1/events?per_page=1&categories=music", nil)
	t.Log(r.Code, r.Header, r.Raw)
	r = e.do("GET", testNS+"/nope", nil)
	t.Log(r.Code, r.Raw)
	r = e.do("PUT", testNS+"/events", nil)
	t.Log(r.Code, r.Raw)
}
