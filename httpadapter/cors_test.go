package httpadapter

import (
	"testing"
)

func TestCORS(t *testing.T) {
	e := newEnv(t, WithCORSOrigins("https://app.example"))
	e.fixture()
	r := e.do("GET", testNS+"/events", nil, header("Origin", "https://app.example")).must(t, 200)
	if r.Header.Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Errorf("allow-origin %q", r.Header.Get("Access-Control-Allow-Origin"))
	}
	for _, h := range []string{"X-TEC-Total", "X-TEC-TotalPages", "ETag", "Link"} {
		if !containsToken(r.Header.Get("Access-Control-Expose-Headers"), h) {
			t.Errorf("%s not exposed: %q", h, r.Header.Get("Access-Control-Expose-Headers"))
		}
	}
	r = e.do("GET", testNS+"/events", nil, header("Origin", "https://evil.example")).must(t, 200)
	if r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Error("foreign origin allowed")
	}
	r = e.do("OPTIONS", testNS+"/events/1", nil, header("Origin", "https://app.example"), header("Access-Control-Request-Method", "PATCH")).must(t, 204)
	if !containsToken(r.Header.Get("Access-Control-Allow-Methods"), "PATCH") || !containsToken(r.Header.Get("Access-Control-Allow-Headers"), "If-Match") {
		t.Errorf("preflight headers %v", r.Header)
	}
	r = e.do("OPTIONS", testNS+"/events", nil, header("Origin", "https://evil.example"), header("Access-Control-Request-Method", "POST")).must(t, 204)
	if r.Header.Get("Access-Control-Allow-Methods") != "" {
		t.Error("preflight for a foreign origin")
	}
	// No origins configured: nothing is allowed.
	e2 := newEnv(t)
	r = e2.do("GET", testNS+"/events", nil, header("Origin", "https://app.example")).must(t, 200)
	if r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Error("CORS on by default")
	}
	e2.do("OPTIONS", "/wp-json/nowhere", nil).must(t, 404)
}

func containsToken(list, tok string) bool {
	for _, p := range splitComma(list) {
		if p == tok {
			return true
		}
	}
	return false
}
