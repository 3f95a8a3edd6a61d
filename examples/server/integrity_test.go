package main

// Integrity over HTTP: the races of issue 8 as a client sees them, through
// the REST adapter on real TCP listeners — in-process on every driver, and
// with two server processes sharing one Redis prefix.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/redisstore"
)

// apiNS is the API's namespace path on the example server.
const apiNS = "/wp-json/calendar/events/v1"

// The users of the in-process servers.
var integrityUsers = []httpadapter.User{
	{Name: "admin", Password: "admin-pw", Role: calendar.RoleAdministrator, ID: 1},
	{Name: "contrib", Password: "contrib-pw", Role: calendar.RoleContributor, ID: 2},
	{Name: "sub", Password: "sub-pw", Role: calendar.RoleSubscriber, ID: 3},
}

// apiUser calls one server's API with one user's credentials.
type apiUser struct {
	base, name, password string
}

// reply is one answer of the API.
type reply struct {
	status int
	body   map[string]any
	header http.Header
	raw    string
}

// code is the error code of an error body.
func (r reply) code() string { s, _ := r.body["code"].(string); return s }

// data is the data member of an error body.
func (r reply) data() map[string]any { m, _ := r.body["data"].(map[string]any); return m }

var apiClient = &http.Client{
	Timeout:   2 * time.Minute,
	Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 0, IdleConnTimeout: 30 * time.Second},
}

// call sends one request; header holds extra headers as name, value pairs.
func (u apiUser) call(method, path string, body any, header ...string) (reply, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return reply{}, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, u.base+apiNS+path, rd)
	if err != nil {
		return reply{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u.name != "" {
		req.SetBasicAuth(u.name, u.password)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := apiClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return reply{}, err
	}
	r := reply{status: res.StatusCode, header: res.Header, raw: string(b)}
	if len(b) > 0 && json.Unmarshal(b, &r.body) != nil {
		return r, fmt.Errorf("%s %s: not a JSON object: %.200s", method, path, b)
	}
	return r, nil
}

// must sends one request from the test goroutine and wants this status.
func (u apiUser) must(t *testing.T, status int, method, path string, body any, header ...string) reply {
	t.Helper()
	r, err := u.call(method, path, body, header...)
	if err != nil {
		t.Fatal(err)
	}
	if r.status != status {
		t.Fatalf("%s %s: %d %.300s, want %d", method, path, r.status, r.raw, status)
	}
	return r
}

// as is the same server with another user.
func (u apiUser) as(name, password string) apiUser { u.name, u.password = name, password; return u }

// parallel sends n requests at once, request i to servers[i%len(servers)],
// and returns the replies in order.
func parallel(t *testing.T, servers []apiUser, n int, req func(i int, u apiUser) (reply, error)) []reply {
	t.Helper()
	out := make([]reply, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i], errs[i] = req(i, servers[i%len(servers)])
		}()
	}
	close(start)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return out
}

// tally counts replies by status and error code ("200", "412 rest_precondition_failed").
func tally(rs []reply) map[string]int {
	m := map[string]int{}
	for _, r := range rs {
		k := fmt.Sprint(r.status)
		if r.status >= 400 {
			k += " " + r.code()
		}
		m[k]++
	}
	return m
}

// id reads a numeric id member.
func idOf(v any) int64 {
	if m, ok := v.(map[string]any); ok {
		v = m["id"]
	}
	f, _ := v.(float64)
	return int64(f)
}

// idsOf reads the ids of a link member: one object or an array of them.
func idsOf(v any) []int64 {
	if a, ok := v.([]any); ok {
		var ids []int64
		for _, x := range a {
			ids = append(ids, idOf(x))
		}
		return ids
	}
	if id := idOf(v); id != 0 {
		return []int64{id}
	}
	return nil
}

// versionOf reads the version from an ETag `"e<id>-<version>"`.
func versionOf(t *testing.T, etag string) int64 {
	t.Helper()
	var kind byte
	var id, v int64
	if _, err := fmt.Sscanf(strings.Trim(etag, `"`), "%c%d-%d", &kind, &id, &v); err != nil {
		t.Fatalf("ETag %q: %v", etag, err)
	}
	return v
}

