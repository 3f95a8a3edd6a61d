package webhooks

import (
	"cmp"
	"context"
	"slices"
	"sync"
)

// MemorySubscriptions is a SubscriptionStore kept in memory, with the admin
// operations a small embedder needs. Its zero value is not ready; use
// NewMemorySubscriptions.
type MemorySubscriptions struct {
	mu     sync.Mutex
	policy TargetPolicy
	last   int64
	subs   map[int64]*Subscription
}

// NewMemorySubscriptions returns an empty store that validates targets
// under p.
func NewMemorySubscriptions(p TargetPolicy) *MemorySubscriptions {
	return &MemorySubscriptions{policy: p, subs: map[int64]*Subscription{}}
}

// Create stores s as a new subscription with the next id, a new secret when
// s.Secret is "", and returns it. Set s.Cursor to the change log's last Seq
// to deliver only later changes. An invalid s is an *InvalidError.
func (m *MemorySubscriptions) Create(s Subscription) (Subscription, error) {
	if s.Secret == "" {
		sec, err := NewSecret()
		if err != nil {
			return Subscription{}, err
		}
		s.Secret = sec
	}
	if err := s.Validate(m.policy); err != nil {
		return Subscription{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.last++
	s.ID = m.last
	m.subs[s.ID] = clone(&s)
	return s, nil
}

// Update changes a subscription through f (URL, types, filter, secret,
// Disabled, Cursor…) and returns it; the id cannot change. An invalid
// result is an *InvalidError and changes nothing.
func (m *MemorySubscriptions) Update(id int64, f func(*Subscription)) (Subscription, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, ok := m.subs[id]
	if !ok {
		return Subscription{}, ErrNotFound
	}
	s := *clone(cur)
	f(&s)
	s.ID = id
	if err := s.Validate(m.policy); err != nil {
		return Subscription{}, err
	}
	if !s.Disabled {
		s.DisabledReason = ""
	}
	m.subs[id] = clone(&s)
	return s, nil
}

// Enable re-enables a subscription and clears its failure run; its cursor
// stays where it was.
func (m *MemorySubscriptions) Enable(id int64) error {
	_, err := m.Update(id, func(s *Subscription) {
		s.Disabled = false
		s.Progress = Progress{Cursor: s.Cursor}
	})
	return err
}

// Delete removes a subscription.
func (m *MemorySubscriptions) Delete(id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.subs[id]; !ok {
		return ErrNotFound
	}
	delete(m.subs, id)
	return nil
}

// ActiveSubscriptions implements SubscriptionStore, in id order.
func (m *MemorySubscriptions) ActiveSubscriptions(ctx context.Context) ([]Subscription, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Subscription
	for _, s := range m.subs {
		if !s.Disabled {
			out = append(out, *clone(s))
		}
	}
	slices.SortFunc(out, func(a, b Subscription) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// Subscription implements SubscriptionStore.
func (m *MemorySubscriptions) Subscription(ctx context.Context, id int64) (Subscription, error) {
	if err := ctx.Err(); err != nil {
		return Subscription{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.subs[id]
	if !ok {
		return Subscription{}, ErrNotFound
	}
	return *clone(s), nil
}

// SaveProgress implements SubscriptionStore.
func (m *MemorySubscriptions) SaveProgress(ctx context.Context, id int64, p Progress) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.subs[id]
	if !ok {
		return ErrNotFound
	}
	p.Cursor = max(p.Cursor, s.Cursor)
	s.Progress = p
	return nil
}

// Disable implements SubscriptionStore.
func (m *MemorySubscriptions) Disable(ctx context.Context, id int64, p Progress, reason string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.subs[id]
	if !ok {
		return ErrNotFound
	}
	p.Cursor = max(p.Cursor, s.Cursor)
	s.Progress = p
	s.Disabled, s.DisabledReason = true, reason
	return nil
}

func clone(s *Subscription) *Subscription {
	c := *s
	c.Types = slices.Clone(s.Types)
	c.Filter = Filter{
		Categories: slices.Clone(s.Filter.Categories),
		Venues:     slices.Clone(s.Filter.Venues),
		Organizers: slices.Clone(s.Filter.Organizers),
	}
	return &c
}
