package webhooks

import (
	"context"

	"github.com/eventcal/eventcal/calendar"
)

// Admin is the in-process administration of stored subscriptions, for
// administrators only, like the HTTP routes: the caller is the principal on
// ctx (calendar.WithPrincipal); none is anonymous and is refused, and
// trusted code passes calendar.System. The dispatcher reads and advances
// subscriptions through StoredSubscriptions itself, unchecked.
type Admin struct {
	st *StoredSubscriptions
}

// NewAdmin returns the administration of st's subscriptions.
func NewAdmin(st *StoredSubscriptions) *Admin { return &Admin{st: st} }

// allowed refuses every caller but administrators and System.
func allowed(ctx context.Context) error {
	p, _ := calendar.PrincipalFrom(ctx)
	switch {
	case p.IsSystem() || p.Role == calendar.RoleAdministrator && p.ID > 0:
		return nil
	case p.IsAnonymous():
		return &calendar.Error{Code: calendar.CodeUnauthenticated, Reason: "rest_forbidden", Message: "Managing webhooks needs an administrator's credentials."}
	}
	return &calendar.Error{Code: calendar.CodeForbidden, Reason: "rest_forbidden", Message: "Only administrators manage webhooks."}
}

// List returns every subscription, without secrets.
func (a *Admin) List(ctx context.Context) ([]Subscription, error) {
	if err := allowed(ctx); err != nil {
		return nil, err
	}
	return a.st.List(ctx)
}

// Create stores a new subscription (see StoredSubscriptions.Create).
func (a *Admin) Create(ctx context.Context, s Subscription) (Subscription, error) {
	if err := allowed(ctx); err != nil {
		return Subscription{}, err
	}
	return a.st.Create(ctx, s)
}

// Subscription returns one subscription.
func (a *Admin) Subscription(ctx context.Context, id int64) (Subscription, error) {
	if err := allowed(ctx); err != nil {
		return Subscription{}, err
	}
	return a.st.Subscription(ctx, id)
}

// Update changes a subscription (see StoredSubscriptions.Update).
func (a *Admin) Update(ctx context.Context, id int64, f func(*Subscription)) (Subscription, error) {
	if err := allowed(ctx); err != nil {
		return Subscription{}, err
	}
	return a.st.Update(ctx, id, f)
}

// Enable re-enables a disabled subscription (see StoredSubscriptions.Enable).
func (a *Admin) Enable(ctx context.Context, id int64) (Subscription, error) {
	if err := allowed(ctx); err != nil {
		return Subscription{}, err
	}
	return a.st.Enable(ctx, id)
}

// Delete removes a subscription.
func (a *Admin) Delete(ctx context.Context, id int64) error {
	if err := allowed(ctx); err != nil {
		return err
	}
	return a.st.Delete(ctx, id)
}