// recordTotals is how many records of each kind one server lists to its
// user (an administrator sees every status but trash).
func recordTotals(t *testing.T, u apiUser) map[string]int {
	t.Helper()
	out := map[string]int{}
	for kind, path := range map[string]string{
		"events":     "/events?start_date=2000-01-01&per_page=1",
		"venues":     "/venues?per_page=1",
		"organizers": "/organizers?per_page=1",
		"categories": "/categories?hide_empty=false&per_page=1",
		"tags":       "/tags?hide_empty=false&per_page=1",
	} {
		r := u.must(t, 200, "GET", path, nil)
		out[kind] = int(r.body["total"].(float64))
	}
	return out
}

// termNames lists the names of every term of a taxonomy ("categories", "tags").
func termNames(t *testing.T, u apiUser, coll string) []string {
	t.Helper()
	var names []string
	for page := 1; ; page++ {
		r := u.must(t, 200, "GET", fmt.Sprintf("/%s?hide_empty=false&per_page=50&page=%d", coll, page), nil)
		for _, x := range r.body[coll].([]any) {
			names = append(names, x.(map[string]any)["name"].(string))
		}
		if float64(page) >= r.body["total_pages"].(float64) {
			return names
		}
	}
}

func withPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(strings.ToLower(n), prefix) {
			out = append(out, n)
		}
	}
	return out
}

// eventBody is a valid event create body; extra members are merged in.
func eventBody(title string, extra map[string]any) map[string]any {
	b := map[string]any{"title": title, "start_date": "2030-05-01 20:00", "end_date": "2030-05-01 22:00"}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// nestedLinks names a new venue, organizer, category and tag by value.
func nestedLinks(suffix string) map[string]any {
	return map[string]any{
		"venue":      map[string]any{"venue": "Hall " + suffix},
		"organizer":  map[string]any{"organizer": "Org " + suffix},
		"categories": []any{"Cat " + suffix},
		"tags":       []any{"Tag " + suffix},
	}
}

const parallelN = 50

// The races, each run on fresh servers of one calendar.

// 50 PATCHes pinned to one version, each naming a new tag: one 200, 49
// 412s, and only the winner's tag exists.
func racePinnedPatches(t *testing.T, servers []apiUser) {
	admin := servers[0]
	ev := admin.must(t, 201, "POST", "/events", eventBody("Pinned race", nil))
	id := idOf(ev.body)
	etag := admin.must(t, 200, "GET", fmt.Sprintf("/events/%d", id), nil).header.Get("ETag")
	rs := parallel(t, servers, parallelN, func(i int, u apiUser) (reply, error) {
		return u.call("PATCH", fmt.Sprintf("/events/%d", id), map[string]any{"tags": []any{fmt.Sprintf("race-%d", i)}}, "If-Match", etag)
	})
	if got := tally(rs); got["200"] != 1 || got["412 rest_precondition_failed"] != parallelN-1 {
		t.Errorf("replies %v, want one 200 and %d × 412", got, parallelN-1)
	}
	if race := withPrefix(termNames(t, admin, "tags"), "race-"); len(race) != 1 {
		t.Errorf("%d race-* tags exist (%v), want exactly the winner's", len(race), race)
	}
}

// 50 PATCHes without If-Match: all 200, none lost.
func raceUnpinnedPatches(t *testing.T, servers []apiUser) {
	admin := servers[0]
	ev := admin.must(t, 201, "POST", "/events", eventBody("Unpinned race", nil))
	id := idOf(ev.body)
	v0 := versionOf(t, ev.header.Get("ETag"))
	rs := parallel(t, servers, parallelN, func(i int, u apiUser) (reply, error) {
		return u.call("PATCH", fmt.Sprintf("/events/%d", id), map[string]any{"tags": []any{fmt.Sprintf("u-%d", i)}})
	})
	if got := tally(rs); got["200"] != parallelN {
		t.Errorf("replies %v, want %d × 200 (no 412 without If-Match)", got, parallelN)
	}
	after := admin.must(t, 200, "GET", fmt.Sprintf("/events/%d", id), nil)
	if v := versionOf(t, after.header.Get("ETag")); v != v0+parallelN {
		t.Errorf("version %d after %d updates from %d: a write was lost", v, parallelN, v0)
	}
	if u := withPrefix(termNames(t, admin, "tags"), "u-"); len(u) != parallelN {
		t.Errorf("%d u-* tags, want %d (every committed write made its tag)", len(u), parallelN)
	}
}

// 50 forced DELETEs of one event: one 200, the others the event's own 404.
func raceDeletes(t *testing.T, servers []apiUser) {
	admin := servers[0]
	id := idOf(admin.must(t, 201, "POST", "/events", eventBody("Doomed", nil)).body)
	rs := parallel(t, servers, parallelN, func(i int, u apiUser) (reply, error) {
		return u.call("DELETE", fmt.Sprintf("/events/%d?force=true", id), nil)
	})
	if got := tally(rs); got["200"] != 1 || got["404 rest-event-not-found"] != parallelN-1 {
		t.Errorf("replies %v, want one 200 and %d × 404 rest-event-not-found", got, parallelN-1)
	}
}

// 50 event creates naming one new venue, organizer, category and tag: one
// record of each, linked by every event.
func raceNestedCreates(t *testing.T, servers []apiUser) {
	admin := servers[0]
	rs := parallel(t, servers, parallelN, func(i int, u apiUser) (reply, error) {
		return u.call("POST", "/events", eventBody(fmt.Sprintf("Gig %d", i), nestedLinks("Shared")))
	})
	if got := tally(rs); got["201"] != parallelN {
		t.Fatalf("replies %v, want %d × 201", got, parallelN)
	}
	want := map[string]int{"events": parallelN, "venues": 1, "organizers": 1, "categories": 1, "tags": 1}
	if got := recordTotals(t, admin); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("records %v, want %v", got, want)
	}
	for _, member := range []string{"venue", "organizer", "categories", "tags"} {
		seen := map[string]bool{}
		for _, r := range rs {
			seen[fmt.Sprint(idsOf(r.body[member]))] = true
		}
		if len(seen) != 1 {
			t.Errorf("events link different %s: %v", member, seen)
		}
	}
}

