package calendar

import (
	"context"
	"errors"
	"fmt"
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
	// maxVanished bounds the fresh reads after a write found a record
	// missing: one normally explains it (the record is gone, or a link is),
	// so more mean a store that contradicts itself.
	maxVanished = 3
)

// retrier paces the attempts of one write.
type retrier struct {
	start    time.Time
	attempt  int
	vanished int
}

// after decides whether a write that failed with err is tried again (after
// a pause), from a fresh read: on a conflict when the caller pinned no
// version (ifVersion 0), and a few times when a record went missing
// meanwhile — the next read then answers with the kind's own not-found
// error, or validation names the link that is gone. When it gives up, err
// is what to report: for a conflict without a pinned version the reason the
// retries ended (the context's error, or a time limit), never the conflict,
// so the caller never sees a precondition failure it did not ask for.
func (r *retrier) after(ctx context.Context, err error, ifVersion int64) (retry bool, _ error) {
	switch {
	case errors.Is(err, ErrConflict) && ifVersion == 0:
		ok, rerr := r.again(ctx)
		if !ok {
			return false, rerr
		}
		return true, nil
	case errors.Is(err, ErrNotFound) && !errors.Is(err, ErrConflict):
		if r.vanished >= maxVanished {
			return false, fmt.Errorf("calendar: a record of the write stayed missing after %d fresh reads: %v", r.vanished, err)
		}
		r.vanished++
		if ok, rerr := r.again(ctx); !ok {
			return false, rerr
		}
		return true, nil
	}
	return false, err
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
