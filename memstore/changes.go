package memstore

import (
	"context"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// Option configures a Store.
type Option func(*Store)

// WithChangeRetention sets how long and how many changes the change log
// keeps (calendar.ChangeRetention.Normalized applies; default 30 days, at
// most a million).
func WithChangeRetention(r calendar.ChangeRetention) Option {
	return func(s *Store) { s.retention = r.Normalized() }
}

var _ calendar.ChangeLog = (*Store)(nil)

// changeLog is the store's log: log[i] has Seq trimmed+1+i. Guarded by
// Store.mu like the records, so a write and its changes are one.
type changeLog struct {
	log     []calendar.Change
	trimmed int64 // the Seq of the newest change removed by the retention
	sig     storage.ChangeSignal
}

func (l *changeLog) last() int64 { return l.trimmed + int64(len(l.log)) }

// commitChanges appends the changes of a write that is about to return
// success (the caller holds the write lock) and trims at most a bounded
// number of old ones.
func (s *Store) commitChanges(cs []calendar.Change) {
	if len(cs) == 0 {
		return
	}
	now := time.Now().UTC()
	storage.StampChanges(cs, s.changes.last(), now)
	s.changes.log = append(s.changes.log, cs...)
	s.trimChanges(now, storage.MaxTrimPerWrite+len(cs))
	s.changes.sig.Notify()
}

// trimChanges removes up to max changes from the front that the retention
// no longer keeps; it looks at no more entries than it removes, plus one.
func (s *Store) trimChanges(now time.Time, max int) {
	l := &s.changes
	cut := now.Add(-s.retention.MaxAge)
	n := 0
	for n < len(l.log) && n < max && (len(l.log)-n > s.retention.MaxCount || l.log[n].Time.Before(cut)) {
		n++
	}
	if n == 0 {
		return
	}
	l.trimmed += int64(n)
	l.log = l.log[n:]
	// Reslicing keeps the dropped entries' array alive; copy once the live
	// part is small against it.
	if cap(l.log) > 64 && len(l.log) < cap(l.log)/4 {
		l.log = append([]calendar.Change(nil), l.log...)
	}
}

// ChangesAfter implements calendar.ChangeLog.
func (s *Store) ChangesAfter(ctx context.Context, after int64, limit int) ([]calendar.Change, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 100
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	l := &s.changes
	if after < l.trimmed {
		return nil, fmt.Errorf("memstore: changes after %d: %w", after, calendar.ErrChangesExpired)
	}
	from := after - l.trimmed
	if from >= int64(len(l.log)) {
		return nil, nil
	}
	end := min(int64(len(l.log)), from+int64(limit))
	return append([]calendar.Change(nil), l.log[from:end]...), nil
}

// LastChangeSeq implements calendar.ChangeLog.
func (s *Store) LastChangeSeq(ctx context.Context) (int64, error) {
	if err := checkCtx(ctx); err != nil {
		return 0, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.changes.last(), nil
}

// TrimChanges implements calendar.ChangeLog.
func (s *Store) TrimChanges(ctx context.Context, now time.Time) error {
	if err := checkCtx(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trimChanges(now, len(s.changes.log))
	return nil
}

// WaitChanges implements calendar.ChangeLog.
func (s *Store) WaitChanges(ctx context.Context, after int64) error {
	return storage.WaitChanges(ctx, &s.changes.sig, after, s.LastChangeSeq)
}