// 50 creates of one category name: one 201, 49 × term_exists naming it.
func raceCategoryCreates(t *testing.T, servers []apiUser) {
	admin := servers[0]
	rs := parallel(t, servers, parallelN, func(i int, u apiUser) (reply, error) {
		return u.call("POST", "/categories", map[string]any{"name": "Dup2"})
	})
	if got := tally(rs); got["201"] != 1 || got["400 term_exists"] != parallelN-1 {
		t.Fatalf("replies %v, want one 201 and %d × 400 term_exists", got, parallelN-1)
	}
	var id int64
	for _, r := range rs {
		if r.status == 201 {
			id = idOf(r.body)
		}
	}
	for _, r := range rs {
		if r.status == 400 && idOf(r.data()["term_id"]) != id {
			t.Errorf("term_exists names term %v, want %d", r.data()["term_id"], id)
		}
	}
	if names := termNames(t, admin, "categories"); len(names) != 1 {
		t.Errorf("categories %v, want one Dup2", names)
	}
}

var races = []struct {
	name string
	run  func(*testing.T, []apiUser)
}{
	{"pinned PATCH", racePinnedPatches},
	{"unpinned PATCH", raceUnpinnedPatches},
	{"forced DELETE", raceDeletes},
	{"nested creates", raceNestedCreates},
	{"category creates", raceCategoryCreates},
}

// The calendars under test: each driver, and Redis with two Repository
// values on separate clients (two servers of one calendar).
type calendarCase struct {
	name string
	open func(t *testing.T) []calendar.Repository
}

