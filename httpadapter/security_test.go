package httpadapter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

var roleUser = map[calendar.Role]string{
	calendar.RoleAnonymous: "", calendar.RoleSubscriber: "subscriber", calendar.RoleContributor: "contributor",
	calendar.RoleAuthor: "author", calendar.RoleEditor: "editor", calendar.RoleAdministrator: "admin",
}

var roleID = map[calendar.Role]int64{
	calendar.RoleSubscriber: idSubscriber, calendar.RoleContributor: idContributor,
	calendar.RoleAuthor: idAuthor, calendar.RoleEditor: idEditor, calendar.RoleAdministrator: idAdmin,
}

// expectedStatus is domain §3/§4 for one role, ownership, record status and
// action.
func expectedStatus(role calendar.Role, own bool, status, action string) int {
	rank := roleRank[role]
	switch action {
	case "read":
		switch {
		case status == "publish":
			return 200
		case rank >= roleRank[calendar.RoleEditor]:
			return 200
		case own && rank >= roleRank[calendar.RoleContributor]:
			return 200
		}
		return 403
	}
	// update and delete
	if role == calendar.RoleAnonymous {
		return 401
	}
	switch {
	case rank >= roleRank[calendar.RoleEditor]:
		return 200
	case !own || rank < roleRank[calendar.RoleContributor]:
		return 403
	case status == "publish":
		if rank >= roleRank[calendar.RoleAuthor] {
			return 200
		}
		return 403
	}
	return 200
}

// TestPermissionMatrix: every role against own and others' events, venues
// and organizers, published and draft, on by-id and by-slug routes.
func TestPermissionMatrix(t *testing.T) {
	e := newEnv(t)
	roles := []calendar.Role{calendar.RoleAnonymous, calendar.RoleSubscriber, calendar.RoleContributor,
		calendar.RoleAuthor, calendar.RoleEditor, calendar.RoleAdministrator}
	n := 0
	for _, kind := range []string{"events", "venues", "organizers"} {
		for _, role := range roles {
			for _, own := range []bool{true, false} {
				if own && role == calendar.RoleAnonymous {
					continue
				}
				for _, status := range []string{"publish", "draft"} {
					for _, bySlug := range []bool{false, true} {
						for _, action := range []string{"read", "update", "delete"} {
							n++
							owner := int64(idAuthor2)
							if own {
								owner = roleID[role]
							}
							if !own && role == calendar.RoleAuthor {
								owner = idContributor2
							}
							id, slug := e.mkPost(kind, owner, status, fmt.Sprintf("rec %d", n))
							path := fmt.Sprintf("%s/%s/%d", testNS, kind, id)
							if bySlug {
								path = fmt.Sprintf("%s/%s/by-slug/%s", testNS, kind, slug)
							}
							var opts []reqOpt
							if u := roleUser[role]; u != "" {
								opts = append(opts, user(u))
							}
							method, body := "GET", any(nil)
							switch action {
							case "update":
								method, body = "PATCH", map[string]any{"description": "changed"}
							case "delete":
								method = "DELETE"
							}
							want := expectedStatus(role, own, status, action)
							r := e.do(method, path, body, opts...)
							if r.Code != want {
								t.Errorf("%s %s own=%v %s slug=%v %s: %d, want %d (%s)", kind, role, own, status, bySlug, action, r.Code, want, r.Raw)
								continue
							}
							if want >= 400 && (action != "read" && r.errCode() != "rest_forbidden") {
								t.Errorf("%s %s %s: code %s", kind, role, action, r.errCode())
							}
							// A refused write changed nothing.
							if want >= 400 && action != "read" {
								st, desc := e.postState(kind, id)
								if st != status || desc != "" {
									t.Errorf("%s %s %s refused but record changed: %s %q", kind, role, action, st, desc)
								}
							}
						}
					}
				}
			}
		}
	}
}

