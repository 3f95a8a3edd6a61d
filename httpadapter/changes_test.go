package httpadapter

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

func TestChangesRoute(t *testing.T) {
	e := newEnv(t)
	path := testNS + "/changes"
	e.do("GET", path, nil).must(t, http.StatusUnauthorized)
	for _, u := range []string{"author", "contributor", "subscriber"} {
		if r := e.do("GET", path, nil, user(u)); r.Code != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403", u, r.Code)
		}
	}
	start := e.do("GET", path, nil, user("editor")).must(t, http.StatusOK).obj()
	if cs, _ := start["changes"].([]any); cs == nil || len(cs) != 0 || start["more"] != false || start["next"] == "" {
		t.Fatalf("without since: %v", start)
	}
	ev := e.mkEvent(idAdmin, "Concert", "2026-12-01 20:00:00", "publish")
	if _, err := e.cal.DeleteEvent(as(idAdmin), calendar.ByID(ev), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	p1 := e.do("GET", path+"?per_page=1&since="+url.QueryEscape(start["next"].(string)), nil, user("admin")).must(t, http.StatusOK).obj()
	cs := p1["changes"].([]any)
	if len(cs) != 1 || p1["more"] != true {
		t.Fatalf("first page: %v", p1)
	}
	c := cs[0].(map[string]any)
	if c["kind"] != "event" || c["id"] != float64(ev) || c["action"] != "created" || c["version"] != float64(1) || c["seq"] != float64(1) {
		t.Errorf("first change: %v", c)
	}
	p2 := e.do("GET", path+"?since="+url.QueryEscape(p1["next"].(string)), nil, user("editor")).must(t, http.StatusOK).obj()
	if cs := p2["changes"].([]any); len(cs) != 1 || cs[0].(map[string]any)["action"] != "trashed" || p2["more"] != false {
		t.Fatalf("second page: %v", p2)
	}
	for _, q := range []string{"?since=garbage", "?per_page=0", "?per_page=x", "?per_page=1001"} {
		if r := e.do("GET", path+q, nil, user("editor")); r.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", q, r.Code)
		}
	}
}

func TestChangesRouteExpired(t *testing.T) {
	users, err := BasicAuth(testUsers)
	if err != nil {
		t.Fatal(err)
	}
	cal := calendar.New(memstore.New(memstore.WithChangeRetention(calendar.ChangeRetention{MaxCount: 1})), calendar.WithUsers(users))
	h := New(cal, WithRoot("/wp-json"), WithAuthenticator(users), WithLogger(discardLogger()))
	for _, n := range []string{"a", "b", "c"} {
		if _, err := cal.CreateTerm(as(idAdmin), calendar.TaxonomyTag, calendar.TermInput{Name: calendar.Some(n)}, calendar.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	req := httptest.NewRequest("GET", "/wp-json/"+Namespace+"/changes?since="+calendar.ChangeCursor(0), nil)
	req.SetBasicAuth("admin", "admin-pw")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusGone || !strings.Contains(rec.Body.String(), `"rest_changes_expired"`) {
		t.Fatalf("expired cursor: %d %s", rec.Code, rec.Body.String())
	}
}
