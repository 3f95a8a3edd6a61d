package httpadapter

import (
	"fmt"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

func TestETagsAndPreconditions(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	p := fmt.Sprintf("%s/events/%d", testNS, f.event)
	r := e.do("GET", p, nil).must(t, 200)
	tag := r.Header.Get("ETag")
	ev := must[*calendar.Event](t)(e.cal.GetEvent(as(idAdmin), refID(f.event), readOpts()))
	if tag != etag('e', f.event, ev.Version) {
		t.Fatalf("ETag %q for version %d", tag, ev.Version)
	}
	// If-None-Match: 304 with no body; a stale tag gets the body.
	r = e.do("GET", p, nil, header("If-None-Match", tag)).must(t, 304)
	if r.Raw != "" || r.Header.Get("ETag") != tag {
		t.Errorf("304 body %q etag %q", r.Raw, r.Header.Get("ETag"))
	}
	e.do("GET", p, nil, header("If-None-Match", `"e1-1", W/`+tag)).must(t, 304)
	e.do("GET", p, nil, header("If-None-Match", etag('e', f.event, ev.Version+1))).must(t, 200)

	// If-Match: the current tag succeeds and the new response has a new tag.
	r = e.do("PATCH", p, map[string]any{"excerpt": "one"}, user("admin"), header("If-Match", tag)).must(t, 200)
	newTag := r.Header.Get("ETag")
	if newTag == tag {
		t.Fatal("ETag did not change on write")
	}
	// The old tag is now stale; a foreign tag (other record, other kind,
	// garbage, weak) never matches; nothing changes.
	for _, bad := range []string{tag, etag('e', f.venue, ev.Version+1), etag('v', f.event, ev.Version+1), `"garbage"`, "W/" + newTag} {
		r = e.do("PATCH", p, map[string]any{"excerpt": "two"}, user("admin"), header("If-Match", bad))
		if r.Code != 412 || r.errCode() != "rest_precondition_failed" {
			t.Errorf("If-Match %s: %d %s", bad, r.Code, r.Raw)
		}
		r = e.do("DELETE", p, nil, user("admin"), header("If-Match", bad))
		if r.Code != 412 {
			t.Errorf("DELETE If-Match %s: %d", bad, r.Code)
		}
	}
	if got := must[*calendar.Event](t)(e.cal.GetEvent(as(idAdmin), refID(f.event), readOpts())); got.Excerpt != "one" || got.Status != "publish" {
		t.Errorf("changed by a failed precondition: %q %s", got.Excerpt, got.Status)
	}
	// By slug: the ETag must name the record the slug names.
	e.do("PATCH", testNS+"/events/by-slug/jazz-night", map[string]any{"excerpt": "x"}, user("admin"), header("If-Match", etag('e', f.event+100, 2))).must(t, 412)
	r = e.do("PATCH", testNS+"/events/by-slug/jazz-night", map[string]any{"excerpt": "three"}, user("admin"), header("If-Match", newTag)).must(t, 200)
	// Terms too.
	tp := fmt.Sprintf("%s/tags/%d", testNS, f.live)
	tt := e.do("GET", tp, nil).must(t, 200).Header.Get("ETag")
	e.do("PATCH", tp, map[string]any{"description": "d"}, user("admin"), header("If-Match", tt)).must(t, 200)
	e.do("PATCH", tp, map[string]any{"description": "e"}, user("admin"), header("If-Match", tt)).must(t, 412)
	e.do("GET", tp, nil, header("If-None-Match", tt)).must(t, 200)
	// Venue and organizer.
	vp := fmt.Sprintf("%s/venues/%d", testNS, f.venue)
	vt := e.do("GET", vp, nil).must(t, 200).Header.Get("ETag")
	e.do("GET", vp, nil, header("If-None-Match", vt)).must(t, 304)
	e.do("DELETE", vp, nil, user("admin"), header("If-Match", vt)).must(t, 200)
}
