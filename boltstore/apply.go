package boltstore

import (
	"context"
	"errors"
	"sync"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// Apply performs every step of w in one bbolt read-write transaction: the
// steps change records and indexes in order, each seeing what the earlier
// ones wrote (placeholders, names, slugs, versions), and the transaction
// commits — with one fsync — only when all of them succeeded. A failing step
// returns its error and bbolt rolls the transaction back, so nothing of w
// reaches the file; a process killed before the commit leaves the file as it
// was (see calendar.Repository).
func (s *Store) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	if w == nil {
		return nil, errInvalid("apply: nil write")
	}
	res := &calendar.WriteResult{Steps: make([]calendar.StepResult, len(w.Steps))}
	if len(w.Steps) == 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return res, nil
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		// Work on copies, made afresh on each run (group commit may run
		// this again): placeholders are resolved in place, ids and
		// versions assigned, and the caller's records must not change.
		steps := make([]calendar.Step, len(w.Steps))
		for i, st := range w.Steps {
			steps[i] = st
			steps[i].Post, steps[i].Term = st.Post.Clone(), st.Term.Clone()
		}
		a := &applier{ctx: ctx, tx: tx, cache: s.cache}
		for i := range steps {
			if err := ctx.Err(); err != nil {
				return err
			}
			r, err := a.step(&steps[i], res.Steps[:i])
			if err == nil {
				err = s.fault.after(i + 1)
			}
			if err != nil {
				return &calendar.StepError{Step: i, Op: steps[i].Op, Err: s.wrapTx(err)}
			}
			res.Steps[i] = r
		}
		return s.commitChanges(tx, a.changes)
	})
	if err != nil {
		return nil, err
	}
	s.changeSig.Notify()
	return res, nil
}

// applyOne runs a one-step write for the single-record methods and returns
// the step's own error, not the StepError around it.
func (s *Store) applyOne(ctx context.Context, st calendar.Step) (calendar.StepResult, error) {
	res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{st}})
	if err != nil {
		var se *calendar.StepError
		if errors.As(err, &se) {
			return calendar.StepResult{}, se.Err
		}
		return calendar.StepResult{}, err
	}
	return res.Steps[0], nil
}

// applier carries out the steps of one Apply inside its transaction.
type applier struct {
	ctx   context.Context
	tx    *bolt.Tx
	cache *postCache
	// changes holds one change per record write, in order.
	changes []calendar.Change
}

func (a *applier) step(st *calendar.Step, done []calendar.StepResult) (calendar.StepResult, error) {
	switch st.Op {
	case calendar.OpCreatePost, calendar.OpUpdatePost, calendar.OpEnsurePost:
		if st.Post == nil {
			return calendar.StepResult{}, errInvalid("%s: nil record", st.Op)
		}
		if err := storage.ResolvePostRefs(st.Post, done); err != nil {
			return calendar.StepResult{}, err
		}
		var r calendar.StepResult
		var err error
		switch st.Op {
		case calendar.OpCreatePost:
			r.Post, err = a.createPost(st.Post)
		case calendar.OpUpdatePost:
			r.Post, err = a.updatePost(st.Post)
		default:
			r.Post, r.Found, err = a.ensurePost(st)
		}
		return r, err
	case calendar.OpCreateTerm, calendar.OpUpdateTerm, calendar.OpEnsureTerm:
		if st.Term == nil {
			return calendar.StepResult{}, errInvalid("%s: nil record", st.Op)
		}
		if err := storage.ResolveTermRefs(st.Term, done); err != nil {
			return calendar.StepResult{}, err
		}
		var r calendar.StepResult
		var err error
		switch st.Op {
		case calendar.OpCreateTerm:
			r.Term, err = a.createTerm(st.Term)
		case calendar.OpUpdateTerm:
			r.Term, err = a.updateTerm(st.Term)
		default:
			r.Term, r.Found, err = a.ensureTerm(st.Term)
		}
		return r, err
	case calendar.OpDeletePost:
		return calendar.StepResult{}, a.deletePost(st.ID, st.Version)
	case calendar.OpDeleteTerm:
		return calendar.StepResult{}, a.deleteTerm(st.ID, st.Version)
	}
	return calendar.StepResult{}, errInvalid("unknown step operation %v", st.Op)
}

// faultHook makes an Apply fail inside the transaction after a given number
// of steps; only this package's tests arm it (FailApplyAfter), to prove that
// a driver failure between records leaves nothing.
type faultHook struct {
	mu    sync.Mutex
	steps int
	err   error
}

// after returns the armed error, once, when done steps have been applied.
func (f *faultHook) after(done int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil || done != f.steps {
		return nil
	}
	err := f.err
	f.steps, f.err = 0, nil
	return err
}
