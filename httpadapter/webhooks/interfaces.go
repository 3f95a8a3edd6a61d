package webhooks

import (
	"context"
	"errors"
	"time"
)

// ChangeSource is the calendar's change log as the Dispatcher reads it.
// Implementations must be safe for concurrent use.
type ChangeSource interface {
	// Changes returns at most limit changes with Seq > after, in Seq order,
	// and no gap: when it returns changes, the first has Seq after+1 unless
	// those were trimmed, in which case it returns an error matching
	// ErrCursorExpired instead. An empty result means there is nothing
	// after after yet.
	Changes(ctx context.Context, after uint64, limit int) ([]Change, error)
	// Wait blocks until the log's last Seq is greater than after and
	// returns it, or returns ctx's error when ctx ends first. It may
	// return early (the Dispatcher then reads and waits again), but must
	// not sleep through a change committed by this or another process for
	// long: the Dispatcher polls only every few seconds besides it.
	Wait(ctx context.Context, after uint64) (last uint64, err error)
}

// ErrCursorExpired is what a ChangeSource returns when the changes after a
// cursor were trimmed by retention. The Dispatcher disables a subscription
// that falls that far behind; re-enabling it must move its cursor (to the
// log's last Seq, say) or it is disabled again.
var ErrCursorExpired = errors.New("webhooks: cursor older than the change log's retention")

// ErrNotFound is what a SubscriptionStore returns for a subscription that
// does not exist (any more).
var ErrNotFound = errors.New("webhooks: no such subscription")

// SubscriptionStore keeps subscriptions and their delivery progress.
// Implementations must be safe for concurrent use; with several app
// instances they must be shared (the lease keeps the writers of one
// subscription's progress to one instance at a time).
type SubscriptionStore interface {
	// ActiveSubscriptions returns every subscription that is not disabled.
	// The Dispatcher calls it at start, every refresh interval and on
	// Refresh.
	ActiveSubscriptions(ctx context.Context) ([]Subscription, error)
	// Subscription returns one subscription as stored now, disabled or
	// not, or an error matching ErrNotFound. The Dispatcher reads it
	// after taking the lease, so the Progress must be the latest saved.
	Subscription(ctx context.Context, id int64) (Subscription, error)
	// SaveProgress stores p as the subscription's Progress. A Cursor lower
	// than the stored one must not replace it (a delivery that ran late
	// after losing its lease cannot move a subscription back); the other
	// fields are replaced. It does not change whether the subscription is
	// disabled, and a missing subscription is ErrNotFound.
	SaveProgress(ctx context.Context, id int64, p Progress) error
	// Disable stores p like SaveProgress and marks the subscription
	// disabled, with reason for the admins. It stays disabled until an
	// admin re-enables it, which should also clear FailingSince and
	// Attempts.
	Disable(ctx context.Context, id int64, p Progress, reason string) error
}

// Leaser hands out named, expiring leases so that one of several
// Dispatchers delivers each subscription at a time. A lease held by an
// owner that stops renewing it expires after its ttl and can then be taken
// by another. Implementations must be safe for concurrent use and shared by
// every instance (MemoryLeaser within one process; a Redis one across
// processes).
type Leaser interface {
	// Acquire takes lease key for owner for ttl and reports true when it is
	// free, expired or already owner's (then it is extended), false when
	// another owner holds it.
	Acquire(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	// Renew extends owner's lease key by ttl from now and reports true, or
	// reports false when owner no longer holds it (it expired, or another
	// owner took it).
	Renew(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	// Release gives the lease up if owner holds it; otherwise it does
	// nothing.
	Release(ctx context.Context, key, owner string) error
}

// Matcher decides whether a change passes a subscription's non-empty
// Filter. The calendar implements it, because deciding needs the record
// (an event's categories, venue, organizers). The Dispatcher calls it only
// for changes whose type the subscription wants. An error is retried later,
// the change is not skipped. A record that can no longer be read (deleted)
// should match, so that mirrors learn of deletions. Without a Matcher,
// filters are ignored and every wanted change is delivered.
type Matcher interface {
	Match(ctx context.Context, f Filter, c Change) (bool, error)
}

// MatcherFunc adapts a function to Matcher.
type MatcherFunc func(ctx context.Context, f Filter, c Change) (bool, error)

// Match calls m.
func (m MatcherFunc) Match(ctx context.Context, f Filter, c Change) (bool, error) {
	return m(ctx, f, c)
}

// Clock is the time the Dispatcher measures retries and failure runs with.
// Tests substitute one that jumps instead of sleeping (give a MemoryLeaser
// the same clock then). Idle polling while waiting for changes runs on real
// timers, and the webhook-timestamp header is always the real time, since
// receivers compare it with theirs.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx ends, returning ctx's error then.
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