func integrityCalendars() []calendarCase {
	return []calendarCase{
		{"mem", func(t *testing.T) []calendar.Repository { return []calendar.Repository{memstore.New()} }},
		{"bolt", func(t *testing.T) []calendar.Repository {
			st, err := boltstore.Open(filepath.Join(t.TempDir(), "cal.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return []calendar.Repository{st}
		}},
		{"redis", func(t *testing.T) []calendar.Repository { return openRedisRepos(t, 1) }},
		{"redis, two clients", func(t *testing.T) []calendar.Repository { return openRedisRepos(t, 2) }},
	}
}

// redisURL is the Redis server of the tests.
func redisURL() string {
	if u := os.Getenv("REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/0"
}

// needRedis skips (or, with EVENTCAL_REQUIRE_REDIS=1, fails) when there is no Redis server.
func needRedis(t *testing.T) *redis.Options {
	t.Helper()
	opt, err := redis.ParseURL(redisURL())
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	if err := c.Ping(context.Background()).Err(); err != nil {
		if os.Getenv("EVENTCAL_REQUIRE_REDIS") == "1" {
			t.Fatalf("redis at %s: %v", redisURL(), err)
		}
		t.Skipf("no Redis at %s (%v); start one with: redis-server --port 6379 --save '' --daemonize yes", redisURL(), err)
	}
	return opt
}

// uniquePrefix is a Redis key prefix no other test uses.
func uniquePrefix(t *testing.T) string {
	name := regexp.MustCompile(`[^a-zA-Z0-9]+`).ReplaceAllString(t.Name(), "-")
	return fmt.Sprintf("integrity-%s-%d", name, time.Now().UnixNano())
}

// openRedisRepos opens n stores on one fresh prefix, each with its own client.
func openRedisRepos(t *testing.T, n int) []calendar.Repository {
	opt := needRedis(t)
	prefix := uniquePrefix(t)
	t.Cleanup(func() { cleanRedisPrefix(t, redisURL(), prefix) })
	var repos []calendar.Repository
	for range n {
		c := redis.NewClient(opt)
		t.Cleanup(func() { c.Close() })
		st, err := redisstore.New(c, redisstore.WithPrefix(prefix))
		if err != nil {
			t.Fatal(err)
		}
		repos = append(repos, st)
	}
	return repos
}

// serveCalendar serves a calendar on repo through the adapter on a real TCP
// listener and returns its administrator.
func serveCalendar(t *testing.T, repo calendar.Repository, opts ...calendar.Option) apiUser {
	t.Helper()
	table, err := httpadapter.BasicAuth(integrityUsers)
	if err != nil {
		t.Fatal(err)
	}
	cal := calendar.New(repo, append([]calendar.Option{calendar.WithUsers(table), calendar.WithLogger(discardLog())}, opts...)...)
	api := httpadapter.New(cal, httpadapter.WithRoot("/wp-json"), httpadapter.WithAuthenticator(table), httpadapter.WithLogger(discardLog()))
	mux := http.NewServeMux()
	api.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return apiUser{base: srv.URL, name: "admin", password: "admin-pw"}
}

// TestRacesOverHTTP runs every race of issue 8 through the adapter on each
// driver (Redis also as two servers with their own clients on one prefix).
func TestRacesOverHTTP(t *testing.T) {
	for _, cc := range integrityCalendars() {
		t.Run(cc.name, func(t *testing.T) {
			for _, race := range races {
				t.Run(race.name, func(t *testing.T) {
					var servers []apiUser
					for _, repo := range cc.open(t) {
						servers = append(servers, serveCalendar(t, repo))
					}
					race.run(t, servers)
				})
			}
		})
	}
}

// failAtLastStep makes every multi-record write fail inside the store at a
// step after all of its own: a storage failure between records.
type failAtLastStep struct{ calendar.Repository }

func (f failAtLastStep) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	steps := append(append([]calendar.Step(nil), w.Steps...), calendar.Step{Op: calendar.OpUpdateTerm,
		Term: &calendar.TermRecord{ID: 1 << 40, Taxonomy: calendar.TaxonomyTag, Version: 1}})
	if _, err := f.Repository.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
		return nil, fmt.Errorf("storage failed mid-write: %v", err) // a driver failure, not a missing record
	}
	return nil, errors.New("the injected step did not fail")
}

// TestRefusedAndFailedWritesLeaveNothing: over HTTP on each driver, a
// validation error, a 403, a contributor naming a category it may not
// create, a stale If-Match and a storage failure after the nested records
// were written all leave the store as it was.
func TestRefusedAndFailedWritesLeaveNothing(t *testing.T) {
	for _, cc := range integrityCalendars()[:3] {
		t.Run(cc.name, func(t *testing.T) {
			repo := cc.open(t)[0]
			admin := serveCalendar(t, repo)
			broken := serveCalendar(t, failAtLastStep{repo})
			id := idOf(admin.must(t, 201, "POST", "/events", eventBody("Plain", nil)).body)
			etag := admin.must(t, 200, "GET", fmt.Sprintf("/events/%d", id), nil).header.Get("ETag")
			admin.must(t, 200, "PATCH", fmt.Sprintf("/events/%d", id), map[string]any{"title": "Plain v2"})
			before := recordTotals(t, admin)

			bad := eventBody("Bad", nestedLinks("X"))
			bad["end_date"] = "2030-04-01 10:00"
			if r := admin.must(t, 400, "POST", "/events", bad); r.data()["params"].(map[string]any)["end_date"] == nil {
				t.Errorf("400 does not name end_date: %s", r.raw)
			}
			admin.as("sub", "sub-pw").must(t, 403, "POST", "/events", eventBody("Sub", nestedLinks("X")))
			r := admin.as("contrib", "contrib-pw").must(t, 400, "POST", "/events", eventBody("Contrib", nestedLinks("X")))
			if p := r.data()["params"].(map[string]any); p["categories"] == nil || p["tags"] == nil {
				t.Errorf("contributor's 400 does not name categories and tags: %s", r.raw)
			}
			admin.must(t, 412, "PATCH", fmt.Sprintf("/events/%d", id), nestedLinks("X"), "If-Match", etag)
			broken.must(t, 500, "POST", "/events", eventBody("Broken", nestedLinks("X")))
			broken.must(t, 500, "PATCH", fmt.Sprintf("/events/%d", id), nestedLinks("X"))
			if after := recordTotals(t, admin); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("records before %v, after %v", before, after)
			}
			if got := admin.must(t, 200, "GET", fmt.Sprintf("/events/%d", id), nil).body["title"]; got != "Plain v2" {
				t.Errorf("title %v after refused writes", got)
			}
		})
	}
}

