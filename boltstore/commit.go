package boltstore

import (
	"context"
	"fmt"
	"slices"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// committer is group commit: writers that arrive while a transaction is
// committing queue up, and the next transaction runs all of them and ends
// with one fsync. Each writer still returns only after its transaction is on
// disk, so "acknowledged = on disk" holds; what is shared is the fsync,
// which is what bounds a durable store's write rate (one fsync per write
// made 16 concurrent writers as slow as one).
//
// Unlike bbolt's DB.Batch there is no waiting for company: a writer that
// finds no transaction running starts one at once, so a lone writer pays no
// delay. A queued writer is led by whoever holds the lead: the leader runs
// the queue, then hands the lead to the first writer queued meanwhile.
type committer struct {
	mu      sync.Mutex
	pending []*commitCall
	busy    bool // a leader holds the lead
}

type commitCall struct {
	fn     func(*bolt.Tx) error
	result chan error    // the call's outcome, sent once
	lead   chan struct{} // the lead, handed to this call
}

// update runs fn in a read-write transaction, possibly shared with other
// writers, after checking ctx; fn's error rolls back its own writes only.
// fn may run more than once (when another writer's fn fails in a shared
// transaction, the others run again without it), so it must start from the
// same inputs every time and keep its results only from the last run.
func (s *Store) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c := &commitCall{fn: fn, result: make(chan error, 1), lead: make(chan struct{}, 1)}
	q := &s.commits
	q.mu.Lock()
	q.pending = append(q.pending, c)
	if !q.busy {
		q.busy = true
		c.lead <- struct{}{}
	}
	q.mu.Unlock()
	for {
		select {
		case err := <-c.result:
			return s.wrapTx(err)
		case <-c.lead:
			q.mu.Lock()
			batch := q.pending
			q.pending = nil
			q.mu.Unlock()
			s.commitBatch(batch) // c is in it: its result is there next
			q.mu.Lock()
			if len(q.pending) > 0 {
				q.pending[0].lead <- struct{}{}
			} else {
				q.busy = false
			}
			q.mu.Unlock()
		}
	}
}

// commitBatch runs the calls in one transaction, in order. When one fails,
// the transaction is rolled back, that call gets its error (it failed
// after the calls before it, which run again in the same order, so the
// error is the one a serial run would give) and the rest run again without it.
func (s *Store) commitBatch(batch []*commitCall) {
	for len(batch) > 0 {
		failed := -1
		var ferr error
		err := s.db.Update(func(tx *bolt.Tx) error {
			for i, c := range batch {
				if err := safeCall(c.fn, tx); err != nil {
					failed, ferr = i, err
					return err
				}
			}
			return nil
		})
		if failed < 0 {
			for _, c := range batch {
				c.result <- err // nil, or the commit's own failure for all
			}
			return
		}
		batch[failed].result <- ferr
		batch = slices.Delete(batch, failed, failed+1)
	}
}

// safeCall turns a panic in fn into its error, so that one writer's bug
// cannot leave the writers queued behind it waiting forever.
func safeCall(fn func(*bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("boltstore: panic in write: %v", p)
		}
	}()
	return fn(tx)
}
