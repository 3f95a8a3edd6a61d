package httpadapter

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter/webhooks"
)

// WebhookAdmin is what the webhook routes manage: webhooks.StoredSubscriptions
// (or webhooks.MemorySubscriptions wrapped to take a context) implements it.
type WebhookAdmin interface {
	List(ctx context.Context) ([]webhooks.Subscription, error)
	Create(ctx context.Context, s webhooks.Subscription) (webhooks.Subscription, error)
	Subscription(ctx context.Context, id int64) (webhooks.Subscription, error)
	Update(ctx context.Context, id int64, f func(*webhooks.Subscription)) (webhooks.Subscription, error)
	Enable(ctx context.Context, id int64) (webhooks.Subscription, error)
	Delete(ctx context.Context, id int64) error
}

// WebhookConfig wires the webhook admin routes: where subscriptions live,
// where a new one starts (the change log's last Seq, e.g.
// webhooks.CalendarChanges.Last) and what to tell the dispatcher after a
// change (Dispatcher.Refresh; may be nil).
type WebhookConfig struct {
	Admin   WebhookAdmin
	Start   func(ctx context.Context) (uint64, error)
	Refresh func()
}

// WithWebhooks serves GET/POST {ns}/webhooks and GET/PATCH/DELETE
// {ns}/webhooks/{id} to administrators (see docs/webhooks.md). Without it
// those routes answer 404.
func WithWebhooks(wc WebhookConfig) Option { return func(c *config) { c.webhooks = &wc } }

func (h *Handler) webhookRoutes() []*Route {
	idArg := Arg{Name: "id", Type: "integer", Required: true, Description: "Subscription id."}
	write := []Arg{
		{Name: "url", Type: "string", Description: "Target URL (https, or http when the server allows it)."},
		{Name: "events", Type: "array", Items: "string", Description: `Event types ("event.created", …, or "*").`},
		{Name: "filter", Type: "object", Description: "Optional {categories, venues, organizers} id lists."},
	}
	patch := append([]Arg{idArg}, append(write,
		Arg{Name: "status", Type: "string", Enum: []string{"active", "disabled"}, Description: "active re-enables a disabled subscription."},
		Arg{Name: "rotate_secret", Type: "boolean", Description: "Give the subscription a new secret, shown in the answer only."})...)
	return []*Route{
		{Methods: get, Path: "/webhooks", Summary: "List webhook subscriptions (administrators)", need: calendar.RoleAdministrator, serve: h.webhooksListH},
		{Methods: post, Path: "/webhooks", Summary: "Create a webhook subscription (administrators); the secret is shown once", Args: write, need: calendar.RoleAdministrator, serve: h.webhooksCreateH},
		{Methods: get, Path: "/webhooks/{id}", Summary: "Get a webhook subscription (administrators)", Args: []Arg{idArg}, need: calendar.RoleAdministrator, serve: h.webhookGetH},
		{Methods: []string{http.MethodPatch}, Path: "/webhooks/{id}", Summary: "Change, re-enable or rotate the secret of a webhook subscription (administrators)", Args: patch, need: calendar.RoleAdministrator, serve: h.webhookPatchH},
		{Methods: del, Path: "/webhooks/{id}", Summary: "Delete a webhook subscription (administrators)", Args: []Arg{idArg}, need: calendar.RoleAdministrator, serve: h.webhookDeleteH},
	}
}

// subscriptionJSON is a subscription on the wire; Secret only at creation
// and rotation.
type subscriptionJSON struct {
	ID             int64          `json:"id"`
	URL            string         `json:"url"`
	Events         []string       `json:"events"`
	Filter         map[string]any `json:"filter"`
	Status         string         `json:"status"`
	DisabledReason string         `json:"disabled_reason,omitempty"`
	Cursor         string         `json:"cursor"`
	FailingSince   string         `json:"failing_since,omitempty"`
	Attempts       int            `json:"attempts"`
	LastError      string         `json:"last_error,omitempty"`
	Secret         string         `json:"secret,omitempty"`
}