// TestNamesOverHTTP: names on write as a client sees them — a standalone
// venue create with a known name returns that venue (201), a category
// create or rename onto a taken name is term_exists with the holder's id.
func TestNamesOverHTTP(t *testing.T) {
	admin := serveCalendar(t, memstore.New())
	hall := idOf(admin.must(t, 201, "POST", "/venues", map[string]any{"venue": "Blue Note"}).body)
	if again := idOf(admin.must(t, 201, "POST", "/venues", map[string]any{"venue": "  blue NOTE"}).body); again != hall {
		t.Errorf("venue create by a known name made %d, want %d", again, hall)
	}
	jazz := idOf(admin.must(t, 201, "POST", "/categories", map[string]any{"name": "Jazz"}).body)
	pop := idOf(admin.must(t, 201, "POST", "/categories", map[string]any{"name": "Pop"}).body)
	for _, r := range []reply{
		admin.must(t, 400, "POST", "/categories", map[string]any{"name": "JAZZ"}),
		admin.must(t, 400, "POST", fmt.Sprintf("/categories/%d", pop), map[string]any{"name": "jazz"}),
	} {
		if r.code() != "term_exists" || idOf(r.data()["term_id"]) != jazz {
			t.Errorf("got %s, want term_exists naming %d", r.raw, jazz)
		}
	}
	admin.must(t, 201, "POST", "/categories", map[string]any{"name": "Jazz", "parent": jazz})
}

