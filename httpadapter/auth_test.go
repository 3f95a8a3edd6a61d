package httpadapter

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
)

func TestParseUsers(t *testing.T) {
	users, err := ParseUsers(strings.NewReader("# comment\nann:pw1:administrator\n\nbob:pw2:author:42\ncid:pw3:subscriber\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []User{{"ann", "pw1", calendar.RoleAdministrator, 2}, {"bob", "pw2", calendar.RoleAuthor, 42}, {"cid", "pw3", calendar.RoleSubscriber, 5}}
	if diff := cmp.Diff(want, users); diff != "" {
		t.Error(diff)
	}
	for _, bad := range []string{"ann:pw", "ann:pw:king", "ann:pw:author:x", "ann:pw:author:0", "a:b:author:1:2"} {
		if _, err := ParseUsers(strings.NewReader(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := BasicAuth([]User{{"a", "x", calendar.RoleAuthor, 1}, {"a", "y", calendar.RoleAuthor, 2}}); err == nil {
		t.Error("duplicate name accepted")
	}
	if _, err := BasicAuth([]User{{"a", "x", calendar.RoleAuthor, 1}, {"b", "y", calendar.RoleAuthor, 1}}); err == nil {
		t.Error("duplicate id accepted")
	}
}

func TestAuthenticators(t *testing.T) {
	table, err := BasicAuth(testUsers)
	if err != nil {
		t.Fatal(err)
	}
	bearer := BearerAuth(map[string]calendar.Principal{"t0k": {ID: 9, Role: calendar.RoleEditor}})
	a := Chain(table, bearer)
	for _, c := range []struct {
		name, header string
		want         calendar.Principal
		ok, err      bool
	}{
		{"none", "", calendar.Anonymous, false, false},
		{"basic", "Basic " + b64("editor:editor-pw"), calendar.Principal{ID: idEditor, Role: calendar.RoleEditor}, true, false},
		{"basic wrong password", "Basic " + b64("editor:nope"), calendar.Anonymous, false, true},
		{"basic unknown user", "Basic " + b64("ghost:editor-pw"), calendar.Anonymous, false, true},
		{"bearer", "Bearer t0k", calendar.Principal{ID: 9, Role: calendar.RoleEditor}, true, false},
		{"bearer lower case", "bearer t0k", calendar.Principal{ID: 9, Role: calendar.RoleEditor}, true, false},
		{"bearer wrong", "Bearer t0kk", calendar.Anonymous, false, true},
		{"other scheme", "Digest x", calendar.Anonymous, false, false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if c.header != "" {
			r.Header.Set("Authorization", c.header)
		}
		p, ok, err := a.Authenticate(r)
		if p != c.want || ok != c.ok || (err != nil) != c.err {
			t.Errorf("%s: %v %v %v", c.name, p, ok, err)
		}
	}
	p, ok, _ := table.LookupUser(context.Background(), idAuthor)
	if !ok || p.Role != calendar.RoleAuthor {
		t.Errorf("LookupUser: %v %v", p, ok)
	}
	if _, ok, _ := table.LookupUser(context.Background(), 999); ok {
		t.Error("LookupUser found a ghost")
	}
}

// TestWriteRefusedBeforeValidation: callers who may never write get 401/403
// even when the body is garbage, and the password is never echoed.
func TestWriteRefusedBeforeValidation(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	for _, c := range []struct {
		who    string
		status int
	}{{"", 401}, {"subscriber", 403}} {
		var opts []reqOpt
		if c.who != "" {
			opts = append(opts, user(c.who))
		}
		for _, path := range []string{testNS + "/events", testNS + "/venues/1", testNS + "/categories", testNS + "/tags/1", testNS + "/events/by-slug/jazz-night"} {
			r := e.do("POST", path, `{"title": [`, opts...)
			if r.Code != c.status || r.errCode() != "rest_forbidden" {
				t.Errorf("%q POST %s: %d %s", c.who, path, r.Code, r.Raw)
			}
		}
	}
	r := e.do("GET", testNS+"/events", nil, header("Authorization", "Basic "+b64("admin:topsecret-guess")))
	if r.Code != 401 || strings.Contains(r.Raw, "topsecret") {
		t.Errorf("%d %s", r.Code, r.Raw)
	}
	// Bearer editor can write.
	e.do("PATCH", "/wp-json/calendar/events/v1/events/"+itoa(f.event), map[string]any{"excerpt": "by token"}, header("Authorization", "Bearer tok-editor")).must(t, 200)
}

// The wire never acts as System, even when a (misconfigured) authenticator
// hands it out: the request is refused and nothing is written.
func TestAuthenticatorCannotGrantSystem(t *testing.T) {
	e := newEnv(t, WithAuthenticator(BearerAuth(map[string]calendar.Principal{"root": calendar.System})))
	r := e.do("POST", testNS+"/categories", `{"name":"Via System"}`, header("Authorization", "Bearer root"))
	if r.Code != 401 && r.Code != 403 {
		t.Fatalf("status %d, want 401/403; body %s", r.Code, r.Raw)
	}
	terms, err := e.cal.ListTerms(as(0), calendar.TaxonomyCategory, calendar.TermQuery{Search: "Via System"})
	if err != nil || terms.Total != 0 {
		t.Fatalf("a term was written: %+v %v", terms, err)
	}
}
