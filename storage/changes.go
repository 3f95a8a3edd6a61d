package storage

import (
	"context"
	"sync"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// ChangeSignal wakes the in-process waiters of a change log (memstore,
// boltstore): Notify after a commit that appended changes, and every
// goroutine blocked in Wait re-checks the log. The zero value is ready.
type ChangeSignal struct {
	mu sync.Mutex
	ch chan struct{}
}

// C returns a channel closed by the next Notify. Take it before checking the
// log, so that a commit between the check and the wait is not missed.
func (s *ChangeSignal) C() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// Notify wakes every waiter.
func (s *ChangeSignal) Notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// WaitChanges is calendar.ChangeLog.WaitChanges for a driver whose writes
// call sig.Notify: it returns once last reports a Seq above after.
func WaitChanges(ctx context.Context, sig *ChangeSignal, after int64, last func(context.Context) (int64, error)) error {
	for {
		ch := sig.C()
		n, err := last(ctx)
		if err != nil {
			return err
		}
		if n > after {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// StampChanges gives the changes of one committed write their Seq (from
// last+1 on), Time and Tx (the Seq of the first).
func StampChanges(cs []calendar.Change, last int64, now time.Time) {
	for i := range cs {
		cs[i].Seq = last + 1 + int64(i)
		cs[i].Time = now
		cs[i].Tx = last + 1
	}
}

// MaxTrimPerWrite bounds the changes one write removes for the retention,
// so a write never pays for a long backlog; more than it appends is enough
// for the log to shrink back within bounds, and TrimChanges clears the rest.
const MaxTrimPerWrite = 256