// mkPost creates an event, venue or organizer owned by owner (as the system).
func (e *env) mkPost(kind string, owner int64, status, name string) (int64, string) {
	e.t.Helper()
	ctx := as(0)
	switch kind {
	case "events":
		ev, err := e.cal.CreateEvent(ctx, calendar.EventInput{Title: calendar.Some(name), Author: calendar.Some(owner),
			Status: calendar.Some(calendar.Status(status)), StartDate: calendar.Some("2026-12-20 10:00"), EndDate: calendar.Some("2026-12-20 11:00")}, calendar.WriteOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		return ev.ID, ev.Slug
	case "venues":
		v, err := e.cal.CreateVenue(ctx, calendar.VenueInput{Name: calendar.Some(name), Author: calendar.Some(owner), Status: calendar.Some(calendar.Status(status))}, calendar.WriteOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		return v.ID, v.Slug
	}
	o, err := e.cal.CreateOrganizer(ctx, calendar.OrganizerInput{Name: calendar.Some(name), Author: calendar.Some(owner), Status: calendar.Some(calendar.Status(status))}, calendar.WriteOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	return o.ID, o.Slug
}

func (e *env) postState(kind string, id int64) (string, string) {
	ctx := as(0)
	switch kind {
	case "events":
		ev := must[*calendar.Event](e.t)(e.cal.GetEvent(ctx, refID(id), readOpts()))
		return string(ev.Status), ev.Description
	case "venues":
		v := must[*calendar.Venue](e.t)(e.cal.GetVenue(ctx, refID(id), readOpts()))
		return string(v.Status), v.Description
	}
	o := must[*calendar.Organizer](e.t)(e.cal.GetOrganizer(ctx, refID(id), readOpts()))
	return string(o.Status), o.Description
}

// TestNothingHiddenLeaks: drafts, private, trashed and password-protected
// content never shows through lists, embedded records, slugs, include or
// search to callers who may not read it.
func TestNothingHiddenLeaks(t *testing.T) {
	e := newEnv(t)
	hiddenVenue := must[*calendar.Venue](t)(e.cal.CreateVenue(as(idContributor), calendar.VenueInput{Name: calendar.Some("Leakvenue Hall"), Address: calendar.Some("LEAKADDR")}, calendar.WriteOptions{}))
	hiddenOrg := must[*calendar.Organizer](t)(e.cal.CreateOrganizer(as(idContributor), calendar.OrganizerInput{Name: calendar.Some("Leakorg Crew")}, calendar.WriteOptions{}))
	public := e.mkEvent(0, "Public Gala", "2026-12-02 19:00", "publish", func(in *calendar.EventInput) {
		in.Author = calendar.Some(int64(idAuthor))
		in.Venues = calendar.Some([]calendar.VenueRef{{ID: hiddenVenue.ID}})
		in.Organizers = calendar.Some([]calendar.OrganizerRef{{ID: hiddenOrg.ID}})
	})
	draft := e.mkEvent(idContributor, "Leakdraft Party", "2026-12-03 19:00", "draft")
	private := e.mkEvent(idAuthor, "Leakprivate Dinner", "2026-12-04 19:00", "private")
	trashed := e.mkEvent(idAuthor, "Leaktrash Show", "2026-12-05 19:00", "")
	must[*calendar.Event](t)(e.cal.DeleteEvent(as(idAuthor), refID(trashed), calendar.DeleteOptions{}))
	locked := e.mkEvent(idAuthor, "Locked Gala", "2026-12-06 19:00", "", func(in *calendar.EventInput) {
		in.Password = calendar.Some("pw")
		in.Description = calendar.Some("LEAKDESC")
		in.Cost = calendar.Some([]string{"$99"})
		in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some("Open Venue"), City: calendar.Some("LEAKCITY")}}})
	})
	ids := fmt.Sprintf("%d,%d,%d,%d,%d", public, draft, private, trashed, locked)
	queries := []string{
		"/events", "/events?include=" + ids, "/events?search=leakdraft", "/events?search=leakprivate",
		"/events?search=leaktrash", "/events?search=leakdesc", "/events?start_date=2000-01-01",
		"/venues", "/venues?search=leakvenue", "/venues?event=" + fmt.Sprint(public), "/venues?has_events=true",
		"/organizers", "/organizers?search=leakorg",
		fmt.Sprintf("/events/%d", public),
		"/events/by-slug/leakdraft-party", "/events/by-slug/leakprivate-dinner", "/events/by-slug/leaktrash-show",
		"/events/by-slug/locked-gala", fmt.Sprintf("/events/%d", locked), fmt.Sprintf("/venues/%d", hiddenVenue.ID),
		"/venues/by-slug/leakvenue-hall", "/organizers/by-slug/leakorg-crew",
	}
	for _, who := range []string{"", "subscriber", "contributor2"} {
		for _, q := range queries {
			var opts []reqOpt
			if who != "" {
				opts = append(opts, user(who))
			}
			r := e.do("GET", testNS+q, nil, opts...)
			if r.Code >= 500 {
				t.Errorf("%q %s: %d", who, q, r.Code)
			}
			for _, secret := range []string{"Leakdraft", "Leakprivate", "Leaktrash", "LEAKDESC", "Leakvenue", "LEAKADDR", "Leakorg", "LEAKCITY", "$99"} {
				// The protected event's venue is published in its own right:
				// only its embedding in the protected event is blanked.
				if secret == "LEAKCITY" && !strings.HasPrefix(q, "/events") {
					continue
				}
				if strings.Contains(r.Raw, secret) {
					t.Errorf("%q GET %s leaks %q: %s", who, q, secret, r.Raw)
				}
			}
		}
		// The protected event is listed with its content blanked.
		r := e.do("GET", testNS+"/events?include="+fmt.Sprint(locked), nil)
		evs := r.obj()["events"].([]any)
		if len(evs) != 1 {
			t.Fatalf("locked event not listed: %s", r.Raw)
		}
		ev := evs[0].(map[string]any)
		if ev["title"] != "Locked Gala" || ev["description"] != "" || ev["all_day"] != nil || ev["featured"] != nil ||
			ev["show_map"] != nil || ev["cost"] != "" || fmt.Sprint(ev["venue"]) != "[]" {
			t.Errorf("protected event not blanked: %v", ev)
		}
		// Asking for other statuses is refused outright.
		e.do("GET", testNS+"/events?status=draft", nil).must(t, 400)
	}
	// The owner and editors do see them.
	r := e.do("GET", testNS+"/events?status=draft,private", nil, user("editor")).must(t, 200)
	if !strings.Contains(r.Raw, "Leakdraft") || !strings.Contains(r.Raw, "Leakprivate") {
		t.Errorf("editor misses drafts: %s", r.Raw)
	}
	r = e.do("GET", fmt.Sprintf("%s/events/%d", testNS, locked), nil, user("author")).must(t, 200)
	if r.obj()["description"] != "LEAKDESC" {
		t.Errorf("owner sees blanked content")
	}
}

