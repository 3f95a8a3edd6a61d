package calendar

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// A read-modify-write that did not ask for a version (no If-Match) must never
// fail because another writer got there first: it re-reads and re-applies
// until it wins or the context's deadline passes. Retries back off
// exponentially with full jitter so that many writers on one record spread
// out instead of colliding again in lockstep.
const (
	retryBase  = time.Millisecond
	retryCap   = 200 * time.Millisecond
	retryLimit = 10 * time.Second // without a deadline on ctx
)

// retrier paces the attempts of one write.
type retrier struct {
	start   time.Time
	attempt int
}

func newRetrier() *retrier { return &retrier{start: time.Now()} }

// again waits before the next attempt after a conflict. It returns false
// (and the reason) when no attempt is left: the context ended, or no
// deadline was set and retryLimit has passed.
func (r *retrier) again(ctx context.Context) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if _, has := ctx.Deadline(); !has && time.Since(r.start) > retryLimit {
		return false, errors.New("calendar: gave up after retrying a contended write")
	}
	backoff := retryBase << min(r.attempt, 8)
	backoff = min(backoff, retryCap)
	r.attempt++
	wait := time.Duration(rand.Int64N(int64(backoff) + 1))
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-t.C:
		return true, nil
	}
}
