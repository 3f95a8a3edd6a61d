package httpadapter

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// concrete turns a route pattern into a path that can be requested.
func concrete(p string) string {
	p = strings.ReplaceAll(p, "{id}", "999999")
	return strings.ReplaceAll(p, "{slug}", "no-such-slug")
}

// TestDocMatchesRouter: every route the router serves is in /doc, and every
// documented path and method is served (answers something else than
// rest_no_route).
func TestDocMatchesRouter(t *testing.T) {
	e := newEnv(t)
	doc := e.do("GET", testNS+"/doc", nil).must(t, 200).obj()
	if doc["openapi"] != "3.0.3" || doc["info"].(map[string]any)["version"] != "1.0.0" {
		t.Errorf("header: %v %v", doc["openapi"], doc["info"])
	}
	if s := doc["servers"].([]any)[0].(map[string]any)["url"]; s != rest {
		t.Errorf("server url %v", s)
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	for _, n := range []string{"Event", "Venue", "Organizer", "Term", "Image", "DateDetails", "CostDetails", "Error"} {
		if schemas[n] == nil {
			t.Errorf("schema %s missing", n)
		}
	}
	documented := map[string]bool{}
	for path, item := range doc["paths"].(map[string]any) {
		for method := range item.(map[string]any) {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	served := map[string]bool{}
	for _, rt := range e.h.Routes() {
		p := rt.Path
		if p == "" {
			p = "/"
		}
		for _, m := range rt.Methods {
			served[m+" "+p] = true
		}
	}
	if diff := cmp.Diff(sortedSet(served), sortedSet(documented)); diff != "" {
		t.Errorf("served vs documented (-served +documented):\n%s", diff)
	}
	if len(served) != 2+3*(2+2+2+3+3)+2*(2+1+3+1)+4+1+5 { // +4: the iCalendar feeds and import; +1: changes; +5: webhooks
		t.Errorf("%d routes × methods served", len(served))
	}
	for key := range documented {
		method, path, _ := strings.Cut(key, " ")
		full := testNS + concrete(path)
		if path == "/" {
			full = testNS
		}
		r := e.do(method, full, nil, user("admin"))
		if r.errCode() == "rest_no_route" {
			t.Errorf("documented %s is not served", key)
		}
	}
	// And nothing outside the table is served: other methods on each path.
	for _, rt := range e.h.Routes() {
		for _, m := range []string{http.MethodPut, http.MethodDelete, http.MethodPatch} {
			if served[m+" "+rt.Path] || rt.Path == "" {
				continue
			}
			if r := e.do(m, testNS+concrete(rt.Path), nil, user("admin")); r.errCode() != "rest_no_route" {
				t.Errorf("%s %s served but not in the table: %d", m, rt.Path, r.Code)
			}
		}
	}
}

func sortedSet(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestNamespaceIndex(t *testing.T) {
	e := newEnv(t)
	for _, ns := range []string{"calendar/events/v1", "tribe/events/v1"} {
		idx := e.do("GET", "/wp-json/"+ns+"/", nil).must(t, 200).obj()
		if idx["namespace"] != ns {
			t.Errorf("namespace %v", idx["namespace"])
		}
		routes := idx["routes"].(map[string]any)
		if len(routes) != 2+3*3+2*2+4+1+2 { // +4: the iCalendar feeds and import; +1: changes; +2: webhooks
			t.Errorf("%d paths in the index", len(routes))
		}
		ev := routes["/"+ns+`/events/(?P<id>\d+)`].(map[string]any)
		if diff := cmp.Diff([]any{"GET", "POST", "PUT", "PATCH", "DELETE"}, ev["methods"]); diff != "" {
			t.Errorf("methods %s", diff)
		}
		args := ev["endpoints"].([]any)[0].(map[string]any)["args"].(map[string]any)
		if diff := cmp.Diff(map[string]any{"type": "integer", "required": true, "description": "Unique id of the record."}, args["id"]); diff != "" {
			t.Errorf("id arg %s", diff)
		}
		list := routes["/"+ns+"/events"].(map[string]any)["endpoints"].([]any)[0].(map[string]any)["args"].(map[string]any)
		if pp := list["per_page"].(map[string]any); pp["default"] != float64(9) || pp["required"] != false {
			t.Errorf("per_page %v", pp)
		}
		if st := list["status"].(map[string]any); st["items"] == nil {
			t.Errorf("status items %v", st)
		}
		for path := range routes {
			if !regexp.MustCompile(`^/` + regexp.QuoteMeta(ns)).MatchString(path) {
				t.Errorf("path %s outside the namespace", path)
			}
		}
	}
}

func TestDocOperationIDsAreUnique(t *testing.T) {
	e := newEnv(t)
	doc := e.do("GET", testNS+"/doc", nil).must(t, 200).obj()
	seen := map[string]string{}
	for path, item := range doc["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			id, _ := op.(map[string]any)["operationId"].(string)
			if id == "" || seen[id] != "" {
				t.Errorf("%s %s: operationId %q (also %s)", method, path, id, seen[id])
			}
			seen[id] = method + " " + path
		}
	}
}
