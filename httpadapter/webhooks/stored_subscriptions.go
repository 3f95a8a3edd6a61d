package webhooks

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Documents is where StoredSubscriptions keeps subscriptions: a keyed set of
// small documents with an id sequence and an atomic read-modify-write. The
// storage drivers offer one per calendar, beside its records
// (boltstore.Store.Documents, redisstore.Store.Documents,
// memstore.Store.Documents), so subscriptions live — and are backed up,
// and shared between instances on Redis — with the calendar.
type Documents interface {
	// NextID returns a new id, never handed out before.
	NextID(ctx context.Context) (int64, error)
	// Get returns document id, or nil when there is none.
	Get(ctx context.Context, id int64) ([]byte, error)
	// All returns every document by id.
	All(ctx context.Context) (map[int64][]byte, error)
	// Update replaces document id (nil: missing) by what fn returns (nil:
	// delete it) atomically: no other Update of id comes in between. An
	// error from fn changes nothing and is returned.
	Update(ctx context.Context, id int64, fn func(old []byte) ([]byte, error)) error
}

// StoredSubscriptions is a SubscriptionStore on Documents, with the admin
// operations (create, list, update, enable, delete).
type StoredSubscriptions struct {
	docs   Documents
	policy TargetPolicy
}

var _ SubscriptionStore = (*StoredSubscriptions)(nil)

// NewStoredSubscriptions returns the subscriptions kept in docs, whose
// targets are validated under p.
func NewStoredSubscriptions(docs Documents, p TargetPolicy) *StoredSubscriptions {
	return &StoredSubscriptions{docs: docs, policy: p}
}

// storedSub is the stored form of a Subscription: its own field names, so
// renaming a Go field never changes what is stored.
type storedSub struct {
	URL            string    `json:"url"`
	Secret         string    `json:"secret"`
	Types          []string  `json:"types"`
	Categories     []int64   `json:"cats,omitempty"`
	Venues         []int64   `json:"venues,omitempty"`
	Organizers     []int64   `json:"orgs,omitempty"`
	Disabled       bool      `json:"disabled,omitempty"`
	DisabledReason string    `json:"disabled_reason,omitempty"`
	Cursor         uint64    `json:"cursor"`
	FailingSince   time.Time `json:"failing_since,omitzero"`
	Attempts       int       `json:"attempts,omitempty"`
	LastError      string    `json:"last_error,omitempty"`
}

func encodeSub(s *Subscription) ([]byte, error) {
	return json.Marshal(storedSub{URL: s.URL, Secret: s.Secret, Types: s.Types,
		Categories: s.Filter.Categories, Venues: s.Filter.Venues, Organizers: s.Filter.Organizers,
		Disabled: s.Disabled, DisabledReason: s.DisabledReason, Cursor: s.Cursor,
		FailingSince: s.FailingSince, Attempts: s.Attempts, LastError: s.LastError})
}

func decodeSub(id int64, b []byte) (Subscription, error) {
	var d storedSub
	if err := json.Unmarshal(b, &d); err != nil {
		return Subscription{}, fmt.Errorf("webhooks: subscription %d: undecodable: %w", id, err)
	}
	return Subscription{ID: id, URL: d.URL, Secret: d.Secret, Types: d.Types,
		Filter:   Filter{Categories: d.Categories, Venues: d.Venues, Organizers: d.Organizers},
		Disabled: d.Disabled, DisabledReason: d.DisabledReason,
		Progress: Progress{Cursor: d.Cursor, FailingSince: d.FailingSince, Attempts: d.Attempts, LastError: d.LastError}}, nil
}

