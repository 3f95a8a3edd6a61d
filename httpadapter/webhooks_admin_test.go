package httpadapter

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"github.com/eventcal/eventcal/httpadapter/webhooks"
	"github.com/eventcal/eventcal/memstore"
)

func TestWebhookAdminRoutes(t *testing.T) {
	store := webhooks.NewStoredSubscriptions(memstore.New().Documents("webhooks"), webhooks.TargetPolicy{})
	refreshed := 0
	e := newEnv(t, WithWebhooks(WebhookConfig{Admin: store,
		Start:   func(context.Context) (uint64, error) { return 41, nil },
		Refresh: func() { refreshed++ }}))
	path := testNS + "/webhooks"
	e.do("GET", path, nil).must(t, http.StatusUnauthorized)
	for _, u := range []string{"editor", "author", "subscriber"} {
		if r := e.do("GET", path, nil, user(u)); r.Code != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403", u, r.Code)
		}
	}
	bad := e.do("POST", path, map[string]any{"url": "http://127.0.0.1/hook", "events": []string{"event.nope"}}, user("admin")).must(t, http.StatusBadRequest)
	if p, _ := bad.obj()["data"].(map[string]any)["params"].(map[string]any); p["url"] == nil || p["events"] == nil {
		t.Errorf("invalid create names its arguments: %s", bad.Raw)
	}
	created := e.do("POST", path, map[string]any{"url": "https://hooks.example.com/in", "events": []string{"event.created", "venue.deleted"},
		"filter": map[string]any{"venues": []int{7}}}, user("admin")).must(t, http.StatusCreated).obj()
	secret, _ := created["secret"].(string)
	if len(secret) < 10 || created["status"] != "active" || created["cursor"] == "" || refreshed != 1 {
		t.Fatalf("created: %v (refreshed %d)", created, refreshed)
	}
	id := strconv.FormatInt(int64(created["id"].(float64)), 10)
	stored, err := store.Subscription(context.Background(), int64(created["id"].(float64)))
	if err != nil || stored.Cursor != 41 || stored.Secret != secret || stored.Filter.Venues[0] != 7 {
		t.Fatalf("stored: %+v, %v", stored, err)
	}
	got := e.do("GET", path+"/"+id, nil, user("admin")).must(t, http.StatusOK).obj()
	if _, shown := got["secret"]; shown || got["url"] != "https://hooks.example.com/in" {
		t.Fatalf("get shows the secret or the wrong record: %v", got)
	}
	if list := e.do("GET", path, nil, user("admin")).must(t, http.StatusOK).JSON.([]any); len(list) != 1 {
		t.Fatalf("list: %v", list)
	}
	dis := e.do("PATCH", path+"/"+id, map[string]any{"status": "disabled", "events": []string{"*"}}, user("admin")).must(t, http.StatusOK).obj()
	if dis["status"] != "disabled" || dis["events"].([]any)[0] != "*" {
		t.Fatalf("patch: %v", dis)
	}
	rot := e.do("PATCH", path+"/"+id, map[string]any{"status": "active", "rotate_secret": true}, user("admin")).must(t, http.StatusOK).obj()
	if rot["status"] != "active" || rot["secret"] == nil || rot["secret"] == secret {
		t.Fatalf("re-enable and rotate: %v", rot)
	}
	e.do("PATCH", path+"/"+id, map[string]any{"url": "ftp://x"}, user("admin")).must(t, http.StatusBadRequest)
	e.do("DELETE", path+"/"+id, nil, user("admin")).must(t, http.StatusOK)
	e.do("GET", path+"/"+id, nil, user("admin")).must(t, http.StatusNotFound)
	e.do("DELETE", path+"/"+id, nil, user("admin")).must(t, http.StatusNotFound)
	e.do("GET", path+"/abc", nil, user("admin")).must(t, http.StatusNotFound)
}

func TestWebhookRoutesOffByDefault(t *testing.T) {
	e := newEnv(t)
	e.do("GET", testNS+"/webhooks", nil, user("admin")).must(t, http.StatusNotFound)
}