func subscriptionOut(s webhooks.Subscription, withSecret bool) subscriptionJSON {
	out := subscriptionJSON{ID: s.ID, URL: s.URL, Events: s.Types, Status: "active", DisabledReason: s.DisabledReason,
		Cursor: calendar.ChangeCursor(int64(s.Cursor)), Attempts: s.Attempts, LastError: s.LastError,
		Filter: map[string]any{"categories": ids(s.Filter.Categories), "venues": ids(s.Filter.Venues), "organizers": ids(s.Filter.Organizers)}}
	if s.Disabled {
		out.Status = "disabled"
	}
	if !s.FailingSince.IsZero() {
		out.FailingSince = s.FailingSince.UTC().Format(time.RFC3339)
	}
	if withSecret {
		out.Secret = s.Secret
	}
	return out
}

func ids(v []int64) []int64 {
	if v == nil {
		return []int64{}
	}
	return v
}

func (h *Handler) webhookAdmin() (*WebhookConfig, error) {
	if h.cfg.webhooks == nil || h.cfg.webhooks.Admin == nil {
		return nil, &httpError{http.StatusNotFound, "rest_webhooks_disabled", "Webhooks are not enabled on this server."}
	}
	return h.cfg.webhooks, nil
}

// webhookErr maps the webhooks package's errors to calendar errors.
func webhookErr(err error) error {
	var ie *webhooks.InvalidError
	switch {
	case errors.As(err, &ie):
		return &calendar.Error{Code: calendar.CodeInvalid, Reason: "rest_invalid_param", Message: "Invalid parameter(s): " + strings.Join(slices.Sorted(maps.Keys(ie.Params)), ", "), Params: ie.Params}
	case errors.Is(err, webhooks.ErrNotFound):
		return &calendar.Error{Code: calendar.CodeNotFound, Reason: "rest_webhook_invalid_id", Message: "Invalid webhook subscription ID."}
	}
	return err
}

func (wc *WebhookConfig) refresh() {
	if wc.Refresh != nil {
		wc.Refresh()
	}
}

func (h *Handler) webhooksListH(ctx context.Context, w http.ResponseWriter, _ *http.Request, _ *reqState) error {
	wc, err := h.webhookAdmin()
	if err != nil {
		return err
	}
	subs, err := wc.Admin.List(ctx)
	if err != nil {
		return webhookErr(err)
	}
	out := make([]subscriptionJSON, len(subs))
	for i, s := range subs {
		out[i] = subscriptionOut(s, false)
	}
	return writeJSONValue(w, out)
}

// applySubscriptionArgs sets the fields the request names.
func applySubscriptionArgs(args map[string]any, s *webhooks.Subscription) error {
	if v, ok := args["url"]; ok {
		u, _ := v.(string)
		s.URL = strings.TrimSpace(u)
	}
	if v, ok := args["events"]; ok {
		var ts []string
		switch x := v.(type) {
		case string:
			ts = strings.Split(x, ",")
		case []any:
			for _, e := range x {
				t, ok := e.(string)
				if !ok {
					return invalidArg("events", "events must be a list of event types.")
				}
				ts = append(ts, t)
			}
		default:
			return invalidArg("events", "events must be a list of event types.")
		}
		for i := range ts {
			ts[i] = strings.TrimSpace(ts[i])
		}
		s.Types = ts
	}
	if v, ok := args["filter"]; ok {
		m, ok := v.(map[string]any)
		if !ok && v != nil {
			return invalidArg("filter", "filter must be an object of id lists.")
		}
		var f webhooks.Filter
		for name, dst := range map[string]*[]int64{"categories": &f.Categories, "venues": &f.Venues, "organizers": &f.Organizers} {
			list, _ := m[name].([]any)
			for _, e := range list {
				var n int64
				var err error
				switch x := e.(type) {
				case json.Number:
					n, err = x.Int64()
				case string:
					n, err = strconv.ParseInt(x, 10, 64)
				default:
					err = errors.New("not an id")
				}
				if err != nil || n <= 0 {
					return invalidArg("filter", "filter."+name+" must list positive ids.")
				}
				*dst = append(*dst, n)
			}
		}
		s.Filter = f
	}
	return nil
}