// Create stores s as a new subscription with a new id and, when s.Secret is
// "", a new secret, and returns it. Set s.Cursor to the change log's last
// Seq (CalendarChanges.Last) to deliver only later changes. An invalid s is
// an *InvalidError.
func (st *StoredSubscriptions) Create(ctx context.Context, s Subscription) (Subscription, error) {
	if s.Secret == "" {
		sec, err := NewSecret()
		if err != nil {
			return Subscription{}, err
		}
		s.Secret = sec
	}
	if err := s.Validate(st.policy); err != nil {
		return Subscription{}, err
	}
	id, err := st.docs.NextID(ctx)
	if err != nil {
		return Subscription{}, err
	}
	s.ID = id
	b, err := encodeSub(&s)
	if err != nil {
		return Subscription{}, err
	}
	err = st.docs.Update(ctx, id, func(old []byte) ([]byte, error) {
		if old != nil {
			return nil, fmt.Errorf("webhooks: subscription id %d handed out twice", id)
		}
		return b, nil
	})
	return s, err
}

// List returns every subscription, disabled ones included, in id order.
func (st *StoredSubscriptions) List(ctx context.Context) ([]Subscription, error) {
	all, err := st.docs.All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Subscription, 0, len(all))
	for id, b := range all {
		s, err := decodeSub(id, b)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Subscription) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// change applies f to subscription id atomically and returns the result.
func (st *StoredSubscriptions) change(ctx context.Context, id int64, f func(*Subscription) error) (Subscription, error) {
	var out Subscription
	err := st.docs.Update(ctx, id, func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, ErrNotFound
		}
		s, err := decodeSub(id, old)
		if err != nil {
			return nil, err
		}
		if err := f(&s); err != nil {
			return nil, err
		}
		s.ID, out = id, s
		return encodeSub(&s)
	})
	return out, err
}

// Update changes a subscription through f (URL, types, filter, secret,
// Disabled, Cursor…) and returns it; the id cannot change. An invalid
// result is an *InvalidError and changes nothing.
func (st *StoredSubscriptions) Update(ctx context.Context, id int64, f func(*Subscription)) (Subscription, error) {
	return st.change(ctx, id, func(s *Subscription) error {
		f(s)
		if !s.Disabled {
			s.DisabledReason = ""
		}
		return s.Validate(st.policy)
	})
}

// Enable re-enables a subscription and clears its failure run; its cursor
// stays where it was.
func (st *StoredSubscriptions) Enable(ctx context.Context, id int64) (Subscription, error) {
	return st.Update(ctx, id, func(s *Subscription) {
		s.Disabled = false
		s.Progress = Progress{Cursor: s.Cursor}
	})
}

// Delete removes a subscription.
func (st *StoredSubscriptions) Delete(ctx context.Context, id int64) error {
	return st.docs.Update(ctx, id, func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, ErrNotFound
		}
		return nil, nil
	})
}

// ActiveSubscriptions implements SubscriptionStore, in id order.
func (st *StoredSubscriptions) ActiveSubscriptions(ctx context.Context) ([]Subscription, error) {
	all, err := st.List(ctx)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(s Subscription) bool { return s.Disabled }), nil
}

// Subscription implements SubscriptionStore.
func (st *StoredSubscriptions) Subscription(ctx context.Context, id int64) (Subscription, error) {
	b, err := st.docs.Get(ctx, id)
	if err != nil {
		return Subscription{}, err
	}
	if b == nil {
		return Subscription{}, ErrNotFound
	}
	return decodeSub(id, b)
}

// SaveProgress implements SubscriptionStore; the cursor never moves back.
func (st *StoredSubscriptions) SaveProgress(ctx context.Context, id int64, p Progress) error {
	_, err := st.change(ctx, id, func(s *Subscription) error {
		p.Cursor = max(p.Cursor, s.Cursor)
		s.Progress = p
		return nil
	})
	return err
}

// Disable implements SubscriptionStore.
func (st *StoredSubscriptions) Disable(ctx context.Context, id int64, p Progress, reason string) error {
	_, err := st.change(ctx, id, func(s *Subscription) error {
		p.Cursor = max(p.Cursor, s.Cursor)
		s.Progress = p
		s.Disabled, s.DisabledReason = true, reason
		return nil
	})
	return err
}
