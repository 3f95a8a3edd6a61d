package webhooks

import (
	"context"
	"sync"
	"time"
)

// MemoryLeaser is a Leaser for dispatchers within one process. Its zero
// value is not ready; use NewMemoryLeaser.
type MemoryLeaser struct {
	mu     sync.Mutex
	now    func() time.Time
	leases map[string]memLease
}

type memLease struct {
	owner   string
	expires time.Time
}

// NewMemoryLeaser returns a leaser whose leases expire by now (nil:
// time.Now); tests with a fake Clock pass its Now.
func NewMemoryLeaser(now func() time.Time) *MemoryLeaser {
	if now == nil {
		now = time.Now
	}
	return &MemoryLeaser{now: now, leases: map[string]memLease{}}
}

// Acquire implements Leaser.
func (m *MemoryLeaser) Acquire(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if l, ok := m.leases[key]; ok && l.owner != owner && now.Before(l.expires) {
		return false, nil
	}
	m.leases[key] = memLease{owner: owner, expires: now.Add(ttl)}
	return true, nil
}

// Renew implements Leaser.
func (m *MemoryLeaser) Renew(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	l, ok := m.leases[key]
	if !ok || l.owner != owner || !now.Before(l.expires) {
		return false, nil
	}
	m.leases[key] = memLease{owner: owner, expires: now.Add(ttl)}
	return true, nil
}

// Release implements Leaser.
func (m *MemoryLeaser) Release(ctx context.Context, key, owner string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.leases[key]; ok && l.owner == owner {
		delete(m.leases, key)
	}
	return nil
}

// Holder returns the owner of lease key, "" when it is free or expired.
func (m *MemoryLeaser) Holder(key string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.leases[key]; ok && m.now().Before(l.expires) {
		return l.owner
	}
	return ""
}
