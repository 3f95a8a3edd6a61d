package webhooks

import (
	"context"
	"sync"
	"time"
)

// MemoryChanges is a ChangeSource kept in memory: a change log for tests and
// for small embedders that produce changes themselves. Its zero value is
// not ready; use NewMemoryChanges.
type MemoryChanges struct {
	mu      sync.Mutex
	log     []Change // log[i].Seq == trimmed+1+i
	trimmed uint64   // Seq of the last change dropped by Trim
	grew    chan struct{}
	now     func() time.Time
}

// NewMemoryChanges returns an empty log. now stamps appended changes that
// have no Time (nil: time.Now).
func NewMemoryChanges(now func() time.Time) *MemoryChanges {
	if now == nil {
		now = time.Now
	}
	return &MemoryChanges{grew: make(chan struct{}), now: now}
}

// Append adds c to the log with the next Seq (and the current time when
// c.Time is zero), wakes the waiters and returns the change as stored. It
// never blocks on delivery.
func (m *MemoryChanges) Append(c Change) Change {
	m.mu.Lock()
	defer m.mu.Unlock()
	c.Seq = m.trimmed + uint64(len(m.log)) + 1
	if c.Time.IsZero() {
		c.Time = m.now()
	}
	m.log = append(m.log, c)
	close(m.grew)
	m.grew = make(chan struct{})
	return c
}

// Last returns the Seq of the last change, 0 for an empty log: the cursor a
// new subscription starts from.
func (m *MemoryChanges) Last() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.trimmed + uint64(len(m.log))
}

// Trim drops the changes with Seq up to upTo, as retention would; reading
// after an earlier cursor then fails with ErrCursorExpired.
func (m *MemoryChanges) Trim(upTo uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if upTo <= m.trimmed {
		return
	}
	n := min(upTo-m.trimmed, uint64(len(m.log)))
	m.log = append([]Change(nil), m.log[n:]...)
	m.trimmed += n
}

// Changes implements ChangeSource.
func (m *MemoryChanges) Changes(ctx context.Context, after uint64, limit int) ([]Change, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if after < m.trimmed {
		return nil, ErrCursorExpired
	}
	i := after - m.trimmed
	if i >= uint64(len(m.log)) || limit <= 0 {
		return nil, nil
	}
	end := min(uint64(len(m.log)), i+uint64(limit))
	return append([]Change(nil), m.log[i:end]...), nil
}

// Wait implements ChangeSource.
func (m *MemoryChanges) Wait(ctx context.Context, after uint64) (uint64, error) {
	for {
		m.mu.Lock()
		last, grew := m.trimmed+uint64(len(m.log)), m.grew
		m.mu.Unlock()
		if last > after {
			return last, nil
		}
		select {
		case <-grew:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
