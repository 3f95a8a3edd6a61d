package webhooks

import (
	"context"
	"errors"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// Admin lets administrators and System manage subscriptions and refuses
// everyone else, anonymous callers (no principal) included, on every method.
func TestAdminNeedsAnAdministrator(t *testing.T) {
	st := NewStoredSubscriptions(memstore.New().Documents("webhooks"), TargetPolicy{})
	a := NewAdmin(st)
	ctx := context.Background()
	as := func(p calendar.Principal) context.Context { return calendar.WithPrincipal(ctx, p) }
	sub, err := a.Create(as(calendar.System), Subscription{URL: "https://hooks.example.com/in", Types: []string{TypeAll}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ctx  context.Context
		want error
	}{
		{ctx, calendar.ErrUnauthenticated},
		{as(calendar.Principal{ID: 2, Role: calendar.RoleEditor}), calendar.ErrForbidden},
		{as(calendar.Principal{ID: 3, Role: calendar.RoleAuthor}), calendar.ErrForbidden},
		{as(calendar.Principal{ID: 1, Role: calendar.RoleAdministrator}), nil},
	} {
		who, _ := calendar.PrincipalFrom(c.ctx)
		_, e1 := a.List(c.ctx)
		_, e2 := a.Subscription(c.ctx, sub.ID)
		_, e3 := a.Update(c.ctx, sub.ID, func(s *Subscription) { s.URL = "https://hooks.example.com/other" })
		_, e4 := a.Enable(c.ctx, sub.ID)
		_, e5 := a.Create(c.ctx, Subscription{URL: "https://hooks.example.com/x", Types: []string{TypeAll}})
		for i, err := range []error{e1, e2, e3, e4, e5} {
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("method %d as %+v: %v, want %v", i+1, who, err, c.want)
			}
		}
	}
	if err := a.Delete(ctx, sub.ID); !errors.Is(err, calendar.ErrUnauthenticated) {
		t.Errorf("anonymous delete: %v", err)
	}
	if err := a.Delete(as(calendar.System), sub.ID); err != nil {
		t.Errorf("system delete: %v", err)
	}
}