func (h *Handler) webhooksCreateH(ctx context.Context, w http.ResponseWriter, _ *http.Request, s *reqState) error {
	wc, err := h.webhookAdmin()
	if err != nil {
		return err
	}
	var sub webhooks.Subscription
	if err := applySubscriptionArgs(s.args, &sub); err != nil {
		return err
	}
	if wc.Start != nil {
		if sub.Cursor, err = wc.Start(ctx); err != nil {
			return err
		}
	}
	created, err := wc.Admin.Create(ctx, sub)
	if err != nil {
		return webhookErr(err)
	}
	wc.refresh()
	b, err := json.Marshal(subscriptionOut(created, true))
	if err != nil {
		return err
	}
	writeBody(w, http.StatusCreated, b)
	return nil
}

func pathID(s *reqState) (int64, error) {
	raw, _ := s.args["id"].(string)
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return 0, &calendar.Error{Code: calendar.CodeNotFound, Reason: "rest_webhook_invalid_id", Message: "Invalid webhook subscription ID."}
	}
	return id, nil
}

// addressedWebhook reads the subscription the path's id names.
func (h *Handler) addressedWebhook(ctx context.Context, s *reqState) (*WebhookConfig, int64, webhooks.Subscription, error) {
	wc, err := h.webhookAdmin()
	if err != nil {
		return nil, 0, webhooks.Subscription{}, err
	}
	id, err := pathID(s)
	if err != nil {
		return nil, 0, webhooks.Subscription{}, err
	}
	sub, err := wc.Admin.Subscription(ctx, id)
	if err != nil {
		return nil, 0, webhooks.Subscription{}, webhookErr(err)
	}
	return wc, id, sub, nil
}

func (h *Handler) webhookGetH(ctx context.Context, w http.ResponseWriter, _ *http.Request, s *reqState) error {
	_, _, sub, err := h.addressedWebhook(ctx, s)
	if err != nil {
		return err
	}
	return writeJSONValue(w, subscriptionOut(sub, false))
}

func (h *Handler) webhookPatchH(ctx context.Context, w http.ResponseWriter, _ *http.Request, s *reqState) error {
	wc, err := h.webhookAdmin()
	if err != nil {
		return err
	}
	id, err := pathID(s)
	if err != nil {
		return err
	}
	var patch webhooks.Subscription
	if err := applySubscriptionArgs(s.args, &patch); err != nil {
		return err
	}
	status, _ := s.args["status"].(string)
	if status != "" && status != "active" && status != "disabled" {
		return invalidArg("status", "status is active or disabled.")
	}
	rotate := false
	switch v := s.args["rotate_secret"].(type) {
	case bool:
		rotate = v
	case string:
		rotate = v == "true" || v == "1"
	}
	var secret string
	if rotate {
		if secret, err = webhooks.NewSecret(); err != nil {
			return err
		}
	}
	if status == "active" {
		if _, err := wc.Admin.Enable(ctx, id); err != nil {
			return webhookErr(err)
		}
	}
	sub, err := wc.Admin.Update(ctx, id, func(cur *webhooks.Subscription) {
		if _, ok := s.args["url"]; ok {
			cur.URL = patch.URL
		}
		if _, ok := s.args["events"]; ok {
			cur.Types = patch.Types
		}
		if _, ok := s.args["filter"]; ok {
			cur.Filter = patch.Filter
		}
		if status == "disabled" && !cur.Disabled {
			cur.Disabled, cur.DisabledReason = true, "disabled by an administrator"
		}
		if rotate {
			cur.Secret = secret
		}
	})
	if err != nil {
		return webhookErr(err)
	}
	wc.refresh()
	return writeJSONValue(w, subscriptionOut(sub, rotate))
}

func (h *Handler) webhookDeleteH(ctx context.Context, w http.ResponseWriter, _ *http.Request, s *reqState) error {
	wc, id, sub, err := h.addressedWebhook(ctx, s)
	if err != nil {
		return err
	}
	if err := wc.Admin.Delete(ctx, id); err != nil {
		return webhookErr(err)
	}
	wc.refresh()
	return writeJSONValue(w, map[string]any{"deleted": true, "previous": subscriptionOut(sub, false)})
}