// TestBadInputChangesNothing: hostile bodies and arguments get a clean 4xx
// and leave the store as it was.
func TestBadInputChangesNothing(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	before := must[*calendar.Event](t)(e.cal.GetEvent(as(0), refID(f.event), readOpts()))
	count := func() int {
		p := must[*calendar.EventPage](t)(e.cal.ListEvents(as(0), calendar.EventQuery{StartDate: "1000-01-01", PerPage: 50}))
		return p.Total
	}
	n := count()
	deep := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	deepArr := `{"title":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}"
	path := fmt.Sprintf("%s/events/%d", testNS, f.event)
	for _, c := range []struct {
		name, method, path string
		body               any
		ct                 string
		status             int
	}{
		{"oversized", "POST", testNS + "/events", `{"title":"x","description":"` + strings.Repeat("x", 2<<20) + `"}`, "application/json", 413},
		{"oversized form", "PATCH", path, "description=" + strings.Repeat("x", 2<<20), "application/x-www-form-urlencoded", 413},
		{"malformed", "PATCH", path, `{"title": "x"`, "application/json", 400},
		{"trailing garbage", "PATCH", path, `{"title": "x"} {"title": "y"}`, "application/json", 400},
		{"not an object", "PATCH", path, `["title"]`, "application/json", 400},
		{"deep object", "PATCH", path, deep, "application/json", 400},
		{"deep array", "PATCH", path, deepArr, "application/json", 400},
		{"non-UTF-8 JSON", "PATCH", path, []byte("{\"title\": \"bad \xff\xfe\"}"), "application/json", 400},
		{"non-UTF-8 form", "PATCH", path, "title=bad%FF%FE", "application/x-www-form-urlencoded", 400},
		{"non-UTF-8 query", "PATCH", path + "?title=bad%FF", nil, "", 400},
		{"bad form escape", "PATCH", path, "title=%zz", "application/x-www-form-urlencoded", 400},
		{"xml", "PATCH", path, "<title>x</title>", "application/xml", 415},
		{"absurd date", "PATCH", path, map[string]any{"start_date": "99999-99-99 99:99"}, "application/json", 400},
		{"absurd end", "PATCH", path, map[string]any{"end_date": "1 quadrillion years"}, "application/json", 400},
		{"end before start", "PATCH", path, map[string]any{"start_date": "2026-12-01 20:00", "end_date": "2026-11-01 20:00"}, "application/json", 400},
		{"huge page", "GET", testNS + "/events?page=99999999999999999999999", nil, "", 400},
		{"huge index", "PATCH", path + "?categories[99999999]=1", nil, "", 400},
		{"absurd list date", "GET", testNS + "/events?start_date=0000-00-00", nil, "", 400},
		{"bad status", "PATCH", path, map[string]any{"status": "bogus"}, "application/json", 400},
		{"bad timezone", "PATCH", path, map[string]any{"timezone": "Mars/Olympus"}, "application/json", 400},
		{"bad website", "PATCH", path, map[string]any{"website": "javascript:alert(1)"}, "application/json", 400},
		{"bad image", "PATCH", path, map[string]any{"image": "file:///etc/passwd"}, "application/json", 400},
		{"bad venue ref", "PATCH", path, map[string]any{"venue": []any{"x y"}}, "application/json", 400},
		{"unknown venue id", "PATCH", path, map[string]any{"venue": 999999}, "application/json", 400},
		{"NUL in title", "POST", testNS + "/events", map[string]any{"title": "a\x00b", "start_date": "x", "end_date": "y"}, "application/json", 400},
	} {
		opts := []reqOpt{user("admin")}
		if c.ct != "" {
			opts = append(opts, header("Content-Type", c.ct))
		}
		r := e.do(c.method, c.path, c.body, opts...)
		if r.Code != c.status {
			t.Errorf("%s: %d, want %d: %.300s", c.name, r.Code, c.status, r.Raw)
		}
		if r.obj()["code"] == nil || r.obj()["data"] == nil {
			t.Errorf("%s: not an error envelope: %.200s", c.name, r.Raw)
		}
	}
	after := must[*calendar.Event](t)(e.cal.GetEvent(as(0), refID(f.event), readOpts()))
	if after.Version != before.Version || after.Title != before.Title {
		t.Errorf("event changed: version %d → %d", before.Version, after.Version)
	}
	if got := count(); got != n {
		t.Errorf("event count %d → %d", n, got)
	}
	// A per_page within int64 is clamped; beyond it, it is no integer.
	e.do("GET", testNS+"/events?per_page=9223372036854775807", nil).must(t, 200)
	e.do("GET", testNS+"/events?per_page=99999999999999999999", nil).must(t, 400)
}

// TestTermPermissions: categories need an author, tags an editor (domain §3),
// for create, update and delete; reads are open to everyone.
func TestTermPermissions(t *testing.T) {
	e := newEnv(t)
	roles := []calendar.Role{calendar.RoleAnonymous, calendar.RoleSubscriber, calendar.RoleContributor,
		calendar.RoleAuthor, calendar.RoleEditor, calendar.RoleAdministrator}
	n := 0
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		need := calendar.RoleAuthor
		if tax == calendar.TaxonomyTag {
			need = calendar.RoleEditor
		}
		coll := termCollection(tax)
		for _, role := range roles {
			var opts []reqOpt
			if u := roleUser[role]; u != "" {
				opts = append(opts, user(u))
			}
			want := 200
			switch {
			case role == calendar.RoleAnonymous:
				want = 401
			case roleRank[role] < roleRank[need]:
				want = 403
			}
			n++
			term := must[*calendar.Term](t)(e.cal.CreateTerm(as(0), tax, calendar.TermInput{Name: calendar.Some(fmt.Sprintf("Term %d", n))}, calendar.WriteOptions{}))
			path := fmt.Sprintf("%s%s/%d", testNS, coll, term.ID)
			e.do("GET", path, nil, opts...).must(t, 200)
			createWant := want
			if want == 200 {
				createWant = 201
			}
			if r := e.do("POST", testNS+coll, map[string]any{"name": fmt.Sprintf("New %d", n)}, opts...); r.Code != createWant {
				t.Errorf("%s %s create: %d, want %d", tax, role, r.Code, createWant)
			}
			if r := e.do("PATCH", path, map[string]any{"description": "changed"}, opts...); r.Code != want {
				t.Errorf("%s %s update: %d, want %d", tax, role, r.Code, want)
			}
			if r := e.do("DELETE", path, nil, opts...); r.Code != want {
				t.Errorf("%s %s delete: %d, want %d", tax, role, r.Code, want)
			}
			_, err := e.cal.GetTerm(as(0), tax, term.ID, calendar.ReadOptions{})
			if (err == nil) != (want != 200) {
				t.Errorf("%s %s: term still there = %v after a delete answered %d", tax, role, err == nil, want)
			}
		}
	}
}

// TestForceDeleteNeedsEditor: force=true from an author is refused and the
// event is neither removed nor trashed; an editor removes it for good.
func TestForceDeleteNeedsEditor(t *testing.T) {
	e := newEnv(t)
	id := e.mkEvent(idAuthor, "Mine", "2026-12-09 10:00", "")
	p := fmt.Sprintf("%s/events/%d", testNS, id)
	e.do("DELETE", p+"?force=true", nil, user("author")).must(t, 403)
	if st, _ := e.postState("events", id); st != "publish" {
		t.Errorf("status %s after a refused force delete", st)
	}
	e.do("DELETE", p, map[string]any{"force": "1"}, user("editor")).must(t, 200)
	if _, err := e.cal.GetEvent(as(0), refID(id), readOpts()); calendar.CodeOf(err) != calendar.CodeNotFound {
		t.Errorf("after force delete: %v", err)
	}
	e.do("GET", p, nil).must(t, 404)
}
