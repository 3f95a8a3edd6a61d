package httpadapter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
)

// testHash hashes at bcrypt's minimum cost: the format and the check are
// the same as at the default cost, only faster.
func testHash(t testing.TB, pw string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

func TestParseUsers(t *testing.T) {
	h1, h2, h3 := testHash(t, "pw1"), testHash(t, "pw2"), testHash(t, "pw3")
	users, err := ParseUsers(strings.NewReader("# comment\nann:" + h1 + ":administrator\n\nbob:" + h2 + ":author:42\ncid:" + h3 + ":subscriber\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []User{
		{Name: "ann", PasswordHash: h1, Role: calendar.RoleAdministrator, ID: 2},
		{Name: "bob", PasswordHash: h2, Role: calendar.RoleAuthor, ID: 42},
		{Name: "cid", PasswordHash: h3, Role: calendar.RoleSubscriber, ID: 5},
	}
	if diff := cmp.Diff(want, users); diff != "" {
		t.Error(diff)
	}
	for _, bad := range []string{"ann:" + h1, "ann:" + h1 + ":king", "ann:" + h1 + ":author:x", "ann:" + h1 + ":author:0",
		"a:" + h1 + ":author:1:2",
		"ann:pw:author:1", // a plain password: refused
		"ann:$2a$10$short:author:1",
		"ann:" + strings.Replace(h1, "$04$", "$31$", 1) + ":author:1", // a cost that would take years
	} {
		if _, err := ParseUsers(strings.NewReader(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := BasicAuth([]User{{Name: "a", Password: "x", Role: calendar.RoleAuthor, ID: 1}, {Name: "a", Password: "y", Role: calendar.RoleAuthor, ID: 2}}); err == nil {
		t.Error("duplicate name accepted")
	}
	if _, err := BasicAuth([]User{{Name: "a", Password: "x", Role: calendar.RoleAuthor, ID: 1}, {Name: "b", Password: "y", Role: calendar.RoleAuthor, ID: 1}}); err == nil {
		t.Error("duplicate id accepted")
	}
	if _, err := BasicAuth([]User{{Name: "a", PasswordHash: "pw", Role: calendar.RoleAuthor, ID: 1}}); err == nil {
		t.Error("a hash that is no bcrypt hash accepted")
	}
	for _, name := range []string{"", "a:b", "#a", " a", "a\n", "a\x00"} {
		if _, err := BasicAuth([]User{{Name: name, Password: "x", Role: calendar.RoleAuthor, ID: 1}}); err == nil {
			t.Errorf("user name %q accepted", name)
		}
	}
}

// TestUsersFileRoundTrip: WriteUsers writes hashes only, ParseUsers reads
// them back, and passwords of any character authenticate.
func TestUsersFileRoundTrip(t *testing.T) {
	passwords := []string{"with:colons:inside", "späße ünd ∑ emoji 🎉", "  spaces around  ", "quote\"back\\slash", "new\nline\ttab", "#hash", strings.Repeat("x", MaxPasswordLen)}
	var users []User
	h, err := HashPassword(passwords[0])
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := bcrypt.Cost([]byte(h)); c != bcrypt.DefaultCost || bcrypt.CompareHashAndPassword([]byte(h), []byte(passwords[0])) != nil {
		t.Errorf("HashPassword: cost %d, want %d, or no match", c, bcrypt.DefaultCost)
	}
	for i, pw := range passwords {
		// The minimum cost keeps the test fast under -race; the rules
		// (length, characters) are those of HashPassword.
		h, err := HashPasswordCost(pw, bcrypt.MinCost)
		if err != nil {
			t.Fatalf("%q: %v", pw, err)
		}
		users = append(users, User{Name: fmt.Sprintf("user%d", i), PasswordHash: h, Role: calendar.RoleEditor, ID: int64(10 + i)})
	}
	var b strings.Builder
	if err := WriteUsers(&b, users); err != nil {
		t.Fatal(err)
	}
	for _, pw := range passwords {
		if strings.Contains(b.String(), pw) {
			t.Fatalf("users file holds the password %q:\n%s", pw, b.String())
		}
	}
	back, err := ParseUsers(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(users, back); diff != "" {
		t.Fatal(diff)
	}
	table, err := BasicAuth(back)
	if err != nil {
		t.Fatal(err)
	}
	for i, pw := range passwords {
		r := httptest.NewRequest("GET", "/", nil)
		r.SetBasicAuth(users[i].Name, pw)
		if p, ok, err := table.Authenticate(r); !ok || err != nil || p.ID != users[i].ID {
			t.Errorf("%q: %v %v %v", pw, p, ok, err)
		}
		r.SetBasicAuth(users[i].Name, pw+"x")
		if _, ok, err := table.Authenticate(r); ok || !errors.Is(err, ErrInvalidCredentials) {
			t.Errorf("%q+x accepted", pw)
		}
	}
	for _, bad := range []string{"", strings.Repeat("x", MaxPasswordLen+1)} {
		if _, err := HashPassword(bad); err == nil {
			t.Errorf("password of %d bytes hashed", len(bad))
		}
	}
	if err := WriteUsers(io.Discard, []User{{Name: "plain", Password: "pw", Role: calendar.RoleAuthor, ID: 1}}); err == nil {
		t.Error("a user without a hash was written")
	}
}

// TestCredentialCache: a password that passed bcrypt is accepted without
// bcrypt until the cache entry expires; a wrong password is never cached
// and never accepted, even right after the right one.
func TestCredentialCache(t *testing.T) {
	table, err := BasicAuth([]User{{Name: "ann", PasswordHash: testHash(t, "right"), Role: calendar.RoleEditor, ID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	table.cache.now = func() time.Time { return clock }
	try := func(pw string) bool {
		r := httptest.NewRequest("GET", "/", nil)
		r.SetBasicAuth("ann", pw)
		_, ok, _ := table.Authenticate(r)
		return ok
	}
	if !try("right") || table.cache.hits != 0 {
		t.Fatalf("first check: hits %d", table.cache.hits)
	}
	if !try("right") || !try("right") || table.cache.hits != 2 {
		t.Fatalf("cached checks: hits %d, want 2", table.cache.hits)
	}
	if try("wrong") || try("right2") || table.cache.hits != 2 {
		t.Fatalf("wrong password accepted or counted as a hit (%d)", table.cache.hits)
	}
	clock = clock.Add(CredentialCacheTTL)
	if !try("right") || table.cache.hits != 2 {
		t.Fatalf("expired entry used: hits %d", table.cache.hits)
	}
	if !try("right") || table.cache.hits != 3 {
		t.Fatalf("re-verified password not cached again: hits %d", table.cache.hits)
	}
	for k, v := range table.cache.m {
		if strings.Contains(string(v.mac[:]), "right") || k != "ann" {
			t.Errorf("cache entry %q %x", k, v.mac)
		}
	}
}

// TestChallengeOn401: every 401 carries WWW-Authenticate with the
// authenticator's schemes (Basic first), and no other status does.
func TestChallengeOn401(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	for _, c := range []struct {
		method, path string
		opts         []reqOpt
	}{
		{"POST", testNS + "/events", nil},
		{"PATCH", testNS + "/events/" + itoa(f.event), nil},
		{"DELETE", testNS + "/tags/1", nil},
		{"GET", testNS + "/events", []reqOpt{header("Authorization", "Basic "+b64("admin:wrong"))}},
		{"GET", testNS + "/events", []reqOpt{header("Authorization", "Basic "+b64("ghost:x"))}},
		{"GET", testNS + "/events", []reqOpt{header("Authorization", "Bearer nope")}},
	} {
		r := e.do(c.method, c.path, `{}`, c.opts...)
		got := r.Header.Values("WWW-Authenticate")
		if r.Code != 401 || len(got) != 2 || got[0] != `Basic realm="eventcal", charset="UTF-8"` || got[1] != `Bearer realm="eventcal"` {
			t.Errorf("%s %s: %d %q", c.method, c.path, r.Code, got)
		}
	}
	if r := e.do("POST", testNS+"/events", `{}`, user("subscriber")); r.Code != 403 || r.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("403 with a challenge: %d %q", r.Code, r.Header.Get("WWW-Authenticate"))
	}
	// Without an authenticator, and with another realm: still a challenge.
	plain := newEnv(t, WithAuthenticator(nil), WithRealm(`my "cal"`))
	if r := plain.do("POST", testNS+"/events", `{}`); r.Code != 401 || r.Header.Get("WWW-Authenticate") != `Basic realm="my \"cal\""` {
		t.Errorf("no authenticator: %d %q", r.Code, r.Header.Values("WWW-Authenticate"))
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

// BenchmarkBasicAuthBcrypt: a Basic-authenticated request's credential
// check at bcrypt's default cost, with the cache of verified credentials
// and without it (every request pays bcrypt).
func BenchmarkBasicAuthBcrypt(b *testing.B) {
	h, err := HashPassword("correct horse")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ttl  time.Duration
	}{{"cached", CredentialCacheTTL}, {"uncached", 0}} {
		b.Run(c.name, func(b *testing.B) {
			table, err := BasicAuth([]User{{Name: "ann", PasswordHash: h, Role: calendar.RoleEditor, ID: 1}})
			if err != nil {
				b.Fatal(err)
			}
			table.cache.ttl = c.ttl
			r := httptest.NewRequest("GET", "/", nil)
			r.SetBasicAuth("ann", "correct horse")
			b.ReportAllocs()
			for b.Loop() {
				if _, ok, _ := table.Authenticate(r); !ok {
					b.Fatal("refused")
				}
			}
		})
	}
}