// TestArraysAreBoundedOverHTTP: an array argument over the limit (default
// 100) is a 400 naming it, in bodies and in list queries alike.
func TestArraysAreBoundedOverHTTP(t *testing.T) {
	admin := serveCalendar(t, memstore.New())
	tags := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = fmt.Sprintf("bulk %d", i)
		}
		return out
	}
	ids := make([]string, calendar.DefaultMaxItems+1)
	for i := range ids {
		ids[i] = fmt.Sprint(i + 1)
	}
	for _, c := range []struct {
		method, path, arg string
		body              any
	}{
		{"POST", "/events", "tags", eventBody("Too many", map[string]any{"tags": tags(calendar.DefaultMaxItems + 1)})},
		{"GET", "/events?include=" + strings.Join(ids, ","), "include", nil},
		{"GET", "/events?categories=" + strings.Join(ids, ","), "categories", nil},
		{"GET", "/tags?exclude=" + strings.Join(ids, ","), "exclude", nil},
	} {
		r := admin.must(t, 400, c.method, c.path, c.body)
		p, _ := r.data()["params"].(map[string]any)
		if msg, _ := p[c.arg].(string); !strings.Contains(msg, "at most 100") {
			t.Errorf("%s %.40s: %s does not name %s", c.method, c.path, r.raw, c.arg)
		}
	}
	if got := recordTotals(t, admin); got["tags"] != 0 || got["events"] != 0 {
		t.Errorf("an oversized write stored records: %v", got)
	}
	r := admin.must(t, 201, "POST", "/events", eventBody("Enough", map[string]any{"tags": tags(calendar.DefaultMaxItems)}))
	if n := len(idsOf(r.body["tags"])); n != calendar.DefaultMaxItems {
		t.Errorf("%d tags linked, want %d", n, calendar.DefaultMaxItems)
	}
}

// Two server processes.

// buildServer builds this command into a temporary directory.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serverProcess is one running example server.
type serverProcess struct {
	cmd      *exec.Cmd
	base     string
	password string // of the generated admin, when this process printed one
	stdout   *logBuffer
	stderr   *logBuffer
	exited   chan struct{}
}

// Both forms the server has printed: "created user admin with password PW"
// and "created NAME.users with user admin, password PW (…)".
var adminPassword = regexp.MustCompile(`user admin(?:,| with) password ([^\s,]+)`)

// startServerProcess runs the built server on a free port in dir and waits
// until it answers.
func startServerProcess(t *testing.T, bin, dir string, args ...string) *serverProcess {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := &serverProcess{base: "http://" + addr, stdout: &logBuffer{}, stderr: &logBuffer{}, exited: make(chan struct{})}
	p.cmd = exec.Command(bin, append([]string{"-addr", addr}, args...)...)
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(15 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-p.exited:
			t.Fatalf("server exited: %s", p.stderr)
		default:
		}
		res, err := http.Get(p.base + apiNS + "/events")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server at %s not ready: %v\n%s", p.base, err, p.stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The password is printed before the server listens; none is printed
	// when the admin comes from a users file another process wrote.
	if m := adminPassword.FindStringSubmatch(p.stdout.String()); m != nil {
		p.password = m[1]
	}
	return p
}

// TestTwoServerProcessesOnOneRedis runs the races against two example
// server processes sharing one Redis prefix, requests alternating between
// them: names, versions and deletes hold across processes, not only within one.
func TestTwoServerProcessesOnOneRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	needRedis(t)
	bin := buildServer(t)
	for _, race := range races {
		t.Run(race.name, func(t *testing.T) {
			prefix := uniquePrefix(t)
			t.Cleanup(func() { cleanRedisPrefix(t, redisURL(), prefix) })
			dir := t.TempDir()
			args := []string{"-store", "redis", "-redis", redisURL(), "-redis-prefix", prefix}
			var servers []apiUser
			password := ""
			for range 2 {
				p := startServerProcess(t, bin, dir, args...)
				if p.password != "" {
					password = p.password
				}
				if password == "" {
					t.Fatalf("no admin password printed:\n%s", p.stderr)
				}
				servers = append(servers, apiUser{base: p.base, name: "admin", password: password})
			}
			race.run(t, servers)
		})
	}
}

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
